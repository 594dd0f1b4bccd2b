"""Run the tests against the source tree, without installing the package.

The library is the one ``CORELOGIC_LIBRARY`` names, as users name it (``make``
builds the cookbook's and the Makefile sets the variable for every suite).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = PACKAGE_ROOT.parents[1]
sys.path.insert(0, str(PACKAGE_ROOT))
sys.path.insert(0, str(REPOSITORY / "Examples" / "python"))

import corelogic  # noqa: E402


@pytest.fixture(scope="session")
def library() -> corelogic.Library:
    """The loaded library; every test that needs it fails loudly without it."""
    return corelogic.load_library()


@pytest.fixture
def counter(library: corelogic.Library):
    with corelogic.System("counter", library=library) as system:
        yield system


@pytest.fixture
def search(library: corelogic.Library):
    with corelogic.System("search", library=library) as system:
        yield system
