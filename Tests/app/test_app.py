"""corelogic as a dependency, proved as an app team would use it (`make test-app`).

In a temporary directory:
1. a copy of this checkout becomes a git repository tagged with the header's version, so
   the app depends on it by a versioned URL (`from:`), never by a path;
2. a new app package is written from the starter (Examples/Starter) and given a second
   feature of its own, with a golden file;
3. the app's own `make test` builds its library with the release flags and runs its Swift
   tests (TestStore, golden files) and its C and Python hosts;
4. the app's golden files are replayed by every runner: Swift in the app's tests, C,
   Python, the JVM and Node.js through the golden driver, given the app's library;
5. typed Python code is generated for the app's features and passes mypy --strict;
6. corelogic_features lists exactly the app's features, and the library exports exactly
   the functions of corelogic.h.

Each check prints one line; the last line is "app: N passed, N failed".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, List

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "Examples" / "Starter"))
import new_app  # noqa: E402

# The golden driver's adapters (Tests/hosts), built by make test-app's prerequisites; the
# fifth runner, Swift, runs in the app's own tests.
BUILD = REPOSITORY / ".build"
ADAPTERS = {
    "c": [str(BUILD / "c" / "golden_adapter")],
    "python": [sys.executable, str(REPOSITORY / "bindings" / "python" / "tests" / "golden_adapter.py")],
    "jvm": ["java", f"-Dcorelogic.jni.library={BUILD / 'jvm' / 'libcorelogic_jni.so'}",
            "-cp", f"{BUILD / 'jvm' / 'classes'}:{BUILD / 'jvm' / 'test-classes'}", "dev.corelogic.GoldenAdapter"],
    "node": ["node", str(REPOSITORY / "bindings" / "node" / "test" / "golden_adapter.mjs")],
}

# A feature the starter does not have, written as a team would add one.
TALLY = '''import CoreLogic

/// A count of taps that can be reset; no effects.
public enum Tally: Feature {
    public struct State: Codable, Equatable, Sendable {
        public var taps = 0
        public init(taps: Int = 0) { self.taps = taps }
    }

    public enum Event: Codable, Equatable, Sendable {
        case tap
        case reset

        public enum CodingKeys: String, CodingKey, CaseIterable { case tap, reset }
    }

    public static let name = "tally"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .tap: state.taps += 1
        case .reset: state.taps = 0
        }
    }
}
'''

TALLY_GOLDEN = {
    "feature": "tally",
    "description": "taps count up; reset goes back to zero; an unknown case is refused and changes nothing",
    "state": None,
    "steps": [
        {"send": "tap", "expect": {"status": "ok", "state": {"taps": 1}, "effects": []}},
        {"send": "tap", "expect": {"status": "ok", "state": {"taps": 2}, "effects": []}},
        {"send": "reset", "expect": {"status": "ok", "state": {"taps": 0}, "effects": []}},
        {"send": "untap", "expect": {"status": "error:schema", "error": "untap"}},
    ],
}

TYPED_PROGRAM = '''from typing import List

import corelogic
from generated.notes import Notes, SaveRequest, State


def main() -> None:
    with corelogic.System("notes") as system:
        system.send(Notes.Add(text="milk"))
        batch = system.send(Notes.Save())
        request = SaveRequest.from_json(batch.started[0]["request"])
        items: List[str] = request.items
        state = system.state_as(State)
        assert state.saving and items == ["milk"], (state, items)
        print("typed:", state)


main()
'''


class App:
    def __init__(self, python: str, work: Path) -> None:
        self.python = python
        self.work = work
        self.passed = 0
        self.failed = 0
        self.app = work / "notes"
        self.library = self.app / ".build" / "release" / "libnotes.so"
        self.corelogic_python = self.app / ".build" / "checkouts" / "corelogic" / "bindings" / "python"

    def check(self, name: str, body: Callable[[], None]) -> None:
        try:
            body()
        except Exception as error:  # a check's failure is reported, and the others still run
            self.failed += 1
            print(f"FAIL app: {name}: {error}", flush=True)
        else:
            self.passed += 1
            print(f"ok app: {name}", flush=True)

    def run(self, command: List[str], cwd: Path, env: dict | None = None) -> str:
        result = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited with {result.returncode}:\n{result.stdout[-4000:]}{result.stderr[-4000:]}")
        return result.stdout

    def host_env(self) -> dict:
        return {"CORELOGIC_LIBRARY": str(self.library), "PYTHONPATH": str(self.corelogic_python)}

    # -- the steps -------------------------------------------------------------------

    def tagged_corelogic(self) -> tuple[str, str]:
        """A git repository of this checkout (committed files and the working tree's
        changes to them), tagged with the header's version: the app's versioned URL."""
        version = new_app.header_version()
        clone = self.work / "corelogic"
        self.run(["git", "clone", "-q", str(REPOSITORY), str(clone)], self.work)
        files = self.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], REPOSITORY).split("\0")
        for name in filter(None, files):
            source, target = REPOSITORY / name, clone / name
            if source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        identity = ["-c", "user.name=corelogic tests", "-c", "user.email=tests@corelogic.invalid"]
        self.run(["git", "add", "-A"], clone)
        if self.run(["git", "status", "--porcelain"], clone).strip():
            self.run(["git", *identity, "commit", "-q", "-m", "the working tree under test"], clone)
        self.run(["git", *identity, "tag", "-a", version, "-m", version], clone)
        return clone.as_uri(), version

    def write_app(self, url: str, version: str) -> None:
        new_app.write_app(self.app, "notes", url, version)
        package = (self.app / "Package.swift").read_text()
        if "path:" in package or f'.package(url: "{url}", from: "{version}")' not in package:
            raise AssertionError("the app must depend on corelogic by a versioned URL only")
        (self.app / "Sources" / "Notes" / "Tally.swift").write_text(TALLY)
        catalog = self.app / "Sources" / "Notes" / "Catalog.swift"
        catalog.write_text(catalog.read_text().replace(".feature(Notes.self),", ".feature(Notes.self),\n    .feature(Tally.self),"))
        (self.app / "golden" / "tally").mkdir(parents=True)
        (self.app / "golden" / "tally" / "taps.json").write_text(json.dumps(TALLY_GOLDEN, indent=2) + "\n")

    def app_make_test(self) -> None:
        out = self.run(["make", "test", f"PYTHON={sys.executable}"], self.app)
        if "golden-swift: 2 passed, 0 failed" not in out:
            raise AssertionError("the app's Swift golden runner did not pass both files:\n" + out[-2000:])

    def features(self) -> None:
        out = self.run([sys.executable, "-c", "import corelogic, json; print(json.dumps([f['name'] for f in corelogic.features()]))"],
                       self.app, self.host_env())
        names = json.loads(out)
        if names != ["notes", "tally"]:
            raise AssertionError(f"corelogic_features lists {names}, expected exactly the app's ['notes', 'tally']")

    def exports(self) -> None:
        self.run(["sh", str(REPOSITORY / "Tests" / "c" / "check_exports.sh"), str(self.library),
                  str(REPOSITORY / "include" / "corelogic.h")], self.app)

    def no_shared_cxx_runtime(self) -> None:
        """Where the C compiler has libstdc++.a, the starter links it in: no libstdc++.so."""
        archive = self.run(["cc", "-print-file-name=libstdc++.a"], self.app).strip()
        needed = self.run(["readelf", "-d", str(self.library)], self.app)
        if archive.startswith("/") and "libstdc++" in needed:
            raise AssertionError(f"{self.library} needs libstdc++.so although {archive} exists:\n{needed}")
        if not archive.startswith("/") and "libstdc++" not in needed:
            raise AssertionError("no libstdc++.a, yet the library does not name libstdc++.so: what runs its C++?")

    def golden(self, host: str) -> None:
        """The app's golden files through the golden driver and one host's adapter, in
        full and in patch mode; every feature of the library must have files."""
        options = ["--inexact-integers"] if host == "node" else []
        out = self.run([self.python, str(REPOSITORY / "Tests" / "hosts" / "golden_driver.py"), "--host", host, *options,
                        "--every-feature", str(self.app / "golden"), str(self.library), "--", *ADAPTERS[host]], REPOSITORY)
        for mode in ("", "-patch"):
            if f"golden-{host}{mode}: 2 passed, 0 failed" not in out:
                raise AssertionError(out[-3000:])

    def two_libraries(self) -> None:
        """The app's library and the cookbook's, loaded in one process: each serves its
        own features, and a system of each works."""
        program = (
            "import corelogic, sys\n"
            "notes, cookbook = corelogic.load_library(sys.argv[1]), corelogic.load_library(sys.argv[2])\n"
            "assert [f['name'] for f in notes.features()] == ['notes', 'tally'], notes.features()\n"
            "assert 'notes' not in [f['name'] for f in cookbook.features()]\n"
            "with corelogic.System('tally', library=notes) as a, corelogic.System('counter', library=cookbook) as b:\n"
            "    assert a.send('tap').state == {'taps': 1}\n"
            "    assert b.send('increment').state == {'count': 1}\n"
            "try:\n"
            "    corelogic.System('counter', library=notes)\n"
            "except corelogic.NotFoundError as error:\n"
            "    assert 'features: notes, tally' in str(error), error\n"
            "else:\n"
            "    raise AssertionError('the app library served a cookbook feature')\n"
        )
        cookbook = os.environ.get("CORELOGIC_LIBRARY") or str(REPOSITORY / ".build" / "cookbook" / "release" / "libcookbook.so")
        self.run([self.python, "-c", program, str(self.library), cookbook], self.app, {"PYTHONPATH": str(self.corelogic_python)})

    def swift_conformances(self) -> None:
        """typegen --lang swift writes a file that compiles in the app's features module."""
        out = self.app / "Sources" / "Notes" / "Generated"
        out.mkdir()
        self.run([self.python, "-m", "corelogic.typegen", "notes", "--lang", "swift", "--out", str(out)], self.app, self.host_env())
        self.run(["swift", "build", "--target", "Notes"], self.app)

    def typed_python(self) -> None:
        env = self.host_env()
        (self.app / "generated").mkdir(exist_ok=True)
        self.run([self.python, "-m", "corelogic.typegen", "--all", "--lang", "python", "--out", "generated"], self.app, env)
        (self.app / "generated" / "__init__.py").touch()
        (self.app / "typed.py").write_text(TYPED_PROGRAM)
        self.run([self.python, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(self.work / "mypy"),
                  "typed.py", "generated/"], self.app, {**env, "MYPYPATH": str(self.corelogic_python)})
        out = self.run([self.python, "typed.py"], self.app, env)
        if "typed: State(" not in out:
            raise AssertionError(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the Python with pytest and mypy")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory and print it")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="corelogic-app-"))
    app = App(args.python, work)
    try:
        url, version = app.tagged_corelogic()
        app.check(f"the starter writes a package on {version} by a versioned URL, plus a feature of its own",
                  lambda: app.write_app(url, version))
        app.check("the app's make test: library, Swift tests and golden files, C and Python hosts", app.app_make_test)
        app.check("corelogic_features lists exactly the app's features", app.features)
        app.check("the app's library exports exactly the functions of corelogic.h", app.exports)
        app.check("the app's library carries the C++ runtime: hosts load no libstdc++.so", app.no_shared_cxx_runtime)
        for host in ADAPTERS:
            app.check(f"the {host} runner replays the app's golden files, whole states and patches",
                      lambda host=host: app.golden(host))
        app.check("typed Python code for the app's features passes mypy --strict and runs", app.typed_python)
        app.check("the app's library and the cookbook's in one process each serve their own features", app.two_libraries)
        app.check("typegen --lang swift writes conformances that compile in the app's module", app.swift_conformances)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"app: {app.passed} passed, {app.failed} failed")
    return 1 if app.failed else 0


if __name__ == "__main__":
    sys.exit(main())
