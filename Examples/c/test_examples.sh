#!/bin/sh
# Runs the C examples non-interactively and checks what they print.
#   OUT      the directory holding the built examples (make examples)
#   CHECKED  the command prefix to run them with, e.g. valgrind with its flags (may be empty)
set -u
OUT=${OUT:-.build/examples}
CHECKED=${CHECKED:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0

fail() { echo "FAIL examples: $1"; failures=$((failures + 1)); }
pass() { passed=$((passed + 1)); }

# expect <name> <file> <text>: the file contains the text
expect() {
    if grep -qF -- "$3" "$2"; then pass; else fail "$1: expected the output to contain '$3'"; sed 's/^/  | /' "$2"; fi
}

# --- playcatch: two throws from a pipe, a short timer, ends after the last throw-back
printf 'throw\nthrow\n' | $CHECKED "$OUT/playcatch" --seconds 0.05 > "$work/play.out" 2>&1
status=$?
[ $status -eq 0 ] && pass || { fail "playcatch exited with $status"; sed 's/^/  | /' "$work/play.out"; }
expect playcatch "$work/play.out" "game over after 4 throws"
[ "$(grep -c 'machine: throws it back' "$work/play.out")" -eq 2 ] && pass || fail "playcatch: expected two throw-backs"

# --- playcatch resumed with the ball in the machine's hand: the creation batch starts the timer
printf '' | PLAYCATCH_SECONDS=0.05 $CHECKED "$OUT/playcatch" --state '{"ball":"machine","throwCount":1}' > "$work/resume.out" 2>&1
status=$?
[ $status -eq 0 ] && pass || { fail "playcatch --state exited with $status"; sed 's/^/  | /' "$work/resume.out"; }
expect "playcatch --state" "$work/resume.out" "game over after 2 throws"

# --- downloads: two at a time, one cancelled while its worker runs (its result is stale)
mkdir -p "$work/in"
head -c 100000 /dev/zero > "$work/in/small.bin"
head -c 3000000 /dev/zero > "$work/in/large.bin"
echo "hello" > "$work/in/hello.txt"
head -c 200000 /dev/zero > "$work/in/with space.bin"
$CHECKED "$OUT/downloads" -j 2 --delay-ms 20 -o "$work/copies" --cancel "$work/in/large.bin" \
    "$work/in/small.bin" "$work/in/large.bin" "file://$work/in/hello.txt" "$work/in/with space.bin" \
    > "$work/dl.out" 2>&1
status=$?
[ $status -eq 0 ] && pass || { fail "downloads exited with $status"; sed 's/^/  | /' "$work/dl.out"; }
expect downloads "$work/dl.out" "summary: 3 finished, 0 failed, 1 stale results dropped, 300006 bytes, 0 still pending"
expect downloads "$work/dl.out" "cancel  #2 $work/in/large.bin"
expect downloads "$work/dl.out" "stale   #2 $work/in/large.bin"
for f in small.bin hello.txt "with space.bin"; do
    cmp -s "$work/in/$f" "$work/copies/$f" && pass || fail "downloads: $f was not copied intact"
done

# --- downloads: a file that cannot be read fails, and the program says so (exit 1, so a
# valgrind error must use another status to be told apart)
${CHECKED:+$CHECKED --error-exitcode=99} "$OUT/downloads" "$work/in/missing.bin" > "$work/missing.out" 2>&1
status=$?
[ $status -eq 1 ] && pass || fail "downloads of a missing file exited with $status, expected 1"
expect "downloads (missing)" "$work/missing.out" "summary: 0 finished, 1 failed"

# --- patches: patch mode and watched queries on a list that grows; the mirror kept from
# the patches equals the library's state at the end
$CHECKED "$OUT/patches" > "$work/patches.out" 2>&1
status=$?
[ $status -eq 0 ] && pass || { fail "patches exited with $status"; sed 's/^/  | /' "$work/patches.out"; }
expect patches "$work/patches.out" "the mirror equals the state after 5 pages: 50 items"
expect patches "$work/patches.out" "watching noSuchQuery         CORELOGIC_ERR_NOT_FOUND"
expect patches "$work/patches.out" 'queryChanged "swift"         revision 1: '
expect patches "$work/patches.out" 'queries changed: {"isLoadingNextPage":true}'
expect patches "$work/patches.out" 'revision 12: 0 ops'
# Forty pages: every page is still an append of its own items (12 ops), not the list.
$CHECKED "$OUT/patches" --pages 40 > "$work/patches40.out" 2>&1
status=$?
[ $status -eq 0 ] && pass || { fail "patches --pages 40 exited with $status"; sed 's/^/  | /' "$work/patches40.out"; }
expect "patches --pages 40" "$work/patches40.out" "the mirror equals the state after 40 pages: 400 items"
ops=$(grep 'delivered ' "$work/patches40.out" | head -39 | sed 's/.*revision [0-9]*: \([0-9]*\) ops.*/\1/' | sort -u)
[ "$(echo "$ops" | wc -l)" -eq 1 ] && [ "$ops" -ge 10 ] && [ "$ops" -le 14 ] && pass \
    || fail "patches --pages 40: expected the same small number of ops (10 adds and a few replaces) for every page, got: $(echo $ops)"

echo "examples: $passed passed, $failures failed"
[ $failures -eq 0 ]
