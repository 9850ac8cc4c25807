# The two commands of the README. Both create .venv and install dasar into it first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo doctor test check bench clean teams-package lock

# Installed under constraints.txt: the exact package set the README's numbers were measured with.
$(BIN)/dasar: pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[all,dev]'
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

# Re-resolves pyproject.toml's ranges in a scratch venv and pins the result in constraints.txt (newest versions
# the registry holds). Re-run the evals after it: a dependency's new version can move a measured number.
lock:
	rm -rf .lock-venv
	$(PY) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet -e '.[all,dev]'
	{ head -n 3 constraints.txt; .lock-venv/bin/pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf .lock-venv
