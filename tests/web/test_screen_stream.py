"""A screen's stream sends what a change changed: the table's parts as one event, the same
bytes for every screen of a language, and a viewer's own part only when it changed; the
whole panel when the page connects behind the table."""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from flask import template_rendered

from companion.auth import PUBLIC
from companion.table import read
from companion.web.screen_stream import ScreenStream
from tests.support.api import Api
from tests.support.pages import text_of
from tests.support.streams import Stream

OOB_PARTS = ('<div id="public-turn" hx-swap-oob="morph"', '<div id="public" hx-swap-oob="morph"',
             '<section class="log" id="public-log" hx-swap-oob="morph"')


def sheet_on_screens(server, players: tuple[str, ...], entered: tuple[str, ...]):
    """A sheet of `players`, each entering their own row, round 1 entered by `entered`;
    and every screen's stream, its panel read."""
    api = Api(server.url, app=server.app)
    table = api.table("score-sheet", players=players,
                      options={"categories": ["Points"], "entry": "players", "rounds": 5})
    for name in entered:
        table.act(table.tokens[name], type="enter", round=1, scores={"Points": 1})
    streams = screens(server, table, table.view()["version"] - 1)
    try:
        for stream in streams.values():
            assert stream.get(timeout=5)[0] == "panel"
    except BaseException:
        for stream in streams.values():
            stream.close()
        raise
    return table, streams


@contextmanager
def rendered_for(app, name: str) -> Iterator[list[tuple[str, int | None]]]:
    """Each screen and viewer (`view.you`) template `name` is rendered for meanwhile."""
    found: list[tuple[str, int | None]] = []

    def record(sender, template, context, **extra):
        if template.name == name:
            found.append((context["screen"], context["view"]["you"]))
    template_rendered.connect(record, app)
    try:
        yield found
    finally:
        template_rendered.disconnect(record, app)


def screens(server, table, version: int, language: str = "en") -> dict[str, Stream]:
    """Every screen's stream of the table, from `version`: each phone, the host, the TV."""
    url = f"{server.url}/t/{table.code}/events?since={version}&screen="
    headers = {"Accept-Language": language}
    found = {name: Stream(url + "phone", cookies={f"companion_{table.code}": token},
                          headers=headers, label=name)
             for name, token in table.tokens.items()}
    found["host"] = Stream(url + "host", cookies={f"companion_host_{table.code}": table.host},
                           headers=headers, label="host")
    found["display"] = Stream(f"{server.url}/d/{table.code}/events?since={version}",
                              headers=headers, label="display")
    return found


def test_a_move_sends_every_screen_the_same_table_parts_and_own_parts_only_where_changed(
        live_server):
    api = Api(live_server.url, app=live_server.app)
    table = api.table()
    version = table.view()["version"]
    streams = screens(live_server, table, version)
    try:
        table.act(table.tokens["Ann"], type="play", value=2, count=1)
        for stream in streams.values():  # the first change after connecting: the whole panel
            name, html = stream.get(timeout=5)
            assert name == "panel" and f'data-version="{version + 1}"' in html
        table.act(table.tokens["Ann"], type="draw", source="deck")
        sent = {}
        for label, stream in streams.items():
            name, public = stream.get(timeout=5)
            assert name == "public", (label, name)
            sent[label] = public
            own = stream.get(timeout=2) if label in ("Ann", "Ben") else None
            sent[label + " own"] = own
        publics = {sent[label] for label in streams}
        assert len(publics) == 1  # the same bytes for every screen
        public = publics.pop()
        assert OOB_PARTS[0] in public and OOB_PARTS[2] in public and "&lt;" not in public
        assert f'data-version="{version + 2}"' in public
        # Of the board, the pieces the draw changed: the deck, Ann's hand, whose turn.
        assert OOB_PARTS[1] not in public and f'data-base="{version + 1}"' in public
        changed = {f"go-big-seat-{table.ids[name]}" for name in ("Ann", "Ben")} | {
            "go-big-counts"}
        assert set(re.findall(r'id="([\w-]+)" data-piece hx-swap-oob', public)) == changed
        assert "Ann drew 2 cards from the deck." in text_of(public)
        assert "Your turn" not in public and "data-yours" not in public
        # Ann drew (her hand, her undo) and Ben's turn came (his moves): their own parts.
        for name in ("Ann", "Ben"):
            kind, own = sent[name + " own"]
            assert kind == "own" and f'data-version="{version + 2}"' in own
            assert 'id="own-head" hx-swap-oob="morph"' in own
        assert "Your turn" in sent["Ben own"][1] and 'data-your-turn' in sent["Ben own"][1]
        # Cat's part and the TV's did not change: the table's parts and nothing else.
        for label in ("Cat", "display"):
            assert streams[label].empty(), label
    finally:
        for stream in streams.values():
            stream.close()


