"""A form sent short is refused by our server, in the reader's language, never by the
browser's own bubble ("Please select one of these options"): Big Money's number dice sent
with no die chosen, and a market card sent empty or with a price out of bounds, on a German
phone."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import host_screen, seat_phone

STARTUPS = {"Ann": "food", "Ben": "sports", "Cat": "travel"}
MARKET = [("food", 10), ("travel", 20), ("technology", 40), ("entertainment", 30)]


def big_money_at_the_number_dice(app):
    """A Big Money table of Ann, Ben and Cat, played through the API to Ann's number dice."""
    table = Api(client=app.test_client()).table("big-money", players=tuple(STARTUPS), seed=7)
    for name, industry in STARTUPS.items():
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    for slot, (industry, price) in enumerate(MARKET):
        status, body = table.act(table.tokens["Ann"], type="reveal", slot=slot,
                                 asset={"industry": industry, "price": price})
        assert status == 200, body
    roller = table.view()["waiting_for"][0]
    assert roller == table.ids["Ann"], table.view()["waiting_for"]
    assert table.act(table.tokens["Ann"], type="industry", face="sports")[0] == 200
    assert table.view()["state"]["step"] == "number_dice"
    return table


def german_phone(new_phone, live_server, table, name: str):
    phone = new_phone()
    phone.context.add_cookies([{"name": "companion_language", "value": "de",
                                "url": live_server.url}])
    return seat_phone(lambda: phone, live_server.url, table, name)


def test_the_number_dice_sent_with_none_chosen_are_refused_in_german(app, live_server, new_phone):
    table = big_money_at_the_number_dice(app)
    version = table.view()["version"]
    phone = german_phone(new_phone, live_server, table, "Ann")
    form = phone.locator(".bm-dice-form")
    form.locator("button[type=submit]").click()
    refusal = phone.locator(".error[role=alert]")
    expect(refusal).to_have_text(
        "Tippe auf jedem der fünf Würfel eine Augenzahl an und schick sie dann ab.")
    # The dice stay `required` (the preview waits for all five), the form `novalidate`: the
    # browser never stops the post with a message of its own.
    assert phone.evaluate("document.querySelector('.bm-dice-form').noValidate") is True
    assert table.view()["version"] == version  # nothing changed


def test_a_player_without_a_phone_added_with_no_name_is_refused_in_german(app, live_server,
                                                                          new_phone):
    table = Api(client=app.test_client()).table("go-big", start=False)
    german = lambda width, height: with_german(new_phone(width, height), live_server)  # noqa: E731
    host = host_screen(german, live_server.url, table.code, table.host)
    host.get_by_role("button", name="Hinzufügen", exact=True).click()
    refusal = host.locator(".error[role=alert]")
    expect(refusal).to_be_visible()
    assert "Name" in refusal.inner_text()
    assert len(table.view()["players"]) == 3  # nothing changed


def with_german(page, live_server):
    page.context.add_cookies([{"name": "companion_language", "value": "de",
                               "url": live_server.url}])
    return page


def big_money_at_the_market_cards(app):
    """A Big Money table of Ann, Ben and Cat, each with a Start-Up: the four market cards
    are to be entered, Ann's phone awaited for them."""
    table = Api(client=app.test_client()).table("big-money", players=tuple(STARTUPS), seed=7)
    for name, industry in STARTUPS.items():
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    return table


def test_a_market_card_sent_empty_or_priced_out_of_bounds_is_refused_in_german(
        app, live_server, new_phone):
    table = big_money_at_the_market_cards(app)
    version = table.view()["version"]
    phone = german_phone(new_phone, live_server, table, "Ann")
    form = phone.locator("#bm-reveal-form")
    refusal = phone.locator("#panel .bm-reveal-confirm .error[role=alert]")
    form.get_by_role("button", name="Auszahlung zeigen").click()
    expect(refusal).to_have_text("Tippe die Branche der Karte an.")
    # A price the field's bounds would have stopped: our sentence, not the browser's.
    phone.locator("label[for=bm-reveal-food]").click()
    form.get_by_label("Preis").fill("0")
    form.get_by_role("button", name="Auszahlung zeigen").click()
    expect(refusal).to_have_text("Gib den Preis ein, der auf der Karte steht (1 bis 500).")
    assert phone.evaluate("document.getElementById('bm-reveal-form').noValidate") is True
    assert table.view()["version"] == version  # nothing changed
