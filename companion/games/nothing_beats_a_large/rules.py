"""Nothing Beats a Large's rules page: its sections, the section of each step, what to set
out at the table, and why a challenger or a thief is not offered some players."""
from __future__ import annotations

from ..engine import IllegalAction
from ..messages import Message, Player, listed, message
from .models import COLORS, Options
from .pieces import color_name
from .state import NothingBeatsALargeState

SECTIONS: dict[str, str] = {
    "setup": message("Setting up the table"),
    "turn": message("A turn, step by step"),
    "challenge": message("Challenging"),
    "cast": message("Casting"),
    "steal": message("Stealing"),
    "end": message("The end and the tie-breaks"),
    "rulings": message("Our rulings"),
}

SECTION_OF_STEP = {"challenge": "challenge", "cast": "cast", "steal": "steal", "over": "end"}


def rule_for(state: NothingBeatsALargeState) -> str:
    return SECTION_OF_STEP[state["step"]]


def setup_checklist(options: Options, players: int) -> list[Message]:
    colors = [color_name(color) for color in COLORS if color in options.colors]
    lines = [
        message("Colours in play: %(colors)s. Put the pyramids of the other colours back "
                "in the box.", colors=listed(colors)),
        message("Each player takes the three pieces their phone shows: a Large, a Medium "
                "and a Small, each of a different colour."),
    ]
    if players == 2:
        lines.append(message("With two players the spare trio is shared out: one player also "
                             "takes its Large, the other its Medium and its Small, as the "
                             "phones say."))
    lines.append(message("The goal cards stay in the box: the app deals two to each player "
                         "in secret, and each reads theirs on their own phone."))
    if options.casting == "phones":
        lines.append(message("Casts are made on the phones: each of the two players picks a "
                             "piece, or nothing, in secret."))
    else:
        lines.append(message("Casts are made by hand: the two players show a real piece, or "
                             "an empty hand, together, and one of them records both."))
    lines.append(message("The player the host seats first makes the first challenge."))
    return lines


def why_not(state: NothingBeatsALargeState, player: int | None,
            opponents: list[int]) -> list[IllegalAction]:
    """Who the player whose choice it is cannot challenge, or cannot rob, and why."""
    if player is None:
        return []
    if state["step"] == "challenge" and state["challenger"] == player:
        return _not_challenged(state, player, opponents)
    if state["step"] == "steal" and state["steals"][0]["thief"] == player:
        return _not_robbed(state, player)
    return []


def _not_challenged(state: NothingBeatsALargeState, challenger: int,
                    opponents: list[int]) -> list[IllegalAction]:
    return [IllegalAction(message("You cannot challenge %(player)s, who has just cast: "
                                  "challenge someone who did not.", player=Player(seat["player"])),
                          rule="challenge")
            for seat in state["seats"]
            if seat["player"] != challenger and seat["player"] not in opponents]


def _not_robbed(state: NothingBeatsALargeState, thief: int) -> list[IllegalAction]:
    steal = state["steals"][0]
    later = [s["victim"] for s in state["steals"][1:] if s["thief"] == thief]
    reasons = []
    for seat in state["seats"]:
        other = seat["player"]
        if other in (thief, steal["victim"]):
            continue
        if not seat["pieces"]:
            reasons.append(IllegalAction(message("You cannot rob %(player)s, who has no "
                                                 "pieces.", player=Player(other)),
                                         rule="steal"))
        elif steal["reason"] == "won":
            reasons.append(IllegalAction(message("You cannot rob %(player)s: the winner of a "
                                                 "cast takes a piece only from its loser.",
                                                 player=Player(other)), rule="steal"))
        elif other in later:
            reasons.append(IllegalAction(message("You rob %(player)s later: one player at a "
                                                 "time, clockwise.", player=Player(other)),
                                         rule="steal"))
        else:
            reasons.append(IllegalAction(message("You cannot rob %(player)s now: you take "
                                                 "one piece from each player who had any when "
                                                 "you ran out, and no more.",
                                                 player=Player(other)), rule="steal"))
    return reasons
