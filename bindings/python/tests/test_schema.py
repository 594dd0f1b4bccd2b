"""The schemas of corelogic_feature_schema checked against the library by an
independent validator (the ``jsonschema`` package), both ways (docs/schemas.md).

- Everything the golden files send, expect and query, and every batch, state,
  running effect and query value the library produces while replaying them,
  validates against the feature's schema.
- Mutations of the golden events (wrong types, unknown cases, missing members,
  removed or null optionals): the library and the schema agree on each one; a
  mutation the library rejects with ERR_SCHEMA is rejected by the schema too.
- States and events generated at random from the schema are accepted by the
  library, and what it answers validates.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import jsonschema
import pytest

import corelogic
from conftest import REPOSITORY

GOLDEN = REPOSITORY / "Examples" / "Cookbook" / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))

_SCHEMAS: Dict[str, Dict[str, Any]] = {}


def schema_of(feature: str, library: corelogic.Library) -> Dict[str, Any]:
    if feature not in _SCHEMAS:
        _SCHEMAS[feature] = library.feature_schema(feature)
    return _SCHEMAS[feature]


def validator(feature: str, entry: str, library: corelogic.Library) -> jsonschema.Draft202012Validator:
    """A validator for ``$defs/<entry>`` of the feature's schema."""
    document = dict(schema_of(feature, library))
    document["$ref"] = "#/$defs/" + entry
    return jsonschema.Draft202012Validator(document, format_checker=None)


def errors(feature: str, entry: str, value: Any, library: corelogic.Library) -> List[str]:
    return [f"{list(error.absolute_path)}: {error.message}"
            for error in validator(feature, entry, library).iter_errors(value)]


def assert_valid(feature: str, entry: str, value: Any, library: corelogic.Library, where: str) -> None:
    found = errors(feature, entry, value, library)
    assert not found, f"{where}: {json.dumps(value)} is not a valid {entry}: {found[:3]}"


def feature_names(library: corelogic.Library) -> List[str]:
    return [feature["name"] for feature in library.features()]


# -- the schema documents themselves -----------------------------------------


def test_every_schema_is_a_valid_2020_12_schema_with_every_entry_point(library):
    for feature in library.features():
        schema = schema_of(feature["name"], library)
        jsonschema.Draft202012Validator.check_schema(schema)
        defs = schema["$defs"]
        expected = ["state", "event", "command", "runningEffect", "batch", "queries", "stateChange", "stateAtRevision"]
        expected += ["request." + feedback["name"] for feedback in feature["feedbacks"]]
        expected += ["query." + query for query in feature["queries"]]
        assert [name for name in expected if name not in defs] == [], feature["name"]


