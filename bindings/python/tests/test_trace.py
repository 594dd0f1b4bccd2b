"""Traces: what the library writes, how corelogic.trace reads it back, time
travel, and sessions recorded as golden files (docs/inspector.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import corelogic
from corelogic import trace as tracing
from corelogic._jsondiff import apply_patch, copy_json, diff
from corelogic.golden import GoldenError, golden_document, record_golden
from corelogic.inspector import case_label, diagram_candidates, state_diagram

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = PACKAGE_ROOT.parents[1]

PAGE = {"pageLoaded": {"items": [{"id": 1, "name": "apple/swift", "stars": 60000}], "nextURL": "/search?q=swift&page=2"}}
LATE = {"pageLoaded": {"items": [{"id": 9, "name": "late/answer", "stars": 0}], "nextURL": None}}


def lines(path: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def search_session(path: Path, library: corelogic.Library) -> List[Any]:
    """A session with every kind of line: ok sends, a deliver, a stale
    deliver, a complete, a refused event. Returns the state after each input
    (None where the input changed nothing)."""
    states: List[Any] = []
    with corelogic.System("search", library=library, trace=path) as system:
        states.append(system.send({"queryChanged": {"text": "sw"}}).state)        # 1: starts #1
        states.append(system.send({"queryChanged": {"text": "swift"}}).state)     # 2: cancels #1, starts #2
        assert system.deliver(1, LATE) is corelogic.STALE                         # 3: stale
        states.append(None)
        states.append(system.deliver(2, PAGE).state)                              # 4: page 1, cancels #2
        assert system.complete(2) is corelogic.STALE                              # 5: stale
        states.append(None)
        with pytest.raises(corelogic.SchemaError):
            system.send({"queryChanged": {"text": 5}})                            # 6: refused
        states.append(None)
        states.append(system.send("reachedBottom").state)                         # 7: starts #3
        states.append(system.complete(3).state)                                   # 8: #3 done
    return states


# -- what the library writes ------------------------------------------------------


def test_the_first_line_holds_the_feature_state_queries_and_running_effects(library, tmp_path):
    path = tmp_path / "t.jsonl"
    with corelogic.System("search", {"query": "a", "items": [], "nextURL": "/n", "shouldLoadNextPage": True},
                          library=library) as system:
        system.trace(path)
        header = lines(path)[0]
        assert header["corelogicTrace"] == tracing.FORMAT_VERSION
        assert header["feature"] == "search"
        assert header["state"] == system.state
        assert header["queries"] == {name: system.query(name) for name in header["queries"]}
        assert set(header["queries"]) == {"isLoadingNextPage", "canLoadMore"}
        assert header["effects"] == system.effects
        assert header["effects"][0]["feedback"] == "loadPage"
        assert header["nextEffect"] == 2


def test_every_input_gets_a_line_and_stale_and_refused_ones_are_marked(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    steps = lines(path)[1:]
    assert [step["seq"] for step in steps] == list(range(1, 9))
    assert [(step["input"], step["status"]) for step in steps] == [
        ("send", "ok"), ("send", "ok"), ("deliver", "stale"), ("deliver", "ok"),
        ("complete", "stale"), ("send", "error:schema"), ("send", "ok"), ("complete", "ok"),
    ]
    assert steps[1]["effects"] == [{"cancel": 1}, {"start": {"id": 2, "feedback": "loadPage",
                                                          "request": {"url": "/search/repositories?q=swift"}}}]
    # The event as the loop took it, in the library's encoding: the null nextURL is omitted.
    late = {"pageLoaded": {"items": LATE["pageLoaded"]["items"]}}
    assert steps[2] == {"seq": 3, "input": "deliver", "effect": 1, "event": late, "status": "stale"}
    assert steps[5]["raw"] == '{"queryChanged":{"text":5}}'
    assert "$.queryChanged.text" in steps[5]["message"]
    assert all(isinstance(step["ns"], int) and step["ns"] >= 0 for step in steps if step["status"] == "ok")
    # Queries: the header has all of them, a step only those that changed.
    assert steps[0]["queries"] == {"isLoadingNextPage": True}
    assert steps[1]["queries"] == {}


def test_bad_json_is_traced_as_the_text_the_host_sent(library, tmp_path):
    path = tmp_path / "t.jsonl"
    with corelogic.System("counter", library=library, trace=path) as system:
        with pytest.raises(corelogic.JSONError):
            system.send(b'{"increment" 1')
        with pytest.raises(corelogic.JSONError):
            system.send(b"\xff\xfe")
    refused = lines(path)[1:]
    assert refused[0]["raw"] == '{"increment" 1' and refused[0]["status"] == "error:json"
    assert refused[1]["status"] == "error:json" and refused[1]["raw"] == "\ufffd\ufffd"


def test_inputs_queued_from_handlers_get_their_own_lines(library, tmp_path):
    path = tmp_path / "t.jsonl"
    with corelogic.System("counter", library=library, trace=path) as system:
        sent = []

        def again(state: Any) -> None:
            if state["count"] < 3:
                sent.append(system.send("increment"))

        system.on_state(again)
        batch = system.send("increment")
        assert batch.steps == 3
    steps = lines(path)[1:]
    assert [tracing.load(path).state_at(step["seq"])["count"] for step in steps] == [1, 2, 3]
    assert [step["revision"] for step in steps] == [1, 2, 3]
    # Every event in the library's encoding, the call's own (sent as "increment") and the
    # queued ones alike.
    assert [tracing.event_name(step["event"]) for step in steps] == ["increment"] * 3
    assert [step["event"] for step in steps] == [{"increment": {}}] * 3


def test_stopping_and_restarting_a_trace(library, tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with corelogic.System("counter", library=library, trace=first) as system:
        system.send("increment")
        system.trace(None)
        system.send("increment")
        system.trace(second)
        system.send("increment")
    assert len(lines(first)) == 2
    assert lines(second)[0]["state"] == {"count": 2}
    assert lines(second)[0]["revision"] == 2
    assert tracing.load(second).final_state == {"count": 3}


def test_a_trace_that_cannot_be_opened_fails_and_the_running_one_goes_on(library, tmp_path):
    path = tmp_path / "t.jsonl"
    with corelogic.System("counter", library=library, trace=path) as system:
        with pytest.raises(corelogic.StorageError, match="no-such-dir"):
            system.trace(tmp_path / "no-such-dir" / "t.jsonl")
        with pytest.raises(corelogic.ArgumentError):
            system.trace("")
        system.send("increment")
    assert len(lines(path)) == 2
    with pytest.raises(corelogic.StorageError):
        corelogic.System("counter", library=library, trace=tmp_path / "missing" / "t.jsonl")


def test_a_system_that_is_not_traced_writes_nothing(library, tmp_path):
    os.chdir(tmp_path)
    with corelogic.System("counter", library=library) as system:
        system.send("increment")
    assert list(tmp_path.iterdir()) == []


# -- reading ------------------------------------------------------------------------


def test_the_reader_rebuilds_every_recorded_state(library, tmp_path):
    path = tmp_path / "t.jsonl"
    states = search_session(path, library)
    trace = tracing.load(path, "search")
    assert trace.problems == [] and len(trace) == 8
    previous = lines(path)[0]["state"]
    for step, state in zip(trace, states):
        expected = previous if state is None else state
        assert trace.state_at(step.seq) == expected
        previous = expected
    assert trace.step(3).status == "stale" and trace.step(3).name == "pageLoaded"
    assert trace.step(6).name == "queryChanged" and trace.step(6).event is None


def full_state_form(path: Path, out: Path) -> None:
    """The same trace with each step's whole "state" instead of its "patch"."""
    records = lines(path)
    state = records[0]["state"]
    converted = [records[0]]
    for record in records[1:]:
        record = dict(record)
        if "patch" in record:
            state = apply_patch(copy_json(state), record.pop("patch"))
            record["state"] = state
        converted.append(record)
    out.write_text("".join(json.dumps(record) + "\n" for record in converted), encoding="utf-8")


