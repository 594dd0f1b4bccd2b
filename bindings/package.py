"""Packages an app's library for every host (`make package`; docs/adopting.md, "Shipping").

From the app's library (built with the release flags) and the schemas of its features
(asked of the library itself), writes into OUT:

  python/corelogic-<version>-py3-none-<platform>.whl
      the Python binding with the library inside, and the package APP of typed modules
      (`from APP.search import Search, State`); built by pip with bindings/python's hook
  node/corelogic-<version>.tgz
      `npm pack` of the Node.js binding: lib/ (JavaScript and its .d.ts), the prebuilt
      addon (build/corelogic.node), the library (native/), and APP/<feature>.d.ts
  jvm/APP-<version>.jar
      the JVM binding's classes, the Java types of the features (package APP), and the
      JNI glue and the library under native/<os>-<arch>/, which the binding extracts and
      loads itself
  types/
      the generated sources the packages were made from

The C package (header, export map, pkg-config files, the library, and the header of
each feature's names) is `make install`'s, which `make package` runs into OUT/c.
The version of every package is include/corelogic.h's CORELOGIC_VERSION_STRING.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "bindings" / "python"))
from corelogic import _header, load_library, typegen  # noqa: E402


def run(command: List[str], cwd: Path | None = None, env: Dict[str, str] | None = None) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})}, check=True)


def platform_directory() -> str:
    """native/<os>-<arch>, as dev.corelogic.Native names it."""
    system = {"Linux": "linux", "Darwin": "macos", "Windows": "windows"}.get(platform.system(), platform.system().lower())
    machine = {"AMD64": "x86_64", "amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine(), platform.machine())
    return f"{system}-{machine}"


def copy_stripped(source: Path, target: Path) -> None:
    """The library without its debug information, as `make install` installs it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    run(["strip", "--strip-debug", str(target)])


def generate_types(library_path: Path, app: str, out: Path) -> List[str]:
    library = load_library(library_path)
    features = [feature["name"] for feature in library.features()]
    for language, directory in (("python", "python"), ("typescript", "typescript"), ("java", "java")):
        target = out / directory
        target.mkdir(parents=True, exist_ok=True)
        for feature in features:
            for name, contents in typegen.generate(feature, [language], library, java_package=app).items():
                (target / name).write_text(contents, encoding="utf-8")
    (out / "python" / "__init__.py").write_text(
        f'"""Typed modules of the features of {app}\'s library, one per feature: '
        f'{", ".join(features)}."""\n', encoding="utf-8")
    return features


def python_wheel(library: Path, app: str, types: Path, out: Path, python: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
         "-w", str(out), str(REPOSITORY / "bindings" / "python")],
        env={"CORELOGIC_LIBRARY": str(library), "CORELOGIC_APP_NAME": app, "CORELOGIC_APP_TYPES": str(types)})


