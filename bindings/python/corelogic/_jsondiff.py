"""JSON Patch (RFC 6902) for traces: the change between two states, and applying it.

Internal. Applying one is :func:`corelogic._patch.apply_patch` (re-exported here).
A trace line carries either the whole state or a patch against the
previous line's state; the trace reader keeps one form (patches) so a long
trace costs the size of its changes, not of its states. Only the operations
the library writes are produced and read: ``add``, ``remove``, ``replace``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from ._patch import PatchError, apply_patch
from ._patch import parse_pointer as pointer_tokens

__all__ = ["PatchError", "apply_patch", "copy_json", "diff", "escape_token", "pointer_tokens"]

Operation = Dict[str, Any]


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (a round trip through the C codec: faster
    than :func:`copy.deepcopy` for plain dicts and lists)."""
    if isinstance(value, (dict, list)):
        return json.loads(json.dumps(value))
    return value


def escape_token(token: str) -> str:
    """One JSON Pointer reference token, escaped (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


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
