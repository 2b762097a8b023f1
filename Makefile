# Every target creates (once) and reuses its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TITLE ?= museum
# The tests' Hypothesis profile (gameweave_core.pytest_plugin): `ci` draws the same
# examples on every run; `make unit GAMEWEAVE_HYPOTHESIS=dev` (or a bare `pytest`)
# draws new ones each run and prints the seed to replay a failure with.
export GAMEWEAVE_HYPOTHESIS ?= ci
# Every title is a distribution of its own, each in its folder: the project's two games
# at the top (gameweave_museum/, gameweave_house/; The Museum Job first: `make dists`
# installs it alone) and the published heist games under titles/. The dev environment
# installs them all.
HOUSE := gameweave_house
TITLE_DIRS := gameweave_museum $(HOUSE) $(patsubst %/pyproject.toml,%,$(sort $(wildcard titles/*/pyproject.toml)))
TITLE_PROJECTS := $(addsuffix /pyproject.toml,$(TITLE_DIRS))

.PHONY: play test check check-tests lint typecheck jscheck unit docs tutorial scaffold dists bench bench-peers kit-deep \
	bench-bgio serve browser-deps clean compiled test-compiled jscheck-run check-uvicorn

# The Makefile too: a title moved or added changes what is installed editable.
# pip's output (setuptools' warnings about editable installs among it: nothing a
# newcomer must act on) goes to a log; only a failure shows it, its last lines.
INSTALL_LOG := $(VENV)/install.log
$(STAMP): pyproject.toml $(TITLE_PROJECTS) Makefile
	@echo "Installing Gameweave and its games into $(VENV) (pip's output: $(INSTALL_LOG))"
	@$(PYTHON) -m venv $(VENV)
	@{ $(BIN)/python -m pip install --upgrade pip && \
	  $(BIN)/python -m pip install -e '.[dev]' $(addprefix -e ./,$(TITLE_DIRS)); } \
	  > $(INSTALL_LOG) 2>&1 || { tail -n 30 $(INSTALL_LOG) >&2; \
	  echo "make: installing into $(VENV) failed (above: the end of $(INSTALL_LOG), which has all of it)" >&2; \
	  exit 1; }
	@# The root distribution's packages come from two folders (. and adapters), so its
	@# editable install is setuptools' import hook, which mypy cannot see; this .pth
	@# names both folders, so that mypy finds gameweave_core from a title's own folder.
	@printf '%s\n%s\n' "$(CURDIR)" "$(CURDIR)/adapters" \
	  > "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/gameweave-checkout.pth"
	@touch $(STAMP)

## play: a game of The Museum Job in the terminal (TITLE=house for The House Job)
play: $(STAMP)
	@$(BIN)/gameweave play $(TITLE)

## test: everything CI checks
test: $(STAMP) browser-deps lint typecheck jscheck unit docs tutorial scaffold dists test-compiled

## check: the inner loop: lint, types, and the tests but the browser and slow ones, in parallel
# The same tests as `make unit` less those marked browser or slow, spread over every
# core by pytest-xdist (each title's from its own folder, as there), while lint and
# mypy run beside them (-j3; -O keeps each one's output together); `make test`
# remains the whole of CI.
FAST := -n auto -q -p no:cacheprovider -m "not browser and not slow"
check: $(STAMP)
	@$(MAKE) --no-print-directory -j3 -O lint typecheck check-tests

check-tests: $(STAMP)
	$(BIN)/pytest $(FAST)
	set -e; for d in $(TITLE_DIRS); do echo "== $$d"; (cd $$d && $(CURDIR)/$(BIN)/pytest $(FAST)); done

# A title's rules stay readable: McCabe 15 at most in its rule modules (ruff's
# project-wide limit of 30 still covers bots, terminals, views and loaders).
RULE_MODULES = $(filter-out %/bots.py %/terminal.py %/views.py %/resample.py %/floorplan.py,\
	$(wildcard $(addsuffix /gameweave_*/*.py,$(TITLE_DIRS))))

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@echo "lint-imports: the layering and no import cycles (pyproject's [tool.importlinter])"
	@$(BIN)/lint-imports --no-cache
	@echo "ruff: McCabe 15 at most in the titles' rule modules"
	@$(BIN)/ruff check --select C901 --config 'lint.mccabe.max-complexity=15' $(RULE_MODULES)

# mypy --strict on every package, then on the tests: the core's and adapters' tests
# (with the folders their imports come from that nothing installs on the path), and
# each title's from its own folder, as its distribution and its author run them (the
# venv's .pth files put the core, the adapters and the titles on mypy's path).
ROOT_TESTS_PATH := docs/tutorial/sealed-bid:docs/tutorial:docs/_ext:docs/reference/examples:tests/http:benchmarks/tictactoe:benchmarks
typecheck: $(STAMP)
	$(BIN)/mypy gameweave_core adapters/gameweave_cli adapters/gameweave_http adapters/gameweave_dask \
	  adapters/gameweave_rl \
	  $(patsubst %/__init__.py,%,$(wildcard $(addsuffix /gameweave_*/__init__.py,$(TITLE_DIRS))))
	MYPYPATH=$(ROOT_TESTS_PATH) $(BIN)/mypy --explicit-package-bases tests
	set -e; for d in $(TITLE_DIRS); do echo "== mypy $$d/tests"; \
	  (cd $$d && $(CURDIR)/$(BIN)/mypy --config-file $(CURDIR)/pyproject.toml tests); done

