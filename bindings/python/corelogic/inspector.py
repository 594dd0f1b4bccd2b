"""The inspector: a trace (or journal) as one self-contained HTML page, and
state diagrams of what a session did.

``python -m corelogic inspect TRACE -o report.html`` calls :func:`write_report`.
The page needs no network and works from ``file://``: a timeline of inputs
(filter by event, feedback, status), the state at the selected step with the
change from the step before highlighted, effect lifetimes as bars, and a state
diagram of a query or of an enum-like state member, exportable as Graphviz DOT
and Mermaid. It embeds the first state and each step's change, never every
state whole, and draws only what is on screen, so a trace of 100,000 steps
with a 10,000-item state stays usable (``docs/inspector.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

from ._inspector_page import PAGE
from ._jsondiff import pointer_tokens
from .trace import Trace

__all__ = ["Diagram", "build_report", "case_label", "diagram_candidates", "state_diagram", "write_report"]

JSONValue = Any


def case_label(value: JSONValue) -> str:
    """How a value names a node of a state diagram: a string as itself, an
    enum case with a payload (``{"loaded": {...}}``) by its case name, other
    values as compact JSON (shortened past 40 characters)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        return str(next(iter(value)))
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= 40 else text[:39] + "…"


def _enum_like(value: JSONValue) -> bool:
    return isinstance(value, (str, bool)) or value is None or (isinstance(value, dict) and len(value) == 1)


