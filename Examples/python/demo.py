"""The paginated search feature, driven from Python against a real HTTP server.

    python3 Examples/python/demo.py               # a scripted tour, ~5 s
    python3 Examples/python/demo.py --interactive # type queries, scroll with Enter
    python3 Examples/python/demo.py --journal DIR # journal every input; after a crash
                                                  # or Ctrl-C, the same command resumes
    python3 Examples/python/demo.py --trace search.trace.jsonl   # then inspect it:
    PYTHONPATH=bindings/python python3 -m corelogic inspect search.trace.jsonl -o report.html

The business logic (what to load, when to cancel, when to retry) lives in the
Swift core; this host only performs the effects it asks for: ``loadPage`` is an
HTTP GET, ``retryTimer`` a sleep. Every line of the log is either an event the
host sent, an effect the core started or cancelled, or the resulting state.

Needs only the built library (``make`` builds the cookbook's, which the demo loads
unless ``CORELOGIC_LIBRARY`` or ``--library`` names another); the package is imported
from ``bindings/python`` without being installed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple
from urllib.parse import parse_qs, urljoin, urlsplit

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
COOKBOOK_LIBRARY = REPOSITORY / ".build" / "cookbook" / "release" / "libcookbook.so"
sys.path.insert(0, str(REPOSITORY / "bindings" / "python"))
sys.path.insert(0, str(HERE))

import corelogic  # noqa: E402
from search_server import SearchServer  # noqa: E402

State = Dict[str, Any]


# -- the effects ------------------------------------------------------------


async def http_get(url: str) -> Tuple[int, Dict[str, str], bytes]:
    """A minimal HTTP/1.1 GET on asyncio streams: cancelling the task that
    awaits it closes the connection at once."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        writer.write(
            f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            f"Accept: application/json\r\nConnection: close\r\n\r\n".encode("ascii")
        )
        await writer.drain()
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            raise ConnectionError("the server closed the connection without an answer") from None
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers = {}
        for line in header_lines:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, body
    finally:
        writer.close()


def next_link(link_header: Optional[str]) -> Optional[str]:
    """The URL of ``rel="next"`` in a ``Link`` header, if any."""
    for match in re.finditer(r'<([^>]*)>\s*;\s*rel="?([^";]+)"?', link_header or ""):
        if match.group(2) == "next":
            return match.group(1)
    return None


def server_relative(url: str) -> str:
    """``/search/repositories?q=swift&page=2`` for any URL on the server.

    The state is journaled and may be restored by a later run talking to a
    server on another port: it must not hold what changes between runs. So the
    host hands the core paths relative to the server, and resolves them
    against the current server only when it performs a request."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def install_effects(runner: corelogic.AsyncRunner, base_url: str) -> None:
    """Register the search feature's effect handlers on ``runner``."""

    @runner.effect("loadPage")
    async def load_page(request: Dict[str, Any]) -> Dict[str, Any]:
        # Every URL in the state is relative to the server (see server_relative):
        # resolved here, against the server of this run.
        status, headers, body = await http_get(urljoin(base_url, request["url"]))
        if status in (403, 429):
            retry_after = float(headers.get("retry-after", "1"))
            return {"loadFailed": {"error": {"rateLimited": {"retryAfter": retry_after}}}}
        if status != 200:
            raise ConnectionError(f"HTTP {status}")
        page = json.loads(body)
        loaded: Dict[str, Any] = {"items": page["items"]}
        url = next_link(headers.get("link"))
        if url is not None:
            loaded["nextURL"] = server_relative(url)
        return {"pageLoaded": loaded}

    @runner.effect("retryTimer")
    async def retry_timer(request: Dict[str, Any]) -> str:
        await asyncio.sleep(request["seconds"])
        return "retry"


def network_errors(feedback: str, request: Any, exc: BaseException) -> Optional[Dict[str, Any]]:
    """on_error: a failed request is the feature's ``offline`` error; anything
    else is a bug, left to the runner's log."""
    if feedback == "loadPage" and isinstance(exc, (OSError, EOFError, ValueError)):
        return {"loadFailed": {"error": {"offline": {}}}}
    return None


