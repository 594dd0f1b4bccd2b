"""ThreadRunner: blocking handlers on a pool, cooperative cancellation."""

from __future__ import annotations

import logging
import threading
import time

import pytest

import corelogic
from helpers import page

SWIFT = {"queryChanged": {"text": "swift"}}


def loaded(state):
    return bool(state["items"]) and not state["shouldLoadNextPage"]


def test_a_blocking_handler_result_is_delivered(search):
    threads = []
    runner = corelogic.ThreadRunner(search)

    @runner.effect("loadPage")
    def load_page(request):
        threads.append(threading.current_thread().name)
        time.sleep(0.01)
        return page(["apple/swift"])

    with runner:
        runner.send(SWIFT)
        state = runner.run_until(loaded, timeout=5)
    assert [item["name"] for item in state["items"]] == ["apple/swift"]
    assert threads[0].startswith("corelogic-effect")
    assert search.effects == []


def test_cancellation_reaches_the_token_and_the_late_result_is_dropped(search):
    log = []
    tokens = {}
    cancelled_seen = threading.Event()

    runner = corelogic.ThreadRunner(search, trace=lambda kind, effect_id, detail: log.append((kind, effect_id)))

    @runner.effect("loadPage")
    def load_page(request, token):
        tokens[request["url"]] = token
        if request["url"].endswith("=a"):
            if token.wait(5):
                cancelled_seen.set()
            return page(["late/a"])  # answers anyway: must be dropped
        return page(["fresh/b"])

    with runner:
        runner.send({"queryChanged": {"text": "a"}})
        while "/search/repositories?q=a" not in tokens:
            time.sleep(0.001)
        runner.send({"queryChanged": {"text": "b"}})
        state = runner.run_until(loaded, timeout=5)
        assert cancelled_seen.wait(5)
        while runner.running:
            time.sleep(0.001)
    assert tokens["/search/repositories?q=a"].cancelled
    assert [item["name"] for item in state["items"]] == ["fresh/b"]
    assert [item["name"] for item in search.state["items"]] == ["fresh/b"]
    assert ("stale", 1) in log and ("event", 1) not in log


def test_a_handler_may_leave_out_the_token(search):
    runner = corelogic.ThreadRunner(search, max_workers=1)

    @runner.effect("loadPage")
    def load_page(request):
        return page(["no/token"])

    with runner:
        runner.send(SWIFT)
        assert [item["name"] for item in runner.run_until(loaded, timeout=5)["items"]] == ["no/token"]


def test_a_generator_handler_delivers_each_event(library):
    downloads = corelogic.System("downloads", library=library)
    runner = corelogic.ThreadRunner(downloads)

    @runner.effect("download")
    def download(request, token):
        if request["url"] == "a":
            yield {"enqueue": {"url": "b"}}
        yield {"finished": {"url": request["url"]}}

    with downloads, runner:
        runner.send({"enqueue": {"url": "a"}})
        state = runner.run_until(lambda s: len(s["finished"]) == 2, timeout=5)
    assert sorted(state["finished"]) == ["a", "b"]


def test_an_exception_becomes_an_event_through_on_error(search):
    def on_error(feedback, request, exc):
        return {"loadFailed": {"error": {"rateLimited": {"retryAfter": 30}}}}

    runner = corelogic.ThreadRunner(search, on_error=on_error)

    @runner.effect("loadPage")
    def load_page(request):
        raise TimeoutError("slow server")

    @runner.effect("retryTimer")
    def retry_timer(request, token):
        token.wait(request["seconds"])

    with runner:
        runner.send(SWIFT)
        state = runner.run_until(lambda s: "lastError" in s, timeout=5)
    assert state["lastError"] == {"rateLimited": {"retryAfter": 30}}


def test_an_unmapped_exception_is_logged_and_the_effect_completed(search, caplog):
    with caplog.at_level(logging.ERROR, logger="corelogic.runner"):
        runner = corelogic.ThreadRunner(search)

        @runner.effect("loadPage")
        def load_page(request):
            raise KeyError("handler bug")

        with runner:
            runner.send(SWIFT)
            deadline = time.monotonic() + 5
            while search.effects and time.monotonic() < deadline:
                time.sleep(0.005)
    assert search.effects == []
    assert "effect 1 (loadPage) failed" in caplog.text


def test_closing_the_runner_cancels_tokens_and_waits(search):
    tokens = []
    runner = corelogic.ThreadRunner(search)

    @runner.effect("loadPage")
    def load_page(request, token):
        tokens.append(token)
        token.wait(30)

    runner.start()
    runner.send(SWIFT)
    while not tokens:
        time.sleep(0.001)
    started = time.monotonic()
    runner.close()
    runner.close()
    assert tokens[0].cancelled and time.monotonic() - started < 5


def test_many_threads_enqueue_and_every_download_finishes(library):
    urls = [f"https://example.com/{thread}/{index}" for thread in range(8) for index in range(50)]
    downloads = corelogic.System("downloads", library=library)
    runner = corelogic.ThreadRunner(downloads, max_workers=4)

    @runner.effect("download")
    def download(request, token):
        return {"finished": {"url": request["url"]}}

    with downloads, runner:

        def enqueue(thread):
            for url in urls[thread * 50:(thread + 1) * 50]:
                downloads.send({"enqueue": {"url": url}})

        pool = [threading.Thread(target=enqueue, args=(thread,)) for thread in range(8)]
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join()
        state = runner.run_until(lambda s: len(s["finished"]) == len(urls), timeout=20)
    assert sorted(state["finished"]) == sorted(urls)
    assert state["pending"] == []


def test_entering_the_context_starts_the_runner_like_async_with(search):
    # The effect is running before the runner exists: entering must start its handler.
    search.send(SWIFT)
    runner = corelogic.ThreadRunner(search)
    started = threading.Event()

    @runner.effect("loadPage")
    def load_page(request, token):
        started.set()
        token.wait(5)

    with runner:
        assert search.command_handler is not None
        assert started.wait(5)
    assert search.command_handler is None


def test_run_until_times_out(search):
    with corelogic.ThreadRunner(search) as runner:
        with pytest.raises(TimeoutError):
            runner.run_until(lambda s: False, timeout=0.05)


def test_a_predicate_may_call_the_system_while_handlers_deliver(library):
    urls = [f"u{index}" for index in range(200)]
    downloads = corelogic.System("downloads", library=library)
    runner = corelogic.ThreadRunner(downloads, max_workers=4)

    @runner.effect("download")
    def download(request):
        return {"finished": {"url": request["url"]}}

    def all_finished(state):
        # A call that runs a step, made on the waiting thread while workers
        # deliver on theirs: run_until must not hold its lock meanwhile.
        return len(downloads.send({"setMaxConcurrent": {"value": 4}}).state["finished"]) == len(urls)

    runner.start()
    for url in urls:
        downloads.send({"enqueue": {"url": url}})
    waiter = threading.Thread(target=runner.run_until, args=(all_finished, 20), daemon=True)
    waiter.start()
    waiter.join(20)
    if waiter.is_alive():
        pytest.fail("run_until deadlocked with the workers (the system is left open)")
    runner.close()
    assert sorted(downloads.query("finished")) == sorted(urls)
    downloads.close()
