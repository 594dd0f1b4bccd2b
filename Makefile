# corelogic: the one entry point. `make` builds the library, `make test` runs every suite.
SWIFT   ?= swift
PYTHON  ?= python3
CC      ?= cc
PREFIX  ?= /usr/local
VALGRIND ?= valgrind

# The C library: release, Swift runtime linked in statically (no libswift*.so needed),
# only the corelogic_* symbols exported.
LIB_FLAGS := -c release -Xswiftc -static-stdlib \
             -Xlinker --version-script=$(CURDIR)/include/corelogic.map
LIB       := .build/release/libcorelogic.so
CFLAGS    ?= -O2 -g -Wall -Wextra -Werror -std=c11
C_LINK    := -Iinclude -L.build/release -lcorelogic -Wl,-rpath,$(CURDIR)/.build/release -lpthread
C_OUT     := .build/c

.PHONY: all lib test test-swift test-c test-python golden-update bench demo install examples clean

all: lib

lib:
	$(SWIFT) build $(LIB_FLAGS) --product corelogic
	@ldd $(LIB) | grep -q 'libswift' && { echo "error: $(LIB) links a shared Swift runtime"; exit 1; } || true
	@echo "built $(LIB)"

test: lib test-swift test-c test-python

test-swift:
	$(SWIFT) test --disable-swift-testing

$(C_OUT):
	@mkdir -p $(C_OUT)

test-c: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Tests/c/abi_test.c -o $(C_OUT)/abi_test $(C_LINK)
	$(C_OUT)/abi_test
	@sh Tests/c/check_exports.sh $(LIB) include/corelogic.h

# ------------------------------------------------------------------------------
# Persistence (docs/persistence.md): journal/snapshot/restore conformance, torn tails and
# corruption, then the crash test (a journaling host killed with SIGKILL many times).
# ------------------------------------------------------------------------------
.PHONY: test-persistence

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-persistence

CRASH_KILLS ?= 150

test-persistence: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Tests/c/persistence_test.c -o $(C_OUT)/persistence_test $(C_LINK)
	$(CHECKED) $(C_OUT)/persistence_test
	$(CC) $(CFLAGS) -pthread Tests/c/crash_test.c -o $(C_OUT)/crash_test $(C_LINK)
	$(C_OUT)/crash_test $(CRASH_KILLS)
	@sh Tests/c/check_exports.sh $(LIB) include/corelogic.h

golden-update: lib $(C_OUT)/golden_adapter
	$(GOLDEN_DRIVER) --host c --update $(GOLDEN_DIR) $(GOLDEN_LIB) -- $(C_OUT)/golden_adapter

test-python: lib
	$(PYTHON) -m pytest -q bindings/python/tests

bench: lib | $(C_OUT)
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/bench.c -o $(C_OUT)/bench $(C_LINK)
	$(SWIFT) build -c release --scratch-path .build/bench --product CodecBench
	@echo "== C host through the ABI =="
	$(C_OUT)/bench
	@echo
	@echo "== JSON codec: ours vs Foundation =="
	.build/bench/release/CodecBench
	@if [ -f bindings/python/bench.py ]; then echo; echo "== Python binding =="; $(PYTHON) bindings/python/bench.py; fi
	@$(MAKE) --no-print-directory bench-hosts

# Instructions per event on each hot path (C ABI, in-process Swift, Python), counted by
# callgrind: repeatable on a loaded machine, unlike times. Not part of `make test`.
# BENCH_INSTRUCTIONS_FLAGS=--check fails when a path misses its target.
.PHONY: bench-instructions
bench-instructions: lib | $(C_OUT)
	$(CC) -O2 -std=c11 Benchmarks/instructions/abi_driver.c -o $(C_OUT)/abi_driver $(C_LINK)
	$(SWIFT) build -c release --scratch-path .build/bench --product InstructionBench
	$(PYTHON) Benchmarks/instructions/run.py $(C_OUT)/abi_driver .build/bench/release/InstructionBench $(LIB) $(BENCH_INSTRUCTIONS_FLAGS)

