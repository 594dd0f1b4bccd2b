"""The one assertion of the layer folder's script tests: a run passes or fails as expected
and its output names the given words."""

from __future__ import annotations

import os
import subprocess
import sys


def expect(name: str, result: subprocess.CompletedProcess[str], ok: bool, *words: str) -> None:
    output = result.stdout + result.stderr
    if (result.returncode == 0) != ok or any(word not in output for word in words):
        script = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        sys.exit(f"{script}: {name}: expected {'a pass' if ok else 'a failure'} naming "
                 f"{list(words)}, got exit {result.returncode}:\n{output}")
    print(f"ok  {name}")