# -- the log ----------------------------------------------------------------


def page_of(url: Optional[str]) -> str:
    """``q=swift page 2`` for a search URL."""
    if not url:
        return "-"
    query = parse_qs(urlsplit(url).query)
    return f"q={query.get('q', [''])[0]} page {query.get('page', ['1'])[0]}"


def describe_event(event: Any) -> str:
    """A one-line rendering of an event."""
    if isinstance(event, str):
        return event
    (name, payload), = event.items()
    if name == "pageLoaded":
        more = f", next: {page_of(payload.get('nextURL'))}" if payload.get("nextURL") else ", last page"
        return f"pageLoaded {len(payload['items'])} items{more}"
    if name == "loadFailed":
        return f"loadFailed {describe_error(payload['error'])}"
    return f"{name} {json.dumps(payload, separators=(',', ':'))}"


def describe_error(error: Optional[Dict[str, Any]]) -> str:
    """``rateLimited(retry after 0.5 s)``, ``offline`` or ``-``."""
    if not error:
        return "-"
    (name, payload), = error.items()
    if name == "rateLimited":
        return f"rateLimited(retry after {payload['retryAfter']:g} s)"
    return name


def describe_state(state: State) -> str:
    """The state in one line."""
    items = state.get("items", [])
    loading = "yes" if state.get("shouldLoadNextPage") and state.get("nextURL") else "no"
    return (
        f"query={state.get('query', '')!r} items={len(items)} loading={loading} "
        f"next={page_of(state.get('nextURL'))} error={describe_error(state.get('lastError'))}"
    )