demo: lib
	$(PYTHON) examples/python/demo.py

install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/corelogic
	install -m 644 include/corelogic.h $(DESTDIR)$(PREFIX)/include/corelogic.h
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libcorelogic.so
	@# Debug info stays in the build tree; the symbol table stays too, so valgrind's
	@# suppressions for the Swift runtime inside the library still match.
	strip --strip-debug $(DESTDIR)$(PREFIX)/lib/libcorelogic.so
	install -m 644 Tests/c/valgrind.supp $(DESTDIR)$(PREFIX)/share/corelogic/valgrind.supp
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$$(sed -n 's/#define CORELOGIC_VERSION_STRING "\(.*\)"/\1/p' include/corelogic.h)|" \
	    corelogic.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/corelogic.pc
	@echo "installed to $(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build

# ------------------------------------------------------------------------------
# C hosts: the golden files through the ABI, the example programs, the guide's snippets
# ------------------------------------------------------------------------------
.PHONY: test-golden-c test-examples test-docs

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-golden-c test-examples test-docs

# Every C host program runs under valgrind; `make test VALGRIND=` runs them bare.
VALGRIND_FLAGS := --leak-check=full --error-exitcode=1 --suppressions=$(CURDIR)/Tests/c/valgrind.supp -q
CHECKED        := $(if $(VALGRIND),$(VALGRIND) $(VALGRIND_FLAGS))
# The small JSON library the C examples use (copy it with them); the golden runner uses it too.
EXAMPLE_JSON      := examples/c/json.c

# The golden driver (docs/golden-files.md) runs the golden files through one host's
# adapter, in full and in patch mode, and checks that every host names the passes-* and
# fails-* files of GOLDEN_EDGE as such. Each adapter gets the library's path.
GOLDEN_DRIVER := $(PYTHON) Tests/hosts/golden_driver.py
GOLDEN_DIR    ?= Tests/golden
GOLDEN_EDGE   := Tests/hosts/golden-edge
GOLDEN_LIB    ?= $(CURDIR)/$(LIB)
# golden_for HOST, ADAPTER COMMAND[, DRIVER OPTIONS]: the golden files, then the edge cases.
golden_for = $(GOLDEN_DRIVER) --host $(1) $(3) --every-feature $(GOLDEN_DIR) $(GOLDEN_LIB) -- $(2) && \
             $(GOLDEN_DRIVER) --host $(1) $(3) --edge $(GOLDEN_EDGE) $(GOLDEN_LIB) -- $(2)

$(C_OUT)/golden_adapter: Tests/c/golden_adapter.c include/corelogic.h | $(C_OUT)
	$(CC) $(CFLAGS) -Iinclude $< -o $@ -ldl

test-golden-c: lib $(C_OUT)/golden_adapter
	$(call golden_for,c,$(CHECKED) $(C_OUT)/golden_adapter)
	CORELOGIC_LIBRARY=$(GOLDEN_LIB) $(PYTHON) -m pytest -q -p no:cacheprovider Tests/hosts/test_golden_driver.py
	@# Two copies loaded by path with RTLD_LOCAL, as the JVM and Node.js glue load the library.
	$(CC) $(CFLAGS) -D_GNU_SOURCE -Iinclude Tests/c/two_libraries_test.c -o $(C_OUT)/two_libraries_test -ldl
	cp $(GOLDEN_LIB) $(C_OUT)/libcorelogic-copy.so
	$(C_OUT)/two_libraries_test $(GOLDEN_LIB) $(CURDIR)/$(C_OUT)/libcorelogic-copy.so

.PHONY: test-golden-python
test-python: test-golden-python
test-golden-python: lib
	$(call golden_for,python,$(PYTHON) bindings/python/tests/golden_adapter.py)

# The examples are built the way a C user builds them: against an installed copy of
# the library, with the flags pkg-config gives.
EXAMPLES_PREFIX := $(CURDIR)/.build/prefix
EXAMPLES_OUT    := .build/examples
EXAMPLES        := playcatch downloads patches
EXAMPLE_FLAGS    = $$(PKG_CONFIG_PATH=$(EXAMPLES_PREFIX)/lib/pkgconfig pkg-config --cflags --libs corelogic)

