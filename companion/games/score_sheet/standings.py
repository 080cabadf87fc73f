"""The end of a sheet: totals, the host's tie-break chain, competition places, and the
explanation, one sentence per tie ("Ann and Ben tied on 87; Ann wins on Birds, 32 to 28.")."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Callable

from ..engine import Result, Standing, competition_places
from ..messages import Message, Param, Player, listed, message, players
from . import sheet
from .state import ScoreSheetState


@dataclass(frozen=True)
class Breaker:
    """One link of the chain: its column in the standings, what the sentence calls it,
    each player's value, and whether more is better."""

    column: str
    called: Message | str
    value: Callable[[int], int]
    most: bool

    def key(self, player: int) -> int:
        return self.value(player) if self.most else -self.value(player)


def chain(state: ScoreSheetState, used_ms: Mapping[int, int]) -> list[Breaker]:
    """The host's chain; a tie-break on time counts whole seconds of `used_ms`, each
    player's time used as the table hands it in (none without a clock: no one apart)."""
    breakers: list[Breaker] = []
    for tiebreak in sheet.options(state)["tiebreaks"]:
        if tiebreak["by"] == "category":
            category = tiebreak["category"]
            # The category is shown as the host typed it.
            called = (category if tiebreak["most"]
                      else message("fewest %(category)s", category=category))
            breakers.append(Breaker(category, called,
                                    partial(sheet.category_total, state, category=category),
                                    tiebreak["most"]))
        elif tiebreak["by"] == "time":
            called = (message("most seconds used") if tiebreak["most"]
                      else message("fewest seconds used"))
            breakers.append(Breaker("seconds_used", called,
                                    lambda p: used_ms.get(p, 0) // 1000, tiebreak["most"]))
        elif tiebreak["by"] == "rounds_won":
            breakers.append(Breaker("rounds_won", message("rounds won"),
                                    lambda p: sheet.rounds_won(state, p), True))
        else:
            called = (message("the last round") if tiebreak["most"]
                      else message("the lowest last round"))
            breakers.append(Breaker("last_round", called,
                                    lambda p: sheet.last_round(state, p), tiebreak["most"]))
    return breakers


def result(state: ScoreSheetState, used_ms: Mapping[int, int]) -> Result:
    lowest = sheet.options(state)["lowest_wins"]
    breakers = chain(state, used_ms)
    totals = {p: sheet.total(state, p) for p in state["players"]}
    keyed = [(p, (-totals[p] if lowest else totals[p], *(b.key(p) for b in breakers)))
             for p in state["players"]]
    places = dict(competition_places(keyed))
    seat = {p: index for index, p in enumerate(state["players"])}
    standings = sorted(
        (Standing(p, places[p], totals[p], {b.column: b.value(p) for b in breakers})
         for p in state["players"]),
        key=lambda s: (s.place, seat[s.player]))
    return Result(standings, explain(state, standings, breakers, places),
                  message("total"))


def explain(state: ScoreSheetState, standings: list[Standing], breakers: list[Breaker],
            places: dict[int, int]) -> Message:
    first = standings[0]
    winners = [s.player for s in standings if s.place == 1]
    if sum(s.score == first.score for s in standings) > 1:
        sentences = []  # the tie's own sentence says who won
    elif len(standings) == 1:
        sentences = [message("%(player)s scored %(total)s.", player=Player(first.player),
                             total=first.score)]
    elif sheet.options(state)["lowest_wins"]:
        sentences = [message("%(players)s won with the lowest total, %(total)s.",
                             players=players(winners), total=first.score)]
    else:
        sentences = [message("%(players)s won with the highest total, %(total)s.",
                             players=players(winners), total=first.score)]
    by_total: dict[int, list[int]] = {}
    for standing in standings:
        by_total.setdefault(standing.score, []).append(standing.player)
    for total, tied in by_total.items():
        if len(tied) > 1:
            sentences += tie_sentences(tied, total, breakers, places)
    return sentences_of(sentences)


def tie_sentences(tied: list[int], total: int, breakers: list[Breaker],
                  places: dict[int, int]) -> list[Message]:
    """How the chain split players tied on `total`: the first link that tells any of them
    apart speaks; those it leaves tied go on down the chain; the rest share a place."""
    for index, breaker in enumerate(breakers):
        values = {p: breaker.key(p) for p in tied}
        if len(set(values.values())) == 1:
            continue
        ordered = sorted(tied, key=lambda p: (-values[p], tied.index(p)))
        sentence = split_sentence(ordered, total, breaker, places)
        sentences = [sentence]
        groups: dict[int, list[int]] = {}
        for player in ordered:
            groups.setdefault(values[player], []).append(player)
        for group in groups.values():
            if len(group) > 1:
                sentences += tie_sentences(group, total, breakers[index + 1:], places)
        return sentences
    return [message("%(players)s tied on %(total)s and share place %(place)s.",
                    players=players(tied), total=total, place=places[tied[0]])]


def split_sentence(ordered: list[int], total: int, breaker: Breaker,
                   places: dict[int, int]) -> Message:
    ahead = ordered[0]
    if len(ordered) == 2:
        behind = ordered[1]
        params: dict[str, Param] = dict(tied=players(ordered), total=total, player=Player(ahead),
                      breaker=breaker.called, best=breaker.value(ahead),
                      other=breaker.value(behind))
        if places[ahead] == 1:
            return message("%(tied)s tied on %(total)s; %(player)s wins on %(breaker)s, "
                           "%(best)s to %(other)s.", **params)
        return message("%(tied)s tied on %(total)s; %(player)s goes ahead on %(breaker)s, "
                       "%(best)s to %(other)s.", **params)
    tally = listed((message("%(player)s %(value)s", player=Player(p), value=breaker.value(p))
                    for p in ordered), tally=True)
    return message("%(tied)s tied on %(total)s; %(breaker)s orders them: %(values)s.",
                   tied=players(ordered), total=total, breaker=breaker.called, values=tally)


def sentences_of(sentences: list[Message]) -> Message:
    joined = sentences[-1]
    for sentence in reversed(sentences[:-1]):
        joined = message("%(sentence)s %(more)s", sentence=sentence, more=joined)
    return joined



