"""Companion: the banker, scorekeeper, referee and keeper of secrets beside a real
tabletop game."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask
from jinja2 import FileSystemLoader
from markupsafe import Markup
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from werkzeug.middleware.proxy_fix import ProxyFix

from . import commands, config, store
from .extensions import csrf, db, limiter, migrate, storage_options
from .games import GAMES
from .jsontext import JSONProvider, to_json
from .i18n import messages
from .web import languages
from .web.session import SessionInterface
from .web.templating import TemplateEnvironment, url_for

ROOT = Path(__file__).resolve().parent.parent
# How long a request waits for one of its process's database connections to be free
# before it is answered 503 (the pool never opens more than it was given).
POOL_TIMEOUT_SECONDS = 10


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(__name__, instance_path=str(ROOT / "instance"),
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.json = JSONProvider(app)
    app.session_interface = SessionInterface()
    app.jinja_environment = TemplateEnvironment
    app.jinja_loader = FileSystemLoader([str(root / "templates") for root in file_roots()])
    app.config.from_mapping(config.from_environment(app.instance_path))
    if overrides:
        app.config.update(overrides)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(app.config))
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS",
                          storage_options(app.config["RATELIMIT_STORAGE_URI"]))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if app.config["PROXIES"]:
        trusted = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's way to wrap it
            app.wsgi_app, x_for=trusted, x_proto=trusted, x_host=trusted)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    limiter.init_app(app)
    languages.register(app)

    from .web import (api, box_labels, compress, display, downloads, ending, errors,
                      handing_on, health, links, lobby, panel_parts, pictures, public_part,
                      replay, rules_pages, screen_stream, screens, sheet_pieces, table_clock,
                      teaching_screens, teams_shown)
    from .web import stream_limits
    app.register_blueprint(health.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(screen_stream.bp)
    app.register_blueprint(ending.bp)
    app.register_blueprint(display.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(downloads.bp)
    app.register_blueprint(handing_on.bp)
    app.register_blueprint(pictures.bp)
    app.register_blueprint(table_clock.bp)
    app.register_blueprint(rules_pages.bp)
    app.register_blueprint(teaching_screens.bp)
    app.register_blueprint(teams_shown.bp)
    errors.register(app)
    stream_limits.register(app)
    compress.register(app, [root / "static" for root in file_roots()])
    commands.register(app)
    app.jinja_env.globals["url_for"] = url_for
    jinja_env = app.jinja_env
    if isinstance(jinja_env, TemplateEnvironment):
        app.jinja_env.globals["has_template"] = jinja_env.has_template
    app.jinja_env.globals["qr_svg"] = links.qr_svg
    app.jinja_env.globals["game_name"] = box_labels.game_name
    app.jinja_env.filters["name_list"] = name_list
    app.jinja_env.filters["and_list"] = and_list
    app.jinja_env.filters["breakable_url"] = links.breakable
    app.jinja_env.filters.update(public_part.FILTERS)
    app.jinja_env.globals.update(public_part.GLOBALS)
    app.jinja_env.globals["own_turn_html"] = panel_parts.own_turn_html
    app.jinja_env.globals["own_turn_element"] = panel_parts.own_turn_element
    app.jinja_env.globals.update(sheet_pieces.GLOBALS)

    _watch_other_processes(app)
    return app


def upgrade_database(app: Flask) -> None:
    """Bring the database schema up to date (Alembic), quietly: a server starting prints
    only its address (migrations/env.py). Servers starting together on one PostgreSQL
    take turns: the first upgrades, the others then find nothing to do."""
    from flask_migrate import upgrade

    def upgrade_quietly() -> None:
        upgrade(x_arg=["log=warnings"])

    with app.app_context(), store.schema_upgrade_lock():
        upgrade_quietly()


def file_roots() -> list[Path]:
    """Where templates/ and static/ are searched: the app's own, then the folder of any
    registered game that keeps its files outside the app (`Game.files`)."""
    return [ROOT] + [game.files for game in GAMES.values() if game.files is not None]


def engine_options(settings) -> dict:
    """A server database serves every process of every server within its
    max_connections: each process keeps at most DB_POOL connections (and its one LISTEN
    connection), and a request waits briefly for a free one rather than opening more.
    Connections are tested before use, as a server can drop them (a restart). A SQLite
    file has no such limit and cannot drop a connection; a request waits up to
    SQLITE_BUSY_SECONDS for a lock another process holds, then is answered 503."""
    if make_url(settings["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "sqlite":
        return {"pool_size": 10, "max_overflow": 90, "json_serializer": to_json,
                "connect_args": {"timeout": settings.get("SQLITE_BUSY_SECONDS", 30)}}
    options = {"pool_size": settings["DB_POOL"], "max_overflow": 0, "json_serializer": to_json,
               "pool_timeout": POOL_TIMEOUT_SECONDS, "pool_pre_ping": True}
    if settings.get("LISTEN_URL"):
        # DATABASE_URL goes through a transaction pool (PgBouncer), where a statement
        # prepared in one transaction's session is gone in the next one's.
        options["connect_args"] = {"prepare_threshold": None}
    return options


def and_list(items: list) -> Markup:
    """Words (text or markup) listed as "A, B and C" in the screen's language, each
    escaped unless it is markup."""
    return messages.words_listed(items)


def name_list(player_ids: list[int], names: dict[int, str]) -> str:
    return messages.names_listed(player_ids, names)


def _watch_other_processes(app: Flask) -> None:
    def read_versions(codes: list[str]) -> dict[str, int]:
        with app.app_context():
            return store.history.versions_of(codes)

    app.extensions["companion_read_versions"] = read_versions
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    listen = make_url(app.config.get("LISTEN_URL") or url)
    app.extensions["companion_listen_dsn"] = (
        listen.set(drivername="postgresql").render_as_string(hide_password=False)
        if url.get_backend_name() == "postgresql" else None)
