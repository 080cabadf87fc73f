"""Zero-sum rounds on the score sheet (Mahjong, Tarot, poker chips): every round's entries
must add up to 0. A round whose entries do not stays open, everyone awaited, until an entry
changes; what anyone is told is by how much it is off, never whose entry, nor (with secret
entry) any entry."""
from __future__ import annotations

from ..engine import Note
from ..messages import message
from . import sheet, teams
from .state import ScoreSheetState


def on(state: ScoreSheetState) -> bool:
    return bool(sheet.options(state).get("zero_sum"))


def off_by(state: ScoreSheetState) -> int | None:
    """With every entry of the open round in, their sum when it is not 0; else None."""
    if not on(state) or state["finished"] or len(state["open"]) != len(state["players"]):
        return None
    balance = sum(sheet.row_total(scores) for scores in teams.scoring_rows(state, state["open"]))
    return balance or None


def ready(state: ScoreSheetState) -> bool:
    """Whether the open round can close: every entry in, adding up to 0 when it must."""
    return len(state["open"]) == len(state["players"]) and off_by(state) is None


def off_note(state: ScoreSheetState, number: int) -> list[Note]:
    """The line everyone reads when the round's entries are all in and do not add up."""
    balance = off_by(state)
    if balance is None:
        return []
    return [Note(message("Round %(round)s is off by %(off)s: the entries must add up to 0. "
                         "It stays open until an entry is changed.", round=number,
                         off=balance))]


def balanced(state: ScoreSheetState, player: int, scores: dict[str, int]) -> dict[str, int]:
    """The bot's entry: when everyone else has entered, its first category takes what
    brings the round to 0."""
    own = {str(p) for p in teams.partners(state, player)}
    others = teams.scoring_rows(state, {p: s for p, s in state["open"].items() if p not in own})
    if not on(state) or len(others) != len(teams.scoring_rows(state, {
            str(p): {} for p in state["players"] if str(p) not in own})):
        return scores
    first = sheet.options(state)["categories"][0]
    rest = sum(v for c, v in scores.items() if c != first)
    return {**scores, first: -rest - sum(sheet.row_total(s) for s in others)}
