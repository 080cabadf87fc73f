"""The end of a sheet: totals, the host's tie-break chain, competition places, and the
explanation, one sentence per tie ("Ann and Ben tied on 87; Ann wins on Birds, 32 to 28.")."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Callable

from ..engine import Result, Standing, competition_places
from ..messages import Message, Param, listed, message
from . import sheet, teams
from .state import ScoreSheetState


@dataclass(frozen=True)
class Breaker:
    """One link of the chain: its column in the standings, what the sentence calls it,
    each player's (or team's) value, and whether more is better."""

    column: str
    called: Message | str
    value: Callable[[int], int]
    most: bool

    def key(self, player: int) -> int:
        return self.value(player) if self.most else -self.value(player)


def chain(state: ScoreSheetState, used_ms: Mapping[int, int]) -> list[Breaker]:
    """The host's chain, of players or of teams (`teams.units`); a tie-break on time
    counts whole seconds of `used_ms`, each player's time used as the table hands it in
    (a team's, its members' together; none without a clock: no one apart)."""
    breakers: list[Breaker] = []
    for tiebreak in sheet.options(state)["tiebreaks"]:
        if tiebreak["by"] == "category":
            category = tiebreak["category"]
            # The category is shown as the host typed it.
            called = (category if tiebreak["most"]
                      else message("fewest %(category)s", category=category))
            breakers.append(Breaker(category, called,
                                    partial(teams.category_total, state, category=category),
                                    tiebreak["most"]))
        elif tiebreak["by"] == "time":
            called = (message("most seconds used") if tiebreak["most"]
                      else message("fewest seconds used"))
            breakers.append(Breaker("seconds_used", called,
                                    partial(teams.seconds_used, state, used_ms), tiebreak["most"]))
        elif tiebreak["by"] == "rounds_won":
            breakers.append(Breaker("rounds_won", message("rounds won"),
                                    partial(teams.rounds_won, state), True))
        else:
            called = (message("the last round") if tiebreak["most"]
                      else message("the lowest last round"))
            breakers.append(Breaker("last_round", called,
                                    partial(teams.last_round, state), tiebreak["most"]))
    return breakers


def result(state: ScoreSheetState, used_ms: Mapping[int, int]) -> Result:
    """Places of the players, or of the teams, every member having the team's."""
    lowest = sheet.options(state)["lowest_wins"]
    breakers = chain(state, used_ms)
    units = teams.units(state)
    totals = {u: teams.total(state, u) for u in units}
    keyed = [(u, (-totals[u] if lowest else totals[u], *(b.key(u) for b in breakers)))
             for u in units]
    places = dict(competition_places(keyed))
    ranked = sorted(units, key=lambda u: (places[u], units.index(u)))
    seat = {p: index for index, p in enumerate(state["players"])}
    standings = sorted(
        (Standing(p, places[u], totals[u], {b.column: b.value(u) for b in breakers})
         for u in units for p in teams.players_of(state, u)),
        key=lambda s: (s.place, seat[s.player]))
    called = partial(teams.called, state)
    return Result(standings, explain(state, ranked, totals, breakers, places, called),
                  message("total"))


def explain(state: ScoreSheetState, ranked: list[int], totals: dict[int, int],
            breakers: list[Breaker], places: dict[int, int],
            called: Callable[[int], Param]) -> Message:
    first = ranked[0]
    winners = [u for u in ranked if places[u] == 1]
    if sum(totals[u] == totals[first] for u in ranked) > 1:
        sentences = []  # the tie's own sentence says who won
    elif len(ranked) == 1:
        sentences = [message("%(player)s scored %(total)s.", player=called(first),
                             total=totals[first])]
    elif sheet.options(state)["lowest_wins"]:
        sentences = [message("%(players)s won with the lowest total, %(total)s.",
                             players=listed(map(called, winners)), total=totals[first])]
    else:
        sentences = [message("%(players)s won with the highest total, %(total)s.",
                             players=listed(map(called, winners)), total=totals[first])]
    by_total: dict[int, list[int]] = {}
    for unit in ranked:
        by_total.setdefault(totals[unit], []).append(unit)
    for total, tied in by_total.items():
        if len(tied) > 1:
            sentences += tie_sentences(tied, total, breakers, places, called)
    return sentences_of(sentences)


def tie_sentences(tied: list[int], total: int, breakers: list[Breaker],
                  places: dict[int, int], called: Callable[[int], Param]) -> list[Message]:
    """How the chain split players tied on `total`: the first link that tells any of them
    apart speaks; those it leaves tied go on down the chain; the rest share a place."""
    for index, breaker in enumerate(breakers):
        values = {p: breaker.key(p) for p in tied}
        if len(set(values.values())) == 1:
            continue
        ordered = sorted(tied, key=lambda p: (-values[p], tied.index(p)))
        sentence = split_sentence(ordered, total, breaker, places, called)
        sentences = [sentence]
        groups: dict[int, list[int]] = {}
        for player in ordered:
            groups.setdefault(values[player], []).append(player)
        for group in groups.values():
            if len(group) > 1:
                sentences += tie_sentences(group, total, breakers[index + 1:], places,
                                           called)
        return sentences
    return [message("%(players)s tied on %(total)s and share place %(place)s.",
                    players=listed(map(called, tied)), total=total,
                    place=places[tied[0]])]


def split_sentence(ordered: list[int], total: int, breaker: Breaker,
                   places: dict[int, int], called: Callable[[int], Param]) -> Message:
    ahead = ordered[0]
    if len(ordered) == 2:
        behind = ordered[1]
        params: dict[str, Param] = dict(tied=listed(map(called, ordered)), total=total,
                                        player=called(ahead),
                      breaker=breaker.called, best=breaker.value(ahead),
                      other=breaker.value(behind))
        if places[ahead] == 1:
            return message("%(tied)s tied on %(total)s; %(player)s wins on %(breaker)s, "
                           "%(best)s to %(other)s.", **params)
        return message("%(tied)s tied on %(total)s; %(player)s goes ahead on %(breaker)s, "
                       "%(best)s to %(other)s.", **params)
    tally = listed((message("%(player)s %(value)s", player=called(p), value=breaker.value(p))
                    for p in ordered), tally=True)
    return message("%(tied)s tied on %(total)s; %(breaker)s orders them: %(values)s.",
                   tied=listed(map(called, ordered)), total=total, breaker=breaker.called,
                   values=tally)


def sentences_of(sentences: list[Message]) -> Message:
    joined = sentences[-1]
    for sentence in reversed(sentences[:-1]):
        joined = message("%(sentence)s %(more)s", sentence=sentence, more=joined)
    return joined



