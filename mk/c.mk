# C hosts: the C tests, the golden driver, install and the C examples. Included by the Makefile.

# ---- C tests: Tests/c/NAME.c is built into .build/c/NAME against the library ----------
.PHONY: test-c test-persistence test-contract test-golden-c test-trace test-examples test-docs
$(C_OUT)/%: Tests/c/%.c include/corelogic.h $(LIB) | $(C_OUT)
	$(CC) $(CFLAGS) -pthread $(C_EXTRA) $< -o $@ $(C_LINK)
# fault_test interposes the libc calls the library makes.
$(C_OUT)/fault_test: C_EXTRA := -rdynamic
# The hosts that link no library: they dlopen the one whose path they are given.
DLOPEN_HOSTS := golden_adapter two_libraries_test
$(DLOPEN_HOSTS:%=$(C_OUT)/%): $(C_OUT)/%: Tests/c/%.c include/corelogic.h | $(C_OUT)
	$(CC) $(CFLAGS) -D_GNU_SOURCE -Iinclude $< -o $@ -ldl
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
test-contract: lib $(C_OUT)/contract_test $(C_OUT)/limits_test $(C_OUT)/fault_test ## error paths: queued inputs, limits, disk faults, out of memory
	$(CHECKED) $(C_OUT)/contract_test
	$(C_OUT)/limits_test
	$(C_OUT)/fault_test

test-trace: lib $(C_OUT)/trace_test ## traces through the C ABI
	$(CHECKED) $(C_OUT)/trace_test

test-golden-c: lib $(C_OUT)/golden_adapter $(C_OUT)/two_libraries_test ## the golden files through the C ABI; two libraries in one process
	$(call golden_for,c,$(CHECKED) $(C_OUT)/golden_adapter)
	$(PYTHON) -m pytest -q -p no:cacheprovider Tests/hosts/test_golden_driver.py
	@# Two copies loaded by path with RTLD_LOCAL, as the JVM and Node.js glue load the library.
	cp $(LIB) $(C_OUT)/libcookbook-copy.so
	$(C_OUT)/two_libraries_test $(GOLDEN_LIB) $(CURDIR)/$(C_OUT)/libcookbook-copy.so

# A journal on a small tmpfs that fills up (needs root and mount; not part of `make test`,
# whose portable fault injection is fault_test). Skips, saying so, if it cannot mount.
.PHONY: test-tinyfs
test-tinyfs: $(C_OUT)/tinyfs_test ## a journal on a tmpfs that fills up (needs root)
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
install: lib ## header, export map, pkg-config files, an app's library and its names' headers, into PREFIX
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

examples: lib ## the C examples, built with pkg-config against an installed copy
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
