"""Push handlers (on_command, on_state), re-entrancy, and many threads at once."""

from __future__ import annotations

import logging
import threading

import pytest

import corelogic
from helpers import page


def test_command_handler_sees_the_batch_commands_in_order(search):
    seen = []
    search.on_command(seen.append)
    search.send({"queryChanged": {"text": "a"}})
    batch = search.send({"queryChanged": {"text": "ab"}})
    assert seen == [
        {"start": {"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=a"}}},
        {"cancel": 1},
        {"start": {"id": 2, "feedback": "loadPage", "request": {"url": "/search/repositories?q=ab"}}},
    ]
    assert seen[1:] == batch.effects


def test_state_handler_sees_every_new_state(counter):
    states = []
    counter.on_state(states.append)
    counter.send("increment")
    counter.send("increment")
    assert states == [{"count": 1}, {"count": 2}]


def test_removed_handlers_are_not_called(counter):
    states = []
    counter.on_state(states.append)
    counter.on_state(None)
    counter.send("increment")
    assert states == []


def test_a_handler_answering_at_once_is_applied_before_the_call_returns(search):
    inner = []

    def answer(command):
        if "start" in command:
            inner.append(search.deliver(command["start"]["id"], page(["cached/result"])))

    search.on_command(answer)
    batch = search.send({"queryChanged": {"text": "swift"}})
    # The queued delivery ran as a second step of the same call.
    assert batch.steps == 2
    assert [item["name"] for item in batch.state["items"]] == ["cached/result"]
    assert batch.effects[-1] == {"cancel": 1}
    # The inner call itself returned at once, with nothing run yet.
    assert len(inner) == 1 and inner[0].steps == 0 and inner[0].effects == []


def test_inputs_without_a_batch_report_only_whether_they_were_accepted(search):
    commands, states = [], []
    search.on_command(commands.append)
    search.on_state(states.append)
    assert (search.command_handler, search.state_handler) == (commands.append, states.append)
    search.send({"queryChanged": {"text": "swift"}})
    assert search.deliver_without_batch(1, page(["pushed/result"])) is True
    # What a batch would have said reached the handlers instead.
    assert commands[-1] == {"cancel": 1}
    assert [item["name"] for item in states[-1]["items"]] == ["pushed/result"]
    assert search.deliver_without_batch(1, page(["late/result"])) is False
    assert search.complete_without_batch(1) is False
    assert [item["name"] for item in search.state["items"]] == ["pushed/result"]
    with pytest.raises(corelogic.ArgumentError):
        search.complete_without_batch(-1)


def test_an_exception_in_a_handler_is_logged_and_the_call_succeeds(counter, caplog):
    def broken(state):
        raise RuntimeError("handler bug")

    counter.on_state(broken)
    with caplog.at_level(logging.ERROR, logger="corelogic"):
        assert counter.send("increment").state == {"count": 1}
    assert "handler bug" in caplog.text


def test_closing_from_inside_a_handler_is_safe(library):
    system = corelogic.System("counter", library=library)
    system.on_state(lambda state: system.close())
    system.send("increment")
    assert system.closed
    with pytest.raises(corelogic.HandleError):
        system.send("increment")


def test_a_handler_may_replace_itself(counter):
    calls = []

    def first(state):
        calls.append("first")
        counter.on_state(lambda state: calls.append("second"))

    counter.on_state(first)
    counter.send("increment")
    counter.send("increment")
    assert calls == ["first", "second"]


def test_eight_threads_sending_at_once_lose_nothing_and_repeat_nothing(counter):
    threads, per_thread = 8, 2000
    counts = [[] for _ in range(threads)]
    barrier = threading.Barrier(threads)

    def worker(index):
        barrier.wait()
        seen = counts[index]
        for _ in range(per_thread):
            batch = counter.send("increment")
            assert batch.steps == 1
            seen.append(batch.state["count"])

    pool = [threading.Thread(target=worker, args=(index,)) for index in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    everything = sorted(count for seen in counts for count in seen)
    # Each increment was applied exactly once, and each caller saw its own step.
    assert everything == list(range(1, threads * per_thread + 1))
    assert counter.state == {"count": threads * per_thread}


def test_threads_delivering_to_one_effect_apply_exactly_one_answer(search):
    search.send({"queryChanged": {"text": "swift"}})
    results = []
    barrier = threading.Barrier(8)

    def worker(index):
        barrier.wait()
        results.append(search.deliver(1, page([f"thread/{index}"])))

    pool = [threading.Thread(target=worker, args=(index,)) for index in range(8)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    # The first answer stops the load (cancel 1); every later one is stale.
    assert sum(1 for result in results if result is corelogic.STALE) == 7
    assert len(search.state["items"]) == 1
