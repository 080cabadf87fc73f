# Companion: `make run` installs the server and starts it, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The tests run on this many processes (pytest-xdist), each taking the next test as it is free.
TEST_WORKERS ?= 2

.PHONY: install install-test catalogs messages run test test-fast browser-deps clean

# What the server needs, and no more, and the translations' catalogs compiled.
install: $(VENV)/.installed static/vendor/.installed catalogs

# And what the tests need: pytest and its helpers, Playwright, axe-core, Lighthouse.
install-test: install $(VENV)/.installed-test node_modules/.installed-test

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

static/vendor/.installed: package.json package-lock.json
	npm ci --omit=dev --no-audit --no-fund --loglevel=error
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
	cp node_modules/htmx-ext-sse/dist/sse.min.js static/vendor/sse.js
	cp node_modules/idiomorph/dist/idiomorph-ext.min.js static/vendor/idiomorph-ext.js
	touch $@

node_modules/.installed-test: static/vendor/.installed
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Each translations/<language>/LC_MESSAGES/messages.po compiled to its .mo (build output); a
# catalog that cannot be used stops here, naming its file and line (companion/catalogs.py).
catalogs: $(VENV)/.installed
	$(BIN)/python -m companion.catalogs

# Every message of the code and templates, in translations/messages.pot (README, "Languages").
messages: $(VENV)/.installed
	$(BIN)/python -m companion.catalogs extract translations/messages.pot

# gunicorn.conf.py upgrades the database once before its workers start.
run: install
	PORT=$(PORT) $(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

# The browser tests drive a real Chromium: COMPANION_CHROMIUM names one, else Debian's
# package is used (and installed when running as root). They are never skipped.
browser-deps:
	@if [ -n "$$COMPANION_CHROMIUM" ]; then \
	  test -x "$$COMPANION_CHROMIUM" || { echo "COMPANION_CHROMIUM=$$COMPANION_CHROMIUM is not an executable Chromium."; exit 1; }; \
	elif ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then :; \
	  else \
	    echo "The browser tests need Chromium, and it could not be installed here."; \
	    echo "Install Debian's chromium package (sudo apt-get install chromium), or point"; \
	    echo "COMPANION_CHROMIUM at a Chromium or Chrome executable:"; \
	    echo "    make test COMPANION_CHROMIUM=/path/to/chromium"; \
	    exit 1; \
	  fi; \
	fi

test: install-test browser-deps
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal

test-fast: install-test
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal -m "not browser"

clean:
	rm -rf $(VENV) node_modules static/vendor
