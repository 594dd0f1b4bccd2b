#!/bin/sh
# make test-tools: the PATH `make test` gives its suites (Tests/tools.sh) lets a suite run
# every command the set-up, the toolchain and the base system give, and nothing else.
# Proved with a command this machine has but the list does not: a suite (a Makefile
# recipe, as every suite is) that runs it passes with the full PATH and fails with
# make test's.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/corelogic-tools-XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
ok() { echo "ok tools: $1"; }
fail() { echo "FAIL tools: $1"; failed=1; }

# A command on this machine that nothing lists.
mkdir "$work/elsewhere"
printf '#!/bin/sh\necho unlisted ran\n' > "$work/elsewhere/unlisted-tool"
chmod +x "$work/elsewhere/unlisted-tool"
full="$work/elsewhere:$PATH"

toolchain=$(PATH="$full" sh Tests/tools.sh "$work/bin")
restricted="$work/bin:$toolchain"

printf 'suite:\n\tunlisted-tool\n' > "$work/suite.mk"
if PATH="$full" make --no-print-directory -s -f "$work/suite.mk" >/dev/null 2>&1; then
    ok "a suite running an unlisted command passes with the machine's PATH"
else
    fail "the suite did not even run with the machine's PATH"
fi
if output=$(PATH="$restricted" make --no-print-directory -s -f "$work/suite.mk" 2>&1); then
    fail "a suite running an unlisted command passed under make test's PATH: $output"
else
    ok "the same suite fails under make test's PATH: $(echo "$output" | head -1)"
fi

# Every listed command is there, each of the set-up's among them.
setup=$(sed -n 's/^SETUP_TOOLS="\(.*\)"$/\1/p' Tests/setup.sh)
for tool in $setup python3 make git cc swift; do
    PATH="$restricted" command -v "$tool" >/dev/null || fail "$tool is not on make test's PATH"
done
ok "every command of the set-up and the toolchain is on make test's PATH"

# Each of the set-up's commands is checked by a line of Tests/setup.sh, or comes with
# the package of a command that is (valgrind.bin with valgrind, java with javac, ...).
for tool in $setup; do
    case $tool in valgrind.bin|vgdb|gcc|java|jar|javadoc|kotlin) continue ;; esac
    grep -qE "^check [a-z0-9.+-]+ +command -v $tool( |$)" Tests/setup.sh \
        || fail "$tool is in SETUP_TOOLS but no check line of Tests/setup.sh installs it"
done
ok "every set-up command is installed by a check line of Tests/setup.sh"

exit $failed