examples: lib
	$(MAKE) --no-print-directory install PREFIX=$(EXAMPLES_PREFIX)
	@mkdir -p $(EXAMPLES_OUT)
	@for example in $(EXAMPLES); do \
	    echo "$(CC) $(CFLAGS) -pthread -Iexamples/c examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example (pkg-config corelogic)"; \
	    $(CC) $(CFLAGS) -pthread -Iexamples/c examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example $(EXAMPLE_FLAGS) -lm || exit 1; \
	done

# The examples' JSON library: its patch applier.
test-examples: examples | $(C_OUT)
	$(CC) $(CFLAGS) -Iexamples/c Tests/c/json_patch_test.c $(EXAMPLE_JSON) -o $(C_OUT)/json_patch_test -lm
	$(CHECKED) $(C_OUT)/json_patch_test
	CHECKED="$(CHECKED)" OUT=$(EXAMPLES_OUT) sh examples/c/test_examples.sh

# Every ```c block of the C guide compiles, and its programs run and check themselves.
test-docs: lib
	CC="$(CC)" CFLAGS="$(CFLAGS)" CHECKED="$(CHECKED)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/.build/release

# ---- fuzzing -----------------------------------------------------------------
# libFuzzer with AddressSanitizer over every input path a host reaches: the parser, each
# feature's event and state decoding, and restore from fuzzed journal directories
# (snapshot and segment files; inputs starting with "journal:", see
# Fuzz/InputFuzzer/JournalFuzz.swift). Seeded from Fuzz/corpus; new inputs go to
# .build/fuzz/corpus. `make test` runs it for FUZZ_SECONDS (60); a crash fails the run
# and leaves its input in .build/fuzz/crashes/ (replay: .build/fuzz/debug/InputFuzzer
# FILE). Leak checking stays with valgrind: Swift keeps enum tags in pointers' spare
# bits, which LeakSanitizer cannot follow, so it reports reachable objects as leaked.
FUZZ_SECONDS ?= 60
FUZZER       := .build/fuzz/debug/InputFuzzer
.PHONY: fuzz test-fuzz fuzz-build
test: test-fuzz

fuzz-build:
	CORELOGIC_FUZZ=1 $(SWIFT) build --scratch-path .build/fuzz --product InputFuzzer \
	    -Xswiftc -sanitize=fuzzer,address

fuzz test-fuzz: fuzz-build
	@mkdir -p .build/fuzz/corpus .build/fuzz/crashes
	ASAN_OPTIONS=detect_leaks=0 $(FUZZER) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=20 \
	    -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/crashes/ .build/fuzz/corpus Fuzz/corpus \
	  || { echo "fuzz: FAILED; the input is in .build/fuzz/crashes/ (replay: $(FUZZER) FILE):"; \
	       ls -1 .build/fuzz/crashes/; exit 1; }

# ------------------------------------------------------------------------------
# The contract on its error paths (include/corelogic.h: "non-OK leaves the system as it
# was", "acknowledged is never lost"): queued inputs whose record fails, free releasing
# the journal, replaced directories, JSON identity (contract_test, under valgrind); inputs
# at and over the limits (limits_test: 16 MiB inputs, too slow for valgrind); injected
# disk faults, crashes during checkpoints and out of memory (fault_test: it interposes
# write/fsync/rename/malloc, which valgrind would replace).
# ------------------------------------------------------------------------------
.PHONY: test-contract

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-contract

test-contract: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Tests/c/contract_test.c -o $(C_OUT)/contract_test $(C_LINK)
	$(CHECKED) $(C_OUT)/contract_test
	$(CC) $(CFLAGS) -pthread Tests/c/limits_test.c -o $(C_OUT)/limits_test $(C_LINK)
	$(C_OUT)/limits_test
	$(CC) $(CFLAGS) -pthread -rdynamic Tests/c/fault_test.c -o $(C_OUT)/fault_test $(C_LINK)
	$(C_OUT)/fault_test

