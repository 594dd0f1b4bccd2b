# Sanitizer builds and fuzzing. Included by the Makefile.

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
ASAN_LIB     := $(ASAN_DIR)/debug/libcookbook.so
ASAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_LINK     = -L$(ASAN_DIR)/debug -lcookbook -Wl,-rpath,$(CURDIR)/$(ASAN_DIR)/debug
ASAN_RUN     := ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ASAN_KILLS   ?= 20
ASAN_TESTS   := abi_test persistence_test crash_test stress_test

# Tests/c/NAME.c and Examples/c/NAME.c built with the sanitizers against the ASan library.
$(ASAN_DIR)/c/%: Tests/c/%.c include/corelogic.h $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) $< -o $@ $(ASAN_LINK)
$(ASAN_DIR)/examples/%: Examples/c/%.c $(EXAMPLE_JSON) $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) -IExamples/c $< $(EXAMPLE_JSON) -o $@ $(ASAN_LINK) -lm
$(ASAN_DIR)/c/golden_adapter: Tests/c/golden_adapter.c include/corelogic.h
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_CFLAGS) $(ASAN_FLAGS) $< -o $@ -ldl
.PHONY: asan-lib
$(ASAN_LIB): asan-lib
asan-lib:
	$(SAN_BUILD) --scratch-path $(ASAN_DIR) -Xswiftc -sanitize=address

test-asan: asan-lib $(ASAN_TESTS:%=$(ASAN_DIR)/c/%) $(ASAN_DIR)/c/golden_adapter $(EXAMPLES:%=$(ASAN_DIR)/examples/%) ## AddressSanitizer + UBSan: C tests, golden files, examples
	$(ASAN_RUN) $(ASAN_DIR)/c/abi_test
	$(ASAN_RUN) $(ASAN_DIR)/c/persistence_test
	$(ASAN_RUN) $(ASAN_DIR)/c/crash_test $(ASAN_KILLS)
	$(ASAN_RUN) $(ASAN_DIR)/c/stress_test $(STRESS_ROUNDS)
	$(ASAN_RUN) $(GOLDEN_DRIVER) --host c-asan $(GOLDEN) $(CURDIR)/$(ASAN_LIB) -- $(ASAN_DIR)/c/golden_adapter
	$(ASAN_RUN) OUT=$(ASAN_DIR)/examples sh Examples/c/test_examples.sh
	$(ASAN_RUN) CC="$(SAN_CC)" CFLAGS="$(SAN_CFLAGS) $(ASAN_FLAGS)" \
	    sh Tests/c/check_doc_snippets.sh docs/c-hosts.md include $(CURDIR)/$(ASAN_LIB)

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

test-fuzz: fuzz ## libFuzzer over every input a host can send (FUZZ_SECONDS)
fuzz: fuzz-build ## libFuzzer for FUZZ_SECONDS (default 60); crashes go to .build/fuzz/crashes
	@mkdir -p .build/fuzz/corpus .build/fuzz/crashes
	ASAN_OPTIONS=detect_leaks=0 $(FUZZER) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=20 \
	    -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/crashes/ .build/fuzz/corpus Fuzz/corpus \
	  || { echo "fuzz: FAILED; the input is in .build/fuzz/crashes/ (replay: $(FUZZER) FILE):"; \
	       ls -1 .build/fuzz/crashes/; exit 1; }
