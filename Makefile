# widgetsim — see README.md.
#   make simulate SCENARIO=weather [SEED=n] [DAYS=n]   run a scenario, write Reports/<scenario>/
#   make compare SCENARIO=weather [RUNS=n]            rank the scenario's variants, write Reports/<scenario>/comparison.*
#   make test                                         build and run the tests (golden reports included)
#   make golden                                       re-record every scenario's committed reports, on purpose
SWIFT ?= swift
SCENARIO ?= weather
RUNS ?= 10
RELEASE_BIN := .build/release/widgetsim

.PHONY: all build release test simulate compare golden clean help

all: build

help:
	@sed -n '2,6p' Makefile

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

# Recording fails on purpose (so it never passes unnoticed); the second run verifies.
golden: build
	-WIDGETSIM_RECORD_GOLDEN=1 $(SWIFT) test --filter GoldenReportTests
	$(SWIFT) test --filter GoldenReportTests

clean:
	rm -rf .build
