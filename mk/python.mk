# The Python binding, the model-based tests and the demo. Included by the Makefile.

# ---- Python ----------------------------------------------------------------------------
.PHONY: test-python test-python-types test-model test-model-long demo
test-python: lib test-golden-python ## the Python binding (pytest): golden files, typegen, inspector
	$(PYTHON) -m pytest -q bindings/python/tests

.PHONY: test-golden-python
test-golden-python: lib
	$(call golden_for,python,$(PYTHON) bindings/python/tests/golden_adapter.py)

test-python-types: ## mypy --strict over the Python package
	cd bindings/python && $(PYTHON) -m mypy --strict corelogic

# Random host programs on real features through the C ABI, every batch compared with an
# independent model of the loop rules (Tests/model/loop_model.py); Hypothesis shrinks a
# failure to a minimal program. test-model-long runs many more, with longer programs.
MODEL_PYTEST := $(PYTHON) -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning Tests/model
test-model: lib ## random host programs against a model of the loop rules
	CORELOGIC_MODEL_PROFILE=ci $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

test-model-long: lib ## many more, longer random host programs against the model
	CORELOGIC_MODEL_PROFILE=long $(if $(MODEL_EXAMPLES),CORELOGIC_MODEL_EXAMPLES=$(MODEL_EXAMPLES)) $(MODEL_PYTEST)

# The demo needs only the standard library: the system's python3 runs it.
demo: lib ## the search feature from Python against a local HTTP server
	python3 Examples/python/demo.py
