# The Node.js binding (bindings/node/README.md), included by the top-level Makefile.
# `make test-node` builds the Node-API addon against the installed Node headers, runs the
# binding's tests with Node's built-in runner and replays the golden files.
.PHONY: node test-node test-golden-node

NODE         ?= node
# Node-API headers: Debian's libnode-dev (or the nodejs package) installs them here.
NODE_INCLUDE ?= $(firstword $(wildcard /usr/include/node /usr/local/include/node))
NODE_OUT     := .build/node
NODE_ADDON   := $(NODE_OUT)/corelogic.node


# The addon links libcorelogic with a run path to the build tree; Node-API symbols are
# resolved from the node process when it loads the addon.
$(NODE_ADDON): bindings/node/src/corelogic_node.c include/corelogic.h $(LIB)
	@test -n "$(NODE_INCLUDE)" || { echo "error: no Node.js headers (apt-get install libnode-dev)"; exit 1; }
	@mkdir -p $(NODE_OUT)
	$(CC) $(CFLAGS) -shared -fPIC -DNODE_GYP_MODULE_NAME=corelogic -I$(NODE_INCLUDE) -Iinclude \
	    $< -o $@ -L$(LIB_DIR) -lcookbook -Wl,-rpath,$(CURDIR)/$(LIB_DIR)

node: lib $(NODE_ADDON)

test-node: node test-golden-node test-node-readme ## the Node.js binding, golden files, README
	$(NODE) --test bindings/node/test/*.test.js

test-golden-node: node
	$(NODE) bindings/node/test/golden.js $(GOLDEN)

# The README's five-minute example runs as written, from the repository root.
.PHONY: test-node-readme
test-node-readme: node
	awk '/^```js$$/ {inside = 1; next} /^```$$/ {if (inside) exit} inside' bindings/node/README.md | $(NODE) -