# A journal on a small tmpfs that fills up (needs root and mount; not part of `make test`,
# whose portable fault injection is fault_test). Skips, saying so, if it cannot mount.
.PHONY: test-tinyfs
test-tinyfs: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Tests/c/tinyfs_test.c -o $(C_OUT)/tinyfs_test $(C_LINK)
	@mnt=$$(mktemp -d /tmp/corelogic-tinyfs-XXXXXX); scratch=$$(mktemp -d /tmp/corelogic-tinyfs-copy-XXXXXX); \
	if mount -t tmpfs -o size=256k tmpfs $$mnt 2>/dev/null; then \
	    $(C_OUT)/tinyfs_test $$mnt $$scratch; rc=$$?; umount $$mnt; rmdir $$mnt $$scratch; exit $$rc; \
	else \
	    echo "test-tinyfs: skipped (cannot mount a tmpfs here: needs root)"; rmdir $$mnt $$scratch; \
	fi

# ---- schemas and typed host code (docs/schemas.md) -----------------------------
# corelogic_feature_schema through the ABI (under valgrind); the committed generated
# files (examples/python/generated, examples/c/corelogic_*.h, Tests/schemas) are up to
# date with the library; the typed Python example passes mypy --strict and runs.
# The schema-versus-library checks (jsonschema) and the typegen checks (mypy, tsc) are
# in bindings/python/tests (test-python).
.PHONY: test-schema typegen-examples schemas-update direct-update

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-schema

# The features whose direct JSON conformances (docs/performance.md) are generated from
# their schemas into the library: those whose states and events are hot.
DIRECT_FEATURES := counter search playcatch
DIRECT_OUT      := Sources/CoreLogic/Features/Generated

# The features whose generated code is committed with the examples.
TYPEGEN_EXAMPLES := playcatch
TYPEGEN          := PYTHONPATH=$(CURDIR)/bindings/python $(PYTHON) -m corelogic.typegen

test-schema: lib | $(C_OUT)
	$(CC) $(CFLAGS) Tests/c/schema_test.c -o $(C_OUT)/schema_test $(C_LINK)
	$(CHECKED) $(C_OUT)/schema_test
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang python,typescript --out examples/python/generated --check
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang c --out examples/c --check
	$(TYPEGEN) --all --lang schema --out Tests/schemas --check
	$(TYPEGEN) $(DIRECT_FEATURES) --lang swift --out $(DIRECT_OUT) --check
	cd examples/python && MYPYPATH=$(CURDIR)/bindings/python $(PYTHON) -m mypy --strict --no-error-summary --cache-dir $(CURDIR)/.build/mypy typed_playcatch.py generated/
	$(PYTHON) examples/python/typed_playcatch.py --throws 2

typegen-examples: lib
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang python,typescript --out examples/python/generated
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang c --out examples/c

# Tests/schemas holds every feature's schema, so a change to a Swift type that changes
# the JSON shows up in review as a diff; test-schema fails until it is updated here.
schemas-update: lib
	$(TYPEGEN) --all --lang schema --out Tests/schemas

# Regenerates the direct JSON conformances after a change to a feature's types. The schema
# comes from a library built without them (they may not compile against the new types).
direct-update:
	$(SWIFT) build $(LIB_FLAGS) --product corelogic --scratch-path .build/codable-only -Xswiftc -DCORELOGIC_NO_DIRECT_JSON
	$(TYPEGEN) $(DIRECT_FEATURES) --lang swift --out $(DIRECT_OUT) --library .build/codable-only/release/libcorelogic.so
# ---- traces and the inspector (docs/inspector.md) ------------------------------
# The trace ABI under valgrind; the Python side (trace reading, time travel, golden
# recording, the page in headless Chromium) runs with test-python.
.PHONY: test-trace bench-trace

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-trace

test-trace: lib | $(C_OUT)
	$(CC) $(CFLAGS) Tests/c/trace_test.c -o $(C_OUT)/trace_test $(C_LINK)
	$(CHECKED) $(C_OUT)/trace_test

