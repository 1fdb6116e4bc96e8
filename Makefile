# Two entry points for a fresh machine: `make study` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup study test test-fast bench docs figures notebooks clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test,docs,rl,peers]"
	touch $(STAMP)

# Default study: every Barbu trick contract, 4 players, 52 cards, one million deals.
study: $(STAMP)
	$(BIN)/cardlab simulate barbu --contract all --players 4 --deck 52 --deals 1000000 --seed 7 --out runs/study.parquet --overwrite
	$(BIN)/cardlab report runs/study.parquet --plot runs/study.png

# Every test (what CI runs). test-fast leaves out the tests marked slow: under three minutes once
# the kernels are compiled. The tests run in TEST_WORKERS processes (pytest-xdist), a test file to a
# process: a cold run spends most of its time compiling kernels, one core each; every worker takes
# about 2.5 GB, so more than a few workers only costs memory. The kernels are compiled first, a game
# to a process (cardlab.sim.warm), so that no two test processes compile the same kernel at once. The
# 25 slowest tests are listed at the end, to show where a cold run spends its time.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/python -m cardlab.sim.warm --processes $(TEST_WORKERS)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --durations 25

test-fast: $(STAMP)
	$(BIN)/python -m cardlab.sim.warm --processes $(TEST_WORKERS)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_barbu.py --memory

# The documentation site (MkDocs): docs/ and mkdocs.yml into site/; the options and columns tables
# are generated from each game's metadata while building (docs/hooks.py), and the notebooks are executed
# at the notebook tests' size (a few minutes), so the site shows their outputs.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 CARDLAB_DOCS_EXECUTE=true CARDLAB_NOTEBOOK_DEALS=7000 $(BIN)/mkdocs build --strict

# Every figure the docs show (docs/figures/*.png, committed): small runs of each game, drawn afresh by
# docs/figures.py, so no figure goes stale; a minute or two once the kernels are compiled.
figures: $(STAMP)
	$(BIN)/python docs/figures.py

# The walkthroughs in notebooks/, in JupyterLab (installs the notebook extra into .venv first).
notebooks: $(STAMP)
	$(BIN)/pip install --quiet -e ".[notebook]"
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) runs site .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