# The browser code (the client's pages and every title's web/*.js, plain ES modules
# with no build step) linted by ESLint and type-checked by TypeScript's checker
# (// @ts-check files, tools/js/tsconfig.json). Both are pinned by
# tools/js/package-lock.json and installed into tools/js/node_modules by `npm ci`,
# again only when the lock changes. They need Node 20.19 or newer and npm: without
# them CI (the CI variable set) fails here; elsewhere the check is skipped, saying so.
JS := tools/js
JSSTAMP := $(JS)/node_modules/.installed
NODE_OK := node -e 'const [a, b] = process.versions.node.split(".").map(Number); \
  process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'

jscheck:
	@if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && $(NODE_OK); then \
	  $(MAKE) --no-print-directory jscheck-run; \
	elif [ -n "$$CI" ]; then \
	  echo "jscheck: the browser code's checkers need Node 20.19 or newer and npm" \
	    "(found: $$(node --version 2>/dev/null || echo 'no node'); $$(npm --version 2>/dev/null || echo 'no npm'))." \
	    "Install them (https://nodejs.org/ or NodeSource's packages), then run make again." >&2; \
	  exit 1; \
	else \
	  echo "jscheck: skipped: Node 20.19+ and npm are not installed (CI fails here without them)"; \
	fi

