# The explorer. Included by the Makefile after the bindings' makefiles.

# ---- the explorer (docs/testing.md, "Exploring a feature") ------------------------------
# test-explore: every sample feature explored with a fixed seed (the same programs every
# run; any broken invariant or engine rule fails), then a feature with a planted bug
# (Tests/explore, its own library, built in debug) found, shrunk and written as a golden
# file that every runner fails on and that passes against the right feature.
# explore: the long run, EXPLORE_SECONDS per feature, seeds from EXPLORE_SEED upwards.
.PHONY: test-explore explore
EXPLORE_SEED     ?= 1
EXPLORE_PROGRAMS ?= 100
EXPLORE_SECONDS  ?= 300
PLANTED_BUILD    := .build/planted
test-explore: lib $(C_OUT)/golden_adapter jvm $(JVM_OUT)/test-classes.stamp node ## generated programs on every sample feature (fixed seed); a planted bug found, shrunk, failing in every runner
	$(PYTHON) Tests/explore/explore_samples.py --library $(LIB) --seed $(EXPLORE_SEED) --programs $(EXPLORE_PROGRAMS)
	$(SWIFT) build --package-path Tests/explore --scratch-path $(PLANTED_BUILD)
	$(PYTHON) Tests/explore/test_planted_bug.py --planted $(CURDIR)/$(PLANTED_BUILD)/debug/libplanted.so \
	    --cookbook $(CURDIR)/$(LIB) --swift-adapter $(CURDIR)/$(PLANTED_BUILD)/debug/PlantedBugsGoldenAdapter

explore: lib ## every sample feature explored for EXPLORE_SECONDS each (default 300)
	$(PYTHON) Tests/explore/explore_samples.py --library $(LIB) --seed $(EXPLORE_SEED) --seconds $(EXPLORE_SECONDS)
