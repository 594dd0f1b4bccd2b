"""The effect runners' rules (docs/hosts.md, "Effect runners"), the same scenarios as the
JVM's RunnerRulesTest and Node's runner_rules.test.js, for AsyncRunner and ThreadRunner."""

from __future__ import annotations

import asyncio
import threading
import time

import corelogic
from helpers import page, waits_until_cancelled

SWIFT = {"queryChanged": {"text": "swift"}}
START = {"start": {"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=swift"}}}


def until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


# ---- ThreadRunner ----------------------------------------------------------------------

def test_thread_a_start_whose_effect_is_running_is_ignored(search):
    calls, release = [], threading.Event()

    def load_page(request, token):
        calls.append(1)
        release.wait(5)

    with corelogic.ThreadRunner(search) as runner:
        runner.effect("loadPage")(load_page)
        runner.send(SWIFT)
        until(lambda: calls == [1])
        runner._on_command(START)
        release.set()
        until(lambda: search.effects == [])
    assert calls == [1]


def test_thread_a_cancel_of_a_finished_effect_does_nothing(search):
    log = []
    with corelogic.ThreadRunner(search, trace=lambda kind, effect_id, detail: log.append(kind)) as runner:
        runner.effect("loadPage")(lambda request, token: None)
        runner.send(SWIFT)
        until(lambda: search.effects == [] and runner.running == {})
        runner._on_command({"cancel": 1})
    assert "cancel" not in log and log[-1] == "complete"


def test_thread_an_answer_after_close_is_dropped(search):
    go, answered = threading.Event(), threading.Event()

    def load_page(request, token):  # ignores its token on purpose
        go.wait(5)
        answered.set()
        return page(["apple/swift"])

    runner = corelogic.ThreadRunner(search)
    runner.effect("loadPage")(load_page)
    runner.start()
    runner.send(SWIFT)
    until(lambda: runner.running == {1: "loadPage"})
    runner.close(wait=False)
    go.set()
    assert answered.wait(5)
    time.sleep(0.05)
    assert search.state["items"] == [] and [effect["id"] for effect in search.effects] == [1]


def test_thread_an_exception_goes_to_on_error_then_the_effect_completes(search):
    def fail(request, token):
        raise RuntimeError("offline")

    with corelogic.ThreadRunner(search, on_error=lambda feedback, request, exc: page(["mapped"])) as runner:
        runner.effect("loadPage")(fail)
        runner.send(SWIFT)
        until(lambda: search.state["items"] != [] and search.effects == [])
    assert search.state["items"][0]["name"] == "mapped"


def test_thread_shutdown_cancels_handlers_and_leaves_effects_running(search):
    cancelled = []
    runner = corelogic.ThreadRunner(search)
    runner.effect("loadPage")(lambda request, token: cancelled.append(token.wait(5)))
    runner.start()
    runner.send(SWIFT)
    until(lambda: runner.running == {1: "loadPage"})
    runner.close()
    assert cancelled == [True] and runner.running == {}
    assert [effect["id"] for effect in search.effects] == [1]


# ---- AsyncRunner -----------------------------------------------------------------------

def test_async_a_start_whose_effect_is_running_is_ignored(search):
    calls = []

    async def main():
        runner = corelogic.AsyncRunner(search)
        release = asyncio.Event()

        @runner.effect("loadPage")
        async def load_page(request):
            calls.append(1)
            await release.wait()

        async with runner:
            runner.send(SWIFT)
            await asyncio.sleep(0.01)
            runner._on_command(START)
            await asyncio.sleep(0.01)
            release.set()
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert calls == [1] and search.effects == []


def test_async_a_cancel_of_a_finished_effect_does_nothing(search):
    log = []

    async def main():
        runner = corelogic.AsyncRunner(search, trace=lambda kind, effect_id, detail: log.append(kind))

        @runner.effect("loadPage")
        async def load_page(request):
            return None

        async with runner:
            runner.send(SWIFT)
            await asyncio.sleep(0.01)
            assert search.effects == [] and runner.running == {}
            runner._on_command({"cancel": 1})

    asyncio.run(main())
    assert "cancel" not in log and log[-1] == "complete"


def test_async_an_answer_after_close_is_dropped(search):
    async def main():
        runner = corelogic.AsyncRunner(search)

        @runner.effect("loadPage")
        async def load_page(request):  # swallows its cancellation on purpose
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                pass
            return page(["apple/swift"])

        runner.start()
        runner.send(SWIFT)
        await asyncio.sleep(0.01)
        await runner.aclose()

    asyncio.run(main())
    assert search.state["items"] == [] and [effect["id"] for effect in search.effects] == [1]


def test_async_an_exception_goes_to_on_error_then_the_effect_completes(search):
    async def main():
        runner = corelogic.AsyncRunner(search, on_error=lambda feedback, request, exc: page(["mapped"]))

        @runner.effect("loadPage")
        async def load_page(request):
            raise RuntimeError("offline")

        async with runner:
            runner.send(SWIFT)
            return await runner.run_until(lambda state: state["items"] != [], timeout=5)

    assert asyncio.run(main())["items"][0]["name"] == "mapped"
    assert search.effects == []


def test_async_shutdown_cancels_handlers_and_leaves_effects_running(search):
    cancelled = []

    async def main():
        runner = corelogic.AsyncRunner(search)

        runner.effect("loadPage")(waits_until_cancelled(cancelled))

        runner.start()
        runner.send(SWIFT)
        await asyncio.sleep(0.01)
        await runner.aclose()
        return runner.running

    assert asyncio.run(main()) == {} and cancelled == [True]
    assert [effect["id"] for effect in search.effects] == [1]
