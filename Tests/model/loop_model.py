"""An executable model of the loop's effect rules, written from the contract alone.

The model knows nothing of the library's code: it re-states the rules of docs/contract.md §2-§4
and include/corelogic.h, and the reducers of a few features, in plain Python.
test_loop_model.py drives the real library and this model with the same inputs and
compares every answer.

The rules it encodes:

- A step reduces one input (send, deliver) or marks one effect completed (complete),
  then evaluates every feedback on the new state. Within a step all cancels come
  first, then all starts; feedbacks are evaluated in declaration order.
- ``react``: one effect keyed by a request. ``None`` cancels a running effect; a
  request equal to the current one changes nothing, even if that effect completed; a
  different request cancels the running one, then starts the new one.
- ``reactSet``: effects keyed by request value. A request that appears starts (in the
  query's order, duplicates once); one that disappears is cancelled only if still
  running; one that stays is untouched.
- Two requests are the same effect if and only if they are the same JSON value:
  strings compare code point by code point, never by Unicode equivalence.
- Effect ids start at 1, grow by one and are never reused.
- ``deliver``/``complete`` for an id that is not running is STALE: nothing changes.
- An input sent from a handler during a call is queued and runs after the current
  step, FIFO, before the call returns; a queued deliver/complete whose effect stopped
  running by its turn is dropped; every step the call drains counts in ``steps``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

STALE = "STALE"
QUEUED = "QUEUED"

JSON = Any


def request_key(request: JSON) -> str:
    """The identity of a request: its JSON value, object keys in any order, strings
    compared exactly (no Unicode normalisation)."""
    return json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def without_nulls(state: Dict[str, JSON]) -> Dict[str, JSON]:
    """A state as the library writes it: optional members that are nil are left out."""
    return {key: value for key, value in state.items() if value is not None}


# ---- feedbacks ----------------------------------------------------------------------


class Ledger:
    """Id allocation and the commands of the current step."""

    def __init__(self, next_id: int = 1) -> None:
        self.next_id = next_id
        self.running: Dict[int, "Tracker"] = {}
        self.cancels: List[JSON] = []
        self.starts: List[JSON] = []

    def cancel(self, effect_id: int) -> None:
        del self.running[effect_id]
        self.cancels.append({"cancel": effect_id})

    def start(self, tracker: "Tracker", request: JSON) -> int:
        effect_id = self.next_id
        self.next_id += 1
        self.running[effect_id] = tracker
        self.starts.append({"start": {"id": effect_id, "feedback": tracker.name, "request": request}})
        return effect_id

    def drain(self) -> List[JSON]:
        commands = self.cancels + self.starts
        self.cancels, self.starts = [], []
        return commands


class Tracker:
    name: str

    def update(self, state: JSON, ledger: Ledger) -> None:
        raise NotImplementedError

    def completed(self, effect_id: int) -> None:
        raise NotImplementedError


class React(Tracker):
    """One effect at a time, keyed by its request (None: no effect)."""

    def __init__(self, name: str, query: Callable[[JSON], Optional[JSON]]) -> None:
        self.name = name
        self.query = query
        self.key: Optional[str] = None
        self.running_id: Optional[int] = None

    def update(self, state: JSON, ledger: Ledger) -> None:
        request = self.query(state)
        key = None if request is None else request_key(request)
        if key == self.key:
            return  # equal request: untouched, running or completed
        if self.running_id is not None:
            ledger.cancel(self.running_id)
            self.running_id = None
        self.key = key
        if request is not None:
            self.running_id = ledger.start(self, request)

    def completed(self, effect_id: int) -> None:
        if self.running_id == effect_id:
            self.running_id = None


class ReactSet(Tracker):
    """A set of effects keyed by request value, started in the query's order."""

    def __init__(self, name: str, query: Callable[[JSON], List[JSON]]) -> None:
        self.name = name
        self.query = query
        self.entries: List[Tuple[str, int]] = []  # (request key, effect id), query order
        self.running_ids: set = set()

    def update(self, state: JSON, ledger: Ledger) -> None:
        requests = self.query(state)
        keys = [request_key(request) for request in requests]
        wanted = set(keys)
        previous = dict(self.entries)
        for key, effect_id in self.entries:
            if key not in wanted and effect_id in self.running_ids:
                self.running_ids.discard(effect_id)
                ledger.cancel(effect_id)
        entries: List[Tuple[str, int]] = []
        seen: set = set()
        for key, request in zip(keys, requests):
            if key in seen:
                continue
            seen.add(key)
            if key in previous:
                entries.append((key, previous[key]))
            else:
                effect_id = ledger.start(self, request)
                self.running_ids.add(effect_id)
                entries.append((key, effect_id))
        self.entries = entries

    def completed(self, effect_id: int) -> None:
        self.running_ids.discard(effect_id)


