"""Traces and time travel: what a system did, step by step, and what it would
have done otherwise.

A trace is written by the library (:meth:`corelogic.System.trace`, or
``corelogic_system_trace`` in C): a JSON-lines file whose first line holds the
feature, the state, every query's value and the running effects, followed by
one line per input the system was given, stale and refused inputs included.
A journal directory (:meth:`corelogic.System.open_journal`) can be read the
same way: its inputs are replayed through the reducer, as restore does.

>>> trace = corelogic.trace.load("search.trace.jsonl")     # doctest: +SKIP
>>> trace.state_at(3)               # the state after the input with seq 3
>>> replay_state(trace, 3)          # the same, rebuilt through the reducer
>>> what_if_without(trace, 2)       # the session again, without input 2

A truncated or corrupt line is reported in :attr:`Trace.problems` with its
line number and the rest still loads; a file that is not a trace, a trace of
another format version, or of another feature than the one asked for raises
:class:`TraceError`. The format is in ``docs/inspector.md``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from ._jsondiff import PatchError, apply_patch, copy_json, diff
from ._library import Library, PathLike
from .errors import CorelogicError
from .system import STALE, Batch, System

__all__ = [
    "FORMAT_VERSION",
    "Replay",
    "ReplayStep",
    "Step",
    "Trace",
    "TraceError",
    "TraceProblem",
    "event_name",
    "load",
    "read_journal",
    "read_trace",
    "replay",
    "replay_state",
    "what_if_without",
]

#: The trace format this module reads (the ``corelogicTrace`` field of the first line).
FORMAT_VERSION = 1

JSONValue = Any
LibraryArgument = Optional[Union[Library, PathLike]]

_INPUTS = ("send", "deliver", "complete")
# How many steps apart :meth:`Trace.state_at` keeps copies of the state, and how many.
_CHECKPOINT_EVERY = 512
_CHECKPOINTS_KEPT = 32


class TraceError(ValueError):
    """A file that cannot be read as a trace at all: not a trace, an unknown
    format version, or a trace of another feature than the one asked for."""


@dataclass(frozen=True)
class TraceProblem:
    """A line that was skipped: where, and why."""

    line: int
    message: str
    file: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.file else f"line {self.line}"
        return f"{where}: {self.message}"


@dataclass
class Step:
    """One input the system was given, and what it did with it.

    Attributes:
        seq: the input's number in the trace (from 1), or in the journal.
        line: the line of the file it was read from.
        input: ``"send"``, ``"deliver"`` or ``"complete"``.
        status: ``"ok"``, ``"stale"``, or ``"error:<name>"`` (``"error:schema"``...).
        event: the event (send and deliver), ``None`` for complete and for inputs refused
            before they were queued (a queued input dropped in its turn has its event).
        effect: the effect id (deliver and complete).
        raw: the text the host passed, for a refused input.
        message: the error message, for a refused input.
        effects: the commands the step produced (``ok`` only).
        queries: the queries whose value changed in this step, with their new values.
        patch: the state change from the previous step (RFC 6902; ``[]``: none).
        ns: the step's duration in nanoseconds, when recorded.
    """

    seq: int
    line: int
    input: str
    status: str
    event: JSONValue = None
    effect: Optional[int] = None
    raw: Optional[str] = None
    message: Optional[str] = None
    effects: List[Dict[str, Any]] = field(default_factory=list)
    queries: Dict[str, JSONValue] = field(default_factory=dict)
    patch: List[Dict[str, Any]] = field(default_factory=list)
    ns: Optional[int] = None

    @property
    def ok(self) -> bool:
        """Whether the input was applied (neither stale nor refused)."""
        return self.status == "ok"

    @property
    def name(self) -> str:
        """The event's case name (``"queryChanged"``), or ``"complete"``."""
        if self.input == "complete":
            return "complete"
        if self.event is not None:
            return event_name(self.event)
        if self.raw is not None:
            try:
                return event_name(json.loads(self.raw))
            except ValueError:
                return "(bad JSON)"
        return "?"


