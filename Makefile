# widgetsim — see README.md.
#   make simulate SCENARIO=weather [SEED=n] [DAYS=n] [VARIANT=name]  run a scenario (or one variant), write Reports/<scenario>[-<variant>]/
#   make compare SCENARIO=weather [RUNS=n] [WIDGET=id]  rank the scenario's variants (for one widget), write Reports/<scenario>[-<id>]/comparison.*
#   make sensitivity SCENARIO=weather [SENSITIVITY_RUNS=n] [TRAJECTORIES=n]
#                                                     how much each unknown moves the comparison, write Reports/<scenario>/sensitivity.*
#   make fleet SCENARIO=fleet-weather [DEVICES=n]     simulate a fleet scenario, write Reports/<scenario>/fleet.*
#   make fleet-sharded SCENARIO=fleet-weather SHARDS=4  the same in parallel shard processes, then merged
#   make bench [BENCH_BASELINE=rev|none] [BENCH_INSTRUCTIONS=0] [BENCH_ARGS=--quick]
#                                                     measure speed and memory, and this build against a baseline commit (not part of make test)
#   make bench-inputs                                 only how check and validate grow with their input's size
#   make fuzz [SEEDS=10000 | SEED=n]                  random scenarios must run, pass check and repeat
#   make chaos [INTERRUPTIONS=1000] [SEED=n]          interrupt release runs with SIGINT/TERM/KILL at random instants: the report
#                                                     directory must be the old or the new one, nothing left (not part of make test);
#                                                     ONLY=i [DURATION=s] replays one iteration, CHAOS_ARGS passes other options
#   make mutate [MUTANTS=1000] [SEED=n] [MASTER=s]    mutated inputs must get a clean exit from the release
#                                                     binary (not part of make test; SEED=n reruns mutant n alone;
#                                                     MUTATE_ARGS="--timeout 10 --memory-limit 1GiB --jobs 2")
#   make calibrate-sweep [CASES=40]                    calibrate many simulated phones with hidden values: how often the
#                                                     intervals hold them (not part of make test)
#   OUT=dir                                           with simulate, compare, sensitivity, fleet or fleet-sharded: write there, not
#                                                     into Reports/, whose committed reports make test compares
#   make test                                         build and run the tests (golden reports included)
#   make example                                      build Tests/ExamplePackage: widgetsim plus a provider of its own
#   make golden                                       re-record every scenario's committed reports, on purpose
#   make docs                                         build the DocC catalog and check its links (not part of make test)
SWIFT ?= swift
# OUT=<dir> only when given on make's command line: some shells export an
# OUT of their own, which must not redirect the reports.
REPORTS_OUT := $(if $(filter command line,$(origin OUT)),$(OUT))
SCENARIO ?= weather
# A scenario given as a path (SCENARIO=~/widgets/score.json) writes its
# reports under its file name (Reports/score/), as one given by name does.
REPORT_NAME = $(patsubst %.json,%,$(notdir $(SCENARIO)))
# The committed reports' options (GoldenReportTests checks they agree), so that
# `make compare` and `make sensitivity` rewrite them byte for byte.
RUNS ?= 10
SENSITIVITY_RUNS ?= 4
TRAJECTORIES ?= 4
RELEASE_BIN := .build/release/widgetsim

.PHONY: all build release test example simulate compare sensitivity fleet fleet-sharded golden bench bench-inputs calibrate-sweep fuzz chaos mutate docs clean help

all: build

help:
	@sed -n '2,25p' Makefile

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product widgetsim

# The end-to-end tests run the debug binary, so build it before testing; the
# example package too (a build folder of its own, since it is another root
# package), whose binary OwnPackageTests runs.
test: build example
	WIDGETSIM_EXAMPLE_BINARY=$(CURDIR)/$(EXAMPLE_BIN) $(SWIFT) test

# A package of a user's own (Tests/ExamplePackage): widgetsim plus a provider
# ported from Apple's docs, depending on this repository by path; no network.
EXAMPLE_BIN := .build-example/debug/my-widgetsim
# The build manifest is not cached: for a path dependency, SwiftPM kept the
# library's old source list after a file was added, and the build failed.
example:
	$(SWIFT) build --package-path Tests/ExamplePackage --scratch-path .build-example --product my-widgetsim --disable-build-manifest-caching

simulate: release
	$(RELEASE_BIN) simulate $(SCENARIO) --out $(or $(REPORTS_OUT),Reports/$(REPORT_NAME)$(if $(VARIANT),-$(VARIANT))) $(if $(VARIANT),--variant $(VARIANT)) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

