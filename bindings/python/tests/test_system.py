"""System: inputs, batches, stale results, queries, lifetime."""

from __future__ import annotations

import errno
import gc
import os
import weakref

import pytest

import corelogic
from helpers import page


# -- batches ------------------------------------------------------------------


def test_creation_batch_holds_the_initial_state(counter):
    batch = counter.initial_batch
    assert isinstance(batch, corelogic.Batch)
    assert (batch.state, batch.effects, batch.steps) == ({"count": 0}, [], 0)


def test_send_returns_a_parsed_batch(counter):
    batch = counter.send("increment")
    assert batch.state == {"count": 1}
    assert batch.effects == []
    assert batch.steps == 1
    assert batch.stale is False
    assert batch.to_dict() == {"state": {"count": 1}, "effects": [], "steps": 1}


@pytest.mark.parametrize("event", ["increment", {"increment": {}}, b'"increment"', b'{"increment":{}}'])
def test_events_may_be_names_objects_or_json_bytes(counter, event):
    assert counter.send(event).state == {"count": 1}


def test_state_and_queries_follow_the_events(counter):
    assert counter.query("isZero") is True
    counter.send("increment")
    counter.send("increment")
    counter.send("decrement")
    assert counter.state == {"count": 1}
    assert counter.query("isZero") is False


def test_initial_state_may_be_given_as_dict_or_bytes(library):
    with corelogic.System("counter", {"count": 41}, library=library) as system:
        assert system.send("increment").state == {"count": 42}
    with corelogic.System("counter", b'{"count":-3}', library=library) as system:
        assert system.state == {"count": -3}


def test_a_start_command_names_its_effect(search):
    batch = search.send({"queryChanged": {"text": "swift"}})
    assert batch.effects == [
        {"start": {"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=swift"}}}
    ]
    assert batch.started == [{"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=swift"}}]
    assert search.effects == [{"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=swift"}}]
    assert search.query("isLoadingNextPage") is True


def test_text_round_trips_as_utf8(search):
    batch = search.send({"queryChanged": {"text": "café ☕"}})
    assert batch.state["query"] == "café ☕"
    assert batch.state["nextURL"] == "/search/repositories?q=caf%C3%A9%20%E2%98%95"


# -- stale ----------------------------------------------------------------------


def test_deliver_to_a_running_effect_returns_a_batch(search):
    search.send({"queryChanged": {"text": "swift"}})
    batch = search.deliver(1, page(["apple/swift"], "http://api/next"))
    assert isinstance(batch, corelogic.Batch)
    assert [item["name"] for item in batch.state["items"]] == ["apple/swift"]
    assert batch.cancelled == [1]


def test_deliver_to_a_cancelled_effect_is_stale_and_changes_nothing(search):
    search.send({"queryChanged": {"text": "swi"}})
    batch = search.send({"queryChanged": {"text": "swift"}})
    assert batch.effects[0] == {"cancel": 1}
    before = search.state
    result = search.deliver(1, page(["late/answer"]))
    assert result is corelogic.STALE
    assert result.stale and not result
    assert search.state == before


def test_deliver_and_complete_for_unknown_effects_are_stale(search):
    assert search.deliver(99, "retry") is corelogic.STALE
    assert search.complete(99) is corelogic.STALE


def test_complete_ends_an_effect_and_a_second_complete_is_stale(search):
    search.send({"queryChanged": {"text": "swift"}})
    assert isinstance(search.complete(1), corelogic.Batch)
    assert search.effects == []
    assert search.complete(1) is corelogic.STALE
    assert search.deliver(1, page(["late/answer"])) is corelogic.STALE


def test_stale_is_a_single_readable_constant():
    assert corelogic.Stale() is corelogic.STALE
    assert repr(corelogic.STALE) == "corelogic.STALE"
    assert bool(corelogic.STALE) is False


# -- errors ---------------------------------------------------------------------


