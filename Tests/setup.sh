#!/bin/sh
# Installs what `make test` needs and is missing, on a machine that has only the Swift
# toolchain (Makefile: the `setup` target; `make test` runs it first).
#
#   - System packages (Debian's): installed with apt-get when run as root; otherwise the
#     one command to run is printed and the script exits non-zero.
#   - Python tools (pytest, Hypothesis, mypy, jsonschema, jsonpatch, hatchling): into a virtual
#     environment of the project's own, VENV (default .build/venv), never into the
#     system's interpreter. It does not see the system's site-packages, so a test that
#     imports anything not listed in the requirements files fails here too.
#
# Usage: sh Tests/setup.sh [VENV]
set -eu
cd "$(dirname "$0")/.."
venv=${1:-.build/venv}
python=${PYTHON_FOR_VENV:-python3}

# The commands the suites run from the packages below: `make test` runs with a PATH that
# holds these, the toolchain's and the base system's, and nothing else (Tests/tools.sh).
SETUP_TOOLS="valgrind valgrind.bin vgdb pkg-config cc gcc tsc chromium javac java jar javadoc kotlinc kotlin node npm"

# Each line: a Debian package, then the check that tells whether what it gives is here.
missing=""
check() {
    package=$1; shift
    if ! "$@" >/dev/null 2>&1; then missing="$missing $package"; fi
}
check valgrind             command -v valgrind
check pkg-config           command -v pkg-config
check gcc                  command -v cc
check node-typescript      command -v tsc         # typegen's TypeScript output, checked by tsc
check chromium             command -v chromium    # the inspector page, rendered headless
check default-jdk-headless command -v javac       # the JVM binding: javac and the JNI headers
check junit5               test -f /usr/share/java/junit-platform-console-standalone.jar
check kotlin               command -v kotlinc     # a Kotlin program against the jar (test-packages)
check nodejs               command -v node
check npm                  command -v npm         # npm pack and npm install of the Node package
check libnode-dev          sh -c 'test -f /usr/include/node/node_api.h || test -f /usr/local/include/node/node_api.h'
check python3-venv         "$python" -c 'import ensurepip, venv'

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing:$missing"
        apt-get update -qq
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    else
        echo "setup: missing system packages; install them, then run make test again:"
        echo "    sudo apt-get install$missing"
        exit 1
    fi
fi

# The virtual environment, rebuilt when a requirements file changes.
requirements="bindings/python/requirements-test.txt Tests/model/requirements.txt"
stamp="$venv/.requirements"
wanted=$(cat $requirements | cksum)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "setup: Python tools into $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check $(printf -- '-r %s ' $requirements)
    echo "$wanted" > "$stamp"
fi
echo "setup: ready (system packages present; Python tools in $venv)"