def test_a_phone_whose_undo_alone_went_renders_and_is_sent_its_foot_alone(live_server):
    """Ann drew and may undo it; then Ben plays. Of Ann's own part only her undo button
    went: her stream renders her foot alone (not her moves, her hand or her log lines,
    which read nothing that changed) and sends it without the button."""
    api = Api(live_server.url, app=live_server.app)
    table = api.table()
    ann = table.ids["Ann"]
    version = table.view()["version"]
    stream = Stream(f"{live_server.url}/t/{table.code}/events?since={version}&screen=phone",
                    cookies={f"companion_{table.code}": table.tokens["Ann"]}, label="Ann")
    rendered: list[str] = []

    def for_ann(sender, template, context, **extra):
        if (context.get("view") or {}).get("you") == ann:
            rendered.append(template.name)
    template_rendered.connect(for_ann, live_server.app)
    try:
        table.act(table.tokens["Ann"], type="play", value=2, count=1)
        name, panel = stream.get(timeout=5)
        assert name == "panel" and "Undo the last move" in panel
        table.act(table.tokens["Ann"], type="draw", source="deck")
        assert stream.get(timeout=5)[0] == "public"
        assert stream.get(timeout=5)[0] == "own"  # her hand, her moves gone; still her undo
        rendered.clear()
        token, move = table.next_move()
        assert token == table.tokens["Ben"]
        assert table.act(token, **move)[0] == 200
        assert stream.get(timeout=5)[0] == "public"
        name, own = stream.get(timeout=5)
        assert name == "own" and f'data-version="{version + 3}"' in own
        assert 'id="own-foot"' in own and "Undo the last move" not in own
        assert 'id="own-head"' not in own and 'id="own-lines"' not in own
        assert "table/_own_foot.html" in rendered
        assert "table/_own_event.html" not in rendered
        assert "table/_own_head.html" not in rendered
    finally:
        template_rendered.disconnect(for_ann, live_server.app)
        stream.close()


def test_each_language_has_its_own_table_parts(live_server):
    api = Api(live_server.url, app=live_server.app)
    table = api.table()
    version = table.view()["version"]
    english, german = (screens(live_server, table, version - 1, language)
                       for language in ("en", "de"))
    try:
        for stream in [*english.values(), *german.values()]:
            assert stream.get(timeout=5)[0] == "panel"  # connected behind: the whole panel
        table.act(table.tokens["Ann"], type="play", value=2, count=1)
        sent = {}
        for language, streams in (("en", english), ("de", german)):
            sent[language] = {s.wait_for(lambda e: e[0] == "public")[1] for s in streams.values()}
        assert len(sent["en"]) == len(sent["de"]) == 1 and sent["en"] != sent["de"]
        assert "Ann played a single 2." in text_of(sent["en"].pop())
        assert "Last events" not in text_of(sent["de"].pop())
    finally:
        for stream in [*english.values(), *german.values()]:
            stream.close()


def test_a_page_that_reconnects_behind_the_table_gets_its_whole_panel(live_server):
    api = Api(live_server.url, app=live_server.app)
    table = api.table()
    version = table.view()["version"]
    first = screens(live_server, table, version)["Cat"]
    table.act(table.tokens["Ann"], type="play", value=2, count=1)
    table.act(table.tokens["Ann"], type="draw", source="deck")
    first.reaches(version + 2)
    first.close()
    token, action = table.next_move()
    table.act(token, **action)
    again = screens(live_server, table, version + 2)["Cat"]
    try:
        name, html = again.get(timeout=5)
        assert name == "panel" and re.search(r'<section id="panel"[^>]*data-version', html)
        assert f'data-version="{table.view()["version"]}"' in html
        assert 'id="own-head"' in html and 'id="public"' in html
    finally:
        again.close()