@dataclass
class Diagram:
    """A state diagram as seen in one session.

    Attributes:
        title: what the nodes are the values of (``"phase"``, ``"query isLoading"``).
        nodes: ``(label, steps)``: each value, in order of first appearance, with how
            many steps ended in it (the first state counts as one).
        edges: ``(from, to, event, count)``: the events that moved between two
            different values, in order of first occurrence.
        start: the label of the first state.
        series: the label index after each step (``series[0]``: the first state).
    """

    title: str
    nodes: List[Tuple[str, int]] = field(default_factory=list)
    edges: List[Tuple[str, str, str, int]] = field(default_factory=list)
    start: str = ""
    series: List[int] = field(default_factory=list)

    def to_dot(self) -> str:
        """Graphviz DOT text (``dot -Tsvg``)."""
        lines = [f"digraph {_dot_string(self.title)} {{", "  rankdir=LR;", '  node [shape=box, style=rounded];']
        lines.append('  "__start" [shape=point, label=""];')
        for label, count in self.nodes:
            lines.append(f"  {_dot_string(label)} [label={_dot_string(f'{label} ({count})')}];")
        if self.start:
            lines.append(f'  "__start" -> {_dot_string(self.start)};')
        for source, target, event, count in self.edges:
            lines.append(f"  {_dot_string(source)} -> {_dot_string(target)} [label={_dot_string(f'{event} ×{count}')}];")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_mermaid(self) -> str:
        """Mermaid ``stateDiagram-v2`` text."""
        ids = {label: f"s{index}" for index, (label, _) in enumerate(self.nodes)}
        lines = ["stateDiagram-v2"]
        for label, count in self.nodes:
            lines.append(f"    state {_mermaid_string(f'{label} ({count})')} as {ids[label]}")
        if self.start:
            lines.append(f"    [*] --> {ids[self.start]}")
        for source, target, event, count in self.edges:
            lines.append(f"    {ids[source]} --> {ids[target]}: {_mermaid_text(event)} ×{count}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> Dict[str, Any]:
        return {
            "title": self.title,
            "nodes": [list(node) for node in self.nodes],
            "edges": [list(edge) for edge in self.edges],
            "start": self.start,
        }


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _mermaid_string(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _mermaid_text(text: str) -> str:
    return text.replace(":", " ").replace("\n", " ")


def diagram_candidates(trace: Trace) -> List[str]:
    """What a diagram can be drawn of: ``"query:<name>"`` for every recorded
    query, then ``"/<member>"`` for each top-level state member whose every
    value in the session is a string, a boolean, null or an enum case."""
    out = [f"query:{name}" for name in trace.initial_queries]
    state = trace.initial_state
    if isinstance(state, dict):
        members = [key for key, value in state.items() if _enum_like(value)]
        ruled_out: Set[str] = set()
        for step in trace.steps:
            for operation in step.patch:
                tokens = pointer_tokens(operation["path"])
                if not tokens:
                    value = operation.get("value")
                    if isinstance(value, dict):
                        ruled_out.update(key for key in value if not _enum_like(value[key]))
                elif len(tokens) == 1 and operation["op"] != "remove":
                    if not _enum_like(operation.get("value")):
                        ruled_out.add(tokens[0])
                    elif tokens[0] not in members and tokens[0] not in ruled_out:
                        members.append(tokens[0])
                elif len(tokens) > 1 and tokens[0] in members:
                    # A change inside the member: only a case's payload may change.
                    pass
        out.extend("/" + key.replace("~", "~0").replace("/", "~1") for key in members if key not in ruled_out)
    return out


def state_diagram(trace: Trace, of: Optional[str] = None) -> Diagram:
    """The diagram of ``of``: ``"query:<name>"`` (a recorded query's values) or a
    JSON Pointer into the state (``"/phase"``: its values, enum cases by name).
    ``None`` takes the first of :func:`diagram_candidates`."""
    if of is None:
        candidates = diagram_candidates(trace)
        if not candidates:
            raise ValueError("nothing to draw: the trace records no query and the state has no enum-like member")
        of = candidates[0]
    labels = _labels(trace, of)
    diagram = Diagram(title=of[len("query:"):] if of.startswith("query:") else of)
    index: Dict[str, int] = {}
    counts: List[int] = []
    edge_index: Dict[Tuple[str, str, str], int] = {}
    edge_counts: List[int] = []
    edge_keys: List[Tuple[str, str, str]] = []
    previous: Optional[str] = None
    for position, label in enumerate(labels):
        if label not in index:
            index[label] = len(counts)
            counts.append(0)
        counts[index[label]] += 1
        diagram.series.append(index[label])
        if position == 0:
            diagram.start = label
        elif label != previous and previous is not None:
            key = (previous, label, trace.steps[position - 1].name)
            if key not in edge_index:
                edge_index[key] = len(edge_keys)
                edge_keys.append(key)
                edge_counts.append(0)
            edge_counts[edge_index[key]] += 1
        previous = label
    names = list(index)
    diagram.nodes = [(names[i], counts[i]) for i in range(len(names))]
    diagram.edges = [(source, target, event, edge_counts[i]) for i, (source, target, event) in enumerate(edge_keys)]
    return diagram


def _labels(trace: Trace, of: str) -> List[str]:
    """The node label of the first state and after each step."""
    if of.startswith("query:"):
        name = of[len("query:"):]
        if name not in trace.initial_queries:
            raise ValueError(f"the trace records no query {name!r}; recorded: {', '.join(trace.initial_queries) or '(none)'}")
        current = trace.initial_queries[name]
        labels = [case_label(current)]
        for step in trace.steps:
            if name in step.queries:
                current = step.queries[name]
            labels.append(case_label(current))
        return labels
    tokens = pointer_tokens(of)
    if not tokens:
        raise ValueError("a diagram of the whole state has a node per state; name a member such as /phase")
    first = tokens[0]
    labels = [case_label(_lookup(trace.initial_state, tokens))]
    current = labels[0]
    for step, state in trace.states():
        if any(_touches(operation["path"], first) for operation in step.patch):
            current = case_label(_lookup(state, tokens))
        labels.append(current)
    return labels


def _touches(path: str, first: str) -> bool:
    if path == "":
        return True
    return pointer_tokens(path)[0] == first


def _lookup(state: JSONValue, tokens: List[str]) -> JSONValue:
    value = state
    for token in tokens:
        if isinstance(value, dict):
            value = value.get(token)
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return None
    return value


# -- the page -------------------------------------------------------------------


def _lifetimes(trace: Trace) -> List[Dict[str, Any]]:
    """Each effect: when it started (step index, -1: before the trace), how it
    ended (deliver that made it stop, complete, cancel; null: still running),
    and the indices of its deliveries, stale ones apart."""
    effects: Dict[int, Dict[str, Any]] = {}
    order: List[int] = []

    def effect(identifier: int, feedback: str, request: JSONValue, start: int) -> Dict[str, Any]:
        record = {"id": identifier, "feedback": feedback, "request": request, "start": start,
                  "end": None, "endKind": None, "delivers": [], "stale": []}
        effects[identifier] = record
        order.append(identifier)
        return record

    for running in trace.initial_effects:
        effect(running["id"], running["feedback"], running.get("request"), -1)
    for index, step in enumerate(trace.steps):
        if step.effect is not None and step.effect in effects:
            record = effects[step.effect]
            if step.status == "stale":
                record["stale"].append(index)
            elif step.ok and step.input == "deliver":
                record["delivers"].append(index)
            elif step.ok and step.input == "complete" and record["end"] is None:
                record["end"], record["endKind"] = index, "complete"
        elif step.effect is not None and step.status == "stale":
            # A stale input for an effect never seen started (before the trace, or unknown).
            effect(step.effect, "?", None, -2)["stale"].append(index)
        for command in step.effects:
            if "start" in command:
                start = command["start"]
                effect(start["id"], start["feedback"], start.get("request"), index)
            elif "cancel" in command and command["cancel"] in effects:
                record = effects[command["cancel"]]
                if record["end"] is None:
                    record["end"], record["endKind"] = index, "cancel"
    return [effects[identifier] for identifier in order]


def _page_data(trace: Trace, diagram_of: Optional[str]) -> Dict[str, Any]:
    names: Dict[str, int] = {}
    statuses: Dict[str, int] = {"ok": 0, "stale": 1}
    columns: Dict[str, List[Any]] = {key: [] for key in ("seq", "input", "status", "name", "effect", "ns", "event", "patch", "effects")}
    sparse: Dict[str, Dict[int, Any]] = {"raw": {}, "message": {}, "queries": {}}
    inputs = {"send": 0, "deliver": 1, "complete": 2}
    for index, step in enumerate(trace.steps):
        columns["seq"].append(step.seq)
        columns["input"].append(inputs[step.input])
        columns["status"].append(statuses.setdefault(step.status, len(statuses)))
        columns["name"].append(names.setdefault(step.name, len(names)))
        columns["effect"].append(-1 if step.effect is None else step.effect)
        columns["ns"].append(-1 if step.ns is None else step.ns)
        columns["event"].append(step.event)
        columns["patch"].append(step.patch)
        columns["effects"].append(step.effects)
        if step.raw is not None:
            sparse["raw"][index] = step.raw
        if step.message is not None:
            sparse["message"][index] = step.message
        if step.queries:
            sparse["queries"][index] = step.queries
    candidates = diagram_candidates(trace)
    if diagram_of is not None and diagram_of not in candidates:
        candidates.insert(0, diagram_of)
    elif diagram_of is not None:
        candidates.remove(diagram_of)
        candidates.insert(0, diagram_of)
    diagrams = []
    for candidate in candidates:
        drawn = state_diagram(trace, candidate)
        diagrams.append({"of": candidate, "title": drawn.title, "labels": [label for label, _ in drawn.nodes],
                         "series": drawn.series, "dot": drawn.to_dot(), "mermaid": drawn.to_mermaid()})
    feedbacks = sorted({effect["feedback"] for effect in _lifetimes(trace)} - {"?"})
    return {
        "meta": {
            "feature": trace.feature,
            "source": trace.source,
            "kind": trace.kind,
            "stateVersion": trace.state_version,
            "problems": [str(problem) for problem in trace.problems],
        },
        "initial": {"state": trace.initial_state, "queries": trace.initial_queries, "effects": trace.initial_effects},
        "names": list(names),
        "statuses": list(statuses),
        "feedbacks": feedbacks,
        "steps": columns,
        "sparse": {key: {str(index): value for index, value in values.items()} for key, values in sparse.items()},
        "lifetimes": _lifetimes(trace),
        "diagrams": diagrams,
    }


def build_report(trace: Trace, *, diagram: Optional[str] = None, title: Optional[str] = None) -> str:
    """The inspector page for ``trace`` as HTML text (one self-contained file).

    Args:
        diagram: what the state diagram shows first (see :func:`state_diagram`);
            every candidate of :func:`diagram_candidates` can be chosen in the page.
        title: the page's title (default: the feature and the source).
    """
    data = _page_data(trace, diagram)
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    # Inside <script>, only "</" and the HTML comment openers can end the element early.
    payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
    page_title = title or f"{trace.feature} · {trace.source or 'trace'}"
    html_title = page_title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    head, tail = PAGE.split("%%DATA%%")
    return head.replace("%%TITLE%%", html_title) + payload + tail.replace("%%TITLE%%", html_title)


def write_report(trace: Trace, path: str, *, diagram: Optional[str] = None, title: Optional[str] = None) -> None:
    """Write :func:`build_report`'s page to ``path``."""
    text = build_report(trace, diagram=diagram, title=title)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
