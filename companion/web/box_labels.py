"""The words of the games' boxes that the screens show (game titles, what a game calls its
secrets and its first player, what a score counts, cards' and industries' names), marked
here so that `pybabel extract` finds them: the engines keep them as plain English data, and
the templates show each through `_()`, in the screen's language. A word the box adds goes
here too (tests/web/test_box_labels.py checks Big Money's box data against this list)."""
from __future__ import annotations

from flask_babel import gettext, lazy_gettext

from ..games import GAMES
from ..snapshots import Snapshot

GAME_WORDS = (
    lazy_gettext("Go Big"),
    lazy_gettext("Big Top"),
    lazy_gettext("Big Money"),
    lazy_gettext("Nothing Beats a Large"),
    lazy_gettext("Fan Tan"),  # Big Top played as a game of its own
    lazy_gettext("Score sheet"),
    # What a game calls a player's secrets, and the first player.
    lazy_gettext("secrets"),
    lazy_gettext("bank total"),
    lazy_gettext("hand and gate receipts"),
    lazy_gettext("goal cards"),
    lazy_gettext("score entry"),
    lazy_gettext("goes first"),
    lazy_gettext("deals first"),
    lazy_gettext("challenges first"),
    # What a score counts, and a tie-break.
    lazy_gettext("score"),
    lazy_gettext("$"),
    lazy_gettext("peanuts"),
    lazy_gettext("goals completed"),
    lazy_gettext("Points"),  # a score sheet's one category unless the host names others
    lazy_gettext("bank cards"),
    lazy_gettext("total"),
    # The score sheet's tie-break columns (a category's column is its name as typed).
    lazy_gettext("rounds won"),
    lazy_gettext("last round"),
    lazy_gettext("seconds used"),
)

# Big Money's number dice combinations and Biz News cards, as its box names them.
BIG_MONEY_PAYOUTS = (
    lazy_gettext("1 Pair"),
    lazy_gettext("2 Pairs"),
    lazy_gettext("3 of a Kind"),
    lazy_gettext("Little Straight"),
    lazy_gettext("Full House"),
    lazy_gettext("4 of a Kind"),
    lazy_gettext("Big Straight"),
    lazy_gettext("5 of a Kind"),
)
BIG_MONEY_BIZ_NEWS = (
    lazy_gettext("Antitrust Fine"),
    lazy_gettext("Bubble Burst"),
    lazy_gettext("Demerger"),
    lazy_gettext("Liquidation"),
    lazy_gettext("Global Recession"),
)
# Their texts as the box prints them: a card the host renamed or rewrote reads as typed.
BIG_MONEY_BIZ_NEWS_TEXTS = (
    lazy_gettext("Every player pays the Bank $5z for each Asset they own in their largest "
                 "industry (the industry they own the most Assets of). If there is a tie for "
                 "the industry, choose one of those industries to pay the fine for."),
    lazy_gettext("Roll the Industry die; if you roll the Biz News symbol, reroll. Every player "
                 "pays the Bank $10z for each Asset they own of that industry."),
    lazy_gettext("Roll the Industry die; if you roll the Biz News symbol, reroll. Every player "
                 "discards their highest-priced Asset of that industry. If there is a tie for "
                 "the Asset, choose one of those Assets to discard."),
    lazy_gettext("Roll the Industry die; if you roll the Biz News symbol, reroll. The player "
                 "who owns the most Assets of that industry discards all of them. If there is "
                 "a tie, all tied players must discard those Assets."),
    lazy_gettext("Every player pays the Bank $10z for each industry they own at least one "
                 "Asset of. The most money a player will pay is $50z, if they own at least one "
                 "Asset of each industry."),
)

# Why a score sheet's options are refused (its models.py), shown in the host's language.
SCORE_SHEET_REFUSALS = (
    lazy_gettext("each category can be named only once"),
    lazy_gettext("a tie-break names a category the sheet does not have"),
    lazy_gettext("each tie-break can be used only once"),
    lazy_gettext("a sheet of bids and tricks has one category"),
    lazy_gettext("a sheet of bids and tricks cannot be zero-sum"),
    lazy_gettext("a game won without points takes no bids"),
    lazy_gettext("a table of teams has at least 2 teams"),
    lazy_gettext("give one name for each team, or none"),
    lazy_gettext("each team can be named only once"),
    lazy_gettext("a sheet of bids and tricks cannot have teams"),
)


def game_name(table: Snapshot) -> str:
    """What a table's screens call its game: the game it plays (Fan Tan, a score sheet's
    game as the host named it), in the screen's language when it is a box's word."""
    engine = GAMES[table.game]
    name = engine.played_as(table.options)
    typed = engine.saved_by is not None and name != engine.title
    return name if typed else gettext(name)
