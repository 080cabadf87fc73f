"""A table's life beyond one game's moves, in Chromium against the production server (gunicorn,
gevent workers; a move answered busy aside, which needs a setting of its own): a phone that
lost its connection catches up by itself, the host device plays for a player without a phone
behind a privacy cover, and a finished table is played again with the same players."""
from __future__ import annotations

import json
import random
import re
import socket
import sqlite3
import threading

from playwright.sync_api import expect

from tests.support.api import Api, Seated
from tests.support.app import close_app, make_app
from tests.support.browser import (LAN_NAME, SOON, console_errors, first_move, following,
                                   host_screen, join_by_link, log_lines, screenshot, seat_phone,
                                   serve_on_the_lan)

SUITS = ("clowns", "sideshow", "animals", "performers")
RANKS = ("P", "L1", "L2", "L3", "L4", "L5", "L6", "D1", "D2", "D3", "D4", "D5", "D6")


# -- 1. a phone that lost its connection --------------------------------------------

class Network:
    """A phone's network: a TCP relay between one browser context and the server that can
    drop every open connection (the event stream included) and refuse new ones, as a
    phone's Wi-Fi does when it goes away."""

    def __init__(self, port: int):
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://{LAN_NAME}:{self.listener.getsockname()[1]}"
        self.up = True
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.upstream))
            with self.lock:
                self.sockets += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def drop(self) -> None:
        self.up = False
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.drop()
        self.listener.close()


def lose_the_network(page, network: Network) -> None:
    """The phone's network goes away: its stream breaks, and the page's try to open it
    again fails (so the page knows it is cut off, and nothing can reach it)."""
    with page.expect_event("requestfailed", lambda request: "/events" in request.url,
                           timeout=SOON):
        page.context.set_offline(True)
        network.drop()


def test_a_phone_whose_connection_dropped_catches_up_by_itself(production_server, new_phone):
    api = Api(production_server.local_url)
    table = api.table()  # Ann, Ben, Cat at Go Big; Ann plays first
    network = Network(production_server.port)
    try:
        ann = seat_phone(new_phone, production_server.url, table, "Ann")
        ben = seat_phone(new_phone, network.url, table, "Ben")
        expect(ben.locator(".turn:visible")).to_have_text(
            re.compile("Waiting for Ann"), timeout=SOON)
        following(ben)

        # Ben's phone loses its network: the stream breaks, nothing gets through.
        lose_the_network(ben, network)
        first_move(table, "Ann")  # her set
        first_move(table, "Ann")  # her draw: Ben's turn
        assert table.view()["turn"] == table.ids["Ben"]
        moves = log_lines(api, table, "Ben")[-2:]
        assert moves[0].startswith("Ann played"), moves
        expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"))
        for line in moves:
            expect(ben.locator(".log")).not_to_contain_text(line)

        # The network comes back: the page asks for the table again and the stream
        # reconnects by itself (the server sends the current version on connect). No reload.
        url, opened = ben.url, ben.evaluate("window.streamsOpened")
        network.restore()
        ben.context.set_offline(False)
        for line in moves:
            expect(ben.locator(".log")).to_contain_text(line, timeout=SOON)
        expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn"), timeout=SOON)
        expect(ben.get_by_role("button", name=re.compile(r"^Play \d+ × \d+$"))
               .first).to_be_visible()
        assert ben.url == url
        following(ben, opened + 1)  # the stream itself comes back too, on its own
        expect(ann.locator(".turn:visible")).to_have_text(
            re.compile("Waiting for Ben"), timeout=SOON)

        # A phone waking from sleep asks for the panel again ("resync" on the body, which
        # app.js dispatches on visibilitychange) and shows what it missed while asleep.
        lose_the_network(ben, network)  # asleep: nothing gets through
        first_move(table, "Ben")
        first_move(table, "Ben")  # Cat's turn
        expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
        network.restore()
        ben.context.set_offline(False)
        with ben.expect_request(lambda r: f"/t/{table.code}/panel" in r.url, timeout=SOON) as asked:
            ben.evaluate("document.body.dispatchEvent(new Event('resync'))")
        assert "screen=phone" in asked.value.url
        expect(ben.locator(".turn:visible")).to_have_text(
            re.compile("Waiting for Cat"), timeout=SOON)
        expect(ben.locator(".log")).to_contain_text(log_lines(api, table, "Ben")[-1])
    finally:
        network.close()


