"""A running feature: :class:`System`, and what its calls return.

A :class:`System` owns one ``corelogic_system`` handle. Each call that runs
steps returns a :class:`Batch` (the state after the last step, the effect
commands of every step it drained, the number of steps). ``deliver`` and
``complete`` for an effect that is not running return :data:`STALE` instead:
the input was dropped and never reached the reducer.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import threading
import weakref
from typing import Any, Callable, Dict, List, Optional, Protocol, TypeVar, Union

from ._library import CALLBACK, Library, PathLike, load_library
from ._patch import PatchError, apply_patch_unlogged
from .errors import ERR_HANDLE, ArgumentError, CorelogicError, HandleError, error_for_status

__all__ = [
    "Batch",
    "Stale",
    "STALE",
    "System",
    "Event",
    "Command",
    "JSONValue",
    "SupportsFromJSON",
    "SupportsToJSON",
    "DURABILITY_EVERY_INPUT",
    "DURABILITY_INTERVAL",
    "OUTPUT_MODES",
]

log = logging.getLogger("corelogic")

#: Any JSON value as Python builds it with :func:`json.loads`.
JSONValue = Any


class SupportsToJSON(Protocol):
    """A typed value (made by ``corelogic.typegen``) that turns itself into JSON."""

    def to_json(self) -> Any: ...


T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class SupportsFromJSON(Protocol[T_co]):
    """A generated class read from JSON: ``State.from_json(value)``."""

    def from_json(self, value: Any) -> T_co: ...


#: An event: a case name (``"increment"``), a JSON-serializable object
#: (``{"queryChanged": {"text": "swift"}}``), already-encoded JSON ``bytes``, or
#: a typed event made by ``corelogic.typegen`` (``Search.QueryChanged(text="swift")``).
Event = Union[str, Dict[str, Any], bytes, SupportsToJSON]
#: One effect command: ``{"cancel": 3}`` or
#: ``{"start": {"id": 4, "feedback": "loadPage", "request": {...}}}``.
Command = Dict[str, Any]

_MAX_U64 = (1 << 64) - 1

#: :meth:`System.open_journal`: fsync every input before its call returns (default).
DURABILITY_EVERY_INPUT = 0
#: :meth:`System.open_journal`: fsync at most every 100 ms, and on checkpoint,
#: sync and close. A process crash still loses nothing acknowledged.
DURABILITY_INTERVAL = 1

#: The output modes of :meth:`System.set_output`, by name, with their C values
#: (``CORELOGIC_OUTPUT_FULL``, ``CORELOGIC_OUTPUT_PATCH``).
OUTPUT_MODES: Dict[str, int] = {"full": 0, "patch": 1}

# The library's output is always one compact UTF-8 JSON value, so the documented
# JSONDecoder.raw_decode is enough: json.loads would also detect the encoding and
# look for whitespace around the value, which only costs time on the hot path.
_raw_decode = json.JSONDecoder().raw_decode


def _parse(raw: bytes) -> JSONValue:
    return _raw_decode(raw.decode("utf-8"))[0]


# Encoded str events ("increment" -> b'"increment"'); bounded, since names
# come from a feature's small set of payload-less cases.
_STR_EVENTS: Dict[str, bytes] = {}
_STR_EVENTS_MAX = 1024


def encode_json(value: Any, what: str = "event") -> bytes:
    """Encode ``value`` as the compact UTF-8 JSON the library reads.

    ``bytes`` are passed through as already-encoded JSON; anything else is
    serialized with ``json.dumps(separators=(",", ":"))``. Raises
    :class:`~corelogic.ArgumentError` for values that cannot be passed on.
    """
    if hasattr(type(value), "to_json"):
        value = value.to_json()  # a typed value from corelogic.typegen
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        if b"\0" in data:
            raise ArgumentError(f"{what}: JSON bytes contain a NUL byte")
        return data
    try:
        # ensure_ascii (the default) escapes lone surrogates instead of failing
        # to encode them; the library's strict parser then judges them.
        return json.dumps(value, separators=(",", ":"), allow_nan=False).encode("ascii")
    except (TypeError, ValueError, RecursionError) as exc:
        raise ArgumentError(f"{what} is not JSON-serializable: {exc}") from exc


def _encode_event(event: Any) -> bytes:
    if type(event) is str and event.lstrip()[:1] in ("{", "[", '"'):
        # A case name never starts like JSON text: this is an event already
        # serialized, which would otherwise be sent as one odd case name.
        raise ArgumentError(_json_text_event_message(event))
    data = encode_json(event)
    if type(event) is str and len(_STR_EVENTS) < _STR_EVENTS_MAX:
        _STR_EVENTS[event] = data
    return data


def _json_text_event_message(text: str) -> str:
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        value = json.loads(text)
    except ValueError:
        as_object = "an object such as {'increment': {}}"
    else:
        as_object = f"the object itself, {value!r}" if len(repr(value)) <= 80 else "the object itself"
    return (
        f"an event object or a case name was expected, not a str of JSON text {shown!r}: "
        f"pass {as_object}, or a case name such as 'increment'; "
        f"JSON text goes as bytes (text.encode())"
    )


def _event_bytes(event: Any) -> bytes:
    """The JSON bytes of an event; names (``"increment"``) come from a cache."""
    if event.__class__ is str:
        data = _STR_EVENTS.get(event)
        if data is not None:
            return data
    return _encode_event(event)


def _encode_name(name: Any, what: str) -> bytes:
    if not isinstance(name, str):
        raise ArgumentError(f"{what} must be a str, not {type(name).__name__}")
    if "\0" in name:
        raise ArgumentError(f"{what} contains a NUL character")
    return name.encode("utf-8", "surrogatepass")


# One reusable out-parameter per thread: `char **out` filled by the library,
# with a c_char_p view of the same word, whose .value copies the string out
# without a second foreign call (string_at is one).
_tls = threading.local()


def _new_slot() -> "tuple[ctypes.c_void_p, Any, ctypes.c_char_p]":
    out = ctypes.c_void_p()
    slot = (out, ctypes.byref(out), ctypes.c_char_p.from_buffer(out))
    _tls.slot = slot
    return slot


class Batch:
    """What one call returned: the outcome of every step it drained.

    Attributes:
        state: the feature's state after the last step (a ``dict``). In patch
            mode (:meth:`System.set_output`) this is the system's state mirror
            itself, which later calls keep updating in place: read it, do not
            modify it, and ``copy.deepcopy`` it to keep a snapshot.
        effects: the effect commands of all those steps, in order, each
            ``{"cancel": id}`` or ``{"start": {"id", "feedback", "request"}}``.
        steps: how many steps the call ran.
        queries: the watched queries (:meth:`System.watch`) whose value
            changed since the previous batch, by name; ``{}`` when none did or
            none are watched.
        patch: in patch mode, the RFC 6902 operations the library sent (their
            values now belong to the mirror); ``None`` in full mode, and in
            patch mode when the batch carried the whole state instead (a small
            state is sent whole: see :meth:`System.set_output`).
        revision: in patch mode, the state revision ``state`` is at; ``None``
            in full mode.
        stale: always ``False`` (see :data:`STALE`), so ``if result.stale:``
            works on whatever ``deliver`` or ``complete`` returned.
        dropped: inputs that handlers queued during the call and that were
            rejected when their turn came (their journal record could not be
            written), never applied: ``[{"input": {"send": ...}, "status":
            "CORELOGIC_ERR_IO", "error": "..."}]``. Usually empty.
    """

    __slots__ = ("state", "effects", "steps", "queries", "patch", "revision", "dropped")
    stale = False

    def __init__(
        self,
        state: JSONValue,
        effects: List[Command],
        steps: int,
        queries: Optional[Dict[str, JSONValue]] = None,
        patch: Optional[List[Dict[str, Any]]] = None,
        revision: Optional[int] = None,
        dropped: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        self.state = state
        self.effects = effects
        self.steps = steps
        self.queries: Dict[str, JSONValue] = {} if queries is None else queries
        self.patch = patch
        self.revision = revision
        self.dropped = dropped if dropped is not None else []

    @property
    def started(self) -> List[Dict[str, Any]]:
        """The ``start`` commands' payloads: ``[{"id", "feedback", "request"}]``."""
        return [command["start"] for command in self.effects if "start" in command]

    @property
    def cancelled(self) -> List[int]:
        """The ids of the effects this batch cancels."""
        return [command["cancel"] for command in self.effects if "cancel" in command]

    def to_dict(self) -> Dict[str, Any]:
        """Return the batch as the library's JSON shape."""
        out = {"state": self.state, "effects": self.effects, "steps": self.steps}
        if self.dropped:
            out["dropped"] = self.dropped
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Batch):
            return NotImplemented
        return (self.state, self.effects, self.steps) == (other.state, other.effects, other.steps)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Batch(state={self.state!r}, effects={self.effects!r}, steps={self.steps!r})"


