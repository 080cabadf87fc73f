"""/games with score sheets won without points: the winners the host named counted as
wins, and games won or lost together counted apart, with their own win rate."""
from __future__ import annotations

import re

from tests.support.pages import page
from tests.support.score_sheets import Sheet


def finish(app, names, **ending):
    sheet = Sheet(app, names=names, name="Pandemic" if "won" in ending else "Codenames",
                  outcome="cooperative" if "won" in ending else "winners")
    ids = sheet.seated.ids
    if "winners" in ending:
        ending = {"winners[]": [ids[name] for name in ending["winners"]]}
    sheet.post(None, "/act", {"type": "finish", **ending})
    return sheet


def rows(html, section):
    """The body rows of the table under the heading with id `section`, as cell texts."""
    part = html.split(f'id="{section}"', 1)[1].split("</table>", 1)[0]
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", part)
            if "<td>" in row]


def test_named_winners_are_counted_as_wins(app):
    finish(app, ("Ann", "Ben", "Cat"), winners=["Ann", "Cat"])
    html = page(app.test_client(), "/games")
    assert "won by <strong>Ann, Cat</strong>" in html
    players = html.split("<h2>Players</h2>", 1)[1].split("</table>", 1)[0]
    assert "<tr><td>Ann</td><td>Codenames</td><td>1</td><td>1</td></tr>" in players
    assert "<tr><td>Ben</td><td>Codenames</td><td>1</td><td>0</td></tr>" in players


def test_cooperative_games_keep_their_win_rate_apart(app):
    finish(app, ("Ann", "Ben"), won="true")
    finish(app, ("Ann", "Ben"), won="false", score="2")
    finish(app, ("Ann", "Cat"), won="true")
    finish(app, ("Ann", "Ben"), winners=["Ben"])
    html = page(app.test_client(), "/games")
    assert "<strong>lost together</strong>" in html and "<strong>won together</strong>" in html
    together = rows(html, "together-stats")
    assert ["Ann", "Pandemic", "3", "2", "67%"] in together
    assert ["Ben", "Pandemic", "2", "1", "50%"] in together
    assert not any(row[1] == "Codenames" for row in together)
    players = html.split("<h2>Players</h2>", 1)[1].split("</table>", 1)[0]
    assert "Pandemic" not in players
    assert "Codenames" in players
    assert 'id="sheet-stats"' not in html  # no totals for games won without points