def test_a_refresh_that_failed_is_asked_again_when_back_online(production_server, new_phone):
    """The stream pushes each new panel, so a phone whose stream stays open needs no
    request to catch up. A refresh the phone asks for itself (on waking) can still fail
    on a Wi-Fi blip: back online, the phone must catch up by itself."""
    api = Api(production_server.local_url)
    table = api.table()
    ben = seat_phone(new_phone, production_server.url, table, "Ben")
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"), timeout=SOON)
    following(ben)

    # Chromium's offline mode keeps an open event stream: the pushed panel arrives.
    ben.context.set_offline(True)
    first_move(table, "Ann")
    moves = log_lines(api, table, "Ben")[-1:]
    expect(ben.locator(".log")).to_contain_text(moves[0], timeout=SOON)

    # A refresh asked for while offline fails, and is asked again once back online.
    with ben.expect_event("requestfailed", lambda request: f"/t/{table.code}/panel"
                          in request.url, timeout=SOON):
        ben.evaluate("document.body.dispatchEvent(new Event('resync'))")
    with ben.expect_request(lambda r: f"/t/{table.code}/panel" in r.url, timeout=SOON):
        ben.context.set_offline(False)
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"), timeout=SOON)


def test_a_move_answered_busy_is_sent_again_by_itself_and_made_once(tmp_path, new_phone):
    """Another process holds the SQLite file's write lock longer than the server waits:
    Ann's move is answered 503 with Retry-After. Her phone says so and sends it again by
    itself, with the same action id; once the lock is gone the move is made, once."""
    path = tmp_path / "busy.sqlite3"
    app = make_app(f"sqlite:///{path}", tmp_path, SQLITE_BUSY_SECONDS=0.5)
    server = serve_on_the_lan(app)
    try:
        api = Api(server.local_url)
        table = api.table(players=("Ann", "Ben"))
        first_move(table, "Ann")  # she played a set; now she draws
        ann = seat_phone(new_phone, server.url, table, "Ann")
        draw = ann.get_by_role("button", name=re.compile("^From the deck"))
        answers = []
        ann.on("response",
               lambda r: answers.append(r.status) if r.request.method == "POST" else None)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        draw.click()
        expect(ann.locator("#busy")).to_have_text("The server is busy: sending your move again…",
                                                  timeout=SOON)
        holder.execute("ROLLBACK")
        holder.close()
        expect(ann.locator("#busy")).to_be_hidden(timeout=SOON)
        expect(ann.locator(".turn:visible")).to_have_text(
            re.compile("Waiting for Ben"), timeout=SOON)
        assert answers[0] == 503 and answers[-1] == 200, answers
        assert len(log_lines(api, table, "Ann")) == 2
    finally:
        server.stop()
        close_app(app)