def test_every_reference_resolves(library):
    def references(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from references(value)
        elif isinstance(node, list):
            for value in node:
                yield from references(value)

    for name in feature_names(library):
        schema = schema_of(name, library)
        for reference in references(schema):
            assert reference.startswith("#/$defs/"), reference
            assert reference[len("#/$defs/"):] in schema["$defs"], f"{name}: {reference}"


def test_the_schema_is_the_same_bytes_every_time(library):
    out = [library.feature_schema("pharmacies") for _ in range(3)]
    assert json.dumps(out[0]) == json.dumps(out[1]) == json.dumps(out[2])


def test_unknown_feature_is_not_found_with_the_list(library):
    with pytest.raises(corelogic.NotFoundError) as raised:
        library.feature_schema("nope")
    assert "no feature named 'nope'" in raised.value.message
    assert "counter" in raised.value.message


def test_recursive_types_and_child_features_use_defs(library):
    defs = schema_of("pharmacies", library)["$defs"]
    phase = json.dumps(defs["Pharmacies.Phase"])
    assert '"from": {"$ref": "#/$defs/Pharmacies.Phase"}' in phase
    # the child feature's types and prefixed feedbacks
    assert defs["request.typeahead.search"] == {"$ref": "#/$defs/Typeahead.SearchRequest"}
    assert "Typeahead.Event" in defs


def test_integers_numbers_optionals_and_raw_value_enums(library):
    defs = schema_of("search", library)["$defs"]
    state = defs["Search.State"]
    assert state["properties"]["nextURL"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert "nextURL" not in state["required"]
    assert defs["Search.Repository"]["properties"]["id"]["type"] == "integer"
    assert defs["Search.Repository"]["properties"]["id"]["maximum"] == 2 ** 63 - 1
    player = schema_of("playcatch", library)["$defs"]["Playcatch.Player"]
    assert player["enum"] == ["human", "machine"]


# -- golden files: everything they hold and everything the library answers ----


def _golden_values(scenario: Dict[str, Any]) -> Iterator[Tuple[str, str, Any]]:
    """(where, $defs entry, value) for each value a golden file states."""
    if scenario.get("state") is not None:
        yield "state", "state", scenario["state"]
    initial = scenario.get("expectInitial", {})
    if "state" in initial:
        yield "expectInitial.state", "state", initial["state"]
    for index, command in enumerate(initial.get("effects", [])):
        yield f"expectInitial.effects[{index}]", "command", command
    for number, step in enumerate(scenario["steps"], start=1):
        expect = step["expect"]
        if expect["status"] != "ok":
            continue
        where = f"step {number}"
        if "send" in step:
            yield where + " event", "event", step["send"]
        if "deliver" in step and "event" in step["deliver"]:
            yield where + " event", "event", step["deliver"]["event"]
        if "query" in step and "value" in expect:
            yield where + " value", "query." + step["query"], expect["value"]
        if "state" in expect:
            yield where + " state", "state", expect["state"]
        for index, command in enumerate(expect.get("effects", [])):
            yield f"{where} effects[{index}]", "command", command


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(GOLDEN)) for path in FILES])
def test_golden_file_values_validate(path, library):
    """Every value the file states is valid; every event it expects the library to
    reject with ERR_SCHEMA is invalid."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    checked = 0
    for where, entry, value in _golden_values(scenario):
        assert_valid(scenario["feature"], entry, value, library, f"{path.name}: {where}")
        checked += 1
    for number, step in enumerate(scenario["steps"], start=1):
        if step["expect"]["status"] == "error:schema" and "send" in step:
            found = errors(scenario["feature"], "event", step["send"], library)
            assert found, f"{path.name}: step {number}: the schema accepts {json.dumps(step['send'])}"
            checked += 1
    CHECKED[path.name] = checked


CHECKED: Dict[str, int] = {}


def test_the_golden_files_gave_values_to_check():
    # Runs after the parametrized test above (pytest keeps file order): most files
    # state values; a few only probe errors (unknown query, stale effect).
    assert len(CHECKED) == len(FILES)
    assert sum(CHECKED.values()) > 300
    assert sum(1 for count in CHECKED.values() if count > 0) >= len(FILES) - 3


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(GOLDEN)) for path in FILES])
def test_what_the_library_produces_validates(path, library):
    """Replays the file and validates every batch, state, running effect and
    query value the library hands back."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    feature = scenario["feature"]
    queries = next(f["queries"] for f in library.features() if f["name"] == feature)
    with corelogic.System(feature, scenario.get("state"), library=library) as system:
        assert_valid(feature, "batch", system.initial_batch.to_dict(), library, "initial batch")

        def check_everything(where: str) -> None:
            assert_valid(feature, "state", system.state, library, where + " state")
            for effect in system.effects:
                assert_valid(feature, "runningEffect", effect, library, where + " running effect")
            for name in queries:
                assert_valid(feature, "query." + name, system.query(name), library, f"{where} query {name}")

        check_everything("initial")
        for number, step in enumerate(scenario["steps"], start=1):
            action = next(iter(step))
            try:
                if action == "send":
                    result: Any = system.send(step["send"])
                elif action == "deliver" and "event" in step["deliver"]:
                    result = system.deliver(step["deliver"]["effect"], step["deliver"]["event"])
                elif action == "complete":
                    result = system.complete(step["complete"]["effect"])
                else:
                    continue
            except corelogic.CorelogicError:
                continue
            if isinstance(result, corelogic.Batch):
                assert_valid(feature, "batch", result.to_dict(), library, f"step {number} batch")
            check_everything(f"step {number}")


# -- mutations: the library and the schema agree -----------------------------

_WRONG = {str: 5, int: "5", float: "5", bool: "true", dict: 5, list: {"a": 1}, type(None): 5}


