"""Each host's package, installed as its users install it (`make test-packages`).

`make package` wrote the packages of an app's library (bindings/package.py). Here each
one goes into an empty environment with nothing of the repository on any path:

- Python: a fresh virtual environment (no system site-packages) gets the wheel and mypy
  from PyPI; a program using the app's typed modules passes mypy --strict and runs, and
  a wrong use of the types fails mypy.
- Node.js: `npm install --offline` of the tarball in an empty directory; a TypeScript
  program on the binding's declarations and the app's generated types passes
  tsc --strict and runs under node, and a wrong event fails tsc.
- JVM: a program compiled and run with only the jar and the JDK on the class path,
  using the generated records; and one in Kotlin, with Debian's kotlinc.
- C: a program built with pkg-config against the installed prefix, with the header of
  the app's names.

Every package says the header's version, and every binding refuses a library of another
C ABI (--other-abi) with a message naming both numbers. Each check prints one line; the
last is "packages: N passed, N failed".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time
import zipfile
from pathlib import Path
from typing import Callable, Dict, List, Optional

REPOSITORY = Path(__file__).resolve().parents[2]
HEADER = (REPOSITORY / "include" / "corelogic.h").read_text()
VERSION = re.search(r'^#define CORELOGIC_VERSION_STRING "([^"]+)"$', HEADER, re.M).group(1)  # type: ignore[union-attr]
ABI = int(re.search(r"^#define CORELOGIC_ABI_VERSION (\d+)$", HEADER, re.M).group(1))  # type: ignore[union-attr]
# What a user's shell would not have: everything that points a binding at the checkout.
HIDDEN = ("CORELOGIC_LIBRARY", "CORELOGIC_JNI_LIBRARY", "CORELOGIC_NODE_ADDON", "PYTHONPATH", "MYPYPATH",
          "CLASSPATH", "NODE_PATH", "VIRTUAL_ENV", "PKG_CONFIG_PATH")


def clean_env(**extra: str) -> Dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in HIDDEN}
    env.update(extra)
    return env


def run(command: List[str], cwd: Path, env: Optional[Dict[str, str]] = None, expect: int = 0) -> str:
    result = subprocess.run(command, cwd=cwd, env=env if env is not None else clean_env(),
                            capture_output=True, text=True, timeout=600)
    if (result.returncode == 0) != (expect == 0):
        raise RuntimeError(f"{' '.join(command)} exited with {result.returncode}:\n"
                           f"{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result.stdout + result.stderr


def mismatch_named(message: str) -> None:
    """The error of loading the other-ABI library names both numbers."""
    if not (re.search(rf"\b{ABI + 41}\b", message) and re.search(rf"version {ABI}\b", message)):
        raise AssertionError(f"the ABI mismatch error does not name {ABI + 41} and {ABI}: {message!r}")


class Packages:
    def __init__(self, dist: Path, name: str, other_abi: Path, work: Path) -> None:
        self.dist, self.name, self.other_abi, self.work = dist, name, other_abi, work
        self.passed = self.failed = 0

    def check(self, name: str, body: Callable[[], None]) -> None:
        started = time.monotonic()
        try:
            body()
        except Exception as error:  # each check reports; the others still run
            self.failed += 1
            print(f"FAIL packages: {name}: {error}", flush=True)
        else:
            self.passed += 1
            print(f"ok packages: {name} ({time.monotonic() - started:.1f} s)", flush=True)

    def fresh(self, name: str) -> Path:
        directory = self.work / name
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        return directory

    # -- Python -------------------------------------------------------------------------

    def python(self) -> None:
        wheel, = (self.dist / "python").glob("*.whl")
        if not wheel.name.startswith(f"corelogic-{VERSION}-py3-none-"):
            raise AssertionError(f"{wheel.name}: not corelogic {VERSION} tagged py3-none-<platform>")
        names = zipfile.ZipFile(wheel).namelist()
        for member in ("corelogic/libcorelogic.so", f"{self.name}/search.py", f"{self.name}/py.typed",
                       "corelogic/corelogic_version.h"):
            if member not in names:
                raise AssertionError(f"{wheel.name} lacks {member}")
        home = self.fresh("python")
        run([sys.executable, "-m", "venv", str(home / "venv")], home)
        python = str(home / "venv" / "bin" / "python")
        run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel), "mypy"], home)
        (home / "app.py").write_text(textwrap.dedent(f"""\
            import importlib.metadata

            import corelogic
            from {self.name}.search import PageRequest, Search, State, request_from_json


            def main() -> None:
                with corelogic.System("search") as search:
                    batch = search.send(Search.QueryChanged(text="swift"))
                    start = batch.started[0]
                    request = request_from_json(start["feedback"], start["request"])
                    assert isinstance(request, PageRequest), request
                    url: str = request.url
                    state: State = search.state_as(State)
                    assert state.query == "swift" and "swift" in url, (state, url)
                versions = (corelogic.__version__, importlib.metadata.version("corelogic"), corelogic.version())
                assert versions == ({VERSION!r},) * 3, versions
                print("python:", url, corelogic.load_library().path)


            main()
            """))
        (home / "wrong.py").write_text(f"from {self.name}.search import Search\nSearch.QueryChanged(text=5)\n")
        env = clean_env()
        run([python, "-m", "mypy", "--strict", "--no-error-summary", "app.py"], home, env)
        wrong = run([python, "-m", "mypy", "--strict", "--no-error-summary", "wrong.py"], home, env, expect=1)
        if 'incompatible type "int"; expected "str"' not in wrong:
            raise AssertionError(f"mypy did not see the generated types: {wrong}")
        output = run([python, "app.py"], home, env)
        if "/venv/lib/" not in output:
            raise AssertionError(f"the program did not load the wheel's library: {output}")
        refused = run([python, "-c", "import corelogic\ntry:\n    corelogic.load_library("
                       f"{str(self.other_abi)!r})\nexcept corelogic.LibraryError as error:\n    print(error)\n"],
                      home, env)
        mismatch_named(refused)

    # -- Node.js ------------------------------------------------------------------------

    def node(self) -> None:
        tarball, = (self.dist / "node").glob("*.tgz")
        with tarfile.open(tarball) as archive:
            manifest = json.load(archive.extractfile("package/package.json"))  # type: ignore[arg-type]
            names = archive.getnames()
        if manifest["version"] != VERSION or manifest.get("dependencies"):
            raise AssertionError(f"package.json: version {manifest['version']}, dependencies {manifest.get('dependencies')}")
        for member in ("package/build/corelogic.node", "package/lib/corelogic.d.ts", f"package/{self.name}/search.d.ts"):
            if member not in names:
                raise AssertionError(f"{tarball.name} lacks {member}")
        home = self.fresh("node")
        (home / "package.json").write_text('{"name": "app", "version": "1.0.0", "private": true}\n')
        env = clean_env(npm_config_cache=str(home / ".npm"), npm_config_update_notifier="false")
        run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(tarball)], home, env)
        (home / "main.ts").write_text(textwrap.dedent(f"""\
            import * as corelogic from "corelogic";
            import type {{ search }} from "corelogic/{self.name}";

            type Request = search.Requests[keyof search.Requests];
            const system = new corelogic.System<search.FeatureState, search.FeatureEvent, Request>("search");
            const batch = system.send({{ queryChanged: {{ text: "swift" }} }});
            const state: search.FeatureState = batch.state;
            const load = batch.started[0];
            const request = load.request as search.Requests["loadPage"];
            const url: string = request.url;
            if (state.query !== "swift" || !url.includes("swift")) throw new Error(JSON.stringify(batch));
            if (corelogic.BINDING_VERSION !== {json.dumps(VERSION)} || corelogic.version() !== {json.dumps(VERSION)}) {{
              throw new Error(corelogic.BINDING_VERSION);
            }}
            system.close();
            console.log("node:", url);
            """))
        (home / "wrong.ts").write_text(textwrap.dedent(f"""\
            import * as corelogic from "corelogic";
            import type {{ search }} from "corelogic/{self.name}";
            const system = new corelogic.System<search.FeatureState, search.FeatureEvent>("search");
            system.send({{ queryChanged: {{ text: 5 }} }});
            """))
        options = ["--strict", "--module", "commonjs", "--target", "es2020", "--lib", "es2020,dom"]
        run(["tsc", *options, "--outDir", "out", "main.ts"], home, env)
        wrong = run(["tsc", *options, "--noEmit", "wrong.ts"], home, env, expect=1)
        if "Type 'number' is not assignable to type 'string'" not in wrong:
            raise AssertionError(f"tsc did not see the generated types: {wrong}")
        output = run(["node", "out/main.js"], home, env)
        if "node: " not in output:
            raise AssertionError(output)
        refused = run(["node", "-e", "const c = require('corelogic'); try { c.load(process.argv[1]); } "
                       "catch (e) { console.log(e.name + ': ' + e.message); }", str(self.other_abi)], home, env)
        if "LibraryError" not in refused:
            raise AssertionError(refused)
        mismatch_named(refused)

    # -- JVM ----------------------------------------------------------------------------

    def jvm(self) -> None:
        jar, = (self.dist / "jvm").glob("*.jar")
        archive = zipfile.ZipFile(jar)
        manifest = archive.read("META-INF/MANIFEST.MF").decode()
        if f"Implementation-Version: {VERSION}" not in manifest:
            raise AssertionError(f"{jar.name}: manifest without version {VERSION}: {manifest}")
        for member in ("native/linux-x86_64/libcorelogic_jni.so", "native/linux-x86_64/app-library",
                       "dev/corelogic/System.class", "cookbook/Search$Event$QueryChanged.class"):
            if member not in archive.namelist():
                raise AssertionError(f"{jar.name} lacks {member}")
        home = self.fresh("jvm")
        (home / "Main.java").write_text(textwrap.dedent(f"""\
            import dev.corelogic.Batch;
            import dev.corelogic.Command;
            import dev.corelogic.CoreLogic;
            import {self.name}.Search;

            public class Main {{
                public static void main(String[] args) {{
                    try (dev.corelogic.System search = new dev.corelogic.System(Search.FEATURE)) {{
                        Batch batch = search.send(new Search.Event.QueryChanged("swift").toJson());
                        Command.Start start = batch.started().get(0);
                        Search.PageRequest request = Search.Requests.loadPage(start.request());
                        Search.State state = Search.State.fromJson(search.state());
                        if (!state.query().equals("swift") || !request.url().contains("swift")) {{
                            throw new AssertionError(state + " " + request);
                        }}
                        if (!CoreLogic.BINDING_VERSION.equals("{VERSION}") || !CoreLogic.version().equals("{VERSION}")) {{
                            throw new AssertionError(CoreLogic.BINDING_VERSION);
                        }}
                        System.out.println("jvm: " + request.url());
                    }}
                }}
            }}
            """))
        (home / "Other.java").write_text(textwrap.dedent("""\
            public class Other {
                public static void main(String[] args) {
                    try {
                        dev.corelogic.CoreLogic.load(args[0]);
                    } catch (dev.corelogic.LibraryException e) {
                        System.out.println(e.getMessage());
                    }
                }
            }
            """))
        run(["javac", "-Xlint:all", "-Werror", "-cp", str(jar), "-d", "classes", "Main.java", "Other.java"], home)
        classpath = f"{jar}:classes"
        output = run(["java", "-cp", classpath, "Main"], home)
        if "jvm: " not in output:
            raise AssertionError(output)
        mismatch_named(run(["java", "-cp", classpath, "Other", str(self.other_abi)], home))

    def kotlin(self) -> None:
        jar, = (self.dist / "jvm").glob("*.jar")
        home = self.fresh("kotlin")
        # Debian's Kotlin (1.3) predates records and sealed interfaces: it sees a record's
        # accessors as methods (state.query()) and has no `use` for AutoCloseable
        # (docs/hosts.md, "Kotlin").
        (home / "main.kt").write_text(textwrap.dedent(f"""\
            import {self.name}.Search

            fun main() {{
                val search = dev.corelogic.System(Search.FEATURE)
                try {{
                    search.send(Search.Event.QueryChanged("swift").toJson())
                    val state = Search.State.fromJson(search.state())
                    check(state.query() == "swift") {{ state.toString() }}
                    val event: Search.Event = Search.Event.ReachedBottom()
                    println("kotlin: " + state.query() + " " + event.toJson())
                }} finally {{
                    search.close()
                }}
            }}
            """))
        run(["kotlinc", "main.kt", "-cp", str(jar), "-d", "classes"], home)
        output = run(["kotlin", "-cp", f"{jar}:classes", "MainKt"], home)
        if "kotlin: swift {reachedBottom={}}" not in output:
            raise AssertionError(output)

    # -- C ------------------------------------------------------------------------------

    def c(self) -> None:
        prefix = self.dist / "c"
        home = self.fresh("c")
        (home / "app.c").write_text(textwrap.dedent(f"""\
            #include <corelogic.h>
            #include <corelogic_search.h>
            #include <stdio.h>
            #include <string.h>

            int main(void) {{
                corelogic_system search;
                char *batch = NULL;
                if (corelogic_abi_version() != CORELOGIC_ABI_VERSION) return 1;
                if (strcmp(corelogic_version(), CORELOGIC_VERSION_STRING) != 0) return 2;
                if (corelogic_system_new(CORELOGIC_SEARCH_FEATURE, NULL, &search, NULL) != CORELOGIC_OK) return 3;
                if (corelogic_system_send(search, "{{\\"" CORELOGIC_SEARCH_EVENT_QUERY_CHANGED "\\":{{\\"text\\":\\"swift\\"}}}}",
                                          &batch) != CORELOGIC_OK) return 4;
                int ok = strstr(batch, "\\"feedback\\":\\"" CORELOGIC_SEARCH_FEEDBACK_LOAD_PAGE "\\"") != NULL;
                printf("c: %s\\n", batch);
                corelogic_free(batch);
                corelogic_system_free(search);
                return ok ? 0 : 5;
            }}
            """))
        env = clean_env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
        modversion = run(["pkg-config", "--modversion", self.name], home, env).strip()
        if modversion != VERSION:
            raise AssertionError(f"pkg-config says {modversion}, the header {VERSION}")
        flags = run(["pkg-config", "--cflags", "--libs", self.name], home, env).split()
        run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "app.c", "-o", "app", *flags], home, env)
        output = run([str(home / "app")], home, env)
        if "c: " not in output:
            raise AssertionError(output)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", required=True, type=Path)
    parser.add_argument("--name", required=True)
    parser.add_argument("--other-abi", required=True, type=Path, help="a library of another C ABI version")
    args = parser.parse_args()
    dist = args.dist.resolve()
    packages = Packages(dist, args.name, args.other_abi.resolve(), dist.parent / "packages")
    packages.check("Python wheel in a fresh venv: mypy --strict, runs, refuses another ABI", packages.python)
    packages.check("npm tarball installed offline: tsc --strict, runs under node, refuses another ABI", packages.node)
    packages.check("jar alone on the class path: javac -Xlint:all -Werror, runs, refuses another ABI", packages.jvm)
    packages.check("Kotlin (Debian's kotlinc) against the jar", packages.kotlin)
    packages.check("C prefix: pkg-config, the names' header, runs", packages.c)
    print(f"packages: {packages.passed} passed, {packages.failed} failed")
    return 1 if packages.failed else 0


if __name__ == "__main__":
    sys.exit(main())
