"""Cost growth, measured in-process with the app factory (no HTTP, no other load):
the time to apply an action (`moves.act` and its answer) and to render a phone's panel
(`screens.render_panel`, what /t/<code>/panel returns) at event 10 and at event ~1,000
of the same table.

No registered game runs to 1,000 actions (a Go Big game ends after 60 to 140), so the
log of the measured table is lengthened the way a real table's is: by actions and
their undos (each pair adds two events to the log; the state stays early in the game,
so it is the log's length, not the state's, that grows). A genuine long game (Go Big,
20 copies of each value, 2 players) is measured too, at event 10 and near its end.

Run by bench/run.py in a subprocess; prints one JSON object.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time

from inapp import new_go_big_table, start_app

WINDOW = 10  # actions measured at each mark
RENDERS = 3  # renders of each phone's panel after each measured action (the fastest kept)


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    app, client = start_app("cost")
    from companion.table import moves, read
    from companion.auth import viewer_for_token
    from companion.extensions import db
    from companion.web import panel_parts, screens

    rng = random.Random(1)

    def new_table(players: int, copies: int) -> tuple[str, dict[int, str]]:
        code, tokens, _ = new_go_big_table(client, players, copies)
        return code, tokens

    def turn_of(code: str, tokens: dict[int, str]) -> tuple[int, dict]:
        any_token = next(iter(tokens.values()))
        view = client.get(f"/api/v1/tables/{code}",
                          headers={"Authorization": f"Bearer {any_token}"}).get_json()
        player = view["turn"]
        mine = client.get(f"/api/v1/tables/{code}",
                          headers={"Authorization": f"Bearer {tokens[player]}"}).get_json()
        return player, mine

    def pick(view: dict) -> dict:
        template = view["actions"][0]
        if template["type"] == "play":
            return {"type": "play", **rng.choice(template["sets"])}
        return {"type": "draw", "source": rng.choice(template["source"])}

    def timed_act(code: str, token: str, action: dict) -> tuple[float, dict]:
        with app.test_request_context(f"/api/v1/tables/{code}/actions", method="POST"):
            table = read.find(code)
            viewer = viewer_for_token(table, token)
            started = time.perf_counter()
            answer = moves.answer(moves.act(table, viewer, action), viewer)
            spent = time.perf_counter() - started
            db.session.remove()
        return spent, answer

    def timed_render(code: str, token: str) -> dict[str, float]:
        """The panel of one phone: the whole render, and its parts."""
        best: dict[str, float] = {}
        for _ in range(RENDERS):
            with app.test_request_context(f"/t/{code}/panel?screen=phone"):
                table = read.find(code)
                viewer = viewer_for_token(table, token)
                parts = {}
                t0 = time.perf_counter()
                screens.render_panel(table, viewer, "phone")
                parts["render"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                read.view(table, viewer)
                parts["view"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                read.log(table, viewer, limit=panel_parts.LOG_LINES, html=True)
                parts["log"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                moves.can_undo(table, viewer)
                parts["can_undo"] = time.perf_counter() - t0
                db.session.remove()
            for key, value in parts.items():
                best[key] = min(best.get(key, value), value)
        return best

    def events_of(code: str) -> int:
        from sqlalchemy import func

        from companion.models import Event
        with app.app_context():
            table = read.find(code)
            count = db.session.execute(
                db.select(func.count()).where(Event.table_id == table.id)).scalar()
            db.session.remove()
        return count

    def measure(code: str, tokens: dict[int, str], count: int) -> dict:
        """`count` actions of whoever's turn it is, each timed, each followed by the
        render of every phone's panel; the medians."""
        acts, renders = [], {}
        first = events_of(code) + 1
        for _ in range(count):
            player, view = turn_of(code, tokens)
            spent, answer = timed_act(code, tokens[player], pick(view))
            if answer["table"]["status"] != "playing":
                break
            acts.append(spent)
            # the panel of the player who moves next and of one who waits
            nxt = answer["table"]["turn"]
            other = next(p for p in tokens if p != nxt)
            for token in (tokens[nxt], tokens[other]):
                for key, value in timed_render(code, token).items():
                    renders.setdefault(key, []).append(value)
        result = {"first_event": first, "last_event": first + len(acts) - 1,
                  "act_ms": 1000 * statistics.median(acts)}
        for key, values in renders.items():
            result[f"{key}_ms"] = 1000 * statistics.median(values)
        result["total_ms"] = result["act_ms"] + result["render_ms"]
        return result

    def advance(code: str, tokens: dict[int, str], to_event: int, pad: bool) -> None:
        """Play (or, with `pad`, act and undo) until the log holds `to_event` events."""
        events = events_of(code)
        while events < to_event:
            player, view = turn_of(code, tokens)
            token = tokens[player]
            _, answer = timed_act(code, token, pick(view))
            events += 1
            if pad and events + 1 <= to_event:
                undone = client.post(f"/api/v1/tables/{code}/undo", json={},
                                     headers={"Authorization": f"Bearer {token}"})
                assert undone.status_code == 200, undone.get_json()
                events += 1

    started = time.perf_counter()
    # The long log: act+undo pairs between the two marks (6 players, the default deck).
    code, tokens = new_table(6, 13)
    advance(code, tokens, 9, pad=False)
    early = measure(code, tokens, WINDOW)
    advance(code, tokens, target - 1, pad=True)
    late = measure(code, tokens, WINDOW)

    # A genuine long game: 2 players, 20 copies of each value (about 135 actions).
    code2, tokens2 = new_table(2, 20)
    advance(code2, tokens2, 9, pad=False)
    g_early = measure(code2, tokens2, WINDOW)
    advance(code2, tokens2, 105, pad=False)
    g_late = measure(code2, tokens2, WINDOW)

    print(json.dumps({
        "padded": {"early": early, "late": late,
                   "ratio": late["total_ms"] / early["total_ms"]},
        "genuine": {"early": g_early, "late": g_late,
                    "ratio": g_late["total_ms"] / g_early["total_ms"]},
        "seconds": time.perf_counter() - started,
    }))


if __name__ == "__main__":
    main()