# Tracing off and on, side by side in one run; printed by `make bench` first.
bench: bench-trace

bench-trace: lib | $(C_OUT)
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/trace_bench.c -o $(C_OUT)/trace_bench $(C_LINK)
	@echo "== Traces: one system untraced, one traced, interleaved =="
	$(C_OUT)/trace_bench
	@echo

# ---- Python types --------------------------------------------------------------
# The package's type hints hold: mypy --strict over bindings/python/corelogic.
.PHONY: test-python-types

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-python-types

test-python-types:
	cd bindings/python && $(PYTHON) -m mypy --strict corelogic

# ---- sanitizers (docs/testing.md) ----------------------------------------------
# The library rebuilt with a sanitizer in its own scratch path, and C hosts built with
# the Swift toolchain's clang (its sanitizer runtimes match the ones Swift emits calls
# to; the executable carries the runtime, the library resolves it from there).
#   test-tsan: ThreadSanitizer; the many-thread stress host.
#   test-asan: AddressSanitizer in the library, AddressSanitizer + UndefinedBehavior-
#              Sanitizer in the C hosts (Swift on Linux takes no -sanitize=undefined);
#              every C test, the golden runner, the examples, the guide's snippets.
# LeakSanitizer stays off (detect_leaks=0): Swift keeps enum tags in pointers' spare
# bits, which it cannot follow, so it reports reachable objects; valgrind checks leaks.
.PHONY: test-tsan test-asan
test: test-tsan test-asan

SWIFT_TOOLCHAIN = $(dir $(realpath $(shell command -v $(SWIFT))))
SAN_CC          = $(SWIFT_TOOLCHAIN)clang
SAN_SWIFT_LIBS  = $(SWIFT_TOOLCHAIN)../lib/swift/linux
SAN_CFLAGS     := -g -O1 -fno-omit-frame-pointer -std=c11 -pthread -fuse-ld=lld -Iinclude
SAN_LIB_FLAGS  := -Xswiftc -static-stdlib -Xlinker --version-script=$(CURDIR)/include/corelogic.map
STRESS_ROUNDS  ?= 1

TSAN_DIR     := .build/tsan
TSAN_LINK     = -L$(TSAN_DIR)/debug -lcorelogic -Wl,-rpath,$(CURDIR)/$(TSAN_DIR)/debug \
                -L$(SAN_SWIFT_LIBS) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SAN_SWIFT_LIBS)
# The toolchain's ThreadSanitizer runtime intercepts libdispatch, hence -ldispatch above.
TSAN_RUN     := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"

test-tsan:
	$(SWIFT) build --product corelogic --scratch-path $(TSAN_DIR) -Xswiftc -sanitize=thread $(SAN_LIB_FLAGS)
	@mkdir -p $(TSAN_DIR)/c
	$(SAN_CC) $(SAN_CFLAGS) -fsanitize=thread -Wall -Wextra -Werror Tests/c/stress_test.c -o $(TSAN_DIR)/c/stress_test $(TSAN_LINK)
	$(TSAN_RUN) $(TSAN_DIR)/c/stress_test $(STRESS_ROUNDS)

ASAN_DIR     := .build/asan
ASAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_LINK     = -L$(ASAN_DIR)/debug -lcorelogic -Wl,-rpath,$(CURDIR)/$(ASAN_DIR)/debug
ASAN_RUN     := ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ASAN_KILLS   ?= 20

