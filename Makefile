# erma — the two set-up commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
## The compiled core (setup.py: mypyc, built in place beside the sources, git-ignored): rebuilt when they change.
BUILT  := $(VENV)/.compiled
BOTS   := src/erma/bots/base.py src/erma/bots/claimed.py src/erma/bots/greedy.py src/erma/bots/priors.py \
          src/erma/bots/random_bot.py src/erma/bots/stakes.py src/erma/bots/expert
CORE   := $(shell find src/erma/tiles.py src/erma/hand.py src/erma/analysis src/erma/scoring \
                   src/erma/rules src/erma/game $(BOTS) src/erma/bots/nn src/erma/lab/env_table.py \
                   -name '*.py' 2>/dev/null)

.PHONY: run test install install-pure lint typecheck pytest pure bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

## What the compile needs, first: pyproject's [build-system] (setuptools, mypy) and the light core's two
## dependencies (mypy follows the core's imports as far as erma.bots.nn, which imports numpy).
BASE   := $(VENV)/.base
$(BASE): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet $$($(BIN)/python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb')); \
	    print(*p['build-system']['requires'], *p['project']['dependencies'])")
	touch $(BASE)

## The rest of the dependencies and erma itself, editable (ERMA_PURE: this install compiles nothing).
$(STAMP): $(BASE) pyproject.toml setup.py
	ERMA_PURE=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## The one compile (setup.py: mypyc), in place beside the sources; again whenever a core source changed. It
## needs only $(BASE), so `make test` runs it while the rest installs. `--force`: every module's file is
## written again (a module's small stub does not change with its code, and an old one reads as stale).
$(BUILT): $(BASE) $(CORE) setup.py
	$(BIN)/python setup.py --quiet build_ext --inplace --force
	touch $(BUILT)

install: $(STAMP) $(BUILT)

## The main job on its embedded defaults: the game server on http://127.0.0.1:8000 (SQLite in ./data);
## the environment's HOST and PORT (or `make run HOST=0.0.0.0 PORT=8080`) choose another address.
HOST ?= 127.0.0.1
PORT ?= 8000
run: install
	$(BIN)/erma --version
	$(BIN)/erma serve --host '$(HOST)' --port '$(PORT)'

## Everything the tests need, then the tests. The compile (one C file, one core of gcc for minutes) runs in
## the background while the rest installs and ruff, mypy and the pure-Python suites — which never import it —
## run beside it; then the compiled runs. Its output is shown if it fails. All parts always run (once the
## dependencies are in); make fails if any did.
test: $(BASE)
	@st=0; log=$$(mktemp); \
	$(MAKE) --no-print-directory $(BUILT) > $$log 2>&1 & build=$$!; \
	$(MAKE) --no-print-directory $(STAMP) || { wait $$build; rm -f $$log; exit 1; }; \
	$(MAKE) --no-print-directory lint || st=$$?; \
	$(MAKE) --no-print-directory typecheck || st=$$?; \
	$(MAKE) --no-print-directory pure || st=$$?; \
	if wait $$build; then rm -f $$log; else cat $$log; rm -f $$log; exit 1; fi; \
	$(MAKE) --no-print-directory pytest || st=$$?; \
	exit $$st

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts conftest.py setup.py
	$(BIN)/ruff format --check src tests benchmarks scripts conftest.py setup.py
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## The compiled build's runs. Most of the suite on both cores (pytest-xdist, a test file to a worker). The browser tests
## (tests/web) in a run of their own on three workers (they mostly wait: animations, a bot's pace), a test to
## whichever worker is free: each worker has its own Chromium and its own servers (ports, data folders); sync
## Playwright keeps an event loop running in a worker's thread, which would stop asyncio.run in a non-browser
## test after it in the same worker. The browser test that times a click to the river (`WEB_ALONE`) after
## them, alone: what a player feels is measured on a machine not busy with other browsers. The
## tests that time the server's pauses, alone (a busy second core would make them flaky), beside the fault
## suite (its own run at the same time: it mostly waits, about half a core, and takes as long). Last, the
## build checks (tests/test_build.py) under ERMA_PURE=1 too. All runs always run; make fails if any did.
## `make pure`: the core suites again on the pure-Python build (ERMA_PURE=1 imports the sources, compiled or
## not: docs/performance.md), with the doctests of the compiled modules (conftest.py: a compiled run cannot
## collect them); it never needs the compile, so `make test` runs it while the compile is under way.
WEB    := tests/web
WEB_ALONE := tests/web/test_table.py::test_click_to_river_under_100ms
SERIAL := tests/server/test_protocol_delivery.py tests/server/test_protocol_fairness.py \
          tests/server/test_timing_side_channel.py tests/server/test_timers_from_delivery.py \
          tests/server/test_review_pause.py tests/server/test_protocol_decisions_already_made.py \
          tests/server/test_not_reading.py tests/server/test_clock_after_a_held_delivery.py \
          tests/server/test_next_clock_after_a_held_delivery.py tests/server/test_opponent_away.py
FAULTS := tests/scale/test_faults.py
PURE_SUITES := tests/analysis tests/scoring tests/game/test_golden_records.py tests/bots/test_bots.py \
               tests/bots/test_expert_golden.py tests/test_tiles.py tests/test_hand.py \
               src/erma/tiles.py src/erma/hand.py src/erma/analysis src/erma/scoring src/erma/rules src/erma/game \
               $(BOTS)

pytest: $(STAMP) $(BUILT)
	@st=0; \
	$(BIN)/erma --version; \
	$(BIN)/pytest -q -n 2 --dist loadfile $(addprefix --ignore=,$(SERIAL) $(FAULTS) $(WEB)) || st=$$?; \
	$(BIN)/pytest -q -n 3 --dist worksteal $(WEB) --deselect $(WEB_ALONE) || st=$$?; \
	$(BIN)/pytest -q -p no:xdist $(WEB_ALONE) || st=$$?; \
	faults_log=$$(mktemp); \
	$(BIN)/pytest -q -p no:xdist $(FAULTS) > $$faults_log 2>&1 & faults=$$!; \
	$(BIN)/pytest -q -p no:xdist $(SERIAL) || st=$$?; \
	wait $$faults || st=$$?; cat $$faults_log; rm -f $$faults_log; \
	ERMA_PURE=1 $(BIN)/pytest -q -p no:xdist tests/test_build.py || st=$$?; \
	exit $$st

pure: $(STAMP)
	ERMA_PURE=1 $(BIN)/erma --version
	ERMA_PURE=1 $(BIN)/pytest -q -n 2 --dist loadfile $(PURE_SUITES)

## The pure-Python package in its own venv (what a machine without a C compiler installs).
install-pure:
	$(PYTHON) -m venv .venv-pure
	ERMA_PURE=1 .venv-pure/bin/pip install --quiet '.[dev]'  # not editable: src/ holds the compiled modules

bench: install
	$(BIN)/python benchmarks/analysis.py
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/sim.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
