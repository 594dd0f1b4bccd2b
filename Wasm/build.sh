#!/bin/sh
# Builds the WebAssembly module (docs/web.md): the framework's engine, codec, patches, wire
# layer and C exports, with an app's features, as one Embedded Swift module for
# wasm32-unknown-none-wasm, linked with Wasm/runtime.c. The module exports the functions of
# include/corelogic.h that the browser build has, and malloc/free.
#
#     Wasm/build.sh [OUT_DIR]      (default .build/wasm; SWIFT_BIN: the toolchain's bin)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/.build/wasm}
SWIFT_BIN=${SWIFT_BIN:-$(dirname "$(command -v swiftc)")}
cd "$ROOT"
. Wasm/sources.sh
mkdir -p "$OUT"
# shellcheck disable=SC2086 # the lists are words
"$SWIFT_BIN/swiftc" -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo -Osize \
    -parse-as-library -module-name CoreLogic -Xfrontend -disable-stack-protector \
    -I Sources/CoreFFIHook -I Wasm/include -Xcc -fmodule-map-file=Sources/CoreFFIHook/module.modulemap \
    -c $WASM_SOURCES ${WASM_EXTRA_SOURCES:-} -o "$OUT/corelogic.o"
"$SWIFT_BIN/clang" --target=wasm32-unknown-unknown -Os -mbulk-memory -nostdlib -ffreestanding \
    -c Wasm/runtime.c -o "$OUT/runtime.o"
EXPORTS=$(grep -o 'corelogic_[a-z_]*(' include/corelogic.h | sort -u | tr -d '(' | sed 's/^/--export-if-defined=/')
# shellcheck disable=SC2086
"$SWIFT_BIN/wasm-ld" --no-entry --gc-sections --strip-all -z stack-size=1048576 \
    --export=malloc --export=free $EXPORTS \
    "$OUT/corelogic.o" "$OUT/runtime.o" \
    "$SWIFT_BIN/../lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a" \
    -o "$OUT/corelogic.wasm"
