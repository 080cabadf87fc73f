"""Web security: cross-site form posts are refused; players named with HTML or script are
inert everywhere (phone, host screen, log, history, result, QR pages, past games); every
page has a Content Security Policy without inline scripts and runs none; tokens never
reach a log, a URL or a page; a revoked token (rejoin QR) is refused everywhere, open
streams included; one table's token gives nothing at another table; room codes and tokens
cannot be guessed cheaply (a budget of failed look-ups per address, and limits on joins).

Routes are taken from the app's URL map, so a route added later is covered too."""
from __future__ import annotations

import logging
import random
import re

import pytest
import requests
from werkzeug.routing import Rule

from companion.auth import host_cookie, player_cookie
from companion.extensions import db
from companion.games import GAMES
from companion.models import Event, Player, SavedDefaults, Table
from tests.support.api import Api
from tests.support.bots import choose_move
from tests.support.clients import Client
from tests.support.counts import COUNTS
from tests.support.pages import HOSTILE_NAMES, inert
from tests.support.players import new_action_id, new_table
from tests.support.referee import Referee
from tests.support.servers import ServerProcess
from tests.support.streams import Stream

# Pages anyone may open: the join QR, the join form and the rejoin page of a table, the
# table display (its page, panel, stream and QR code), and a finished game's replay.
PUBLIC_PAGES = {"screens.join_qr", "lobby.join_form", "lobby.rejoin_page", "display.display",
                "display.panel", "display.events", "display.qr", "display.history",
                "replay.replay"}


# -- helpers -----------------------------------------------------------------------------

def routes(app, *, api: bool | None = None, method: str | None = None) -> list[Rule]:
    """The app's routes that take a room code (all of them but the home pages)."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or "code" not in rule.arguments:
            continue
        if api is not None and rule.rule.startswith("/api/") != api:
            continue
        if method is not None and method not in rule.methods:
            continue
        found.append(rule)
    assert found
    return found


def url_of(rule: Rule, code: str, player: int) -> str:
    path = rule.rule.replace("<code>", code)
    path = re.sub(r"<int:player_id>|<player_id>", str(player), path)
    assert "<" not in path, path
    return path


def snapshot(app) -> tuple:
    with app.app_context():
        found = (db.session.execute(db.select(Table.id, Table.version, Table.status)).all(),
                 db.session.execute(db.select(Player.id, Player.token_hash, Player.seat)).all(),
                 db.session.execute(db.select(db.func.count(Event.id))).scalar(),
                 db.session.execute(db.select(SavedDefaults.game, SavedDefaults.options)).all())
        db.session.remove()
        return found


def page_check(response: requests.Response, where: str, tokens=()) -> str:
    """Every HTML answer: a CSP without inline script, nothing inline, names inert, no
    token anywhere in it (and so in no URL it links to)."""
    text = response.text
    COUNTS["pages_checked"] += 1
    if response.headers.get("Content-Type", "").startswith("text/html"):
        csp = response.headers["Content-Security-Policy"]
        directives = dict((d.split() + [""])[:2] for d in csp.split(";") if d.strip())
        assert directives.get("script-src") == "'self'", csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
        assert "default-src 'self'" in csp and "object-src 'none'" in csp, csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        inert(text, where)
    for token in tokens:
        assert token not in text, f"{where} holds a token"
        assert token not in response.headers.get("Location", ""), f"{where} redirects with a token"
    return text


def csrf_of(text: str) -> str:
    return re.search(r'"X-CSRFToken": "([^"]+)"', text).group(1)


# -- cross-site form posts ---------------------------------------------------------------

@pytest.mark.counts(pages_checked=1)
def test_cross_site_form_posts_are_refused(app, live_server):
    """Every form handler refuses a post without the page's CSRF token, or with another
    browser's, and changes nothing; the API takes no cookies and no forms."""
    table = new_table(live_server.url, "go-big", 3, 41)
    lobby = Api(live_server.url).table("go-big", players=("Ann",), start=False)
    player = table.ids[next(iter(table.ids))]
    victim = Client(live_server.url, table.code, table.token_of(player), player)
    host = Client(live_server.url, table.code, table.host, host=True)
    stranger = requests.Session()
    foreign = csrf_of(stranger.get(live_server.url + "/", timeout=10).text)
    before = snapshot(app)
    posts = [r for r in app.url_map.iter_rules()
             if "POST" in r.methods and not r.rule.startswith("/api/")]
    assert len(posts) >= 10
    for rule in posts:
        for client, code in ((victim, table.code), (host, table.code), (host, lobby.code)):
            path = url_of(rule, code, player) if "code" in rule.arguments else \
                rule.rule.replace("<game_id>", "go-big")
            data = {"type": "play", "value": "3", "count": "1", "player": str(player),
                    "name": "Mallory", "token": table.host, "direction": "up", "steps": "1"}
            for extra in ({}, {"csrf_token": foreign}, {"csrf_token": "x" * 40}):
                response = client.session.post(live_server.url + path, data=dict(data, **extra),
                                               headers={"Origin": "https://evil.example",
                                                        "Referer": "https://evil.example/"},
                                               allow_redirects=False, timeout=10)
                assert response.status_code == 400, (path, response.status_code)
                assert "came from another site" in page_check(response, path)
    # The API: cookies are no identity there, and a form is not JSON.
    url = f"{live_server.url}/api/v1/tables/{table.code}/actions"
    response = victim.session.post(url, data={"type": "play", "value": "3", "count": "1"})
    assert response.status_code in (400, 401)
    response = victim.session.post(url, json={"type": "play", "value": 3, "count": 1})
    assert response.status_code == 401
    assert "Access-Control-Allow-Origin" not in response.headers
    assert snapshot(app) == before


