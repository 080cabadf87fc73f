"""Real Chromium (Debian's package) driven by Playwright against a real server (the
helpers, and why phones open it at a LAN name: tests/support/browser.py)."""
from __future__ import annotations

import os

import pytest

from tests.support.app import own_database
from tests.support.browser import ARGS, CHROMIUM, served_in_production, serve_on_the_lan


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"No Chromium at {CHROMIUM}: install Debian's chromium package, or set "
                    "COMPANION_CHROMIUM to a Chromium or Chrome executable. The browser "
                    "tests are never skipped.", pytrace=False)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(app):
    """The app served as phones on the table's Wi-Fi reach it, its join links included."""
    server = serve_on_the_lan(app)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    """The app as `make run` serves it (gunicorn, gevent workers), on a database of its
    own that test code reaches too, at the table's LAN name: for the tests of live
    updates, reconnection and phones over HTTP, which Werkzeug's threaded server would
    not hold to production's concurrency. One per module: a start takes a while."""
    folder = tmp_path_factory.mktemp("production")
    with own_database(folder) as url, served_in_production(url, folder) as server:
        yield server


@pytest.fixture(scope="module")
def unlimited_production_server(tmp_path_factory):
    """The production server with its rate limits lifted, for a module that makes tables
    faster than one address may (it says why)."""
    folder = tmp_path_factory.mktemp("production")
    with own_database(folder) as url, served_in_production(url, folder, limits=False) as server:
        yield server


@pytest.fixture
def new_phone(browser):
    contexts = []

    def open_phone(width: int = 360, height: int = 740):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=True)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
