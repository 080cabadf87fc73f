"""The game registry: game id -> engine. Only games that are really built are listed."""
from .engine import Game
from .big_money import BigMoney
from .big_top import BigTop
from .go_big import GoBig
from .nothing_beats_a_large import NothingBeatsALarge

GAMES: dict[str, Game] = {
    game.id: game for game in (GoBig(), BigMoney(), BigTop(), NothingBeatsALarge())}
