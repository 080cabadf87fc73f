"""Creating a table, seating its players in the lobby, and moving on to the next game."""
from __future__ import annotations

import hmac
import re
import secrets
from datetime import timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func

from ..auth import Viewer, hash_rejoin_code, hash_token, new_token
from ..errors import bad_request, conflict, forbidden, not_found
from ..extensions import db
from ..games import GAMES, Game
from ..games.engine import Note
from ..models import Event, Player, SavedDefaults, Table, utcnow
from ..snapshots import Seat, Snapshot
from .checks import validation_message
from .read import CODE_LENGTH, NO_SUCH_PLAYER, find, seated
from .write import WRITE_RETRIES, change

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: no words, no 0/O or 1/I mix-ups
NAME_MAX = 24
# A rejoin code to type: 20^8 codes, good once for a few minutes, and a wrong one counts
# against the address's failed look-ups (extensions.LOOKUP_MISSES).
REJOIN_CODE_LENGTH = 8
REJOIN_CODE_MINUTES = 15
NO_SUCH_REJOIN_CODE = ("That rejoin code is not right, or it is no longer valid: check it on "
                       "the host screen, or ask the host for a new one.")


def new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if db.session.execute(db.select(Table.id).where(Table.code == code)).first() is None:
            return code


def validate_options(engine: Game, options: Any) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad_request("Options must be an object.")
    try:
        chosen = engine.Options.model_validate(options)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None
    return chosen.model_dump(mode="json", exclude_unset=True)


def saved_defaults(engine: Game) -> dict:
    """The option values saved as this server's defaults for a game ({} if none)."""
    saved = db.session.get(SavedDefaults, engine.id)
    return dict(saved.options) if saved else {}


def save_defaults(engine: Game, options: Any) -> None:
    chosen = validate_options(engine, options)
    saved = db.session.get(SavedDefaults, engine.id)
    if saved is None:
        db.session.add(SavedDefaults(game=engine.id, options=chosen))
    else:
        saved.options, saved.saved_at = chosen, utcnow()
    db.session.commit()


def create_table(game_id: Any, options: Any) -> tuple[str, str]:
    """A new table in its lobby, its code and host token; options not given take this
    server's saved defaults, then the game's own."""
    engine = GAMES.get(game_id) if isinstance(game_id, str) else None
    if engine is None:
        raise bad_request("Pick one of the games: " + ", ".join(GAMES) + ".")
    if isinstance(options, dict):
        options = {**saved_defaults(engine), **options}
    chosen = validate_options(engine, options)
    token = new_token()
    for _ in range(WRITE_RETRIES):
        code = new_code()
        db.session.add(Table(code=code, game=engine.id, options=chosen,
                             host_token_hash=hash_token(token), status="lobby", version=0))
        try:
            db.session.commit()
        except Exception:  # a code taken by a concurrent creation: draw another
            db.session.rollback()
            continue
        return code, token
    raise conflict("Could not find a free room code; please try again.")


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise bad_request("A name is a piece of text.")
    name = " ".join(name.split())
    if not name:
        raise bad_request("Please type a name.")
    if len(name) > NAME_MAX:
        raise bad_request(f"Names are at most {NAME_MAX} characters.")
    if any(not ch.isprintable() for ch in name):
        raise bad_request("That name has characters that cannot be shown.")
    return name


def require_lobby(row: Table) -> None:
    if row.status != "lobby":
        raise conflict("The game has already started: the lobby is closed.")


def require_host(viewer: Viewer) -> None:
    if not viewer.is_host:
        raise forbidden("Only the host can do that.")


def player_at(row: Table, player_id: Any) -> Player:
    """The player of this id at the table's row, to change."""
    player = next((p for p in row.players
                   if isinstance(player_id, int) and p.id == player_id), None)
    if player is None:
        raise not_found(NO_SUCH_PLAYER)
    return player


def join(table: Snapshot, name: Any, local: bool = False) -> tuple[Seat, str]:
    """Seat a player in the lobby; a local player has no phone and the host acts for
    them (their token is never handed out)."""
    name = clean_name(name)
    engine = GAMES[table.game]
    token = new_token()
    joined: dict[str, Seat] = {}

    def seat(row: Table) -> dict:
        require_lobby(row)
        if len(row.players) >= engine.max_players:
            raise conflict(f"The table is full: {engine.title} takes at most "
                           f"{engine.max_players} players.")
        if any(p.name_key == name.casefold() for p in row.players):
            raise conflict(f"Someone at this table is already called {name}.")
        player = Player(table_id=row.id, seat=len(row.players), name=name,
                        name_key=name.casefold(), token_hash=hash_token(token), local=local)
        db.session.add(player)
        db.session.flush()
        joined["seat"] = Seat.of(player)
        return {}

    change(table, seat)
    return joined["seat"], token


