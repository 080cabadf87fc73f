"""Creating a table, seating its players in the lobby, and moving on to the next game."""
from __future__ import annotations

import hmac
import re
import secrets
from datetime import timedelta
from typing import Any

from flask_babel import lazy_gettext
from pydantic import ValidationError

from .. import store
from ..auth import Viewer, hash_rejoin_code, hash_token, new_token
from ..errors import bad_request, conflict, forbidden, illegal, not_found
from ..games import GAMES, Game
from ..games.engine import Note
from ..games.messages import Message, Player, message, text_from_json
from ..models import utcnow
from ..snapshots import Seat, Snapshot
from ..store import Change, NewTable
from ..store.reads import CODE_LETTERS
from .checks import validation_message
from .clock import setting_of
from .read import find, seated

NAME_MAX = 24
# A rejoin code to type: 20^8 codes, good once for a few minutes, and a wrong one counts
# against the address's failed look-ups (extensions.LOOKUP_MISSES).
REJOIN_CODE_LENGTH = 8
REJOIN_CODE_MINUTES = 15
# A seat is given only to a phone that proves it (its cookie, a rejoin code): someone who
# types a name already seated is shown the way back to that seat.
NO_SUCH_REJOIN_CODE = lazy_gettext("That rejoin code is not right, or it is no longer valid: "
                                   "check it on the host screen, or ask the host for a new one.")

NEEDS_CLOCK = lazy_gettext("A tie-break on the time used needs the table clock: choose a clock, "
                           "or another tie-break.")


def name_taken(name: str) -> str:
    return lazy_gettext("%(name)s is already seated at this table. If you are %(name)s on a new "
                        "phone, ask the host for %(name)s's rejoin code (on the host screen, "
                        "\"Lost or swapped phone?\") to take the seat back; if you are not, "
                        "pick another name.", name=name)


def validate_options(engine: Game, options: Any) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad_request(lazy_gettext("Options must be an object."))
    try:
        # Over the game's own defaults, which fill an option the game cannot do without
        # (a score sheet's name) and which the options chosen must agree with.
        chosen = engine.options_for(options)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None
    return {key: value for key, value in chosen.model_dump(mode="json").items()
            if key in options}


def saved_defaults(engine: Game) -> dict:
    """The option values saved as this server's defaults for a game ({} if none)."""
    return store.saved.defaults(engine.id)


def saved_clock(engine: Game) -> dict | None:
    """The table clock saved with this server's defaults for a game (None: no clock)."""
    return store.saved.saved_defaults(engine.id).clock


def save_defaults(engine: Game, options: Any, clock: Any = None) -> None:
    """Keep these options and this clock (None: no clock) as the game's defaults."""
    chosen = validate_options(engine, options)
    clock_setting = setting_of(clock)
    if clock_setting is None and engine.needs_clock(chosen):
        raise bad_request(NEEDS_CLOCK)
    store.saved.save_defaults(engine.id, chosen, clock_setting)


def create_table(game_id: Any, options: Any, clock: Any = None,
                 teach: bool = False) -> tuple[str, str]:
    """A new table in its lobby, its code and host token; options not given take this
    server's saved defaults, then the game's own. `clock`: the table clock's setting
    (None: no clock). `teach`: a first game, explained on the screens step by step."""
    engine = GAMES.get(game_id) if isinstance(game_id, str) else None
    if engine is None:
        raise bad_request(lazy_gettext("Pick one of the games: %(games)s.",
                                       games=", ".join(GAMES)))
    if isinstance(options, dict):
        options = {**saved_defaults(engine), **options}
    chosen = validate_options(engine, options)
    clock_setting = setting_of(clock)
    if clock_setting is None and engine.needs_clock(chosen):
        raise bad_request(NEEDS_CLOCK)
    token = new_token()
    named = chosen.get(engine.saved_by) if engine.saved_by else None
    code = store.create_table({"game": engine.id, "options": chosen, "clock": clock_setting,
                               "teaching": {"got_it": {}} if teach else None,
                               "host_token_hash": hash_token(token)},
                              named=(store.Named(engine.id, named, chosen, clock_setting)
                                     if named else None))
    return code, token


def saved_by_name(engine: Game) -> list[store.Named]:
    """The options saved under a name for a game (its saved sheets), the most used first."""
    return store.saved.saved(engine.id) if engine.saved_by else []


def names_seen(engine: Game) -> list[str]:
    """The names of this game's saved options and of its tables (a sheet's game names)."""
    return store.saved.names(engine.id, engine.saved_by) if engine.saved_by else []


