"""What a table's stored state must be: the log is the truth, the state a checkpoint."""
from __future__ import annotations

from companion import store
from companion.models import Table
from companion.table import moves


def check_state_is_the_log(stored: Table) -> dict:
    """The table's state, loaded afresh from its row and log, is the replay of its
    actions in effect; the row's state (its checkpoint) is the replay of those logged up
    to its `state_seq`, and no action in effect comes after it that an undo could have
    taken back. The state loaded."""
    loaded = store.load(stored.id)
    effective = store.actions_in_effect(stored.id)
    assert loaded.state == moves.replay_table(loaded, effective), \
        f"{stored.code}: the state is not a replay of the log"
    assert stored.state_seq is not None and stored.state_seq <= loaded.last_seq
    in_effect = {event.seq for event in effective}
    assert all(event.seq in in_effect for event in store.events(stored.id)
               if event.kind == "action" and event.seq > stored.state_seq), \
        f"{stored.code}: an action after the checkpoint was taken back"
    kept = [event for event in effective if event.seq <= stored.state_seq]
    assert stored.state == moves.replay_table(loaded, kept), \
        f"{stored.code}: the checkpoint is not a replay of the log up to it"
    assert loaded.state is not None
    return loaded.state
