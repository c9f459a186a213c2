# Tonk Ledger: `make run` serves the app on SQLite under instance/, `make test` runs every test.
# Needs only python3 (with venv) and make; everything else is installed into .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.run-stamp
TRANSLATIONS := ledger/translations
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: translations translations-compile run test test-setup lint demo bench bench-settlement bench-engine bench-pdf bench-growth bench-http bench-pdf-http clean

# what running needs (make run, make demo): the app's own dependencies, with pip's progress shown
$(RUN_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Tonk Ledger needs Python 3.11 or newer; run 'make PYTHON=python3.11 run'."; exit 1; }
	@echo "Setting up .venv with what the app needs (the first time takes a minute)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade --progress-bar on pip
	$(BIN)/python -m pip install --progress-bar on -e .
	$(BIN)/pybabel compile -d $(TRANSLATIONS) --statistics
	touch $(RUN_STAMP)

# everything, test packages included (make test)
$(STAMP): $(RUN_STAMP)
	@echo "Adding the test packages (pytest, Playwright, ...) to .venv..."
	$(BIN)/python -m pip install --progress-bar on -e '.[test]'
	touch $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/tonk-ledger serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# the import layers declared in pyproject.toml ([tool.importlinter]); CI fails when one breaks
lint: $(STAMP)
	$(BIN)/lint-imports

# only the installing part of `make test` (CI runs it once before two test passes side by side)
test-setup: $(STAMP)

demo: $(RUN_STAMP)
	$(BIN)/tonk-ledger demo --base-url http://127.0.0.1:$(PORT)

# benchmarks, run by hand (figures only, nothing asserted); `make bench-http DATABASE=postgresql+psycopg://… WORKERS=2`
bench: bench-engine bench-settlement bench-pdf bench-growth bench-http bench-pdf-http

bench-settlement: $(STAMP)
	$(BIN)/python bench/bench_settlement.py

bench-pdf: $(STAMP)
	$(BIN)/python bench/bench_pdf.py

bench-engine: $(STAMP)
	$(BIN)/python bench/bench_engine.py

bench-growth: $(STAMP)
	$(BIN)/python bench/bench_growth.py

bench-http: $(STAMP)
	$(BIN)/python bench/bench_http.py $(if $(DATABASE),--database $(DATABASE)) $(if $(WORKERS),--workers $(WORKERS))

bench-pdf-http: $(STAMP)
	$(BIN)/python bench/bench_http.py --pdf $(if $(DATABASE),--database $(DATABASE)) $(if $(WORKERS),--workers $(WORKERS))

# the catalogues: extract every marked sentence into the template, merge it into each language's
# .po (new sentences arrive untranslated, tests/test_catalogues.py fails until they are written),
# and compile the .mo files (never committed; the app also compiles a stale .po in memory at start)
translations: $(RUN_STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k pgettext:1c,2 --no-location --sort-output \
		--project "Tonk Ledger" --copyright-holder "Tonk Ledger" -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel -q update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -d $(TRANSLATIONS) --statistics

translations-compile: $(RUN_STAMP)
	$(BIN)/pybabel compile -d $(TRANSLATIONS) --statistics

clean:
	rm -rf $(VENV) .pytest_cache
