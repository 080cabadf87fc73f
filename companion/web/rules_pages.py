"""The rules of each game as a page (/rules/GAME), in the reader's language and in this
project's own words, and the rule a refusal cites: its title and its address."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from pydantic import ValidationError

from ..errors import CompanionError, RuleRef
from ..games import GAMES
from ..i18n import messages
from ..snapshots import Snapshot
from ..table import read

bp = Blueprint("rules", __name__)


def rule_title(game: str, section: str) -> str:
    return messages.render(GAMES[game].rule_sections[section], {})


def rule_address(game: str, section: str | None, code: str | None = None) -> str:
    """The rules page of `game` opened at `section`; from a table (`code`), its setup
    names what that table's options and players need."""
    return url_for("rules.page", game=game, table=code, _anchor=section)


def rule_json(rule: RuleRef) -> dict[str, Any]:
    """The `rule` of a refusal as the API gives it."""
    return {"id": rule.section, "title": rule_title(rule.game, rule.section),
            "url": rule_address(rule.game, rule.section)}


def has_rules_page(game: str) -> bool:
    return game in GAMES and bool(GAMES[game].rule_sections)


@bp.app_template_global()
def rules_link(table: Snapshot) -> str | None:
    """A screen's "Rules": the page, opened at the section of the step the table is at
    when the link is followed (so the link is the same at every step: it is part of no
    change a screen is sent)."""
    if not has_rules_page(table.game):
        return None
    return url_for("rules.page", game=table.game, table=table.code, at="now")


def section_now(table: Snapshot) -> str | None:
    """The section of the rules for the step the table is at (None: the page's top)."""
    return GAMES[table.game].rule_for(table.state) if table.status == "playing" else "setup"


@bp.app_template_global()
def refusal_rule(error: Any) -> dict[str, Any] | None:
    """The rule a refusal shown on a screen cites, with its title and address."""
    rule = getattr(error, "rule", None)
    if rule is None or not has_rules_page(rule.game):
        return None
    return rule_json(rule) if rule.section in GAMES[rule.game].rule_sections else None


@bp.app_template_global()
def why_not_lines(table: Snapshot, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer's "why not" lines: why a move they may look for is not offered, each
    with the rule that says so."""
    if table.status != "playing" or not has_rules_page(table.game):
        return []
    names = read.names_of(table)
    sections = GAMES[table.game].rule_sections
    return [{"text": messages.render(reason.message, names, html=True),
             "rule": (rule_json(RuleRef(table.game, reason.rule))
                      if reason.rule is not None and reason.rule in sections else None)}
            for reason in GAMES[table.game].why_not(table.state, view["you"])]


@bp.app_template_global()
def setup_lines(table: Snapshot) -> list[str]:
    """What this table's options and players need dealt and laid out at the table (for
    the game's fewest players while fewer have joined)."""
    engine = GAMES[table.game]
    players = max(len(table.players), engine.min_players)
    try:
        options = engine.options_for(table.options, players)
    except ValidationError:
        return []
    return [messages.render(line, {}) for line in engine.setup_checklist(options, players)]


def table_of_the_link(code: str | None, game: str) -> Snapshot | None:
    """The table a rules link was followed from, while it is there and plays this game:
    a link kept from a table since removed, or naming another game's, opens the rules
    alone."""
    try:
        table = read.find(code) if code else None
    except CompanionError:
        return None
    return table if table is not None and table.game == game else None


@bp.get("/rules/<game>")
def page(game: str):
    if not has_rules_page(game):
        abort(404)
    engine = GAMES[game]
    table = table_of_the_link(request.args.get("table"), game)
    if table is not None and request.args.get("at") == "now":
        return redirect(rule_address(game, section_now(table), table.code), code=303)
    checklist = setup_lines(table) if table is not None else []
    return render_template(
        "rules/page.html", game=game, engine=engine, folder=engine.folder, table=table,
        checklist=checklist,
        sections=[(section, rule_title(game, section)) for section in engine.rule_sections])
