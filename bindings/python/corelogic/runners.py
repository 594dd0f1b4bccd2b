"""Effect runners: the host side of the feedback loop, in Python.

A system says which effects must be running; a runner runs them. You register
one handler per feedback name; the runner starts a handler for every ``start``
command, cancels it on ``cancel``, delivers what it produces with its effect
id, and reports completion when it returns. Results of an effect that is no
longer running are dropped (the library answers ``STALE``): handler authors
never check for that themselves.

Push, not pull: a runner registers the system's command and state handlers
(:meth:`System.on_command`, :meth:`System.on_state`), so it sees every command
whoever made the call: ``system.send`` from anywhere, a delivery from one of
its own handlers, another thread. Do not also act on the ``effects`` of the
batches those calls return. When it starts, a runner also starts handlers for
the effects already running (those of the creation batch, or of a restored
state), so it may be attached at any time. One runner per system.

Two flavours with one contract:

* :class:`AsyncRunner`: ``async def`` handlers, each effect an
  :class:`asyncio.Task`; ``cancel`` cancels the task.
* :class:`ThreadRunner`: blocking handlers on a thread pool; ``cancel`` is
  cooperative through a :class:`CancellationToken`.

Handler results: an event (``str``, ``dict`` or JSON ``bytes``), ``None`` for
nothing, or a generator (async generator for :class:`AsyncRunner`) yielding
several events. An exception raised by a handler is passed to ``on_error``
(``on_error(feedback, request, exc)`` returns an event to deliver, or ``None``);
without ``on_error`` it is logged on the ``corelogic.runner`` logger. Either
way the effect is then completed.

``trace``, if given, is called as ``trace(kind, effect_id, detail)`` for what
happens to effects: ``"start"`` (detail: ``{"feedback", "request"}``),
``"cancel"`` (detail: the feedback name), ``"event"`` (an event being
delivered; traced before the call, so the commands it causes come after it),
``"stale"`` (an event dropped because the effect was no longer running; it
may follow an ``"event"`` trace of the same event),
``"complete"``, ``"error"`` (detail: the exception).

Handlers run while the system may be in use by other threads; a handler must
never wait for another thread's call into the same system (docs/contract.md §3).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import inspect
import itertools
import logging
import threading
import time
from typing import Any, Callable, Deque, Dict, List, Optional, Set, TypeVar

from .errors import ArgumentError
from .system import Batch, Command, Event, JSONValue, SupportsFromJSON, System

__all__ = ["AsyncRunner", "ThreadRunner", "CancellationToken", "ErrorMapper", "Tracer"]

log = logging.getLogger("corelogic.runner")

#: ``on_error(feedback, request, exc)`` -> an event to deliver, or ``None``.
ErrorMapper = Callable[[str, JSONValue, BaseException], Optional[Event]]
#: ``trace(kind, effect_id, detail)``; see the module documentation.
Tracer = Callable[[str, int, Any], None]
Predicate = Callable[[JSONValue], bool]
F = TypeVar("F", bound=Callable[..., Any])


class _Runner:
    """What both runners share: the handler table, the bookkeeping of running
    effects and the rules for delivering their results."""

    def __init__(
        self,
        system: System,
        *,
        on_error: Optional[ErrorMapper] = None,
        trace: Optional[Tracer] = None,
    ) -> None:
        if not isinstance(system, System):
            raise ArgumentError(f"a runner needs a corelogic.System, not {type(system).__name__}")
        self.system = system
        self.on_error = on_error
        self.trace = trace
        self._handlers: Dict[str, Callable[..., Any]] = {}
        self._feedbacks = _feedback_names(system)
        self._started = False
        self._closed = False
        self._warned: Set[str] = set()
        # Ids whose handlers finished while the runner was starting up: the
        # list of running effects read then may still name them.
        self._finished_early: Optional[Set[int]] = None

    # -- registration -------------------------------------------------------

    def effect(self, feedback: str, request: Optional[SupportsFromJSON[Any]] = None) -> Callable[[F], F]:
        """Decorator registering the handler of the feedback named ``feedback``.

        With ``request`` (a class ``corelogic.typegen`` generated, e.g.
        ``PageRequest``), the handler receives ``request.from_json(...)`` of the
        request instead of its ``dict``.

        Register handlers before the runner starts: an effect whose feedback
        has no handler when it starts stays running, with a warning logged.
        Raises :class:`~corelogic.ArgumentError` if the system's feature has no
        such feedback.
        """
        if feedback not in self._feedbacks:
            known = ", ".join(sorted(self._feedbacks)) or "none"
            raise ArgumentError(
                f"feature {self.system.feature!r} has no feedback {feedback!r} (feedbacks: {known})"
            )

        def register(handler: F) -> F:
            if not callable(handler):
                raise ArgumentError(f"the handler of {feedback!r} must be callable")
            self._handlers[feedback] = _typed(handler, request)
            return handler

        return register

    def send(self, event: Event) -> Batch:
        """Send ``event`` to the system (same as ``system.send``); the runner
        starts and cancels what it asks for."""
        return self.system.send(event)

    @property
    def state(self) -> JSONValue:
        """The system's current state."""
        return self.system.state

    # -- shared mechanics ---------------------------------------------------

    def _attach(self) -> None:
        if self._closed:
            raise RuntimeError("this runner is closed")
        if self._started:
            return
        if self.system.command_handler is not None:
            raise RuntimeError(
                f"the {self.system.feature!r} system already has a command handler "
                f"(another runner?): one runner per system"
            )
        self._started = True
        self._finished_early = set()
        self.system.on_command(self._on_command)
        self.system.on_state(self._on_state)
        # Effects that were already running when the runner attached.
        running = self.system.effects
        self._resume(running)

    def _emit(self, kind: str, effect_id: int, detail: Any = None) -> None:
        if self.trace is None:
            return
        try:
            self.trace(kind, effect_id, detail)
        except Exception:
            log.exception("trace callback raised")

    def _handler_for(self, feedback: str) -> Optional[Callable[..., Any]]:
        handler = self._handlers.get(feedback)
        if handler is None and feedback not in self._warned:
            self._warned.add(feedback)
            log.warning("no handler for feedback %r: its effects stay running", feedback)
        return handler

    def _deliver(self, effect_id: int, event: Event, cancelled: Callable[[], bool]) -> bool:
        """Deliver one event; False once the effect is no longer running."""
        if cancelled() or self.system.closed:
            self._emit("stale", effect_id, event)
            return False
        # Traced before the call, so that a trace reads as cause then effects.
        self._emit("event", effect_id, event)
        # The commands and states reach the runner through its handlers, so
        # the batch is not even asked for.
        if not self.system.deliver_without_batch(effect_id, event):
            self._emit("stale", effect_id, event)
            return False
        return not cancelled()

    def _failed(
        self, effect_id: int, feedback: str, request: JSONValue, exc: BaseException, cancelled: Callable[[], bool]
    ) -> None:
        self._emit("error", effect_id, exc)
        if self.on_error is None:
            log.error("effect %d (%s) failed", effect_id, feedback, exc_info=exc)
            return
        try:
            event = self.on_error(feedback, request, exc)
            if event is not None:
                self._deliver(effect_id, event, cancelled)
        except Exception:
            log.exception("on_error raised for effect %d (%s)", effect_id, feedback)

    def _complete(self, effect_id: int, cancelled: Callable[[], bool]) -> None:
        if self._finished_early is not None:
            self._finished_early.add(effect_id)
        if cancelled() or self.system.closed:
            return
        try:
            if self.system.complete_without_batch(effect_id):
                self._emit("complete", effect_id)
        except Exception:
            log.exception("completing effect %d failed", effect_id)

    def _detach(self) -> None:
        if self._started and not self.system.closed and self.system.command_handler == self._on_command:
            try:
                self.system.on_command(None)
                self.system.on_state(None)
            except Exception:
                log.exception("detaching the runner failed")

    # Implemented by each runner.
    def _on_command(self, command: Command) -> None:  # pragma: no cover
        raise NotImplementedError

    def _on_state(self, state: JSONValue) -> None:  # pragma: no cover
        raise NotImplementedError

    def _resume(self, running: Any) -> None:  # pragma: no cover
        raise NotImplementedError


