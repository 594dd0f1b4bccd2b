"""JSON Patch (RFC 6902) for traces: the change between two states, and applying it.

Internal. A trace line carries either the whole state or a patch against the
previous line's state; the trace reader keeps one form (patches) so a long
trace costs the size of its changes, not of its states. Only the operations
the library writes are produced and read: ``add``, ``remove``, ``replace``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

__all__ = ["PatchError", "apply_patch", "copy_json", "diff", "escape_token", "pointer_tokens"]

Operation = Dict[str, Any]


class PatchError(ValueError):
    """A patch that is malformed or does not apply to the document."""


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (a round trip through the C codec: faster
    than :func:`copy.deepcopy` for plain dicts and lists)."""
    if isinstance(value, (dict, list)):
        return json.loads(json.dumps(value))
    return value


def escape_token(token: str) -> str:
    """One JSON Pointer reference token, escaped (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer_tokens(pointer: str) -> List[str]:
    """The unescaped tokens of a JSON Pointer; ``""`` is the whole document."""
    if not isinstance(pointer, str):
        raise PatchError(f"a path must be a string, not {type(pointer).__name__}")
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"path {pointer!r} must be empty or start with '/'")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def diff(before: Any, after: Any, path: str = "") -> List[Operation]:
    """The operations that turn ``before`` into ``after`` (neither is changed).

    Objects are compared member by member; arrays keep their common head and
    tail and change only the middle (an append is one ``add`` at ``/-``).
    """
    out: List[Operation] = []
    _diff(before, after, path, out)
    return out


def _diff(a: Any, b: Any, path: str, out: List[Operation]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append({"op": "remove", "path": f"{path}/{escape_token(key)}"})
        for key, value in b.items():
            child = f"{path}/{escape_token(key)}"
            if key in a:
                _diff(a[key], value, child, out)
            else:
                out.append({"op": "add", "path": child, "value": value})
        return
    if isinstance(a, list) and isinstance(b, list):
        _diff_list(a, b, path, out)
        return
    if not _same_json(a, b):
        out.append({"op": "replace", "path": path, "value": b})


def _diff_list(a: List[Any], b: List[Any], path: str, out: List[Operation]) -> None:
    la, lb = len(a), len(b)
    head = 0
    while head < la and head < lb and _same_json(a[head], b[head]):
        head += 1
    tail = 0
    while tail < la - head and tail < lb - head and _same_json(a[la - 1 - tail], b[lb - 1 - tail]):
        tail += 1
    middle_a, middle_b = la - head - tail, lb - head - tail
    common = min(middle_a, middle_b)
    for offset in range(common):
        _diff(a[head + offset], b[head + offset], f"{path}/{head + offset}", out)
    if middle_a > middle_b:
        for _ in range(middle_a - middle_b):
            out.append({"op": "remove", "path": f"{path}/{head + common}"})
    elif middle_b > middle_a:
        for offset in range(common, middle_b):
            index = head + offset
            # With no common tail the insertion point is the end: an append.
            target = "-" if tail == 0 else str(index)
            out.append({"op": "add", "path": f"{path}/{target}", "value": b[index]})


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's ``==`` alone says ``True == 1``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(value, b[key]) for key, value in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return bool(a == b)


def apply_patch(document: Any, patch: List[Operation]) -> Any:
    """Apply ``patch`` to ``document`` in place and return the result (a new
    value only when an operation replaces the whole document). Values are
    copied in, so the patch itself never changes and can be applied again.

    All or nothing: if an operation fails, the ones before it are undone and
    :class:`PatchError` is raised with ``document`` as it was.
    """
    if not isinstance(patch, list):
        raise PatchError(f"a patch must be an array, not {type(patch).__name__}")
    undo: List[Tuple[Any, ...]] = []
    original = document
    try:
        for operation in patch:
            document = _apply_one(document, operation, undo)
    except PatchError:
        for entry in reversed(undo):
            _undo(entry)
        raise
    del original
    return document


def _undo(entry: Tuple[Any, ...]) -> None:
    kind, parent, key, value = entry
    if kind == "set":          # an object member or array element had `value`
        parent[key] = value
    elif kind == "delete":     # an object member was added
        del parent[key]
    elif kind == "pop":        # an array element was inserted at `key`
        del parent[key]
    elif kind == "insert":     # an array element was removed from `key`
        parent.insert(key, value)


def _apply_one(document: Any, operation: Any, undo: List[Tuple[Any, ...]]) -> Any:
    if not isinstance(operation, dict):
        raise PatchError(f"a patch operation must be an object, not {type(operation).__name__}")
    op = operation.get("op")
    if op not in ("add", "remove", "replace"):
        raise PatchError(f"unsupported patch operation {op!r}")
    tokens = pointer_tokens(operation.get("path"))  # type: ignore[arg-type]
    if op != "remove" and "value" not in operation:
        raise PatchError(f"{op} at {operation.get('path')!r} has no value")
    if not tokens:
        if op == "remove":
            raise PatchError("cannot remove the whole document")
        # The old document stays whole: undoing is returning it, which the caller's
        # exception path does by never using the new one.
        return copy_json(operation["value"])
    parent = document
    for token in tokens[:-1]:
        parent = _child(parent, token, operation["path"])
    last = tokens[-1]
    if isinstance(parent, dict):
        if op == "add":
            undo.append(("set", parent, last, parent[last]) if last in parent else ("delete", parent, last, None))
            parent[last] = copy_json(operation["value"])
        elif last not in parent:
            raise PatchError(f"{op} at {operation['path']!r}: no member {last!r}")
        elif op == "remove":
            undo.append(("set", parent, last, parent[last]))
            del parent[last]
        else:
            undo.append(("set", parent, last, parent[last]))
            parent[last] = copy_json(operation["value"])
    elif isinstance(parent, list):
        if op == "add":
            index = len(parent) if last == "-" else _index(last, len(parent) + 1, operation["path"])
            parent.insert(index, copy_json(operation["value"]))
            undo.append(("pop", parent, index, None))
        else:
            index = _index(last, len(parent), operation["path"])
            if op == "remove":
                undo.append(("insert", parent, index, parent[index]))
                del parent[index]
            else:
                undo.append(("set", parent, index, parent[index]))
                parent[index] = copy_json(operation["value"])
    else:
        raise PatchError(f"{op} at {operation['path']!r}: the parent is not an object or array")
    return document


def _index(token: str, length: int, pointer: str) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"path {pointer!r}: {token!r} is not an array index")
    index = int(token)
    if index >= length:
        raise PatchError(f"path {pointer!r}: index {index} is out of range")
    return index


def _child(parent: Any, token: str, pointer: str) -> Any:
    if isinstance(parent, dict):
        if token not in parent:
            raise PatchError(f"path {pointer!r}: no member {token!r}")
        return parent[token]
    if isinstance(parent, list):
        return parent[_index(token, len(parent), pointer)]
    raise PatchError(f"path {pointer!r}: {token!r} is below a value that is not an object or array")
