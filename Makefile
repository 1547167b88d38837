# widgetsim — see README.md.
#   make simulate SCENARIO=weather [SEED=n] [DAYS=n]   run a scenario, write Reports/<scenario>/
#   make compare SCENARIO=weather [RUNS=n]            rank the scenario's variants, write Reports/<scenario>/comparison.*
#   make fleet SCENARIO=fleet-weather [DEVICES=n]     simulate a fleet scenario, write Reports/<scenario>/fleet.*
#   make fleet-sharded SCENARIO=fleet-weather SHARDS=4  the same in parallel shard processes, then merged
#   make bench                                        measure speed and memory (not part of make test)
#   make bench-inputs                                 only how check and validate grow with their input's size
#   make fuzz [SEEDS=100000 | SEED=n]                 random scenarios must run, pass check and repeat
#   make test                                         build and run the tests (golden reports included)
#   make golden                                       re-record every scenario's committed reports, on purpose
#   make docs                                         build the DocC catalog and check its links (not part of make test)
SWIFT ?= swift
SCENARIO ?= weather
RUNS ?= 10
RELEASE_BIN := .build/release/widgetsim

.PHONY: all build release test simulate compare fleet fleet-sharded golden bench bench-inputs fuzz docs clean help

all: build

help:
	@sed -n '2,12p' Makefile

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product widgetsim

# The end-to-end tests run the debug binary, so build it before testing.
test: build
	$(SWIFT) test

simulate: release
	$(RELEASE_BIN) simulate $(SCENARIO) --out Reports/$(SCENARIO) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

compare: release
	$(RELEASE_BIN) compare $(SCENARIO) --runs $(RUNS) --out Reports/$(SCENARIO) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

fleet: release
	$(RELEASE_BIN) fleet $(SCENARIO) --out Reports/$(SCENARIO) $(if $(DEVICES),--devices $(DEVICES)) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

# The sharded run as a batch engine would do it, with local processes: each
# shard writes a partial result, then `merge` writes the report.
SHARDS ?= 4
fleet-sharded: release
	rm -rf .shards/$(SCENARIO) && mkdir -p .shards/$(SCENARIO)
	seq 1 $(SHARDS) | xargs -P $(SHARDS) -I{} $(RELEASE_BIN) fleet $(SCENARIO) --threads 1 -q \
		--shard {}/$(SHARDS) --partial .shards/$(SCENARIO)/part-{}.txt $(if $(DEVICES),--devices $(DEVICES))
	$(RELEASE_BIN) merge .shards/$(SCENARIO)/part-*.txt --out Reports/$(SCENARIO)

# Speed and memory; never part of `make test` (these machines are shared and noisy).
# The input benchmarks time the release widgetsim binary, so both are built.
#   BENCH_ARGS: --quick (1 run instead of 3), --timeout <s> (default 120), --keep-inputs, --widgetsim <binary>
bench:
	$(SWIFT) build -c release --product widgetsim
	$(SWIFT) build -c release --product widgetsim-bench
	.build/release/widgetsim-bench $(BENCH_ARGS)

bench-inputs:
	$(SWIFT) build -c release --product widgetsim
	$(SWIFT) build -c release --product widgetsim-bench
	.build/release/widgetsim-bench --only inputs $(BENCH_ARGS)

# Release speed with the internal invariant checks compiled in, in a build
# folder of its own so the normal release build is untouched.
SEEDS ?= 10000
fuzz:
	$(SWIFT) build -c release -Xswiftc -DWIDGETSIM_INTERNAL_CHECKS --scratch-path .build-fuzz --product widgetsim-fuzz
	.build-fuzz/release/widgetsim-fuzz $(if $(SEED),--seed $(SEED) --keep fuzz-$(SEED),--seeds $(SEEDS))

# Recording fails on purpose (so it never passes unnoticed); the second run verifies.
golden: build
	-WIDGETSIM_RECORD_GOLDEN=1 $(SWIFT) test --filter GoldenReportTests
	$(SWIFT) test --filter GoldenReportTests

# The DocC catalog beside the library, built with the toolchain's docc from the
# library's symbol graph; a warning (a broken link, an undocumented parameter) fails.
DOCS_OUT ?= .build/docs
docs:
	rm -rf .build/symbol-graphs && mkdir -p .build/symbol-graphs
	$(SWIFT) build --target WidgetSim -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc .build/symbol-graphs
	docc convert Sources/WidgetSim/WidgetSim.docc --additional-symbol-graph-dir .build/symbol-graphs \
		--fallback-display-name WidgetSim --fallback-bundle-identifier widgetsim --output-path $(DOCS_OUT) --warnings-as-errors
	@echo "documentation in $(DOCS_OUT) (open with: docc preview Sources/WidgetSim/WidgetSim.docc --additional-symbol-graph-dir .build/symbol-graphs)"

clean:
	rm -rf .build .build-fuzz .shards
