"""corelogic: drive a corelogic feature (business logic written once, in Swift)
from Python.

>>> import corelogic
>>> with corelogic.System("counter") as counter:
...     counter.send("increment").state
{'count': 1}

The host performs every effect. A :class:`System` says which effects must be
running (``start``/``cancel`` commands); :class:`AsyncRunner` and
:class:`ThreadRunner` run them with Python handlers and feed their results back.

The library is an app's own, built on corelogic (docs/adopting.md): it is found,
in order, through an explicit ``library=`` argument, the ``CORELOGIC_LIBRARY``
environment variable, and a copy inside this package.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from . import _header
from ._library import ABI_VERSION, ENVIRONMENT_VARIABLE, Library, PathLike, load_library
from .errors import (
    ArgumentError,
    CorelogicError,
    CorruptError,
    HandleError,
    JSONError,
    LibraryError,
    NotFoundError,
    OutOfMemoryError,
    SchemaError,
    StorageError,
)
from ._patch import PatchError, apply_patch
from .runners import AsyncRunner, CancellationToken, ThreadRunner
from .system import (
    DURABILITY_EVERY_INPUT,
    DURABILITY_INTERVAL,
    OUTPUT_MODES,
    STALE,
    Batch,
    Command,
    Event,
    Stale,
    SupportsFromJSON,
    SupportsToJSON,
    System,
)

__all__ = [
    "ABI_VERSION",
    "ENVIRONMENT_VARIABLE",
    "AsyncRunner",
    "ArgumentError",
    "Batch",
    "CancellationToken",
    "Command",
    "CorelogicError",
    "CorruptError",
    "DURABILITY_EVERY_INPUT",
    "DURABILITY_INTERVAL",
    "Event",
    "HandleError",
    "OutOfMemoryError",
    "JSONError",
    "Library",
    "LibraryError",
    "NotFoundError",
    "OUTPUT_MODES",
    "PatchError",
    "STALE",
    "SchemaError",
    "Stale",
    "StorageError",
    "SupportsFromJSON",
    "SupportsToJSON",
    "System",
    "ThreadRunner",
    "abi_version",
    "apply_patch",
    "feature_schema",
    "features",
    "load_library",
    "version",
]

# The C header's CORELOGIC_VERSION_STRING (corelogic/_header.py reads it; pyproject.toml
# versions the package from the same place).
__version__: str = _header.VERSION

LibraryArgument = Optional[Union[Library, PathLike]]


def _resolve(library: LibraryArgument) -> Library:
    return library if isinstance(library, Library) else load_library(library)


def features(library: LibraryArgument = None) -> List[Dict[str, Any]]:
    """Describe every feature the library holds:
    ``[{"name": "counter", "events": [...], "feedbacks": [{"name", "kind"}],
    "queries": [...], "invariants": [...], "stateVersion": 1}, ...]``."""
    return _resolve(library).features()


def feature_schema(feature: str, library: LibraryArgument = None) -> Dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``feature``'s state, events, requests,
    query values and batches, derived from its Swift types. Entry points are in
    ``$defs``: ``state``, ``event``, ``request.<feedback>``, ``query.<name>``,
    ``command``, ``batch`` (docs/schemas.md). Raises
    :class:`NotFoundError` for an unknown feature."""
    return _resolve(library).feature_schema(feature)


def version(library: LibraryArgument = None) -> str:
    """The library's version, ``"MAJOR.MINOR.PATCH"``."""
    return _resolve(library).version()


def abi_version(library: LibraryArgument = None) -> int:
    """The loaded library's C ABI version (always :data:`ABI_VERSION`, since
    loading a library with another version raises :class:`LibraryError`)."""
    return _resolve(library).abi_version()