compare: release
	$(RELEASE_BIN) compare $(SCENARIO) --runs $(RUNS) $(if $(WIDGET),--widget $(WIDGET)) $(if $(REPORTS_OUT),--out $(REPORTS_OUT),$(if $(WIDGET),,--out Reports/$(REPORT_NAME))) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

sensitivity: release
	$(RELEASE_BIN) sensitivity $(SCENARIO) --runs $(SENSITIVITY_RUNS) --trajectories $(TRAJECTORIES) --out $(or $(REPORTS_OUT),Reports/$(REPORT_NAME)) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

fleet: release
	$(RELEASE_BIN) fleet $(SCENARIO) --out $(or $(REPORTS_OUT),Reports/$(REPORT_NAME)) $(if $(DEVICES),--devices $(DEVICES)) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

# The sharded run as a batch engine would do it, with local processes: each
# shard writes a partial result, then `merge` writes the report.
SHARDS ?= 4
fleet-sharded: release
	rm -rf .shards/$(REPORT_NAME) && mkdir -p .shards/$(REPORT_NAME)
	seq 1 $(SHARDS) | xargs -P $(SHARDS) -I{} $(RELEASE_BIN) fleet $(SCENARIO) --threads 1 -q \
		--shard {}/$(SHARDS) --partial .shards/$(REPORT_NAME)/part-{}.txt $(if $(DEVICES),--devices $(DEVICES))
	$(RELEASE_BIN) merge .shards/$(REPORT_NAME)/part-*.txt --out $(or $(REPORTS_OUT),Reports/$(REPORT_NAME))

# Speed and memory; never part of `make test` (these machines are shared and noisy).
# The input benchmarks time the release widgetsim binary, so both are built.
#   BENCH_ARGS: --quick (1 run instead of 3, 2 baseline pairs instead of 5), --timeout <s> (default 120),
#               --keep-inputs, --widgetsim <binary>
#
# Wall times of separate sittings cannot be compared on these machines, so
# `make bench` also builds the baseline's widgetsim-bench (the commit before the
# speed work) into .build-baseline and runs both builds' children alternately in
# one sitting, quoting ratios. The tree is exported with `git archive`, never
# checked out, so the working tree is untouched; it is exported again (and
# rebuilt from scratch) only when BENCH_BASELINE resolves to another commit.
#   BENCH_BASELINE: a git revision (default e9474fa, the commit before the speed work), or none to skip it
#   BENCH_INSTRUCTIONS: 1 to also count instructions per widget-day with callgrind, which does not
#                       depend on load (default: 1 when valgrind is on PATH), 0 to skip it
BENCH_BASELINE ?= e9474fa
BENCH_INSTRUCTIONS ?= $(if $(shell command -v valgrind 2>/dev/null),1,0)
BASELINE_DIR := .build-baseline
BASELINE_BENCH := $(BASELINE_DIR)/build/release/widgetsim-bench
.PHONY: bench-baseline

bench: $(if $(filter none,$(BENCH_BASELINE)),,bench-baseline)
	$(SWIFT) build -c release --product widgetsim
	$(SWIFT) build -c release --product widgetsim-bench
	.build/release/widgetsim-bench $(BENCH_ARGS) \
		$(if $(filter none,$(BENCH_BASELINE)),,--baseline $(BASELINE_BENCH) --baseline-name "$(BENCH_BASELINE) ($$(cut -c1-10 $(BASELINE_DIR)/REVISION))") \
		$(if $(filter 1,$(BENCH_INSTRUCTIONS)),--instructions)

# REVISION is written only once the export is complete (a pipe's status is
# tar's, hence the check for Package.swift), so an interrupted export is done again.
bench-baseline:
	@revision=$$(git rev-parse --verify --quiet '$(BENCH_BASELINE)^{commit}') \
		|| { echo "BENCH_BASELINE=$(BENCH_BASELINE) is not a commit of this repository (or use BENCH_BASELINE=none)" >&2; exit 2; }; \
	if [ ! -d $(BASELINE_DIR)/src ] || [ "$$(cat $(BASELINE_DIR)/REVISION 2>/dev/null)" != "$$revision" ]; then \
		echo "exporting $$revision into $(BASELINE_DIR)/src"; \
		rm -rf $(BASELINE_DIR) && mkdir -p $(BASELINE_DIR)/src \
			&& git archive $$revision | tar -x -C $(BASELINE_DIR)/src \
			&& [ -f $(BASELINE_DIR)/src/Package.swift ] \
			&& echo $$revision > $(BASELINE_DIR)/REVISION; \
	fi
	$(SWIFT) build -c release --product widgetsim-bench --package-path $(BASELINE_DIR)/src --scratch-path $(BASELINE_DIR)/build

