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
                   src/erma/rules src/erma/game $(BOTS) \
                   -name '*.py' 2>/dev/null)

.PHONY: run test install install-pure lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

## The dependencies first (ERMA_PURE: nothing compiled yet), then the one compile.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/pip install --quiet --upgrade pip
	ERMA_PURE=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BUILT): $(STAMP) $(CORE)
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(BUILT)

install: $(BUILT)

## The main job on its embedded defaults: the game server on http://127.0.0.1:8000 (SQLite in ./data);
## the environment's HOST and PORT (or `make run HOST=0.0.0.0 PORT=8080`) choose another address.
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(BUILT)
	$(BIN)/erma --version
	$(BIN)/erma serve --host '$(HOST)' --port '$(PORT)'

## Everything the tests need, then the tests.
test: $(BUILT) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts conftest.py setup.py
	$(BIN)/ruff format --check src tests benchmarks scripts conftest.py setup.py
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## Four runs. Most of the suite on both cores (pytest-xdist, a test file to a worker). The browser tests
## (tests/web) on both cores too, in a run of their own, a test to whichever worker is free: each worker has
## its own Chromium and its own servers (ports, data folders); sync Playwright keeps an event loop running in
## a worker's thread, which would stop asyncio.run in a non-browser test after it in the same worker. The
## tests that time the server's pauses, alone (a busy second core would make them flaky), beside the fault
## suite (its own run at the same time: it mostly waits, about half a core, and takes as long). A fourth run: the
## core suites again on the pure-Python build (ERMA_PURE=1 imports the sources; docs/performance.md), with the
## doctests of the compiled modules (conftest.py: a compiled run cannot collect them). All runs always run;
## make fails if any did.
WEB    := tests/web
SERIAL := tests/server/test_protocol_delivery.py tests/server/test_protocol_fairness.py \
          tests/server/test_timing_side_channel.py tests/server/test_timers_from_delivery.py \
          tests/server/test_review_pause.py tests/server/test_protocol_decisions_already_made.py \
          tests/server/test_not_reading.py tests/server/test_clock_after_a_held_delivery.py \
          tests/server/test_next_clock_after_a_held_delivery.py tests/server/test_opponent_away.py
FAULTS := tests/scale/test_faults.py
PURE_SUITES := tests/analysis tests/scoring tests/game/test_golden_records.py tests/bots/test_bots.py \
               tests/bots/test_expert_golden.py tests/test_tiles.py tests/test_hand.py tests/test_build.py \
               src/erma/tiles.py src/erma/hand.py src/erma/analysis src/erma/scoring src/erma/rules src/erma/game \
               $(BOTS)

pytest: $(BUILT)
	@st=0; \
	$(BIN)/erma --version; \
	$(BIN)/pytest -q -n 2 --dist loadfile $(addprefix --ignore=,$(SERIAL) $(FAULTS) $(WEB)) || st=$$?; \
	$(BIN)/pytest -q -n 2 --dist worksteal $(WEB) || st=$$?; \
	faults_log=$$(mktemp); \
	$(BIN)/pytest -q -p no:xdist $(FAULTS) > $$faults_log 2>&1 & faults=$$!; \
	$(BIN)/pytest -q -p no:xdist $(SERIAL) || st=$$?; \
	wait $$faults || st=$$?; cat $$faults_log; rm -f $$faults_log; \
	ERMA_PURE=1 $(BIN)/erma --version; \
	ERMA_PURE=1 $(BIN)/pytest -q -n 2 --dist loadfile $(PURE_SUITES) || st=$$?; \
	exit $$st

## The pure-Python package in its own venv (what a machine without a C compiler installs).
install-pure:
	$(PYTHON) -m venv .venv-pure
	ERMA_PURE=1 .venv-pure/bin/pip install --quiet '.[dev]'  # not editable: src/ holds the compiled modules

bench: $(BUILT)
	$(BIN)/python benchmarks/analysis.py
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/sim.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