# -- names that are markup -----------------------------------------------------------------

@pytest.mark.counts(pages_checked=1)
def test_players_named_with_html_or_script_are_inert_everywhere(app, live_server):
    base = live_server.url
    table = new_table(base, "go-big", 3, 43, options={"copies_per_value": 4}, local=1)
    referee, engine = Referee(app, table.code), GAMES["go-big"]
    host = Client(base, table.code, table.host, host=True)
    phones = [Client(base, table.code, token, table.ids[name])
              for name, token in table.tokens.items()]
    local = next(iter(table.local))
    phoneless = Client(base, table.code, table.host, local, host=True, local=True)
    tokens = [table.host, *table.tokens.values()]

    def crawl(stage: str) -> None:
        pages = [(host, p) for p in ("/host", "/panel?screen=host", "/history?screen=host",
                                     "/undo?screen=host", f"/as/{local}",
                                     f"/as/{local}?reveal=1", f"/panel?screen=as-{local}")]
        pages.append((phoneless, phoneless.home))  # behind the cover
        pages += [(phone, p) for phone in phones
                  for p in ("", "/panel?screen=phone", "/history?screen=phone",
                            "/undo?screen=phone", "/preview?type=play&value=1&count=1")]
        for client, path in pages:
            response = client.page(path)
            assert response.status_code < 500, (path, response.status_code)
            page_check(response, f"{stage} {client.label} {path}", tokens)
        for path in ("/", "/games", f"/j/{table.code}", f"/r/{table.code}",
                     f"/join?code={table.code}", f"/d/{table.code}", f"/d/{table.code}/panel"):
            response = requests.get(base + path, timeout=10)
            page_check(response, f"{stage} {path}", tokens)

    crawl("playing")
    rng = random.Random(1)
    while (snapshot_ := referee.read()).status != "finished":
        player, action = choose_move(engine, snapshot_.state, rng)
        token = table.host if player is None else table.tokens.get(table.names[player],
                                                                   table.host)
        body = dict(action, action_id=new_action_id())
        if player in table.local:
            body["as"] = player
        response = requests.post(f"{base}/api/v1/tables/{table.code}/actions", json=body,
                                 headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert response.status_code == 200, response.text
    crawl("finished")
    html = host.page("/host").text
    assert "&lt;script&gt;f()&lt;/script&gt;" in html  # shown, as text
    # The rejoin confirmation and QR page of each hostile name, and a join refused because
    # of the name.
    csrf = host.csrf()
    for player in table.ids.values():
        page_check(host.page(f"/rejoin?player={player}"),
                   f"the rejoin confirmation of {table.names[player]!r}", tokens)
        response = host.post_form("/rejoin", {"player": player, "csrf_token": csrf}, htmx=False)
        assert response.status_code == 200
        page_check(response, f"the rejoin QR of {table.names[player]!r}", tokens)
    lobby = Api(base).table("go-big", players=HOSTILE_NAMES, start=False)
    lobby_host = Client(base, lobby.code, lobby.host, host=True)
    for path in ("/host", "/panel?screen=host"):  # names in the seat controls' labels
        page_check(lobby_host.page(path), f"the lobby's {path}", [lobby.host])
    joiner = requests.Session()
    form = joiner.get(f"{base}/j/{lobby.code}", timeout=10)
    page_check(form, "the join form")
    response = joiner.post(f"{base}/j/{lobby.code}",
                           data={"name": HOSTILE_NAMES[0], "csrf_token": csrf_of(form.text)})
    assert response.status_code == 409
    page_check(response, "a join refused for a taken name")


@pytest.mark.counts(pages_checked=1)
def test_every_page_has_a_csp_without_inline_script(client):
    for path in ("/", "/games", "/new/go-big", "/new/big-top", "/new/big-money",
                 "/new/nothing-beats-a-large", "/join?code=ZZZZ", "/t/ZZZZ", "/nowhere"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        COUNTS["pages_checked"] += 1
        inert(response.get_data(as_text=True), path)
    assert client.get("/static/app.js").status_code == 200


# -- tokens never logged -------------------------------------------------------------------

class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


def test_tokens_are_never_logged(app, database_url, tmp_path):
    """A game through the production server with its access log on, and through the app
    in this process with every logger at DEBUG: no token is in any line written."""
    server = ServerProcess(database_url, tmp_path,
                           extra_args=("--access-logfile", "-", "--log-level", "debug")).start()
    tokens = []
    try:
        base = server.url
        table = new_table(base, "go-big", 2, 47)
        tokens += [table.host, *table.tokens.values()]
        referee, engine, rng = Referee(app, table.code), GAMES["go-big"], random.Random(2)
        clients = {pid: Client(base, table.code, table.token_of(pid), pid)
                   for pid in table.ids.values()}
        host = Client(base, table.code, table.host, host=True)
        for _step in range(12):
            snap = referee.read()
            player, action = choose_move(engine, snap.state, rng)
            assert clients[player].api("POST", "/actions", action).status_code == 200
            clients[player].page("")
            host.page("/host")
            clients[player].api("GET", "/log")
            requests.get(f"{base}/api/v1/tables/{table.code}",
                         headers={"Authorization": "Bearer not-a-token"}, timeout=10)
        # A rejoin: the new token travels in a QR and a form post, never in a URL.
        rejoined = host.api("POST", f"/players/{player}/rejoin").json()
        tokens.append(rejoined["token"])
        session = requests.Session()
        page = session.get(f"{base}/r/{table.code}", timeout=10)
        session.post(f"{base}/r/{table.code}",
                     data={"token": rejoined["token"], "csrf_token": csrf_of(page.text)})
        session.get(f"{base}/t/{table.code}", timeout=10)
    finally:
        server.stop()
    written = server.output()
    assert f"/t/{table.code}" in written, "the access log was not written"
    for token in tokens:
        assert token not in written, "a token is in the server's log"
    # In this process, every logger at DEBUG, through the test client.
    collect = Collect()
    root = logging.getLogger()
    level = root.level
    root.addHandler(collect)
    root.setLevel(logging.DEBUG)
    try:
        api = Api(client=app.test_client())
        table = api.table("go-big", players=("Ann", "Ben"))
        tokens = [table.host, *table.tokens.values()]
        for token in tokens:
            api.call("GET", f"/tables/{table.code}", token)
            api.call("POST", f"/tables/{table.code}/actions", token, {"type": "fly"})
            api.call("POST", f"/tables/{table.code}/undo", token)
        api.call("GET", f"/tables/{table.code}", "x" * 300)
    finally:
        root.removeHandler(collect)
        root.setLevel(level)
    for token in tokens:
        assert not any(token in line for line in collect.lines), "a token is in a log line"


# -- revoked tokens ------------------------------------------------------------------------

def refused_everywhere(app, base: str, code: str, token: str, player: int,
                       host: bool = False) -> None:
    """Every route of the table, with this token as bearer and as cookie, gives nothing:
    no 2xx or 3xx answer (the public pages aside, and a lobby's phone page sends a
    stranger to its join form) and nothing changed."""
    before = snapshot(app)
    session = requests.Session()
    session.cookies.set(host_cookie(code) if host else player_cookie(code), token)
    csrf = csrf_of(session.get(base + "/", timeout=10).text)
    headers = {"Authorization": f"Bearer {token}"}
    for rule in routes(app):
        path = url_of(rule, code, player)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if rule.endpoint in PUBLIC_PAGES or rule.endpoint == "api.join":
                continue
            screen = "host" if host else "phone"
            data = {"csrf_token": csrf, "type": "play", "value": "3", "count": "1",
                    "player": str(player), "steps": "1", "screen": screen}
            if rule.rule.startswith("/api/"):
                response = requests.request(method, base + path, headers=headers, json={},
                                            timeout=10, stream=True)
            elif method == "GET":
                response = session.get(base + path, params={"screen": screen},
                                       allow_redirects=False, timeout=10, stream=True)
            else:
                response = session.post(base + path, data=data, allow_redirects=False,
                                        timeout=10, stream=True)
            status = response.status_code
            response.close()
            if status in (302, 303) and method == "GET":
                # A stranger at a lobby is sent to join it, after it to watch it.
                assert response.headers["Location"].endswith((f"/j/{code}", f"/d/{code}"))
                continue
            assert 400 <= status < 500, f"{method} {path} answered {status}"
            if rule.rule.startswith("/api/"):
                assert status == 401, f"{method} {path} answered {status}"
    assert snapshot(app) == before


def test_a_revoked_token_is_refused_everywhere_open_streams_included(app, live_server):
    base = live_server.url
    table = new_table(base, "go-big", 3, 53)
    name = next(iter(table.tokens))
    player, old = table.ids[name], table.tokens[name]
    host = Client(base, table.code, table.host, host=True)
    phone = Client(base, table.code, old, player)
    api_stream = Stream(f"{base}/api/v1/tables/{table.code}/stream",
                        headers={"Authorization": f"Bearer {old}"}, label="API stream")
    screen_stream = Stream(f"{base}/t/{table.code}/events?screen=phone",
                           cookies=phone.session.cookies, label="screen stream")
    try:
        api_stream.wait_for(lambda event: event[0] == "version")
        screen_stream.wait_for(lambda event: event[0] == "panel")
        # The host opens the rejoin QR from the host screen: the old phone is locked out.
        response = host.post_form("/rejoin", {"player": player, "csrf_token": host.csrf()},
                                  htmx=False)
        assert response.status_code == 200
        for stream in (api_stream, screen_stream):
            stream.wait_for(lambda event: event[0] == "revoked")
            stream.wait_for(lambda event: event[0] == "closed")
    finally:
        api_stream.close()
        screen_stream.close()
    refused_everywhere(app, base, table.code, old, player)
    response = requests.post(f"{base}/r/{table.code}", data={"token": old}, timeout=10)
    assert response.status_code == 400
    # The new phone works (its token came in the QR; the API hands the host another).
    new = host.api("POST", f"/players/{player}/rejoin").json()["token"]
    assert Client(base, table.code, new, player).api("GET", "").json()["you"] == player
    refused_everywhere(app, base, table.code, old, player)


def play_to_the_end(app, base: str, table) -> None:
    referee, rng = Referee(app, table.code), random.Random(7)
    engine = GAMES[table.view()["game"]]
    while (snap := referee.read()).status != "finished":
        player, action = choose_move(engine, snap.state, rng)
        response = requests.post(f"{base}/api/v1/tables/{table.code}/actions", json=action,
                                 headers={"Authorization": f"Bearer {table.token_of(player)}"},
                                 timeout=10)
        assert response.status_code == 200, response.text


def test_one_tables_tokens_give_nothing_at_another_table(unlimited_server):
    """Limits lifted: every route is tried with another table's tokens, more refused
    look-ups a minute than one address may make (the guessing budget has its own test)."""
    app, base = unlimited_server.app, unlimited_server.url
    mine, theirs = new_table(base, "go-big", 2, 59, options={"copies_per_value": 4}), \
        new_table(base, "big-top", 3, 61)
    player = next(iter(mine.ids.values()))
    for token in mine.tokens.values():
        refused_everywhere(app, base, theirs.code, token, player)
    refused_everywhere(app, base, theirs.code, mine.host, player, host=True)
    # Play again with the same players: the next table has tokens of its own.
    play_to_the_end(app, base, mine)
    host = Client(base, mine.code, mine.host, host=True)
    response = host.post_form("/again", {"csrf_token": host.csrf()}, htmx=False)
    assert response.status_code == 303
    again = re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)
    assert host.session.get(f"{base}/t/{again}/host", timeout=10).status_code == 200
    player = Api(base).call("GET", f"/tables/{again}")[1]["players"][0]["id"]
    refused_everywhere(app, base, again, mine.host, player, host=True)
    for token in mine.tokens.values():
        refused_everywhere(app, base, again, token, player)


# -- guessing codes and tokens ---------------------------------------------------------------

@pytest.mark.counts(inputs_tried=1)
def test_room_codes_and_tokens_cannot_be_guessed_cheaply(app):
    table = Api(client=app.test_client()).table("go-big", players=("Ann", "Ben"))
    guesses = ["/api/v1/tables/{}", "/api/v1/tables/{}/log", "/t/{}", "/j/{}", "/r/{}",
               "/join?code={}", "/t/{}/qr.svg", "/t/{}/panel", "/d/{}"]
    letters = "BCDFGHJKLMNPQRSTVWXZ"
    for n, guess in enumerate(guesses):
        client = app.test_client()
        address = {"REMOTE_ADDR": f"10.1.0.{n + 1}"}
        refused = None
        for attempt in range(200):
            code = letters[attempt % 20] + letters[attempt // 20 % 20] + "QZ"
            response = client.get(guess.format(code), environ_base=address)
            COUNTS["inputs_tried"] += 1
            if response.status_code == 429:
                refused = attempt
                break
            assert response.status_code in (404, 302, 303, 200), (guess, response.status_code)
        assert refused is not None and refused <= 40, f"{guess}: {refused} guesses went through"
        # Once refused, the address gets nothing, a real code included.
        response = client.get(guess.format(table.code), environ_base=address)
        assert response.status_code == 429
        if guess.startswith("/api/"):
            assert response.get_json()["error"]["code"] == "too_many_requests"
        else:
            assert 'role="alert"' in response.get_data(as_text=True)
    # Guessing tokens at a real table.
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.2.0.1"}
    for attempt in range(200):
        response = client.get(f"/api/v1/tables/{table.code}", environ_base=address,
                              headers={"Authorization": f"Bearer guess-{attempt}"})
        if response.status_code == 429:
            break
        assert response.status_code == 401
    assert attempt <= 40, f"{attempt} token guesses went through"
    # Guessing a rejoin code on the join page (a code the host made is waiting).
    host = app.test_client()
    host.set_cookie(host_cookie(table.code), table.host)
    csrf = csrf_of(host.get(f"/t/{table.code}/host").get_data(as_text=True))
    response = host.post(f"/t/{table.code}/rejoin",
                         data={"player": str(table.ids["Ben"]), "csrf_token": csrf})
    assert response.status_code == 200
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.4.0.1"}
    csrf = csrf_of(client.get(f"/j/{table.code}", environ_base=address).get_data(as_text=True))
    for attempt in range(200):
        guess = "".join(letters[(attempt * 7 + i) % 20] for i in range(8))
        response = client.post(f"/j/{table.code}/rejoin", environ_base=address,
                               data={"rejoin_code": guess, "csrf_token": csrf})
        COUNTS["inputs_tried"] += 1
        if response.status_code == 429:
            break
        assert response.status_code == 422, response.status_code  # a bad entry, yet a guess
        assert "That rejoin code is not right" in response.get_data(as_text=True)
    assert attempt <= 20, f"{attempt} rejoin code guesses went through"
    # Joining is limited on its own, and a real player polling its view is not limited.
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.3.0.1"}
    lobby = Api(client=app.test_client()).table("go-big", players=(), start=False)
    statuses = [client.post(f"/api/v1/tables/{lobby.code}/players", json={"name": f"P{n}"},
                            environ_base=address).status_code for n in range(30)]
    assert 429 in statuses
    player = Api(client=app.test_client())
    for _ in range(150):
        assert player.call("GET", f"/tables/{table.code}", table.tokens["Ann"])[0] == 200