bench-inputs:
	$(SWIFT) build -c release --product widgetsim
	$(SWIFT) build -c release --product widgetsim-bench
	.build/release/widgetsim-bench --only inputs $(BENCH_ARGS)

# The larger calibration recovery sweep, in a release build of the tests
# (its own build folder, so the normal release build is untouched).
CASES ?= 40
calibrate-sweep:
	WIDGETSIM_CALIBRATION_SWEEP=$(CASES) $(SWIFT) test -c release -Xswiftc -enable-testing --scratch-path .build-sweep --filter CalibrationSweep

# Release speed with the internal invariant checks compiled in, in a build
# folder of its own so the normal release build is untouched.
SEEDS ?= 10000
fuzz:
	$(SWIFT) build -c release -Xswiftc -DWIDGETSIM_INTERNAL_CHECKS --scratch-path .build-fuzz --product widgetsim-fuzz
	.build-fuzz/release/widgetsim-fuzz $(if $(SEED),--seed $(SEED) --keep fuzz-$(SEED),--seeds $(SEEDS))

# Interrupts the release build's runs (it is what users run) a thousand
# times; a failure prints the line that replays it and keeps its evidence in
# .chaos/failures/. `make test` runs a short campaign of the same (ChaosTests).
INTERRUPTIONS ?= 1000
chaos: release
	$(SWIFT) build -c release --product widgetsim-chaos
	.build/release/widgetsim-chaos --binary $(RELEASE_BIN) --interruptions $(INTERRUPTIONS) $(if $(SEED),--seed $(SEED)) \
		$(if $(ONLY),--only $(ONLY)) $(if $(DURATION),--duration $(DURATION)) $(CHAOS_ARGS)

# Structure-aware mutants of every input format (scenarios, report directories,
# reloads logs, fleet partials) against the release binary, each in a child
# process with a timeout and a memory limit. Failing mutants are saved under
# mutate-failures/<n>/ with the exact command; never part of `make test` (it is long).
MUTANTS ?= 1000
mutate:
	$(SWIFT) build -c release --product widgetsim
	$(SWIFT) build -c release --product widgetsim-mutate
	.build/release/widgetsim-mutate --binary $(RELEASE_BIN) $(if $(SEED),--mutant $(SEED),--mutants $(MUTANTS)) \
		$(if $(MASTER),--master-seed $(MASTER)) $(MUTATE_ARGS)

# Recording fails on purpose (so it never passes unnoticed); the second run verifies.
golden: build
	-WIDGETSIM_RECORD_GOLDEN=1 $(SWIFT) test --filter GoldenReportTests
	$(SWIFT) test --filter GoldenReportTests

# The DocC catalog beside the library, built with the toolchain's docc from the
# library's symbol graph; a warning (a broken link, an undocumented parameter) fails.
# The graph is extracted from the debug build on every run: one emitted while
# compiling (-emit-symbol-graph) is written only when the module is rebuilt, so
# a second `make docs` with nothing changed found no graph and failed on every
# symbol link.
DOCS_OUT ?= .build/docs
docs:
	rm -rf .build/symbol-graphs && mkdir -p .build/symbol-graphs
	graphs="$$($(SWIFT) package dump-symbol-graph | sed -n 's/^Files written to //p')" && test -d "$$graphs" && \
		find "$$graphs" -maxdepth 1 \( -name 'WidgetSim.symbols.json' -o -name 'WidgetSim@*.symbols.json' \) -exec cp {} .build/symbol-graphs/ \; && \
		test -f .build/symbol-graphs/WidgetSim.symbols.json
	docc convert Sources/WidgetSim/WidgetSim.docc --additional-symbol-graph-dir .build/symbol-graphs \
		--fallback-display-name WidgetSim --fallback-bundle-identifier widgetsim --output-path $(DOCS_OUT) --warnings-as-errors
	@echo "documentation in $(DOCS_OUT) (open with: docc preview Sources/WidgetSim/WidgetSim.docc --additional-symbol-graph-dir .build/symbol-graphs)"

clean:
	rm -rf .build .build-fuzz .build-example .build-baseline .shards .chaos mutate-failures
