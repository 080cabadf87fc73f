"""The box's words that screens show are marked for translation (companion/web/box_labels.py):
a name added to Big Money's box data and not to the list would stay English everywhere."""
import json
from pathlib import Path

from companion.games import GAMES
from companion.web import box_labels

BOX = Path(box_labels.__file__).resolve().parents[1] / "games" / "big_money" / "box.json"


def marked(words) -> set[str]:
    return {str(word) for word in words}  # outside a request: the English source


def test_every_payout_and_biz_news_name_of_the_box_is_marked():
    box = json.loads(BOX.read_text())
    assert {payout["name"] for payout in box["number_payouts"].values()} == \
        marked(box_labels.BIG_MONEY_PAYOUTS)
    assert {card["name"] for card in box["biz_news"]} == marked(box_labels.BIG_MONEY_BIZ_NEWS)
    assert ({card["text"] for card in box["biz_news"]}
            == marked(box_labels.BIG_MONEY_BIZ_NEWS_TEXTS))


def test_every_built_in_game_title_and_role_is_marked():
    """A game registered from outside the app (`Game.files`) brings its own catalog."""
    words = marked(box_labels.GAME_WORDS)
    for game in GAMES.values():
        if game.files is not None:
            continue
        assert {game.title, game.secrets_called, game.first_player_role} <= words
