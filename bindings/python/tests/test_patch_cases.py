"""Tests/hosts/patch_cases.json: the cases every host's patch applier follows,
here through corelogic.apply_patch, the applier of the patch-mode mirror."""

import copy
import json

import pytest

import corelogic
from conftest import REPOSITORY

CASES = json.loads((REPOSITORY / "Tests" / "hosts" / "patch_cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["rule"] for case in CASES])
def test_the_applier_follows_the_shared_case(case):
    document = copy.deepcopy(case["document"])
    if case.get("error"):
        with pytest.raises(corelogic.PatchError):
            corelogic.apply_patch(document, copy.deepcopy(case["patch"]))
        assert document == case["document"]  # exactly as it was
    else:
        assert corelogic.apply_patch(document, copy.deepcopy(case["patch"])) == case["expected"]


def test_there_is_one_patch_error_class():
    from corelogic import _jsondiff, _patch
    assert _jsondiff.PatchError is _patch.PatchError is corelogic.PatchError
