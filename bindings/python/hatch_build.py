"""Wheel build hook: put the shared library, the version and an app's types inside.

A wheel built from a checkout (``pip install ./bindings/python``) carries a copy
of an app's library next to ``corelogic/__init__.py`` (as ``libcorelogic.so``):
the file ``CORELOGIC_LIBRARY`` names, else the repository's example library
(``.build/cookbook/release``), made with ``make lib`` first if it is missing. So the
installed package works in any virtual environment. The Python code runs on any
Python 3 and calls the library through ctypes, so the wheel is tagged for the
platform only: ``py3-none-<platform>``, e.g. ``py3-none-linux_x86_64``.

An app's package (``make package``, docs/adopting.md) also carries the app's typed
modules: ``CORELOGIC_APP_NAME`` (e.g. ``cookbook``) names the Python package they go
into, ``CORELOGIC_APP_TYPES`` the directory of modules ``python -m corelogic.typegen
--lang python`` wrote (one per feature), so ``from cookbook.search import Search``.

Wheel and sdist both carry ``corelogic/corelogic_version.h``: the version lines of
``include/corelogic.h``, the one source of the version (``corelogic/_header.py``).
Everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from typing import Any, Dict

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NAMES = {"linux": "libcorelogic.so", "darwin": "libcorelogic.dylib", "win32": "corelogic.dll"}


class LibraryHook(BuildHookInterface):
    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        repository = os.path.dirname(os.path.dirname(self.root))
        self._scratch = tempfile.mkdtemp(prefix="corelogic-build-")
        header = os.path.join(repository, "include", "corelogic.h")
        if os.path.exists(header):  # in an sdist, the copy is already there
            lines = [line for line in open(header, encoding="utf-8")
                     if line.startswith(("#define CORELOGIC_VERSION_STRING ", "#define CORELOGIC_ABI_VERSION "))]
            copy = os.path.join(self._scratch, "corelogic_version.h")
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write("/* The version lines of include/corelogic.h, copied when the package was built. */\n")
                handle.writelines(lines)
            build_data["force_include"][copy] = "corelogic/corelogic_version.h"
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install finds the library through CORELOGIC_LIBRARY at run time
        name = NAMES.get(sys.platform, "libcorelogic.so")
        # The app's library to bundle; in the repository, the example library (Examples/Cookbook).
        source = os.environ.get("CORELOGIC_LIBRARY") or os.path.join(
            repository, ".build", "cookbook", "release", "libcookbook" + os.path.splitext(name)[1])
        if not os.path.exists(source) and os.path.exists(os.path.join(repository, "Makefile")):
            self.app.display_info(f"corelogic: {source} is missing; building it with `make lib`")
            subprocess.check_call(["make", "-C", repository, "lib"])
        if not os.path.exists(source):
            raise FileNotFoundError(
                f"corelogic: no library at {source}; build the wheel from a checkout of the "
                f"repository, or set CORELOGIC_LIBRARY to the library to bundle"
            )
        build_data["force_include"][source] = f"corelogic/{name}"
        app, types = os.environ.get("CORELOGIC_APP_NAME"), os.environ.get("CORELOGIC_APP_TYPES")
        if app and types:
            if not app.isidentifier() or app == "corelogic":
                raise ValueError(f"corelogic: CORELOGIC_APP_NAME={app} cannot name a Python package")
            for module in sorted(os.listdir(types)):
                if module.endswith(".py"):
                    build_data["force_include"][os.path.join(types, module)] = f"{app}/{module}"
            if not os.path.exists(os.path.join(types, "__init__.py")):
                init = os.path.join(self._scratch, "__init__.py")
                with open(init, "w", encoding="utf-8") as handle:
                    handle.write(f'"""Typed modules of the features of {app}\'s library, one per feature."""\n')
                build_data["force_include"][init] = f"{app}/__init__.py"
            marker = os.path.join(self._scratch, "py.typed")
            open(marker, "w").close()
            build_data["force_include"][marker] = f"{app}/py.typed"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"

    def finalize(self, version: str, build_data: Dict[str, Any], artifact_path: str) -> None:
        shutil.rmtree(getattr(self, "_scratch", ""), ignore_errors=True)