def test_invalid_json_raises_json_error_with_the_library_message(counter):
    with pytest.raises(corelogic.JSONError) as caught:
        counter.send(b'{"increment":')
    error = caught.value
    assert error.status == -1
    assert error.message and error.message == counter.library.last_error()
    assert "CORELOGIC_ERR_JSON" in str(error)
    assert isinstance(error, corelogic.CorelogicError) and isinstance(error, ValueError)


def test_an_unknown_case_raises_schema_error_naming_the_valid_cases(counter):
    with pytest.raises(corelogic.SchemaError) as caught:
        counter.send({"explode": {}})
    assert caught.value.status == -2
    assert "increment" in caught.value.message and "decrement" in caught.value.message


@pytest.mark.parametrize("text", ['{"queryChanged": {"text": "swift"}}', ' {"queryChanged":{"text":"swift"}}'])
def test_a_json_string_event_gets_an_error_showing_both_expected_forms(search, text):
    with pytest.raises(corelogic.ArgumentError) as caught:
        search.send(text)
    message = str(caught.value)
    assert "an event object or a case name was expected" in message
    assert "{'queryChanged': {'text': 'swift'}}" in message  # the object to pass instead
    assert "a case name such as 'increment'" in message
    assert "unknown case" not in message
    with pytest.raises(corelogic.ArgumentError, match="an event object or a case name was expected"):
        search.deliver(1, '"reachedBottom"')
    assert search.send(text.encode()).state["query"] == "swift"  # the same text as bytes is accepted


def test_schema_errors_name_the_json_path(search):
    with pytest.raises(corelogic.SchemaError, match=r"\$\.queryChanged\.text"):
        search.send({"queryChanged": {"text": 5}})


def test_a_state_of_the_wrong_shape_raises_schema_error(library):
    with pytest.raises(corelogic.SchemaError):
        corelogic.System("counter", {"count": "many"}, library=library)


def test_an_unknown_feature_raises_not_found(library):
    with pytest.raises(corelogic.NotFoundError) as caught:
        corelogic.System("nonexistent", library=library)
    assert caught.value.status == -3
    assert "nonexistent" in caught.value.message


def test_an_unknown_query_raises_not_found(counter):
    with pytest.raises(corelogic.NotFoundError, match="isHuge"):
        counter.query("isHuge")


def test_an_error_leaves_the_system_as_it_was(counter):
    counter.send("increment")
    with pytest.raises(corelogic.SchemaError):
        counter.send({"increment": 5})
    assert counter.state == {"count": 1}
    assert counter.send("increment").state == {"count": 2}


@pytest.mark.parametrize(
    "bad",
    [object(), {"set": {1, 2}}, float("nan"), b'"incr\x00ement"'],
    ids=["object", "set", "nan", "nul-byte"],
)
def test_values_that_cannot_be_passed_on_raise_argument_error(counter, bad):
    with pytest.raises(corelogic.ArgumentError) as caught:
        counter.send(bad)
    assert caught.value.status == -5


@pytest.mark.parametrize("effect_id", [-1, 2**64, "1", 1.0, True])
def test_effect_ids_must_be_unsigned_64_bit_ints(search, effect_id):
    with pytest.raises(corelogic.ArgumentError):
        search.deliver(effect_id, "retry")


def test_names_with_nul_characters_raise_argument_error(library):
    with pytest.raises(corelogic.ArgumentError):
        corelogic.System("counter\0", library=library)


@pytest.mark.parametrize(
    "status, cls",
    [
        (-1, corelogic.JSONError),
        (-2, corelogic.SchemaError),
        (-3, corelogic.NotFoundError),
        (-4, corelogic.HandleError),
        (-5, corelogic.ArgumentError),
        (-6, corelogic.StorageError),
        (-7, corelogic.CorruptError),
    ],
)
def test_every_status_has_its_exception(status, cls):
    from corelogic.errors import error_for_status

    error = error_for_status(status, "what and where")
    assert type(error) is cls
    assert (error.status, error.message) == (status, "what and where")
    assert cls.status_name in str(error)


