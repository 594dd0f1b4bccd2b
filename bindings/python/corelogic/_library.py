"""Finding, loading and describing ``libcorelogic``.

Internal: users call :func:`corelogic.load_library` or pass ``library=`` to
:class:`corelogic.System`; nobody needs to touch ctypes.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from . import _header
from .errors import LibraryError, error_for_status

#: The C ABI version this binding is written for (``CORELOGIC_ABI_VERSION`` of
#: include/corelogic.h); ``corelogic_abi_version()`` of the loaded library must
#: return exactly this.
ABI_VERSION: int = _header.ABI_VERSION

#: The environment variable naming the shared library to load.
ENVIRONMENT_VARIABLE = "CORELOGIC_LIBRARY"

if sys.platform == "darwin":
    LIBRARY_FILE = "libcorelogic.dylib"
elif sys.platform == "win32":
    LIBRARY_FILE = "corelogic.dll"
else:
    LIBRARY_FILE = "libcorelogic.so"

PathLike = Union[str, "os.PathLike[str]"]

# void (*)(void *context, const char *json): both handler kinds have this shape.
CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)

_u64 = ctypes.c_uint64
_int = ctypes.c_int
_str = ctypes.c_char_p
_out = ctypes.POINTER(ctypes.c_void_p)

# name: (restype, argtypes): every function of include/corelogic.h the binding
# calls. A new one goes here and gets an attribute annotation on Library.
_PROTOTYPES: Dict[str, Any] = {
    "corelogic_version": (ctypes.c_char_p, []),
    "corelogic_abi_version": (_int, []),
    "corelogic_status_name": (ctypes.c_char_p, [_int]),
    "corelogic_last_error": (ctypes.c_char_p, []),
    "corelogic_free": (None, [ctypes.c_void_p]),
    "corelogic_features": (_int, [_out]),
    "corelogic_feature_schema": (_int, [_str, _out]),
    "corelogic_system_new": (_int, [_str, _str, ctypes.POINTER(_u64), _out]),
    "corelogic_system_free": (_int, [_u64]),
    "corelogic_system_send": (_int, [_u64, _str, _out]),
    "corelogic_system_deliver": (_int, [_u64, _u64, _str, _out]),
    "corelogic_system_complete": (_int, [_u64, _u64, _out]),
    "corelogic_system_state": (_int, [_u64, _out]),
    "corelogic_system_query": (_int, [_u64, _str, _out]),
    "corelogic_system_effects": (_int, [_u64, _out]),
    "corelogic_system_check": (_int, [_u64, _out]),
    "corelogic_system_on_command": (_int, [_u64, CALLBACK, ctypes.c_void_p]),
    "corelogic_system_on_state": (_int, [_u64, CALLBACK, ctypes.c_void_p]),
    "corelogic_system_open_journal": (_int, [_u64, _str, _int]),
    "corelogic_system_checkpoint": (_int, [_u64]),
    "corelogic_system_sync_journal": (_int, [_u64]),
    "corelogic_system_close_journal": (_int, [_u64]),
    "corelogic_system_restore": (_int, [_str, _str, ctypes.POINTER(_u64), _out, _out]),
    "corelogic_system_set_output": (_int, [_u64, _int, _out]),
    "corelogic_system_resync": (_int, [_u64, _out]),
    "corelogic_system_watch_queries": (_int, [_u64, _str, _out]),
    "corelogic_system_trace": (_int, [_u64, _str]),
}


class Library:
    """A loaded ``libcorelogic`` with its C functions bound and typed.

    Loading checks ``corelogic_abi_version()`` against :data:`ABI_VERSION` and
    raises :class:`~corelogic.LibraryError` when they differ. The C functions
    are attributes of the same name (``lib.corelogic_system_send``); they are
    internal to the package.
    """

    path: str
    # The bound C functions (set in __init__ from _PROTOTYPES).
    corelogic_version: Any
    corelogic_abi_version: Any
    corelogic_status_name: Any
    corelogic_last_error: Any
    corelogic_free: Any
    corelogic_features: Any
    corelogic_feature_schema: Any
    corelogic_system_new: Any
    corelogic_system_free: Any
    corelogic_system_send: Any
    corelogic_system_deliver: Any
    corelogic_system_complete: Any
    corelogic_system_state: Any
    corelogic_system_query: Any
    corelogic_system_effects: Any
    corelogic_system_check: Any
    corelogic_system_on_command: Any
    corelogic_system_on_state: Any
    corelogic_system_open_journal: Any
    corelogic_system_checkpoint: Any
    corelogic_system_sync_journal: Any
    corelogic_system_close_journal: Any
    corelogic_system_restore: Any
    corelogic_system_set_output: Any
    corelogic_system_resync: Any
    corelogic_system_watch_queries: Any
    corelogic_system_trace: Any

    def __init__(self, path: PathLike, *, abi_version: int = ABI_VERSION) -> None:
        self.path = os.fspath(path)
        try:
            # CDLL releases the GIL during each call: other Python threads run
            # while one waits for the system, and callbacks can take the GIL.
            self._dll = ctypes.CDLL(self.path)
        except OSError as exc:
            raise LibraryError(f"cannot load {self.path}: {exc}") from exc
        missing = []
        for name, (restype, argtypes) in _PROTOTYPES.items():
            try:
                function = getattr(self._dll, name)
            except AttributeError:
                missing.append(name)
                continue
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)
        if "corelogic_abi_version" in missing:
            raise LibraryError(f"{self.path} is not libcorelogic: no corelogic_abi_version()")
        found = self.abi_version()
        if found != abi_version:
            raise LibraryError(
                f"{self.path} has C ABI version {found}, but this corelogic binding "
                f"needs version {abi_version}; install matching versions of the "
                f"library and the Python package"
            )
        if missing:
            raise LibraryError(f"{self.path} lacks {', '.join(missing)}")

    def __repr__(self) -> str:
        return f"<corelogic.Library {self.path!r}>"

    # -- the small, non-hot-path helpers ------------------------------------

    def abi_version(self) -> int:
        """Return ``corelogic_abi_version()``."""
        return int(self._dll.corelogic_abi_version())

    def version(self) -> str:
        """Return the library's version, ``"MAJOR.MINOR.PATCH"``."""
        raw = self._dll.corelogic_version()
        return raw.decode("utf-8") if raw else ""

    def features(self) -> List[Dict[str, Any]]:
        """Return ``corelogic_features()`` parsed: one ``dict`` per feature."""
        out = ctypes.c_void_p()
        status = self.corelogic_features(ctypes.byref(out))
        if status:
            raise self.error(status)
        return json.loads(self.take(out.value))  # type: ignore[no-any-return]

    def feature_schema(self, feature: str) -> Dict[str, Any]:
        """Return ``corelogic_feature_schema(feature)`` parsed: the feature's JSON
        Schema (draft 2020-12), derived from its Swift types (docs/schemas.md)."""
        out = ctypes.c_void_p()
        status = self.corelogic_feature_schema(feature.encode("utf-8"), ctypes.byref(out))
        if status:
            raise self.error(status)
        return json.loads(self.take(out.value))  # type: ignore[no-any-return]

    def status_name(self, status: int) -> str:
        """Return the C constant's name for ``status``, e.g. ``CORELOGIC_ERR_SCHEMA``."""
        raw = self._dll.corelogic_status_name(status)
        return raw.decode("utf-8") if raw else f"status {status}"

    def last_error(self) -> str:
        """Return this thread's last error message from the library."""
        raw = self._dll.corelogic_last_error()
        return raw.decode("utf-8", "replace") if raw else ""

    def error(self, status: int) -> Exception:
        """Build the exception for a failed call made on this thread."""
        return error_for_status(status, self.last_error())

    def take(self, pointer: Optional[int]) -> bytes:
        """Copy a string the library returned and free it."""
        if not pointer:
            return b""
        try:
            return ctypes.string_at(pointer)
        finally:
            self._dll.corelogic_free(pointer)


