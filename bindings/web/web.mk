# The browser build (docs/web.md), included by the top-level Makefile: the WebAssembly
# module of the framework and the cookbook's features (Wasm/build.sh), its JavaScript
# host (bindings/web, an ES module), and their tests.
.PHONY: wasm test-web test-golden-web test-wasmkit

WASM_OUT := .build/wasm
WASM     := $(WASM_OUT)/corelogic.wasm
WASM_INPUTS := $(shell sh -c '. ./Wasm/sources.sh; ls $$WASM_SOURCES') Wasm/runtime.c Wasm/build.sh \
               Wasm/sources.sh Wasm/include/corelogic_wasm_libc.h include/corelogic.h

$(WASM): $(WASM_INPUTS)
	SWIFT_BIN=$(dir $(shell command -v swiftc)) sh Wasm/build.sh $(WASM_OUT)
	@echo "built $(WASM)"

wasm: $(WASM) ## the WebAssembly module of the framework and the sample features (docs/web.md)

# golden_web HOST, ADAPTER COMMAND: every golden file (full and patch mode) and the edge
# files through the module; the verdicts must be the native hosts' but for the listed
# differences (bindings/web/test/known-differences.txt). JavaScript numbers are doubles.
WEB_VERDICTS := $(PYTHON) bindings/web/test/verdicts.py
golden_web = $(WEB_VERDICTS) golden $(GOLDEN_DRIVER) --host $(1) --inexact-integers --every-feature $(GOLDEN) $(CURDIR)/$(WASM) -- $(2) && \
             $(WEB_VERDICTS) edge $(GOLDEN_DRIVER) --host $(1) --inexact-integers --edge $(GOLDEN_EDGE) $(CURDIR)/$(WASM) -- $(2)

# In Node.js, then in headless Chromium (a page over a loopback HTTP server).
test-golden-web: $(WASM)
	$(call golden_web,wasm,$(NODE) bindings/web/test/golden_adapter.mjs)
	$(call golden_web,wasm-chromium,$(PYTHON) bindings/web/test/browser.py golden-adapter)

# Under WasmKit, the Swift WebAssembly runtime, from a Swift program over the module's
# exports (Tests/wasmkit-host, a package of its own: the framework depends on nothing).
# A debug build: it builds in a third of the release build's time, and the goldens run
# in seconds either way.
WASMKIT_BUILD   := .build/wasmkit
WASMKIT_ADAPTER := $(WASMKIT_BUILD)/debug/WasmKitGoldenAdapter
$(WASMKIT_ADAPTER): Tests/wasmkit-host/Package.swift $(wildcard Tests/wasmkit-host/Sources/WasmKitGoldenAdapter/*.swift)
	$(SWIFT) build --package-path Tests/wasmkit-host --scratch-path $(WASMKIT_BUILD) --product WasmKitGoldenAdapter
	@touch $@

test-wasmkit: $(WASM) $(WASMKIT_ADAPTER) ## the WebAssembly module under WasmKit: golden files through a Swift host
	$(call golden_web,wasmkit,$(CURDIR)/$(WASMKIT_ADAPTER))

WEB_TYPED := .build/web/typed

test-web: lib test-golden-web ## the WebAssembly module and the web binding: golden files in Node.js and Chromium, binding tests, the search page
	$(NODE) bindings/web/esm.mjs --check
	CORELOGIC_WASM=$(CURDIR)/$(WASM) $(NODE) --test bindings/web/test/*.test.mjs
	@# A typed program on the binding's declarations and a feature's generated types.
	@mkdir -p $(WEB_TYPED)
	$(TYPEGEN) search --lang typescript --out $(WEB_TYPED) --library $(LIB)
	cp bindings/web/test/typed_search.ts $(WEB_TYPED)/
	tsc --strict --noEmit --module es2022 --target es2022 --lib es2022,dom $(WEB_TYPED)/typed_search.ts
	$(PYTHON) bindings/web/test/browser.py demo $(CURDIR)/.build/web

# The module's size and events per second through it in Node.js, beside the native addon
# in the same process (part of `make bench`).
.PHONY: bench-web
bench-web: $(WASM) node ## the module's size and events per second beside the native addon, in Node.js
	@echo "== The WebAssembly module beside the native addon, in Node.js =="
	$(NODE_RUN) Benchmarks/web/bench.mjs $(WASM)
