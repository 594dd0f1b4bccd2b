# corelogic: the one entry point. `make` builds the example library, `make test` runs
# every suite, `make help` lists the targets.
#
# The framework (Package.swift) ships no features. Everything that needs features uses
# the cookbook (Examples/Cookbook), a package built exactly the way an app team builds
# its own library (docs/adopting.md): its product libcookbook.so is "the library" below.
SWIFT    ?= swift
CC       ?= cc
PREFIX   ?= /usr/local
VALGRIND ?= valgrind
# The Python that runs the tests: the project's virtual environment (make setup).
VENV     := .build/venv
PYTHON   ?= $(CURDIR)/$(VENV)/bin/python

# ---- the library -------------------------------------------------------------------
# An app's release flags (docs/adopting.md): the Swift runtime linked in statically,
# cross-module optimization (the engine's generic code specialized for the app's
# features), only the functions of corelogic.h exported; each function in a section of
# its own, public Swift symbols not kept for other link units, identical functions
# folded, so the linker drops what the exports do not reach (docs/performance.md).
APP_FLAGS := -c release -Xswiftc -static-stdlib -Xswiftc -cross-module-optimization \
             -Xlinker --version-script=$(CURDIR)/include/corelogic.map \
             -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -Xfrontend -Xswiftc -internalize-at-link \
             -Xlinker --icf=safe
COOKBOOK  := Examples/Cookbook
BUILD     := .build/cookbook
LIB_DIR   := $(BUILD)/release
LIB       := $(LIB_DIR)/libcookbook.so
COOKBOOK_BUILD = $(SWIFT) build --package-path $(COOKBOOK) --scratch-path $(BUILD)
# Every host the tests start finds the library this way (docs/adopting.md, "hosts").
export CORELOGIC_LIBRARY := $(CURDIR)/$(LIB)
GOLDEN    := $(COOKBOOK)/golden

CFLAGS ?= -O2 -g -Wall -Wextra -Werror -std=c11
C_LINK := -Iinclude -L$(LIB_DIR) -lcookbook -Wl,-rpath,$(CURDIR)/$(LIB_DIR) -lpthread
C_OUT  := .build/c

# Every C host program runs under valgrind; `make test VALGRIND=` runs them bare.
VALGRIND_FLAGS := --leak-check=full --error-exitcode=1 --suppressions=$(CURDIR)/Tests/c/valgrind.supp -q
CHECKED        := $(if $(VALGRIND),$(VALGRIND) $(VALGRIND_FLAGS))

.PHONY: all lib help setup test clean
all: lib

lib:
	$(COOKBOOK_BUILD) $(APP_FLAGS) --product cookbook
	@ldd $(LIB) | grep -q 'libswift' && { echo "error: $(LIB) links a shared Swift runtime"; exit 1; } || true
	@echo "built $(LIB)"

# ---- what `make test` runs, suite by suite ------------------------------------------
# Each suite is a target below; `make SUITE` runs one (docs/testing.md says what each proves).
TEST_SUITES := \
	test-swift test-c test-persistence test-contract test-golden-c test-trace \
	test-examples test-docs test-schema test-python test-python-types test-jvm test-node test-web \
	test-app test-packages test-tools test-model test-explore test-tsan test-asan test-fuzz

# Every suite runs with a PATH of the commands the set-up installs, the toolchain and the
# base system (Tests/tools.sh), so a suite that leans on anything else fails here too.
TOOLS_BIN := .build/tools/bin
test: setup lib
	@toolchain=$$(sh Tests/tools.sh $(TOOLS_BIN)) && \
	    PATH="$(CURDIR)/$(TOOLS_BIN):$$toolchain" $(MAKE) --no-print-directory $(TEST_SUITES)

# The restricted PATH holds every command it lists and nothing else: a suite that runs a
# command the set-up did not install fails under it.
.PHONY: test-tools
test-tools: ## make test's PATH: every listed command, and a suite using an unlisted one fails
	sh Tests/test_tools.sh

# Installs what the tests need (system packages as root, Python tools into $(VENV)).
setup:
	@sh Tests/setup.sh $(VENV)

