"""Big Top's engine, played directly by its rule tests (tests/engines/test_big_top_*.py):
moves applied to a state, a refusal checked to leave the state exactly as it was, options
for a player count, a seat as the public sees it, every card accounted for, a deck dealt
and the hands and gate receipts entered as at the table, a state in play built to order,
and whole games of random legal moves (Big Top or Fan Tan)."""
from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from companion.games.big_top import DECK, RECEIPT_VALUES, SUITS, BigTop, chart_cards, pile_cards
from companion.games.engine import IllegalAction

GAME = BigTop()
PLAIN_RECEIPTS = {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3}


def act(state, player, **data):
    return GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def refused(state, player, data, error=IllegalAction) -> str:
    """The action is refused with `error` and the state is left exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as info:
        act(state, player, **data)
    assert type(info.value) is error
    assert state == before
    return info.value.message


def options(players: int, **chosen):
    return GAME.options_for(chosen, players)


def seat(state, player) -> dict:
    return next(s for s in GAME.view(state, None)[0]["seats"] if s["player"] == player)


def accounted(state) -> bool:
    """Hands, charts and piles hold each of the 52 cards exactly once."""
    cards = pile_cards(state["piles"])
    for s in state["seats"]:
        cards += s["hand"] + chart_cards(s["chart"])
    return Counter(cards) == Counter(DECK)


def deal_cards(state, rng: random.Random) -> dict[int, list[str]]:
    """Shuffle and deal one card at a time, starting left of the dealer."""
    public = GAME.view(state, None)[0]
    players = [s["player"] for s in public["seats"]]
    first = players.index(public["dealer"]) + 1
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {p: [] for p in players}
    for index, card in enumerate(deck):
        hands[players[(first + index) % len(players)]].append(card)
    return hands


def enter(state, hands: dict, receipts: dict | None = None) -> None:
    for player, cards in hands.items():
        act(state, player, type="hand", cards=cards)
    if GAME.view(state, None)[0]["step"] == "receipts":
        for player in hands:
            act(state, player, type="receipts",
                receipts=(receipts or {}).get(player, PLAIN_RECEIPTS))


def arranged(players, current, hands=None, charts=None, piles=None, tracks=None,
             receipts=None, rest=None, variant="big-top"):
    """A state in play built to order. `piles` maps a suit to (poster, light, dark);
    the cards placed nowhere else go to the hand of `rest` (default: the last player)."""
    state = GAME.setup(players, options(len(players), variant=variant), random.Random(0))
    state["step"] = "play"
    state["current"] = players.index(current)
    for suit, (poster, light, dark) in (piles or {}).items():
        state["piles"][suit] = {"poster": poster, "light": light, "dark": dark}
    placed = pile_cards(state["piles"])
    for s in state["seats"]:
        player = s["player"]
        s["hand"] = list((hands or {}).get(player, []))
        s["chart"].update((charts or {}).get(player, {}))
        s["track"] = (tracks or {}).get(player, 0)
        if variant == "big-top":
            s["receipts"] = dict((receipts or {}).get(player, PLAIN_RECEIPTS))
        placed += s["hand"] + chart_cards(s["chart"])
    assert max(Counter(placed).values(), default=1) == 1, "a card is placed twice"
    leftover = [card for card in DECK if card not in placed]
    rest_seat = next(s for s in state["seats"] if s["player"] == (rest or players[-1]))
    rest_seat["hand"] += leftover
    assert accounted(state)
    return state


def random_choice(templates, rng, dealt: list[str]) -> dict:
    """A random action among the templates; `dealt` is the player's real hand."""
    template = rng.choice(templates)
    kind = template["type"]
    if kind == "hand":
        return {"type": "hand", "cards": dealt}
    if kind == "receipts":
        values = list(RECEIPT_VALUES)
        rng.shuffle(values)
        return {"type": "receipts", "receipts": dict(zip(SUITS, values))}
    if kind == "pass":
        return {"type": "pass"}
    return {"type": kind, "card": rng.choice(template["card"])}


def play_random_game(players, chosen, seed, check=None):
    """Play a whole game with random legal actions; `check(state, player, notes)` runs
    after every action. Returns the final state."""
    rng = random.Random(seed)
    state = GAME.setup(players, options(len(players), **chosen), random.Random(seed))
    hands, dealt = {}, 0
    for _ in range(20000):
        waiting = GAME.waiting_for(state)
        if not waiting:
            return state
        if state["deal"] != dealt:
            hands, dealt = deal_cards(state, rng), state["deal"]
        player = rng.choice(waiting)
        templates = GAME.actions(state, player)
        assert templates, "a waited-for player has something to do"
        notes = act(state, player, **random_choice(templates, rng, hands[player]))
        if check:
            check(state, player, notes)
    raise AssertionError("the game never ended")