def node_package(library: Path, app: str, features: List[str], addon: Path, types: Path, work: Path, out: Path) -> None:
    stage = work / "node"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "lib").mkdir(parents=True)
    source = REPOSITORY / "bindings" / "node"
    for item in sorted((source / "lib").iterdir()):
        if item.suffix in (".js", ".ts"):
            shutil.copy2(item, stage / "lib" / item.name)
    shutil.copy2(source / "README.md", stage / "README.md")
    (stage / "build").mkdir()
    shutil.copy2(addon, stage / "build" / "corelogic.node")
    copy_stripped(library, stage / "native" / library.name)
    (stage / "native" / "app-library").write_text(library.name + "\n", encoding="utf-8")
    (stage / app).mkdir()
    for feature in features:
        shutil.copy2(types / f"{feature}.d.ts", stage / app / f"{feature}.d.ts")
    (stage / app / "index.d.ts").write_text(
        f"// The JSON types of {app}'s features, one namespace per feature.\n"
        + "".join(f'export * as {typegen.java_identifier(feature)} from "./{feature}";\n' for feature in features),
        encoding="utf-8")
    (stage / app / "index.js").write_text(
        f"'use strict';\n// {app}'s feature types are declarations only (index.d.ts); nothing to load.\n"
        "module.exports = {};\n", encoding="utf-8")
    manifest = json.loads((source / "package.json").read_text(encoding="utf-8"))
    manifest.pop("scripts", None)
    manifest.pop("private", None)
    manifest.pop("//", None)
    manifest.update({
        "version": _header.VERSION,
        "description": f"corelogic for Node.js with {app}'s library and feature types "
                       f"({', '.join(features)})",
        "types": "lib/corelogic.d.ts",
        "files": ["lib", "build/corelogic.node", "native", app, "README.md"],
        "os": [sys.platform],
        "cpu": [{"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())],
    })
    (stage / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    out.mkdir(parents=True, exist_ok=True)
    run(["npm", "pack", "--offline", "--quiet", "--pack-destination", str(out.resolve())], cwd=stage,
        env={"npm_config_cache": str((work / "npm-cache").resolve()), "npm_config_update_notifier": "false"})


def jvm_jar(library: Path, app: str, jni: Path, classes: Path, types: Path, work: Path, out: Path) -> Path:
    stage = work / "jvm"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(classes, stage)
    run(["javac", "-Xlint:all", "-Werror", "-d", str(stage), *sorted(str(p) for p in types.glob("*.java"))])
    native = stage / "native" / platform_directory()
    native.mkdir(parents=True)
    shutil.copy2(jni, native / "libcorelogic_jni.so")
    copy_stripped(library, native / library.name)
    (native / "app-library").write_text(library.name + "\n", encoding="utf-8")
    manifest = work / "MANIFEST.MF"
    manifest.write_text(f"Implementation-Title: corelogic ({app})\nImplementation-Version: {_header.VERSION}\n"
                        f"Implementation-Vendor: {app}\n", encoding="utf-8")
    out.mkdir(parents=True, exist_ok=True)
    jar = out / f"{app}-{_header.VERSION}.jar"
    run(["jar", "--create", "--file", str(jar), "--manifest", str(manifest), "-C", str(stage), "."])
    return jar


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", required=True, type=Path, help="the app's library (lib<app>.so)")
    parser.add_argument("--name", required=True, help="the app's name: the package of its generated types")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--addon", required=True, type=Path, help="the Node-API addon (make node)")
    parser.add_argument("--jni", required=True, type=Path, help="the JNI glue (make jvm)")
    parser.add_argument("--classes", required=True, type=Path, help="the JVM binding's classes (make jvm)")
    parser.add_argument("--python", default=sys.executable, help="the Python whose pip builds the wheel")
    args = parser.parse_args()
    if not args.name.isidentifier() or args.name == "corelogic":
        parser.error(f"--name {args.name}: an app's name must be an identifier other than corelogic")
    args.out = args.out.resolve()
    work = args.out / "work"
    shutil.rmtree(work, ignore_errors=True)
    for host in ("python", "node", "jvm", "types"):
        shutil.rmtree(args.out / host, ignore_errors=True)
    library = args.library.resolve()
    types = args.out / "types"
    features = generate_types(library, args.name, types)
    stripped = work / "python" / library.name
    copy_stripped(library, stripped)
    python_wheel(stripped, args.name, types / "python", args.out / "python", args.python)
    node_package(library, args.name, features, args.addon.resolve(), types / "typescript", work, args.out / "node")
    jvm_jar(library, args.name, args.jni.resolve(), args.classes.resolve(), types / "java", work, args.out / "jvm")
    shutil.rmtree(work, ignore_errors=True)
    print(f"packages of {args.name} {_header.VERSION} in {args.out}:")
    for path in sorted(args.out.glob("*/*")):
        if path.is_file() and path.parent.name in ("python", "node", "jvm"):
            print(f"  {path.relative_to(args.out)}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
