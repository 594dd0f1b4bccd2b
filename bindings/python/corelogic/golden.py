"""Sessions become tests: a recorded trace turned into a golden file.

``python -m corelogic record-golden TRACE --case NAME`` calls
:func:`record_golden`. The session is replayed through a fresh system (see
:func:`corelogic.trace.replay`); the golden file holds its inputs and, for each,
the status, state and commands the replay observed, with the replay's effect
ids (a fresh system numbers its effects from 1, whatever ids the traced one
had reached). A session that does not replay identically (another library, a
trace whose states do not match its own inputs) is refused rather than
written: a golden file must say what the session did.

The file has the format of ``docs/golden-files.md``; the golden driver (through
every host's adapter) and the Swift runner replay it like any other.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, List, Optional

from .trace import LibraryArgument, Trace, replay

__all__ = ["GoldenError", "golden_document", "record_golden"]

_CASE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class GoldenError(ValueError):
    """The session cannot become a golden file (see the message)."""


def golden_document(trace: Trace, description: str, *, library: LibraryArgument = None) -> Dict[str, Any]:
    """The golden file for ``trace`` as a JSON-ready ``dict``.

    Raises:
        GoldenError: the trace has unreadable lines, or the replay differs from
            what the trace recorded (the message names the first step).
    """
    if trace.problems:
        raise GoldenError(f"the trace has {len(trace.problems)} unreadable line(s), first {trace.problems[0]}: "
                          "a golden file must hold the whole session")
    if not description.strip():
        raise GoldenError("a golden file needs a description: the rule it proves")
    replayed = replay(trace, library=library)
    if replayed.diverged is not None:
        step = replayed.step(replayed.diverged)
        raise GoldenError(f"the session does not replay identically: step {replayed.diverged} was {step.was} "
                          f"in the trace and is {step.status} in the replay (or its state differs)")
    steps: List[Dict[str, Any]] = []
    for recorded, again in zip(trace.steps, replayed.steps):
        effect = again.effect if again.effect is not None else 0
        action: Dict[str, Any]
        if recorded.status.startswith("error:"):
            if recorded.raw is None:
                raise GoldenError(f"step {recorded.seq} was refused ({recorded.status}) without input text "
                                  "(a journal write error, not a property of the feature)")
            if recorded.input == "deliver":
                action = {"deliver": {"effect": effect, "raw": recorded.raw}}
            else:
                action = {"sendRaw": recorded.raw}
            expect: Dict[str, Any] = {"status": recorded.status}
            if recorded.message:
                expect["error"] = recorded.message
        else:
            if recorded.input == "send":
                action = {"send": recorded.event}
            elif recorded.input == "deliver":
                action = {"deliver": {"effect": effect, "event": recorded.event}}
            else:
                action = {"complete": {"effect": effect}}
            if recorded.status == "stale":
                expect = {"status": "stale"}
            else:
                expect = {"status": "ok", "state": again.state, "effects": again.effects}
        action["expect"] = expect
        steps.append(action)
    return {
        "feature": trace.feature,
        "description": description,
        "state": trace.initial_state,
        "expectInitial": {"state": replayed.initial.state, "effects": replayed.initial.effects},
        "steps": steps,
    }


def record_golden(
    trace: Trace,
    case: str,
    *,
    description: Optional[str] = None,
    directory: str = "golden",
    overwrite: bool = False,
    library: LibraryArgument = None,
) -> str:
    """Write ``trace`` as the golden file ``<directory>/<feature>/<case>.json``
    and return its path. Pretty-printed with two-space indents, as
    ``make golden-update`` writes them.

    Raises:
        GoldenError: a bad case name, an existing file (unless ``overwrite``),
            or a session that cannot become a golden file (see :func:`golden_document`).
    """
    if not _CASE.match(case):
        raise GoldenError(f"case name {case!r}: use lower-case letters, digits and dashes (it names the file)")
    text = description or f"recorded session: {len(trace.steps)} inputs from {os.path.basename(trace.source) or 'a trace'}"
    document = golden_document(trace, text, library=library)
    folder = os.path.join(directory, trace.feature)
    path = os.path.join(folder, case + ".json")
    if os.path.exists(path) and not overwrite:
        raise GoldenError(f"{path} exists; choose another case name or pass --force")
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=2, ensure_ascii=False)
        file.write("\n")
    return path
