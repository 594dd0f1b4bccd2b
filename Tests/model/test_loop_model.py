"""Random host programs against real features, every answer compared with the model.

Each example is a long random sequence of host calls on one system of a feature:
sends, deliveries (to running, cancelled, completed and never-issued effect ids) and
completions, with a command handler that answers some commands from inside the call
(queued inputs). After every call the batch (state, commands, steps) or STALE, the
results of the handler's own calls, the commands pushed to the handler and the running
effects must equal what the model in loop_model.py says. Hypothesis shrinks a failing
sequence to a minimal one and prints it as the list of calls made.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple

import pytest
from hypothesis import given, note as hypothesis_note, strategies as st
from hypothesis.control import currently_in_test_context

import corelogic
from loop_model import FEATURES, QUEUED, STALE, ModelSystem, without_nulls

MAX_CALLS = 200 if os.environ.get("CORELOGIC_MODEL_PROFILE") == "long" else 50
MAX_ID = (1 << 64) - 1
#: What the run compared, for the closing line (conftest.py).
COUNTS = {"programs": 0, "calls": 0, "stale": 0, "queued": 0}

# Host strings. The plain alphabet has no two canonically equivalent strings; the
# normalisation alphabet is made of them: é as one code point (NFC) and as e + U+0301
# (NFD), Å as U+00C5, as A + U+030A and as the Angstrom sign U+212B. Requests are JSON,
# so each of these is a different request (a different URL, a different text).
PLAIN_TEXTS = ["", "a", "b", "ab", "ba", "caf\u00e9", "\u65e5\u672c", "a b"]
NORMALISATION_TEXTS = ["caf\u00e9", "cafe\u0301", "\u00c5", "A\u030a", "\u212b", "a"]


# ---- strategies ---------------------------------------------------------------------


def events(feature: str, texts: List[str]) -> st.SearchStrategy:
    text = st.sampled_from(texts)
    if feature == "playcatch":
        return st.sampled_from(["humanThrows", "machineThrows", {"humanThrows": {}}])
    if feature == "downloads":
        return st.one_of(
            st.builds(lambda u: {"enqueue": {"url": u}}, text),
            st.builds(lambda u: {"cancel": {"url": u}}, text),
            st.builds(lambda u: {"finished": {"url": u}}, text),
            st.builds(lambda u, r: {"failed": {"url": u, "reason": r}}, text, text),
            st.builds(lambda v: {"setMaxConcurrent": {"value": v}}, st.integers(-1, 4)),
        )
    if feature == "typeahead":
        match = st.builds(lambda i, t: {"id": i, "title": t}, text, text)
        return st.one_of(
            st.builds(lambda t: {"textChanged": {"text": t}}, text),
            st.builds(lambda t: {"debounceElapsed": {"text": t}}, text),
            st.builds(lambda q, m: {"resultsLoaded": {"query": q, "matches": m}}, text,
                      st.lists(match, max_size=2)),
            st.builds(lambda q, m: {"searchFailed": {"query": q, "message": m}}, text, text),
        )
    raise ValueError(feature)


def first_states(feature: str, texts: List[str]) -> st.SearchStrategy:
    """None (the feature's own first state) or a state that asks for effects at once."""
    if feature == "playcatch":
        state = st.builds(lambda ball, n: {"ball": ball, "throwCount": n},
                          st.sampled_from(["human", "machine"]), st.integers(0, 5))
    elif feature == "downloads":
        state = st.builds(lambda m, p: {"maxConcurrent": m, "pending": p, "finished": [], "failed": []},
                          st.integers(0, 3), st.lists(st.sampled_from(texts), unique=True, max_size=4))
    else:
        state = st.builds(lambda t: {"text": t, "query": None, "results": [], "resultsQuery": None,
                                     "failure": None, "debounceMilliseconds": 300}, st.sampled_from(texts))
    return st.none() | state


def reactions(feature: str, texts: List[str]) -> st.SearchStrategy:
    """What the command handler does with the first commands of a call, one each."""
    reaction = st.tuples(st.sampled_from(["none", "answer", "deliver", "complete", "send"]),
                         events(feature, texts), st.integers(0, 3))
    return st.lists(reaction, max_size=3)


# Which effect a deliver or complete names; running ones most often, so that programs
# get deep, but every kind of id that is not running is tried too.
TARGETS = ["running", "running", "running", "cancelled", "completed", "unknown"]


def host_call(feature: str, texts: List[str]) -> st.SearchStrategy:
    event = events(feature, texts)
    react = reactions(feature, texts)
    target = st.tuples(st.sampled_from(TARGETS), st.integers(0, 7))
    send = st.tuples(st.just("send"), event, react)
    deliver = st.tuples(st.just("deliver"), target, event, st.booleans(), react)
    complete = st.tuples(st.just("complete"), target, react)
    return st.one_of(send, deliver, send, deliver, complete)


# ---- the handler, the same for the library and the model ------------------------------


def show(value: Any) -> str:
    """A value for failure messages, non-ASCII escaped: NFC and NFD strings look different."""
    return ascii(value)


def note(line: str) -> None:
    """The calls made so far, printed with a failing example (also outside Hypothesis)."""
    if currently_in_test_context():
        hypothesis_note(line)
    else:
        print(line)


class Reactor:
    """The command handler's behaviour during one host call: the k-th command of the
    call gets the k-th reaction; a pure function of the commands, so the library's
    handler and the model's make the same calls when they see the same commands."""

    def __init__(self, feature: str, plan: List[Tuple[str, Any, int]]) -> None:
        self.model = FEATURES[feature]
        self.plan = plan
        self.seen = 0

    def __call__(self, command: Any) -> List[Tuple]:
        index = self.seen
        self.seen += 1
        if index >= len(self.plan):
            return []
        kind, event, k = self.plan[index]
        effect_id = command["start"]["id"] if "start" in command else command["cancel"]
        if kind == "answer" and "start" in command:
            answers = self.model.answers(command)
            return [("deliver", effect_id, answers[k % len(answers)])]
        if kind in ("answer", "deliver"):
            return [("deliver", effect_id, event)]
        if kind == "complete":
            return [("complete", effect_id)]
        if kind == "send":
            return [("send", event)]
        return []


class Driver:
    """One system of the library and its model, driven call by call."""

    def __init__(self, library: corelogic.Library, feature: str, first_state: Optional[Any]) -> None:
        self.feature = feature
        self.model = ModelSystem(FEATURES[feature], None if first_state is None else dict(first_state))
        self.system = corelogic.System(feature, first_state, library=library)
        self.reactor: Optional[Reactor] = None
        self.pushed: List[Any] = []
        self.inner: List[str] = []
        self.highest_id = 0
        self.system.on_command(self._on_command)
        note(f"System({show(feature)}, {show(first_state)})")
        self._check_batch(self.system.initial_batch.to_dict(),
                          {"state": without_nulls(self.model.state), "effects": self.model.initial_commands,
                           "steps": 0}, "creation batch")

    def _on_command(self, command: Any) -> None:
        self.pushed.append(command)
        if self.reactor is None:
            return
        for sent in self.reactor(command):
            result = self._perform(sent)
            if result is corelogic.STALE:
                self.inner.append(STALE)
            else:
                # Queued: OK at once, no steps of its own.
                assert result.steps == 0, f"a call from a handler ran steps: {show(result)}"
                self.inner.append(QUEUED)

    def _perform(self, call: Tuple) -> Any:
        if call[0] == "send":
            return self.system.send(call[1])
        if call[0] == "deliver":
            return self.system.deliver(call[1], call[2])
        return self.system.complete(call[1])

    def target(self, kind: str, index: int) -> int:
        ids = {
            "running": sorted(self.model.ledger.running),
            "cancelled": self.model.cancelled,
            "completed": self.model.completed,
        }.get(kind, [])
        if ids:
            return ids[index % len(ids)]
        never_issued = [self.model.ledger.next_id, self.model.ledger.next_id + 1, self.model.ledger.next_id + 7, MAX_ID]
        return never_issued[index % len(never_issued)]

    def resolve(self, step: Tuple) -> Tuple[Tuple, list]:
        """A drawn step as a concrete call (ids and events chosen from the model's
        bookkeeping before the call) and its handler plan."""
        if step[0] == "send":
            return ("send", step[1]), step[2]
        if step[0] == "deliver":
            (kind, index), event, natural, plan = step[1], step[2], step[3], step[4]
            effect_id = self.target(kind, index)
            request = self.model.requests.get(effect_id)
            if natural and request is not None:
                command = {"start": {"id": effect_id, "feedback": self._feedback_of(effect_id), "request": request}}
                event = FEATURES[self.feature].answers(command)[index % len(FEATURES[self.feature].answers(command))]
            return ("deliver", effect_id, event), plan
        (kind, index), plan = step[1], step[2]
        return ("complete", self.target(kind, index)), plan

    def _feedback_of(self, effect_id: int) -> str:
        return self.model.feedback_names[effect_id]

    def run(self, step: Tuple) -> None:
        call, plan = self.resolve(step)
        note(f"{show(call)}  handler plan {show(plan)}")
        self.pushed, self.inner = [], []
        self.reactor = Reactor(self.feature, plan)
        actual = self._perform(call)
        self.reactor = None
        expected, expected_inner = self.model.call(call, Reactor(self.feature, plan))
        COUNTS["calls"] += 1
        COUNTS["stale"] += expected == STALE
        COUNTS["queued"] += expected_inner.count(QUEUED)
        if expected == STALE:
            assert actual is corelogic.STALE, f"{show(call)}: expected STALE, got {show(actual)}"
            assert self.pushed == [], f"{show(call)}: STALE, yet the handler got {show(self.pushed)}"
            assert self.system.state == without_nulls(self.model.state), f"{show(call)}: STALE changed the state"
        else:
            assert actual is not corelogic.STALE, f"{show(call)}: STALE, expected {show(expected)}"
            self._check_batch(actual.to_dict(), expected, show(call))
            assert self.pushed == actual.effects, f"{show(call)}: pushed {show(self.pushed)} != batch {show(actual.effects)}"
        assert self.inner == expected_inner, f"{show(call)}: handler calls returned {show(self.inner)}, expected {show(expected_inner)}"
        running = self.system.effects
        assert running == self.model.running_effects(), \
            f"{show(call)}: running effects {show(running)}, expected {show(self.model.running_effects())}"

    def _check_batch(self, actual: Any, expected: Any, what: str) -> None:
        for command in actual["effects"]:
            if "start" in command:
                # Ids start at 1, grow by one and are never reused.
                assert command["start"]["id"] == self.highest_id + 1, f"{what}: id {show(command)} after {self.highest_id}"
                self.highest_id = command["start"]["id"]
        assert actual["state"] == expected["state"], f"{what}: state {show(actual['state'])}, expected {show(expected['state'])}"
        assert actual["effects"] == expected["effects"], \
            f"{what}: commands {show(actual['effects'])}, expected {show(expected['effects'])}"
        assert actual["steps"] == expected["steps"], f"{what}: {actual['steps']} steps, expected {expected['steps']}"

    def close(self) -> None:
        self.system.close()


@pytest.fixture(scope="module")
def library() -> corelogic.Library:
    return corelogic.load_library()


def run_program(library: corelogic.Library, feature: str, first_state: Any, program: Any) -> None:
    """Runs the calls of `program` (a list, or an iterator that draws them one by one)."""
    driver = Driver(library, feature, first_state)
    COUNTS["programs"] += 1
    try:
        for step in program:
            driver.run(step)
    finally:
        driver.close()


def drawn_program(data: Any, feature: str, texts: List[str]) -> Any:
    """Calls drawn one at a time, each after the previous one ran (so Hypothesis can
    shrink the length and each call on its own)."""
    length = data.draw(st.integers(0, MAX_CALLS), label="calls")
    call = host_call(feature, texts)
    for _ in range(length):
        yield data.draw(call)


# ---- the tests ----------------------------------------------------------------------


@pytest.mark.parametrize("feature", sorted(FEATURES))
@given(data=st.data())
def test_random_host_programs_match_the_model(library: corelogic.Library, feature: str, data: Any) -> None:
    first_state = data.draw(first_states(feature, PLAIN_TEXTS), label="first state")
    run_program(library, feature, first_state, drawn_program(data, feature, PLAIN_TEXTS))


@pytest.mark.parametrize("feature", ["downloads", "typeahead"])
@given(data=st.data())
def test_requests_differing_only_in_normalisation_are_different_effects(
        library: corelogic.Library, feature: str, data: Any) -> None:
    first_state = data.draw(first_states(feature, NORMALISATION_TEXTS), label="first state")
    run_program(library, feature, first_state, drawn_program(data, feature, NORMALISATION_TEXTS))


@pytest.mark.parametrize("feature,program", [
    # The same URL in NFC and in NFD: two downloads, two effects.
    ("downloads", [("send", {"enqueue": {"url": "caf\u00e9"}}, []),
                   ("send", {"enqueue": {"url": "cafe\u0301"}}, [])]),
    # The text changes from NFC to NFD: a new debounce request cancels the old one.
    ("typeahead", [("send", {"textChanged": {"text": "\u00e9"}}, []),
                   ("send", {"textChanged": {"text": "e\u0301"}}, [])]),
])
def test_normalisation_pairs_known_cases(library: corelogic.Library, feature: str, program: List[Tuple]) -> None:
    run_program(library, feature, None, program)