def event_name(event: JSONValue) -> str:
    """The case name of an event in either form: ``"reachedBottom"`` or
    ``{"queryChanged": {...}}``."""
    if isinstance(event, str):
        return event
    if isinstance(event, dict) and len(event) == 1:
        return str(next(iter(event)))
    return "?"


class Trace:
    """A loaded trace (or journal): the first state and the steps after it.

    Attributes:
        feature: the feature's name.
        state_version: the feature's state version when the trace was written.
        initial_state: the state before the first step.
        initial_queries: every query's value before the first step.
        initial_effects: the effects running before the first step
            (``[{"id", "feedback", "request"}]``).
        next_effect: the first effect id the traced system had not handed out.
        steps: the inputs, in the order the system handled them.
        problems: lines that were skipped, with their line numbers.
        source: where it was read from.
        kind: ``"trace"``, or ``"journal"`` for a journal directory.
    """

    def __init__(
        self,
        feature: str,
        state_version: int,
        initial_state: JSONValue,
        initial_queries: Dict[str, JSONValue],
        initial_effects: List[Dict[str, Any]],
        next_effect: int,
        steps: List[Step],
        problems: List[TraceProblem],
        source: str = "",
        kind: str = "trace",
    ) -> None:
        self.feature = feature
        self.state_version = state_version
        self.initial_state = initial_state
        self.initial_queries = initial_queries
        self.initial_effects = initial_effects
        self.next_effect = next_effect
        self.steps = steps
        self.problems = problems
        self.source = source
        self.kind = kind
        self._index: Dict[int, int] = {step.seq: index for index, step in enumerate(steps)}
        self._checkpoints: Dict[int, JSONValue] = {}

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __repr__(self) -> str:
        return f"<corelogic.trace.Trace {self.feature!r} {len(self.steps)} steps, {len(self.problems)} problems>"

    def step(self, seq: int) -> Step:
        """The step with number ``seq``. Raises :class:`KeyError` if there is none."""
        return self.steps[self.index_of(seq)]

    def index_of(self, seq: int) -> int:
        """The position of step ``seq`` in :attr:`steps`."""
        try:
            return self._index[seq]
        except KeyError:
            raise KeyError(f"the trace has no step {seq}") from None

    def state_at(self, seq: int) -> JSONValue:
        """The state right after step ``seq`` (``0``: before the first step),
        from the recorded changes. A fresh copy: change it freely."""
        if seq == 0:
            return copy_json(self.initial_state)
        return self.state_after_index(self.index_of(seq))

    def state_after_index(self, index: int) -> JSONValue:
        """The state after ``steps[index]`` (``-1``: the initial state)."""
        if index < -1 or index >= len(self.steps):
            raise IndexError(f"step index {index} is out of range (0..{len(self.steps) - 1})")
        start = -1
        for cached in self._checkpoints:
            if start < cached <= index:
                start = cached
        state = copy_json(self._checkpoints[start] if start >= 0 else self.initial_state)
        for position in range(start + 1, index + 1):
            patch = self.steps[position].patch
            if patch:
                state = apply_patch(state, patch, copy_values=True)
            if (position + 1) % _CHECKPOINT_EVERY == 0 and position not in self._checkpoints and position != index:
                self._keep_checkpoint(position, state)
        return state

    def _keep_checkpoint(self, position: int, state: JSONValue) -> None:
        if len(self._checkpoints) >= _CHECKPOINTS_KEPT:
            del self._checkpoints[min(self._checkpoints)]
        self._checkpoints[position] = copy_json(state)

    def states(self) -> Iterator[Tuple[Step, JSONValue]]:
        """Each step with the state after it, in order. The state is the one
        working copy, changed by the next iteration: copy what you keep."""
        state = copy_json(self.initial_state)
        for step in self.steps:
            if step.patch:
                state = apply_patch(state, step.patch, copy_values=True)
            yield step, state

    def queries_at(self, seq: int) -> Dict[str, JSONValue]:
        """Every recorded query's value right after step ``seq``."""
        values = dict(self.initial_queries)
        if seq == 0:
            return values
        for step in self.steps[: self.index_of(seq) + 1]:
            values.update(step.queries)
        return values

    @property
    def final_state(self) -> JSONValue:
        """The state after the last step."""
        return self.state_after_index(len(self.steps) - 1)


