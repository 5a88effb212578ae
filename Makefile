# The README's two quickstart commands are `make demo` and `make test`; each creates .venv when
# missing and installs the kit (editable, with dev extras) before running.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export REPLICAS_HOME ?= $(CURDIR)/.replicas-home

.PHONY: demo test check bench install clean wheel-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e ".[dev,ray]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/replicas demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist worksteal

check: $(STAMP)
	$(BIN)/ruff check replicas generators verifiers tests benchmarks
	$(BIN)/ruff format --check replicas generators verifiers tests benchmarks
	$(BIN)/mypy replicas generators verifiers tests

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

wheel-test: $(STAMP)
	bash tests/wheel_smoke.sh

clean:
	rm -rf $(VENV) .replicas-home build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