class Log:
    """Prints the live log with the time since the start."""

    def __init__(self, out: Optional[TextIO] = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.started = time.monotonic()
        self.lines: List[str] = []

    def __call__(self, kind: str, text: str) -> None:
        line = f"[{time.monotonic() - self.started:6.2f}s] {kind:<8} {text}"
        self.lines.append(line)
        print(line, file=self.out, flush=True)

    def trace(self) -> Callable[[str, int, Any], None]:
        """The runner's trace callback, writing effect lines into this log."""

        delivering = [0]

        def trace(kind: str, effect_id: int, detail: Any) -> None:
            if kind == "start":
                request = detail["request"]
                what = page_of(urljoin("http://x", request["url"])) if "url" in request else json.dumps(request)
                self("start", f"#{effect_id} {detail['feedback']} {what}")
            elif kind == "cancel":
                # A cancel caused by the effect's own answer only retires it.
                why = " (answered: no longer wanted)" if effect_id == delivering[0] else ""
                self("cancel", f"#{effect_id} {detail}{why}")
            elif kind == "event":
                delivering[0] = effect_id
                self("event", f"#{effect_id} -> {describe_event(detail)}")
            elif kind == "stale":
                self("dropped", f"#{effect_id} -> {describe_event(detail)} (effect no longer running)")
            elif kind == "error":
                self("error", f"#{effect_id} {type(detail).__name__}: {detail}")

        return trace


# -- driving it -------------------------------------------------------------


class Demo:
    """One search system, its runner, the server and the log."""

    def __init__(
        self, server: SearchServer, log: Log, library: Optional[str] = None, journal: Optional[str] = None,
        trace: Optional[str] = None,
    ) -> None:
        self.server = server
        self.log = log
        self.resumed = False
        if journal and os.path.isdir(journal) and os.listdir(journal):
            # A previous run journaled here: carry on from where it stopped. The
            # restored state asks for the effects it needs; the runner starts them.
            self.system = corelogic.System.restore("search", journal, library=library)
            self.resumed = True
            report = self.system.restore_report or {}
            log("resume", f"restored from {journal}: {report.get('replayed', 0)} input(s) replayed, "
                f"{len(self.system.initial_batch.started)} effect(s) to start again")
        else:
            self.system = corelogic.System("search", library=library)
            if journal:
                self.system.open_journal(journal)
                log("journal", f"every input is journaled in {journal} before it is applied")
        if trace:
            self.system.trace(trace)
            log("trace", f"every input and what it did is traced in {trace}")
        self.runner = corelogic.AsyncRunner(
            self.system, on_error=network_errors, trace=log.trace()
        )
        install_effects(self.runner, server.base_url)

    def send(self, event: Any) -> State:
        """Send an event as the UI would, and log it."""
        self.log("send", describe_event(event))
        return self.runner.send(event).state

    def show(self, state: Optional[State] = None) -> State:
        """Log the state summary."""
        state = state if state is not None else self.system.state
        self.log("state", describe_state(state))
        return state

    async def settle(self, count: int, timeout: float = 15.0) -> State:
        """Wait until at least ``count`` items are shown and nothing loads."""
        return self.show(await self.runner.run_until(
            lambda s: len(s["items"]) >= count and not s["shouldLoadNextPage"] and "lastError" not in s,
            timeout=timeout,
        ))

    def loading_effect(self) -> Optional[int]:
        """The id of the running ``loadPage`` effect, if any."""
        for effect in self.system.effects:
            if effect["feedback"] == "loadPage":
                return int(effect["id"])
        return None

    def close(self) -> None:
        """Stop the runner's tasks and free the system."""
        self.runner.close()
        self.system.close()


async def scripted(demo: Demo, typing_delay: float) -> State:
    """The tour: type, switch query mid-load, scroll, survive faults."""
    log, server = demo.log, demo.server

    log("note", "typing 'swift' one key at a time: each key replaces the running load")
    for end in range(1, len("swift") + 1):
        demo.send({"queryChanged": {"text": "swift"[:end]}})
        await asyncio.sleep(typing_delay)
    await demo.settle(10)

    log("note", "scrolling, then switching to 'rust' while page 2 is loading")
    demo.send("reachedBottom")
    await asyncio.sleep(server.latency / 3)
    old = demo.loading_effect()
    demo.send({"queryChanged": {"text": "rust"}})
    if old is not None:
        # The answer to the cancelled request arriving late, as it could from
        # a network library that cannot be interrupted: the core refuses it.
        late = {"pageLoaded": {"items": [{"id": 0, "name": "late/answer", "stars": 0}]}}
        result = demo.system.deliver(old, late)
        log("late", f"#{old} -> pageLoaded for 'swift' page 2: {'dropped (STALE)' if result.stale else 'ACCEPTED'}")
    state = await demo.settle(10)

    log("note", "scrolling through three more pages")
    for _ in range(3):
        demo.send("reachedBottom")
        state = await demo.settle(len(state["items"]) + 1)

    log("note", "the server answers the next request with 403 rate limit, Retry-After: 0.5")
    server.fail_next("rate_limit", retry_after=0.5)
    demo.send("reachedBottom")
    state = await demo.settle(len(state["items"]) + 1)

    log("note", "the server drops the next connection; the feature retries after 1 s")
    server.fail_next("drop")
    demo.send("reachedBottom")
    state = await demo.settle(len(state["items"]) + 1)

    top = ", ".join(f"{item['name']} ({item['stars']}*)" for item in state["items"][:3])
    log("done", f"{len(state['items'])} repositories for {state['query']!r}; top: {top}")
    return state


async def read_line(prompt: str) -> str:
    """``input(prompt)`` without blocking the event loop. The reading thread is
    a daemon, so Ctrl-C at the prompt ends the program at once."""
    loop = asyncio.get_running_loop()
    answer: "asyncio.Future[str]" = loop.create_future()

    def settle(line: Optional[str], error: Optional[BaseException]) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(line or "")

    def read() -> None:
        try:
            line = input(prompt)
        except BaseException as exc:  # EOFError, KeyboardInterrupt: hand them over
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, line, None)

    threading.Thread(target=read, name="demo-input", daemon=True).start()
    return await answer


