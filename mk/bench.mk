# Benchmarks: not part of `make test`. Included by the Makefile after the bindings'
# makefiles (bench-hosts uses their variables).

# ---- benchmarks (docs/performance.md): not part of `make test` -------------------------
# In-process Swift benchmarks live in a package of their own (Benchmarks/Package.swift),
# built with the app's release flags.
BENCH_BUILD = $(SWIFT) build --package-path Benchmarks --scratch-path .build/bench -c release -Xswiftc -cross-module-optimization
# The anchors (Benchmarks/Anchors): the same features run by a plain loop over their
# reducers and by a feedback loop on OpenCombine, a package of its own since it depends on
# OpenCombine. OpenCombine's C++ helpers are compiled with DWARF 4: the valgrind of
# bench-instructions (3.19) cannot read clang's default DWARF 5 and gives up on the binary.
ANCHOR_BUILD = $(SWIFT) build --package-path Benchmarks/Anchors --scratch-path .build/anchors -c release -Xswiftc -cross-module-optimization \
               -Xcxx -gdwarf-4
ANCHOR_BENCH = .build/anchors/release/AnchorBench
.PHONY: bench bench-instructions bench-anchors bench-trace bench-hosts bench-size soak

bench: bench-trace bench-size lib | $(C_OUT) ## throughput, codec, anchors, traces, hosts and soak figures, side by side
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/bench.c -o $(C_OUT)/bench $(C_LINK)
	$(BENCH_BUILD) --product CodecBench
	@echo "== C host through the ABI =="
	$(C_OUT)/bench
	@echo
	@echo "== JSON codec: ours vs Foundation =="
	.build/bench/release/CodecBench
	@echo; echo "== Python binding =="; $(PYTHON) bindings/python/bench.py
	@$(MAKE) --no-print-directory bench-anchors bench-hosts bench-web soak

# corelogic's System<Counter> and System<Playcatch> timed beside the same events through a
# plain loop (the floor) and a feedback loop on OpenCombine, interleaved in one process.
bench-anchors: ## corelogic in-process beside a plain loop and a feedback loop on OpenCombine (ns per event)
	$(ANCHOR_BUILD) --product AnchorBench
	@echo
	@echo "== Anchors: corelogic beside a plain loop and a feedback loop on OpenCombine =="
	$(ANCHOR_BENCH) time

# Instructions per event on each hot path (C ABI, in-process Swift, Python) and on the
# anchors, counted by callgrind: repeatable on a loaded machine, unlike times.
# BENCH_INSTRUCTIONS_FLAGS=--check fails when a path misses its target.
bench-instructions: lib | $(C_OUT) ## instructions per event on each hot path and on the anchors, and start-up (callgrind)
	$(CC) -O2 -std=c11 Benchmarks/instructions/abi_driver.c -o $(C_OUT)/abi_driver $(C_LINK)
	$(CC) -O2 -std=c11 Benchmarks/instructions/startup_driver.c -o $(C_OUT)/startup_driver -ldl
	$(BENCH_BUILD) --product InstructionBench
	$(ANCHOR_BUILD) --product AnchorBench
	$(PYTHON) Benchmarks/instructions/run.py $(C_OUT)/abi_driver .build/bench/release/InstructionBench $(LIB) \
	    --startup-driver $(C_OUT)/startup_driver --anchor-driver $(ANCHOR_BENCH) $(BENCH_INSTRUCTIONS_FLAGS)

# The size of the app's library: as built, stripped, gzipped, and by origin, beside an
# empty Swift library linked the same way (the Swift runtime's floor).
SIZE_OUT := .build/size
bench-size: lib ## the app's library: as built, stripped, gzipped, the Swift runtime's share
	@mkdir -p $(SIZE_OUT)
	$(SWIFT)c -emit-library -O -static-stdlib $(if $(LIB_NEEDS),-L $(CURDIR)/$(STATIC_CXX)) -module-name Empty Benchmarks/size/empty.swift -o $(SIZE_OUT)/libempty.so \
	    -Xlinker --gc-sections -Xlinker --icf=safe -Xlinker --version-script=$(CURDIR)/Benchmarks/size/empty.map
	@echo "== Size of the app's library =="
	$(PYTHON) Benchmarks/size/size.py $(LIB) $(SIZE_OUT)/libempty.so
	@echo

bench-trace: lib | $(C_OUT) ## tracing off and on, side by side
	$(CC) -O2 -std=c11 -pthread Benchmarks/c/trace_bench.c -o $(C_OUT)/trace_bench $(C_LINK)
	@echo "== Traces: one system untraced, one traced, interleaved =="
	$(C_OUT)/trace_bench
	@echo

# Load and soak: 8 threads x SOAK_EVENTS events on one system and SOAK_SYSTEMS systems
# created and freed, exact counts, resident memory before and after. Fails if a count is
# wrong or memory keeps growing.
SOAK_EVENTS  ?= 1000000
SOAK_SYSTEMS ?= 1000000
soak: lib | $(C_OUT) ## 8 threads x SOAK_EVENTS events, SOAK_SYSTEMS systems; counts and memory
	$(CC) $(CFLAGS) -pthread Benchmarks/c/soak.c -o $(C_OUT)/soak $(C_LINK)
	$(C_OUT)/soak $(SOAK_EVENTS) $(SOAK_SYSTEMS)

# Each host's counter against its floor (a bare FFI call and the parse of its batch), in
# full and in patch mode, side by side with C. BENCH_HOSTS_FLAGS=--check fails on a missed ratio.
bench-hosts: jvm node | $(C_OUT) ## each host's counter against its floor, full and patch mode
	$(CC) -O2 -std=c11 Benchmarks/hosts/counter.c -o $(C_OUT)/bench_counter $(C_LINK)
	@mkdir -p $(JVM_OUT)/bench
	$(JAVAC) -d $(JVM_OUT)/bench -cp $(JVM_OUT)/classes Benchmarks/hosts/jvm/CounterBench.java
	@echo
	@echo "== Hosts: the counter through C, Python, the JVM and Node.js, each against its floor =="
	$(PYTHON) Benchmarks/hosts/compare.py $(BENCH_HOSTS_FLAGS) $(C_OUT)/bench_counter \
	    "$(PYTHON) Benchmarks/hosts/counter.py" \
	    "$(JVM_RUN) -cp $(JVM_OUT)/classes:$(JVM_OUT)/bench dev.corelogic.CounterBench" \
	    "$(NODE_RUN) Benchmarks/hosts/counter.js"
