#!/bin/sh
# Compiles every ```c block of a Markdown guide against the header and the library.
#   - a block with a main() is a whole program: compiled, then run (it must exit 0);
#   - a block right after a line `<!-- fragment -->` is statements: wrapped in a main()
#     with the usual headers, compiled and run;
#   - any other block is top-level code (functions): compiled as its own unit.
# Usage: check_doc_snippets.sh <guide.md> <include-dir> <library>  (an app's lib<name>.so)
#   CC, CFLAGS as for the other C tests; CHECKED prefixes each run (e.g. valgrind).
set -u
doc=$1 include=$2 library=$3
libdir=$(dirname "$library") libname=$(basename "$library" .so); libname=${libname#lib}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g -Wall -Wextra -Werror -std=c11}
CHECKED=${CHECKED:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Split the guide into numbered snippet files: snippet-N.c (+ snippet-N.kind, .line).
awk -v dir="$work" '
    /^<!-- fragment -->$/ { fragment = 1; next }
    /^```c[ \t]*$/ && !inside {
        inside = 1; n++
        file = sprintf("%s/snippet-%d.c", dir, n)
        printf "%d\n", NR + 1 > sprintf("%s/snippet-%d.line", dir, n)
        printf "%s\n", fragment ? "fragment" : "unit" > sprintf("%s/snippet-%d.kind", dir, n)
        fragment = 0
        next
    }
    /^```/ && inside { inside = 0; close(file); next }
    inside { print > file; next }
    /[^ \t]/ { fragment = 0 }
' "$doc"

count=0 failures=0
for source in "$work"/snippet-*.c; do
    [ -e "$source" ] || break
    base=${source%.c}
    n=${base##*-}
    line=$(cat "$base.line")
    kind=$(cat "$base.kind")
    count=$((count + 1))
    if grep -q '\bmain *(' "$source"; then kind=program; fi
    unit=$base.unit.c
    case $kind in
        fragment)
            { printf '#define _GNU_SOURCE\n#include <corelogic.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
              printf 'int main(void) {\n#line %s "%s"\n' "$line" "$doc"
              cat "$source"
              printf '    return 0;\n}\n'; } > "$unit" ;;
        *)
            { printf '#line %s "%s"\n' "$line" "$doc"; cat "$source"; } > "$unit" ;;
    esac
    if [ "$kind" = unit ]; then
        if ! $CC $CFLAGS -c "$unit" -o "$base.o" -I"$include" 2> "$base.err"; then
            echo "FAIL $doc:$line: snippet $n does not compile:"; cat "$base.err"
            failures=$((failures + 1))
        fi
        continue
    fi
    if ! $CC $CFLAGS -pthread "$unit" -o "$base.bin" -I"$include" -L"$libdir" -l"$libname" \
            -Wl,-rpath,"$libdir" -lpthread 2> "$base.err"; then
        echo "FAIL $doc:$line: snippet $n does not compile:"; cat "$base.err"
        failures=$((failures + 1))
        continue
    fi
    $CHECKED "$base.bin" > "$base.out" 2>&1
    status=$?
    if [ $status -ne 0 ]; then
        echo "FAIL $doc:$line: snippet $n exited with status $status; its output:"
        sed 's/^/  | /' "$base.out"
        failures=$((failures + 1))
    fi
done

if [ "$count" -eq 0 ]; then echo "FAIL $doc: no \`\`\`c blocks found"; exit 1; fi
echo "doc-snippets: $((count - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
