"""Patch output: the state mirror kept from RFC 6902 patches, watched queries.

The rules proved here:
- our patch application agrees with an independent RFC 6902 implementation
  (``jsonpatch`` from PyPI) on random documents and patches, and on every patch
  the library emits;
- random event sequences give, step by step, the same states and effects in
  patch mode as in full mode (several features, thousands of inputs);
- a gap in the revisions is repaired by a resync; the state handler receives
  whole states from the mirror;
- watched queries: a batch carries exactly the watched queries whose value
  changed;
- bad input (unknown mode, unknown query names, a closed system) raises a clear
  error and changes nothing.
"""

from __future__ import annotations

import copy
import ctypes
import json
import random
from typing import Any, Callable, Dict, List, Optional

import jsonpatch
import pytest

import corelogic
from corelogic._patch import PatchError, apply_patch, parse_pointer
from helpers import page

# -- the applier alone, against jsonpatch -----------------------------------------


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randrange(-5, 100)
    if kind == 3:
        return rng.choice(["", "a", "x/y", "m~n", "é", "~1"])
    if kind == 4:
        return rng.random() * 10
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["a", "b", "", "a/b", "m~n", "~0", "items", "0"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def containers(document: Any, pointer: str = "") -> List[tuple]:
    """Every (pointer, container) in the document."""
    found = []
    if isinstance(document, (dict, list)):
        found.append((pointer, document))
        members = document.items() if isinstance(document, dict) else enumerate(document)
        for key, value in members:
            found.extend(containers(value, f"{pointer}/{escape(str(key))}"))
    return found


def random_operation(rng: random.Random, document: Any) -> Dict[str, Any]:
    places = containers(document)
    if not places or rng.random() < 0.05:
        return {"op": "replace", "path": "", "value": random_value(rng)}
    pointer, container = rng.choice(places)
    members = list(container.keys()) if isinstance(container, dict) else list(range(len(container)))
    op = rng.choice(["add", "add", "remove", "replace"])
    if op != "add" and not members:
        op = "add"
    if op == "add":
        if isinstance(container, dict):
            key = rng.choice(members + ["new", "a/b", "m~n", ""]) if members else "new"
        else:
            key = rng.choice(["-", str(rng.randrange(len(container) + 1))])
        return {"op": "add", "path": f"{pointer}/{escape(str(key))}", "value": random_value(rng)}
    key = rng.choice(members)
    operation = {"op": op, "path": f"{pointer}/{escape(str(key))}"}
    if op == "replace":
        operation["value"] = random_value(rng)
    return operation


def test_apply_patch_agrees_with_jsonpatch_on_random_patches():
    rng = random.Random(6902)
    for _ in range(3000):
        document = {"items": random_value(rng), "count": 1}
        patch = []
        expected = copy.deepcopy(document)
        for _ in range(rng.randrange(1, 6)):
            operation = random_operation(rng, expected)
            patch.append(operation)
            expected = jsonpatch.apply_patch(expected, [operation])
        ours = apply_patch(copy.deepcopy(document), copy.deepcopy(patch))
        assert ours == expected, (document, patch)
        assert json.dumps(ours, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_pointers_unescape_as_rfc_6901_says():
    assert parse_pointer("") == []
    assert parse_pointer("/") == [""]
    assert parse_pointer("/a~1b/m~0n/~01") == ["a/b", "m~n", "~1"]
    with pytest.raises(PatchError, match="must be empty or start with '/'"):
        parse_pointer("a")
    with pytest.raises(PatchError, match="'~' must be followed by '0' or '1'"):
        parse_pointer("/a~2")


@pytest.mark.parametrize(
    "patch, message",
    [
        ([{"op": "remove", "path": "/missing"}], "no member 'missing' to remove"),
        ([{"op": "replace", "path": "/items/5", "value": 1}], "index 5 is out of range"),
        ([{"op": "remove", "path": "/items/-"}], "'-' is not an array index"),
        ([{"op": "add", "path": "/items/01", "value": 1}], "'01' is not an array index"),
        ([{"op": "add", "path": "/count/x", "value": 1}], "neither an object nor an array"),
        ([{"op": "add", "path": "/x"}], '"value" is missing'),
        ([{"op": "move", "from": "/a", "path": "/b"}], "unsupported op 'move'"),
        ([{"op": "remove", "path": ""}], "cannot remove the whole document"),
        ({"op": "remove", "path": "/count"}, "a patch is a list"),
    ],
)
def test_patches_that_do_not_apply_are_refused(patch, message):
    with pytest.raises(PatchError, match=message):
        apply_patch({"items": [1, 2], "count": 3}, patch)
    # jsonpatch refuses them too (except our unsupported op, which it knows).
    if isinstance(patch, list) and patch[0]["op"] != "move":
        with pytest.raises((jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, KeyError, TypeError)):
            jsonpatch.apply_patch({"items": [1, 2], "count": 3}, patch)


def test_an_append_does_not_copy_the_list():
    items = [{"id": i} for i in range(1000)]
    document = {"items": items}
    result = apply_patch(document, [{"op": "add", "path": "/items/-", "value": {"id": 1000}}])
    assert result is document and result["items"] is items and len(items) == 1001


# -- random event sequences: patch mode against full mode --------------------------


def _texts(rng: random.Random) -> str:
    return rng.choice(["", "s", "sw", "swift", "rust", "a/b~c", "é"])


def _search_event(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return {"queryChanged": {"text": _texts(rng)}}
    if kind == 1:
        return "reachedBottom"
    if kind == 2:
        names = [f"repo{rng.randrange(50)}" for _ in range(rng.randrange(4))]
        return page(names, rng.choice([None, "/next?page=2", "/next?page=3"]), first_id=rng.randrange(1000))
    if kind == 3:
        return {"loadFailed": {"error": rng.choice(["offline", {"rateLimited": {"retryAfter": 2.5}}])}}
    return "retry"


def _downloads_event(rng: random.Random) -> Any:
    url = rng.choice(["https://a/1", "https://a/2", "https://b/3", "file:///x y", "https://c/4"])
    kind = rng.randrange(5)
    if kind == 0:
        return {"enqueue": {"url": url}}
    if kind == 1:
        return {"cancel": {"url": url}}
    if kind == 2:
        return {"finished": {"url": url}}
    if kind == 3:
        return {"failed": {"url": url, "reason": rng.choice(["404", "timeout"])}}
    return {"setMaxConcurrent": {"value": rng.randrange(1, 4)}}


def _list_item(rng: random.Random) -> Dict[str, str]:
    number = rng.randrange(8)
    return {"id": f"id{number}", "title": rng.choice(["one", "two", "three/3", "~"])}


def _list_event(rng: random.Random) -> Any:
    kind = rng.randrange(7)
    if kind == 0:
        return {"initialLoaded": {"items": [_list_item(rng) for _ in range(rng.randrange(5))]}}
    if kind == 1:
        return {"initialFailed": {"message": "down"}}
    if kind == 2:
        return "retry"
    if kind == 3:
        add: Dict[str, Any] = {"item": _list_item(rng)}
        if rng.random() < 0.5:
            add["index"] = rng.randrange(6)
        return {"add": add}
    if kind == 4:
        return {"remove": {"id": f"id{rng.randrange(8)}"}}
    return {"move": {"id": f"id{rng.randrange(8)}", "index": rng.randrange(6)}}


def _typeahead_event(rng: random.Random) -> Any:
    text = rng.choice(["", "p", "ph", "pha", "pharm"])
    kind = rng.randrange(4)
    if kind == 0:
        return {"textChanged": {"text": text}}
    if kind == 1:
        return {"debounceElapsed": {"text": text}}
    if kind == 2:
        matches = [{"id": f"m{i}", "title": f"{text} {i}"} for i in range(rng.randrange(4))]
        return {"resultsLoaded": {"query": text, "matches": matches}}
    return {"searchFailed": {"query": text, "message": "offline"}}


EVENTS: Dict[str, Callable[[random.Random], Any]] = {
    "counter": lambda rng: rng.choice(["increment", "decrement"]),
    "search": _search_event,
    "downloads": _downloads_event,
    "list": _list_event,
    "typeahead": _typeahead_event,
}


def _queries(library: corelogic.Library, feature: str) -> List[str]:
    return next(f["queries"] for f in corelogic.features(library) if f["name"] == feature)


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except corelogic.CorelogicError as error:
        return error


@pytest.mark.parametrize("feature", sorted(EVENTS))
def test_random_sequences_give_the_same_states_in_patch_mode(feature, library):
    """1,000 random inputs per feature, side by side in a full-mode and a
    patch-mode system; every patch is also applied by jsonpatch."""
    rng = random.Random(f"patch-{feature}")
    names = _queries(library, feature)
    with corelogic.System(feature, library=library) as full, \
            corelogic.System(feature, library=library, output="patch") as patched:
        watched = patched.watch(*names)
        assert watched == {name: full.query(name) for name in names}
        known = dict(watched)
        previous = copy.deepcopy(patched.resync())
        revision = patched.revision
        for number in range(1000):
            running = [effect["id"] for effect in full.effects]
            choice = rng.random()
            if running and choice < 0.25:
                effect, event = rng.choice(running), EVENTS[feature](rng)
                a = _outcome(lambda: full.deliver(effect, event))
                b = _outcome(lambda: patched.deliver(effect, event))
            elif running and choice < 0.35:
                effect = rng.choice(running)
                a = _outcome(lambda: full.complete(effect))
                b = _outcome(lambda: patched.complete(effect))
            else:
                event = EVENTS[feature](rng)
                a = _outcome(lambda: full.send(event))
                b = _outcome(lambda: patched.send(event))
            where = f"{feature} input {number}"
            if not isinstance(a, corelogic.Batch):
                assert type(a) is type(b), where
                assert patched.state == full.state, where
                continue
            assert isinstance(b, corelogic.Batch), where
            assert b.state == a.state, where
            assert b.effects == a.effects and b.steps == a.steps, where
            assert b.revision == revision + b.steps, where
            revision = b.revision
            if b.patch is not None:
                assert jsonpatch.apply_patch(previous, b.patch) == b.state, (where, b.patch)
            previous = copy.deepcopy(b.state)
            current = {name: full.query(name) for name in names}
            changed = {name: value for name, value in current.items() if value != known[name]}
            assert b.queries == changed, where
            known = current
        assert patched.state == full.state == patched.resync()


# -- the mirror: handler, gaps, lifetime --------------------------------------------


def test_set_output_starts_a_baseline_and_full_mode_keeps_its_batches(search):
    assert search.output == "full" and search.revision is None
    search.send({"queryChanged": {"text": "swift"}})
    search.set_output("patch")
    assert search.output == "patch" and search.revision == 1
    batch = search.send("reachedBottom")
    assert batch.revision == 2 and batch.patch is not None
    assert batch.state == search.state
    search.set_output("full")
    batch = search.send({"loadFailed": {"error": "offline"}})
    assert batch.patch is None and batch.revision is None and search.revision is None
    assert batch.state == search.state and batch.state["lastError"] == {"offline": {}}


# A search state of more than 64 bytes of JSON, which patch mode sends as patches.
LARGER_SEARCH = {"query": "swift", "items": [], "nextURL": "/search/repositories?q=swift", "shouldLoadNextPage": False}


def test_a_batch_state_is_the_live_mirror(library):
    with corelogic.System("search", LARGER_SEARCH, library=library, output="patch") as search:
        first = search.send("reachedBottom")
        second = search.send({"loadFailed": {"error": "offline"}})
        assert first.patch is not None and second.patch is not None
        assert first.state is second.state and second.state["lastError"] == {"offline": {}}
        kept = copy.deepcopy(second.state)
        search.send("retry")
        assert kept["lastError"] == {"offline": {}} and "lastError" not in search.state


def test_a_small_state_is_sent_whole_and_becomes_the_mirror(library):
    with corelogic.System("counter", library=library, output="patch") as counter:
        first = counter.send("increment")
        second = counter.send("increment")
        assert first.patch is None and second.patch is None
        assert (first.revision, first.state) == (1, {"count": 1})
        assert (second.revision, second.state) == (2, {"count": 2}) and counter.revision == 2
    with corelogic.System("search", library=library, output="patch") as search:
        grown = search.send({"queryChanged": {"text": "swift"}})
        assert grown.patch is None and grown.state == search.state, "the state that outgrows 64 bytes comes whole"
        after = search.send({"queryChanged": {"text": "swifter"}})
        assert after.patch is not None and after.state == search.state


def test_a_missed_patch_is_repaired_by_a_resync(library):
    with corelogic.System("search", library=library, output="patch") as search:
        resyncs = []
        real = search.resync
        search.resync = lambda: resyncs.append(1) or real()  # type: ignore[method-assign]
        search.send({"queryChanged": {"text": "swift"}})
        assert resyncs == []
        # A step without a batch, then a resync behind the binding's back: a
        # new baseline the mirror does not know, so the next patch does not
        # continue from the mirror.
        assert library.corelogic_system_send(search._handle, b'"reachedBottom"', None) == 0
        out = ctypes.c_void_p()
        assert library.corelogic_system_resync(search._handle, ctypes.byref(out)) == 0
        library.take(out.value)
        effect = search.effects[0]["id"]
        batch = search.deliver(effect, page(["apple/swift", "vapor/vapor"]))
        assert resyncs == [1]
        assert batch.state == search.state and len(batch.state["items"]) == 2
        search.send("reachedBottom")
        assert resyncs == [1]


def test_calls_without_a_batch_are_spanned_by_the_next_patch(library):
    with corelogic.System("search", LARGER_SEARCH, library=library, output="patch") as search:
        send = library.corelogic_system_send
        assert send(search._handle, b'{"queryChanged":{"text":"swiftui"}}', None) == 0
        assert send(search._handle, b'{"loadFailed":{"error":"offline"}}', None) == 0
        batch = search.send({"queryChanged": {"text": "swift"}})
        assert batch.patch is not None and batch.revision == 3
        assert batch.state == search.state and batch.state["query"] == "swift" and "lastError" not in batch.state


def test_the_state_handler_receives_whole_states_from_the_mirror(library):
    with corelogic.System("search", library=library, output="patch") as search:
        seen: List[Any] = []
        search.on_state(lambda state: seen.append(copy.deepcopy(state)))
        batch = search.send({"queryChanged": {"text": "swift"}})
        effect = batch.started[0]["id"]
        search.deliver(effect, page(["apple/swift"], "/next"))
        full = [s for s in seen]
        assert [s["query"] for s in full] == ["swift", "swift"]
        assert full[-1] == search.state and full[-1]["items"][0]["name"] == "apple/swift"
        search.on_state(None)


def test_a_handler_that_answers_at_once_keeps_the_mirror_right(library):
    # The command handler delivers the page from inside the step: the outer
    # batch spans both steps and the inner call's batch has no steps.
    with corelogic.System("search", library=library, output="patch") as search:
        inner: List[Any] = []

        def answer(command: Dict[str, Any]) -> None:
            if "start" in command:
                inner.append(search.deliver(command["start"]["id"], page(["a/b", "c/d"])))

        search.on_command(answer)
        batch = search.send({"queryChanged": {"text": "swift"}})
        assert batch.steps == 2 and inner[0].steps == 0
        assert batch.state == search.state and len(search.state["items"]) == 2
        search.on_command(None)


# -- watched queries ----------------------------------------------------------------


def test_watch_returns_the_values_and_batches_carry_only_changes(library):
    with corelogic.System("search", library=library) as search:
        assert search.watch("isLoadingNextPage", "canLoadMore") == {"isLoadingNextPage": False, "canLoadMore": False}
        assert search.send("reachedBottom").queries == {}
        batch = search.send({"queryChanged": {"text": "swift"}})
        assert batch.queries == {"isLoadingNextPage": True}
        assert search.send({"queryChanged": {"text": "swifter"}}).queries == {}
        assert search.watch() == {}
        assert search.send({"queryChanged": {"text": ""}}).queries == {}


# -- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["diff", "PATCH", "", None, 1])
def test_an_unknown_output_mode_is_refused_and_changes_nothing(counter, mode):
    with pytest.raises(corelogic.ArgumentError, match="unknown output mode"):
        counter.set_output(mode)
    assert counter.output == "full"
    batch = counter.send("increment")
    assert batch.state == {"count": 1} and batch.patch is None
    counter.set_output("patch")
    with pytest.raises(corelogic.ArgumentError):
        counter.set_output(mode)
    batch = counter.send("increment")
    assert counter.output == "patch" and batch.state == {"count": 2} and batch.revision == 2


def test_an_unknown_output_mode_creates_no_system(library):
    with pytest.raises(corelogic.ArgumentError, match="the modes are 'full', 'patch'"):
        corelogic.System("counter", library=library, output="delta")


def test_unknown_query_names_are_refused_and_the_watch_stays(search):
    search.watch("isLoadingNextPage")
    with pytest.raises(corelogic.NotFoundError, match="nope"):
        search.watch("canLoadMore", "nope")
    with pytest.raises(corelogic.ArgumentError):
        search.watch(3)  # type: ignore[arg-type]
    assert search.send({"queryChanged": {"text": "swift"}}).queries == {"isLoadingNextPage": True}


def test_a_closed_system_refuses_the_output_calls(library):
    system = corelogic.System("counter", library=library, output="patch")
    system.close()
    for call in (lambda: system.set_output("full"), system.resync, lambda: system.watch("isZero")):
        with pytest.raises(corelogic.HandleError):
            call()


def test_threads_sharing_a_patch_mode_system_keep_one_right_mirror(library):
    import threading

    with corelogic.System("search", LARGER_SEARCH, library=library, output="patch") as search:
        def work(name: str) -> None:
            for number in range(300):
                search.send({"queryChanged": {"text": f"{name}{number}"}})

        threads = [threading.Thread(target=work, args=(name,)) for name in "abc"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # Every batch's patch or state landed on the one mirror in revision order.
        assert search.revision == 900 and search._mirror == search.state
        assert search.send({"queryChanged": {"text": "z"}}).state == search.state


def test_a_patch_that_does_not_apply_resyncs_the_mirror(library, caplog):
    # The mirror is read-only; one modified anyway so that the next patch no longer
    # applies is made the library's state again, in place (earlier batches hold it),
    # and the error logged.
    with corelogic.System("search", LARGER_SEARCH, library=library, output="patch") as search:
        held = search.send({"loadFailed": {"error": "offline"}}).state
        held["query"] = "written by the host"
        del held["lastError"]
        batch = search.send("retry")
        assert "did not apply" in caplog.text
        assert batch.state == search.state and batch.state["query"] == "swift" and "lastError" not in batch.state
        assert held is batch.state, "the mirror the earlier batch holds is repaired, not left part applied"
        assert search.send("reachedBottom").patch is not None


def test_an_older_whole_state_does_not_move_the_mirror_back(library):
    with corelogic.System("counter", library=library, output="patch") as counter:
        counter.send("increment")
        counter.send("increment")
        assert counter._advance({"revision": 1, "state": {"count": 1}, "effects": [], "steps": 1}) == {"count": 2}
        assert counter.revision == 2 and counter.state == {"count": 2}