test-asan:
	$(SWIFT) build --product corelogic --scratch-path $(ASAN_DIR) -Xswiftc -sanitize=address $(SAN_LIB_FLAGS)
	@mkdir -p $(ASAN_DIR)/c $(ASAN_DIR)/examples
	@for test in abi_test persistence_test crash_test stress_test; do \
	    echo "$(SAN_CC) $(ASAN_FLAGS) Tests/c/$$test.c -o $(ASAN_DIR)/c/$$test"; \
	    $(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) Tests/c/$$test.c -o $(ASAN_DIR)/c/$$test $(ASAN_LINK) || exit 1; \
	done
	$(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) Tests/c/golden_adapter.c -o $(ASAN_DIR)/c/golden_adapter -ldl
	@for example in $(EXAMPLES); do \
	    echo "$(SAN_CC) $(ASAN_FLAGS) examples/c/$$example.c -o $(ASAN_DIR)/examples/$$example"; \
	    $(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) -Iexamples/c examples/c/$$example.c $(EXAMPLE_JSON) -o $(ASAN_DIR)/examples/$$example $(ASAN_LINK) -lm || exit 1; \
	done
	$(ASAN_RUN) $(ASAN_DIR)/c/abi_test
	$(ASAN_RUN) $(ASAN_DIR)/c/persistence_test
	$(ASAN_RUN) $(ASAN_DIR)/c/crash_test $(ASAN_KILLS)
	$(ASAN_RUN) $(ASAN_DIR)/c/stress_test $(STRESS_ROUNDS)
	$(ASAN_RUN) $(GOLDEN_DRIVER) --host c-asan $(GOLDEN_DIR) $(CURDIR)/$(ASAN_DIR)/debug/libcorelogic.so -- $(ASAN_DIR)/c/golden_adapter
	$(ASAN_RUN) OUT=$(ASAN_DIR)/examples sh examples/c/test_examples.sh
	$(ASAN_RUN) CC="$(SAN_CC)" CFLAGS="$(SAN_CFLAGS) $(ASAN_FLAGS)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/$(ASAN_DIR)/debug

# ---- model-based tests (docs/testing.md) ---------------------------------------
# Random host programs on real features through the C ABI, every batch compared with an
# independent model of the loop rules (Tests/model/loop_model.py); Hypothesis shrinks a
# failure to a minimal program. `make test` runs a bounded number of examples;
# test-model-long runs many more, with longer programs (MODEL_EXAMPLES to change it).
.PHONY: test-model test-model-long
test: test-model

MODEL_PYTEST := $(PYTHON) -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning Tests/model

test-model: lib
	CORELOGIC_LIBRARY=$(CURDIR)/$(LIB) CORELOGIC_MODEL_PROFILE=ci $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

test-model-long: lib
	CORELOGIC_LIBRARY=$(CURDIR)/$(LIB) CORELOGIC_MODEL_PROFILE=long $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

# ---- load and soak (docs/testing.md) -------------------------------------------
# Part of `make bench`, not of `make test`: 8 threads x SOAK_EVENTS events on one
# system and SOAK_SYSTEMS systems created and freed, exact counts, resident memory
# before and after. Fails if a count is wrong or memory keeps growing.
.PHONY: soak
bench: soak
SOAK_EVENTS  ?= 1000000
SOAK_SYSTEMS ?= 1000000

soak: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread Benchmarks/c/soak.c -o $(C_OUT)/soak $(C_LINK)
	$(C_OUT)/soak $(SOAK_EVENTS) $(SOAK_SYSTEMS)

# ---- the JVM and Node.js bindings (bindings/jvm, bindings/node) ------------------
include bindings/jvm/jvm.mk
include bindings/node/node.mk

# The counter round trip through the C, JVM and Node.js hosts, side by side (make bench).
.PHONY: bench-hosts
bench-hosts: jvm node | $(C_OUT)
	$(CC) -O2 -std=c11 Benchmarks/hosts/counter.c -o $(C_OUT)/bench_counter $(C_LINK)
	@mkdir -p $(JVM_OUT)/bench
	$(JAVAC) -d $(JVM_OUT)/bench -cp $(JVM_OUT)/classes Benchmarks/hosts/Counter.java
	@echo
	@echo "== Hosts: counter round trip through C, the JVM and Node.js =="
	$(PYTHON) Benchmarks/hosts/compare.py $(C_OUT)/bench_counter \
	    "$(JVM_RUN) -cp $(JVM_OUT)/classes:$(JVM_OUT)/bench Counter" \
	    "$(NODE_RUN) Benchmarks/hosts/counter.js"
