"""Tokens and "who is asking": every request is resolved to a Viewer of one table."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from flask import Request, current_app
from flask_babel import lazy_gettext

from .errors import CompanionError
from .snapshots import Snapshot

COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_rejoin_code(table_code: str, code: str) -> str:
    """A rejoin code as it is kept: keyed with the server's secret, so that a copy of the
    database alone does not let anyone try every code."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, f"{table_code}:{code}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a table: a seated player, the host, or anyone (the public)."""

    player_id: int | None = None
    is_host: bool = False
    token_hash: str | None = None

    @property
    def actor_key(self) -> str:
        return "host" if self.is_host else f"p{self.player_id}"


PUBLIC = Viewer()


def player_cookie(code: str) -> str:
    return f"companion_{code}"


PLAYER_COOKIE = re.compile(r"companion_([A-Z]{4,8})")  # player_cookie's names (never a host's)


def seated_codes(cookies: Mapping[str, str]) -> list[str]:
    """The room codes of the tables this request holds a player cookie of."""
    return [found.group(1) for name in cookies if (found := PLAYER_COOKIE.fullmatch(name))]


def host_cookie(code: str) -> str:
    return f"companion_host_{code}"


def viewer_for_token(table: Snapshot, token: str) -> Viewer | None:
    """The viewer a token stands for at this table, or None for a token that is not
    (or no longer) valid here. A token of another table gives nothing."""
    if not token or len(token) > 200:
        return None
    digest = hash_token(token)
    if hmac.compare_digest(digest, table.host_token_hash):
        return Viewer(is_host=True, token_hash=digest)
    for player in table.players:
        if hmac.compare_digest(digest, player.token_hash):
            return Viewer(player_id=player.id, token_hash=digest)
    return None


def bearer_viewer(table: Snapshot, request: Request) -> Viewer:
    """The API's viewer: a bearer token, or the public view when there is none."""
    header = request.headers.get("Authorization", "")
    if not header:
        return PUBLIC
    scheme, _, token = header.partition(" ")
    viewer = viewer_for_token(table, token.strip()) if scheme.lower() == "bearer" else None
    if viewer is None:
        raise CompanionError("unauthorized",
                            lazy_gettext("That token is not valid at this table."))
    return viewer


def cookie_viewer(table: Snapshot, request: Request, host: bool = False) -> Viewer | None:
    """The screens' viewer: the host cookie for the host screen, else the player cookie."""
    name = host_cookie(table.code) if host else player_cookie(table.code)
    viewer = viewer_for_token(table, request.cookies.get(name, ""))
    if viewer is None or viewer.is_host != host:
        return None
    return viewer


def still_valid(seated: Snapshot, viewer: Viewer) -> bool:
    """False once a player's token has been replaced (a rejoin QR revokes it)."""
    if viewer.player_id is None:
        return True
    return any(p.id == viewer.player_id and p.token_hash == viewer.token_hash
               for p in seated.players)
