# Companion: `make run` installs the server and starts it, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The tests run on this many processes (pytest-xdist), each taking the next test as it is free:
# one more than a machine of two cores has, as a test waiting on a server, a browser or a
# timeout leaves its core idle (docs/developers.md).
TEST_WORKERS ?= 3

.PHONY: install install-test lock catalogs messages run test test-fast browser-deps clean

# What the server needs, and no more, and the translations' catalogs compiled. The result's
# picture is drawn in DejaVu Sans, a pinned npm package (package-lock.json), like htmx.
install: $(VENV)/.installed static/vendor/.installed static/vendor/app.js catalogs

# And what the tests need: pytest and its helpers, Playwright, axe-core, Lighthouse.
install-test: install $(VENV)/.installed-test node_modules/.installed-test

# Exactly the versions in the locks (requirements/*.txt, each file's hash checked), then
# Companion itself; pyproject.toml keeps only lower bounds, for installing it as a package.
$(VENV)/.installed: pyproject.toml requirements/server.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements/server.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed requirements/test.txt
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements/test.txt
	touch $@

# Upgrading: every package to its newest release within pyproject.toml's bounds, the
# locks rewritten (then `make test`, and commit the locks with what their change needed).
LOCK := CUSTOM_COMPILE_COMMAND="make lock" .venv-lock/bin/pip-compile --quiet --upgrade \
	--generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
lock:
	test -x .venv-lock/bin/pip-compile || { $(PYTHON) -m venv .venv-lock && .venv-lock/bin/pip install --quiet pip-tools; }
	$(LOCK) -o requirements/server.txt pyproject.toml
	$(LOCK) --extra test -c requirements/server.txt -o requirements/test.txt pyproject.toml

static/vendor/.installed: package.json package-lock.json
	npm ci --omit=dev --no-audit --no-fund --loglevel=error
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
	cp node_modules/htmx-ext-sse/dist/sse.min.js static/vendor/sse.js
	cp node_modules/idiomorph/dist/idiomorph-ext.min.js static/vendor/idiomorph-ext.js
	mkdir -p static/vendor/fonts
	cp node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf \
	   node_modules/dejavu-fonts-ttf/LICENSE static/vendor/fonts/
	touch $@

# The page's script as phones load it: static/app.js without its comments and with short
# local names (terser, pinned like htmx), made again whenever static/app.js changes.
static/vendor/app.js: static/app.js static/vendor/.installed
	node node_modules/terser/bin/terser static/app.js --compress --mangle --output $@

node_modules/.installed-test: static/vendor/.installed
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Each translations/<language>/LC_MESSAGES/messages.po compiled to its .mo (build output); a
# catalog that cannot be used stops here, naming its file and line (companion/catalogs.py).
catalogs: $(VENV)/.installed
	$(BIN)/python -m companion.catalogs

# Every message of the code and templates, in translations/messages.pot (docs/translating.md).
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

# The linter first (its rules in pyproject.toml), then every test.
test: install-test browser-deps
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal

test-fast: install-test
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal -m "not browser"

clean:
	rm -rf $(VENV) .venv-lock node_modules static/vendor
