# The Swift sources: their layers and the XCTest suites. Included by the Makefile.

# ---- the sources' layers and their generated file (docs/architecture.md) -------------
# Wire/AnySystem+Calls.swift is written from AnySystem.swift's `// calls.` lines by
# Sources/CoreLogic/Wire/any_system_calls.py; --check fails while it is stale.
.PHONY: test-layers
test-layers: ## which folder of Sources/ may use which: docs/architecture.md's list holds; AnySystem+Calls.swift is current
	python3 Tests/layers/check_layers.py
	python3 Tests/layers/test_check_layers.py
	python3 Sources/CoreLogic/Wire/any_system_calls.py --check
	python3 Tests/layers/test_any_system_calls.py

# ---- Swift ---------------------------------------------------------------------------
.PHONY: test-swift golden-update
test-swift: ## XCTest: the framework, then the cookbook (features, golden files)
	$(SWIFT) test --disable-swift-testing
	$(COOKBOOK_BUILD) --build-tests
	$(SWIFT) test --package-path $(COOKBOOK) --scratch-path $(BUILD) --skip-build --disable-swift-testing
	@# The golden files through the driver and the Swift adapter (AnySystem in-process).
	$(COOKBOOK_BUILD) --product CookbookGoldenAdapter
	$(call golden_for,swift,$(BUILD)/debug/CookbookGoldenAdapter)

golden-update: lib $(C_OUT)/golden_adapter ## rewrites the golden files' expectations from the library
	$(GOLDEN_DRIVER) --host c --update $(GOLDEN) $(CURDIR)/$(LIB) -- $(C_OUT)/golden_adapter
