"""Packaging: pip installs the package, with the library inside, into a fresh
virtual environment; one version number, the C header's."""

from __future__ import annotations

import filecmp
import json
import os
import re
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest

import corelogic
from corelogic import _library
from conftest import PACKAGE_ROOT, REPOSITORY

HEADER = REPOSITORY / "include" / "corelogic.h"


def header_version() -> str:
    text = HEADER.read_text()
    string = re.search(r'#define CORELOGIC_VERSION_STRING "([^"]+)"', text)
    parts = [re.search(rf"#define CORELOGIC_VERSION_{part} (\d+)", text) for part in ("MAJOR", "MINOR", "PATCH")]
    assert string is not None and all(parts)
    assert string.group(1) == ".".join(part.group(1) for part in parts if part is not None)
    return string.group(1)


def test_the_package_version_is_the_headers_and_the_librarys(library):
    assert corelogic.__version__ == header_version() == corelogic.version(library)


def test_the_header_is_the_one_place_the_version_is_written(library):
    """Every binding and the library derive both numbers from include/corelogic.h; a copy
    written anywhere else in their sources fails here."""
    version = header_version()
    abi = re.search(r"^#define CORELOGIC_ABI_VERSION (\d+)$", HEADER.read_text(), re.M)
    assert abi is not None
    assert (corelogic.__version__, corelogic.ABI_VERSION) == (version, int(abi.group(1)))
    assert (corelogic.version(library), corelogic.abi_version(library)) == (version, int(abi.group(1)))
    sources = [*(PACKAGE_ROOT / "corelogic").glob("*.py"), PACKAGE_ROOT / "pyproject.toml",
               *(REPOSITORY / "bindings" / "node" / "lib").glob("*.js"), REPOSITORY / "bindings" / "node" / "package.json",
               *(REPOSITORY / "bindings" / "jvm" / "src" / "main").rglob("*.*"),
               *(REPOSITORY / "bindings" / "node" / "src").glob("*.c"), *(REPOSITORY / "Sources" / "CoreFFI").glob("*.swift")]
    copies = [f"{path.relative_to(REPOSITORY)}: {line.strip()}" for path in sources
              for line in path.read_text(encoding="utf-8").splitlines()
              if f'"{version}"' in line or re.search(r"ABI_VERSION\s*[:=]\s*\d", line)
              or re.search(r"abiVersion\s*(:\s*Int32\s*)?=\s*\d", line)]
    assert copies == [], "copies of the header's version numbers:\n" + "\n".join(copies)


def test_pyproject_takes_the_version_from_the_header():
    pyproject = (PACKAGE_ROOT / "pyproject.toml").read_text()
    assert 'path = "corelogic/_header.py"' in pyproject and 'expression = "VERSION"' in pyproject


def test_pyproject_takes_the_version_from_the_package():
    pyproject = (PACKAGE_ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic = \["version"\]$', pyproject, re.M)
    assert not re.search(r"^version\s*=", pyproject, re.M)
    assert not (PACKAGE_ROOT / "setup.py").exists()


@pytest.fixture(scope="module")
def installed(tmp_path_factory, library) -> Path:
    """A fresh virtual environment with ``pip install ./bindings/python`` done."""
    if os.environ.get("CORELOGIC_SKIP_PACKAGE_TEST"):
        pytest.skip("CORELOGIC_SKIP_PACKAGE_TEST is set")
    environment = tmp_path_factory.mktemp("venv")
    venv.create(environment, with_pip=True)
    env = {key: value for key, value in os.environ.items() if key not in ("CORELOGIC_LIBRARY", "PYTHONPATH")}
    result = subprocess.run(
        [str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(PACKAGE_ROOT)],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return environment


def site_packages(environment: Path) -> Path:
    return next(environment.glob("lib/python3*/site-packages"))


def test_the_wheel_is_tagged_for_the_platform_not_a_python_version(installed):
    wheel = (next(site_packages(installed).glob("corelogic-*.dist-info")) / "WHEEL").read_text()
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert re.findall(r"^Tag: (.*)$", wheel, re.M) == [f"py3-none-{platform}"]
    assert "Root-Is-Purelib: false" in wheel


def test_the_installed_package_carries_the_library_and_uses_it(installed, library, tmp_path):
    bundled = site_packages(installed) / "corelogic" / _library.LIBRARY_FILE
    assert filecmp.cmp(bundled, library.path, shallow=False)
    program = (
        "import corelogic, importlib.metadata, json\n"
        "with corelogic.System('counter') as counter:\n"
        "    state = counter.send('increment').state\n"
        "print(json.dumps([corelogic.__file__, corelogic.load_library().path, state,\n"
        "                  importlib.metadata.version('corelogic'), corelogic.__version__]))\n"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("CORELOGIC_LIBRARY", "PYTHONPATH")}
    result = subprocess.run([str(installed / "bin" / "python"), "-c", program], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    package, loaded, state, distribution_version, package_version = json.loads(result.stdout)
    assert Path(package).parent == bundled.parent
    assert Path(loaded) == bundled
    assert state == {"count": 1}
    assert distribution_version == package_version == header_version()


def test_the_typegen_command_is_installed(installed, tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("CORELOGIC_LIBRARY", "PYTHONPATH")}
    result = subprocess.run([str(installed / "bin" / "corelogic-typegen"), "counter", "--lang", "c",
                             "--out", str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert '#define CORELOGIC_COUNTER_EVENT_INCREMENT "increment"' in (tmp_path / "corelogic_counter.h").read_text()