def test_an_older_panel_never_replaces_a_newer_one(production_server, new_phone):
    """Panels come pushed on the stream and as answers to requests, so an older one can
    arrive after a newer one: it is dropped. A pushed panel of the version shown is
    dropped too (the move's answer brought it); an answer of the same version is not
    (it may carry an error)."""
    table = Api(production_server.local_url).table()
    ben = seat_phone(new_phone, production_server.url, table, "Ben")
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"), timeout=SOON)
    shown = int(ben.locator("#panel").get_attribute("data-version"))
    kept = ben.evaluate("""(shown) => {
        const panel = (v) => '<section id="panel" class="panel" data-version="' + v + '">';
        const live = document.getElementById("live");
        const pushed = (v) => live.dispatchEvent(new CustomEvent("htmx:sseBeforeMessage",
            {bubbles: true, cancelable: true, detail: {data: panel(v)}}));
        const answered = (v) => {
            const detail = {target: document.getElementById("panel"),
                            serverResponse: panel(v), shouldSwap: true};
            live.dispatchEvent(new CustomEvent("htmx:beforeSwap", {bubbles: true, detail}));
            return detail.shouldSwap;
        };
        return [shown - 1, shown, shown + 1].map((v) => [pushed(v), answered(v)]);
    }""", shown)
    assert kept == [[False, False], [False, True], [True, True]]


def test_a_double_tap_makes_the_move_once_and_shows_no_error(production_server, new_phone):
    """A second tap before the first one's answer cancels the first request (a move waits
    for nothing) and carries the same action id: the move is made once, the phone goes on,
    and the page reports no error for the request it cancelled on purpose."""
    api = Api(production_server.local_url)
    table = api.table()
    ann = seat_phone(new_phone, production_server.url, table, "Ann")
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn"), timeout=SOON)
    ann.get_by_role("group", name="Choose a set to play").get_by_role("button").first.click()
    confirm = ann.get_by_role("button", name="Confirm")
    expect(confirm).to_be_visible()
    made = len(log_lines(api, table, "Ann"))
    errors = console_errors(ann)
    posts = []
    ann.on("request",
           lambda request: posts.append(request.url) if request.method == "POST" else None)
    ann.evaluate("window.cancelled = 0; "
                 "document.addEventListener('htmx:sendAbort', () => window.cancelled++)")
    confirm.evaluate("(button) => { button.click(); button.click(); }")
    expect(ann.get_by_role("button", name=re.compile("From the deck"))).to_be_visible(timeout=SOON)
    assert len(posts) == 2 and ann.evaluate("window.cancelled") == 1, posts
    assert len(log_lines(api, table, "Ann")) == made + 1
    assert errors == []


# -- 2. a player without a phone -----------------------------------------------------

def tile(page, card: str):
    return page.locator(f'label.bt-tile:has(input[value="{card}"])')


def receipt(page, suit: str, value: int):
    return page.locator(f'label.bt-receipt:has(input[name="receipts.{suit}"][value="{value}"])')


