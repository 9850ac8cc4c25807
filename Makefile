# The two commands of the README. Both create .venv and install dasar into it first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo doctor test check bench clean teams-package

$(BIN)/dasar: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	@touch $(BIN)/dasar

setup: $(BIN)/dasar

# Local state (knowledge base, tickets, audit log, FAQ folder) lives in .dasar/ of this checkout unless
# DASAR_HOME / DASAR_KB / ... say otherwise; `dasar doctor` shows where. The demo and the CLI agree.
demo: setup
	bash scripts/demo.sh

doctor: setup
	$(BIN)/dasar doctor

# Tests run in parallel, one worker per core (pytest-xdist); each worker builds its own session indexes.
PYTEST_WORKERS ?= auto
test: setup
	CI=$${CI:-} $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS)

check: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bot tools identity guardrails kb tickets

bench: setup
	$(BIN)/python bench/bench_kb.py

# The Teams app package (manifest + both icons), validated; the app id comes from DASAR_TEAMS_APP_ID.
teams-package: setup
	$(BIN)/python scripts/teams_package.py --out dist/dasar-teams.zip

# Removes the checkout's local state (.dasar/: knowledge base, tickets, audit log, FAQ folder, test vector
# cache) and build output. State kept elsewhere (DASAR_HOME, XDG_DATA_HOME) is left alone.
clean:
	rm -rf .dasar .pytest_cache build dist *.egg-info
