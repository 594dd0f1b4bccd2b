"""The binding's version and C ABI version, read from ``include/corelogic.h``, the one
source of both numbers (``CORELOGIC_VERSION_STRING``, ``CORELOGIC_ABI_VERSION``).

In a checkout the header is two directories up. A wheel or sdist carries a copy of
the two lines, ``corelogic/corelogic_version.h``, which the build hook (hatch_build.py)
writes from the header. Standard library only, no relative imports: hatch reads
``VERSION`` from this file alone to version the package (pyproject.toml).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Tuple

#: The copy a built package carries, next to this file.
COPY = Path(__file__).resolve().parent / "corelogic_version.h"
#: The header of a checkout.
HEADER = Path(__file__).resolve().parents[3] / "include" / "corelogic.h"


def parse(text: str) -> Tuple[str, int]:
    """(``CORELOGIC_VERSION_STRING``, ``CORELOGIC_ABI_VERSION``) of a header's text."""
    version = re.search(r'^#define CORELOGIC_VERSION_STRING "([^"]+)"$', text, re.M)
    abi = re.search(r"^#define CORELOGIC_ABI_VERSION (\d+)$", text, re.M)
    if version is None or abi is None:
        raise ImportError("corelogic: the version macros of corelogic.h are missing")
    return version.group(1), int(abi.group(1))


def _read() -> Tuple[str, int]:
    for path in (COPY, HEADER):
        if path.is_file():
            return parse(path.read_text(encoding="utf-8"))
    raise ImportError(f"corelogic: neither {COPY} nor {HEADER} exists; reinstall the package")


VERSION, ABI_VERSION = _read()
