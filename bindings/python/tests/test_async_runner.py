"""AsyncRunner: effects as asyncio tasks, driven by the system's commands."""

from __future__ import annotations

import asyncio
import logging

import pytest

import corelogic
from helpers import page, waits_until_cancelled

SWIFT = {"queryChanged": {"text": "swift"}}


def loaded(state):
    return bool(state["items"]) and not state["shouldLoadNextPage"]


def traced(runner_kwargs=None):
    log = []
    return log, dict(runner_kwargs or {}, trace=lambda kind, effect_id, detail: log.append((kind, effect_id)))


def test_a_handler_result_is_delivered_with_its_effect_id(search):
    log, kwargs = traced()
    runner = corelogic.AsyncRunner(search, **kwargs)
    requests = []

    @runner.effect("loadPage")
    async def load_page(request):
        requests.append(request)
        await asyncio.sleep(0.01)
        return page(["apple/swift"], "https://api.example/next")

    async def main():
        async with runner:
            runner.send(SWIFT)
            return await runner.run_until(loaded, timeout=5)

    state = asyncio.run(main())
    assert requests == [{"url": "/search/repositories?q=swift"}]
    assert [item["name"] for item in state["items"]] == ["apple/swift"]
    assert state["nextURL"] == "https://api.example/next"
    # pageLoaded stops the load, so the engine cancels the effect it came from.
    assert log == [("start", 1), ("event", 1), ("cancel", 1)]
    assert search.effects == [] and runner.running == {}


def test_cancel_reaches_the_task(search):
    runner = corelogic.AsyncRunner(search)
    cancelled = []
    started = []

    @runner.effect("loadPage")
    async def load_page(request):
        if request["url"].endswith("=a"):
            started.append(True)
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.append(request["url"])
                raise
        return page([request["url"]])

    async def main():
        async with runner:
            runner.send({"queryChanged": {"text": "a"}})
            while not started:
                await asyncio.sleep(0.001)
            runner.send({"queryChanged": {"text": "b"}})
            state = await runner.run_until(loaded, timeout=5)
            await asyncio.sleep(0.01)
            return state

    state = asyncio.run(main())
    assert cancelled == ["/search/repositories?q=a"]
    assert [item["name"] for item in state["items"]] == ["/search/repositories?q=b"]


def test_a_result_of_a_cancelled_effect_never_reaches_the_reducer(search):
    log, kwargs = traced()
    runner = corelogic.AsyncRunner(search, **kwargs)
    reducer_saw = []

    @runner.effect("loadPage")
    async def load_page(request):
        if request["url"].endswith("=a"):
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                pass  # a careless handler that answers anyway
            return page(["late/a"])
        await asyncio.sleep(0.02)
        return page(["fresh/b"])

    async def main():
        async with runner:
            runner.send({"queryChanged": {"text": "a"}})
            await asyncio.sleep(0.01)
            runner.send({"queryChanged": {"text": "b"}})
            state = await runner.run_until(loaded, timeout=5)
            await asyncio.sleep(0.05)  # let the careless handler finish
            reducer_saw.append(search.state)
            return state

    state = asyncio.run(main())
    assert [item["name"] for item in state["items"]] == ["fresh/b"]
    assert [item["name"] for item in reducer_saw[0]["items"]] == ["fresh/b"]
    assert ("stale", 1) in log and ("event", 1) not in log


def test_a_handler_that_answers_synchronously(search):
    runner = corelogic.AsyncRunner(search)

    @runner.effect("loadPage")
    def load_page(request):  # a plain function: the answer is at hand
        return page(["cache/hit"])

    async def main():
        async with runner:
            runner.send(SWIFT)
            return await runner.run_until(loaded, timeout=5)

    assert [item["name"] for item in asyncio.run(main())["items"]] == ["cache/hit"]


def test_an_exception_becomes_an_event_through_on_error(search):
    errors = []

    def on_error(feedback, request, exc):
        errors.append((feedback, request, str(exc)))
        return {"loadFailed": {"error": {"offline": {}}}}

    runner = corelogic.AsyncRunner(search, on_error=on_error)

    @runner.effect("loadPage")
    async def load_page(request):
        raise ConnectionError("no network")

    @runner.effect("retryTimer")
    async def retry_timer(request):
        await asyncio.sleep(30)

    async def main():
        async with runner:
            runner.send(SWIFT)
            state = await runner.run_until(lambda s: "lastError" in s, timeout=5)
            await asyncio.sleep(0.01)
            return state

    state = asyncio.run(main())
    assert state["lastError"] == {"offline": {}}
    assert errors == [("loadPage", {"url": "/search/repositories?q=swift"}, "no network")]


