"""Wheel build hook: put the shared library inside the package.

A wheel built from a checkout (``pip install ./bindings/python``) carries a copy
of an app's library next to ``corelogic/__init__.py`` (as ``libcorelogic.so``):
the file ``CORELOGIC_LIBRARY`` names, else the repository's example library
(``.build/cookbook/release``), made with ``make lib`` first if it is missing. So the installed package works in
any virtual environment. The Python code runs on any Python 3 and calls the
library through ctypes, so the wheel is tagged for the platform only:
``py3-none-<platform>``, e.g. ``py3-none-linux_x86_64``. Everything else about
the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from typing import Any, Dict

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NAMES = {"linux": "libcorelogic.so", "darwin": "libcorelogic.dylib", "win32": "corelogic.dll"}


class LibraryHook(BuildHookInterface):
    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install finds the library through CORELOGIC_LIBRARY at run time
        name = NAMES.get(sys.platform, "libcorelogic.so")
        repository = os.path.dirname(os.path.dirname(self.root))
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
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
