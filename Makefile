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

golden-update:
	CORELOGIC_GOLDEN_UPDATE=1 $(SWIFT) test --filter GoldenFileTests 2>&1 | grep -E '^(updated|  was:|NOT UPDATED|golden)'

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

test-golden-c: lib | $(C_OUT)
	$(CC) $(CFLAGS) -pthread -Iexamples/c Tests/c/golden_runner.c $(EXAMPLE_JSON) -o $(C_OUT)/golden_runner $(C_LINK) -lm
	$(CHECKED) $(C_OUT)/golden_runner Tests/golden

# The examples are built the way a C user builds them: against an installed copy of
# the library, with the flags pkg-config gives.
EXAMPLES_PREFIX := $(CURDIR)/.build/prefix
EXAMPLES_OUT    := .build/examples
EXAMPLES        := playcatch downloads
EXAMPLE_FLAGS    = $$(PKG_CONFIG_PATH=$(EXAMPLES_PREFIX)/lib/pkgconfig pkg-config --cflags --libs corelogic)

examples: lib
	$(MAKE) --no-print-directory install PREFIX=$(EXAMPLES_PREFIX)
	@mkdir -p $(EXAMPLES_OUT)
	@for example in $(EXAMPLES); do \
	    echo "$(CC) $(CFLAGS) -pthread -Iexamples/c examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example (pkg-config corelogic)"; \
	    $(CC) $(CFLAGS) -pthread -Iexamples/c examples/c/$$example.c $(EXAMPLE_JSON) -o $(EXAMPLES_OUT)/$$example $(EXAMPLE_FLAGS) -lm || exit 1; \
	done

test-examples: examples
	CHECKED="$(CHECKED)" OUT=$(EXAMPLES_OUT) sh examples/c/test_examples.sh

# Every ```c block of the C guide compiles, and its programs run and check themselves.
test-docs: lib
	CC="$(CC)" CFLAGS="$(CFLAGS)" CHECKED="$(CHECKED)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/.build/release

# ---- fuzzing -----------------------------------------------------------------
# libFuzzer with AddressSanitizer over every input path a host reaches (parser, each
# feature's event and state decoding). FUZZ_SECONDS bounds the run; crashes are written
# to .build/fuzz/ and fail the target. Leak checking stays with valgrind: Swift keeps
# enum tags in pointers' spare bits, which LeakSanitizer cannot follow, so it reports
# reachable objects as leaked.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	CORELOGIC_FUZZ=1 $(SWIFT) build --scratch-path .build/fuzz --product InputFuzzer \
	    -Xswiftc -sanitize=fuzzer,address
	@mkdir -p .build/fuzz/corpus .build/fuzz/crashes
	ASAN_OPTIONS=detect_leaks=0 .build/fuzz/debug/InputFuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -detect_leaks=0 \
	    -artifact_prefix=.build/fuzz/crashes/ .build/fuzz/corpus Fuzz/corpus

# ---- Python types --------------------------------------------------------------
# The package's type hints hold: mypy --strict over bindings/python/corelogic.
.PHONY: test-python-types

# Appends to the prerequisites of `test` above (a rule without a recipe adds to them).
test: test-python-types

test-python-types:
	cd bindings/python && $(PYTHON) -m mypy --strict corelogic

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
	    "$(NODE) Benchmarks/hosts/counter.js"
