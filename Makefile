# Two commands on a fresh Debian/Ubuntu machine with Swift 6:
#   make run    builds and serves the demo at http://localhost:8080
#   make test   every test: Swift, JavaScript, browser, WebSocket conformance, the README's example
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
BUILD := .build
VENV := $(BUILD)/venv
PY := $(VENV)/bin/python
PORT ?= 8080
APT_PACKAGES := libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libssl-dev pkg-config openssl chromium chromium-driver postgresql nginx
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_TEST_FLAGS ?=
# Tests run against an optimized build: it is what ships, and the load tests
# (20 concurrent editors) take seconds instead of a minute.
TEST_CONFIG ?= release
SERVER_BIN := $(BUILD)/$(TEST_CONFIG)/collection-server
export COLLECTION_SERVER_BIN = $(abspath $(SERVER_BIN))

.PHONY: clean-modules run test deps build test-swift test-pure test-fast test-js test-browser test-conformance test-package test-api api-baseline bench bench-instructions fuzz tsan clean
FUZZ_SECONDS ?= 60

## System packages: installed with apt when missing (through sudo when not root).
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## Python test packages in a venv under the build folder.
$(VENV)/.installed: Tests/requirements.txt | deps
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/requirements.txt
	# axe-core 4.12 for the accessibility test: its file, not the Playwright it would bring.
	$(VENV)/bin/pip install -q --disable-pip-version-check --no-deps axe-playwright-python==0.1.8
	touch $@

build: deps
	swift build

# The demo's sign-in (signin.html) signs tokens with a secret of this checkout's own,
# made once and kept, so that a restart keeps everyone signed in.
$(BUILD)/dev-token-secret:
	mkdir -p $(BUILD)
	umask 077 && openssl rand -hex 32 > $@

run: build $(BUILD)/dev-token-secret
	$(BUILD)/debug/collection-server --host 127.0.0.1 --port $(PORT) --token-secret-file $(BUILD)/dev-token-secret

# Every test runs beside a private PostgreSQL server (Tests/support/with-postgres:
# initdb in a temporary folder, a Unix socket only, removed at the end).
WITH_POSTGRES = $(if $(COLLECTION_TEST_POSTGRES),,Tests/support/with-postgres)

test: deps $(VENV)/.installed
	swift build -c $(TEST_CONFIG) --build-tests
	$(WITH_POSTGRES) $(MAKE) --no-print-directory test-api test-swift test-js test-browser test-conformance test-package

# A hang fails clearly after 20 minutes (the suite takes about 2 minutes). Three
# processes, one after another, each with a pool of its own: Swift Testing starts every
# test of a process at once on a pool of one thread per core, and the pure tests'
# seconds of CPU (random diffs, layouts) or the storage tests' synchronous PostgreSQL
# waits held both threads for 7-10 s while the socket tests' clients timed out.
PURE_TESTS := CollectionCoreTests|CollectionProtocolTests|CollectionSyncTests
test-swift: test-pure
	$(WITH_POSTGRES) timeout --kill-after=30 1200 swift test -c $(TEST_CONFIG) --skip-build --skip '$(PURE_TESTS)|CollectionStorageTests' $(SWIFT_TEST_FLAGS)
	$(WITH_POSTGRES) timeout --kill-after=30 600 swift test -c $(TEST_CONFIG) --skip-build --filter CollectionStorageTests $(SWIFT_TEST_FLAGS)

## The fast tier: the pure core (no sockets, no processes, no database), in seconds.
test-pure:
	timeout --kill-after=30 600 swift test -c $(TEST_CONFIG) --skip-build --filter '$(PURE_TESTS)' $(SWIFT_TEST_FLAGS)

## What a change is checked with first: the build, the API break check, the pure tests and the client's JS tests.
test-fast: deps
	swift build -c $(TEST_CONFIG) --build-tests
	$(MAKE) --no-print-directory test-api test-pure test-js

test-js:
	node --test Tests/js/

test-browser: $(VENV)/.installed
	$(PY) -m pytest -q --durations=12 Tests/browser

