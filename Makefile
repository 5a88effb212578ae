# The README's two quickstart commands are `make demo` and `make test`; each creates .venv when
# missing and installs the kit (editable, with dev extras) before running.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export REPLICAS_HOME ?= $(CURDIR)/.replicas-home

.PHONY: demo test test-slow audit ci check bench install clean wheel-test os-sandbox

EXTRAS := dev,ray,inspect,openenv,mcp,verifiers,harbor

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The integration extras (README: Use it from …) are installed so `make test` runs each framework's
# own client; harbor's extra is empty below Python 3.12 (its tests then check the layout only).
# uv resolves and installs the same versions as pip in a fraction of the time (README: Benchmarks).
# Bytecode: the OS sandbox mounts site-packages read-only, so what sandboxed dbt imports is compiled
# here (replicas.devtools.precompile: dbt-duckdb's requirement closure, ~2,000 files); the rest is
# cached by Python on first import. Where uv cannot be installed or fails, pip (which compiles
# everything) installs instead.
$(STAMP): $(BIN)/python pyproject.toml
	{ $(BIN)/python -m pip install -q uv && \
	  $(BIN)/python -m uv pip install -q --python $(BIN)/python -e ".[$(EXTRAS)]" && \
	  $(BIN)/python -m replicas.devtools.precompile; } || \
	  $(BIN)/python -m pip install -q -e ".[$(EXTRAS)]"
	touch $(STAMP)

install: $(STAMP)

# dbt tasks run the agent's project under bubblewrap (README: Isolation). Installed here when
# this is a Debian/Ubuntu machine we are root on; otherwise we say what is missing and stop.
os-sandbox:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing bubblewrap (the OS sandbox for dbt tasks)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; }; \
	  else \
	    echo "error: dbt tasks need bubblewrap (the OS sandbox), which is not installed."; \
	    echo "       Debian/Ubuntu: sudo apt-get install bubblewrap  (see README: Isolation)"; \
	    exit 1; \
	  fi; }
	@bwrap --ro-bind / / --unshare-all --die-with-parent /bin/true 2>/dev/null || { \
	  echo "error: bubblewrap is installed but cannot create a sandbox here (user namespaces off?)."; \
	  echo "       make demo can still run with: $(BIN)/replicas demo --unsafe-no-os-sandbox"; \
	  exit 1; }

demo: $(STAMP) os-sandbox
	$(BIN)/replicas demo

# `make test`: unit, integration and security tests (markers in pyproject.toml). The minutes-long
# runs have their own targets, and .ci/run runs all three. `--dist loadgroup`: tests/conftest.py
# keeps each module with an expensive module fixture on one worker and starts the heaviest first.
test: $(STAMP) os-sandbox
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup --durations=30 -m "not slow and not audit and not browser"

# The whole-suite audit gate: every task of the shipped suites is usable.
audit: $(STAMP) os-sandbox
	$(BIN)/python -m pytest -q -n 2 --dist worksteal -m audit

# End-to-end runs that take minutes (enterprise dbt episodes) and the headless-Chromium render.
test-slow: $(STAMP) os-sandbox
	$(BIN)/python -m pytest -q -n 2 --dist worksteal -m "slow or browser"

ci: test audit test-slow

check: $(STAMP)
	$(BIN)/ruff check replicas generators verifiers tests benchmarks
	$(BIN)/ruff format --check replicas generators verifiers tests benchmarks
	$(BIN)/mypy replicas generators verifiers tests
	@# every shipped dbt project: dbt-score >= 9.5 and no sqlfluff violation (dbt templater)
	$(BIN)/python -m replicas.devtools.lint_dbt

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

wheel-test: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_wheel.py

clean:
	rm -rf $(VENV) .replicas-home build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