# -- reading ------------------------------------------------------------------


def load(path: PathLike, feature: Optional[str] = None, *, library: LibraryArgument = None) -> Trace:
    """Read a trace file, or a journal directory (see :func:`read_journal`).

    Args:
        feature: refuse a trace of another feature (:class:`TraceError`).
        library: for a journal only: the library its inputs are replayed with.
    """
    if os.path.isdir(path):
        return read_journal(path, feature, library=library)
    try:
        with open(path, "rb") as file:
            return read_trace(file, feature, source=os.fspath(path))
    except OSError as exc:
        raise TraceError(f"cannot read the trace {os.fspath(path)!r}: {exc.strerror or exc}") from exc


def read_trace(lines: Iterable[Union[bytes, str]], feature: Optional[str] = None, *, source: str = "") -> Trace:
    """Read a trace from its lines (a file opened in binary or text mode).

    Each step line may carry the whole ``"state"`` or a ``"patch"`` against
    the previous state; the trace keeps patches either way. A line that is
    not JSON, not a step, or whose patch does not apply is reported in
    :attr:`Trace.problems` and skipped.
    """
    iterator = iter(lines)
    header: Optional[Dict[str, Any]] = None
    number = 0
    problems: List[TraceProblem] = []
    for raw in iterator:
        number += 1
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if not text.strip():
            continue
        header = _read_header(text, number, source, feature)
        break
    if header is None:
        raise TraceError(f"{source or 'the trace'} is empty: no first line")
    state = copy_json(header["state"])
    revision = header.get("revision")
    steps: List[Step] = []
    for raw in iterator:
        number += 1
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if not text.strip():
            continue
        try:
            record = json.loads(text)
            if isinstance(record, dict) and "corelogicTrace" in record:
                # Another trace appended after this one (the file was reused).
                other = _read_header(text, number, source, feature)
                if other["feature"] != header["feature"]:
                    raise TraceError(f"{source or 'trace'}:{number}: a trace of {other['feature']!r} follows one of {header['feature']!r}")
                raise ValueError("a second first line: traces were concatenated; the steps after it are not read")
            step, state = _read_step(record, number, state)
            if step.ok and type(record.get("revision")) is int:
                if type(revision) is int and record["revision"] != revision + 1 and "patch" in record:
                    missing = record["revision"] - revision - 1
                    problems.append(TraceProblem(number, f"{missing} state change(s) before this line are missing "
                                                         "(lost or damaged lines): the states from here on may be wrong; "
                                                         "this line is kept", source))
                revision = record["revision"]
        except TraceError:
            raise
        except (ValueError, PatchError, TypeError, KeyError) as exc:
            problems.append(TraceProblem(number, _problem_text(exc), source))
            if "second first line" in str(exc):
                break
            continue
        steps.append(step)
    return Trace(
        feature=header["feature"],
        state_version=header["stateVersion"],
        initial_state=header["state"],
        initial_queries=header["queries"],
        initial_effects=header["effects"],
        next_effect=header["nextEffect"],
        steps=steps,
        problems=problems,
        source=source,
    )


def _problem_text(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at column {exc.colno}): a truncated or corrupt line"
    return str(exc)