$(JSSTAMP): $(JS)/package.json $(JS)/package-lock.json
	cd $(JS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(JSSTAMP)

jscheck-run: $(JSSTAMP)
	$(JS)/node_modules/.bin/eslint --config $(JS)/eslint.config.js --max-warnings 0
	$(JS)/node_modules/.bin/tsc -p $(JS)

## kit-deep: the conformance kit on every title, five times deeper (a nightly run)
# GAMEWEAVE_KIT_DEPTH multiplies every check's examples and the bot-played matches
# whose steps where hidden state moved are twinned (docs/reference/testing.md,
# "Going deeper"); KIT_DEPTH=10 goes further still.
KIT_DEPTH ?= 5
kit-deep: $(STAMP)
	GAMEWEAVE_KIT_DEPTH=$(KIT_DEPTH) $(BIN)/pytest -q -p no:cacheprovider tests/core/test_conformance_sealedbid.py
	set -e; for d in $(TITLE_DIRS); do echo "== $$d"; \
	  (cd $$d && GAMEWEAVE_KIT_DEPTH=$(KIT_DEPTH) $(CURDIR)/$(BIN)/pytest -q -p no:cacheprovider tests/test_conformance.py); done

# The core's and adapters' tests, then each title's own tests from its own folder
# (each distribution carries its tests, run with its own pytest settings).
unit: $(STAMP)
	$(BIN)/pytest
	set -e; for d in $(TITLE_DIRS); do echo "== $$d"; (cd $$d && $(CURDIR)/$(BIN)/pytest); done

# The browser tests drive Debian's Chromium; install it when it is missing.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html

# The tutorial title, installed with the project into a brand-new environment (not
# the dev one), must be listed by `gameweave games` and pass its own tests there.
TUTORIAL_VENV := build/tutorial-venv
tutorial:
	rm -rf $(TUTORIAL_VENV)
	$(PYTHON) -m venv $(TUTORIAL_VENV)
	$(TUTORIAL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
	  . './docs/tutorial/sealed-bid[test]'
	$(TUTORIAL_VENV)/bin/gameweave games --json \
	  | $(TUTORIAL_VENV)/bin/python docs/tutorial/check_listed.py sealedbid
	cd docs/tutorial/sealed-bid && $(CURDIR)/$(TUTORIAL_VENV)/bin/pytest -q -p no:cacheprovider

# `gameweave new` as an author meets it: the project installed into a brand-new
# environment, a title made with it, installed there, listed, and its tests passing.
SCAFFOLD_VENV := build/scaffold-venv
SCAFFOLD := build/scaffold/demo
scaffold:
	rm -rf $(SCAFFOLD_VENV) $(SCAFFOLD)
	$(PYTHON) -m venv $(SCAFFOLD_VENV)
	$(SCAFFOLD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check '.[test]'
	$(SCAFFOLD_VENV)/bin/gameweave new demo $(SCAFFOLD)
	$(SCAFFOLD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check './$(SCAFFOLD)[test]'
	$(SCAFFOLD_VENV)/bin/gameweave games --json \
	  | $(SCAFFOLD_VENV)/bin/python docs/tutorial/check_listed.py demo
	cd $(SCAFFOLD) && $(CURDIR)/$(SCAFFOLD_VENV)/bin/pytest -q -p no:cacheprovider

# The distributions as users get them: wheels built from each folder and installed
# into fresh environments as core only, core and one title, and everything.
dists: $(STAMP)
	$(BIN)/python tests/dists/check_dists.py $(TITLE_DIRS)

# The opt-in compiled build (see tools/mypyc_build.py): the core's hot path and The
# House Job's rules compiled with mypyc into wheels, installed in their own
# environment. The dev environment above stays pure Python, so an edit of the rules
# is what the unit tests run.
CVENV := .venv-compiled
CBIN := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
CBUILT := $(CVENV)/.compiled

# The environment: the build tools, the test tools and the project's dependencies
# (mypyc type-checks the compiled modules against them), and every title, so that the
# benchmarks measure the compiled core under each of them (`run.py overhead`).
$(CSTAMP): pyproject.toml setup.py $(TITLE_PROJECTS) $(HOUSE)/setup.py tools/mypyc_build.py
	rm -rf $(CVENV)
	$(PYTHON) -m venv $(CVENV)
	$(CBIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77' wheel \
	  'mypy>=1.10' pytest hypothesis
	$(CBIN)/python -m pip install --quiet --no-build-isolation '.[http]' $(addprefix ./,$(TITLE_DIRS))
	touch $(CSTAMP)

# Any source change rebuilds the two compiled wheels.
CSOURCES := $(shell find gameweave_core $(HOUSE)/gameweave_house adapters tools -type f \
  -not -path '*/__pycache__/*' 2>/dev/null)
$(CBUILT): $(CSTAMP) $(CSOURCES)
	rm -rf build/compiled $(HOUSE)/build/compiled
	GAMEWEAVE_COMPILE=1 $(CBIN)/python -m pip install --quiet --no-build-isolation \
	  --no-deps --force-reinstall . ./$(HOUSE)
	touch $(CBUILT)

## compiled: .venv-compiled with The House Job's rules compiled by mypyc
compiled: $(CBUILT)

## test-compiled: the House Job and core tests (golden logs included) against the compiled build
# (the pytest script, not `python -m pytest`: that puts the sources first on sys.path)
test-compiled: $(CBUILT)
	GAMEWEAVE_EXPECT_COMPILED=1 $(CBIN)/pytest -q -p no:cacheprovider tests/core
	cd $(HOUSE) && GAMEWEAVE_EXPECT_COMPILED=1 $(CURDIR)/$(CBIN)/pytest -q -p no:cacheprovider

# Benchmarks against OpenSpiel, RLCard, boardgame.io and a bare Starlette endpoint; writes
# benchmarks/results.md. The peers live in their own venv, never in the project's.
bench: $(STAMP) bench-peers bench-bgio compiled
	$(BIN)/python -m pip install --quiet -r benchmarks/requirements.txt
	$(BIN)/python benchmarks/run.py

bench-peers: $(STAMP)
	$(BIN)/python benchmarks/peers.py

# boardgame.io 0.50.2 and its socket.io client, pinned by benchmarks/bgio/package-lock.json,
# into benchmarks/bgio/node_modules (the versus benchmark). Without Node it says so, and
# `make bench` goes on: the versus section then reports what is missing.
bench-bgio:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  cd benchmarks/bgio && { [ node_modules/.package-lock.json -nt package-lock.json ] \
	    || npm ci --no-audit --no-fund --loglevel=error; }; \
	else echo "bench-bgio: node and npm are not installed; the boardgame.io comparison will not run"; fi

serve: $(STAMP)
	$(BIN)/gameweave serve

# The server's tests below ASGI (gameweave_http.protocol's seam into uvicorn) with
# the oldest and the newest uvicorn of the range pyproject.toml accepts
# (protocol.UVICORN_TESTED), each installed alone into build/uvicorn-VERSION and put
# first on the path; run it before widening the range.
UVICORN_ENDS = $(shell $(BIN)/python -c "from gameweave_http.protocol import UVICORN_TESTED as t; print(*t)" 2>/dev/null)
check-uvicorn: $(STAMP)
	set -e; for v in $(UVICORN_ENDS); do echo "== uvicorn $$v"; \
	  [ -d build/uvicorn-$$v ] || $(BIN)/python -m pip install --quiet --no-deps \
	    --target build/uvicorn-$$v "uvicorn==$$v"; \
	  PYTHONPATH=$(CURDIR)/build/uvicorn-$$v $(BIN)/pytest -q -p no:cacheprovider \
	    tests/http/test_http_protocol.py tests/http/test_http_strict.py tests/http/test_http_limits.py \
	    tests/http/test_http_socket.py; \
	done

clean:
	rm -rf $(VENV) $(CVENV) $(JS)/node_modules docs/_build docs/_generated build *.egg-info benchmarks/.venv-peers \
	  $(addsuffix /build,$(TITLE_DIRS))
