# The browser build (docs/web.md), included by the top-level Makefile: the WebAssembly
# module of the framework and the cookbook's features (Wasm/build.sh), its JavaScript
# host (bindings/web, an ES module), and their tests.
.PHONY: wasm test-web test-golden-web

WASM_OUT := .build/wasm
WASM     := $(WASM_OUT)/corelogic.wasm
WASM_INPUTS := $(shell sh -c '. ./Wasm/sources.sh; ls $$WASM_SOURCES') Wasm/runtime.c Wasm/build.sh \
               Wasm/sources.sh Wasm/include/corelogic_wasm_libc.h include/corelogic.h

$(WASM): $(WASM_INPUTS)
	SWIFT_BIN=$(dir $(shell command -v swiftc)) sh Wasm/build.sh $(WASM_OUT)
	@echo "built $(WASM)"

wasm: $(WASM)

# Every golden file through the module in Node.js, in full and patch mode, and the edge
# files; the module's numbers are doubles in JavaScript, as with the Node.js addon.
test-golden-web: $(WASM)
	$(GOLDEN_DRIVER) --host wasm --inexact-integers --every-feature $(GOLDEN) $(CURDIR)/$(WASM) -- $(NODE) bindings/web/test/golden_adapter.mjs
	$(GOLDEN_DRIVER) --host wasm --inexact-integers --edge $(GOLDEN_EDGE) $(CURDIR)/$(WASM) -- $(NODE) bindings/web/test/golden_adapter.mjs

test-web: test-golden-web ## the WebAssembly module and the web binding in Node.js: golden files, binding tests
	$(NODE) bindings/web/esm.mjs --check
	CORELOGIC_WASM=$(CURDIR)/$(WASM) $(NODE) --test bindings/web/test/*.test.mjs