def _mutations(event: Any, cases: List[str]) -> Iterator[Tuple[str, Any]]:
    """(description, mutated event): one change each, anywhere in the event;
    ``cases`` are the feature's event case names."""
    def walk(node: Any, path: List[Any]) -> Iterator[Tuple[List[Any], Any]]:
        yield path, node
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, path + [key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, path + [index])

    def replaced(path: List[Any], value: Any) -> Any:
        if not path:
            return value
        copied = copy.deepcopy(event)
        parent = copied
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value
        return copied

    def removed(path: List[Any]) -> Any:
        copied = copy.deepcopy(event)
        parent = copied
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        return copied

    for path, node in walk(event, []):
        where = "$" + "".join(f"[{key!r}]" for key in path)
        yield f"{where}: wrong type", replaced(path, _WRONG[type(node)])
        if path and isinstance(path[-1], str):
            yield f"{where}: missing", removed(path)
            yield f"{where}: null", replaced(path, None)
    if isinstance(event, dict) and len(event) == 1:
        (case, payload), = event.items()
        yield "unknown case", {case + "Unknown": payload}
        other = next(name for name in cases if name != case)
        yield "two cases", {case: payload, other: {}}
    if isinstance(event, str):
        yield "unknown bare case", event + "Unknown"


def _cases(feature: str, library: corelogic.Library) -> List[str]:
    return next(f["events"] for f in library.features() if f["name"] == feature)  # type: ignore[no-any-return]


def _accepted(feature: str, event: Any, library: corelogic.Library) -> Optional[str]:
    """None when the library accepts the event, else the status name."""
    with corelogic.System(feature, library=library) as system:
        try:
            system.send(event)
        except corelogic.CorelogicError as error:
            return error.status_name
    return None


def _golden_events() -> List[Tuple[str, Any]]:
    events: List[Tuple[str, Any]] = []
    seen = set()
    for path in FILES:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        for step in scenario["steps"]:
            if step["expect"]["status"] != "ok":
                continue
            event = step.get("send", step.get("deliver", {}).get("event"))
            if event is None:
                continue
            key = (scenario["feature"], json.dumps(event, sort_keys=True))
            if key not in seen:
                seen.add(key)
                events.append((scenario["feature"], event))
    return events


EVENTS = _golden_events()


@pytest.mark.parametrize("feature,event", EVENTS, ids=[f"{f}:{json.dumps(e)[:40]}" for f, e in EVENTS])
def test_mutated_events_library_and_schema_agree(feature, event, library):
    disagreements = []
    for description, mutated in _mutations(event, _cases(feature, library)):
        status = _accepted(feature, mutated, library)
        schema_errors = errors(feature, "event", mutated, library)
        if status == "CORELOGIC_ERR_SCHEMA" and not schema_errors:
            disagreements.append(f"{description}: the library rejects {json.dumps(mutated)}, the schema accepts it")
        if status is None and schema_errors:
            disagreements.append(f"{description}: the library accepts {json.dumps(mutated)}, the schema rejects it: {schema_errors[:2]}")
        assert status in (None, "CORELOGIC_ERR_SCHEMA"), f"{description}: {status}"
    assert not disagreements, "\n".join(disagreements)


def test_the_mutations_reach_both_outcomes(library):
    # The agreement test proves something only if mutations are both accepted and
    # rejected; count them over every golden event.
    outcomes = {"accepted": 0, "rejected": 0}
    for feature, event in EVENTS:
        for _, mutated in _mutations(event, _cases(feature, library)):
            outcomes["accepted" if _accepted(feature, mutated, library) is None else "rejected"] += 1
    assert outcomes["rejected"] > 100
    assert outcomes["accepted"] > 5


def test_deliberate_difference_unknown_members(library):
    # docs/schemas.md: the decoder ignores members it does not know; the schema is
    # closed, so a typo in a host's member name is caught before sending.
    event = {"queryChanged": {"text": "swift", "extra": 1}}
    assert _accepted("search", event, library) is None
    assert errors("search", "event", event, library)


def test_numbers_beyond_a_double_are_refused_by_both(library):
    # docs/schemas.md: a number beyond a double's range is CORELOGIC_ERR_JSON; the
    # schema says so with the largest finite double as every number's bound.
    def event(seconds: Any) -> Dict[str, Any]:
        return {"loadFailed": {"error": {"rateLimited": {"retryAfter": seconds}}}}

    largest = 1.7976931348623157e308
    for seconds in (largest, -largest):
        assert _accepted("search", event(seconds), library) is None
        assert not errors("search", "event", event(seconds), library)
    for text in ("1e400", "-1e400"):
        raw = json.dumps(event(0)).replace("0}", text + "}").encode()
        assert _accepted("search", raw, library) == "CORELOGIC_ERR_JSON"
        # Python reads such a number as an infinity: outside the schema too.
        assert errors("search", "event", json.loads(raw), library)