def _batch(raw: bytes) -> Batch:
    value = _parse(raw)
    return Batch(value["state"], value["effects"], value["steps"], value.get("queries"), dropped=value.get("dropped"))


class Stale:
    """The result of ``deliver``/``complete`` for an effect that is not running.

    The input was dropped and never reached the reducer; nothing changed.
    There is one instance, :data:`STALE`: test with ``result is corelogic.STALE``
    or ``if result.stale:``. It is falsy, so ``if not result:`` also reads as
    "was dropped" (a :class:`Batch` is always truthy).
    """

    __slots__ = ()
    stale = True
    #: The C status code, ``CORELOGIC_STALE``.
    status = 1

    _instance: Optional["Stale"] = None

    def __new__(cls) -> "Stale":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "corelogic.STALE"

    def __reduce__(self) -> str:
        return "STALE"


#: Returned by :meth:`System.deliver` and :meth:`System.complete` for an effect
#: that is not running (cancelled, completed, or never started).
STALE = Stale()


# A NULL function pointer: what removes a handler.
_NO_CALLBACK = CALLBACK()

CommandHandler = Callable[[Command], None]
StateHandler = Callable[[JSONValue], None]


class System:
    """One running instance of a feature, owned through a library handle.

    Use it as a context manager, or call :meth:`close`; a system that is
    garbage-collected is freed too. Every method may be called from any thread;
    the library serializes the calls. After :meth:`close`, every method raises
    :class:`~corelogic.HandleError`.

    Args:
        feature: the feature's name, e.g. ``"search"`` (see :func:`corelogic.features`).
        state: the initial state as a ``dict`` or as JSON ``bytes``;
            ``None`` for the feature's own initial state.
        library: a :class:`~corelogic.Library` or a path to ``libcorelogic``;
            ``None`` searches the usual places (see :func:`corelogic.load_library`).
        output: ``"full"`` (the default: every batch carries the whole state)
            or ``"patch"`` (the library sends only what changed and the system
            keeps the state up to date locally; see :meth:`set_output`).
        trace: a file to write this system's trace to (see :meth:`trace`).

    Raises:
        NotFoundError: unknown feature.
        JSONError, SchemaError: ``state`` is not valid JSON / not this feature's state.
        ArgumentError: unknown ``output`` mode.

    Attributes:
        initial_batch: the creation :class:`Batch`: the initial state, and the
            effects it asks for (started at once; docs/contract.md §3).
    """

    def __init__(
        self,
        feature: str,
        state: Optional[Union[Dict[str, Any], bytes, SupportsToJSON]] = None,
        *,
        library: Optional[Union[Library, PathLike]] = None,
        output: str = "full",
        trace: Optional[PathLike] = None,
    ) -> None:
        _output_mode(output)  # before anything exists, so a bad mode creates nothing
        lib = self._bind(feature, library)
        name = _encode_name(feature, "feature")
        state_json = None if state is None else encode_json(state, "state")
        handle = ctypes.c_uint64(0)
        out = ctypes.c_void_p()
        status = lib.corelogic_system_new(name, state_json, ctypes.byref(handle), ctypes.byref(out))
        if status:
            raise lib.error(status)
        self._handle = handle.value
        self.initial_batch: Batch = _batch(lib.take(out.value))
        if output != "full":
            self.set_output(output)
        if trace is not None:
            try:
                self.trace(trace)
            except BaseException:
                self.close()
                raise

    def _bind(self, feature: str, library: Optional[Union[Library, PathLike]]) -> Library:
        """Set up everything but the handle (shared by ``__init__`` and :meth:`restore`)."""
        self._handle = 0
        self._lock = threading.Lock()
        # Every ctypes callback ever registered lives as long as this object:
        # the library may be inside one (even one being replaced) at any time.
        self._callbacks: List[Any] = []
        self._command_handler: Optional[CommandHandler] = None
        self._state_handler: Optional[StateHandler] = None
        lib = library if isinstance(library, Library) else load_library(library)
        self._lib = lib
        self._free_fn = lib.corelogic_system_free
        self._send_fn = lib.corelogic_system_send
        self._deliver_fn = lib.corelogic_system_deliver
        self._complete_fn = lib.corelogic_system_complete
        self._free_string = lib.corelogic_free
        self._feature = feature
        #: The report of :meth:`restore` (``None`` for a system made with ``System(...)``).
        self.restore_report: Optional[Dict[str, Any]] = None
        # Patch mode: the state mirror and the revision it is at, kept under
        # their own lock (never held across a call into the library).
        self._output = "full"
        self._mirror: JSONValue = None
        self._revision = -1
        self._mirror_lock = threading.Lock()
        return lib

    # -- identity -----------------------------------------------------------

    @property
    def feature(self) -> str:
        """The feature's name."""
        return self._feature

    @property
    def library(self) -> Library:
        """The :class:`~corelogic.Library` this system runs in."""
        return self._lib

    @property
    def closed(self) -> bool:
        """``True`` once :meth:`close` has run."""
        return self._handle == 0

    def __repr__(self) -> str:
        status = "closed" if self._handle == 0 else f"handle={self._handle}"
        return f"<corelogic.System {self._feature!r} {status}>"

    # -- inputs -------------------------------------------------------------

    def send(self, event: Event) -> Batch:
        """Send an event from the host; return the :class:`Batch` of the steps
        this call drained.

        ``event`` is a case name (``"increment"``), a JSON-serializable object
        (``{"queryChanged": {"text": "swift"}}``) or JSON ``bytes``.

        Raises:
            JSONError, SchemaError: not valid JSON / not one of this feature's events.
            HandleError: the system is closed.
            ArgumentError: the event cannot be encoded.
        """
        data = _event_bytes(event)
        try:
            out, ref, view = _tls.slot
        except AttributeError:
            out, ref, view = _new_slot()
        status = self._send_fn(self._handle, data, ref)
        if status:
            raise self._error(status)
        raw = view.value
        self._free_string(out.value)
        value = _parse(raw)
        if self._output == "patch":
            state = self._advance(value)
            return Batch(state, value["effects"], value["steps"], value.get("queries"), value.get("patch"), self._revision,
                         value.get("dropped"))
        return Batch(value["state"], value["effects"], value["steps"], value.get("queries"), dropped=value.get("dropped"))

    def deliver(self, effect_id: int, event: Event) -> Union[Batch, Stale]:
        """Deliver an event produced by the running effect ``effect_id``.

        Returns the :class:`Batch`, or :data:`STALE` if that effect is not
        running (cancelled, completed or never started): the event was dropped.
        """
        data = _event_bytes(event)
        return self._run(self._deliver_fn, _effect_id(effect_id), data)

    def complete(self, effect_id: int) -> Union[Batch, Stale]:
        """Report that effect ``effect_id`` has finished and will produce no
        more events. Returns the :class:`Batch`, or :data:`STALE` if that
        effect is not running."""
        return self._run(self._complete_fn, _effect_id(effect_id))

    def deliver_without_batch(self, effect_id: int, event: Event) -> bool:
        """:meth:`deliver`, without building a batch: for hosts that follow the
        push handlers (:meth:`on_command`, :meth:`on_state`), as the runners do.
        Returns ``False`` if the effect was not running (the event was
        dropped), ``True`` if the event was accepted."""
        return self._input_without_batch(self._deliver_fn, _effect_id(effect_id), _event_bytes(event))

    def complete_without_batch(self, effect_id: int) -> bool:
        """:meth:`complete`, without building a batch (see
        :meth:`deliver_without_batch`). Returns ``False`` if the effect was not
        running, ``True`` if the completion was accepted."""
        return self._input_without_batch(self._complete_fn, _effect_id(effect_id))

    def _input_without_batch(self, function: Any, *args: Any) -> bool:
        status = function(self._handle, *args, None)
        if status:
            if status == 1:
                return False
            raise self._error(status)
        return True

    def _run(self, function: Any, *args: Any) -> Union[Batch, Stale]:
        try:
            out, ref, view = _tls.slot
        except AttributeError:
            out, ref, view = _new_slot()
        status = function(self._handle, *args, ref)
        if status:
            if status == 1:
                return STALE
            raise self._error(status)
        raw = view.value
        self._free_string(out.value)
        if self._output == "patch":
            return self._patch_batch(_parse(raw))
        return _batch(raw)

    # -- reading ------------------------------------------------------------

    @property
    def state(self) -> JSONValue:
        """The current state (a fresh ``dict`` on every read)."""
        return self._read(self._lib.corelogic_system_state)

    @property
    def state_json(self) -> bytes:
        """The current state as the library's compact JSON (UTF-8 bytes): what
        to store, compare byte for byte, or pass back as ``state=``."""
        out = ctypes.c_void_p()
        status = self._lib.corelogic_system_state(self._handle, ctypes.byref(out))
        if status:
            raise self._error(status)
        return self._lib.take(out.value)

    def state_as(self, kind: SupportsFromJSON[T]) -> T:
        """The current state as a typed object: ``system.state_as(State)`` with
        the ``State`` class ``corelogic.typegen`` generated for this feature."""
        return kind.from_json(self.state)

    def query(self, name: str) -> JSONValue:
        """Evaluate the state query ``name`` (e.g. ``"isLoadingNextPage"``) on
        the current state. Raises :class:`~corelogic.NotFoundError` for an
        unknown name."""
        return self._read(self._lib.corelogic_system_query, _encode_name(name, "query name"))

    @property
    def effects(self) -> List[Dict[str, Any]]:
        """The effects running now, oldest first:
        ``[{"id": 1, "feedback": "loadPage", "request": {...}}]``."""
        return self._read(self._lib.corelogic_system_effects)  # type: ignore[no-any-return]

    def check(self) -> List[Dict[str, str]]:
        """The feature's invariants that do not hold in the current state, in
        declaration order: ``[{"name": "itemsUniqueByID", "message": "..."}]``,
        ``[]`` when every one holds (``corelogic_system_check``). Invariants
        are evaluated only when asked; :func:`corelogic.features` lists their
        names."""
        return self._read(self._lib.corelogic_system_check)  # type: ignore[no-any-return]

    def _read(self, function: Any, *args: Any) -> JSONValue:
        out = ctypes.c_void_p()
        status = function(self._handle, *args, ctypes.byref(out))
        if status:
            raise self._error(status)
        return _parse(self._lib.take(out.value))

    # -- output modes and watched queries (docs/performance.md) ---------------

    @property
    def output(self) -> str:
        """The output mode: ``"full"`` or ``"patch"`` (see :meth:`set_output`)."""
        return self._output

    @property
    def revision(self) -> Optional[int]:
        """In patch mode, the revision of the state mirror (every step
        increments the system's revision; creation is 0); ``None`` in full
        mode."""
        return self._revision if self._output == "patch" else None

    def set_output(self, mode: str) -> None:
        """Choose what the library sends after each call: ``"full"`` (the
        default) or ``"patch"``.

        In full mode every batch carries the whole state, which the library
        encodes and this binding parses: the cost grows with the state. In
        patch mode the library sends an RFC 6902 JSON Patch from the state this
        system last received to the new one, and the system applies it to a
        local mirror of the state: :attr:`Batch.state` is still the whole state
        (a ``dict``), at a cost that follows the size of the change. A state
        small enough to cost no more than a patch (64 bytes of JSON) is sent
        whole instead, and becomes the mirror (:attr:`Batch.patch` is then
        ``None``). The mirror is updated in place by later calls, so treat it
        as read-only and copy it (``copy.deepcopy``) to keep a snapshot. A
        state handler (:meth:`on_state`) receives the mirror too.

        When a patch does not continue from the mirror's revision (a call
        made without a batch, another thread's call, a handler's patch), the
        system resyncs the mirror from the library on its own (:meth:`resync`).
        Switch modes while no other thread is calling the system.

        Raises:
            ArgumentError: ``mode`` is not ``"full"`` or ``"patch"`` (nothing
                changes).
            HandleError: the system is closed.
        """
        number = _output_mode(mode)
        out = ctypes.c_void_p()
        status = self._lib.corelogic_system_set_output(self._handle, number, ctypes.byref(out))
        if status:
            raise self._error(status)
        baseline = _parse(self._lib.take(out.value))
        with self._mirror_lock:
            self._output = mode
            if mode == "patch":
                self._mirror, self._revision = baseline["state"], baseline["revision"]
            else:
                self._mirror, self._revision = None, -1

    def resync(self) -> JSONValue:
        """Fetch the current state and its revision from the library
        (``corelogic_system_resync``) and, in patch mode, make it the mirror
        the next patch continues from. Returns the state. Patch mode calls it
        by itself when it notices a gap; calling it is never wrong."""
        out = ctypes.c_void_p()
        status = self._lib.corelogic_system_resync(self._handle, ctypes.byref(out))
        if status:
            raise self._error(status)
        current = _parse(self._lib.take(out.value))
        with self._mirror_lock:
            if self._output != "patch":
                return current["state"]
            # A concurrent call may have moved the mirror past this revision already.
            if current["revision"] >= self._revision:
                self._mirror, self._revision = current["state"], current["revision"]
            return self._mirror

    def watch(self, *names: str) -> Dict[str, JSONValue]:
        """Watch the state queries ``names`` (replacing the previous set;
        no names stops watching) and return their current values by name.

        From then on every batch's :attr:`Batch.queries` holds the watched
        queries whose JSON value changed since the previous batch, and only
        those: what a router or a view binding needs, without reading the
        state.

        Raises:
            NotFoundError: a name is not one of the feature's queries; the
                watched set stays what it was.
            ArgumentError: a name is not a ``str``.
        """
        for name in names:
            _encode_name(name, "query name")
        data = json.dumps(list(names), separators=(",", ":")).encode("ascii")
        out = ctypes.c_void_p()
        status = self._lib.corelogic_system_watch_queries(self._handle, data, ctypes.byref(out))
        if status:
            raise self._error(status)
        values: Dict[str, JSONValue] = _parse(self._lib.take(out.value))
        return values

    def _patch_batch(self, value: Dict[str, Any]) -> Batch:
        """The :class:`Batch` of a patch-mode batch: the patch applied to the mirror."""
        state = self._advance(value)
        return Batch(state, value["effects"], value["steps"], value.get("queries"), value.get("patch"), self._revision,
                     value.get("dropped"))

    def _advance(self, value: Dict[str, Any]) -> JSONValue:
        """Bring the mirror to the batch's revision: take the whole state it
        carries, or apply its patch when it continues from the mirror; skip it
        when the mirror is already past it, resync when something was missed.
        Returns the mirror."""
        revision = value["revision"]
        broken = None
        with self._mirror_lock:
            if revision <= self._revision:
                return self._mirror
            if "state" in value:
                self._mirror = value["state"]
                self._revision = revision
                return self._mirror
            if value["base"] == self._revision:
                # Applied without an undo log: a patch that fails part way is repaired
                # below, from the library's state.
                try:
                    self._mirror = apply_patch_unlogged(self._mirror, value["patch"])
                    self._revision = revision
                    return self._mirror
                except PatchError:
                    log.exception("corelogic: a patch did not apply to the %r mirror; resyncing", self._feature)
                    self._revision = -1  # only a resync repairs the mirror now
                    broken = self._mirror
        current = self.resync()
        return current if broken is None else self._repair(broken)

    def _repair(self, broken: JSONValue) -> JSONValue:
        """The mirror a failed patch left part applied, which earlier batches hold
        as their state: made the library's state again in place (the resync just
        fetched it) and the mirror again. Returns the mirror."""
        with self._mirror_lock:
            current = self._mirror
            if type(broken) is dict and type(current) is dict and current is not broken:
                broken.clear()
                broken.update(current)
                self._mirror = broken
            return self._mirror

    # -- push handlers ------------------------------------------------------

    def on_command(self, handler: Optional[CommandHandler]) -> None:
        """Register ``handler(command)`` to receive each effect command as it is
        produced; ``None`` removes it. One handler per system.

        The handler runs synchronously on the thread whose call produced the
        command, while the system is being drained. It may call this system
        (``deliver`` an answer at once, for instance): such a call is queued,
        returns at once (its batch is empty) and is processed before the outer
        call returns. It must not block waiting for another thread's call into
        the same system: that would deadlock. An exception it raises is logged
        on the ``corelogic`` logger and otherwise ignored.
        """
        self._register(self._lib.corelogic_system_on_command, handler, "command")
        self._command_handler = handler

    def on_state(self, handler: Optional[StateHandler]) -> None:
        """Register ``handler(state)`` to receive each new state; ``None``
        removes it. The same rules as :meth:`on_command` apply. In patch mode
        the handler receives the state mirror after applying the step's patch
        (read-only; see :meth:`set_output`)."""
        receiver = handler
        if handler is not None and callable(handler):
            receiver = _state_from_mirror(weakref.ref(self), handler)
        self._register(self._lib.corelogic_system_on_state, receiver, "state")
        self._state_handler = handler

    @property
    def command_handler(self) -> Optional[CommandHandler]:
        """The handler registered with :meth:`on_command`, or ``None``."""
        return self._command_handler

    @property
    def state_handler(self) -> Optional[StateHandler]:
        """The handler registered with :meth:`on_state`, or ``None``."""
        return self._state_handler

    def _register(self, function: Any, handler: Optional[Callable[[Any], None]], what: str) -> None:
        if handler is None:
            callback = _NO_CALLBACK
        else:
            if not callable(handler):
                raise ArgumentError(f"{what} handler must be callable or None")
            callback = CALLBACK(_trampoline(handler, what))
            self._callbacks.append(callback)
        status = function(self._handle, callback, None)
        if status:
            raise self._error(status)

    # -- persistence (docs/persistence.md) ------------------------------------

    @classmethod
    def restore(
        cls,
        feature: str,
        path: PathLike,
        *,
        library: Optional[Union[Library, PathLike]] = None,
    ) -> "System":
        """Open ``feature`` from the journal directory ``path``.

        The snapshot is read (without one: the feature's initial state), the
        inputs journaled after it are replayed through the reducer (no effects
        run), then the feedbacks are evaluated once: the new system's
        :attr:`initial_batch` starts exactly the effects the restored state asks
        for, with ids the previous life never used. The system keeps journaling
        into ``path`` with the durability the journal was written with.

        An empty directory restores the initial state (and starts a journal in
        it). A torn last record (a crash in the middle of writing it) is left
        out and reported in :attr:`restore_report`::

            {"snapshot": True, "migratedFrom": None, "seq": 40, "replayed": 12,
             "firstEffectId": 23, "durability": "every-input",
             "tornTail": None}  # or {"file": ..., "offset": ..., "bytes": ...}

        Raises:
            NotFoundError: unknown feature.
            StorageError: ``path`` does not exist or cannot be read or written,
                or another open journal (in any process) holds it.
            CorruptError: a damaged or inconsistent snapshot or journal, or a
                state version this build cannot read; the message names the
                file and line.
        """
        system = cls.__new__(cls)
        lib = system._bind(feature, library)
        name = _encode_name(feature, "feature")
        directory = _encode_path(path)
        handle = ctypes.c_uint64(0)
        report = ctypes.c_void_p()
        batch = ctypes.c_void_p()
        status = lib.corelogic_system_restore(
            name, directory, ctypes.byref(handle), ctypes.byref(report), ctypes.byref(batch)
        )
        if status:
            raise lib.error(status)
        system._handle = handle.value
        system.restore_report = json.loads(lib.take(report.value))
        system.initial_batch = _batch(lib.take(batch.value))
        return system

    def trace(self, path: Optional[PathLike]) -> None:
        """Write a trace of this system to the file ``path`` (JSON lines), or
        with ``None`` stop. The first line (feature, state, query values,
        running effects) is written at once; then one line per input, stale
        and refused inputs included. Read it with :mod:`corelogic.trace`, or
        turn it into a page with ``python -m corelogic inspect``
        (``docs/inspector.md``). ``System(feature, trace=path)`` starts one
        at creation, right after the creation batch.

        Raises:
            StorageError: ``path`` cannot be created or written (a trace
                already running goes on).
            ArgumentError: ``path`` is empty.
        """
        status = self._lib.corelogic_system_trace(self._handle, None if path is None else _encode_path(path))
        if status:
            raise self._error(status)

    def open_journal(self, path: PathLike, durability: int = DURABILITY_EVERY_INPUT) -> None:
        """Journal every input this system accepts into the directory ``path``.

        ``path`` is created (one level) if missing and must not hold a journal
        yet (use :meth:`restore` for that). A first checkpoint of the current
        state is written at once. From then on each accepted input is written
        before the call that made it returns; stale and failing inputs never are.

        Args:
            durability: :data:`DURABILITY_EVERY_INPUT` (the default: each input
                is fsync'd before its call returns and survives power loss) or
                :data:`DURABILITY_INTERVAL` (fsync at most every 100 ms and on
                :meth:`checkpoint`, :meth:`sync_journal`, :meth:`close_journal`
                and :meth:`close`). A process crash never loses an acknowledged
                input in either mode; with ``INTERVAL`` an OS crash or power loss
                may lose the inputs since the last fsync.

        Raises:
            ArgumentError: unknown durability, a journal is already open, or
                ``path`` already holds a journal.
            StorageError: ``path`` cannot be created, locked or written, or
                another open journal holds it.
        """
        if isinstance(durability, bool) or not isinstance(durability, int):
            raise ArgumentError(f"durability must be an int, not {type(durability).__name__}")
        status = self._lib.corelogic_system_open_journal(self._handle, _encode_path(path), durability)
        if status:
            raise self._error(status)

    def checkpoint(self) -> None:
        """Write a snapshot of the current state and start a fresh journal
        segment, so a restore replays only what follows; older segments are
        removed once the snapshot is durable. A crash at any point leaves a
        journal that restores to the same state.

        Raises:
            ArgumentError: the system has no journal.
            StorageError: the snapshot or the new segment cannot be written.
        """
        status = self._lib.corelogic_system_checkpoint(self._handle)
        if status:
            raise self._error(status)

    def sync_journal(self) -> None:
        """Force the journal's records to stable storage now: with
        :data:`DURABILITY_INTERVAL`, call it at the end of a batch of work.

        Raises:
            ArgumentError: the system has no journal.
            StorageError: fsync failed.
        """
        status = self._lib.corelogic_system_sync_journal(self._handle)
        if status:
            raise self._error(status)

    def close_journal(self) -> None:
        """Stop journaling: sync, close and release the directory, which stays
        restorable. Does nothing when no journal is open; :meth:`close` does the
        same."""
        status = self._lib.corelogic_system_close_journal(self._handle)
        if status:
            raise self._error(status)

    # -- lifetime -----------------------------------------------------------

    def close(self) -> None:
        """Free the system. Idempotent: closing twice does nothing. Afterwards
        every method raises :class:`~corelogic.HandleError`."""
        with self._lock:
            handle, self._handle = self._handle, 0
        if handle:
            self._free_fn(handle)

    def __enter__(self) -> "System":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        handle = getattr(self, "_handle", 0)
        if handle:
            self._handle = 0
            try:
                self._free_fn(handle)
            except Exception:  # interpreter shutdown: nothing left to free into
                pass

    def _error(self, status: int) -> CorelogicError:
        message = self._lib.last_error()
        if status == ERR_HANDLE and self._handle == 0:
            return HandleError(f"the {self._feature!r} system is closed ({message})", status)
        return error_for_status(status, message)