def test_the_host_device_plays_for_a_player_without_a_phone(production_server, new_phone):
    api = Api(production_server.local_url)
    status, created = api.call("POST", "/tables", json={"game": "big-top", "options": {}})
    assert status == 201, created
    code = created["code"]
    host = host_screen(new_phone, production_server.url, code, created["host_token"])
    expect(host.locator(".room-code")).to_have_text(code)

    host.get_by_label("Add a player without a phone").fill("Cleo")
    host.get_by_role("button", name="Add", exact=True).click()
    cleo_row = host.locator(".players li", has_text="Cleo")
    expect(cleo_row).to_contain_text("no phone", timeout=SOON)

    phones, tokens = {}, {}
    for name in ("Ann", "Ben"):
        phone = join_by_link(new_phone(), f"{production_server.url}/j/{code}", name)
        expect(host.locator(".players .player-name", has_text=name)).to_be_visible(timeout=SOON)
        tokens[name] = next(c["value"] for c in phone.context.cookies()
                            if c["name"] == f"companion_{code}")
        phones[name] = phone
    ids = {p["name"]: p["id"] for p in api.call("GET", f"/tables/{code}")[1]["players"]}
    assert set(ids) == {"Cleo", "Ann", "Ben"}
    table = Seated(api, code, created["host_token"], tokens, ids)

    host.get_by_role("button", name="Start the game").click()
    play_for_cleo = host.get_by_role("link", name="Play for Cleo (no phone)")
    expect(play_for_cleo).to_be_visible(timeout=SOON)
    expect(host.locator(".bt-tile")).to_have_count(0)  # the host screen holds no grid

    # The deal: the three hands together are exactly the 52 cards.
    deck = [f"{suit}-{rank}" for suit in SUITS for rank in RANKS]
    assert len(set(deck)) == 52
    random.Random(2024).shuffle(deck)
    hands = {"Cleo": sorted(deck[:18]), "Ann": sorted(deck[18:35]), "Ben": sorted(deck[35:])}
    for name in ("Ann", "Ben"):
        status, body = table.act(tokens[name], type="hand", cards=hands[name])
        assert status == 200, body

    # The host taps "Play for Cleo": a privacy cover first, with no cards behind it.
    play_for_cleo.click()
    expect(host).to_have_url(f"{production_server.url}/t/{code}/as/{ids['Cleo']}")
    expect(host.get_by_role("heading", name="Pass the device to Cleo")).to_be_visible()
    expect(host.locator(".bt-tile")).to_have_count(0)
    expect(host.locator("input[name='cards[]']")).to_have_count(0)
    expect(host.locator(".bt-private")).to_have_count(0)
    screenshot(host, "table-life-privacy-cover")

    host.get_by_role("link", name="I am Cleo: show my screen").click()
    expect(host.locator(".bt-tile")).to_have_count(52)
    expect(host.get_by_role("heading", name="Tap the cards you were dealt")).to_be_visible()
    for card in hands["Cleo"]:
        tile(host, card).click()
    for card in hands["Cleo"]:
        expect(host.locator(f'input[name="cards[]"][value="{card}"]')).to_be_checked()
    host.get_by_role("button", name="Enter my hand").click()

    # Cleo's move made, the host screen comes back and shows none of her cards.
    expect(host).to_have_url(f"{production_server.url}/t/{code}/host", timeout=SOON)
    expect(host.locator(".bt-step")).to_contain_text("place your four gate receipts", timeout=SOON)
    expect(host.locator(".bt-tile")).to_have_count(0)
    expect(host.locator(".bt-private")).to_have_count(0)
    expect(host.locator("input[name='cards[]']")).to_have_count(0)
    expect(host.locator(".bt-hand")).to_have_count(0)
    view = table.view(tokens["Ann"])
    assert view["state"]["step"] == "receipts"
    expect(host.get_by_text("Your hand")).to_have_count(0)
    for phone in phones.values():  # the phones move on without a reload
        expect(phone.get_by_role("heading", name="Place your gate receipts")).to_be_visible(
            timeout=SOON)

    # The receipts, the same way.
    receipts = {"Cleo": {"clowns": 7, "sideshow": 3, "animals": 10, "performers": 5},
                "Ann": {"clowns": 3, "sideshow": 10, "animals": 7, "performers": 5},
                "Ben": {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3}}
    for name in ("Ann", "Ben"):
        status, body = table.act(tokens[name], type="receipts", receipts=receipts[name])
        assert status == 200, body
    play_for_cleo = host.get_by_role("link", name="Play for Cleo (no phone)")
    expect(play_for_cleo).to_be_visible(timeout=SOON)
    play_for_cleo.click()
    expect(host.get_by_role("heading", name="Pass the device to Cleo")).to_be_visible()
    expect(host.locator("input[type=radio]")).to_have_count(0)
    expect(host.locator(".bt-private")).to_have_count(0)
    host.get_by_role("link", name="I am Cleo: show my screen").click()
    expect(host.get_by_role("heading", name="Place your gate receipts")).to_be_visible()
    expect(host.locator(".bt-private")).to_contain_text("18 cards")
    for suit in SUITS:
        expect(host.locator(f'input[type=radio][name="receipts.{suit}"]')).to_have_count(4)
    for suit, value in receipts["Cleo"].items():
        receipt(host, suit, value).click()
    host.get_by_role("button", name="Place my receipts").click()

    expect(host).to_have_url(f"{production_server.url}/t/{code}/host", timeout=SOON)
    expect(host.locator(".bt-piles")).to_be_visible(timeout=SOON)  # the play has begun
    expect(host.locator(".bt-private")).to_have_count(0)
    expect(host.locator(".bt-my-receipts")).to_have_count(0)
    expect(host.locator("input[type=radio]")).to_have_count(0)
    state = table.view(tokens["Ann"])["state"]
    assert state["step"] == "play"
    cleo = next(s for s in state["seats"] if s["player"] == ids["Cleo"])
    assert cleo["hand"] == 18
    status, log = api.call("GET", f"/tables/{code}/log", created["host_token"])
    assert status == 200, log
    cleos = [line["summary"] for line in log["events"] if line["player"] == ids["Cleo"]]
    assert len(cleos) == 2, cleos  # her hand and her receipts, made on the host device
    assert cleos[0].startswith("Cleo entered their hand.")
    assert cleos[1].startswith("Cleo placed their gate receipts.")


