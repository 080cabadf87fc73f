"""Flask's signed-cookie session, which holds a form's CSRF token, read only where a
screen may use it. The API takes a bearer token and static files take nothing, so their
requests neither verify the cookie nor set it (an error page there may still render a
token, which is then not kept); and the cookie's signer is made once, not at every
request (Flask makes it anew; what that cost: docs/performance.md, "CPU per move")."""
from __future__ import annotations

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

STATELESS_PATHS = ("/api/", "/static/")


class UnkeptSession(SecureCookieSession):
    """The session of a request that neither reads nor keeps one."""


class SessionInterface(SecureCookieSessionInterface):
    def open_session(self, app: Flask, request: Request):
        if request.path.startswith(STATELESS_PATHS):
            return UnkeptSession()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session, response: Response) -> None:
        if isinstance(session, UnkeptSession):
            return
        super().save_session(app, session, response)

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = app.extensions.get("companion_session_signer")
        if made is None or made[0] != keys:
            made = app.extensions["companion_session_signer"] = (
                keys, super().get_signing_serializer(app))
        return made[1]
