# The two commands of the README. Both create .venv and install dasar into it first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
KB ?= $(CURDIR)/.dasar/kb.sqlite

.PHONY: setup demo test check bench clean

$(BIN)/dasar: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	@touch $(BIN)/dasar

setup: $(BIN)/dasar

demo: setup
	DASAR_KB=$(KB) bash scripts/demo.sh

test: setup
	CI=$${CI:-} $(BIN)/python -m pytest -q

check: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bot tools identity guardrails kb tickets

bench: setup
	$(BIN)/python bench/bench_kb.py

clean:
	rm -rf .dasar .pytest_cache build *.egg-info
