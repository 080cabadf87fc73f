"""Errors as the contract shapes them (JSON under /api, a page or a fragment elsewhere),
and the security headers of every response."""
from __future__ import annotations

import time

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from limits.errors import StorageError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..errors import CompanionError, unavailable
from ..extensions import limiter
from .rules_pages import refusal_rule

# The database refused a connection, dropped it, or none was free in time: a moment later
# it may answer, so the client is told to retry (phones' streams do it by themselves).
DATABASE_UNAVAILABLE = (OperationalError, PoolTimeout)
RETRY_AFTER_SECONDS = 2
# A refusal of the rate limits says when their window ends; this long when it cannot be
# read (the storage failed in between): the shortest limit's window.
LIMIT_WINDOW_SECONDS = 60

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "bad_request", 409: "conflict", 413: "bad_request", 415: "bad_request",
              429: "too_many_requests"}
HTTP_MESSAGES = {
    404: lazy_gettext("There is nothing at this address."),
    405: lazy_gettext("That address does not take this kind of request."),
    413: lazy_gettext("That request is too large."),
    429: lazy_gettext("Too many tries in a short time: wait a minute and try again."),
}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'; object-src 'none'")


def error_json(error: CompanionError) -> dict:
    """The contract's error body, with the rule a refusal of the rules cites."""
    body = error.to_json()
    rule = refusal_rule(error)
    if rule is not None:
        body["error"]["rule"] = rule
    return body


def respond(error: CompanionError):
    if request.path.startswith("/api/"):
        return jsonify(error_json(error)), error.status
    template = "_error.html" if request.headers.get("HX-Request") else "error.html"
    return render_template(template, error=error), error.status


def error_answer(error: CompanionError):
    """The error as `respond` shapes it, with Retry-After when it says when to retry."""
    body, status = respond(error)
    retry = {"Retry-After": str(error.retry_after)} if error.retry_after else {}
    return body, status, retry


def window_left() -> int:
    """The seconds until the window of the limit this request broke ends."""
    broken = limiter.current_limit
    try:
        return max(1, broken.reset_at - int(time.time())) if broken else LIMIT_WINDOW_SECONDS
    except StorageError:
        return LIMIT_WINDOW_SECONDS


def allowed_methods(exc: HTTPException) -> dict[str, str]:
    """A 405 names the methods the address takes (RFC 9110 asks for its Allow header)."""
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        return {"Allow": ", ".join(exc.valid_methods)}
    return {}


def register(app: Flask) -> None:
    """Every error's answer. Retry-After is on an answer that means it (a 503: the app's
    wait; a 429: the stream cap's, or the end of the rate limits' window), on no other."""
    app.register_error_handler(CompanionError, error_answer)

    @app.errorhandler(CSRFError)
    def csrf_refused(exc: CSRFError):
        return respond(CompanionError(
            "bad_request",
            gettext("This form has expired or came from another site: reload the page.")))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 400
        code = HTTP_CODES.get(status, "bad_request")
        message = HTTP_MESSAGES.get(status) or gettext("That request was not understood.")
        body = respond(CompanionError(code, message))[0]
        return body, status, allowed_methods(exc)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc: RateLimitExceeded):
        body, status, _ = http_error(exc)
        return body, status, {"Retry-After": str(window_left())}

    @app.errorhandler(OperationalError)
    @app.errorhandler(PoolTimeout)
    def database_unavailable(exc: Exception):
        app.logger.warning("The database is unavailable on %s %s: %s", request.method,
                           request.path, str(exc).splitlines()[0])
        body, status = respond(unavailable())
        response = app.make_response((body, status))
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("Unexpected error on %s %s", request.method, request.path)
        error = CompanionError("internal", gettext("Something went wrong on the server; "
                                                   "nothing was changed. Please try again."))
        return respond(error)[0], 500

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if response.mimetype == "text/html" or request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
