"""JSON Patch (RFC 6902: ``add``, ``remove``, ``replace``) applied in place:
the binding's one patch applier and its one :class:`PatchError`.

A :class:`~corelogic.System` in patch mode keeps a mirror of the state and
applies each patch the library emits to it with :func:`apply_patch`; traces
(``corelogic.trace``) apply theirs with it too. Each operation costs what it
touches (an append at ``/items/-`` is a ``list.append``), so keeping the mirror
costs the size of the change, not of the state. Why not the ``jsonpatch``
package: it is atomic only by copying the whole document first (``in_place=False``),
which makes every patch cost the size of the state, and it applies ``move``,
``copy`` and ``test``, which the library never emits. Tests/hosts/patch_cases.json
holds the cases every host's applier follows.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["PatchError", "apply_patch", "apply_patch_unlogged", "parse_pointer", "member_key"]


class PatchError(ValueError):
    """A patch that is malformed or does not apply to the document."""


def parse_pointer(pointer: str) -> List[str]:
    """The reference tokens of a JSON Pointer (RFC 6901), unescaped.

    ``""`` is the whole document (no tokens); otherwise the pointer starts
    with ``/``; in a token ``~1`` stands for ``/`` and ``~0`` for ``~``.
    """
    if not isinstance(pointer, str):
        raise PatchError(f"a path must be a string, not {type(pointer).__name__}")
    if pointer == "":
        return []
    if pointer[0] != "/":
        raise PatchError(f"path {pointer!r} must be empty or start with '/'")
    tokens = pointer[1:].split("/")
    if "~" not in pointer:
        return tokens
    unescaped = []
    for token in tokens:
        index = token.find("~")
        while index != -1:
            if index + 1 >= len(token) or token[index + 1] not in "01":
                raise PatchError(f"path {pointer!r}: '~' must be followed by '0' or '1'")
            index = token.find("~", index + 2)
        unescaped.append(token.replace("~1", "/").replace("~0", "~"))
    return unescaped


# "/count" -> "count": the pointers of top-level members, the most frequent ones in the
# library's patches, read once; bounded, since a state has a fixed set of members.
MEMBER_KEYS: Dict[str, str] = {}
_MEMBER_KEYS_MAX = 1024


def member_key(pointer: Any) -> Any:
    """The member name a pointer of one token without escapes names (``"/count"`` ->
    ``"count"``), else ``None``. Hot callers read :data:`MEMBER_KEYS` first."""
    if type(pointer) is not str or pointer[:1] != "/" or pointer.find("/", 1) >= 0 or "~" in pointer:
        return None
    key = pointer[1:]
    if len(MEMBER_KEYS) < _MEMBER_KEYS_MAX:
        MEMBER_KEYS[pointer] = key
    return key


def _index(token: str, length: int, pointer: str, allow_end: bool) -> int:
    """An array index token: ``0`` or digits without a leading zero; ``-`` (the
    position past the end) and ``length`` itself only where ``allow_end``."""
    if token == "-" and allow_end:
        return length
    if not token.isdigit() or not token.isascii() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"path {pointer!r}: {token!r} is not an array index")
    index = int(token)
    if index > length or (index == length and not allow_end):
        raise PatchError(f"path {pointer!r}: index {index} is out of range (the array has {length} elements)")
    return index


def _parent(document: Any, tokens: Sequence[str], pointer: str) -> Any:
    """The container the last token of ``pointer`` names a member of."""
    node = document
    for token in tokens[:-1]:
        if type(node) is dict:
            try:
                node = node[token]
            except KeyError:
                raise PatchError(f"path {pointer!r}: no member {token!r}") from None
        elif type(node) is list:
            node = node[_index(token, len(node), pointer, allow_end=False)]
        else:
            raise PatchError(f"path {pointer!r}: {token!r} goes into a value that is neither an object nor an array")
    return node


def apply_patch(document: Any, patch: Sequence[Dict[str, Any]], *, copy_values: bool = False) -> Any:
    """Apply ``patch`` (a list of operations) to ``document`` in place and
    return the result (a new object only when an operation replaces the whole
    document, path ``""``).

    All or nothing: if an operation fails, the ones before it are undone (in
    reverse, from a log of what each changed, so a patch still costs what it
    touches) and :class:`PatchError` is raised with ``document`` as it was.

    The values the patch carries become part of the document unless
    ``copy_values`` (then the patch can be applied again, as a trace does).

    Raises:
        PatchError: a malformed operation, or one that does not apply (a
            missing member, an index out of range, a missing ``"value"``, an
            op other than ``add``, ``remove`` and ``replace``).
    """
    undo: List[Tuple[Any, ...]] = []
    try:
        return apply_patch_unlogged(document, patch, undo, copy_values)
    except PatchError:
        for kind, parent, key, value in reversed(undo):
            if kind == "set":
                parent[key] = value
            elif kind == "delete":
                del parent[key]
            else:  # "insert": an array element was removed from `key`
                parent.insert(key, value)
        raise


def apply_patch_unlogged(document: Any, patch: Sequence[Dict[str, Any]],
                         undo: Optional[List[Tuple[Any, ...]]] = None, copy_values: bool = False) -> Any:
    """:func:`apply_patch` without its undo log, for a caller that replaces
    ``document`` when a patch fails (the state mirror resyncs from the
    library): an operation that fails leaves the ones before it applied.
    (:func:`apply_patch` passes its log as ``undo``.)"""
    if not isinstance(patch, list):
        raise PatchError(f"a patch is a list of operations, not {type(patch).__name__}")
    result = document
    keys = MEMBER_KEYS
    for operation in patch:
        # The most frequent operations, on a member of the top-level object (a field
        # replaced, an optional one added or removed), in line: the general path costs
        # several calls.
        if type(operation) is dict and type(result) is dict and not copy_values:
            pointer = operation.get("path")
            key = keys.get(pointer) if type(pointer) is str else None
            if key is None:
                key = member_key(pointer)
            if key is not None:
                op = operation.get("op")
                present = key in result
                if op == "replace" and present and "value" in operation:
                    if undo is not None:
                        undo.append(("set", result, key, result[key]))
                    result[key] = operation["value"]
                    continue
                if op == "add" and "value" in operation:
                    if undo is not None:
                        undo.append(("set", result, key, result[key]) if present else ("delete", result, key, None))
                    result[key] = operation["value"]
                    continue
                if op == "remove" and present:
                    if undo is not None:
                        undo.append(("set", result, key, result[key]))
                    del result[key]
                    continue
        # The general path logs always (into a list dropped at once when unlogged).
        result = _apply_one(result, operation, [] if undo is None else undo, copy_values)
    return result


def _apply_one(document: Any, operation: Any, undo: List[Tuple[Any, ...]], copy_values: bool) -> Any:
    if type(operation) is not dict:
        raise PatchError(f"a patch operation is an object, not {type(operation).__name__}")
    op = operation.get("op")
    if op not in ("add", "remove", "replace"):
        raise PatchError(f"unsupported op {op!r} (add, remove and replace are supported)")
    pointer = operation.get("path")
    if not isinstance(pointer, str):
        raise PatchError(f"{op}: \"path\" must be a string")
    tokens = parse_pointer(pointer)
    if op != "remove" and "value" not in operation:
        raise PatchError(f"{op} {pointer!r}: \"value\" is missing")
    value = operation.get("value")
    if copy_values and isinstance(value, (dict, list)):
        value = json.loads(json.dumps(value))
    if not tokens:
        if op == "remove":
            raise PatchError("cannot remove the whole document")
        # The old document stays whole: a failure later returns it, never this one.
        return value
    parent = _parent(document, tokens, pointer)
    last = tokens[-1]
    if type(parent) is dict:
        if op == "add":
            undo.append(("set", parent, last, parent[last]) if last in parent else ("delete", parent, last, None))
            parent[last] = value
        elif last not in parent:
            raise PatchError(f"{op} {pointer!r}: no member {last!r} to {op}")
        elif op == "replace":
            undo.append(("set", parent, last, parent[last]))
            parent[last] = value
        else:
            undo.append(("set", parent, last, parent[last]))
            del parent[last]
    elif type(parent) is list:
        if op == "add":
            index = _index(last, len(parent), pointer, allow_end=True)
            parent.insert(index, value)
            undo.append(("delete", parent, index, None))
        elif op == "replace":
            index = _index(last, len(parent), pointer, allow_end=False)
            undo.append(("set", parent, index, parent[index]))
            parent[index] = value
        else:
            index = _index(last, len(parent), pointer, allow_end=False)
            undo.append(("insert", parent, index, parent[index]))
            del parent[index]
    else:
        raise PatchError(f"path {pointer!r}: {last!r} goes into a value that is neither an object nor an array")
    return document