def test_the_host_screen_tells_a_phoneless_player_where_their_goal_cards_are(production_server,
                                                                          new_phone):
    """Nothing Beats a Large: Dan, who has no phone, is dealt secret goal cards. The host
    screen says, from the start, how he sees them: pass the device, behind the cover."""
    api = Api(production_server.local_url)
    table = api.table(game="nothing-beats-a-large", players=("Ann", "Ben"), start=False)
    host = host_screen(new_phone, production_server.url, table.code, table.host)
    host.get_by_label("Add a player without a phone").fill("Dan")
    host.get_by_role("button", name="Add", exact=True).click()
    expect(host.locator(".players li", has_text="Dan")).to_contain_text("no phone", timeout=SOON)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_text("Dan has no phone: pass the device to Dan to see their goal "
                            "cards.")).to_be_visible(timeout=SOON)
    expect(host.get_by_text("Your goal cards")).to_have_count(0)
    host.get_by_role("link", name="Dan's goal cards (pass the device)").click()
    expect(host.get_by_role("heading", name="Pass the device to Dan")).to_be_visible()
    expect(host.get_by_text("Your goal cards")).to_have_count(0)
    host.get_by_role("link", name="I am Dan: show my screen").click()
    expect(host.get_by_role("heading", name=re.compile("Your goal cards"))).to_be_visible()
    host.get_by_role("link", name="Done: hide my screen").click()
    expect(host).to_have_url(f"{production_server.url}/t/{table.code}/host")
    expect(host.get_by_text("Your goal cards")).to_have_count(0)


# -- 3. play again -------------------------------------------------------------------

def test_a_finished_table_is_played_again_with_the_same_players(production_server, new_phone):
    api = Api(production_server.local_url, app=production_server.app)
    table = api.table(options={"copies_per_value": 4})
    host = host_screen(new_phone, production_server.url, table.code, table.host)
    ann = seat_phone(new_phone, production_server.url, table, "Ann")
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn"), timeout=SOON)
    table.finish()

    for page in (host, ann):
        result = page.locator(".result")
        expect(result).to_be_visible(timeout=SOON)
        expect(result.locator("svg.chart")).to_be_visible()
        record = result.get_by_role("link", name="Download the game's record")
        expect(record).to_be_visible()
        with page.expect_download() as download:
            record.click()
        with open(download.value.path(), encoding="utf-8") as file:
            body = json.load(file)
        assert body["format"] == "companion-record/2"
    screenshot(host, "table-life-host-result-chart")
    screenshot(ann, "table-life-phone-result-chart")
    expect(ann.get_by_role("button", name="Play again with the same players")).to_have_count(0)
    expect(ann.get_by_role("button",
                           name=re.compile("The host started a new game"))).to_have_count(0)

    host.get_by_role("button", name="Play again with the same players").click()
    expect(host).to_have_url(re.compile(rf"/t/(?!{table.code}/)[A-Z]{{4}}/host$"), timeout=SOON)
    new_code = re.search(r"/t/([A-Z]{4})/host$", host.url).group(1)
    assert new_code != table.code
    expect(host.locator(".room-code")).to_have_text(new_code)
    expect(host.locator(".players .player-name")).to_have_text(["Ann", "Ben", "Cat"])

    # The phone learns of the new game live, without a reload.
    follow = ann.get_by_role("button", name="The host started a new game: join it")
    expect(follow).to_be_visible(timeout=SOON)
    follow.click()
    expect(ann).to_have_url(f"{production_server.url}/t/{new_code}", timeout=SOON)
    expect(ann.get_by_text("You are seated")).to_be_visible()
    expect(ann.locator(".players li", has_text="Ann")).to_contain_text("you")
    # ...and the host screen of the new table sees the phone it can start with.
    assert api.call("GET", f"/tables/{new_code}")[1]["status"] == "lobby"