HELP = """Type a query (e.g. swift) to search; Enter or 'n' loads the next page; 'q' quits.
'!rate' or '!drop' makes the server fail the next request (rate limit / dropped connection)."""


async def interactive(demo: Demo) -> State:
    """A line-based prompt: text changes the query, Enter or ``n`` loads the
    next page, ``!rate``/``!drop`` inject a fault, ``q`` quits."""
    print(HELP, flush=True)
    shown = 0
    while True:
        try:
            line = (await read_line("search> ")).strip()
        except EOFError:
            break
        if line == "q":
            break
        if line in ("!rate", "!drop"):
            demo.server.fail_next("rate_limit" if line == "!rate" else "drop", retry_after=2)
            demo.log("note", f"the server will fail the next request ({line[1:]})")
            continue
        if line in ("", "n"):
            if not demo.system.query("canLoadMore"):
                print("  (no more pages)", flush=True)
                continue
            demo.send("reachedBottom")
        else:
            shown = 0
            demo.send({"queryChanged": {"text": line}})
        try:
            state = await demo.runner.run_until(
                lambda s: not s["shouldLoadNextPage"] and "lastError" not in s, timeout=10
            )
        except TimeoutError:
            state = demo.system.state
        demo.show(state)
        for number, item in enumerate(state["items"][shown:], start=shown + 1):
            print(f"  {number:3}. {item['name']:<40} {item['stars']:>7}*", flush=True)
        shown = len(state["items"])
    return demo.system.state


async def resume(demo: Demo) -> State:
    """After a restore: let the restarted effects finish, then show the state."""
    state = demo.show()
    if state["shouldLoadNextPage"] or "lastError" in state:
        demo.log("note", "waiting for the restarted load")
        state = demo.show(await demo.runner.run_until(
            lambda s: not s["shouldLoadNextPage"] and "lastError" not in s, timeout=30.0))
    return state


async def run(
    *,
    latency: float = 0.25,
    typing_delay: float = 0.08,
    interactive_mode: bool = False,
    out: Optional[TextIO] = None,
    library: Optional[str] = None,
    journal: Optional[str] = None,
    trace: Optional[str] = None,
) -> State:
    """Start the server, run the tour (or the prompt) and return the final state."""
    log = Log(out)
    with SearchServer(latency=latency) as server:
        log("server", f"{len(server.repos)} repositories on {server.base_url}, {latency * 1000:.0f} ms per request")
        demo = Demo(server, log, library=library, journal=journal, trace=trace)
        try:
            async with demo.runner:
                if demo.resumed and not interactive_mode:
                    return await resume(demo)
                demo.show()
                if interactive_mode:
                    return await interactive(demo)
                return await scripted(demo, typing_delay)
        finally:
            demo.close()


def main(argv: Optional[List[str]] = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interactive", action="store_true", help="type queries and scroll yourself")
    parser.add_argument("--latency", type=float, default=0.25, help="server latency per request, seconds")
    parser.add_argument("--library", help="path to the app's library (default: CORELOGIC_LIBRARY, "
                        "else this repository's .build/cookbook/release/libcookbook.so)")
    parser.add_argument("--journal", metavar="DIR",
                        help="journal every input in DIR; if DIR already holds a journal, resume from it")
    parser.add_argument("--trace", metavar="FILE",
                        help="write a trace of the session to FILE (see docs/inspector.md)")
    args = parser.parse_args(argv)
    library = args.library or os.environ.get("CORELOGIC_LIBRARY") or str(COOKBOOK_LIBRARY)
    try:
        asyncio.run(run(latency=args.latency, interactive_mode=args.interactive, library=library,
                        journal=args.journal, trace=args.trace))
    except corelogic.LibraryError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C: every acknowledged input is in the journal already.
        if args.journal:
            print(f"\ninterrupted; resume with: python3 {sys.argv[0]} --journal {args.journal}", flush=True)
        else:
            print("\ninterrupted", flush=True)
        return 130
    except BrokenPipeError:  # e.g. `demo.py | head`: the reader has seen enough
        sys.stdout = open(os.devnull, "w")
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
