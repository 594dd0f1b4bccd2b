#!/bin/sh
# The commands `make test` may run, and nothing else: writes DIR with a link to each, and
# `make test` runs every suite with PATH=DIR:<the Swift toolchain's bin>. A suite that
# runs a command listed nowhere below fails with "command not found", here and in CI,
# instead of passing on a machine that happens to have it (make test-tools proves it).
#
#   - the toolchain: the directory of `swift` (swift, swiftc, clang, lld, ...), and what
#     the README requires besides it: python3, make, git, a C toolchain's binutils;
#   - the base system: POSIX and Debian's essential utilities;
#   - the set-up's packages: SETUP_TOOLS of Tests/setup.sh, which installs them.
#
# Usage: sh Tests/tools.sh DIR     (prints the toolchain's bin directory)
# A command listed but missing is an error: the set-up should have installed it.
set -eu
cd "$(dirname "$0")/.."
dir=$1

TOOLCHAIN="python3 make git ld ld.gold ld.bfd as ar ranlib nm objcopy objdump readelf strip"
BASE="sh bash dash env cat cp mv rm mkdir rmdir ln ls sed awk grep egrep head tail tr cut sort uniq
      wc find xargs test [ printf echo true false dirname basename readlink realpath mktemp touch chmod
      id uname date sleep kill cksum cmp diff tee tar gzip mount umount nproc expr timeout seq od stat
      ldd getconf which hostname ps pwd rev install"
SETUP=$(sed -n 's/^SETUP_TOOLS="\(.*\)"$/\1/p' Tests/setup.sh)
test -n "$SETUP" || { echo "tools: no SETUP_TOOLS in Tests/setup.sh" >&2; exit 1; }

swift_bin=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")
rm -rf "$dir"
mkdir -p "$dir"
missing=""
for tool in $TOOLCHAIN $BASE $SETUP; do
    path=$(command -v "$tool" 2>/dev/null) || true
    case $path in
        /*) ln -sf "$path" "$dir/$tool" ;;
        *) case " $SETUP " in *" $tool "*) missing="$missing $tool" ;; esac ;;
    esac
done
if [ -n "$missing" ]; then
    echo "tools: missing:$missing (make setup installs them)" >&2
    exit 1
fi
echo "$swift_bin"