def saved_under(engine: Game, name: Any) -> store.Named | None:
    """The options saved under this name (in any case), None if there are none."""
    if not engine.saved_by or not isinstance(name, str):
        return None
    return store.saved.find(engine.id, name)


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise bad_request(lazy_gettext("A name is a piece of text."))
    name = " ".join(name.split())
    if not name:
        raise bad_request(lazy_gettext("Please type a name."))
    if len(name) > NAME_MAX:
        raise bad_request(lazy_gettext("Names are at most %(most)s characters.", most=NAME_MAX))
    if any(not ch.isprintable() for ch in name):
        raise bad_request(lazy_gettext("That name has characters that cannot be shown."))
    return name


def require_lobby(table: Snapshot) -> None:
    if table.status != "lobby":
        raise conflict(lazy_gettext("The game has already started: the lobby is closed."))


def require_host(viewer: Viewer) -> None:
    if not viewer.is_host:
        raise forbidden(lazy_gettext("Only the host can do that."))


def join(table: Snapshot, name: Any, local: bool = False) -> tuple[Seat, str]:
    """Seat a player in the lobby; a local player has no phone and the host acts for
    them (their token is never handed out)."""
    name = clean_name(name)
    engine = GAMES[table.game]
    token = new_token()

    def seat(before: Snapshot) -> Change:
        require_lobby(before)
        if len(before.players) >= engine.max_players:
            raise conflict(lazy_gettext("The table is full: %(game)s takes at most %(most)s "
                                        "players.", game=lazy_gettext(engine.title),
                                        most=engine.max_players))
        taken = next((p for p in before.players if p.name_key == name.casefold()), None)
        if taken is not None:
            raise conflict(name_taken(taken.name))
        return Change(add_seats=[{"seat": len(before.players), "name": name,
                                  "name_key": name.casefold(), "local": local,
                                  "token_hash": hash_token(token)}])

    after = store.write(table, seat).table
    joined = next((p for p in after.players if p.name_key == name.casefold()), None)
    if joined is None:  # the host removed the seat the moment it was taken
        raise conflict(lazy_gettext("Your seat was taken away again; please join once more."))
    return joined, token


def _reseated(order: list[int]) -> dict[int, dict]:
    return {player_id: {"seat": seat} for seat, player_id in enumerate(order)}


def remove_player(table: Snapshot, viewer: Viewer, player_id: int) -> Snapshot:
    require_host(viewer)

    def remove(before: Snapshot) -> Change:
        require_lobby(before)
        player = seated(before, player_id)
        return Change(row={"first_player": None if before.first_player == player.id
                           else before.first_player},
                      remove_seats=[player.id],
                      edit_seats=_reseated([p.id for p in before.players if p.id != player.id]))

    return store.write(table, remove).table


def reorder(table: Snapshot, viewer: Viewer, order: Any) -> Snapshot:
    require_host(viewer)

    def seat_again(before: Snapshot) -> Change:
        require_lobby(before)
        ids = [p.id for p in before.players]
        if (not isinstance(order, list) or not all(isinstance(p, int) for p in order)
                or sorted(order) != sorted(ids)):
            raise bad_request(lazy_gettext("The new order must list every seated player once."))
        return Change(edit_seats=_reseated(order))

    return store.write(table, seat_again).table


def move_seat(table: Snapshot, viewer: Viewer, player_id: int, step: int) -> Snapshot:
    """Move a player one seat earlier (-1) or later (+1)."""
    order = [p.id for p in table.players]
    index = order.index(seated(table, player_id).id)
    other = index + step
    if 0 <= other < len(order):
        order[index], order[other] = order[other], order[index]
    return reorder(table, viewer, order)


def choose_first(table: Snapshot, viewer: Viewer, player_id: int) -> Snapshot:
    require_host(viewer)

    def choose(before: Snapshot) -> Change:
        require_lobby(before)
        return Change(row={"first_player": seated(before, player_id).id})

    return store.write(table, choose).table


# The value of `first_player` that asks the server to pick one seated player.
AT_RANDOM = "random"


def picked_message(player_id: int, role: str) -> Message:
    """The log's line naming the player picked at random to start, with what the game's
    first player does ("deals first", a word of the box: box_labels.py)."""
    return message("Picked at random: %(player)s (%(role)s).", player=Player(player_id),
                   role=Message(role))


PICKED = picked_message(0, "").id


def picked_line(player_id: int, role: str) -> Note:
    return Note(picked_message(player_id, role))