def _read_header(text: str, number: int, source: str, feature: Optional[str]) -> Dict[str, Any]:
    where = f"{source or 'trace'}:{number}"
    try:
        header = json.loads(text)
    except ValueError as exc:
        raise TraceError(f"{where}: the first line is not JSON: this is not a corelogic trace ({exc})") from None
    if not isinstance(header, dict) or "corelogicTrace" not in header:
        raise TraceError(f"{where}: not a corelogic trace (the first line has no \"corelogicTrace\" field)")
    version = header["corelogicTrace"]
    if version != FORMAT_VERSION:
        raise TraceError(f"{where}: trace format version {version!r} is not supported (this reader knows version {FORMAT_VERSION})")
    name = header.get("feature")
    if not isinstance(name, str):
        raise TraceError(f"{where}: the first line names no feature")
    if feature is not None and name != feature:
        raise TraceError(f"{where}: this is a trace of the feature {name!r}, not {feature!r}")
    if "state" not in header:
        raise TraceError(f"{where}: the first line has no state")
    header.setdefault("stateVersion", 1)
    header.setdefault("queries", {})
    header.setdefault("effects", [])
    header.setdefault("nextEffect", 1)
    if type(header["stateVersion"]) is not int or type(header["nextEffect"]) is not int:
        raise TraceError(f"{where}: \"stateVersion\" and \"nextEffect\" must be integers")
    if not isinstance(header["queries"], dict):
        raise TraceError(f"{where}: \"queries\" must be an object")
    if not isinstance(header["effects"], list) or not all(
        isinstance(effect, dict) and type(effect.get("id")) is int and isinstance(effect.get("feedback"), str)
        for effect in header["effects"]
    ):
        raise TraceError(f"{where}: \"effects\" must be an array of {{\"id\",\"feedback\",\"request\"}}")
    return header


def _read_step(record: Any, number: int, state: JSONValue) -> Tuple[Step, JSONValue]:
    if not isinstance(record, dict):
        raise ValueError(f"a step must be a JSON object, not {type(record).__name__}")
    kind = record.get("input")
    if kind not in _INPUTS:
        raise ValueError(f"unknown input {kind!r} (expected send, deliver or complete)")
    status = record.get("status")
    if not isinstance(status, str) or not (status in ("ok", "stale") or status.startswith("error:")):
        raise ValueError(f"unknown status {status!r}")
    seq = record.get("seq")
    if type(seq) is not int:
        raise ValueError("the step has no integer \"seq\"")
    effect = record.get("effect")
    if kind != "send" and type(effect) is not int:
        raise ValueError(f"a {kind} step needs an integer \"effect\"")
    for key in ("raw", "message"):
        if record.get(key) is not None and not isinstance(record[key], str):
            raise ValueError(f"\"{key}\" must be a string")
    ns = record.get("ns")
    if ns is not None and type(ns) is not int:
        raise ValueError("\"ns\" must be an integer")
    step = Step(
        seq=seq,
        line=number,
        input=kind,
        status=status,
        event=record.get("event"),
        effect=effect,
        raw=record.get("raw"),
        message=record.get("message"),
        ns=record.get("ns"),
    )
    if status == "ok":
        # Everything is checked before the state changes: a skipped line leaves it as it was.
        effects = record.get("effects", [])
        queries = record.get("queries", {})
        if not isinstance(effects, list) or not all(_is_command(command) for command in effects):
            raise ValueError("\"effects\" must be an array of {\"start\":{\"id\",\"feedback\",\"request\"}} and {\"cancel\":id}")
        if not isinstance(queries, dict):
            raise ValueError("\"queries\" must be an object")
        if "patch" in record:
            patch = record["patch"]
            state = apply_patch(state, patch, copy_values=True)   # in place, all or nothing
            step.patch = patch
        elif "state" in record:
            new_state = record["state"]
            step.patch = diff(state, new_state)
            state = new_state
        else:
            raise ValueError("an ok step has neither \"state\" nor \"patch\"")
        step.effects = effects
        step.queries = queries
    return step, state


def _is_command(command: Any) -> bool:
    if not isinstance(command, dict) or len(command) != 1:
        return False
    if "cancel" in command:
        return type(command["cancel"]) is int
    start = command.get("start")
    return isinstance(start, dict) and type(start.get("id")) is int and isinstance(start.get("feedback"), str)


