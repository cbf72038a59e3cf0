# erma — the two set-up commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The main job on its embedded defaults: the game server on http://127.0.0.1:8000 (SQLite in ./data).
run: $(STAMP)
	$(BIN)/erma serve

## Everything the tests need, then the tests.
test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## Two runs: most of the suite on both cores (pytest-xdist, a test file to a worker), then the browser tests
## and the tests that time the server's pauses, alone (a busy second core would make them flaky, and a page's
## event loop would stop asyncio.run in the tests after it).
## (The timing tests first: the browser tests' servers live until the end of their run.) Both runs always
## run; make fails if either did.
SERIAL := tests/server/test_protocol_delivery.py tests/server/test_protocol_fairness.py \
          tests/server/test_timing_side_channel.py tests/server/test_timers_from_delivery.py \
          tests/server/test_review_pause.py tests/server/test_protocol_decisions_already_made.py \
          tests/scale/test_faults.py tests/web

pytest: $(STAMP)
	@st=0; \
	$(BIN)/pytest -q -n 2 --dist loadfile $(addprefix --ignore=,$(SERIAL)) || st=$$?; \
	$(BIN)/pytest -q -p no:xdist $(SERIAL) || st=$$?; \
	exit $$st

bench: $(STAMP)
	$(BIN)/python benchmarks/analysis.py
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/sim.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
