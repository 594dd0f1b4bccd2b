"""The inspector page, opened in headless Chromium: the rendered DOM is checked
against what corelogic.trace computes, and screenshots are saved under
.build/inspector/ to be looked at.

Needs Debian's ``chromium`` (``.ci/run`` installs it when missing). The page is
driven through its address (``#select=SEQ&status=stale...``, the same code a
click runs) and read back with ``--dump-dom``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import corelogic
from corelogic import trace as tracing
from corelogic._jsondiff import pointer_tokens
from corelogic.inspector import state_diagram, write_report

REPOSITORY = Path(__file__).resolve().parents[3]
SHOTS = REPOSITORY / ".build" / "inspector"
PAGE = {"pageLoaded": {"items": [{"id": 1, "name": "apple/swift", "stars": 60000}], "nextURL": "/search?q=swift&page=2"}}
LATE = {"pageLoaded": {"items": [{"id": 9, "name": "late/answer", "stars": 0}], "nextURL": None}}


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("headless Chromium is needed to test the inspector page: apt-get install chromium (.ci/run does)")


def browse(page: Path, fragment: str = "", screenshot: Optional[Path] = None) -> str:
    """The page's DOM after its scripts ran (and a screenshot, if asked)."""
    url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
    flags = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1440,900",
             "--no-first-run", "--disable-extensions", f"--user-data-dir={page.parent / 'chromium-profile'}"]
    if screenshot is not None:
        done = subprocess.run(flags + [f"--screenshot={screenshot}", url], capture_output=True, text=True, timeout=180)
        assert screenshot.exists(), done.stderr[-2000:]
    done = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and "data-ready" in done.stdout, done.stderr[-2000:]
    return done.stdout