def _feedback_names(system: System) -> Set[str]:
    for feature in system.library.features():
        if feature.get("name") == system.feature:
            return {feedback["name"] for feedback in feature.get("feedbacks", [])}
    return set()


# ---------------------------------------------------------------------------
# asyncio


class _Task:
    __slots__ = ("task", "cancelled", "feedback")

    def __init__(self, feedback: str) -> None:
        self.task: "Optional[asyncio.Task[None]]" = None
        self.feedback = feedback
        self.cancelled = False


class AsyncRunner(_Runner):
    """Runs a system's effects as :class:`asyncio.Task` objects.

    ::

        runner = corelogic.AsyncRunner(system)

        @runner.effect("loadPage")
        async def load_page(request):
            page = await fetch(request["url"])
            return {"pageLoaded": page}

        async with runner:
            runner.send({"queryChanged": {"text": "swift"}})
            state = await runner.run_until(lambda s: s["items"], timeout=5)

    Handlers may be ``async def`` functions returning an event or ``None``,
    async generators yielding events, or plain functions returning an event
    (an answer available at once). Each ``start`` command becomes a task;
    each ``cancel`` cancels it (the handler sees :class:`asyncio.CancelledError`
    at its current ``await``, and anything it still returns is dropped).

    Commands produced on other threads are handed to the event loop; the
    runner is otherwise used from the loop's thread. Start it with
    ``async with runner:``, :meth:`start`, or the first :meth:`run_until`.
    """

    # _Runner's parameters, spelled out again on purpose: help() and editors show a
    # public class its own signature, not **kwargs.
    def __init__(
        self,
        system: System,
        *,
        on_error: Optional[ErrorMapper] = None,
        trace: Optional[Tracer] = None,
    ) -> None:
        super().__init__(system, on_error=on_error, trace=trace)
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._loop_thread = 0
        self._tasks: Dict[int, _Task] = {}
        self._highest_started = 0
        self._pending: Deque[Command] = collections.deque()
        self._state: JSONValue = None
        self._state_numbers = itertools.count(1)
        self._state_number = 0
        self._waiters: List["asyncio.Future[None]"] = []

    # -- lifetime -----------------------------------------------------------

    def start(self) -> None:
        """Attach to the system and start handlers for the effects already
        running. Must be called from the running event loop. Idempotent."""
        if self._started:
            return
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._state = self.system.state
        self._attach()

    async def __aenter__(self) -> "AsyncRunner":
        self.start()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Detach from the system, cancel every handler task and wait for them
        to end. The effects stay running in the system (a new runner resumes
        them). Idempotent."""
        tasks = self._shutdown()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def close(self) -> None:
        """Like :meth:`aclose`, without waiting for the tasks to end."""
        self._shutdown()

    def _shutdown(self) -> List["asyncio.Task[None]"]:
        if self._closed:
            return []
        self._closed = True
        self._detach()
        tasks = []
        for record in self._tasks.values():
            record.cancelled = True
            if record.task is not None:
                record.task.cancel()
                tasks.append(record.task)
        self._tasks.clear()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.cancel()
        return tasks

    @property
    def running(self) -> Dict[int, str]:
        """The effects whose handler tasks are running: ``{effect_id: feedback}``."""
        return {effect_id: record.feedback for effect_id, record in self._tasks.items()}

    # -- waiting ------------------------------------------------------------

    async def run_until(self, predicate: Predicate, timeout: Optional[float] = None) -> JSONValue:
        """Let effects run until ``predicate(state)`` is true; return that state.

        ``predicate`` is checked on the current state and on every new state.
        Raises :class:`TimeoutError` after ``timeout`` seconds (``None`` waits
        for ever).
        """
        self.start()
        loop = self._loop
        assert loop is not None
        deadline = None if timeout is None else loop.time() + timeout
        state = self._state
        while not predicate(state):
            if self._closed:
                raise RuntimeError("this runner is closed")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                await asyncio.wait_for(waiter, remaining)
            except asyncio.TimeoutError:
                raise TimeoutError(
                    f"the condition was not met within {timeout} s; state: {self._state!r}"
                ) from None
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
            state = self._state
        return state

    # -- commands -----------------------------------------------------------

    def _on_command(self, command: Command) -> None:
        # Called by the library on the thread whose call produced the command.
        self._pending.append(command)
        if threading.get_ident() == self._loop_thread:
            self._apply_pending()
        else:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._apply_pending)

    def _on_state(self, state: JSONValue) -> None:
        # Numbered here, while the system is locked, so the numbers follow the
        # steps: a state handed over from another thread can arrive on the loop
        # after a newer one produced on the loop's own thread.
        number = next(self._state_numbers)
        if threading.get_ident() == self._loop_thread:
            self._set_state(number, state)
        else:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._set_state, number, state)

    def _set_state(self, number: int, state: JSONValue) -> None:
        if number < self._state_number:
            return
        self._state_number = number
        self._state = state
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _apply_pending(self) -> None:
        # Commands are applied in the order the system produced them, whatever
        # thread produced them.
        pending = self._pending
        while pending:
            try:
                command = pending.popleft()
            except IndexError:
                return
            if self._closed:
                continue
            if "start" in command:
                start = command["start"]
                if start["id"] > self._highest_started:
                    self._start(start["id"], start["feedback"], start.get("request"))
            elif "cancel" in command:
                self._cancel(command["cancel"])

    def _resume(self, running: Any) -> None:
        # The listing first: commands queued meanwhile by other threads come
        # after it, and a queued start for a listed id is then a duplicate.
        for effect in running:
            if effect["id"] not in self._tasks:
                self._start(effect["id"], effect["feedback"], effect.get("request"))
        self._finished_early = None
        self._apply_pending()

    def _start(self, effect_id: int, feedback: str, request: JSONValue) -> None:
        self._highest_started = max(self._highest_started, effect_id)
        self._emit("start", effect_id, {"feedback": feedback, "request": request})
        handler = self._handler_for(feedback)
        if handler is None:
            return
        assert self._loop is not None
        record = _Task(feedback)
        self._tasks[effect_id] = record
        record.task = self._loop.create_task(self._run(effect_id, feedback, request, handler, record))

    def _cancel(self, effect_id: int) -> None:
        record = self._tasks.pop(effect_id, None)
        if record is None:  # finished already, or no handler
            return
        record.cancelled = True
        self._emit("cancel", effect_id, record.feedback)
        # A handler task that delivered the event which cancels it is still
        # running its own code: it sees record.cancelled and stops by itself.
        if record.task is not None and record.task is not asyncio.current_task():
            record.task.cancel()

    async def _run(
        self, effect_id: int, feedback: str, request: JSONValue, handler: Callable[..., Any], record: _Task
    ) -> None:
        def cancelled() -> bool:
            return record.cancelled

        try:
            result = handler(request)
            if inspect.isasyncgen(result):
                try:
                    async for event in result:
                        if event is not None and not self._deliver(effect_id, event, cancelled):  # type: ignore[arg-type]
                            break
                finally:
                    await result.aclose()
            else:
                if inspect.isawaitable(result):
                    result = await result
                if result is not None:
                    self._deliver(effect_id, result, cancelled)
        except asyncio.CancelledError:
            record.cancelled = True
            raise
        except Exception as exc:
            if not cancelled():
                self._failed(effect_id, feedback, request, exc, cancelled)
        finally:
            if self._tasks.get(effect_id) is record:
                del self._tasks[effect_id]
        self._complete(effect_id, cancelled)


# ---------------------------------------------------------------------------
# threads


class CancellationToken:
    """Tells a blocking handler that its effect was cancelled.

    Handlers check :attr:`cancelled` between pieces of work, or sleep with
    :meth:`wait`, which returns early (``True``) when the effect is cancelled.
    Whatever a cancelled handler still returns or yields is dropped.
    """

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = threading.Event()

    @property
    def cancelled(self) -> bool:
        """``True`` once the effect has been cancelled."""
        return self._event.is_set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block until cancelled or ``timeout`` seconds have passed; return
        :attr:`cancelled`."""
        return self._event.wait(timeout)

    def cancel(self) -> None:
        """Mark the effect cancelled (the runner does this on ``cancel``)."""
        self._event.set()

    def __repr__(self) -> str:
        return f"<CancellationToken cancelled={self.cancelled}>"


