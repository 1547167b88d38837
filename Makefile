# widgetsim — see README.md.
#   make simulate SCENARIO=weather [SEED=n] [DAYS=n]   run a scenario, write Reports/<scenario>/
#   make test                                         build and run the tests
SWIFT ?= swift
SCENARIO ?= weather
RELEASE_BIN := .build/release/widgetsim

.PHONY: all build release test simulate clean help

all: build

help:
	@sed -n '2,4p' Makefile

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product widgetsim

# The end-to-end tests run the debug binary, so build it before testing.
test: build
	$(SWIFT) test

simulate: release
	$(RELEASE_BIN) simulate $(SCENARIO) --out Reports/$(SCENARIO) $(if $(SEED),--seed $(SEED)) $(if $(DAYS),--days $(DAYS))

clean:
	rm -rf .build
