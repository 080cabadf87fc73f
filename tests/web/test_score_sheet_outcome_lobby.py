"""The new-table form's zero-sum rounds and how the game is won: offered, made into the
table's options, kept with the saved sheet, and a combination the sheet cannot play
refused in the host's words."""
from __future__ import annotations

from companion.extensions import db
from companion.models import SavedOptions
from tests.support.pages import page
from tests.support.sheet_forms import FORM, created, options_of, sheet_form


def test_the_form_offers_zero_sum_rounds_and_how_the_game_is_won(host):
    html = page(host, FORM)
    assert 'name="zero_sum"' in html and "Zero-sum rounds" in html
    assert "How the game is won" in html
    assert '<option value="winners"' in html and "The host names the winners" in html
    assert '<option value="cooperative"' in html and "Together: won or lost" in html


def test_a_zero_sum_mahjong_sheet_and_a_cooperative_pandemic_are_made_and_saved(app, host):
    mahjong = created(host.post(FORM, data=sheet_form(host, name="Mahjong", zero_sum="on",
                                                      outcome="points")))
    assert options_of(host, mahjong)["zero_sum"] is True
    pandemic = created(host.post(FORM, data=sheet_form(host, name="Pandemic",
                                                       outcome="cooperative")))
    assert options_of(host, pandemic)["outcome"] == "cooperative"
    with app.app_context():
        saved = {s.name: s.options for s in db.session.execute(
            db.select(SavedOptions)).scalars()}
    assert saved["Mahjong"]["zero_sum"] is True
    assert saved["Pandemic"]["outcome"] == "cooperative"


def test_zero_sum_bids_are_refused_in_words(app, host):
    response = host.post(FORM, data=sheet_form(host, name="Wizard", zero_sum="on",
                                               bids="wizard"))
    assert response.status_code == 400
    assert "a sheet of bids and tricks cannot be zero-sum" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(db.select(SavedOptions)).scalars().all() == []