class _Job:
    __slots__ = ("future", "token", "feedback")

    def __init__(self, token: CancellationToken, feedback: str) -> None:
        self.token = token
        self.feedback = feedback
        self.future: Optional["concurrent.futures.Future[None]"] = None


class ThreadRunner(_Runner):
    """Runs a system's effects as blocking handlers on a thread pool.

    ::

        runner = corelogic.ThreadRunner(system)

        @runner.effect("download")
        def download(request, token):
            for chunk in fetch(request["url"]):
                if token.cancelled:
                    return None
            return {"finished": {"url": request["url"]}}

        with runner:
            runner.send({"enqueue": {"url": "https://example.com/a"}})
            runner.run_until(lambda s: not s["pending"], timeout=10)

    A handler takes ``(request)`` or ``(request, token)``; the token is a
    :class:`CancellationToken` set when the effect is cancelled. It returns an
    event or ``None``, or is a generator yielding events. Cancellation is
    cooperative: the runner cannot stop a thread, but drops everything a
    cancelled handler produces.

    Start it with ``with runner:`` (leaving the block closes it), :meth:`start`,
    or the first :meth:`run_until`, as :class:`AsyncRunner` starts with
    ``async with runner:``.

    Args:
        max_workers: the pool size (``concurrent.futures`` default if ``None``).
    """

    def __init__(
        self,
        system: System,
        *,
        max_workers: Optional[int] = None,
        on_error: Optional[ErrorMapper] = None,
        trace: Optional[Tracer] = None,
    ) -> None:
        super().__init__(system, on_error=on_error, trace=trace)
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=max_workers, thread_name_prefix="corelogic-effect"
        )
        self._lock = threading.RLock()
        self._jobs: Dict[int, _Job] = {}
        # Ids cancelled while starting up, before the list of running effects
        # (read earlier) was applied.
        self._cancelled_early: Set[int] = set()
        self._changed = threading.Condition(threading.Lock())
        self._state: JSONValue = None
        self._state_version = 0

    def effect(self, feedback: str, request: Optional[SupportsFromJSON[Any]] = None) -> Callable[[F], F]:
        register = super().effect(feedback, request)

        def wrap(handler: F) -> F:
            register(handler)
            self._handlers[feedback] = _typed(_with_token(handler), request)
            return handler

        return wrap

    effect.__doc__ = _Runner.effect.__doc__

    # -- lifetime -----------------------------------------------------------

    def start(self) -> None:
        """Attach to the system and start handlers for the effects already
        running. Idempotent."""
        if self._started:
            return
        with self._changed:
            self._state = self.system.state
        self._attach()

    def __enter__(self) -> "ThreadRunner":
        self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self, wait: bool = True) -> None:
        """Detach from the system, cancel every running handler's token and
        (with ``wait``) wait for the handlers to return. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            jobs = list(self._jobs.values())
            self._jobs.clear()
        self._detach()
        for job in jobs:
            job.token.cancel()
            if job.future is not None:
                job.future.cancel()
        with self._changed:
            self._changed.notify_all()
        self._executor.shutdown(wait=wait)

    @property
    def running(self) -> Dict[int, str]:
        """The effects whose handlers are running or queued: ``{effect_id: feedback}``."""
        with self._lock:
            return {effect_id: job.feedback for effect_id, job in self._jobs.items()}

    # -- waiting ------------------------------------------------------------

    def run_until(self, predicate: Predicate, timeout: Optional[float] = None) -> JSONValue:
        """Block until ``predicate(state)`` is true; return that state.

        Raises :class:`TimeoutError` after ``timeout`` seconds. Never call it
        from a handler (it would wait for its own effect).
        """
        self.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._changed:
                state, version = self._state, self._state_version
            # Outside the lock: the predicate may call the system, whose
            # draining thread needs the lock to hand over the next state.
            if predicate(state):
                return state
            with self._changed:
                while self._state_version == version:
                    if self._closed:
                        raise RuntimeError("this runner is closed")
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise TimeoutError(f"the condition was not met within {timeout} s; state: {state!r}")
                    self._changed.wait(remaining)

    # -- commands -----------------------------------------------------------

    def _on_command(self, command: Command) -> None:
        # Runs on whatever thread drains the system, possibly a worker that is
        # delivering: it only books and submits, never waits.
        with self._lock:
            if self._closed:
                return
            if "start" in command:
                start = command["start"]
                self._start(start["id"], start["feedback"], start.get("request"))
            elif "cancel" in command:
                self._cancel(command["cancel"])

    def _on_state(self, state: JSONValue) -> None:
        with self._changed:
            self._state = state
            self._state_version += 1
            self._changed.notify_all()

    def _resume(self, running: Any) -> None:
        with self._lock:
            for effect in running:
                effect_id = effect["id"]
                if effect_id in self._jobs or effect_id in self._cancelled_early:
                    continue
                if effect_id in (self._finished_early or ()):
                    continue
                self._start(effect_id, effect["feedback"], effect.get("request"))
            self._finished_early = None
            self._cancelled_early.clear()

    def _start(self, effect_id: int, feedback: str, request: JSONValue) -> None:
        if effect_id in self._jobs:
            return
        self._emit("start", effect_id, {"feedback": feedback, "request": request})
        handler = self._handler_for(feedback)
        if handler is None:
            return
        job = _Job(CancellationToken(), feedback)
        self._jobs[effect_id] = job
        try:
            job.future = self._executor.submit(self._run, effect_id, feedback, request, handler, job)
        except RuntimeError:  # the pool is shutting down
            del self._jobs[effect_id]

    def _cancel(self, effect_id: int) -> None:
        job = self._jobs.pop(effect_id, None)
        if job is None:
            if self._finished_early is not None:
                self._cancelled_early.add(effect_id)
            return
        job.token.cancel()
        self._emit("cancel", effect_id, job.feedback)
        if job.future is not None:
            job.future.cancel()  # only succeeds if it has not started yet

    def _run(self, effect_id: int, feedback: str, request: JSONValue, handler: Callable[..., Any], job: _Job) -> None:
        token = job.token
        cancelled = token._event.is_set
        try:
            if cancelled():
                return
            result = handler(request, token)
            if inspect.isgenerator(result):
                try:
                    for event in result:
                        if event is not None and not self._deliver(effect_id, event, cancelled):  # type: ignore[arg-type]
                            break
                finally:
                    result.close()
            elif result is not None:
                self._deliver(effect_id, result, cancelled)
        except Exception as exc:
            if not cancelled():
                self._failed(effect_id, feedback, request, exc, cancelled)
        finally:
            with self._lock:
                if self._jobs.get(effect_id) is job:
                    del self._jobs[effect_id]
        self._complete(effect_id, cancelled)


def _typed(handler: Callable[..., Any], request: Optional[SupportsFromJSON[Any]]) -> Callable[..., Any]:
    """``handler`` receiving ``request.from_json(r)`` for the request ``r``."""
    if request is None:
        return handler
    return lambda raw, *rest: handler(request.from_json(raw), *rest)


def _with_token(handler: Callable[..., Any]) -> Callable[[JSONValue, CancellationToken], Any]:
    """Adapt a ``(request)`` handler to the ``(request, token)`` calling form."""
    try:
        parameters = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):
        return handler
    positional = [
        p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
    ]
    if len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in positional):
        return handler
    return lambda request, token: handler(request)