def test_an_unmapped_exception_is_logged_and_the_effect_completed(search, caplog):
    runner = corelogic.AsyncRunner(search)

    @runner.effect("loadPage")
    async def load_page(request):
        raise ValueError("handler bug")

    async def main():
        async with runner:
            runner.send(SWIFT)
            for _ in range(100):
                if not search.effects:
                    break
                await asyncio.sleep(0.01)

    with caplog.at_level(logging.ERROR, logger="corelogic.runner"):
        asyncio.run(main())
    assert "effect 1 (loadPage) failed" in caplog.text and "handler bug" in caplog.text
    assert search.effects == []  # completed: not left running
    assert search.state["shouldLoadNextPage"] is True  # and nothing was delivered


def test_an_async_generator_delivers_each_event(library):
    with corelogic.System("downloads", library=library) as downloads:
        runner = corelogic.AsyncRunner(downloads)
        seen = []

        @runner.effect("download")
        async def download(request):
            seen.append(request["url"])
            if request["url"] == "a":
                yield {"enqueue": {"url": "b"}}  # does not touch this effect's request
            await asyncio.sleep(0)
            yield {"finished": {"url": request["url"]}}

        async def main():
            async with runner:
                runner.send({"enqueue": {"url": "a"}})
                return await runner.run_until(lambda s: len(s["finished"]) == 2, timeout=5)

        state = asyncio.run(main())
        assert seen == ["a", "b"]
        assert state["finished"] == ["a", "b"] and state["pending"] == []


def test_effects_running_before_the_runner_starts_are_resumed(library):
    wants_a_page = {"query": "swift", "items": [], "nextURL": "/search/repositories?q=swift", "shouldLoadNextPage": True}
    with corelogic.System("search", wants_a_page, library=library) as search:
        assert search.initial_batch.started[0]["feedback"] == "loadPage"
        runner = corelogic.AsyncRunner(search)

        @runner.effect("loadPage")
        async def load_page(request):
            return page(["resumed/load"])

        async def main():
            async with runner:
                return await runner.run_until(loaded, timeout=5)

        assert [item["name"] for item in asyncio.run(main())["items"]] == ["resumed/load"]


def test_commands_from_another_thread_start_tasks_on_the_loop(search):
    runner = corelogic.AsyncRunner(search)
    loops = []

    @runner.effect("loadPage")
    async def load_page(request):
        loops.append(asyncio.get_running_loop())
        return page(["from/thread"])

    async def main():
        async with runner:
            await asyncio.to_thread(search.send, SWIFT)
            state = await runner.run_until(loaded, timeout=5)
            return state, asyncio.get_running_loop()

    state, loop = asyncio.run(main())
    assert loops == [loop]
    assert [item["name"] for item in state["items"]] == ["from/thread"]


def test_run_until_times_out(search):
    runner = corelogic.AsyncRunner(search)

    async def main():
        async with runner:
            await runner.run_until(lambda s: s["query"] == "never", timeout=0.05)

    with pytest.raises(TimeoutError, match="not met within 0.05"):
        asyncio.run(main())


def test_closing_the_runner_cancels_running_tasks(search):
    runner = corelogic.AsyncRunner(search)
    cancelled = []

    runner.effect("loadPage")(waits_until_cancelled(cancelled))

    async def main():
        async with runner:
            runner.send(SWIFT)
            await asyncio.sleep(0.01)
        return runner.running

    assert asyncio.run(main()) == {}
    assert cancelled == [True]
    # The effect is still running in the system: a new runner would resume it.
    assert [effect["id"] for effect in search.effects] == [1]


def test_entering_the_context_starts_the_runner_like_with_for_threads(search):
    # The effect is running before the runner exists: entering must start its handler.
    search.send(SWIFT)
    runner = corelogic.AsyncRunner(search)
    started = []

    @runner.effect("loadPage")
    async def load_page(request):
        started.append(request["url"])
        await asyncio.sleep(5)

    async def main():
        async with runner:
            assert search.command_handler is not None
            await asyncio.sleep(0)
            assert started == ["/search/repositories?q=swift"]
        assert search.command_handler is None

    asyncio.run(main())


def test_an_unknown_feedback_name_is_refused(search):
    runner = corelogic.AsyncRunner(search)
    with pytest.raises(corelogic.ArgumentError, match="loadPage, retryTimer"):
        runner.effect("loadpage")


def test_a_second_runner_on_the_same_system_is_refused(search):
    async def main():
        async with corelogic.AsyncRunner(search):
            with pytest.raises(RuntimeError, match="one runner per system"):
                corelogic.AsyncRunner(search).start()

    asyncio.run(main())


def test_closing_the_system_under_a_running_handler_is_quiet(library, caplog):
    system = corelogic.System("search", library=library)
    runner = corelogic.AsyncRunner(system)
    finished = []

    @runner.effect("loadPage")
    async def load_page(request):
        await asyncio.sleep(0.02)
        finished.append(True)
        return page(["too/late"])

    async def main():
        async with runner:
            runner.send(SWIFT)
            await asyncio.sleep(0.005)
            system.close()
            await asyncio.sleep(0.05)

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert finished == [True]
    assert caplog.records == []
