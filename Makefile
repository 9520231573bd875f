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

.PHONY: venv lint unit quick test coverage book check-book chromium pdf texlive colab-cells notebooks portability seeds full-corpus headline certified-law past-far-data shapes-data frozen-levels clean distclean

venv: $(STAMP)

# Re-installs only when pyproject.toml or constraints.txt change.
# The pins of constraints.txt are for Python 3.11 and newer (numpy 2.4 needs 3.11).
PYTHON_MIN := 3.11

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "stumplib needs Python $(PYTHON_MIN) or newer; $(PYTHON) is" \
	    "$$(command -v $(PYTHON) >/dev/null && $(PYTHON) --version 2>&1 || echo "not found"). Run: make PYTHON=python3.11 ..." >&2; \
	  exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# One style (pyproject.toml [tool.ruff]): lint and formatting of the code and notebooks.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The library tests alone (unit, property, reference values, doctests), over the cores.
unit: venv
	$(PY) -m pytest -n auto

# The edit loop: the library tests not marked slow (tests/conftest.py), no doctests.
quick: venv
	$(PY) -m pytest -n auto -m "not slow" tests

# The GitHub workflows (actionlint), the style (lint), the library tests, then nbval
# (strict) over book/*.ipynb against the stored outputs, in this machine's
# floating-point environment and, in parallel, under the first of the portability
# check's (tools/notebooks.py; make notebooks and make portability run all three).
test: venv lint
	$(VENV)/bin/actionlint
	$(PY) -m pytest -n auto
	$(PY) tools/notebooks.py validate

# The library tests again under coverage (a report; tracing makes them 1.6 times slower
# on Python 3.11, so make test runs them without it and CI runs this on its own).
coverage: venv
	$(PY) -m pytest -n auto --cov=stumplib --cov-report=term

# Re-execute every chapter notebook in place (or NB=book/NN-x.ipynb), storing the
# outputs nbval compares without volatile metadata, then run the portability check on
# what was stored, under three other floating-point environments (kernel, threads, SIMD;
# CONTRIBUTING lists them): it names every cell whose output would not reproduce.
notebooks: venv
	$(PY) tools/notebooks.py store $(NB)

# The re-draw sweep (not run by CI): every seeded chapter (or NB=...) re-executed under
# SEEDS other seed offsets (STUMPLIB_SEED_OFFSET=1..SEEDS), JOBS at a time, failing checks
# recorded instead of raised; writes stumplib/book/data/seeds.json (the committed results
# live in stumplib/book/data/) and tools/seeds-report.md.
SEEDS ?= 10
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
seeds: venv
	$(PY) tools/seeds.py --offsets $(SEEDS) --jobs $(JOBS) $(NB)

# Full-scale frozen-rate data (not run by CI): sparse corpora frozen by the corpus rule
# at a certified step (q <= 2/9) at sizes up to 10^5, appended to
# stumplib/book/data/frozen-rate-certified.json with q_max, rho_max, command, commit and
# date as each run ends. A run in progress checkpoints every EVERY seconds (.cache/
# full-corpus) and the next call resumes it bit-identically; HOURS=h stops the target
# h hours in (a run saves its state at its next checkpoint and stops). FULL_JOBS=2 runs
# two at once, one BLAS thread each (about 2 GB at 32000, 7 GB at 10^5).
HOURS ?= inf
FULL_JOBS ?= 1
EVERY ?= 300
full-corpus: venv
	OPENBLAS_NUM_THREADS=1 $(PY) tools/full_corpus.py --hours $(HOURS) --jobs $(FULL_JOBS) \
	  --every $(EVERY)

# The certified headline ladder (not run by CI; hours of one core): the level l* = 1/4
# and its checks declared in stumplib/book/data/frozen-headline.json before any run,
# m = n = 320, 1000, 3200 (16 corpora each), 10^4, 32000, 10^5 (8 each), from a start
# 4 times below the size-tied one; checkpoints are committed with the data
# (stumplib/book/data/checkpoints/headline), so a fresh clone resumes the runs in
# progress bit-identically. HOURS, FULL_JOBS and EVERY as for full-corpus.
headline: venv
	OPENBLAS_NUM_THREADS=1 $(PY) tools/full_corpus.py --plan headline --hours $(HOURS) \
	  --jobs $(FULL_JOBS) --every $(EVERY)

# Chapter 5's certified-interval law (not run by CI; about 40 min on one core): corpora
# with m = n = 100..1600 (8 a size) and 3200 (4) run from b0 = 2.5 with a third of the
# lemma's step re-set at each record until their first uncertified record (stop b = m/4),
# written to stumplib/book/data/certified-law.json size by size; chapter 5 reads it and
# re-runs the first corpora of m = n = 200 live.
certified-law: venv
	OPENBLAS_NUM_THREADS=1 $(PY) tools/certified_law.py --sizes 100 200 400 800 1600
	OPENBLAS_NUM_THREADS=1 $(PY) tools/certified_law.py --sizes 3200 --corpora 4

