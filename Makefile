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
# The C++ runtime that the static Swift runtime uses, linked in too where the C compiler
# has it as an archive: a host then loads no libstdc++.so, about 3 million instructions
# at start-up (docs/adopting.md). The linker finds `-lstdc++` as a one-line script in
# STATIC_CXX naming the archive, ahead of the shared library.
STATIC_CXX   := .build/static-cxx
STATIC_CXX_A := $(shell $(CC) -print-file-name=libstdc++.a 2>/dev/null)
ifneq ($(filter /%,$(STATIC_CXX_A)),)
APP_FLAGS    += -Xswiftc -L$(CURDIR)/$(STATIC_CXX)
LIB_NEEDS    := $(STATIC_CXX)/libstdc++.so
endif
COOKBOOK  := Examples/Cookbook
BUILD     := .build/cookbook
LIB_DIR   := $(BUILD)/release
LIB       := $(LIB_DIR)/libcookbook.so
COOKBOOK_BUILD = $(SWIFT) build --package-path $(COOKBOOK) --scratch-path $(BUILD)
# Every host the tests start finds the library this way (docs/adopting.md, "Each host loads your library").
export CORELOGIC_LIBRARY := $(CURDIR)/$(LIB)
GOLDEN    := $(COOKBOOK)/golden

CFLAGS ?= -O2 -g -Wall -Wextra -Werror -std=c11
C_LINK := -Iinclude -L$(LIB_DIR) -lcookbook -Wl,-rpath,$(CURDIR)/$(LIB_DIR) -lpthread
C_OUT  := .build/c

# Every C host program runs under valgrind; `make test VALGRIND=` runs them bare.
VALGRIND_FLAGS := --leak-check=full --error-exitcode=1 --suppressions=$(CURDIR)/Tests/c/valgrind.supp -q
CHECKED        := $(if $(VALGRIND),$(VALGRIND) $(VALGRIND_FLAGS))

# The golden driver (docs/golden-files.md) runs the golden files through one host's
# adapter, in full and in patch mode, and checks that every host names the passes-* and
# fails-* files of GOLDEN_EDGE as such. Each adapter gets the library's path.
GOLDEN_DRIVER := $(PYTHON) Tests/hosts/golden_driver.py
GOLDEN_EDGE   := Tests/hosts/golden-edge
GOLDEN_LIB    := $(CURDIR)/$(LIB)
# golden_for HOST, ADAPTER COMMAND[, DRIVER OPTIONS]: the golden files, then the edge cases.
golden_for = $(GOLDEN_DRIVER) --host $(1) $(3) --every-feature $(GOLDEN) $(GOLDEN_LIB) -- $(2) && \
             $(GOLDEN_DRIVER) --host $(1) $(3) --edge $(GOLDEN_EDGE) $(GOLDEN_LIB) -- $(2)

# readme_example LANGUAGE, FILE: the first ```LANGUAGE block of FILE, which its suite runs
# as written (each binding's README opens with a five-minute example).
readme_example = awk '/^```$(1)$$$$/ {inside = 1; next} /^```$$$$/ {if (inside) exit} inside' $(2)

.PHONY: all lib help setup test clean
all: lib

lib: $(LIB_NEEDS) ## the example library (the cookbook), built with an app's release flags
	$(COOKBOOK_BUILD) $(APP_FLAGS) --product cookbook
	@ldd $(LIB) | grep -q 'libswift' && { echo "error: $(LIB) links a shared Swift runtime"; exit 1; } || true
	@test -z "$(LIB_NEEDS)" || ! ldd $(LIB) | grep -q 'libstdc++' || { echo "error: $(LIB) links libstdc++.so"; exit 1; }
	@echo "built $(LIB)"

$(STATIC_CXX)/libstdc++.so:
	@mkdir -p $(dir $@)
	echo 'INPUT($(STATIC_CXX_A))' > $@

# ---- what `make test` runs, suite by suite ------------------------------------------
# Each suite is a target below; `make SUITE` runs one (docs/testing.md says what each proves).
TEST_SUITES := \
	test-layers \
	test-swift \
	test-c \
	test-persistence \
	test-contract \
	test-golden-c \
	test-trace \
	test-examples \
	test-docs \
	test-schema \
	test-python \
	test-python-types \
	test-jvm \
	test-node \
	test-web \
	test-wasmkit \
	test-app \
	test-packages \
	test-tools \
	test-model \
	test-explore \
	test-tsan \
	test-asan \
	test-fuzz

# Every suite runs with a PATH of the commands the set-up installs, the toolchain and the
# base system (Tests/tools.sh), so a suite that leans on anything else fails here too.
TOOLS_BIN := .build/tools/bin
test: setup lib ## every suite listed above
	@toolchain=$$(sh Tests/tools.sh $(TOOLS_BIN)) && \
	    PATH="$(CURDIR)/$(TOOLS_BIN):$$toolchain" $(MAKE) --no-print-directory $(TEST_SUITES)

# The restricted PATH holds every command it lists and nothing else: a suite that runs a
# command the set-up did not install fails under it.
.PHONY: test-tools
test-tools: ## make test's PATH: every listed command, and a suite using an unlisted one fails
	sh Tests/test_tools.sh

setup: ## installs what the tests need (system packages as root, Python tools into .build/venv)
	@sh Tests/setup.sh $(VENV)

# Every target with a `## ` comment on its rule line, found in this file and the bindings'
# makefiles: first the suites of `make test` in their order, then the others.
HELP_FILES = $(MAKEFILE_LIST)
help: ## this list
	@echo "make test: every suite below, in this order (make setup installs what is missing first)"
	@for suite in $(TEST_SUITES); do \
	    sed -nE "s/^([a-z-]+ )?$$suite:.*## (.*)/  $$suite\t\2/p" $(HELP_FILES); done | expand -t 22
	@echo "other targets:"
	@sed -nE 's/^([a-z][a-z-]*)( [a-z-]+)?:.*## (.*)/  \1\t\3/p' $(HELP_FILES) | \
	    grep -vE "^  ($$(echo $(TEST_SUITES) | tr ' ' '|'))\s" | expand -t 22

clean: ## removes .build
	rm -rf .build

# ---- where the rest lives ------------------------------------------------------------
# Each file holds the rules of one area; a target's one-line `## ` comment is what
# `make help` prints. The order matters only where a rule names another file's variable.
#   mk/swift.mk       the layers check, XCTest, golden-update
#   mk/c.mk           C tests, the golden driver, install, the C examples
#   mk/schema.mk      schemas and committed generated code
#   mk/python.mk      the Python binding, the model-based tests, the demo
#   mk/sanitizers.mk  ThreadSanitizer, AddressSanitizer, fuzzing
#   bindings/jvm/jvm.mk, bindings/node/node.mk   the JVM and Node.js bindings
#   bindings/web/web.mk   the WebAssembly module and its JavaScript host
#   mk/bench.mk       benchmarks (not part of make test)
#   mk/explore.mk     the explorer
#   mk/app.mk         a new app package, its test, packages for every host
include mk/swift.mk mk/c.mk mk/schema.mk mk/python.mk mk/sanitizers.mk
include bindings/jvm/jvm.mk bindings/node/node.mk bindings/web/web.mk
include mk/bench.mk mk/explore.mk mk/app.mk
