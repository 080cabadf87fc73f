# Companion: `make run` starts the app, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: install run test test-fast browser-deps clean

install: $(VENV)/.installed static/vendor/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

static/vendor/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
	cp node_modules/htmx-ext-sse/dist/sse.min.js static/vendor/sse.js
	cp node_modules/idiomorph/dist/idiomorph-ext.min.js static/vendor/idiomorph-ext.js
	touch $@

run: install
	$(BIN)/flask --app wsgi db upgrade
	PORT=$(PORT) $(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

# Debian's Chromium for the browser tests (Playwright cannot download a browser here).
browser-deps:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Install Debian's chromium package (sudo apt-get install chromium)"; exit 1; fi; }

test: install browser-deps
	$(BIN)/pytest -q

test-fast: install
	$(BIN)/pytest -q -m "not browser"

clean:
	rm -rf $(VENV) node_modules static/vendor