def test_after_play_again_the_phones_are_recognised_and_the_display_follows(production_server,
                                                                           new_phone):
    """The host plays again: the TV showing the finished game goes to the new table's
    lobby by itself; Cat's phone, which scans the new QR code instead of tapping its
    button, is recognised and takes its seat in one tap; a phone that is not Cat's and
    types "Cat" is told the way back (the rejoin code), and is given nothing."""
    api = Api(production_server.local_url, app=production_server.app)
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    tv = new_phone(1920, 1080)
    tv.goto(f"{production_server.url}/d/{table.code}")
    expect(tv.locator(".result")).to_be_visible()
    host = host_screen(new_phone, production_server.url, table.code, table.host)
    cat = seat_phone(new_phone, production_server.url, table, "Cat")
    expect(cat.locator(".result")).to_be_visible()

    host.get_by_role("button", name="Play again with the same players").click()
    expect(host).to_have_url(re.compile(rf"/t/(?!{table.code}/)[A-Z]{{4}}/host$"), timeout=SOON)
    new_code = re.search(r"/t/([A-Z]{4})/host$", host.url).group(1)
    expect(tv).to_have_url(f"{production_server.url}/d/{new_code}", timeout=SOON)
    expect(tv.locator(".room-code")).to_have_text(new_code)  # the new QR code, on the TV
    screenshot(tv, "table-life-display-next-game")

    # Cat's phone scans the QR code on the TV (the join link) rather than tapping its button.
    cat.goto(f"{production_server.url}/j/{new_code}")
    take = cat.get_by_role("button", name="Take my seat as Cat")
    expect(take).to_be_visible()
    screenshot(cat, "table-life-join-again")
    take.click()
    expect(cat).to_have_url(f"{production_server.url}/t/{new_code}", timeout=SOON)
    expect(cat.locator(".players li", has_text="Cat")).to_contain_text("you")

    # Another phone typing Cat is shown the way back to the seat, and not given it.
    other = new_phone()
    other.goto(f"{production_server.url}/j/{new_code}")
    expect(other.get_by_role("button", name=re.compile("Take my seat as"))).to_have_count(0)
    other.get_by_label("Your name").fill("Cat")
    other.get_by_role("button", name="Take a seat").click()
    expect(other.get_by_role("alert")).to_contain_text(
        "Cat is already seated at this table. If you are Cat on a new phone, ask the host "
        "for Cat's rejoin code")
    expect(other.get_by_label("The rejoin code from the host screen")).to_be_visible()
    assert not [c for c in other.context.cookies() if c["name"] == f"companion_{new_code}"]
    expect(cat.locator(".players li", has_text="Cat")).to_contain_text("you")
    assert Api(production_server.local_url).call(
        "GET", f"/tables/{new_code}")[1]["players"][2]["name"] == "Cat"
