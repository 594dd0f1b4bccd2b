"""Loading the library: the search order, the ABI check, the module functions."""

from __future__ import annotations

import ctypes.util
import os
import re

import pytest

import corelogic
from corelogic import _library
from conftest import REPOSITORY


def test_version_is_major_minor_patch(library):
    assert re.fullmatch(r"\d+\.\d+\.\d+", corelogic.version(library))


def test_loaded_library_has_the_bindings_abi_version(library):
    assert corelogic.abi_version(library) == corelogic.ABI_VERSION == 1


def test_a_library_with_another_abi_version_is_refused(library):
    with pytest.raises(corelogic.LibraryError, match=r"C ABI version 1.*needs version 2"):
        corelogic.Library(library.path, abi_version=2)


def test_a_library_that_is_not_corelogic_is_refused():
    libc = ctypes.util.find_library("c")
    if libc is None:
        pytest.skip("no C library to load")
    with pytest.raises(corelogic.LibraryError, match="not libcorelogic"):
        corelogic.Library(libc)


def test_a_missing_file_is_a_library_error():
    with pytest.raises(corelogic.LibraryError, match="cannot load"):
        corelogic.load_library("/nonexistent/libcorelogic.so")


def test_explicit_path_wins_over_the_environment(monkeypatch, library):
    monkeypatch.setenv("CORELOGIC_LIBRARY", "/nonexistent/elsewhere.so")
    assert _library.find_library_path(library.path) == library.path


def test_environment_variable_wins_over_the_other_places(monkeypatch, library):
    monkeypatch.setenv("CORELOGIC_LIBRARY", library.path)
    assert _library.find_library_path() == library.path
    assert _library.candidates()[0] == library.path


def test_environment_variable_naming_a_missing_file_is_an_error(monkeypatch):
    monkeypatch.setenv("CORELOGIC_LIBRARY", "/nonexistent/libcorelogic.so")
    with pytest.raises(corelogic.LibraryError, match="CORELOGIC_LIBRARY=/nonexistent"):
        corelogic.load_library()


def test_without_the_environment_variable_only_the_package_copy_is_tried(monkeypatch):
    # The framework ships no features: there is no library of its own to fall back on.
    monkeypatch.delenv("CORELOGIC_LIBRARY", raising=False)
    places = _library.candidates()
    package_copy = os.path.join(os.path.dirname(corelogic.__file__), _library.LIBRARY_FILE)
    assert places == [package_copy]


def test_loading_the_same_path_twice_gives_the_same_library(library):
    assert corelogic.load_library(library.path) is library


def test_features_describe_every_feature(library):
    features = {feature["name"]: feature for feature in corelogic.features(library)}
    assert {"counter", "search", "downloads"} <= set(features)
    assert set(features["counter"]["events"]) == {"increment", "decrement"}
    assert features["counter"]["feedbacks"] == []
    assert features["counter"]["queries"] == ["isZero"]
    assert features["search"]["feedbacks"] == [
        {"name": "loadPage", "kind": "react"},
        {"name": "retryTimer", "kind": "react"},
    ]
    assert set(features["search"]["queries"]) == {"isLoadingNextPage", "canLoadMore"}
    assert features["downloads"]["feedbacks"] == [{"name": "download", "kind": "reactSet"}]
    assert all(isinstance(feature["stateVersion"], int) for feature in features.values())


def test_status_names_come_from_the_library(library):
    assert library.status_name(-2) == "CORELOGIC_ERR_SCHEMA"
    for cls in (corelogic.JSONError, corelogic.SchemaError, corelogic.NotFoundError, corelogic.HandleError,
                corelogic.ArgumentError, corelogic.StorageError, corelogic.CorruptError):
        assert library.status_name(cls.code) == cls.status_name
