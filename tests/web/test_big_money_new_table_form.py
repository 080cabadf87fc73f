"""Big Money's new-table form over the test client: the box data shown with its sources,
what the form posts (what the options form reads), a table created with edited values,
values saved as this server's defaults, and broken JSON explained in place."""
from __future__ import annotations

import html as html_lib
import json
import re

from companion.games.big_money import load_box, option_defaults
from tests.support.big_money_forms import ANTITRUST_ONLY, Forms
from tests.support.pages import page


# -- the new-table form -------------------------------------------------------------------
def row_of(html: str, label: str) -> str:
    rows = [row for row in html.split("<tr>") if label in row]
    assert len(rows) == 1, (label, len(rows))
    return rows[0]


def section(html: str, heading_id: str) -> str:
    start = html.index(f'id="{heading_id}"')
    return html[start:html.index("</section>", start)]


SOURCE_TEXT = {"rulebook": "rulebook", "review": "reported by a review",
               "default - check your board": 'unverified:</span> check your board',
               "default - check your cards": 'unverified:</span> check your cards'}


def test_the_options_form_shows_the_box_data_with_its_sources(client):
    html = page(client, "/new/big-money")
    box = load_box()
    assert '<span data-sum="bills">120</span> bills' in html
    assert 'the Bank starts with <strong data-sum="bills" data-weighted>640</strong>' in html
    for bill in ("1", "5", "10"):  # what the page's figures add up as the counts change
        assert f'data-sum-into="bills" data-weight="{bill}"' in html
    for bill, entry in box["bills"].items():
        row = row_of(html, f"${bill}z<")
        assert f'name="bills.{bill}" value="{entry["count"]}"' in row
        assert SOURCE_TEXT[entry["source"]] in row
    for key, entry in box["number_payouts"].items():
        row = row_of(html, f">{entry['name']}</label> <small")
        assert f'name="number_payouts.{key}" value="{entry["payout"]}"' in row
        assert SOURCE_TEXT[entry["source"]] in row
    for tier, entry in box["industry_bonus"].items():
        row = row_of(section(html, "bm-opt-bonus"), f'<label for="bonus-{tier}">{tier}')
        assert f'name="industry_bonus.{tier}" value="{entry["bonus"]}"' in row
        assert SOURCE_TEXT[entry["source"]] in row
    startup = section(html, "bm-opt-startup_payout")
    assert 'name="startup_payout" value="5"' in startup and "reported by a review" in startup
    cards = html.split('<li class="bm-news-card">')[1:]
    assert len(cards) == len(box["biz_news"])
    for card, entry in zip(cards, box["biz_news"]):
        assert entry["name"] in card and f"× {entry['count']}" in card
        for part, where in entry["sources"].items():
            group = re.search(r'<span class="bm-src-group">([^:]*\b'
                              + {"count": "copies"}.get(part, part)
                              + r'\b[^:]*): (.*?)</span></span>', card)
            assert group and SOURCE_TEXT[where] in group.group(2), (entry["name"], part)
    assert "<strong>10</strong> cards in the deck" in html
    # Unverified values are marked; the rulebook's 3 of a Kind is not.
    assert 'class="bm-src bm-src-unverified"' in row_of(html, ">1 Pair</label> <small")
    assert "unverified" not in row_of(html, ">3 of a Kind</label> <small")
    # What the form posts is what options_form.read reads: a number per value of a table,
    # and the Biz News deck as one JSON field.
    form = Forms(html).forms[0]
    posted = {i["name"]: i.get("value", "") for i in form["inputs"] if i.get("name")}
    defaults = option_defaults()
    for name in ("bills", "number_payouts", "industry_bonus"):
        assert {key: int(posted[f"{name}.{key}"]) for key in defaults[name]} == defaults[name]
    assert (json.loads(html_lib.unescape(posted["biz_news"]))
            == json.loads(json.dumps(defaults["biz_news"])))
    assert posted["startup_payout"] == "5" and posted["asset_cards"] == "32"


def test_creating_a_table_with_edited_values(app, client):
    html = page(client, "/new/big-money")
    form = Forms(html).forms[0]
    data = {i["name"]: html_lib.unescape(i.get("value", ""))
            for i in form["inputs"] if i.get("name")}
    data.update({"number_payouts.pair": "4", "startup_payout": "10",
                 "biz_news": json.dumps(ANTITRUST_ONLY)})
    response = client.post("/new/big-money", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    code = re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)
    options = client.get(f"/api/v1/tables/{code}").get_json()["options"]
    assert options["number_payouts"]["pair"] == 4 and options["startup_payout"] == 10
    assert [card["name"] for card in options["biz_news"]] == ["Antitrust Fine"]
    assert "bills" not in options and "industry_bonus" not in options  # unchanged: defaults
    # Saved as this server's defaults, a changed value says so instead of the box's source.
    data.update({"bills.1": "50", "bills.5": "40", "bills.10": "30"})
    response = client.post("/new/big-money/defaults", data=data)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and '"bills">120</span> bills' in text
    assert "data-weighted>550</strong>" in text
    assert ("set on this server" in row_of(text, "$1z<")
            and "set on this server" in row_of(text, "$10z<"))
    assert "check your board" in row_of(text, "$5z<")
    # Broken JSON is explained in place.
    data["biz_news"] = "{oops"
    response = client.post("/new/big-money", data=data)
    assert response.status_code == 400
    assert "Biz News cards: this is not valid JSON." in response.get_data(as_text=True)
