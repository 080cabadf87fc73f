"""The trust suite's counts (games played, responses checked, kills survived, inputs
tried), printed at the end of the run. Tests run on several worker processes
(pytest-xdist): each worker sends its counts to the process that prints them.

A test that counts says what with `@pytest.mark.counts(kind=least, ...)`: it fails unless
it added at least `least` to each such count, so a check that stopped checking (a guard
that reads nothing, a loop that ends at once) is a failure, not a pass."""
from __future__ import annotations

from collections import Counter

import pytest

COUNTS: Counter[str] = Counter()
LABELS = (
    ("games_played", "games played to the end"),
    ("moves_made", "moves made through the API"),
    ("responses_checked", "responses checked for secrets"),
    ("conflicting_posts", "conflicting posts raced"),
    ("kills_survived", "SIGKILLs survived"),
    ("inputs_tried", "hostile inputs tried"),
    ("schemathesis_cases", "schemathesis cases"),
    ("pages_checked", "pages checked for inert names and CSP"),
)


def pytest_configure(config):
    config.addinivalue_line("markers", "counts(kind=least, ...): the trust suite's counts the "
                                       "test must add to, at least `least` to each")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    marker = item.get_closest_marker("counts")
    before = Counter(COUNTS)
    result = yield
    if marker is not None:
        known = dict(LABELS)
        short = {}
        for kind, least in marker.kwargs.items():
            assert kind in known, f"no such count: {kind}"
            if COUNTS[kind] - before[kind] < least:
                short[known[kind]] = f"{COUNTS[kind] - before[kind]}, not at least {least}"
        assert not short, f"the test checked too little: {short}"
    return result


def pytest_sessionfinish(session):
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:  # a worker: its counts go to the controlling process
        worker_output["trust_counts"] = dict(COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    COUNTS.update(getattr(node, "workeroutput", {}).get("trust_counts", {}))


def pytest_terminal_summary(terminalreporter):
    if not COUNTS or hasattr(terminalreporter.config, "workeroutput"):
        return
    terminalreporter.write_sep("-", "trust suite")
    for key, label in LABELS:
        if key in COUNTS:
            terminalreporter.write_line(f"{label}: {COUNTS[key]}")
