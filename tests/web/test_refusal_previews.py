"""A preview asked while a move is being filled in answers with what the move lacks (our
words, 200: the answer to the question asked), never an error status the browser would log
at each keystroke; a preview of a move the rules refuse names the rule."""
from __future__ import annotations

from tests.support.api import Api


def test_a_market_card_half_typed_previews_what_it_lacks(app):
    table = Api(client=app.test_client()).table("big-money", players=("Ann", "Ben", "Cat"))
    for name, industry in (("Ann", "food"), ("Ben", "sports"), ("Cat", "travel")):
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    phone = app.test_client()
    phone.set_cookie(f"companion_{table.code}", table.tokens["Ann"])
    answer = phone.get(f"/t/{table.code}/preview?screen=phone&type=reveal&slot=0"
                       "&asset.price=12", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert 'role="alert">Tap the industry of the card.</p>' in answer.get_data(as_text=True)


def test_a_move_out_of_its_step_previews_its_rule(app):
    table = Api(client=app.test_client()).table("go-big")
    turn = table.view()["turn"]
    phone = app.test_client()
    phone.set_cookie(f"companion_{table.code}", table.token_of(turn))
    answer = phone.get(f"/t/{table.code}/preview?screen=phone&type=draw&source=deck",
                       headers={"HX-Request": "true"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'class="error"' in html
    assert 'href="/rules/go-big#' in html and "Rule: " in html