# Data of appendices H and I (not run by CI; minutes each, one process): small corpora
# trained at the certified constant step through the freeze and on
# (stumplib/book/data/past-far.json), and certified freezes over a grid of shapes m/n
# at m ∧ n = 64, 128, 256 and 512 (stumplib/book/data/shapes.json, appended one m ∧ n
# at a time, sizes it holds skipped; about 15 min on one free core); each file carries
# its command, commit and date, and its page replays a subset live
# (tools/appendix_data.py).
past-far-data: venv
	OPENBLAS_NUM_THREADS=1 STUMPLIB_WORKERS=1 $(PY) tools/appendix_data.py past

shapes-data: venv
	OPENBLAS_NUM_THREADS=1 STUMPLIB_WORKERS=1 $(PY) tools/appendix_data.py shapes

# Chapter 6's sweep of freeze levels (not run by CI): infinite-context corpora at
# l = 1/2 for m = 400..102400 (the frozen scale's law) and at l = 1/2, 1/3, 1/4, 1/8 for
# m = 6400, and certified m = n runs at l = 1/3, 1/4 and 1/8, appended to
# stumplib/book/data/frozen-levels.json as each ends (tools/frozen_levels.py; a later
# call skips the runs the file holds; HOURS=h stops it).
frozen-levels: venv
	OPENBLAS_NUM_THREADS=1 $(PY) tools/frozen_levels.py --hours $(HOURS)

# The portability check alone, on the stored outputs (all three environments).
portability: venv
	$(PY) tools/notebooks.py check $(NB)

# Executed notebooks are cached (jupyter-cache, keyed by each notebook's code): an
# unchanged tree rebuilds without executing anything, and an edited notebook alone
# re-executes. book/_ext/library_dependencies.py re-executes a notebook when the
# stumplib modules it imports change. A change to the book's own Sphinx extensions
# drops the parsed pages (not the executions), so every page is rendered again.
EXT_HASH = $(shell cat $$(find book/_ext -name '*.py' | LC_ALL=C sort) | sha256sum | cut -c1-16)
# The pages load MathJax from the book itself (book/_ext/publishing.py copies this npm copy
# into _build/html/_static/mathjax), so they read with no network.
MATHJAX := .cache/mathjax/node_modules/mathjax/es5/tex-mml-chtml.js

define drop-stale-doctrees
@if [ "$$(cat _build/.ext-hash 2>/dev/null)" != "$(EXT_HASH)" ]; then rm -rf _build/.doctrees; fi
endef

book: venv $(MATHJAX)
	$(drop-stale-doctrees)
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	@echo $(EXT_HASH) > _build/.ext-hash
	@echo "Book: $(abspath _build/html/index.html)"

# Open every built page in headless Chromium (tests/browser), with every network request
# refused; screenshots go to _build/screenshots. Installs Chromium (Debian package) if missing.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_INSTALL = $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends

check-book: book chromium
	$(PY) -m pytest -o addopts="-p no:cacheprovider" tests/browser -v

chromium:
	@command -v chromium >/dev/null || { $(APT_INSTALL) chromium >/dev/null; }

# The whole book as one PDF through LaTeX (XeLaTeX; _build/latex/stumplib-book.pdf), then
# its test (tests/pdf). Installs Debian's TeX Live, FreeFont, xindy and poppler-utils if
# missing. Run before `make book`, which then links the PDF from every page and publishes
# it with the HTML.
PDF     := _build/latex/stumplib-book.pdf
TEXLIVE := texlive-xetex texlive-latex-recommended texlive-latex-extra \
	texlive-fonts-recommended tex-gyre fonts-freefont-otf xindy latexmk poppler-utils

pdf: venv texlive
	rm -f $(PDF)
	$(drop-stale-doctrees)
	LATEXOPTS="-interaction=nonstopmode -halt-on-error" \
	  $(VENV)/bin/jupyter-book build . --builder pdflatex -W -n --keep-going
	@echo $(EXT_HASH) > _build/.ext-hash
	$(PY) -m pytest -o addopts="-p no:cacheprovider" tests/pdf -v

texlive:
	@command -v xelatex >/dev/null && command -v xindy >/dev/null && command -v latexmk >/dev/null && \
	  command -v pdftoppm >/dev/null && fc-list 2>/dev/null | grep -q FreeSerif || \
	  { $(APT_INSTALL) $(TEXLIVE) >/dev/null; }

# The first cell of every chapter installs stumplib from REPOSITORY_URL when it is missing
# (on Colab); removed from the rendered book. Idempotent: re-run after editing notebooks.
colab-cells: venv
	$(PY) tools/colab_cell.py --repository "$(REPOSITORY_URL)" book/*.ipynb

$(MATHJAX):
	npm install --silent --no-save --no-audit --no-fund --prefix .cache/mathjax mathjax@3.2.2

clean:
	rm -rf _build .pytest_cache .hypothesis .jupyter_cache .coverage *.egg-info .cache
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 | xargs -0 rm -rf

distclean: clean
	rm -rf $(VENV)
