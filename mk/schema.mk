# Schemas and generated code. Included by the Makefile.

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

typegen-examples: lib ## rewrites the committed generated code of the examples
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang python,typescript --out Examples/python/generated
	$(TYPEGEN) $(TYPEGEN_EXAMPLES) --lang c --out Examples/c

# The schemas of every feature, committed, so a change to a Swift type that changes the
# JSON shows up in review as a diff; test-schema fails until it is updated here.
schemas-update: lib ## rewrites the cookbook's committed schemas
	$(TYPEGEN) --all --lang schema --out $(SCHEMAS)

# Regenerates the direct JSON conformances after a change to a feature's types. The schema
# comes from a library built without them (they may not compile against the new types).
direct-update: $(LIB_NEEDS) ## regenerates the cookbook's direct JSON conformances
	$(SWIFT) build --package-path $(COOKBOOK) --scratch-path .build/codable-only $(APP_FLAGS) --product cookbook -Xswiftc -DCORELOGIC_NO_DIRECT_JSON
	$(TYPEGEN) $(DIRECT_FEATURES) --lang swift --out $(DIRECT_OUT) --library .build/codable-only/release/libcookbook.so
	$(TYPEGEN) $(WASM_DIRECT_FEATURES) --lang swift --out $(WASM_DIRECT_OUT) --library .build/codable-only/release/libcookbook.so
