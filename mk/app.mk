# An app's package: a new one from the starter, its test, and its packages for every host.
# Included last: test-app and the packages need every host's build (jvm.mk, node.mk).

# ---- an app package from the starter (docs/adopting.md) --------------------------------
# new-app writes a package that passes out of the box; test-app makes one in a temporary
# directory, depends on this checkout by a versioned URL (a local tag), adds a feature,
# builds its library and runs it through every runner.
.PHONY: new-app test-app
new-app: ## a new app package from the starter: DIR=path NAME=name
	@test -n "$(DIR)" -a -n "$(NAME)" || { echo "usage: make new-app DIR=path NAME=name [CORELOGIC_URL=... CORELOGIC_VERSION=...]"; exit 2; }
	python3 Examples/Starter/new_app.py --dir "$(DIR)" --name "$(NAME)" \
	    $(if $(CORELOGIC_URL),--url "$(CORELOGIC_URL)") $(if $(CORELOGIC_VERSION),--version "$(CORELOGIC_VERSION)")

# ---- packages: an app's library for every host (docs/adopting.md, "Shipping") ---------
# make package: into $(DIST), from APP_LIB and APP_NAME (the cookbook by default): a wheel,
# an npm tarball, a jar, and a C prefix (make install). bindings/package.py says what each
# holds. test-packages installs each into an empty environment and runs a typed program.
DIST := .build/dist
.PHONY: package test-packages
package: lib jvm node ## an app's library packaged for every host into .build/dist (APP_LIB, APP_NAME)
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
