"""The stored table, as only a test may read it: through the app, beside the server."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from companion import store
from companion.extensions import db
from companion.models import Event
from companion.table import moves, read


@dataclass
class Snapshot:
    game: str
    status: str
    version: int
    moves: int
    seed: int | None
    state: dict | None
    events: list[dict] = field(default_factory=list)


class Referee:
    def __init__(self, app, code: str):
        self.app, self.code = app, code
        self.events: list[dict] = []  # the log is append-only: read only what is new

    def read(self, events: bool = False) -> Snapshot:
        with self.app.app_context():
            table = read.find(self.code)
            snapshot = Snapshot(table.game, table.status, table.version, table.moves,
                                table.seed, copy.deepcopy(table.state))
            if events:
                last = self.events[-1]["seq"] if self.events else 0
                self.events += [
                    {"seq": e.seq, "kind": e.kind, "actor": e.actor, "notes": e.notes,
                     "undoes": e.undoes, "action_id": e.action_id, "version": e.version,
                     "action": e.action}
                    for e in db.session.execute(db.select(Event).where(
                        Event.table_id == table.id, Event.seq > last)
                        .order_by(Event.seq)).scalars()]
                snapshot.events = self.events
            db.session.remove()
            return snapshot

    def replayed(self) -> tuple[dict | None, dict | None]:
        """(stored state, a fresh replay of the log's actions in effect)."""
        with self.app.app_context():
            table = store.load(read.find(self.code).id)  # as stored, not as cached
            if table.status == "lobby":
                return None, None
            stored = copy.deepcopy(table.state)
            fresh = moves.replay_table(table, store.actions_in_effect(table.id))
            db.session.remove()
            return stored, fresh