def test_deliberate_difference_lone_surrogates(library):
    # docs/schemas.md: a string is a sequence of Unicode scalar values; JSON's escape of
    # half a surrogate pair alone is CORELOGIC_ERR_JSON though JSON Schema allows it.
    raw = b'{"queryChanged":{"text":"\\ud800"}}'
    assert _accepted("search", raw, library) == "CORELOGIC_ERR_JSON"
    assert not errors("search", "event", json.loads(raw), library)
    assert _accepted("search", b'{"queryChanged":{"text":"\\ud83d\\ude00"}}', library) is None


def test_a_batch_that_dropped_a_queued_input_validates(library, tmp_path):
    # include/corelogic.h: an input a handler queued whose journal record cannot be
    # written is dropped and listed in the outer call's batch under "dropped". Here the
    # handler removes the journal's directory before it queues the input.
    import shutil

    directory = tmp_path / "journal"
    with corelogic.System("counter", library=library) as system:
        system.open_journal(directory)
        queued: List[Any] = []

        def remove_then_queue(state: Any) -> None:
            if not queued:
                shutil.rmtree(directory)
                queued.append(system.send("increment"))

        system.on_state(remove_then_queue)
        batch = system.send("increment").to_dict()
    [dropped] = batch["dropped"]
    assert dropped["input"] == {"send": {"increment": {}}}
    assert dropped["status"] == "CORELOGIC_ERR_IO"
    assert_valid("counter", "batch", batch, library, "a full batch with dropped inputs")
    patched = {"revision": 2, "base": 1, "patch": [], "effects": [], "steps": 1, "dropped": [dropped]}
    assert_valid("counter", "batch", patched, library, "a patch batch with dropped inputs")
    for wrong in ([], [dict(dropped, status="CORELOGIC_OK")], [dict(dropped, input={"send": {"nope": {}}})]):
        assert errors("counter", "batch", dict(batch, dropped=wrong), library), wrong


# -- patch output mode and watched queries (corelogic_system_set_output) ---------


