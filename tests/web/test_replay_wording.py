"""A replay shows every player's secrets at once, to anyone: each seat's are named by its
player ("Ann's bank"), never worded for the reader ("Your bank", "you hold"), in every
game and every language. The check is by class: any message whose English speaks to the
reader ("you", "your"), in whatever language it is read, fails it wherever a seat's
secrets are shown."""
from __future__ import annotations

import re
from html import unescape

import pytest

from companion.games import GAMES
from companion.web.languages import SHIPPED
from tests.support.api import Api
from tests.support.app import ROOT
from tests.support.catalogs import PLACEHOLDER_OR_TAG, read_catalog

SPOKEN_TO = re.compile(r"\byou(rs?|rself)?\b", re.IGNORECASE)
SECRETS = re.compile(r'class="replay-secrets".*?(?=<p class="row">)', re.DOTALL)
STEPS_A_GAME = 12
OPTIONS = {"go-big": {"copies_per_value": 4}, "score-sheet": {"secret": True}}


def worded_for_the_reader(language: str) -> list[tuple[str, re.Pattern]]:
    """Each message whose English speaks to the reader, as its text in `language` reads
    (a placeholder standing for any words, a tag for none)."""
    if language == "en":
        return [("you", SPOKEN_TO)]
    catalog = read_catalog(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po")
    found = [("you", SPOKEN_TO)]  # English left in the page (a game's own template)
    for message in catalog:
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or not any(SPOKEN_TO.search(text) for text in english):
            continue
        translated = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in translated:
            if len(re.sub(PLACEHOLDER_OR_TAG, "", text).strip()) < 5:
                continue
            pattern = "".join(
                ".+?" if part.startswith("%") else r"\s*" if part.startswith("<")
                else r"\s+".join(map(re.escape, part.split()))
                + (r"\s*" if part[:1].isspace() or part[-1:].isspace() else "")
                for part in re.split(f"({PLACEHOLDER_OR_TAG.pattern})", text) if part)
            found.append((text, re.compile(pattern)))
    return found


def secrets_read(html: str) -> str:
    """The secrets part of a replay's page: its text and its labels, one string."""
    part = SECRETS.search(html)
    assert part, "no secrets shown"
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', part.group(0)))
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part.group(0)) + " " + labels))


@pytest.mark.parametrize("game", [game for game in GAMES])
def test_no_seats_secrets_are_worded_for_the_reader_in_a_replay(app, game):
    engine = GAMES[game]
    players = ("Ann", "Ben", "Cat")[:max(engine.min_players, min(3, engine.max_players))]
    table = Api(client=app.test_client()).table(
        game, players=players, seed=11,
        options=OPTIONS.get(game))
    table.finish()
    client = app.test_client()
    last = int(re.search(r'id="replay-slider"[^>]*max="(\d+)"',
                         client.get(f"/t/{table.code}/replay").get_data(as_text=True)).group(1))
    steps = sorted({*range(0, last, max(1, last // STEPS_A_GAME)), last})
    shown = 0
    for language in SHIPPED:
        wordings = worded_for_the_reader(language)
        for step in steps:
            response = client.get(f"/t/{table.code}/replay?step={step}",
                                  headers={"Accept-Language": language})
            assert response.status_code == 200
            html = response.get_data(as_text=True)
            if 'class="replay-secrets"' not in html:
                continue
            shown += 1
            text = secrets_read(html)
            for source, wording in wordings:
                found = wording.search(text)
                assert not found, (f"{game}, {language}, step {step}: {found.group(0)!r} "
                                   f"({source!r}) in {text!r}")
    if game not in ("big-money",):  # a game whose players keep no secrets
        assert shown, f"{game}: no step showed a seat's secrets"
