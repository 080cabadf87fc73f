"""The game registry: game id -> engine, the one way to find a game. A game is one line in
`BUILT_IN`.

COMPANION_EXTRA_GAMES may name more engines, as "package.module:ClassName" separated by
commas, registered after the built-in ones: the test suite registers its own test-only game
this way, in its process and in the servers it starts. Such a game keeps its templates and
CSS in its own package (see `Game.files`).
"""
from __future__ import annotations

import importlib
import os
from typing import Any

from .big_money import BigMoney
from .big_top import BigTop
from .engine import Game
from .go_big import GoBig
from .nothing_beats_a_large import NothingBeatsALarge
from .score_sheet import ScoreSheet

AnyGame = Game[Any, Any]
"""A game of any state and options: the platform holds every state as plain JSON data."""

BUILT_IN: tuple[type[AnyGame], ...] = (
    GoBig,
    BigMoney,
    BigTop,
    NothingBeatsALarge,
    ScoreSheet,
)


def extra_games(names: str) -> list[type[AnyGame]]:
    """The engine classes named in a COMPANION_EXTRA_GAMES value."""
    found: list[type[AnyGame]] = []
    for name in filter(None, (part.strip() for part in names.split(","))):
        module, _, class_name = name.partition(":")
        found.append(getattr(importlib.import_module(module), class_name))
    return found


GAMES: dict[str, AnyGame] = {
    game.id: game for game in (
        engine() for engine in BUILT_IN + tuple(extra_games(
            os.environ.get("COMPANION_EXTRA_GAMES", ""))))}

__all__ = ["GAMES", "Game"]