def read_journal(directory: PathLike, feature: Optional[str] = None, *, library: LibraryArgument = None) -> Trace:
    """Read a journal directory (``docs/persistence.md``) as a trace.

    The snapshot's state (or, without one, the feature's initial state) is the
    first state; each journaled input is replayed through the reducer, as
    restore does, to get the state after it; the commands are those of that
    replay (a journal records inputs only). Journals hold accepted inputs only,
    so every step is ``ok``. Lines that fail their checksum or do not parse are
    reported in :attr:`Trace.problems` and skipped.
    """
    root = Path(directory)
    snapshot: Optional[Dict[str, Any]] = None
    problems: List[TraceProblem] = []
    snapshot_path = root / "snapshot.json"
    if snapshot_path.exists():
        for number, line in enumerate(snapshot_path.read_bytes().splitlines(), 1):
            record = _journal_line(line, number, str(snapshot_path), problems)
            if record is not None and record.get("corelogic") == "snapshot":
                snapshot = record
    segments = sorted(path for path in root.iterdir() if re.fullmatch(r"journal-\d{20}\.jsonl", path.name))
    if snapshot is None and not segments:
        raise TraceError(f"{root} holds no snapshot.json and no journal-*.jsonl: not a journal directory")
    name: Optional[str] = snapshot.get("feature") if snapshot else None
    version: int = int(snapshot.get("stateVersion", 1)) if snapshot else 1
    records: List[Tuple[str, int, Dict[str, Any]]] = []
    first_seq = int(snapshot.get("seq", 0)) if snapshot else 0
    for segment in segments:
        for number, line in enumerate(segment.read_bytes().splitlines(), 1):
            record = _journal_line(line, number, str(segment), problems)
            if record is None:
                continue
            if record.get("corelogic") == "journal":
                if name is None:
                    name = record.get("feature")
                    version = int(record.get("stateVersion", 1))
                elif record.get("feature") != name:
                    raise TraceError(f"{segment}:{number}: a journal of {record.get('feature')!r} in a directory of {name!r}")
                continue
            if type(record.get("seq")) is int and record["seq"] > first_seq:
                records.append((str(segment), number, record))
    if not isinstance(name, str):
        raise TraceError(f"{root}: the journal names no feature")
    if feature is not None and name != feature:
        raise TraceError(f"{root}: this is a journal of the feature {name!r}, not {feature!r}")
    with System(name, snapshot["state"] if snapshot else None, library=library) as system:
        initial_state = system.state
        initial_effects = [command["start"] for command in system.initial_batch.effects if "start" in command]
        queries = _query_values(system)
        initial_queries = dict(queries)
        steps: List[Step] = []
        id_map: Dict[int, int] = {}
        state = copy_json(initial_state)
        for file, number, record in records:
            next_id = record.get("next")
            if "send" in record:
                step = Step(seq=record["seq"], line=number, input="send", status="ok", event=record["send"])
                batch = system.send(_event_bytes(record["send"]))
            elif "deliver" in record:
                body = record["deliver"]
                step = Step(seq=record["seq"], line=number, input="deliver", status="ok", event=body.get("event"), effect=body.get("effect"))
                result = system.deliver(id_map.get(int(body.get("effect", 0)), 0), _event_bytes(body.get("event")))
                # The journal accepted it: an effect started before the snapshot has
                # another id in this replay, so the event goes through the reducer anyway.
                batch = result if isinstance(result, Batch) else system.send(_event_bytes(body.get("event")))
            elif "complete" in record:
                body = record["complete"]
                step = Step(seq=record["seq"], line=number, input="complete", status="ok", effect=body.get("effect"))
                completed = system.complete(id_map.get(int(body.get("effect", 0)), 0))
                batch = completed if isinstance(completed, Batch) else Batch(system.state, [], 0)
            else:
                problems.append(TraceProblem(number, "a record with no send, deliver or complete", file))
                continue
            starts = [command["start"] for command in batch.effects if "start" in command]
            if type(next_id) is int:
                for offset, start in enumerate(starts):
                    id_map[next_id + offset] = start["id"]
            step.effects = batch.effects
            new_queries = _query_values(system)
            step.queries = {key: value for key, value in new_queries.items() if queries.get(key) != value}
            queries = new_queries
            step.patch = diff(state, batch.state)
            state = batch.state
            steps.append(step)
    return Trace(
        feature=name,
        state_version=version,
        initial_state=initial_state,
        initial_queries=initial_queries,
        initial_effects=initial_effects,
        next_effect=int(snapshot.get("next", 1)) if snapshot else 1,
        steps=steps,
        problems=problems,
        source=str(root),
        kind="journal",
    )


