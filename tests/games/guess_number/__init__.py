"""Guess the Number: a tiny game for the tests only, built as docs/developers.md's "Adding a game"
says, so the contract test and the trust suite show they pick up a new game by themselves.
The test suite registers it through COMPANION_EXTRA_GAMES (tests/conftest.py)."""
from .engine import GuessNumber
from .models import Options

__all__ = ["GuessNumber", "Options"]
