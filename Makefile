# Two commands do all set-up: `make run` and `make test`. Both create their venvs from nothing.
#
# `make run` needs one Python 3.11+. `make test` runs the suite under the oldest and the newest
# Python gmscreen supports, 3.11 (.venv, which also runs lint, types and the benchmarks) and
# 3.13 (.venv-3.13): each is python3.11 / python3.13 on PATH, else pyenv's, else name it
# (make test PY313=/opt/python3.13/bin/python3).

# The first interpreter that runs: python$(1) on PATH (a pyenv shim answers only for the
# versions pyenv has selected), then each of pyenv's $(1).x.
PYENV_ROOT ?= $(HOME)/.pyenv
find_python = $(firstword $(foreach p,python$(1) $(wildcard $(PYENV_ROOT)/versions/$(1).*/bin/python$(1)),$(if $(shell $(p) -c '' 2>/dev/null && echo yes),$(p))))
PY311 ?= $(call find_python,3.11)
PY313 ?= $(call find_python,3.13)
PYTHON ?= $(or $(PY311),python3)

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
VENV313 := .venv-3.13
TEST_STAMP313 := $(VENV313)/.installed-test

# pytest-xdist: two workers (this machine has two cores); -p no:cacheprovider writes no cache
PYTEST_ARGS ?= -q -p no:cacheprovider -n 2

.PHONY: run test pythons lint typecheck pytest pytest-3.13 screenshots bench dist clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit("gmscreen needs Python 3.11+, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $@

$(VENV313)/bin/python:
	$(PY313) -m venv $(VENV313)
	$(VENV313)/bin/python -m pip install --quiet --upgrade pip

$(TEST_STAMP313): pyproject.toml | $(VENV313)/bin/python
	$(VENV313)/bin/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(STAMP)
	$(BIN)/gmscreen --demo

# Both Pythons, before anything is installed: a missing one is named, and nothing runs.
pythons:
	@test -n "$(PY311)" || { echo "make test: Python 3.11 not found (python3.11 on PATH, pyenv's, or make test PY311=...)"; exit 1; }
	@test -n "$(PY313)" || { echo "make test: Python 3.13 not found (python3.13 on PATH, pyenv's, or make test PY313=...)"; exit 1; }
	@$(PY311) -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' || { echo "make test: PY311=$(PY311) is not Python 3.11"; exit 1; }
	@$(PY313) -c 'import sys; assert sys.version_info[:2] == (3, 13), sys.version' || { echo "make test: PY313=$(PY313) is not Python 3.13"; exit 1; }
	@test ! -x $(BIN)/python || $(BIN)/python -c 'import sys; assert sys.version_info[:2] == (3, 11)' || { echo "make test: $(VENV) is not Python 3.11: make clean, then make test"; exit 1; }
	@echo "Python 3.11: $(PY311); Python 3.13: $(PY313)"

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/lint-imports --no-cache

# mypy --strict as Linux (src, tests, benchmarks: pyproject's files), then src and tests as
# Windows and macOS see them, so a call one of them lacks (os.geteuid, signal.SIGKILL, os.fork
# outside a sys.platform check) fails here before any runner sees it. Each system has its own
# cache folder: one shared would be thrown away by each run for the next system.
typecheck: $(TEST_STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --platform win32 --cache-dir .mypy_cache/win32 src/gmscreen tests
	$(BIN)/mypy --platform darwin --cache-dir .mypy_cache/darwin src/gmscreen tests

pytest: $(TEST_STAMP)
	@$(BIN)/python -c 'import sys; print("== pytest under Python", sys.version.split()[0])'
	$(BIN)/python -m pytest $(PYTEST_ARGS)

pytest-3.13: $(TEST_STAMP313)
	@$(VENV313)/bin/python -c 'import sys; print("== pytest under Python", sys.version.split()[0])'
	$(VENV313)/bin/python -m pytest $(PYTEST_ARGS) --snapshot-report snapshot_report-3.13.html

# lint and types once (3.11), the suite under each Python, then the packages a GM installs, in
# that order: the first failure stops
test: pythons
	$(MAKE) --no-print-directory lint typecheck pytest pytest-3.13 dist

screenshots: $(STAMP)
	$(BIN)/python -m gmscreen.tui.screenshots screenshots

bench: $(TEST_STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# The wheel and the sdist into dist/, built as pipx, uv or a packager would (an isolated
# environment with the build-system's hatchling), then checked: twine reads their metadata and
# README as an index would, and the wheel must carry the licence text.
dist: $(TEST_STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
	$(BIN)/python -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); \
	  sys.exit(None if any(n.endswith(".dist-info/licenses/LICENSE") for n in names) else "the wheel has no LICENSE")' dist/*.whl
	@ls -l dist

clean:
	rm -rf $(VENV) $(VENV313) build dist .mypy_cache .ruff_cache .pytest_cache
