"""Writes a new app package on corelogic from the starter (Examples/Starter/template).

    python3 Examples/Starter/new_app.py --dir ../notes --name notes [--url URL] [--version X.Y.Z]

The package holds one feature, its golden file, its tests (TestStore and the golden
files), a C host and a Python host, and a Makefile with the release flags; `make test`
in it passes as written. NAME is the library's and the feature's name (lower case);
the Swift module is its capitalized form. URL and VERSION name the corelogic package
it depends on (`.package(url: URL, from: VERSION)`): by default this checkout's remote
`origin`, else the checkout itself, and the version in include/corelogic.h.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "template"
REPOSITORY = HERE.parents[1]


def header_version() -> str:
    header = (REPOSITORY / "include" / "corelogic.h").read_text(encoding="utf-8")
    match = re.search(r'#define CORELOGIC_VERSION_STRING "([^"]+)"', header)
    if not match:
        sys.exit("new_app: no CORELOGIC_VERSION_STRING in include/corelogic.h")
    return match.group(1)


def default_url() -> str:
    origin = subprocess.run(["git", "-C", str(REPOSITORY), "remote", "get-url", "origin"],
                            capture_output=True, text=True)
    return origin.stdout.strip() if origin.returncode == 0 and origin.stdout.strip() else REPOSITORY.as_uri()


def write_app(directory: Path, name: str, url: str, version: str) -> list[Path]:
    """Writes the package; returns the files written."""
    if not re.fullmatch(r"[a-z][a-z0-9]*", name):
        raise ValueError(f"the name must be lower-case letters and digits, starting with a letter: {name!r}")
    if name in ("corelogic", "cookbook"):
        raise ValueError(f"{name!r} is taken by corelogic's own packages")
    if directory.exists() and any(directory.iterdir()):
        raise ValueError(f"{directory} exists and is not empty")
    values = {"{{name}}": name, "{{Name}}": name[0].upper() + name[1:], "{{url}}": url, "{{version}}": version}

    def fill(text: str) -> str:
        for key, value in values.items():
            text = text.replace(key, value)
        return text

    written = []
    for source in sorted(TEMPLATE.rglob("*")):
        if not source.is_file():
            continue
        target = directory / fill(str(source.relative_to(TEMPLATE)))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fill(source.read_text(encoding="utf-8")), encoding="utf-8")
        written.append(target)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, type=Path, help="where to write the package (new or empty)")
    parser.add_argument("--name", required=True, help="the library's and the feature's name, e.g. notes")
    parser.add_argument("--url", help="corelogic's package URL (default: this checkout's origin, else the checkout)")
    parser.add_argument("--version", help="the corelogic version to depend on (default: this checkout's)")
    args = parser.parse_args()
    try:
        files = write_app(args.dir, args.name, args.url or default_url(), args.version or header_version())
    except ValueError as error:
        print(f"new_app: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(files)} files to {args.dir}; then: cd {args.dir} && make test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
