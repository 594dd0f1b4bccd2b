"""The model-based tests run against the repository's library through the Python
package, without installing it (build the library first with ``make``).

Hypothesis profiles (``CORELOGIC_MODEL_PROFILE``):
  ci    the bounded run of ``make test`` (``CORELOGIC_MODEL_EXAMPLES`` examples per test,
        default 100, programs of up to 50 calls)
  long  ``make test-model-long`` (default 3000 examples per test, programs of up to 200 calls)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
sys.path.insert(0, str(REPOSITORY / "bindings" / "python"))
sys.path.insert(0, str(HERE))

# Failing examples are kept under .build so that the next run tries them first.
_database = DirectoryBasedExampleDatabase(str(REPOSITORY / ".build" / "hypothesis"))
_common = dict(
    deadline=None,
    database=_database,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci", max_examples=int(os.environ.get("CORELOGIC_MODEL_EXAMPLES", "100")), **_common)
settings.register_profile(
    "long", max_examples=int(os.environ.get("CORELOGIC_MODEL_EXAMPLES", "3000")), **_common)
PROFILE = os.environ.get("CORELOGIC_MODEL_PROFILE", "ci")
settings.load_profile(PROFILE)


def pytest_terminal_summary(terminalreporter):
    """How much was compared: the examples run and the host calls checked against the model."""
    model = sys.modules.get("test_loop_model")
    if model is not None and model.COUNTS["programs"]:
        counts = model.COUNTS
        terminalreporter.write_line(
            f"model: {counts['programs']} programs, {counts['calls']} host calls compared with the model "
            f"({counts['stale']} STALE, {counts['queued']} inputs queued by handlers)")
