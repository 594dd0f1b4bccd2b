"""Build hook: put the shared library inside the package.

`pip install ./bindings/python` from a checkout copies the repository's
`.build/release/libcorelogic.so` into the installed package (running `make lib`
first if it is not built yet), so the package works in any virtual environment
without CORELOGIC_LIBRARY. Metadata lives in pyproject.toml.
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
NAMES = {"linux": "libcorelogic.so", "darwin": "libcorelogic.dylib", "win32": "corelogic.dll"}
LIBRARY_NAME = NAMES.get(sys.platform, "libcorelogic.so")
BUILT = os.path.join(REPOSITORY, ".build", "release", LIBRARY_NAME)


class BuildWithLibrary(build_py):
    """Copies the built library into the package being built."""

    def run(self):
        super().run()
        source = os.environ.get("CORELOGIC_LIBRARY") or BUILT
        if not os.path.exists(source) and os.path.exists(os.path.join(REPOSITORY, "Makefile")):
            print(f"corelogic: {source} is missing; building it with `make lib`", file=sys.stderr)
            subprocess.check_call(["make", "-C", REPOSITORY, "lib"])
        if not os.path.exists(source):
            print(f"corelogic: no library at {source}; the package will look for one at run time "
                  "(CORELOGIC_LIBRARY or a repository build)", file=sys.stderr)
            return
        target = os.path.join(self.build_lib, "corelogic", LIBRARY_NAME)
        shutil.copyfile(source, target)
        os.chmod(target, 0o755)


class BinaryDistribution(Distribution):
    """The wheel carries a native library, so it is tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