def test_an_entry_on_a_score_sheet_sends_the_pieces_it_changed(live_server):
    """Another player's entry: the open round's row and the "entered" line, not the sheet;
    the round's last entry closes it, a new row: the whole sheet once."""
    api = Api(live_server.url, app=live_server.app)
    players = ("Ann", "Ben", "Cat", "Dan")
    table = api.table("score-sheet", players=players,
                      options={"categories": ["Points"], "entry": "players", "rounds": 5})
    ids = table.ids
    for name in players:  # a round entered: the sheet has a row of its own
        table.act(table.tokens[name], type="enter", round=1, scores={"Points": ids[name]})
    version = table.view()["version"]
    streams = screens(live_server, table, version - 1)
    try:
        for stream in streams.values():
            assert stream.get(timeout=5)[0] == "panel"
        table.act(table.tokens["Ann"], type="enter", round=2, scores={"Points": 7})
        public = {label: stream.wait_for(lambda e: e[0] == "public")[1]
                  for label, stream in streams.items()}
        assert len(set(public.values())) == 1
        sent = public["Cat"]
        assert f'data-base="{version}"' in sent and 'id="public" ' not in sent
        assert re.findall(r'<template><(?:tr|p) id="([\w-]+)" data-piece hx-swap-oob',
                          sent) == [
            "sheet-entered", "sheet-open"]
        pieces = re.sub(r"</?template>", "", sent)  # (each piece in a template of its own)
        assert "Entered for round 2: 1 of 4." in text_of(pieces)
        assert len(sent.encode()) < 4096
        for name in ("Ben", "Cat", "Dan"):
            table.act(table.tokens[name], type="enter", round=2, scores={"Points": 1})
        closed = streams["Cat"].wait_for(
            lambda e: e[0] == "public" and "Entered for round 3" in e[1])[1]
        assert 'id="public" hx-swap-oob="morph"' in closed and "data-base" not in closed
    finally:
        for stream in streams.values():
            stream.close()


def test_a_rounds_first_entry_renders_the_own_part_only_of_screens_it_changed(live_server):
    """Ann's entry opens round 2's "entered" line: of the own parts, only hers (her entry
    in) reads anything it changed. The other phones and the display render only their
    turn line; the host's "end" would read it, but a sheet of set rounds offers none; and
    the host's entry for one player reads who has entered only of the players without a
    phone, whose rows it enters (none here)."""
    table, streams = sheet_on_screens(live_server, ("Ann", "Ben", "Cat"),
                                      entered=("Ann", "Ben", "Cat"))
    try:
        with rendered_for(live_server.app, "table/_own_event.html") as rendered:
            table.act(table.tokens["Ann"], type="enter", round=2, scores={"Points": 7})
            for stream in streams.values():
                stream.wait_for(lambda e: e[0] == "public")
        assert rendered == [("phone", table.ids["Ann"])]
    finally:
        for stream in streams.values():
            stream.close()


def test_the_players_a_sheet_no_longer_awaits_share_one_turn_line(live_server):
    """Cat's entry leaves Ann, Ben and Cat entered: their phones' turn line is worked out
    once between them (the table awaits none of them), Dan's, who is still awaited, for
    him alone; each phone is sent what it reads."""
    players = ("Ann", "Ben", "Cat", "Dan")
    table, streams = sheet_on_screens(live_server, players, entered=("Ann", "Ben"))
    try:
        with rendered_for(live_server.app, "table/_turn.html") as rendered:
            table.act(table.tokens["Cat"], type="enter", round=1, scores={"Points": 1})
            for name in players:
                streams[name].wait_for(lambda e: e[0] == "public")
        phones = [you for screen, you in rendered if screen == "phone"]
        ids = table.ids
        assert len(phones) == 2 and ids["Dan"] in phones
        assert set(phones) - {ids["Dan"]} <= {ids["Ann"], ids["Ben"], ids["Cat"]}
        cat = streams["Cat"].wait_for(lambda e: e[0] == "own")[1]
        assert '<div id="own-turn" hx-swap-oob="morph"></div>' in cat  # the table's line
        dan = streams["Dan"].wait_for(lambda e: e[0] == "own")[1]
        assert "Your turn!" in text_of(dan) and "data-own-turn" in dan
    finally:
        for stream in streams.values():
            stream.close()


def test_a_stream_that_wakes_after_two_moves_is_sent_the_table_parts_built_on_what_it_had(
        live_server):
    """Streams that were sent the same version are sent the same bytes; one that slept
    through a move builds on the version it had (or is sent the board whole), so the bytes
    of a version are the same for every screen that builds on the same one."""
    api = Api(live_server.url, app=live_server.app)
    table = api.table()
    seen = []
    with live_server.app.test_request_context(f"/d/{table.code}/events"):
        seen.append(read.find(table.code))
        table.act(table.tokens["Ann"], type="play", value=2, count=1)
        seen.append(read.find(table.code))
        table.act(table.tokens["Ann"], type="draw", source="deck")
        seen.append(read.find(table.code))
        awake, asleep, also_asleep = (ScreenStream("display", PUBLIC) for _ in range(3))
        for stream in (awake, asleep, also_asleep):
            assert stream.message(seen[0]).startswith("event: panel")
        awake.message(seen[1])
        sent = {label: stream.message(seen[2]) for label, stream in
                (("awake", awake), ("asleep", asleep), ("also asleep", also_asleep))}
    first, second, last = (snapshot.version for snapshot in seen)
    assert f'data-base="{second}"' in sent["awake"]
    assert f'data-base="{first}"' in sent["asleep"] and sent["asleep"] == sent["also asleep"]
    assert sent["awake"] != sent["asleep"]
    assert all(f'data-version="{last}"' in event for event in sent.values())
