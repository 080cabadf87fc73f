"""Big Top (and Fan Tan): the engine, its deck and its options and action models."""
from .cards import (DECK, RECEIPT_VALUES, SUIT_TITLES, SUITS, card_label, chart_cards,
                    pile_cards, shift_down, token_position)
from .engine import BigTop
from .models import Options

__all__ = ["DECK", "RECEIPT_VALUES", "SUIT_TITLES", "SUITS", "BigTop", "Options", "card_label",
           "chart_cards", "pile_cards", "shift_down", "token_position"]