test-conformance: $(VENV)/.installed
	$(PY) -m pytest -q Tests/conformance

## The README's "Build your own" example, built as a fresh package that depends on a copy of this one.
test-package: $(VENV)/.installed
	$(PY) -m pytest -q Tests/package

## The public API break check: the library products' API against the last 0.x tag's
## (Tests/api/TAG), from the release build's modules, in seconds (Tests/api/check-api).
test-api:
	Tests/api/check-api
	Tests/api/check-docs.py

## When a change breaks the API on purpose: Tests/api/TAG names the new 0.x version,
## and this dumps the tree's API (the release build's modules) as its baseline.
API_TAG = $(shell cat Tests/api/TAG)
api-baseline: deps
	swift build -c release
	rm -rf Tests/api/baseline-$(API_TAG)
	Tests/api/check-api --dump Tests/api/baseline-$(API_TAG)

## Benchmarks (release build): prints Markdown tables.
bench: deps $(VENV)/.installed
	swift build -c release --product collection-bench
	swift build -c release --product collection-server
	$(WITH_POSTGRES) $(BUILD)/release/collection-bench
	COLLECTION_SERVER_BIN=$(BUILD)/release/collection-server $(PY) Tests/bench/browser_bench.py
	$(PY) Tests/bench/readme_build.py

## Instructions a delivery, counted by callgrind (repeatable where times are not):
## Tests/bench/instructions.sh, for the fan-out cases with a layout per viewer.
bench-instructions: deps
	@command -v valgrind >/dev/null || { $(SUDO) apt-get update -qq; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends valgrind; }
	swift build -c release --product collection-bench
	Tests/bench/instructions.sh

## The Swift tests under ThreadSanitizer (servers they start are TSan builds too).
## The same three processes as test-swift: in one, the route tests' handlers waited 30 s
## for a pool the other tests held, and failed.
TSAN_TEST = env COLLECTION_TEST_TIMEOUT_SCALE=5 swift test --skip-build --sanitize=thread --scratch-path .build-tsan
tsan: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(TSAN_TEST) --filter '$(PURE_TESTS)'
	$(WITH_POSTGRES) $(TSAN_TEST) --skip '$(PURE_TESTS)|CollectionStorageTests'
	$(WITH_POSTGRES) $(TSAN_TEST) --filter CollectionStorageTests

## libFuzzer on decode -> apply with invariant checks; new inputs join the corpus,
## crashes land in FuzzTesting/Crashes (both are replayed by make test).
fuzz: deps
	cd FuzzTesting && swift build -c debug --product FuzzHub --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	mkdir -p $(BUILD)/fuzz-corpus
	cp FuzzTesting/Corpus/* $(BUILD)/fuzz-corpus/
	ASAN_OPTIONS=detect_leaks=0 FuzzTesting/.build/debug/FuzzHub $(BUILD)/fuzz-corpus -max_total_time=$(FUZZ_SECONDS) -max_len=2048 -artifact_prefix=FuzzTesting/Crashes/
	ASAN_OPTIONS=detect_leaks=0 FuzzTesting/.build/debug/FuzzHub -merge=1 FuzzTesting/Corpus $(BUILD)/fuzz-corpus

clean:
	rm -rf $(BUILD)

## This package's own modules, built again at the next build (the dependencies stay):
## after a change to the stored properties of a class others import, Swift 6.3.1's
## incremental build can leave its importers with the old layout (they crash).
clean-modules:
	for config in debug release; do \
	  dir=$(BUILD)/$$(uname -m)-unknown-linux-gnu/$$config; \
	  [ -d $$dir ] || continue; \
	  for m in $$(swift package dump-package | python3 -c 'import json, sys; print(" ".join(t["name"].replace("-", "_") for t in json.load(sys.stdin)["targets"]))'); do rm -rf $$dir/$$m.build; done; \
	  rm -rf $$dir/CollectionServerPackageTests.build $$dir/CollectionServerPackageDiscoveredTests.build; \
	done
