# Every target creates (once) and reuses its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TITLE ?= museum

.PHONY: play test lint typecheck unit docs bench serve browser-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## play: a game of The Museum Job in the terminal (TITLE=house for The House Job)
play: $(STAMP)
	$(BIN)/gameweave play $(TITLE)

## test: everything CI checks
test: $(STAMP) browser-deps lint typecheck unit docs

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy gameweave_core

unit: $(STAMP)
	$(BIN)/pytest

# The browser tests drive Debian's Chromium; install it when it is missing.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

serve: $(STAMP)
	$(BIN)/gameweave serve

clean:
	rm -rf $(VENV) docs/_build build *.egg-info
