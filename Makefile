# Each target bootstraps .venv itself; only python3 and make are needed.
SHELL  := /bin/bash
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.stamp

# Deterministic runs for tests and the book build.
# MPLBACKEND is deliberately NOT exported: ipykernel only selects its inline backend
# when MPLBACKEND is unset, and with MPLBACKEND=Agg figures silently vanish from
# notebook outputs (nbval strict then fails with "Missing output fields").
# Plain Python (unit tests) gets Agg from ./matplotlibrc instead.
unexport MPLBACKEND
export PYTHONHASHSEED := 0
export JUPYTER_PLATFORM_DIRS := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Quiet progress bars, so stored notebook outputs stay stable.
export STUMPLIB_PROGRESS := 0

.PHONY: venv test book notebooks clean distclean

venv: $(STAMP)

# Re-installs only when pyproject.toml or constraints.txt change.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# Unit/property tests under tests/ plus nbval (strict) over book/*.ipynb.
test: venv
	$(PY) -m pytest --cov=stumplib --cov-report=term

# Re-execute every chapter notebook in place, storing the outputs nbval compares.
notebooks: venv
	$(VENV)/bin/jupyter execute --inplace --timeout=600 book/[0-9]*.ipynb

book: venv
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	@echo "Book: $(abspath _build/html/index.html)"

clean:
	rm -rf _build .pytest_cache .hypothesis .jupyter_cache .coverage *.egg-info
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 | xargs -0 rm -rf

distclean: clean
	rm -rf $(VENV)