class Elements(HTMLParser):
    """Each element's attributes and own text, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: List[Tuple[str, Dict[str, str], List[str]]] = []
        self.stack: List[int] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        self.elements.append((tag, {key: value or "" for key, value in attrs}, []))
        if tag not in ("input", "br", "meta", "link", "img"):
            self.stack.append(len(self.elements) - 1)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            index = self.stack.pop()
            if self.elements[index][0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.elements[self.stack[-1]][2].append(data)

    def having(self, cls: str) -> List[Tuple[str, Dict[str, str], str]]:
        return [(tag, attrs, "".join(text)) for tag, attrs, text in self.elements
                if cls in attrs.get("class", "").split()]

    def by_id(self, identifier: str) -> Tuple[str, Dict[str, str], str]:
        for tag, attrs, text in self.elements:
            if attrs.get("id") == identifier:
                return tag, attrs, "".join(text)
        raise AssertionError(f"no element #{identifier}")


def parse(dom: str) -> Elements:
    elements = Elements()
    elements.feed(dom)
    return elements


def value_at(state: Any, path: str) -> Any:
    value = state
    for token in pointer_tokens(path):
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def shown_values(dom: Elements) -> Dict[str, Any]:
    """What the state view shows: every leaf value by its JSON Pointer."""
    return {attrs["data-path"]: json.loads(text) for _, attrs, text in dom.having("v") if "data-path" in attrs}


@pytest.fixture(scope="module")
def session(library: corelogic.Library, tmp_path_factory: pytest.TempPathFactory) -> Tuple[tracing.Trace, Path]:
    """A search session with a stale delivery and a refused event, as a page."""
    folder = tmp_path_factory.mktemp("inspector")
    path = folder / "search.trace.jsonl"
    with corelogic.System("search", library=library, trace=path) as system:
        system.send({"queryChanged": {"text": "sw"}})
        system.send({"queryChanged": {"text": "swift"}})
        system.deliver(1, LATE)
        system.deliver(2, PAGE)
        system.send("reachedBottom")
        try:
            system.send({"queryChanged": {"text": 5}})
        except corelogic.SchemaError:
            pass
        system.deliver(3, {"pageLoaded": {"items": [{"id": 2, "name": "apple/swift-nio", "stars": 7000}], "nextURL": None}})
        system.send({"queryChanged": {"text": ""}})
    trace = tracing.load(path)
    page = folder / "report.html"
    write_report(trace, str(page))
    SHOTS.mkdir(parents=True, exist_ok=True)
    return trace, page


def test_selecting_a_step_shows_the_state_of_that_step(session):
    trace, page = session
    # The first state, a step, the stale one and the last (each a browser start).
    for seq in (0, 2, 3, trace.steps[-1].seq):
        dom = parse(browse(page, f"select={seq}"))
        _, view, _ = dom.by_id("state-view")
        assert view["data-seq"] == str(seq)
        shown = shown_values(dom)
        state = trace.state_at(seq)
        assert shown, "the state view shows no value"
        for path, value in shown.items():
            assert value_at(state, path) == value, f"step {seq}: {path}"
        # Every member of the state is on screen (the first level is open).
        top = {path for path in shown if path.count("/") == 1}
        top |= {attrs["data-path"] for _, attrs, _ in dom.having("sum") if attrs.get("data-path", "").count("/") == 1}
        assert top == {"/" + key for key in state}


def test_the_change_from_the_previous_step_is_highlighted(session):
    trace, page = session
    dom = parse(browse(page, "select=2", SHOTS / "search-step-2.png"))
    changed = {attrs["data-node"] for _, attrs, _ in dom.having("changed-replace") if "data-node" in attrs}
    assert changed == {op["path"] for op in trace.step(2).patch}
    rows = [text for _, _, text in dom.having("op")]
    assert rows == [op["op"] for op in trace.step(2).patch]


def test_the_stale_delivery_is_marked_in_the_timeline_and_the_effect_lanes(session):
    trace, page = session
    dom = parse(browse(page, "select=3&status=stale", SHOTS / "search-stale.png"))
    rows = dom.having("row")
    assert [attrs["data-seq"] for _, attrs, _ in rows] == ["3"]
    assert "stale" in rows[0][1]["class"].split()
    assert any(text == "STALE" for _, _, text in dom.having("badge"))
    lane = [attrs for _, attrs, _ in dom.having("lane") if attrs.get("data-effect") == "1"]
    assert lane, "effect 1 has no lane"
    stale_marks = [attrs for _, attrs, _ in dom.having("mark") if "stale" in attrs["class"].split()]
    assert [attrs["data-index"] for attrs in stale_marks] == [str(trace.index_of(3))]
    cancels = [attrs for _, attrs, _ in dom.having("mark") if "cancel" in attrs["class"].split()]
    assert str(trace.index_of(2)) in {attrs["data-index"] for attrs in cancels}


def test_filtering_by_event_and_by_feedback(session):
    trace, page = session
    dom = parse(browse(page, "event=pageLoaded"))
    expected = [str(step.seq) for step in trace if step.name == "pageLoaded"]
    assert [attrs["data-seq"] for _, attrs, _ in dom.having("row")] == expected
    dom = parse(browse(page, "feedback=loadPage"))
    touching = [str(step.seq) for step in trace
                if step.effects or (step.effect is not None)]
    assert [attrs["data-seq"] for _, attrs, _ in dom.having("row")] == touching


def test_the_diagram_has_the_sessions_nodes_and_edges_and_exports_dot(session):
    trace, page = session
    dom = parse(browse(page, "select=5&export=dot", SHOTS / "search-diagram.png"))
    drawn = state_diagram(trace, "query:isLoadingNextPage")
    nodes = {attrs["data-label"]: int(attrs["data-count"]) for _, attrs, _ in dom.having("node")}
    assert nodes == dict(drawn.nodes)
    edges = {}
    for _, attrs, _ in dom.having("edge"):
        for event, count in json.loads(attrs["data-events"]):
            edges[(attrs["data-from"], attrs["data-to"], event)] = count
    assert edges == {(source, target, event): count for source, target, event, count in drawn.edges}
    current = [attrs["data-label"] for _, attrs, _ in dom.having("current")]
    assert current == [dict(enumerate(label for label, _ in drawn.nodes))[drawn.series[trace.index_of(5) + 1]]]
    _, _, text = dom.by_id("export-text")
    assert text == drawn.to_dot()


def test_the_page_needs_no_network(session):
    _, page = session
    html = page.read_text(encoding="utf-8")
    assert "<script src" not in html and "<link" not in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html


# -- a large session ----------------------------------------------------------------

STEPS = 100_000
ITEMS = 10_000


def large_trace(path: Path) -> None:
    """100,000 steps over a 10,000-item state, in the patch form: each step
    toggles one item, every 500th moves a phase, every 50th starts or
    completes an effect, every 1000th is a stale delivery."""
    items = [{"id": index, "title": f"item {index}", "done": False} for index in range(ITEMS)]
    phases = ["idle", "syncing", "failed"]
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"corelogicTrace": 1, "feature": "checklist", "stateVersion": 1,
                              "state": {"phase": "idle", "items": items}, "queries": {"isSyncing": False},
                              "effects": [], "nextEffect": 1}, separators=(",", ":")) + "\n")
        running: Optional[int] = None
        next_id = 1
        for seq in range(1, STEPS + 1):
            if seq % 1000 == 0:
                out.write(json.dumps({"seq": seq, "input": "deliver", "effect": 999999, "event": {"synced": {}},
                                      "status": "stale"}) + "\n")
                continue
            item = (seq * 7919) % ITEMS
            patch: List[Dict[str, Any]] = [{"op": "replace", "path": f"/items/{item}/done", "value": seq % 2 == 1}]
            effects: List[Dict[str, Any]] = []
            queries: Dict[str, Any] = {}
            if seq % 500 == 0:
                phase = phases[(seq // 500) % 3]
                patch.append({"op": "replace", "path": "/phase", "value": phase})
                queries["isSyncing"] = phase == "syncing"
            if seq % 50 == 0:
                if running is None:
                    effects.append({"start": {"id": next_id, "feedback": "sync", "request": {"batch": seq}}})
                    running, next_id = next_id, next_id + 1
                else:
                    effects.append({"cancel": running})
                    running = None
            line = {"seq": seq, "input": "send", "event": {"toggle": {"id": item}}, "status": "ok",
                    "patch": patch, "queries": queries, "effects": effects, "ns": 1000 + seq % 97}
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


def test_a_large_session_pages_through_instead_of_embedding_every_state(tmp_path):
    path = tmp_path / "large.trace.jsonl"
    large_trace(path)
    trace = tracing.load(path)
    assert len(trace) == STEPS and trace.problems == []
    page = tmp_path / "large.html"
    write_report(trace, str(page), diagram="/phase")
    state_bytes = len(json.dumps(trace.initial_state))
    # One state and the changes: far from one state per step (which would be ~5 GB here).
    assert page.stat().st_size < 40 * state_bytes
    last = trace.steps[-2].seq        # the last step with a change (the very last is stale)
    dom = parse(browse(page, f"select={last}", SHOTS / "large-session.png"))
    _, view, _ = dom.by_id("state-view")
    assert view["data-seq"] == str(last)
    state = trace.state_at(last)
    shown = shown_values(dom)
    for key, value in shown.items():
        assert value_at(state, key) == value, key
    changed = trace.step(last).patch[0]["path"]
    assert changed in shown
    # Only what is on screen is in the DOM: one page of items, a window of timeline rows.
    assert len(dom.having("kv")) < 400
    assert len(dom.having("row")) < 100
    assert any("".join(text).endswith(f" of {ITEMS}") for _, _, text in dom.elements), "no pager over the items"
