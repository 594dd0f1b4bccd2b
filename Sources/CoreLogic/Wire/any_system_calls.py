"""Writes AnySystem+Calls.swift, the closures behind AnySystem, from AnySystem.swift.

Each call of ``AnySystem`` is declared once, in AnySystem.swift, on a ``// calls.`` line
just above the public method that uses it (a comment, so the doc comment above it stays
the method's). The line reads like a function: the closure's name, its parameters, its
effects and result (``-> Void`` when left out), and its body, where ``typed`` is the
``WireSystem<F>``; a line that does not end the body with ``}`` goes on on the next
``//`` lines:

    // calls.writeQuery(name: String, sink: JSONSink) throws(CoreLogicFailure) { try typed.writeQuery(name, to: sink) }

From these lines this script writes the struct ``AnySystem.Calls``, one stored closure
per line, and its initializer from a ``WireSystem<F>``, which makes each closure with the
body as written. A call inside ``#if`` (the native build's journals and traces) is
inside the same ``#if`` in both.

    python3 Sources/CoreLogic/Wire/any_system_calls.py [--check] [--root DIR]

``--check`` writes nothing and fails, saying how to regenerate, when the committed file
is not what this script writes. ``--root`` reads and writes another tree
(Tests/layers/test_any_system_calls.py uses it on small trees of its own).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Callable, List, NamedTuple, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if "--root" in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
WIRE = "Sources/CoreLogic/Wire"
SOURCE = f"{WIRE}/AnySystem.swift"
OUTPUT = f"{WIRE}/AnySystem+Calls.swift"
SCRIPT = f"{WIRE}/any_system_calls.py"
REGENERATE = f"python3 {SCRIPT}"

MARKER = re.compile(r"^\s*// calls\.")
COMMENT = re.compile(r"^\s*//(?!/)")
# A generated closure longer than this has its body on a line of its own.
LINE = 120


class Call(NamedTuple):
    name: str
    parameters: List[Tuple[str, str]]  # (name, type)
    effects: str  # "throws(CoreLogicFailure)" or ""
    result: str
    body: str
    conditions: Tuple[str, ...]  # the #if conditions around it, outermost first


class Failure(Exception):
    pass


def split_top_level(text: str) -> List[str]:
    """``text`` cut at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([<":
            depth += 1
        elif char in ")]>" and not (char == ">" and text[i - 1] == "-"):
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def parse(declaration: str, where: str, conditions: Tuple[str, ...]) -> Call:
    """One ``calls.`` line, its comment slashes and the ``calls.`` left off."""
    name = re.match(r"[A-Za-z_]\w*", declaration)
    if not name or declaration[name.end():name.end() + 1] != "(":
        raise Failure(f"{where}: expected `// calls.NAME(PARAMETERS) ... {{ BODY }}`")
    depth, i = 0, name.end()
    while i < len(declaration):
        depth += {"(": 1, ")": -1}.get(declaration[i], 0)
        if depth == 0:
            break
        i += 1
    if depth:
        raise Failure(f"{where}: the parameters of `{name.group()}` are not closed")
    parameters: List[Tuple[str, str]] = []
    for parameter in split_top_level(declaration[name.end() + 1:i]):
        label, colon, type_ = parameter.partition(":")
        if not colon or not re.fullmatch(r"[A-Za-z_]\w*", label.strip()):
            raise Failure(f"{where}: parameter `{parameter}` of `{name.group()}` is not `name: Type`")
        parameters.append((label.strip(), type_.strip()))
    rest = declaration[i + 1:]
    brace = rest.find("{")
    if brace < 0 or not rest.rstrip().endswith("}"):
        raise Failure(f"{where}: `{name.group()}` has no body `{{ ... }}`")
    signature, body = rest[:brace].strip(), rest[brace + 1:].rstrip()[:-1].strip()
    effects, arrow, result = signature.partition("->")
    if not body:
        raise Failure(f"{where}: `{name.group()}` has an empty body")
    return Call(name.group(), parameters, effects.strip(), result.strip() if arrow else "Void", body, conditions)


def read_calls(text: str) -> List[Call]:
    calls: List[Call] = []
    conditions: List[str] = []
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        line = lines[number]
        directive = line.strip()
        if directive.startswith("#if "):
            conditions.append(directive[4:].split("//")[0].strip())
        elif directive.startswith("#else") and conditions:  # #else and #elseif
            # Its branch's condition is not the #if's: say it, rather than write it wrong.
            conditions[-1] = f"<#else of {conditions[-1]}>"
        elif directive.startswith("#endif") and conditions:
            conditions.pop()
        if not MARKER.match(line):
            number += 1
            continue
        where = f"{SOURCE}:{number + 1}"
        text_of_call = MARKER.sub("", line, count=1).strip()
        number += 1
        while not text_of_call.endswith("}") and number < len(lines) and COMMENT.match(lines[number]):
            text_of_call += " " + COMMENT.sub("", lines[number], count=1).strip()
            number += 1
        if any(condition.startswith("<#else") for condition in conditions):
            raise Failure(f"{where}: a `calls.` line in an #else branch; put it under an #if of its own")
        call = parse(text_of_call, where, tuple(conditions))
        if any(other.name == call.name for other in calls):
            raise Failure(f"{where}: `calls.{call.name}` is declared twice")
        calls.append(call)
    if not calls:
        raise Failure(f"{SOURCE}: no `// calls.` line")
    return calls


def closure_type(call: Call) -> str:
    effects = f" {call.effects}" if call.effects else ""
    return f"({', '.join(type_ for _, type_ in call.parameters)}){effects} -> {call.result}"


def closure_head(call: Call) -> str:
    """What goes before `in`, or "" when the closure needs none."""
    if not call.parameters and not call.effects:
        return ""
    effects = f" {call.effects}" if call.effects else ""
    return f"({', '.join(name for name, _ in call.parameters)}){effects} in"


def by_conditions(calls: List[Call], indent: str, line_of: Callable[[Call], List[str]]) -> List[str]:
    """Each call's lines, consecutive calls under the same #if conditions grouped."""
    out: List[str] = []
    open_conditions: Tuple[str, ...] = ()
    for call in calls + [Call("", [], "", "", "", ())]:
        if call.conditions != open_conditions:
            shared = 0
            while (shared < min(len(open_conditions), len(call.conditions))
                   and open_conditions[shared] == call.conditions[shared]):
                shared += 1
            out.extend(f"{indent}#endif" for _ in open_conditions[shared:])
            out.extend(f"{indent}#if {condition}" for condition in call.conditions[shared:])
            open_conditions = call.conditions
        if call.name:
            out.extend(indent + line for line in line_of(call))
    return out


def field(call: Call) -> List[str]:
    return [f"var {call.name}: {closure_type(call)}"]


# Where the initializer writes each closure: inside the extension, the struct and its init.
ASSIGNMENT_INDENT = " " * 12


def assignment(call: Call) -> List[str]:
    head = closure_head(call)
    one_line = f"{call.name} = {{ {head + ' ' if head else ''}{call.body} }}"
    if len(ASSIGNMENT_INDENT + one_line) <= LINE:
        return [one_line]
    return [f"{call.name} = {{{' ' + head if head else ''}", f"    {call.body}", "}"]


def generate(calls: List[Call]) -> str:
    header = f"""\
// Generated by {SCRIPT} from the `// calls.` lines of
// AnySystem.swift: do not edit. To regenerate it after changing one of those lines:
// `{REGENERATE}` (`make test-layers` fails while
// this file is stale).

extension AnySystem {{
    /// One closure per call, each over the same typed system (see ``AnySystem``).
    struct Calls {{
"""
    middle = """\

        // Called where the feature's type is known (`AnySystem.init(_:)` with a concrete `F`),
        // so the code behind each closure is specialized for that feature.
        init<F: Feature>(_ typed: WireSystem<F>) {
"""
    footer = """\
        }
    }
}
"""
    return (header + "\n".join(by_conditions(calls, " " * 8, field)) + "\n" + middle
            + "\n".join(by_conditions(calls, ASSIGNMENT_INDENT, assignment)) + "\n" + footer)


def main() -> int:
    check = "--check" in sys.argv
    try:
        with open(os.path.join(ROOT, SOURCE), encoding="utf-8") as handle:
            text = generate(read_calls(handle.read()))
    except Failure as failure:
        print(f"any_system_calls: {failure}", file=sys.stderr)
        return 2
    path = os.path.join(ROOT, OUTPUT)
    if check:
        try:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            current = None
        if current != text:
            state = "is missing" if current is None else "is not what AnySystem.swift's `// calls.` lines make"
            print(f"any_system_calls: {OUTPUT} {state}: regenerate it with `{REGENERATE}`", file=sys.stderr)
            return 1
        print(f"any_system_calls: {OUTPUT} is current")
        return 0
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"any_system_calls: wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
