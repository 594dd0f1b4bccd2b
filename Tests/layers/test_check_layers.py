"""check_layers.py fails on each kind of arrow it exists to stop, and passes a tree that
keeps its list: small trees written here, checked with --root."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expect import expect  # noqa: E402

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")

RULES = """```layers
Lib/Low: -
Lib/High: Lib/Low
Top: Lib/High
```
"""


def check(files: Dict[str, str], rules: str = RULES) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "docs", "architecture.md"), "w", encoding="utf-8") as doc:
            doc.write("# Layers\n\n" + rules)
        for path, text in files.items():
            full = os.path.join(root, "Sources", path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(text)
        return subprocess.run([sys.executable, CHECK, "--root", root], capture_output=True, text=True)


LOW = "public struct Buffer {}\nfunc helper() {}\n"
HIGH = "struct Machine { var buffer: Buffer }\n"

expect("a tree that keeps its list passes",
       check({"Lib/Low/Buffer.swift": LOW, "Lib/High/Machine.swift": HIGH,
              "Top/Main.swift": "import Lib\nlet m: Machine? = nil\n"}), True, "all in")
expect("a type of a higher layer named in a lower one fails",
       check({"Lib/Low/Buffer.swift": LOW + "extension Buffer { var m: Machine? { nil } }\n",
              "Lib/High/Machine.swift": HIGH}), False, "Lib/Low -> Lib/High", "Machine")
expect("an extension of a higher layer's type fails",
       check({"Lib/Low/Buffer.swift": LOW, "Lib/High/Machine.swift": HIGH,
              "Lib/Low/More.swift": "extension Machine {}\n"}), False, "Lib/Low -> Lib/High")
expect("a top-level function of a layer counts as its name",
       check({"Lib/Low/Buffer.swift": LOW, "Lib/High/Machine.swift": HIGH,
              "Top/Main.swift": "import Lib\nlet x: () = helper()\n"}), False, "Top -> Lib/Low", "helper")
expect("names in comments and strings do not count",
       check({"Lib/Low/Buffer.swift": LOW + '// Machine\nlet s = "Machine"\n/* Machine */\n',
              "Lib/High/Machine.swift": HIGH}), True)
expect("a private declaration is its file's own",
       check({"Lib/Low/Buffer.swift": LOW + "private struct Machine2 {}\n",
              "Lib/High/Machine.swift": HIGH + "private struct Machine2 {}\n"}), True)
expect("a name declared in two layers fails",
       check({"Lib/Low/Buffer.swift": LOW, "Lib/High/Machine.swift": HIGH + "struct Buffer2 {}\n",
              "Lib/Low/Two.swift": "struct Buffer2 {}\n"}), False, "declared in both")
expect("a folder the list does not name fails",
       check({"Lib/Low/Buffer.swift": LOW, "Lib/Other/X.swift": "struct X {}\n"}), False, "in no layer")
expect("a module imported without leave fails",
       check({"Lib/Low/Buffer.swift": LOW, "Other/X.swift": "import Top\n"},
             RULES.replace("Top: Lib/High\n", "Top: Lib/High\nOther: -\n")),
       False, "Other -> Top")
expect("the WebAssembly build's branches make no arrows; the native branch does",
       check({"Lib/Low/Buffer.swift": LOW + "#if hasFeature(Embedded)\nlet m: Machine? = nil\n#endif\n",
              "Lib/High/Machine.swift": HIGH,
              "Lib/Low/Other.swift": "#if !hasFeature(Embedded)\nstruct A {}\n#else\nlet m: Machine? = nil\n#endif\n"}),
       True)
expect("the native branch of an Embedded condition is read",
       check({"Lib/Low/Buffer.swift": LOW + "#if hasFeature(Embedded)\nstruct B {}\n#else\nlet m: Machine? = nil\n#endif\n",
              "Lib/High/Machine.swift": HIGH}), False, "Lib/Low -> Lib/High")
