"""What the screens and the API read of a score sheet's public state: what a viewer's own
part reads of it and of the actions offered (so an entry renders again only the parts it
changed), and the rows that actions entered or corrected (a view's `rows_since`)."""
from __future__ import annotations

from typing import Any


class SheetReads:
    """The score sheet engine's part that says what its readers read."""

    # What a player's moves and secrets read of the sheet: not its rows, which change at
    # every entry (the "entered" line only as whether anyone has entered, and only where
    # the host's "end" is offered, which says the open round's entries are dropped).
    OWN_READS = ("bids", "bids_in", "categories", "round", "secret", "entry", "team_scoring",
                 "teams")

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        ends = any(action["type"] == "end" for action in actions)
        return {**{key: public.get(key) for key in self.OWN_READS},
                "entered": bool(public.get("entered")) if ends else None}

    def own_actions(self, public: dict[str, Any], you: int | None,
                    actions: list[dict[str, Any]], phoneless: list[int]
                    ) -> list[dict[str, Any]]:
        """The host's entry (or bid) for one player, on a sheet whose players enter their
        own rows, names only the players without a phone (none when entries are secret):
        of who has entered, it reads only them (so another player's entry leaves the
        host's part as it was)."""
        if you is not None or public.get("entry") == "scorer":
            return actions
        named = [] if public.get("secret") else phoneless
        return [dict(action, players=[p for p in action["players"] if p in named],
                     entered=[p for p in action["entered"] if p in named])
                if action["type"] in ("enter", "bid") else action for action in actions]

    def public_since(self, public: dict[str, Any],
                     actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Each seat's rows of the rounds these actions entered or corrected, and the open
        round's; the seats' totals stay whole."""
        rounds: set[int] = set()
        for action in actions:
            if action.get("type") in ("enter", "enter_round", "bid", "correct"):
                rounds.add(action["round"])
            elif action.get("type") not in ("end", "finish"):
                return None
        seats = [dict(seat, rows=[row for row in seat["rows"]
                                  if row["round"] in rounds or row.get("open")])
                 for seat in public["seats"]]
        return dict(public, seats=seats)