# ---- features -----------------------------------------------------------------------


class FeatureModel:
    """A feature's name, first state, reducer and feedbacks, re-stated in Python."""

    name: str

    def initial_state(self) -> JSON:
        raise NotImplementedError

    def reduce(self, state: JSON, event: JSON) -> JSON:
        raise NotImplementedError

    def feedbacks(self) -> List[Tracker]:
        raise NotImplementedError

    def answers(self, command: JSON) -> List[JSON]:
        """Events an effect started by `command` would plausibly deliver."""
        raise NotImplementedError


def _case(event: JSON) -> Tuple[str, Dict[str, JSON]]:
    if isinstance(event, str):
        return event, {}
    (name, payload), = event.items()
    return name, payload


class Playcatch(FeatureModel):
    name = "playcatch"

    def initial_state(self) -> JSON:
        return {"ball": "human", "throwCount": 0}

    def reduce(self, state: JSON, event: JSON) -> JSON:
        case, _ = _case(event)
        state = dict(state)
        if case == "humanThrows" and state["ball"] == "human":
            state["ball"] = "machine"
            state["throwCount"] += 1
        elif case == "machineThrows" and state["ball"] == "machine":
            state["ball"] = "human"
            state["throwCount"] += 1
        return state

    def feedbacks(self) -> List[Tracker]:
        return [React("throwTimer", lambda s: {"seconds": 1} if s["ball"] == "machine" else None)]

    def answers(self, command: JSON) -> List[JSON]:
        return ["machineThrows", "humanThrows"]


class Downloads(FeatureModel):
    name = "downloads"

    def initial_state(self) -> JSON:
        return {"maxConcurrent": 3, "pending": [], "finished": [], "failed": []}

    def reduce(self, state: JSON, event: JSON) -> JSON:
        case, payload = _case(event)
        state = {key: list(value) if isinstance(value, list) else value for key, value in state.items()}
        pending = state["pending"]
        if case == "enqueue":
            if payload["url"] not in pending:
                pending.append(payload["url"])
        elif case == "cancel":
            if payload["url"] in pending:
                pending.remove(payload["url"])
        elif case == "finished":
            if payload["url"] in pending:
                pending.remove(payload["url"])
                state["finished"].append(payload["url"])
        elif case == "failed":
            if payload["url"] in pending:
                pending.remove(payload["url"])
                state["failed"].append({"url": payload["url"], "reason": payload["reason"]})
        elif case == "setMaxConcurrent":
            state["maxConcurrent"] = max(payload["value"], 1)
        return state

    def feedbacks(self) -> List[Tracker]:
        def active(state: JSON) -> List[JSON]:
            return [{"url": url} for url in state["pending"][: max(state["maxConcurrent"], 1)]]

        return [ReactSet("download", active)]

    def answers(self, command: JSON) -> List[JSON]:
        url = command["start"]["request"]["url"]
        return [{"finished": {"url": url}}, {"failed": {"url": url, "reason": "timeout"}}]


class Typeahead(FeatureModel):
    name = "typeahead"

    def initial_state(self) -> JSON:
        return {"text": "", "query": None, "results": [], "resultsQuery": None, "failure": None,
                "debounceMilliseconds": 300}

    def reduce(self, state: JSON, event: JSON) -> JSON:
        case, payload = _case(event)
        state = dict(state)
        if case == "textChanged":
            state["text"] = payload["text"]
            if payload["text"] == "":
                state.update(query=None, results=[], resultsQuery=None, failure=None)
        elif case == "debounceElapsed":
            text = payload["text"]
            if text == state["text"] and text != "" and text != state["query"]:
                state["query"] = text
                state["failure"] = None
        elif case == "resultsLoaded":
            if payload["query"] == state["query"]:
                state.update(results=payload["matches"], resultsQuery=payload["query"], failure=None)
        elif case == "searchFailed":
            if payload["query"] == state["query"]:
                state["failure"] = payload["message"]
        return state

    def feedbacks(self) -> List[Tracker]:
        def debounce(state: JSON) -> Optional[JSON]:
            if state["text"] == "" or state["text"] == state["query"]:
                return None
            return {"text": state["text"], "milliseconds": state["debounceMilliseconds"]}

        def search(state: JSON) -> Optional[JSON]:
            return None if state["query"] is None else {"query": state["query"]}

        return [React("debounce", debounce), React("search", search)]

    def answers(self, command: JSON) -> List[JSON]:
        start = command["start"]
        request = start["request"]
        if start["feedback"] == "debounce":
            return [{"debounceElapsed": {"text": request["text"]}}]
        query = request["query"]
        return [{"resultsLoaded": {"query": query, "matches": [{"id": "1", "title": query}]}},
                {"searchFailed": {"query": query, "message": "offline"}}]