help:
	@echo "make                 the example library ($(LIB))"
	@echo "make test            every suite (make setup first installs what is missing):"
	@for suite in $(TEST_SUITES); do \
	    grep -hE "^([a-z-]+ )?$$suite:.*## " Makefile bindings/*/*.mk | sed -E "s/^([a-z-]+ )?($$suite):.*## (.*)/    \\2: \\3/"; done
	@echo "make wasm            the WebAssembly module of the framework and the sample features ($(WASM))"
	@echo "make demo            the search feature from Python against a local HTTP server"
	@echo "make bench           throughput, codec, traces, hosts and soak figures, side by side"
	@echo "make bench-instructions   instructions per event on each hot path (callgrind)"
	@echo "make bench-size      the app's library: as built, stripped, gzipped, the Swift runtime's share"
	@echo "make new-app DIR=... NAME=...   a new app package from the starter (docs/adopting.md)"
	@echo "make install PREFIX=...         header, export map, pkg-config files, the example library, its names' headers"
	@echo "make package [APP_LIB=... APP_NAME=...]   the app's library packaged for every host, into $(DIST)"
	@echo "make golden-update   rewrite the golden files' expectations from the engine"
	@echo "make schemas-update / typegen-examples / direct-update   committed schemas and generated code"
	@echo "make fuzz / test-model-long / soak / test-tinyfs   longer runs outside make test"
	@echo "make explore         every sample feature explored for EXPLORE_SECONDS each (default 300)"

clean:
	rm -rf .build

# ---- Swift ---------------------------------------------------------------------------
.PHONY: test-swift golden-update
test-swift: ## XCTest: the framework, then the cookbook (features, golden files)
	$(SWIFT) test --disable-swift-testing
	$(COOKBOOK_BUILD) --build-tests
	$(SWIFT) test --package-path $(COOKBOOK) --scratch-path $(BUILD) --skip-build --disable-swift-testing
	@# The golden files through the driver and the Swift adapter (AnySystem in-process).
	$(COOKBOOK_BUILD) --product CookbookGoldenAdapter
	$(call golden_for,swift,$(BUILD)/debug/CookbookGoldenAdapter)

# Rewrites the golden files' expectations from the library, through the golden driver.
golden-update: lib $(C_OUT)/golden_adapter
	$(GOLDEN_DRIVER) --host c --update $(GOLDEN) $(CURDIR)/$(LIB) -- $(C_OUT)/golden_adapter

# ---- C tests: Tests/c/NAME.c is built into .build/c/NAME against the library ----------
.PHONY: test-c test-persistence test-contract test-golden-c test-trace test-examples test-docs
$(C_OUT)/%: Tests/c/%.c include/corelogic.h $(LIB) | $(C_OUT)
	$(CC) $(CFLAGS) -pthread $< -o $@ $(C_LINK)
$(C_OUT):
	@mkdir -p $@
.PRECIOUS: $(C_OUT)/%

test-c: lib $(C_OUT)/abi_test ## the C ABI rule by rule; the exports are exactly the header's
	$(CHECKED) $(C_OUT)/abi_test
	@sh Tests/c/check_exports.sh $(LIB) include/corelogic.h

CRASH_KILLS ?= 150
test-persistence: lib $(C_OUT)/persistence_test $(C_OUT)/crash_test ## journal, snapshots, restore; a host killed many times
	$(CHECKED) $(C_OUT)/persistence_test
	$(C_OUT)/crash_test $(CRASH_KILLS)

# limits_test sends 16 MiB inputs (too slow for valgrind); fault_test interposes
# write/fsync/rename/malloc, which valgrind would replace.
test-contract: lib $(C_OUT)/contract_test $(C_OUT)/limits_test ## error paths: queued inputs, limits, disk faults, out of memory
	$(CHECKED) $(C_OUT)/contract_test
	$(C_OUT)/limits_test
	$(CC) $(CFLAGS) -pthread -rdynamic Tests/c/fault_test.c -o $(C_OUT)/fault_test $(C_LINK)
	$(C_OUT)/fault_test

test-trace: lib $(C_OUT)/trace_test ## traces through the C ABI
	$(CHECKED) $(C_OUT)/trace_test

# The golden driver (docs/golden-files.md) runs the golden files through one host's
# adapter, in full and in patch mode, and checks that every host names the passes-* and
# fails-* files of GOLDEN_EDGE as such. Each adapter gets the library's path.
GOLDEN_DRIVER := $(PYTHON) Tests/hosts/golden_driver.py
GOLDEN_EDGE   := Tests/hosts/golden-edge
GOLDEN_LIB    := $(CURDIR)/$(LIB)
# golden_for HOST, ADAPTER COMMAND[, DRIVER OPTIONS]: the golden files, then the edge cases.
golden_for = $(GOLDEN_DRIVER) --host $(1) $(3) --every-feature $(GOLDEN) $(GOLDEN_LIB) -- $(2) && \
             $(GOLDEN_DRIVER) --host $(1) $(3) --edge $(GOLDEN_EDGE) $(GOLDEN_LIB) -- $(2)

$(C_OUT)/golden_adapter: Tests/c/golden_adapter.c include/corelogic.h | $(C_OUT)
	$(CC) $(CFLAGS) -Iinclude $< -o $@ -ldl

test-golden-c: lib $(C_OUT)/golden_adapter ## the golden files through the C ABI; two libraries in one process
	$(call golden_for,c,$(CHECKED) $(C_OUT)/golden_adapter)
	$(PYTHON) -m pytest -q -p no:cacheprovider Tests/hosts/test_golden_driver.py
	@# Two copies loaded by path with RTLD_LOCAL, as the JVM and Node.js glue load the library.
	$(CC) $(CFLAGS) -D_GNU_SOURCE -Iinclude Tests/c/two_libraries_test.c -o $(C_OUT)/two_libraries_test -ldl
	cp $(LIB) $(C_OUT)/libcookbook-copy.so
	$(C_OUT)/two_libraries_test $(GOLDEN_LIB) $(CURDIR)/$(C_OUT)/libcookbook-copy.so

# A journal on a small tmpfs that fills up (needs root and mount; not part of `make test`,
# whose portable fault injection is fault_test). Skips, saying so, if it cannot mount.
.PHONY: test-tinyfs
test-tinyfs: $(C_OUT)/tinyfs_test
	@mnt=$$(mktemp -d /tmp/corelogic-tinyfs-XXXXXX); scratch=$$(mktemp -d /tmp/corelogic-tinyfs-copy-XXXXXX); \
	if mount -t tmpfs -o size=256k tmpfs $$mnt 2>/dev/null; then \
	    $(C_OUT)/tinyfs_test $$mnt $$scratch; rc=$$?; umount $$mnt; rmdir $$mnt $$scratch; exit $$rc; \
	else \
	    echo "test-tinyfs: skipped (cannot mount a tmpfs here: needs root)"; rmdir $$mnt $$scratch; \
	fi

# ---- install, and the C examples built the way a C user builds them ------------------
# The framework's part (header, export map, valgrind suppressions, corelogic.pc) and an
# app's library with its own pkg-config file and the header of each feature's names
# (corelogic_<feature>.h, typegen's C output) beside corelogic.h (APP_LIB, APP_NAME: the
# cookbook by default).
APP_LIB  ?= $(LIB)
APP_NAME ?= cookbook
VERSION  := $(shell sed -n 's/#define CORELOGIC_VERSION_STRING "\(.*\)"/\1/p' include/corelogic.h)
# typegen needs only the standard library: the project's Python if it is set up, else the system's.
TYPEGEN_PYTHON = $(if $(wildcard $(PYTHON)),$(PYTHON),python3)
.PHONY: install examples
install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/corelogic
	install -m 644 include/corelogic.h $(DESTDIR)$(PREFIX)/include/corelogic.h
	install -m 644 include/corelogic.map Tests/c/valgrind.supp $(DESTDIR)$(PREFIX)/share/corelogic/
	install -m 755 $(APP_LIB) $(DESTDIR)$(PREFIX)/lib/lib$(APP_NAME).so
	@# Debug info stays in the build tree; the symbol table stays too, so valgrind's
	@# suppressions for the Swift runtime inside the library still match.
	strip --strip-debug $(DESTDIR)$(PREFIX)/lib/lib$(APP_NAME).so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$(VERSION)|" corelogic.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/corelogic.pc
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$(VERSION)|" -e 's|@NAME@|$(APP_NAME)|g' \
	    corelogic-app.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$(APP_NAME).pc
	PYTHONPATH=$(CURDIR)/bindings/python $(TYPEGEN_PYTHON) -m corelogic.typegen --all --lang c \
	    --library $(abspath $(APP_LIB)) --out $(DESTDIR)$(PREFIX)/include
	@echo "installed to $(DESTDIR)$(PREFIX)"

EXAMPLES_PREFIX := $(CURDIR)/.build/prefix
EXAMPLES_OUT    := .build/examples
EXAMPLES        := playcatch downloads patches
EXAMPLE_FLAGS    = $$(PKG_CONFIG_PATH=$(EXAMPLES_PREFIX)/lib/pkgconfig pkg-config --cflags --libs cookbook)

examples: lib
	$(MAKE) --no-print-directory install PREFIX=$(EXAMPLES_PREFIX)
	@mkdir -p $(EXAMPLES_OUT)
	@for example in $(EXAMPLES); do \
	    echo "$(CC) $(CFLAGS) -pthread -IExamples/c Examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example (pkg-config cookbook)"; \
	    $(CC) $(CFLAGS) -pthread -IExamples/c Examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example $(EXAMPLE_FLAGS) -lm || exit 1; \
	done

# The small JSON library the C examples use (copy it with them), and its patch applier.
EXAMPLE_JSON := Examples/c/json.c
test-examples: examples | $(C_OUT) ## the C examples, built against an installed copy
	$(CC) $(CFLAGS) -IExamples/c Tests/c/json_patch_test.c $(EXAMPLE_JSON) -o $(C_OUT)/json_patch_test -lm
	$(CHECKED) $(C_OUT)/json_patch_test
	CHECKED="$(CHECKED)" OUT=$(EXAMPLES_OUT) sh Examples/c/test_examples.sh

# Every ```c block of the C guide compiles, and its programs run and check themselves.
test-docs: lib ## every C block of docs/c-hosts.md compiles and runs
	CC="$(CC)" CFLAGS="$(CFLAGS)" CHECKED="$(CHECKED)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/$(LIB)

# ---- schemas and typed host code (docs/schemas.md) -----------------------------------
# corelogic_feature_schema through the ABI (under valgrind); the committed generated files
# (Examples/python/generated, Examples/c/corelogic_*.h, the cookbook's schemas and direct
# JSON) are up to date with the library; the typed Python example passes mypy --strict
# and runs. The schema-versus-library checks (jsonschema) and the typegen checks (mypy,
# tsc) are in bindings/python/tests (test-python).
.PHONY: test-schema typegen-examples schemas-update direct-update

# The features whose direct JSON conformances (docs/performance.md) are generated into
# the cookbook: those whose states and events are hot.
DIRECT_FEATURES  := counter search playcatch
DIRECT_OUT       := $(COOKBOOK)/Sources/Cookbook/Generated
# The other sample features' direct JSON, for the WebAssembly build only (docs/web.md),
# which has no Codable; the native library goes on reading them through Codable.
# typeahead's types are in pharmacies' file (pharmacies composes typeahead).
WASM_DIRECT_FEATURES := downloads list pharmacies profile share signup
WASM_DIRECT_OUT      := $(COOKBOOK)/Generated-wasm
SCHEMAS          := $(COOKBOOK)/schemas
# The features whose generated code is committed with the examples.
TYPEGEN_EXAMPLES := playcatch
TYPEGEN          := PYTHONPATH=$(CURDIR)/bindings/python $(PYTHON) -m corelogic.typegen

test-schema: lib $(C_OUT)/schema_test ## schemas and committed generated code are current
	$(CHECKED) $(C_OUT)/schema_test
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang python,typescript --out Examples/python/generated --check
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang c --out Examples/c --check
	$(TYPEGEN) --all --lang schema --out $(SCHEMAS) --check
	$(TYPEGEN) $(DIRECT_FEATURES) --lang swift --out $(DIRECT_OUT) --check
	$(TYPEGEN) $(WASM_DIRECT_FEATURES) --lang swift --out $(WASM_DIRECT_OUT) --check
	cd Examples/python && MYPYPATH=$(CURDIR)/bindings/python $(PYTHON) -m mypy --strict --no-error-summary --cache-dir $(CURDIR)/.build/mypy typed_playcatch.py generated/
	$(PYTHON) Examples/python/typed_playcatch.py --throws 2

typegen-examples: lib
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang python,typescript --out Examples/python/generated
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang c --out Examples/c

# The schemas of every feature, committed, so a change to a Swift type that changes the
# JSON shows up in review as a diff; test-schema fails until it is updated here.
schemas-update: lib
	$(TYPEGEN) --all --lang schema --out $(SCHEMAS)

# Regenerates the direct JSON conformances after a change to a feature's types. The schema
# comes from a library built without them (they may not compile against the new types).
direct-update:
	$(SWIFT) build --package-path $(COOKBOOK) --scratch-path .build/codable-only $(APP_FLAGS) --product cookbook -Xswiftc -DCORELOGIC_NO_DIRECT_JSON
	$(TYPEGEN) $(DIRECT_FEATURES) --lang swift --out $(DIRECT_OUT) --library .build/codable-only/release/libcookbook.so
	$(TYPEGEN) $(WASM_DIRECT_FEATURES) --lang swift --out $(WASM_DIRECT_OUT) --library .build/codable-only/release/libcookbook.so

# ---- Python ----------------------------------------------------------------------------
.PHONY: test-python test-python-types test-model test-model-long demo
test-python: lib test-golden-python ## the Python binding (pytest): golden files, typegen, inspector
	$(PYTHON) -m pytest -q bindings/python/tests

.PHONY: test-golden-python
test-golden-python: lib
	$(call golden_for,python,$(PYTHON) bindings/python/tests/golden_adapter.py)

test-python-types: ## mypy --strict over the Python package
	cd bindings/python && $(PYTHON) -m mypy --strict corelogic

# Random host programs on real features through the C ABI, every batch compared with an
# independent model of the loop rules (Tests/model/loop_model.py); Hypothesis shrinks a
# failure to a minimal program. test-model-long runs many more, with longer programs.
MODEL_PYTEST := $(PYTHON) -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning Tests/model
test-model: lib ## random host programs against a model of the loop rules
	CORELOGIC_MODEL_PROFILE=ci $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

test-model-long: lib
	CORELOGIC_MODEL_PROFILE=long $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

# The demo needs only the standard library: the system's python3 runs it.
demo: lib
	python3 Examples/python/demo.py

# ---- an app package from the starter (docs/adopting.md) --------------------------------
# new-app writes a package that passes out of the box; test-app makes one in a temporary
# directory, depends on this checkout by a versioned URL (a local tag), adds a feature,
# builds its library and runs it through every runner.
.PHONY: new-app test-app
new-app:
	@test -n "$(DIR)" -a -n "$(NAME)" || { echo "usage: make new-app DIR=path NAME=name [CORELOGIC_URL=... CORELOGIC_VERSION=...]"; exit 2; }
	python3 Examples/Starter/new_app.py --dir "$(DIR)" --name "$(NAME)" \
	    $(if $(CORELOGIC_URL),--url "$(CORELOGIC_URL)") $(if $(CORELOGIC_VERSION),--version "$(CORELOGIC_VERSION)")

# test-app's rule is at the end: it needs every host's golden adapter (jvm.mk, node.mk).

# ---- sanitizers (docs/testing.md) ------------------------------------------------------
# The library rebuilt with a sanitizer in its own scratch path, and C hosts built with
# the Swift toolchain's clang (its sanitizer runtimes match the ones Swift emits calls
# to; the executable carries the runtime, the library resolves it from there).
#   test-tsan: ThreadSanitizer; the many-thread stress host.
#   test-asan: AddressSanitizer in the library, AddressSanitizer + UndefinedBehavior-
#              Sanitizer in the C hosts (Swift on Linux takes no -sanitize=undefined).
# LeakSanitizer stays off (detect_leaks=0): Swift keeps enum tags in pointers' spare
# bits, which it cannot follow, so it reports reachable objects; valgrind checks leaks.
.PHONY: test-tsan test-asan
SWIFT_TOOLCHAIN = $(dir $(realpath $(shell command -v $(SWIFT))))
SAN_CC          = $(SWIFT_TOOLCHAIN)clang
SAN_SWIFT_LIBS  = $(SWIFT_TOOLCHAIN)../lib/swift/linux
SAN_CFLAGS     := -g -O1 -fno-omit-frame-pointer -std=c11 -pthread -fuse-ld=lld -Iinclude
SAN_LIB_FLAGS  := -Xswiftc -static-stdlib -Xlinker --version-script=$(CURDIR)/include/corelogic.map
SAN_BUILD       = $(SWIFT) build --package-path $(COOKBOOK) --product cookbook $(SAN_LIB_FLAGS)
STRESS_ROUNDS  ?= 1

TSAN_DIR     := .build/tsan
TSAN_LINK     = -L$(TSAN_DIR)/debug -lcookbook -Wl,-rpath,$(CURDIR)/$(TSAN_DIR)/debug \
                -L$(SAN_SWIFT_LIBS) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SAN_SWIFT_LIBS)
# The toolchain's ThreadSanitizer runtime intercepts libdispatch, hence -ldispatch above.
TSAN_RUN     := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"

test-tsan: ## ThreadSanitizer: many threads on one system
	$(SAN_BUILD) --scratch-path $(TSAN_DIR) -Xswiftc -sanitize=thread
	@mkdir -p $(TSAN_DIR)/c
	$(SAN_CC) $(SAN_CFLAGS) -fsanitize=thread -Wall -Wextra -Werror Tests/c/stress_test.c -o $(TSAN_DIR)/c/stress_test $(TSAN_LINK)
	$(TSAN_RUN) $(TSAN_DIR)/c/stress_test $(STRESS_ROUNDS)

ASAN_DIR     := .build/asan
ASAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_LINK     = -L$(ASAN_DIR)/debug -lcookbook -Wl,-rpath,$(CURDIR)/$(ASAN_DIR)/debug
ASAN_RUN     := ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ASAN_KILLS   ?= 20
ASAN_TESTS   := abi_test persistence_test crash_test stress_test

test-asan: ## AddressSanitizer + UBSan: C tests, golden files, examples
	$(SAN_BUILD) --scratch-path $(ASAN_DIR) -Xswiftc -sanitize=address
	@mkdir -p $(ASAN_DIR)/c $(ASAN_DIR)/examples
	@for test in $(ASAN_TESTS); do \
	    echo "$(SAN_CC) $(ASAN_FLAGS) Tests/c/$$test.c -o $(ASAN_DIR)/c/$$test"; \
	    $(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) Tests/c/$$test.c -o $(ASAN_DIR)/c/$$test $(ASAN_LINK) || exit 1; \
	done
	$(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) Tests/c/golden_adapter.c -o $(ASAN_DIR)/c/golden_adapter -ldl
	@for example in $(EXAMPLES); do \
	    echo "$(SAN_CC) $(ASAN_FLAGS) Examples/c/$$example.c -o $(ASAN_DIR)/examples/$$example"; \
	    $(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) -IExamples/c Examples/c/$$example.c $(EXAMPLE_JSON) -o $(ASAN_DIR)/examples/$$example $(ASAN_LINK) -lm || exit 1; \
	done
	$(ASAN_RUN) $(ASAN_DIR)/c/abi_test
	$(ASAN_RUN) $(ASAN_DIR)/c/persistence_test
	$(ASAN_RUN) $(ASAN_DIR)/c/crash_test $(ASAN_KILLS)
	$(ASAN_RUN) $(ASAN_DIR)/c/stress_test $(STRESS_ROUNDS)
	$(ASAN_RUN) $(GOLDEN_DRIVER) --host c-asan $(GOLDEN) $(CURDIR)/$(ASAN_DIR)/debug/libcookbook.so -- $(ASAN_DIR)/c/golden_adapter
	$(ASAN_RUN) OUT=$(ASAN_DIR)/examples sh Examples/c/test_examples.sh
	$(ASAN_RUN) CC="$(SAN_CC)" CFLAGS="$(SAN_CFLAGS) $(ASAN_FLAGS)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/$(ASAN_DIR)/debug/libcookbook.so

# ---- fuzzing ---------------------------------------------------------------------------
# libFuzzer with AddressSanitizer over every input path a host reaches: the parser, each
# feature's event and state decoding, and restore from fuzzed journal directories
# (inputs starting with "journal:", Fuzz/InputFuzzer/JournalFuzz.swift). A package of its
# own (Fuzz/Package.swift). Seeded from Fuzz/corpus; new inputs go to .build/fuzz/corpus.
# A crash fails the run and leaves its input in .build/fuzz/crashes/ (replay:
# .build/fuzz/debug/InputFuzzer FILE). Leak checking stays with valgrind (see above).
FUZZ_SECONDS ?= 60
FUZZER       := .build/fuzz/debug/InputFuzzer
.PHONY: fuzz test-fuzz fuzz-build

fuzz-build:
	$(SWIFT) build --package-path Fuzz --scratch-path .build/fuzz --product InputFuzzer

fuzz test-fuzz: fuzz-build ## libFuzzer over every input a host can send (FUZZ_SECONDS)
	@mkdir -p .build/fuzz/corpus .build/fuzz/crashes
	ASAN_OPTIONS=detect_leaks=0 $(FUZZER) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=20 \
	    -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/crashes/ .build/fuzz/corpus Fuzz/corpus \
	  || { echo "fuzz: FAILED; the input is in .build/fuzz/crashes/ (replay: $(FUZZER) FILE):"; \
	       ls -1 .build/fuzz/crashes/; exit 1; }

# ---- benchmarks (docs/performance.md): not part of `make test` -------------------------
# In-process Swift benchmarks live in a package of their own (Benchmarks/Package.swift),
# built with the app's release flags.
BENCH_BUILD = $(SWIFT) build --package-path Benchmarks --scratch-path .build/bench -c release -Xswiftc -cross-module-optimization
.PHONY: bench bench-instructions bench-trace bench-hosts bench-size soak

bench: bench-trace bench-size lib | $(C_OUT)
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/bench.c -o $(C_OUT)/bench $(C_LINK)
	$(BENCH_BUILD) --product CodecBench
	@echo "== C host through the ABI =="
	$(C_OUT)/bench
	@echo
	@echo "== JSON codec: ours vs Foundation =="
	.build/bench/release/CodecBench
	@echo; echo "== Python binding =="; $(PYTHON) bindings/python/bench.py
	@$(MAKE) --no-print-directory bench-hosts bench-web soak

# Instructions per event on each hot path (C ABI, in-process Swift, Python), counted by
# callgrind: repeatable on a loaded machine, unlike times.
# BENCH_INSTRUCTIONS_FLAGS=--check fails when a path misses its target.
bench-instructions: lib | $(C_OUT)
	$(CC) -O2 -std=c11 Benchmarks/instructions/abi_driver.c -o $(C_OUT)/abi_driver $(C_LINK)
	$(CC) -O2 -std=c11 Benchmarks/instructions/startup_driver.c -o $(C_OUT)/startup_driver -ldl
	$(BENCH_BUILD) --product InstructionBench
	$(PYTHON) Benchmarks/instructions/run.py $(C_OUT)/abi_driver .build/bench/release/InstructionBench $(LIB) \
	    --startup-driver $(C_OUT)/startup_driver $(BENCH_INSTRUCTIONS_FLAGS)

# The size of the app's library: as built, stripped, gzipped, and by origin, beside an
# empty Swift library linked the same way (the Swift runtime's floor).
SIZE_OUT := .build/size
bench-size: lib
	@mkdir -p $(SIZE_OUT)
	$(SWIFT)c -emit-library -O -static-stdlib -module-name Empty Benchmarks/size/empty.swift -o $(SIZE_OUT)/libempty.so \
	    -Xlinker --gc-sections -Xlinker --icf=safe -Xlinker --version-script=$(CURDIR)/Benchmarks/size/empty.map
	@echo "== Size of the app's library =="
	$(PYTHON) Benchmarks/size/size.py $(LIB) $(SIZE_OUT)/libempty.so
	@echo

# Tracing off and on, side by side in one run.
bench-trace: lib | $(C_OUT)
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/trace_bench.c -o $(C_OUT)/trace_bench $(C_LINK)
	@echo "== Traces: one system untraced, one traced, interleaved =="
	$(C_OUT)/trace_bench
	@echo

# Load and soak: 8 threads x SOAK_EVENTS events on one system and SOAK_SYSTEMS systems
# created and freed, exact counts, resident memory before and after. Fails if a count is
# wrong or memory keeps growing.
SOAK_EVENTS  ?= 1000000
SOAK_SYSTEMS ?= 1000000
soak: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Benchmarks/c/soak.c -o $(C_OUT)/soak $(C_LINK)
	$(C_OUT)/soak $(SOAK_EVENTS) $(SOAK_SYSTEMS)

# ---- the JVM and Node.js bindings (bindings/jvm, bindings/node) ------------------------
include bindings/jvm/jvm.mk
include bindings/node/node.mk
include bindings/web/web.mk

# Each host's counter against its floor (a bare FFI call and the parse of its batch), in
# full and in patch mode, side by side with C. BENCH_HOSTS_FLAGS=--check fails on a missed ratio.
bench-hosts: jvm node | $(C_OUT)
	$(CC) -O2 -std=c11 Benchmarks/hosts/counter.c -o $(C_OUT)/bench_counter $(C_LINK)
	@mkdir -p $(JVM_OUT)/bench
	$(JAVAC) -d $(JVM_OUT)/bench -cp $(JVM_OUT)/classes Benchmarks/hosts/jvm/CounterBench.java
	@echo
	@echo "== Hosts: the counter through C, Python, the JVM and Node.js, each against its floor =="
	$(PYTHON) Benchmarks/hosts/compare.py $(BENCH_HOSTS_FLAGS) $(C_OUT)/bench_counter \
	    "$(PYTHON) Benchmarks/hosts/counter.py" \
	    "$(JVM_RUN) -cp $(JVM_OUT)/classes:$(JVM_OUT)/bench dev.corelogic.CounterBench" \
	    "$(NODE_RUN) Benchmarks/hosts/counter.js"

# ---- the explorer (docs/testing.md, "Exploring a feature") ------------------------------
# test-explore: every sample feature explored with a fixed seed (the same programs every
# run; any broken invariant or engine rule fails), then a feature with a planted bug
# (Tests/explore, its own library, built in debug) found, shrunk and written as a golden
# file that every runner fails on and that passes against the right feature.
# explore: the long run, EXPLORE_SECONDS per feature, seeds from EXPLORE_SEED upwards.
.PHONY: test-explore explore
EXPLORE_SEED     ?= 1
EXPLORE_PROGRAMS ?= 100
EXPLORE_SECONDS  ?= 300
PLANTED_BUILD    := .build/planted
test-explore: lib $(C_OUT)/golden_adapter jvm $(JVM_OUT)/test-classes.stamp node ## generated programs on every sample feature (fixed seed); a planted bug found, shrunk, failing in every runner
	$(PYTHON) Tests/explore/explore_samples.py --library $(LIB) --seed $(EXPLORE_SEED) --programs $(EXPLORE_PROGRAMS)
	$(SWIFT) build --package-path Tests/explore --scratch-path $(PLANTED_BUILD)
	$(PYTHON) Tests/explore/test_planted_bug.py --planted $(CURDIR)/$(PLANTED_BUILD)/debug/libplanted.so \
	    --cookbook $(CURDIR)/$(LIB) --swift-adapter $(CURDIR)/$(PLANTED_BUILD)/debug/PlantedBugsGoldenAdapter

explore: lib
	$(PYTHON) Tests/explore/explore_samples.py --library $(LIB) --seed $(EXPLORE_SEED) --seconds $(EXPLORE_SECONDS)

# ---- packages: an app's library for every host (docs/adopting.md, "Shipping") ---------
# make package: into $(DIST), from APP_LIB and APP_NAME (the cookbook by default): a wheel,
# an npm tarball, a jar, and a C prefix (make install). bindings/package.py says what each
# holds. test-packages installs each into an empty environment and runs a typed program.
DIST := .build/dist
.PHONY: package test-packages
package: lib jvm node
	@rm -rf $(DIST)/c
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(DIST)/c
	$(PYTHON) bindings/package.py --library $(APP_LIB) --name $(APP_NAME) --out $(DIST) \
	    --addon $(NODE_ADDON) --jni $(JVM_JNI) --classes $(JVM_OUT)/classes

# A library whose corelogic_abi_version() is not the header's, for the mismatch checks.
$(C_OUT)/libother_abi.so: Tests/packages/other_abi.c | $(C_OUT)
	$(CC) $(CFLAGS) -shared -fPIC -Iinclude $< -o $@

test-packages: package $(C_OUT)/libother_abi.so ## each host's package installed in an empty environment, typed programs, ABI checks
	$(PYTHON) Tests/packages/test_packages.py --dist $(DIST) --name $(APP_NAME) --other-abi $(CURDIR)/$(C_OUT)/libother_abi.so

# The app test drives every host's golden adapter, so it comes after their makefiles.
test-app: lib $(C_OUT)/golden_adapter jvm $(JVM_OUT)/test-classes.stamp node ## a new app package from the starter, on a versioned dependency
	$(PYTHON) Tests/app/test_app.py --python $(PYTHON)
