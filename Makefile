# Two set-up commands (see README): `make run` and `make test`. Both create .venv themselves.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint bench i18n format clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/python -m tabletop

test: $(STAMP_DEV)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine
	$(BIN)/hadolint Dockerfile

bench: $(STAMP_DEV)
	@$(BIN)/python -m bench

i18n: $(STAMP_DEV)
	$(BIN)/pybabel extract -F babel.cfg -k t -k N_ -k plural:1,2 -k T -o bot/locales/messages.pot .
	$(BIN)/pybabel update -i bot/locales/messages.pot -d bot/locales -D messages --no-fuzzy-matching

format: $(STAMP_DEV)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