def test_a_storage_error_is_an_os_error_carrying_the_errno_it_names():
    from corelogic.errors import error_for_status

    described = error_for_status(-6, f"cannot create directory /x: {os.strerror(errno.EACCES)}")
    assert isinstance(described, OSError) and isinstance(described, corelogic.CorelogicError)
    assert (described.errno, described.strerror) == (errno.EACCES, os.strerror(errno.EACCES))
    assert str(described) == f"cannot create directory /x: {os.strerror(errno.EACCES)} [CORELOGIC_ERR_IO]"
    plain = error_for_status(-6, "no journal directory /x")
    assert (plain.errno, plain.strerror, plain.status) == (None, None, -6)


def test_an_unknown_future_status_still_raises_a_corelogic_error():
    from corelogic.errors import error_for_status

    error = error_for_status(-42, "new")
    assert type(error) is corelogic.CorelogicError and error.status == -42


# -- lifetime -------------------------------------------------------------------


def test_close_is_idempotent_and_use_after_close_raises_handle_error(library):
    system = corelogic.System("search", library=library)
    system.close()
    system.close()
    assert system.closed
    for call in (
        lambda: system.send("reachedBottom"),
        lambda: system.deliver(1, "retry"),
        lambda: system.complete(1),
        lambda: system.state,
        lambda: system.query("canLoadMore"),
        lambda: system.effects,
        lambda: system.on_command(print),
    ):
        with pytest.raises(corelogic.HandleError) as caught:
            call()
        assert caught.value.status == -4
        assert "closed" in str(caught.value)


def test_the_context_manager_closes_the_system(library):
    with corelogic.System("counter", library=library) as system:
        system.send("increment")
    assert system.closed
    with pytest.raises(corelogic.HandleError):
        system.send("increment")


def test_a_dropped_system_is_freed_once(library):
    system = corelogic.System("counter", library=library)
    system.on_command(lambda command: None)
    reference = weakref.ref(system)
    del system
    gc.collect()
    assert reference() is None
    closed = corelogic.System("counter", library=library)
    closed.close()
    del closed  # the finalizer of a closed system frees nothing
    gc.collect()


def test_systems_are_independent(library):
    with corelogic.System("counter", library=library) as a, corelogic.System("counter", library=library) as b:
        a.send("increment")
        a.send("increment")
        assert (a.state, b.state) == ({"count": 2}, {"count": 0})


# -- malformed input never crashes --------------------------------------------


def test_arbitrary_bytes_only_ever_raise_json_or_schema_errors(counter):
    import random

    rng = random.Random(7)
    samples = [bytes(rng.randrange(1, 256) for _ in range(rng.randrange(0, 40))) for _ in range(500)]
    samples += [b"", b"\xff\xfe", b'"\xed\xa0\x80"', b"[" * 100_000, b'{"increment":' * 50_000, b"1e999999"]
    for sample in samples:
        try:
            counter.send(sample)
        except (corelogic.JSONError, corelogic.SchemaError):
            pass
    assert counter.state == {"count": 0}
    assert counter.send("increment").state == {"count": 1}


def test_state_json_is_the_compact_state_that_recreates_the_system(library, search):
    search.send({"queryChanged": {"text": "swift"}})
    raw = search.state_json
    assert raw == b'{"query":"swift","items":[],"nextURL":"/search/repositories?q=swift","shouldLoadNextPage":true}'
    with corelogic.System("search", raw, library=library) as copy:
        assert copy.state_json == raw
        # The copy's first state asks for the same load, so it starts at creation.
        assert copy.initial_batch.started == [
            {"id": 1, "feedback": "loadPage", "request": {"url": "/search/repositories?q=swift"}}
        ]


def test_close_and_the_finalizer_free_the_handle_exactly_once(library):
    system = corelogic.System("counter", library=library)
    freed = []
    real_free = system._free_fn
    system._free_fn = lambda handle: freed.append(handle) or real_free(handle)
    handle = system._handle
    system.close()
    system.close()
    system.__del__()
    assert freed == [handle]


def test_handler_callbacks_live_as_long_as_the_system(counter):
    seen = []
    counter.on_state(lambda state: seen.append(state["count"]))
    gc.collect()  # nothing but the system holds the callback now
    counter.send("increment")
    counter.send("increment")
    assert seen == [1, 2]
