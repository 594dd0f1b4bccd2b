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
	$(SWIFT) test

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

demo: lib
	$(PYTHON) examples/python/demo.py

install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/corelogic.h $(DESTDIR)$(PREFIX)/include/corelogic.h
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libcorelogic.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$$(sed -n 's/#define CORELOGIC_VERSION_STRING "\(.*\)"/\1/p' include/corelogic.h)|" \
	    corelogic.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/corelogic.pc
	@echo "installed to $(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build
