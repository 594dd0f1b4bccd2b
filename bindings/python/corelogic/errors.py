"""Status codes of the C ABI and the exceptions that carry them.

Every failing library call raises a subclass of :class:`CorelogicError` that
holds the library's own message (``corelogic_last_error()``, which says what
went wrong and where) and the numeric status. ``STALE`` is not an error: it is
returned as :data:`corelogic.STALE` (see :mod:`corelogic.system`).
"""

from __future__ import annotations

import errno
import os
from typing import Dict, Optional, Type

__all__ = [
    "OK",
    "STALE_STATUS",
    "ERR_JSON",
    "ERR_SCHEMA",
    "ERR_NOT_FOUND",
    "ERR_HANDLE",
    "ERR_ARG",
    "ERR_IO",
    "ERR_CORRUPT",
    "CorelogicError",
    "LibraryError",
    "JSONError",
    "SchemaError",
    "NotFoundError",
    "HandleError",
    "ArgumentError",
    "StorageError",
    "CorruptError",
    "error_for_status",
]

#: The call succeeded.
OK = 0
#: Input for an effect that is not running; it was dropped (not an error).
STALE_STATUS = 1
#: Not valid JSON, bad UTF-8, or over a size or depth limit.
ERR_JSON = -1
#: Valid JSON that is not this feature's event or state.
ERR_SCHEMA = -2
#: Unknown feature or query name.
ERR_NOT_FOUND = -3
#: A closed, freed or never-created system handle.
ERR_HANDLE = -4
#: Any other invalid argument.
ERR_ARG = -5
#: A file-system error (journal, snapshot).
ERR_IO = -6
#: Snapshot or journal content that cannot be used.
ERR_CORRUPT = -7


class CorelogicError(Exception):
    """Base class of every error raised by the binding.

    Attributes:
        status: the C status code (a negative ``int``), or ``None`` for errors
            that come from the binding itself, e.g. :class:`LibraryError`.
        message: the library's message, saying what went wrong and where.
    """

    #: The status code this class stands for (``None`` on the base class).
    code: Optional[int] = None
    #: The C constant's name, e.g. ``"CORELOGIC_ERR_SCHEMA"``.
    status_name: str = ""

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message: str = message
        self.status: Optional[int] = self.code if status is None else status

    def __str__(self) -> str:
        if self.status_name:
            return f"{self.message} [{self.status_name}]"
        return self.message


class LibraryError(CorelogicError):
    """The shared library could not be found or loaded, or its ABI version
    differs from the one this binding was written for."""


class JSONError(CorelogicError, ValueError):
    """Input that is not valid JSON, not valid UTF-8, or over a limit
    (``CORELOGIC_ERR_JSON``, -1)."""

    code = ERR_JSON
    status_name = "CORELOGIC_ERR_JSON"


class SchemaError(CorelogicError, ValueError):
    """Valid JSON that is not this feature's event or state
    (``CORELOGIC_ERR_SCHEMA``, -2). The message gives the JSON path and, for an
    unknown case, the valid cases."""

    code = ERR_SCHEMA
    status_name = "CORELOGIC_ERR_SCHEMA"


class NotFoundError(CorelogicError, LookupError):
    """Unknown feature or query name (``CORELOGIC_ERR_NOT_FOUND``, -3)."""

    code = ERR_NOT_FOUND
    status_name = "CORELOGIC_ERR_NOT_FOUND"


class HandleError(CorelogicError):
    """The system is closed, or its handle was never valid
    (``CORELOGIC_ERR_HANDLE``, -4)."""

    code = ERR_HANDLE
    status_name = "CORELOGIC_ERR_HANDLE"


class ArgumentError(CorelogicError, ValueError):
    """Any other invalid argument (``CORELOGIC_ERR_ARG``, -5). The binding also
    raises it, before calling the library, for values it cannot pass on: an
    object that is not JSON-serializable, a NUL byte inside a string, an effect
    id that is not an unsigned 64-bit integer."""

    code = ERR_ARG
    status_name = "CORELOGIC_ERR_ARG"


class StorageError(CorelogicError, OSError):
    """A file-system error while reading or writing a journal or a snapshot
    (``CORELOGIC_ERR_IO``, -6).

    An :class:`OSError`, so ``except OSError`` catches it with the other
    file-system errors. When the library's message ends with the system's
    description of an error (``"cannot create directory /x: Permission
    denied"``), :attr:`errno` and :attr:`strerror` hold that error; otherwise
    (``"no journal directory /x"``) they are ``None``. Named ``StorageError``
    so that it does not shadow the built-in ``IOError``."""

    code = ERR_IO
    status_name = "CORELOGIC_ERR_IO"

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message, status)
        number = _errno_described_at_end(message)
        if number is not None:
            self.errno = number
            self.strerror = os.strerror(number)


class CorruptError(CorelogicError):
    """Snapshot or journal content that cannot be used
    (``CORELOGIC_ERR_CORRUPT``, -7)."""

    code = ERR_CORRUPT
    status_name = "CORELOGIC_ERR_CORRUPT"


# strerror() text -> errno, for the messages of the library's file-system errors,
# which end with ": <strerror(errno)>" (the library and Python share the C library).
_ERRNO_BY_DESCRIPTION: Dict[str, int] = {os.strerror(number): number for number in sorted(errno.errorcode)}


def _errno_described_at_end(message: str) -> Optional[int]:
    _, separator, description = message.rpartition(": ")
    return _ERRNO_BY_DESCRIPTION.get(description) if separator else None


_BY_STATUS: Dict[int, Type[CorelogicError]] = {
    cls.code: cls
    for cls in (
        JSONError,
        SchemaError,
        NotFoundError,
        HandleError,
        ArgumentError,
        StorageError,
        CorruptError,
    )
}


def error_for_status(status: int, message: str) -> CorelogicError:
    """Return the exception for a negative C status code.

    A code this binding does not know yet (codes are only ever appended) gives
    a plain :class:`CorelogicError` that still carries the code.
    """
    cls = _BY_STATUS.get(status)
    if cls is None:
        return CorelogicError(f"{message} [status {status}]", status)
    return cls(message, status)