def test_a_trace_of_whole_states_reads_as_the_same_states(library, tmp_path):
    """A step may carry the whole "state" instead of a "patch": both forms give
    the same states."""
    path, full_path = tmp_path / "t.jsonl", tmp_path / "full.jsonl"
    search_session(path, library)
    full_state_form(path, full_path)
    assert all("state" in record for record in lines(full_path)[1:] if record["status"] == "ok")
    patches, full = tracing.load(path), tracing.load(full_path)
    assert [full.state_at(step.seq) for step in full] == [patches.state_at(step.seq) for step in patches]


def damage(path: Path, out: Path) -> None:
    text = path.read_text(encoding="utf-8").splitlines()
    text[2] = text[2][: len(text[2]) // 2]                      # step 2 truncated
    text[5] = '{"seq":5,"input":"teleport","status":"ok"}'      # step 5: not an input
    out.write_text("\n".join(text) + "\n" + text[-1][:10], encoding="utf-8")   # and a torn tail


def test_a_corrupt_line_is_reported_with_its_number_and_the_rest_loads(library, tmp_path):
    path, damaged = tmp_path / "t.jsonl", tmp_path / "damaged.jsonl"
    search_session(path, library)
    damage(path, damaged)
    trace = tracing.load(damaged)
    # Line 3 (step 2, a state change) is lost: the next line with a state change (5)
    # says a change is missing, since its patch applies to a state the reader lacks.
    assert [problem.line for problem in trace.problems] == [3, 5, 6, 10]
    assert "truncated or corrupt" in trace.problems[0].message
    assert "1 state change(s) before this line are missing" in trace.problems[1].message
    assert "teleport" in trace.problems[2].message
    assert str(trace.problems[0]).startswith(f"{damaged}:3: ")
    assert [step.seq for step in trace] == [1, 3, 4, 6, 7, 8]


def test_a_trace_of_whole_states_loses_only_its_damaged_lines(library, tmp_path):
    path, full_path, damaged = tmp_path / "t.jsonl", tmp_path / "full.jsonl", tmp_path / "damaged.jsonl"
    search_session(path, library)
    full_state_form(path, full_path)
    damage(full_path, damaged)
    trace = tracing.load(damaged)
    assert [problem.line for problem in trace.problems] == [3, 6, 10]
    assert trace.state_at(8) == tracing.load(path).state_at(8)


@pytest.mark.parametrize(
    "first_line, message",
    [
        ('{"corelogicTrace":2,"feature":"search","state":{}}', "format version 2 is not supported"),
        ('{"corelogic":"journal","format":1}', "not a corelogic trace"),
        ("not json", "not a corelogic trace"),
        ('{"corelogicTrace":1,"feature":"counter","state":{"count":0}}', "trace of the feature 'counter', not 'search'"),
    ],
)
def test_a_trace_of_another_version_or_feature_is_refused_clearly(tmp_path, first_line, message):
    path = tmp_path / "t.jsonl"
    path.write_text(first_line + "\n", encoding="utf-8")
    with pytest.raises(tracing.TraceError, match=message):
        tracing.load(path, "search")


def test_an_empty_or_missing_trace_is_refused(tmp_path):
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(tracing.TraceError, match="empty"):
        tracing.load(tmp_path / "empty.jsonl")
    with pytest.raises(tracing.TraceError, match="cannot read"):
        tracing.load(tmp_path / "missing.jsonl")


def test_a_journal_directory_reads_as_a_trace_of_its_accepted_inputs(library, tmp_path):
    journal, path = tmp_path / "journal", tmp_path / "t.jsonl"
    with corelogic.System("search", library=library, trace=path) as system:
        system.open_journal(journal)
        system.send({"queryChanged": {"text": "sw"}})
        system.send({"queryChanged": {"text": "swift"}})
        system.deliver(1, LATE)                      # stale: not journaled
        system.deliver(2, PAGE)
        system.send("reachedBottom")
    from_journal = tracing.load(journal, "search", library=library)
    from_trace = tracing.load(path)
    assert from_journal.kind == "journal" and from_journal.problems == []
    accepted = [step for step in from_trace if step.ok]
    assert [step.seq for step in from_journal] == [1, 2, 3, 4]
    assert [from_journal.state_at(step.seq) for step in from_journal] == [from_trace.state_at(step.seq) for step in accepted]
    assert [step.effects for step in from_journal] == [step.effects for step in accepted]


# -- time travel ---------------------------------------------------------------------


def test_replaying_through_the_reducer_rebuilds_every_step(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    trace = tracing.load(path)
    for seq in [0] + [step.seq for step in trace]:
        assert tracing.replay_state(trace, seq, library=library) == trace.state_at(seq)


def test_a_full_replay_reproduces_the_session(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    trace = tracing.load(path)
    again = tracing.replay(trace, library=library)
    assert again.diverged is None
    assert [step.status for step in again.steps] == [step.status for step in trace]
    assert again.id_map == {1: 1, 2: 2, 3: 3}


def test_what_if_the_second_query_had_not_been_typed(library, tmp_path):
    """Without step 2, effect 1 is never cancelled: its late page is applied
    instead of being stale, and what followed for effect 2 becomes stale."""
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    trace = tracing.load(path)
    other = tracing.what_if_without(trace, 2, library=library)
    assert other.step(2).status == "skipped"
    assert other.step(3).status == "ok" and other.step(3).was == "stale"
    assert other.step(3).state["items"] == LATE["pageLoaded"]["items"]
    assert other.step(4).status == "stale" and 4 in other.newly_stale
    assert other.diverged == 3
    assert other.final_state["query"] == "sw"


def test_ids_are_matched_when_the_trace_starts_mid_life(library, tmp_path):
    """A trace started on a system that already handed out ids replays in a
    fresh system whose ids start at 1: inputs are mapped to the new ids."""
    path = tmp_path / "t.jsonl"
    with corelogic.System("search", library=library) as system:
        for text in ("a", "b", "c"):
            system.send({"queryChanged": {"text": text}})
        system.trace(path)                               # effect 3 is running
        system.deliver(3, PAGE)
        system.send("reachedBottom")                     # starts 4
        system.deliver(2, LATE)                          # stale
        system.complete(4)
    trace = tracing.load(path)
    again = tracing.replay(trace, library=library)
    assert again.diverged is None
    assert again.id_map == {3: 1, 4: 2}
    assert [step.status for step in again.steps] == ["ok", "ok", "stale", "ok"]


# -- golden files -------------------------------------------------------------------


def run_golden_runners(directory: Path, library: corelogic.Library, monkeypatch: Any) -> None:
    """The golden driver through the Python adapter always; through the C adapter too
    when it is built (make test builds it first)."""
    adapters = [[sys.executable, str(Path(__file__).parent / "golden_adapter.py")]]
    c_adapter = REPOSITORY / ".build" / "c" / "golden_adapter"
    if c_adapter.exists():
        adapters.append([str(c_adapter)])
    for adapter in adapters:
        done = subprocess.run([sys.executable, str(REPOSITORY / "Tests" / "hosts" / "golden_driver.py"), "--host", "t",
                               str(directory), library.path, "--", *adapter], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "golden-t: 1 passed, 0 failed" in done.stdout and "golden-t-patch: 1 passed, 0 failed" in done.stdout


def test_a_session_becomes_a_golden_file_the_runners_replay(library, tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    trace = tracing.load(path)
    written = record_golden(trace, "recorded-session", description="a recorded session replays identically",
                            directory=str(tmp_path / "golden"), library=library)
    document = json.loads(Path(written).read_text(encoding="utf-8"))
    assert written.endswith(os.path.join("search", "recorded-session.json"))
    assert [next(iter(step)) for step in document["steps"]] == [
        "send", "send", "deliver", "deliver", "complete", "sendRaw", "send", "complete"]
    assert document["steps"][2]["expect"] == {"status": "stale"}
    assert document["steps"][5]["expect"]["status"] == "error:schema"
    run_golden_runners(tmp_path / "golden", library, monkeypatch)
    with pytest.raises(GoldenError, match="exists"):
        record_golden(trace, "recorded-session", directory=str(tmp_path / "golden"), library=library)
    with pytest.raises(GoldenError, match="case name"):
        record_golden(trace, "Bad Name", directory=str(tmp_path / "golden"), library=library)


def test_a_golden_file_from_a_mid_life_trace_uses_the_fresh_ids(library, tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    with corelogic.System("search", library=library) as system:
        system.send({"queryChanged": {"text": "a"}})
        system.send({"queryChanged": {"text": "b"}})
        system.trace(path)
        system.deliver(2, PAGE)
        system.deliver(1, LATE)
    document = golden_document(tracing.load(path), "mid-life", library=library)
    assert document["steps"][0]["deliver"]["effect"] == 1
    assert document["steps"][1]["deliver"]["effect"] == 0
    (tmp_path / "golden" / "search").mkdir(parents=True)
    (tmp_path / "golden" / "search" / "mid-life.json").write_text(json.dumps(document), encoding="utf-8")
    run_golden_runners(tmp_path / "golden", library, monkeypatch)


def test_a_session_that_does_not_replay_is_not_written(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    records = lines(path)
    records[1]["patch"][0]["value"] = "edited by hand"
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    with pytest.raises(GoldenError, match="does not replay identically: step 1"):
        golden_document(tracing.load(forged), "forged", library=library)


def test_a_damaged_trace_is_not_turned_into_a_golden_file(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    with path.open("a", encoding="utf-8") as file:
        file.write('{"seq":9,"inp')
    with pytest.raises(GoldenError, match="unreadable"):
        golden_document(tracing.load(path), "damaged", library=library)


# -- diagrams and the command line ----------------------------------------------------


def test_case_labels_name_enum_cases():
    assert case_label("loading") == "loading"
    assert case_label({"loaded": {"items": []}}) == "loaded"
    assert case_label(True) == "true"
    assert case_label(None) == "null"


def test_a_state_diagram_counts_the_events_between_values(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    trace = tracing.load(path)
    assert diagram_candidates(trace)[:2] == ["query:isLoadingNextPage", "query:canLoadMore"]
    drawn = state_diagram(trace, "query:isLoadingNextPage")
    assert drawn.start == "false"
    # false, then true after steps 1-3, false after 4-6, true after 7-8.
    assert drawn.nodes == [("false", 4), ("true", 5)]
    assert drawn.edges == [("false", "true", "queryChanged", 1), ("true", "false", "pageLoaded", 1),
                           ("false", "true", "reachedBottom", 1)]
    dot = drawn.to_dot()
    assert '"false" -> "true" [label="queryChanged ×1"];' in dot
    mermaid = drawn.to_mermaid()
    assert "s0 --> s1: queryChanged ×1" in mermaid and "[*] --> s0" in mermaid


def test_a_diagram_of_an_enum_member_of_the_state(library, tmp_path):
    path = tmp_path / "t.jsonl"
    with corelogic.System("pharmacies", library=library, trace=path) as system:
        load = system.initial_batch.started[0]["id"]
        system.deliver(load, {"listLoaded": {"pharmacies": []}})
    trace = tracing.load(path)
    assert "/phase" in diagram_candidates(trace)
    drawn = state_diagram(trace, "/phase")
    assert drawn.nodes[0][0] == "loading" and drawn.edges[0][:3] == ("loading", drawn.nodes[1][0], "listLoaded")


def run_cli(*args: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
    return subprocess.run([sys.executable, "-m", "corelogic", *args], capture_output=True, text=True, env=env)


def test_the_command_line_inspects_records_and_draws(library, tmp_path):
    path = tmp_path / "t.jsonl"
    search_session(path, library)
    done = run_cli("inspect", str(path), "-o", str(tmp_path / "r.html"))
    assert done.returncode == 0, done.stderr
    assert "8 steps (2 stale)" in done.stdout
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<script src" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    done = run_cli("diagram", str(path), "--format", "mermaid")
    assert done.returncode == 0 and done.stdout.startswith("stateDiagram-v2")
    done = run_cli("record-golden", str(path), "--case", "cli-case", "--out", str(tmp_path / "g"), "--description", "d")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "g" / "search" / "cli-case.json").exists()


def test_the_command_line_refuses_a_bad_trace_with_a_message(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"corelogicTrace":7,"feature":"search","state":{}}\n', encoding="utf-8")
    done = run_cli("inspect", str(path), "-o", str(tmp_path / "r.html"))
    assert done.returncode == 2
    assert "format version 7 is not supported" in done.stderr
    assert not (tmp_path / "r.html").exists()


def test_json_patches_round_trip():
    before = {"a": [1, 2, 3], "b": {"c": True}, "d/e": "x"}
    after = {"a": [1, 2, 3, 4], "b": {"c": 1}, "f~": None}
    patch = diff(before, after)
    assert apply_patch(copy_json(before), patch) == after
    assert {"op": "add", "path": "/a/-", "value": 4} in patch
    assert {"op": "replace", "path": "/b/c", "value": 1} in patch
    assert {"op": "remove", "path": "/d~1e"} in patch


def test_damaged_traces_load_or_are_refused_and_never_break_the_page(library, tmp_path):
    """Lines cut short, fields given values of the wrong kind, lines repeated or
    dropped: the reader either refuses the file (TraceError) or loads it with
    its problems, and every state it then reports, the page and the diagrams
    are built without an exception."""
    import random

    from corelogic.inspector import build_report

    path = tmp_path / "t.jsonl"
    search_session(path, library)
    source = path.read_text(encoding="utf-8").splitlines()
    chance = random.Random(7)
    loaded = refused = 0
    for _ in range(300):
        text = list(source)
        for _ in range(chance.randint(1, 3)):
            k = chance.randrange(len(text))
            roll = chance.random()
            if roll < 0.3:
                text[k] = text[k][: chance.randrange(len(text[k]) + 1)]
            elif roll < 0.6:
                try:
                    record = json.loads(text[k])
                except ValueError:
                    continue
                record[chance.choice(list(record))] = chance.choice([None, 1, "x", [], {}, [1], {"a": 1}, -5, 1.5, True])
                text[k] = json.dumps(record)
            elif roll < 0.8:
                text.insert(k, chance.choice(source))
            else:
                del text[k]
        try:
            trace = tracing.read_trace(text)
        except tracing.TraceError:
            refused += 1
            continue
        loaded += 1
        for step in trace:
            trace.state_at(step.seq)
        build_report(trace)
        for candidate in diagram_candidates(trace):
            state_diagram(trace, candidate).to_mermaid()
    assert loaded > 100 and refused > 10


def test_the_demo_writes_a_trace_with_its_stale_delivery(library, tmp_path, monkeypatch):
    """docs/inspector.md's walkthrough: the demo's trace holds the late page as a
    stale delivery for an effect an earlier step cancelled, replays identically
    and becomes a golden file the runners pass."""
    import asyncio
    import io

    import demo

    path = tmp_path / "demo.trace.jsonl"
    state = asyncio.run(demo.run(latency=0.03, typing_delay=0.01, out=io.StringIO(), library=library.path,
                                 trace=str(path)))
    trace = tracing.load(path, "search")
    assert trace.problems == [] and trace.final_state == state
    stale = [step for step in trace if step.status == "stale"]
    assert [step.name for step in stale] == ["pageLoaded"]
    late = stale[0]
    cancelled_at = [step.seq for step in trace if {"cancel": late.effect} in step.effects]
    assert cancelled_at and cancelled_at[0] < late.seq
    assert tracing.replay(trace, library=library).diverged is None
    other = tracing.what_if_without(trace, cancelled_at[0], library=library)
    assert other.step(late.seq).status == "ok"
    record_golden(trace, "demo-session", description="the demo", directory=str(tmp_path / "golden"), library=library)
    run_golden_runners(tmp_path / "golden", library, monkeypatch)
