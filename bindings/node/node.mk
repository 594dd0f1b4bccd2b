# The Node.js binding (bindings/node/README.md), included by the top-level Makefile.
# `make test-node` builds the Node-API addon against the installed Node headers, runs the
# binding's tests with Node's built-in runner and runs the golden files through the golden
# driver (docs/golden-files.md) and test/golden_adapter.mjs.
.PHONY: node test-node test-golden-node

NODE         ?= node
# Node-API headers: Debian's libnode-dev (or the nodejs package) installs them here.
NODE_INCLUDE ?= $(firstword $(wildcard /usr/include/node /usr/local/include/node))
NODE_OUT     := .build/node
NODE_ADDON   := $(NODE_OUT)/corelogic.node


# The addon does not link an app's library: it dlopens the one whose path the host gives
# (here CORELOGIC_LIBRARY, the library the tests load). Node-API symbols are resolved
# from the node process when it loads the addon.
$(NODE_ADDON): bindings/node/src/corelogic_node.c bindings/common/corelogic_dl.h include/corelogic.h
	@test -n "$(NODE_INCLUDE)" || { echo "error: no Node.js headers (apt-get install libnode-dev)"; exit 1; }
	@mkdir -p $(NODE_OUT)
	$(CC) $(CFLAGS) -shared -fPIC -DNODE_GYP_MODULE_NAME=corelogic -I$(NODE_INCLUDE) -Iinclude -Ibindings/common \
	    $< -o $@ -ldl
	@! ldd $@ | grep -q 'libcookbook\.so' || { echo "error: $@ links the app's library"; exit 1; }

node: lib $(NODE_ADDON) ## the Node-API addon

NODE_RUN     := env CORELOGIC_LIBRARY=$(GOLDEN_LIB) $(NODE)

test-node: node test-golden-node test-node-readme ## the Node.js binding, golden files, README
	$(NODE_RUN) --test bindings/node/test/*.test.js

# Node's JSON.parse reads numbers as doubles: integers beyond 2^53 compare as doubles.
test-golden-node: node
	$(call golden_for,node,$(NODE) bindings/node/test/golden_adapter.mjs,--inexact-integers)

# The README's example, run from the repository root.
.PHONY: test-node-readme
test-node-readme: node
	$(call readme_example,js,bindings/node/README.md) | $(NODE_RUN) -