def _journal_line(line: bytes, number: int, file: str, problems: List[TraceProblem]) -> Optional[Dict[str, Any]]:
    import zlib

    if not line.strip():
        return None
    marker = line.rfind(b',"crc32":"')
    if marker < 0 or not line.endswith(b'"}') or len(line) - marker != 20:
        problems.append(TraceProblem(number, "no checksum: a torn or corrupt line", file))
        return None
    if b"%08x" % zlib.crc32(line[:marker]) != line[marker + 10 : marker + 18]:
        problems.append(TraceProblem(number, "checksum mismatch: a corrupt line", file))
        return None
    try:
        record = json.loads(line)
    except ValueError as exc:
        problems.append(TraceProblem(number, f"not JSON: {exc}", file))
        return None
    return record if isinstance(record, dict) else None


def _query_values(system: System) -> Dict[str, JSONValue]:
    for description in system.library.features():
        if description["name"] == system.feature:
            return {name: system.query(name) for name in description["queries"]}
    return {}


def _event_bytes(event: JSONValue) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode("utf-8")


# -- time travel ----------------------------------------------------------------


def replay_state(trace: Trace, seq: int, *, library: LibraryArgument = None) -> JSONValue:
    """Rebuild the state right after step ``seq`` by replaying the accepted
    inputs up to it through the reducer of a fresh system, as restore does
    (stale and refused inputs never reached the reducer, so they are skipped;
    a delivered event goes through the reducer like a sent one)."""
    last = trace.index_of(seq) if seq else -1
    with System(trace.feature, trace.initial_state, library=library) as system:
        for step in trace.steps[: last + 1]:
            if step.ok and step.input != "complete":
                system.send(_event_bytes(step.event))
        return system.state


@dataclass
class ReplayStep:
    """One input of a :func:`replay`: what the fresh system did with it.

    ``status`` is ``"skipped"`` for the inputs left out; ``state`` is the state
    after the input (unchanged for stale, refused and skipped ones), and
    ``effects`` the commands with the replay's ids; ``was`` the status the
    trace recorded for the same input.
    """

    seq: int
    input: str
    status: str
    state: JSONValue
    effects: List[Dict[str, Any]]
    effect: Optional[int] = None
    message: Optional[str] = None
    was: str = ""


@dataclass
class Replay:
    """The result of :func:`replay`.

    Attributes:
        initial: the fresh system's creation batch.
        steps: one :class:`ReplayStep` per step of the trace, in order.
        final_state: the state after the last input.
        id_map: the trace's effect ids and the ids the replay gave the same effects.
        diverged: the seq of the first input whose status or state differs from
            the trace (the skipped inputs aside), or ``None``.
    """

    initial: Batch
    steps: List[ReplayStep]
    final_state: JSONValue
    id_map: Dict[int, int]
    diverged: Optional[int]

    def step(self, seq: int) -> ReplayStep:
        for step in self.steps:
            if step.seq == seq:
                return step
        raise KeyError(f"the replay has no step {seq}")

    @property
    def newly_stale(self) -> List[int]:
        """The seqs of inputs that were applied in the trace but are stale in the replay."""
        return [step.seq for step in self.steps if step.status == "stale" and step.was == "ok"]