def _output_mode(mode: Any) -> int:
    """The C value of an output mode name; ArgumentError for anything else."""
    number = OUTPUT_MODES.get(mode) if isinstance(mode, str) else None
    if number is None:
        raise ArgumentError(f"unknown output mode {mode!r}; the modes are {', '.join(map(repr, OUTPUT_MODES))}")
    return number


def _state_from_mirror(system: "weakref.ReferenceType[System]", handler: StateHandler) -> StateHandler:
    """A state handler that, in patch mode, applies the patch it receives to the
    system's mirror and passes the mirror on (weakly bound: the library's
    callback must not keep the system alive)."""

    def receive(value: JSONValue) -> None:
        owner = system()
        if owner is not None and owner._output == "patch" and value is not None:
            value = owner._advance(value)
        handler(value)

    return receive


def _encode_path(path: Any) -> bytes:
    try:
        data = os.fsencode(path)
    except TypeError as exc:
        raise ArgumentError(f"path must be a str or os.PathLike, not {type(path).__name__}") from exc
    if b"\0" in data:
        raise ArgumentError("path contains a NUL character")
    return data


def _effect_id(effect_id: Any) -> int:
    if type(effect_id) is not int:
        if isinstance(effect_id, bool) or not isinstance(effect_id, int):
            raise ArgumentError(f"effect id must be an int, not {type(effect_id).__name__}")
        effect_id = int(effect_id)
    if not 0 <= effect_id <= _MAX_U64:
        raise ArgumentError(f"effect id {effect_id} is not an unsigned 64-bit integer")
    return effect_id  # type: ignore[no-any-return]


def _trampoline(handler: Callable[[Any], None], what: str) -> Callable[[Any, Optional[bytes]], None]:
    def call(_context: Any, raw: Optional[bytes]) -> None:
        # A call the handler makes into the library gets its own out-parameter,
        # so the outer call's one is never touched.
        saved = getattr(_tls, "slot", None)
        _new_slot()
        try:
            handler(_parse(raw) if raw is not None else None)
        except BaseException:  # never let an exception unwind through C
            log.exception("corelogic %s handler %r raised", what, handler)
        finally:
            if saved is not None:
                _tls.slot = saved

    return call