FEATURES: Dict[str, FeatureModel] = {f.name: f for f in (Playcatch(), Downloads(), Typeahead())}


# ---- the loop -----------------------------------------------------------------------

#: A handler's reaction to one command: returns the inputs it sends, each
#: ("send", event), ("deliver", id, event) or ("complete", id).
Reaction = Callable[[JSON], List[Tuple]]


class ModelSystem:
    """The model of one system: state, trackers, ledger and the input queue."""

    def __init__(self, feature: FeatureModel, state: Optional[JSON] = None) -> None:
        self.feature = feature
        self.state = feature.initial_state() if state is None else state
        self.trackers = feature.feedbacks()
        self.ledger = Ledger()
        #: Ids that got a cancel command, and ids the host completed: for choosing targets.
        self.cancelled: List[int] = []
        self.completed: List[int] = []
        #: The request of every effect ever started, by id.
        self.requests: Dict[int, JSON] = {}
        self.feedback_names: Dict[int, str] = {}
        self.initial_commands = self._evaluate()
        self._note(self.initial_commands)

    def _evaluate(self) -> List[JSON]:
        for tracker in self.trackers:
            tracker.update(self.state, self.ledger)
        return self.ledger.drain()

    def _note(self, commands: List[JSON]) -> None:
        for command in commands:
            if "cancel" in command:
                self.cancelled.append(command["cancel"])
            else:
                self.requests[command["start"]["id"]] = command["start"]["request"]
                self.feedback_names[command["start"]["id"]] = command["start"]["feedback"]

    def is_running(self, effect_id: int) -> bool:
        return effect_id in self.ledger.running

    def running_effects(self) -> List[JSON]:
        """What corelogic_system_effects returns: running effects by increasing id."""
        out = []
        for tracker in self.trackers:
            if isinstance(tracker, React):
                if tracker.running_id is not None:
                    out.append((tracker.running_id, tracker))
            else:
                out.extend((effect_id, tracker) for _, effect_id in tracker.entries
                           if effect_id in tracker.running_ids)
        return [{"id": effect_id, "feedback": tracker.name, "request": self.requests[effect_id]}
                for effect_id, tracker in sorted(out, key=lambda pair: pair[0])]

    def _step(self, item: Tuple) -> List[JSON]:
        kind = item[0]
        if kind == "complete":
            tracker = self.ledger.running.pop(item[1])
            tracker.completed(item[1])
            self.completed.append(item[1])
        else:
            self.state = self.feature.reduce(self.state, item[-1])
        commands = self._evaluate()
        self._note(commands)
        return commands

    def call(self, item: Tuple, reaction: Optional[Reaction] = None) -> Tuple[Any, List[str]]:
        """One host call. Returns (STALE or the batch as the library writes it, the
        results of the calls the handler made: QUEUED or STALE each)."""
        inner: List[str] = []
        if item[0] != "send" and not self.is_running(item[1]):
            return STALE, inner
        queue: List[Tuple] = [item]
        commands: List[JSON] = []
        steps = 0
        while queue:
            current = queue.pop(0)
            if current[0] != "send" and not self.is_running(current[1]):
                continue  # stopped running while it waited in the queue: dropped
            produced = self._step(current)
            steps += 1
            for command in produced:
                commands.append(command)
                for sent in (reaction(command) if reaction else []):
                    if sent[0] != "send" and not self.is_running(sent[1]):
                        inner.append(STALE)
                    else:
                        inner.append(QUEUED)
                        queue.append(sent)
        return {"state": without_nulls(self.state), "effects": commands, "steps": steps}, inner