def replay(trace: Trace, skip: Sequence[int] = (), *, library: LibraryArgument = None) -> Replay:
    """Replay the session through a fresh system, leaving out the steps in
    ``skip`` (by seq), with real deliver and complete calls: an effect the
    alternate history never started or already cancelled makes its deliveries
    stale, exactly as the library would.

    Effect ids are matched between the trace and the replay: the effects
    running at the start by feedback and request, each later ``start`` by
    feedback and request within its step. An input for an effect the replay
    never started goes to id 0, which is never running (stale).
    """
    skipped: Set[int] = set(skip)
    for seq in skipped:
        trace.index_of(seq)
    with System(trace.feature, trace.initial_state, library=library) as system:
        initial = system.initial_batch
        id_map: Dict[int, int] = {}
        _match_starts(
            [{"start": effect} for effect in trace.initial_effects], initial.effects, id_map
        )
        steps: List[ReplayStep] = []
        diverged: Optional[int] = None
        recorded = trace.states()
        for step, recorded_state in recorded:
            if step.seq in skipped:
                steps.append(ReplayStep(step.seq, step.input, "skipped", system.state, [], step.effect, was=step.status))
                continue
            result = _replay_one(system, step, id_map)
            if step.ok and result.status == "ok":
                _match_starts(step.effects, result.effects, id_map)
            result.was = step.status
            steps.append(result)
            if diverged is None and (result.status != step.status or not _same_state(result.state, recorded_state)):
                diverged = step.seq
        final_state = system.state
    return Replay(initial, steps, final_state, id_map, diverged)


def what_if_without(trace: Trace, seq: int, *, library: LibraryArgument = None) -> Replay:
    """The session replayed as if input ``seq`` had never happened (see :func:`replay`)."""
    return replay(trace, [seq], library=library)


def _same_state(a: JSONValue, b: JSONValue) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _replay_one(system: System, step: Step, id_map: Dict[int, int]) -> ReplayStep:
    effect = None if step.effect is None else id_map.get(step.effect, 0)
    try:
        if step.ok or step.status == "stale":
            if step.input == "send":
                result: Any = system.send(_event_bytes(step.event))
            elif step.input == "deliver":
                result = system.deliver(effect or 0, _event_bytes(step.event))
            else:
                result = system.complete(effect or 0)
        elif step.raw is not None:
            data = step.raw.encode("utf-8")
            if step.input == "deliver":
                result = system.deliver(effect or 0, data)
            else:
                result = system.send(data)
        else:
            return ReplayStep(step.seq, step.input, step.status, system.state, [], effect, step.message)
    except CorelogicError as error:
        return ReplayStep(step.seq, step.input, _status_name(error), system.state, [], effect, str(error))
    if result is STALE:
        return ReplayStep(step.seq, step.input, "stale", system.state, [], effect)
    return ReplayStep(step.seq, step.input, "ok", result.state, result.effects, effect)


def _status_name(error: CorelogicError) -> str:
    """The golden-file spelling of an error's status: ``CORELOGIC_ERR_SCHEMA`` -> ``error:schema``."""
    name = error.status_name or "CORELOGIC_ERR_UNKNOWN"
    return "error:" + name[len("CORELOGIC_ERR_"):].lower()


def _match_starts(traced: List[Dict[str, Any]], replayed: List[Dict[str, Any]], id_map: Dict[int, int]) -> None:
    """Pairs each traced ``start`` with the first unpaired replayed one of the
    same feedback and request."""
    free = [command["start"] for command in replayed if "start" in command]
    for command in traced:
        start = command.get("start") if isinstance(command, dict) else None
        if not isinstance(start, dict):
            continue
        for index, candidate in enumerate(free):
            if candidate["feedback"] == start.get("feedback") and _same_state(candidate["request"], start.get("request")):
                id_map[start["id"]] = candidate["id"]
                del free[index]
                break