def candidates() -> List[str]:
    """Return the paths tried, in order, when no explicit path is given.

    1. the ``CORELOGIC_LIBRARY`` environment variable (an app's library, e.g.
       ``libmyapp.so``, docs/adopting.md);
    2. a copy inside the installed package (``corelogic/libcorelogic.so``), as a
       wheel made for an app carries it.
    """
    found: List[str] = []
    env = os.environ.get(ENVIRONMENT_VARIABLE)
    if env:
        found.append(env)
    found.append(str(Path(__file__).resolve().parent / LIBRARY_FILE))
    return found


def find_library_path(path: Optional[PathLike] = None) -> str:
    """Return the library path to load: ``path`` if given, else the first of
    :func:`candidates` that exists. Raises :class:`~corelogic.LibraryError`
    listing every place tried when none does."""
    if path is not None:
        return os.fspath(path)
    env = os.environ.get(ENVIRONMENT_VARIABLE)
    if env:
        # An explicit setting that points nowhere is an error, not a hint.
        if not os.path.exists(env):
            raise LibraryError(f"{ENVIRONMENT_VARIABLE}={env} does not exist")
        return env
    tried = candidates()
    for candidate in tried:
        if os.path.exists(candidate):
            return candidate
    raise LibraryError(
        f"no library to load; tried: {', '.join(tried)}. Pass the path of an app's library "
        f"(one built on corelogic, docs/adopting.md) or set {ENVIRONMENT_VARIABLE} to it"
    )


_loaded: Dict[str, Library] = {}
_lock = threading.Lock()


def load_library(path: Optional[PathLike] = None) -> Library:
    """Load ``libcorelogic`` (once per path) and return it.

    The library is searched, in order: ``path``; the ``CORELOGIC_LIBRARY``
    environment variable; ``libcorelogic.so`` inside the installed package. Raises
    :class:`~corelogic.LibraryError` if it is not found, cannot be loaded, or
    has an ABI version other than :data:`ABI_VERSION`.
    """
    resolved = os.path.realpath(find_library_path(path))
    library = _loaded.get(resolved)
    if library is not None:
        return library
    with _lock:
        library = _loaded.get(resolved)
        if library is None:
            library = Library(resolved)
            _loaded[resolved] = library
        return library
