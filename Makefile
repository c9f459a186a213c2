# Tonk Ledger: `make run` serves the app on SQLite under instance/, `make test` runs every test.
# Needs only python3 (with venv) and make; everything else is installed into .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tonk-ledger serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/tonk-ledger demo --base-url http://127.0.0.1:$(PORT)

bench: $(STAMP)
	$(BIN)/python bench/bench_settlement.py
	$(BIN)/python bench/bench_pdf.py

clean:
	rm -rf $(VENV) .pytest_cache
