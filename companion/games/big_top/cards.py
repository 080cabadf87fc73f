"""Big Top's box: the 52-card deck, the piles, the charts and the scoring track."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from ..messages import Message, Param, Player, listed, message
from .state import Card, Chart, ChartSpace, EarningSource, Pile, Shade, Suit

SUITS: tuple[Suit, ...] = ("clowns", "sideshow", "animals", "performers")
SUIT_TITLES = {"clowns": message("Clowns"), "sideshow": message("Sideshow"),
               "animals": message("Animals"), "performers": message("Performers")}
# As the rulebook names single cards: "the dark 1 Animal card", "the Performer poster".
CARD_NOUNS = {"clowns": message("Clown"), "sideshow": message("Sideshow"),
              "animals": message("Animal"), "performers": message("Performer")}
# Each rank as the deck names it, with its shade and number: "D4" is the dark 4.
RANKS: tuple[tuple[str, Shade, int], ...] = (
    (("P", "poster", 0),) + tuple((f"L{n}", "light", n) for n in range(1, 7))
    + tuple((f"D{n}", "dark", n) for n in range(1, 7)))
CARD_PARTS: dict[Card, tuple[Suit, Shade, int]] = {
    f"{suit}-{rank}": (suit, shade, number) for suit in SUITS for rank, shade, number in RANKS}
DECK = tuple(CARD_PARTS)
DECK_ORDER = {card: index for index, card in enumerate(DECK)}
RECEIPT_VALUES = (10, 7, 5, 3)
SPACES: tuple[ChartSpace, ...] = ("3", "2", "1", "0")
TRACK_SPACES = 20
EARNINGS_SHOWN = 5  # the view's latest earning plays of the deal


# -- cards, piles and charts -------------------------------------------------------
class TokenPosition(TypedDict):
    space: int | None
    plus_20: bool
    text: Message


def card_parts(card: Card) -> tuple[Suit, Shade, int]:
    """("sideshow", "dark", 4) for "sideshow-D4"; a Poster is ("clowns", "poster", 0)."""
    return CARD_PARTS[card]


def card_label(card: str) -> Message:
    """"dark 4 Sideshow", "light 1 Performer", "Clown Poster"."""
    suit, shade, number = card_parts(card)
    return shaded_card(suit, shade, number)


def shaded_card(suit: Suit, shade: Shade, number: int) -> Message:
    if shade == "poster":
        return message("%(suit)s Poster", suit=CARD_NOUNS[suit])
    if shade == "light":
        return message("light %(number)s %(suit)s", number=number, suit=CARD_NOUNS[suit])
    return message("dark %(number)s %(suit)s", number=number, suit=CARD_NOUNS[suit])


def deck_sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=DECK_ORDER.__getitem__)


def new_piles() -> dict[Suit, Pile]:
    return {suit: {"poster": False, "light": 0, "dark": 0} for suit in SUITS}


def is_playable(piles: dict[Suit, Pile], card: Card) -> bool:
    """The Poster opens its suit; then each shade climbs from 1 to 6 in its own pile."""
    suit, shade, number = card_parts(card)
    pile = piles[suit]
    if shade == "poster":
        return not pile["poster"]
    return pile["poster"] and pile[shade] == number - 1


def next_needed(piles: dict[Suit, Pile], card: Card) -> Message:
    """The card the card's pile waits for, named."""
    suit, shade, _ = card_parts(card)
    pile = piles[suit]
    if not pile["poster"]:
        return shaded_card(suit, "poster", 0)
    return shaded_card(suit, shade, pile[shade] + 1)


def put_on_pile(piles: dict[Suit, Pile], card: Card) -> None:
    suit, shade, number = card_parts(card)
    if shade == "poster":
        piles[suit]["poster"] = True
    else:
        piles[suit][shade] = number


def pile_cards(piles: dict[Suit, Pile]) -> list[Card]:
    """The cards lying on the piles."""
    cards = []
    for suit, pile in piles.items():
        if pile["poster"]:
            cards.append(f"{suit}-P")
        cards += [f"{suit}-L{n}" for n in range(1, pile["light"] + 1)]
        cards += [f"{suit}-D{n}" for n in range(1, pile["dark"] + 1)]
    return cards


def empty_chart() -> Chart:
    return {space: None for space in SPACES}


def shift_down(chart: Chart) -> list[tuple[Card, ChartSpace]]:
    """Slide each called card one space lower, lowest space first, each only into an
    empty space (a card on $0 stays). Returns the (card, new space) moves."""
    moves: list[tuple[Card, ChartSpace]] = []
    steps: tuple[tuple[ChartSpace, ChartSpace], ...] = (("0", "1"), ("1", "2"), ("2", "3"))
    for lower, upper in steps:
        card = chart[upper]
        if chart[lower] is None and card is not None:
            chart[lower], chart[upper] = card, None
            moves.append((card, lower))
    return moves


def chart_cards(chart: Chart) -> list[Card]:
    return [card for card in chart.values() if card is not None]


def token_position(track: int) -> TokenPosition:
    """Where the physical scoring token goes: 23 is the +$20 side up on space 3."""
    if track == 0:
        return {"space": None, "plus_20": False, "text": message("beside the chart ($0)")}
    if track <= TRACK_SPACES:
        return {"space": track, "plus_20": False,
                "text": message("face down on %(space)s", space=track)}
    space = min(track - TRACK_SPACES, TRACK_SPACES)
    text = message("+$20 side up on %(space)s", space=space)
    if track > 2 * TRACK_SPACES:
        text = message("+$20 side up on %(space)s (and $%(more)s more to remember)",
                       space=space, more=track - 2 * TRACK_SPACES)
    return {"space": space, "plus_20": True, "text": text}


def usual_hand_size(seat_index: int, dealer_index: int, players: int) -> int:
    """Dealing one card at a time from the dealer's left, the first 52 % n players
    dealt to get one card more."""
    order = (seat_index - dealer_index - 1) % players
    return len(DECK) // players + (1 if order < len(DECK) % players else 0)


def dollars_from(sources: list[EarningSource]) -> Param:
    """"{name:4}'s called dark 4 Sideshow" or, for several, each with its value."""
    if len(sources) == 1:
        return message("%(player)s's called %(card)s", player=Player(sources[0]["player"]),
                       card=card_label(sources[0]["card"]))
    return listed(message("%(player)s's called %(card)s ($%(value)s)",
                          player=Player(s["player"]), card=card_label(s["card"]),
                          value=s["value"]) for s in sources)