def _call(library: corelogic.Library, name: str, *args: Any) -> Tuple[int, Any]:
    """Calls a C function by name with a trailing char** out-parameter."""
    import ctypes

    function = getattr(library._dll, name)
    out = ctypes.c_void_p()
    status = function(*args, ctypes.byref(out))
    text = library.take(out.value)
    return status, (json.loads(text) if text else None)


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(GOLDEN)) for path in FILES])
def test_patch_mode_batches_and_watched_queries_validate(path, library):
    import ctypes

    scenario = json.loads(path.read_text(encoding="utf-8"))
    feature = scenario["feature"]
    queries = next(f["queries"] for f in library.features() if f["name"] == feature)
    dll = library._dll
    dll.corelogic_system_send.argtypes = [ctypes.c_uint64, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    dll.corelogic_system_deliver.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_char_p,
                                             ctypes.POINTER(ctypes.c_void_p)]
    dll.corelogic_system_set_output.argtypes = [ctypes.c_uint64, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
    dll.corelogic_system_resync.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_void_p)]
    dll.corelogic_system_watch_queries.argtypes = [ctypes.c_uint64, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    with corelogic.System(feature, scenario.get("state"), library=library) as system:
        handle = system._handle
        status, watched = _call(library, "corelogic_system_watch_queries", handle, json.dumps(queries).encode())
        assert status == 0
        assert_valid(feature, "queries", watched, library, "watched queries")
        for mode in (0, 1):
            status, baseline = _call(library, "corelogic_system_set_output", handle, mode)
            assert status == 0
            assert_valid(feature, "stateAtRevision", baseline, library, "set_output")
            for number, step in enumerate(scenario["steps"], start=1):
                if "send" in step and step["expect"]["status"] == "ok":
                    status, batch = _call(library, "corelogic_system_send", handle, json.dumps(step["send"]).encode())
                elif "deliver" in step and "event" in step["deliver"] and step["expect"]["status"] == "ok":
                    status, batch = _call(library, "corelogic_system_deliver", handle, step["deliver"]["effect"],
                                          json.dumps(step["deliver"]["event"]).encode())
                else:
                    continue
                if status == 0:
                    # Patch mode: a patch, or a state of at most 64 bytes sent whole.
                    assert ("revision" in batch) == (mode == 1)
                    assert ("patch" in batch) != ("state" in batch)
                    assert_valid(feature, "batch", batch, library, f"mode {mode} step {number} batch")
            status, resynced = _call(library, "corelogic_system_resync", handle)
            assert status == 0
            assert_valid(feature, "stateAtRevision", resynced, library, "resync")


# -- generated from the schema: what the schema allows, the library accepts ------


class _Instances:
    """Random instances of a schema node (seeded, so every run is the same)."""

    def __init__(self, document: Dict[str, Any], seed: int) -> None:
        import random

        self.defs = document["$defs"]
        self.random = random.Random(seed)

    def _recursive(self, node: Any, seen: Tuple[str, ...] = ()) -> bool:
        """Whether ``node`` can reach a definition already being built."""
        if isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"][len("#/$defs/"):]
                return name in seen or self._recursive(self.defs[name], seen + (name,))
            return any(self._recursive(value, seen) for value in node.values())
        if isinstance(node, list):
            return any(self._recursive(value, seen) for value in node)
        return False

    def make(self, node: Any, depth: int = 0, building: Tuple[str, ...] = ()) -> Any:
        pick = self.random
        if node is True or node == {}:
            return pick.choice([1, "x", None, [], {}])
        if "$ref" in node:
            name = node["$ref"][len("#/$defs/"):]
            return self.make(self.defs[name], depth + 1, building + (name,))
        for combinator in ("oneOf", "anyOf"):
            if combinator in node:
                options = node[combinator]
                if depth > 6:  # deep enough: prefer branches that do not recurse
                    shallow = [option for option in options if not self._recursive(option, building)]
                    options = shallow or options
                return self.make(pick.choice(options), depth + 1, building)
        if "enum" in node:
            return pick.choice(node["enum"])
        if "const" in node:
            return node["const"]
        kind = node.get("type")
        if kind == "null":
            return None
        if kind == "boolean":
            return pick.random() < 0.5
        if kind == "integer":
            low, high = max(node.get("minimum", -10 ** 6), -10 ** 6), min(node.get("maximum", 10 ** 6), 10 ** 6)
            return pick.choice([low, high, 0, pick.randint(low, high)])
        if kind == "number":
            return pick.choice([0.5, -3.25, 1e10, 0])
        if kind == "string":
            return pick.choice(["", "swift", "ü→😀", "a\"b\\c", "x" * 40])
        if kind == "array":
            count = 0 if depth > 6 else pick.randint(0, 3)
            return [self.make(node["items"], depth + 1, building) for _ in range(count)]
        if kind == "object":
            result = {}
            required = node.get("required", [])
            for name, member in node.get("properties", {}).items():
                if name in required or pick.random() < 0.5:
                    result[name] = self.make(member, depth + 1, building)
            extra = node.get("additionalProperties")
            if isinstance(extra, dict) and "properties" not in node:
                for key in pick.sample(["a", "b", "c"], pick.randint(0, 2)):
                    result[key] = self.make(extra, depth + 1, building)
            return result
        raise AssertionError(f"no instance for {node}")


@pytest.mark.parametrize("feature", ["counter", "search", "downloads", "playcatch", "pharmacies", "list",
                                     "profile", "share", "typeahead", "signup"])
def test_schema_valid_events_and_states_are_accepted_by_the_library(feature, library):
    document = schema_of(feature, library)
    instances = _Instances(document, seed=11)
    event_validator, state_validator = validator(feature, "event", library), validator(feature, "state", library)
    for _ in range(40):
        state = instances.make(document["$defs"]["state"])
        state_validator.validate(state)
        with corelogic.System(feature, state, library=library) as system:
            for _ in range(5):
                event = instances.make(document["$defs"]["event"])
                event_validator.validate(event)
                batch = system.send(event)  # raises if the library rejects it
                assert_valid(feature, "batch", batch.to_dict(), library, f"after {json.dumps(event)}")