def remove_player(table: Snapshot, viewer: Viewer, player_id: int) -> Snapshot:
    require_host(viewer)

    def remove(row: Table) -> dict:
        require_lobby(row)
        player = player_at(row, player_id)
        db.session.delete(player)
        for seat, other in enumerate(p for p in row.players if p.id != player.id):
            other.seat = seat
        return {"first_player": None if row.first_player == player_id else row.first_player}

    return change(table, remove)


def reorder(table: Snapshot, viewer: Viewer, order: Any) -> Snapshot:
    require_host(viewer)

    def seat_again(row: Table) -> dict:
        require_lobby(row)
        ids = [p.id for p in row.players]
        if not isinstance(order, list) or sorted(order) != sorted(ids):
            raise bad_request("The new order must list every seated player once.")
        by_id = {p.id: p for p in row.players}
        for seat, player_id in enumerate(order):
            by_id[player_id].seat = seat
        return {}

    return change(table, seat_again)


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

    def choose(row: Table) -> dict:
        require_lobby(row)
        return {"first_player": player_at(row, player_id).id}

    return change(table, choose)


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

    def replace(row: Table) -> dict:
        player = player_at(row, player_id)
        player.token_hash = hash_token(token)
        player.rejoin_code_hash = hash_rejoin_code(row.code, code) if code else None
        player.rejoin_code_until = (utcnow() + timedelta(minutes=REJOIN_CODE_MINUTES)
                                    if code else None)
        return {}

    def tell_the_table(row: Table, new_version: int) -> None:
        had_a_phone = not player_at(row, player_id).local
        line = Note(f"The host gave {{name:{player_id}}}'s seat to a new phone"
                    + ("; the old phone is signed out." if had_a_phone else "."))
        last = db.session.execute(
            db.select(func.max(Event.seq)).where(Event.table_id == row.id)).scalar()
        db.session.add(Event(table_id=row.id, seq=(last or 0) + 1, kind="rejoin",
                             actor=None, actor_key=viewer.actor_key, action=None,
                             notes=[line.to_json()], version=new_version))

    change(table, replace, tell_the_table)
    return token, code


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
    open streams are told)."""
    code = typed_rejoin_code(typed)
    if code is None:
        raise not_found(NO_SUCH_REJOIN_CODE)
    wanted = hash_rejoin_code(table.code, code)
    token = new_token()

    def give_seat(row: Table) -> dict:
        player = next((p for p in row.players if p.rejoin_code_hash
                       and hmac.compare_digest(p.rejoin_code_hash, wanted)), None)
        if player is None or player.rejoin_code_until < utcnow():
            raise not_found(NO_SUCH_REJOIN_CODE)
        player.token_hash = hash_token(token)
        player.rejoin_code_hash = player.rejoin_code_until = None
        return {}

    change(table, give_seat)
    return token


def rejoin_qr_used(table: Snapshot, viewer: Viewer) -> None:
    """The seat was taken with its rejoin QR: the code to type for it stops working."""
    pending = db.session.execute(db.select(Player.id).where(
        Player.id == viewer.player_id, Player.token_hash == viewer.token_hash,
        Player.rejoin_code_hash.is_not(None))).first()
    if pending is None:
        return

    def forget_code(row: Table) -> dict:
        player = player_at(row, viewer.player_id)
        if player.token_hash == viewer.token_hash:
            player.rejoin_code_hash = player.rejoin_code_until = None
        return {}

    change(table, forget_code)


def play_again(table: Snapshot, viewer: Viewer) -> tuple[str, str]:
    """A new table of the same game, options and players (in the same seats): its code
    and host token; each player's phone moves over with `follow`. The new table has
    tokens of its own: no token works at two tables."""
    require_host(viewer)
    if table.status != "finished":
        raise conflict("The game is not over yet.")
    token = new_token()
    if table.next_code:  # asked again: the host device gets a fresh key to the new table
        change(find(table.next_code), lambda again: {"host_token_hash": hash_token(token)})
        return table.next_code, token
    code = new_code()
    again = Table(code=code, game=table.game,
                  options=validate_options(GAMES[table.game], table.options),
                  host_token_hash=hash_token(token), status="lobby", version=0)
    db.session.add(again)
    db.session.flush()
    for player in table.players:
        db.session.add(Player(table_id=again.id, seat=player.seat, name=player.name,
                              name_key=player.name_key, local=player.local,
                              token_hash=hash_token(new_token())))
    change(table, lambda row: {"next_code": code})
    return code, token


def follow(table: Snapshot, viewer: Viewer) -> tuple[str, str]:
    """Seat this player's phone at the table the group moved on to: its code and the
    phone's new token."""
    if not table.next_code or viewer.player_id is None:
        raise not_found("There is no new game to follow yet.")
    again = find(table.next_code)
    name_key = seated(table, viewer.player_id).name_key
    seat = next((p for p in again.players if p.name_key == name_key), None)
    if seat is None:
        raise not_found("Your seat is not at the new table: join it with its code.")
    token = new_token()

    def give_seat(row: Table) -> dict:
        player_at(row, seat.id).token_hash = hash_token(token)
        return {}

    change(again, give_seat)
    return again.code, token
