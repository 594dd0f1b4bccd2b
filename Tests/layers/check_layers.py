"""Checks that the sources' folders depend on each other only as docs/architecture.md says.

The allowed arrows are the fenced ``layers`` block of docs/architecture.md: one line per
folder (a layer), naming the layers it may use. A file uses a layer when it names a
type, protocol, type alias or top-level function declared there (comments and string
literals are not read), extends one of its types, or imports its module. The check
fails on any arrow the list does not allow, on a folder the list does not name, and on
a name declared in two layers (it could not tell which one a use means).

    python3 Tests/layers/check_layers.py [--graph] [--root DIR]

``--graph`` prints every arrow found, with one file and the name that make it. ``--root``
checks another tree (Tests/layers/test_check_layers.py uses it on small trees of its own).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Dict, List, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if "--root" in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
SOURCES = os.path.join(ROOT, "Sources")
DOC = os.path.join(ROOT, "docs", "architecture.md")

# A declaration at the top level of a file: it starts its line (members are indented).
DECLARATION = re.compile(
    r"^((?:(?:@\w+(?:\([^)\n]*\))?|public|internal|fileprivate|private|package|open|final|indirect|"
    r"nonisolated)[ \t]+)*)(struct|class|enum|protocol|typealias|actor|func|extension)[ \t]+([A-Za-z_]\w*)",
    re.MULTILINE)
IMPORT = re.compile(r"^(?:@\w+(?:\(\w+\))?\s+)*import\s+(\w+)", re.MULTILINE)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def strip_comments_and_strings(text: str) -> str:
    """The code without comments and string literals (their contents never name a type)."""
    out: List[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = n if j < 0 else j + 3
            out.append('""')
        elif text[i] == '"':
            i += 1
            while i < n and text[i] != '"' and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def native_build(text: str) -> str:
    """The code the native library compiles: the branches for the WebAssembly build
    (``#if hasFeature(Embedded)``, the ``#else`` of ``#if !hasFeature(Embedded)``) left out.
    Those branches stand in for files the WebAssembly build leaves out (docs/web.md), so
    they may name what the native layers name without making arrows of their own."""
    out: List[str] = []
    stack: List[Tuple[bool, bool]] = []  # (is an Embedded condition, the branch is Embedded's)
    for line in text.split("\n"):
        directive = line.strip()
        if directive.startswith("#if "):
            condition = directive[4:].split("//")[0].strip()
            embedded = condition in ("hasFeature(Embedded)", "!hasFeature(Embedded)")
            stack.append((embedded, condition == "hasFeature(Embedded)"))
        elif directive.startswith("#else") and stack and stack[-1][0]:
            stack[-1] = (True, not stack[-1][1])
            continue
        elif directive.startswith("#endif") and stack:
            if stack.pop()[0]:
                continue
        if any(embedded and embedded_branch for embedded, embedded_branch in stack):
            continue
        if stack and stack[-1][0] and directive.startswith("#if "):
            continue
        out.append(line)
    return "\n".join(out)


def read_rules() -> Dict[str, Set[str]]:
    with open(DOC, encoding="utf-8") as handle:
        doc = handle.read()
    block = re.search(r"```layers\n(.*?)```", doc, re.DOTALL)
    if not block:
        sys.exit(f"check_layers: no ```layers block in {DOC}")
    rules: Dict[str, Set[str]] = {}
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        layer, _, uses = line.partition(":")
        rules[layer.strip()] = {use.strip() for use in uses.split(",") if use.strip() and use.strip() != "-"}
    for layer, uses in rules.items():
        for use in uses - set(rules):
            sys.exit(f"check_layers: {layer} may use {use}, which the list does not name")
    return rules


def layer_of(path: str, rules: Dict[str, Set[str]]) -> str:
    """The longest folder of the list that holds the file (Sources/ left off)."""
    relative = os.path.relpath(os.path.dirname(path), SOURCES).replace(os.sep, "/")
    best = ""
    for layer in rules:
        if (relative == layer or relative.startswith(layer + "/")) and len(layer) > len(best):
            best = layer
    return best


def main() -> int:
    rules = read_rules()
    files: Dict[str, Tuple[str, str]] = {}
    problems: List[str] = []
    for folder, _, names in os.walk(SOURCES):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            layer = layer_of(path, rules)
            if not layer:
                problems.append(f"{os.path.relpath(path, ROOT)}: its folder is in no layer of the list")
                continue
            with open(path, encoding="utf-8") as handle:
                files[path] = (layer, strip_comments_and_strings(native_build(handle.read())))

    owners: Dict[str, str] = {}
    modules = {layer.split("/")[0] for layer in rules}
    for path, (layer, code) in files.items():
        for modifiers, kind, name in DECLARATION.findall(code):
            # An extension declares no name; a private or fileprivate one is its file's own.
            if kind == "extension" or re.search(r"\b(?:private|fileprivate)\b", modifiers):
                continue
            if name in owners and owners[name] != layer:
                problems.append(f"{name} is declared in both {owners[name]} and {layer}")
            owners.setdefault(name, layer)

    arrows: Dict[Tuple[str, str], str] = {}  # (layer, target) -> "file (name)"
    for path, (layer, code) in sorted(files.items()):
        used: Dict[str, str] = {}  # target layer -> the name that makes the arrow
        for module in IMPORT.findall(code):
            if module in modules and module != layer.split("/")[0]:
                used[module] = "import " + module
        own_module = layer.split("/")[0]
        for token in sorted(set(IDENTIFIER.findall(code))):
            owner = owners.get(token)
            if owner and owner != layer:
                # A name of another module counts only where the file imports that module.
                if owner.split("/")[0] != own_module and owner.split("/")[0] not in used:
                    continue
                used.setdefault(owner, token)
        for target, name in used.items():
            arrows.setdefault((layer, target), f"{os.path.relpath(path, ROOT)}: {name}")

    for (layer, target), example in sorted(arrows.items()):
        if target in modules and target not in rules:
            # `import Module`: allowed when the layer may use some layer of that module.
            if not any(use.startswith(target + "/") for use in rules[layer]):
                problems.append(f"{layer} -> {target} ({example}) is not in the list")
            continue
        if target not in rules[layer]:
            problems.append(f"{layer} -> {target} (first in {example}) is not in the list")
    if "--graph" in sys.argv:
        for (layer, target), example in sorted(arrows.items()):
            print(f"{layer} -> {target}    ({example})")
    for problem in problems:
        print("check_layers:", problem)
    if not problems:
        print(f"check_layers: {len(files)} files, {len(arrows)} arrows, all in docs/architecture.md's list")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