def picked_event(player_id: int, role: str, actor_key: str) -> dict:
    """The public event of a random pick, which no undo takes back."""
    return {"kind": "pick", "actor": None, "actor_key": actor_key,
            "notes": [picked_line(player_id, role).to_json()]}


def picked_in(notes: list[dict]) -> int | None:
    """The player a pick's stored line names (None if it is not a pick's line)."""
    for note in notes:
        text = text_from_json(note.get("text", ""))
        if isinstance(text, Message) and text.id == PICKED:
            player = text.params.get("player")
            return player.id if isinstance(player, Player) else None
    return None


def pick_first_at_random(table: Snapshot, viewer: Viewer) -> Snapshot:
    """The host's "Pick at random" in the lobby: the server picks one seated player (its
    own generator, never the client's) to start, and the log says whom."""
    require_host(viewer)
    role = GAMES[table.game].first_player_role

    def pick(before: Snapshot) -> Change:
        require_lobby(before)
        if not before.players:
            raise conflict(lazy_gettext("Nobody is seated yet, so there is nobody to pick."))
        chosen = secrets.choice(before.players).id
        return Change(row={"first_player": chosen},
                      events=[picked_event(chosen, role, viewer.actor_key)])

    return store.write(table, pick).table


def random_pick(table: Snapshot) -> list[dict] | None:
    """In the lobby, the stored line of the random pick that chose the player now set to
    start (None when the host chose that player, or nobody)."""
    if table.status != "lobby" or table.first_player is None:
        return None
    last = next((entry for entry in reversed(table.recent) if entry.kind == "pick"), None)
    if last is None or picked_in(last.notes) != table.first_player:
        return None
    return list(last.notes)


def rejoin(table: Snapshot, viewer: Viewer, player_id: int,
           code_to_type: bool = False) -> tuple[str, str | None]:
    """A new token for a player whose phone was lost or swapped; the old one stops
    working at once, open streams included. The token lets whoever holds it read the
    seat's secrets, so the table is told in a log line that no undo takes back. With
    `code_to_type`, also a short code the new phone may type instead (the host screen
    shows it beside the token's QR code): whichever is used first takes the seat."""
    require_host(viewer)
    token = new_token()
    code = new_rejoin_code() if code_to_type else None

    def replace(before: Snapshot) -> Change:
        player = seated(before, player_id)
        line = rejoin_line(player.id, player.local)
        return Change(
            edit_seats={player.id: {
                "token_hash": hash_token(token),
                "rejoin_code_hash": hash_rejoin_code(before.code, code) if code else None,
                "rejoin_code_until": (utcnow() + timedelta(minutes=REJOIN_CODE_MINUTES)
                                      if code else None)}},
            events=[{"kind": "rejoin", "actor": None, "actor_key": viewer.actor_key,
                     "notes": [line.to_json()]}])

    store.write(table, replace)
    return token, code


# How much of a seat's token hash a rejoin page keeps to know its code again (the host
# holds the token itself: the page shows it as a QR code).
REJOIN_SHOWN_LENGTH = 16


def rejoin_shown(token: str) -> str:
    """What the rejoin page of this token keeps, to ask later whether it still waits."""
    return hash_token(token)[:REJOIN_SHOWN_LENGTH]


def rejoin_state(table: Snapshot, viewer: Viewer, player_id: int, shown: str) -> str:
    """Where the rejoin made for this seat (`shown`, from `rejoin_shown`) stands:
    "waiting" for a new phone, "taken" by one (with its QR code or its code), "replaced"
    by a newer rejoin, or "gone" (the seat was removed)."""
    require_host(viewer)
    player = table.seat(player_id)
    if player is None:
        return "gone"
    ours = bool(shown) and player.token_hash.startswith(shown)
    if ours:
        return "waiting" if player.rejoin_code_hash is not None else "taken"
    return "replaced" if player.rejoin_code_hash is not None else "taken"


def rejoin_line(player_id: int, local: bool) -> Note:
    """The log's line when the host gives a seat to a new phone."""
    if local:
        return Note(message("The host gave %(player)s's seat to a new phone.",
                            player=Player(player_id)))
    return Note(message("The host gave %(player)s's seat to a new phone; the old phone is "
                        "signed out.", player=Player(player_id)))


def new_rejoin_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(REJOIN_CODE_LENGTH))


def typed_rejoin_code(typed: Any) -> str | None:
    """A rejoin code as typed ("bqmk-xtrd"), as it was made ("BQMKXTRD"); None for what
    cannot be one."""
    if not isinstance(typed, str) or len(typed) > 4 * REJOIN_CODE_LENGTH:
        return None
    code = re.sub(r"[\s-]", "", typed).upper()
    return code if len(code) == REJOIN_CODE_LENGTH and code.isalpha() else None


def take_seat_by_code(table: Snapshot, typed: Any) -> str:
    """The seat a rejoin code was made for, given to this phone: its new token. The code
    and the token of the seat's rejoin QR stop working (as a rejoin, the old phone's
    open streams are told). A code that is not right, or no longer valid, is refused as
    a bad entry (422)."""
    code = typed_rejoin_code(typed)
    if code is None:
        raise illegal(NO_SUCH_REJOIN_CODE)
    wanted = hash_rejoin_code(table.code, code)
    token = new_token()

    def give_seat(before: Snapshot) -> Change:
        player = next((p for p in before.players if p.rejoin_code_hash
                       and hmac.compare_digest(p.rejoin_code_hash, wanted)), None)
        if (player is None or player.rejoin_code_until is None
                or player.rejoin_code_until < utcnow()):
            raise illegal(NO_SUCH_REJOIN_CODE)
        return Change(edit_seats={player.id: {"token_hash": hash_token(token),
                                              "rejoin_code_hash": None,
                                              "rejoin_code_until": None}})

    store.write(table, give_seat)
    return token


def rejoin_qr_used(table: Snapshot, viewer: Viewer) -> None:
    """The seat was taken with its rejoin QR: the code to type for it stops working."""
    def forget_code(before: Snapshot) -> Change | None:
        player = before.seat(viewer.player_id)
        if (player is None or player.token_hash != viewer.token_hash
                or player.rejoin_code_hash is None):
            return None
        return Change(edit_seats={player.id: {"rejoin_code_hash": None,
                                              "rejoin_code_until": None}})

    store.write(table, forget_code)


def play_again(table: Snapshot, viewer: Viewer) -> tuple[str, str]:
    """A new table of the same game, options and players (in the same seats): its code
    and host token; each player's phone moves over with `follow`. The new table has
    tokens of its own: no token works at two tables."""
    require_host(viewer)
    if table.status != "finished":
        raise conflict(lazy_gettext("The game is not over yet."))
    token = new_token()
    if table.next_code:  # asked again: the host device gets a fresh key to the new table
        store.write(find(table.next_code),
                    lambda again: Change(row={"host_token_hash": hash_token(token)}))
        return table.next_code, token
    engine = GAMES[table.game]
    options = validate_options(engine, table.options)
    # The same sheet once more: its saved options count one more use, as from the form.
    name = options.get(engine.saved_by) if engine.saved_by else None
    named = store.Named(engine.id, name, options, table.clock) if name else None
    codes: list[str] = []

    def move_on(before: Snapshot) -> Change:
        if before.next_code:
            raise conflict(lazy_gettext("The next game was started already: open it from this "
                                        "screen."))
        codes.append(store.free_code())
        return Change(row={"next_code": codes[-1]}, new_table=NewTable(
            {"code": codes[-1], "game": table.game, "options": options, "clock": table.clock,
             "host_token_hash": hash_token(token), "status": "lobby", "version": 0},
            [{"seat": p.seat, "name": p.name, "name_key": p.name_key, "local": p.local,
              "token_hash": hash_token(new_token())} for p in before.players]),
            named=named)

    store.write(table, move_on)
    return codes[-1], token


def carried_seat(previous: Snapshot, viewer: Viewer | None, here: Snapshot) -> Seat | None:
    """The seat at `here` of the player this viewer was at `previous`, when `here` is the
    table the group moved on to from it with "play again" (None otherwise): the phone's
    seat at the last game is its proof."""
    if (viewer is None or viewer.player_id is None or previous.next_code != here.code
            or here.status != "lobby"):
        return None
    player = previous.seat(viewer.player_id)
    if player is None:
        return None
    return next((p for p in here.players if p.name_key == player.name_key), None)


def follow(table: Snapshot, viewer: Viewer) -> tuple[str, str]:
    """Seat this player's phone at the table the group moved on to: its code and the
    phone's new token."""
    if not table.next_code or viewer.player_id is None:
        raise not_found(lazy_gettext("There is no new game to follow yet."))
    again = find(table.next_code)
    name_key = seated(table, viewer.player_id).name_key
    seat = next((p for p in again.players if p.name_key == name_key), None)
    if seat is None:
        raise not_found(lazy_gettext("Your seat is not at the new table: join it with its "
                                         "code."))
    token = new_token()
    store.write(again, lambda _: Change(edit_seats={seat.id: {"token_hash": hash_token(token)}}))
    return again.code, token
