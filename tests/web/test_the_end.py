"""The end of a game reads right: every number column says what it counts, a place never
contradicts the number beside it, Nothing Beats a Large names its winner and ranks nobody
else, and the score chart starts where scoring starts, tells its lines apart without
colour, and samples a long game every few actions."""
from __future__ import annotations

import re

from companion import records, store
from companion.chart import from_first_score, line_chart, marker_samples
from tests.support.api import Api
from tests.support.screens import as_player


def result_html(app, table) -> str:
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    html = phone.get(f"/t/{table.code}").get_data(as_text=True)
    return html[html.index('<section class="result"'):html.index("</section>",
                                                                 html.index('class="result"'))]


def rows(html: str) -> list[list[str]]:
    """The standings table's cells, row by row, as text."""
    table = html[html.index('<table class="standings">'):html.index("</table>")]
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]


def test_go_big_ranks_with_a_labelled_score_and_tie_break(app):
    table = Api(client=app.test_client()).table(options={"copies_per_value": 4})
    table.finish()
    result = table.view()["result"]
    assert result["score_label"] == "bank total" and result["ranked"] is True
    found = rows(result_html(app, table))
    assert found[0] == ["Place", "Player", "Bank total", "Bank cards (tie-break)"]
    names = {p["id"]: p["name"] for p in table.view()["players"]}
    assert found[1:] == [[str(s["place"]), names[s["player"]], str(s["score"]),
                          str(s["tiebreak"]["bank_cards"])] for s in result["standings"]]
    # A place never contradicts its numbers: a better place has a better (score, tie-break).
    keys = [(int(row[2]), int(row[3])) for row in found[1:]]
    places = [int(row[0]) for row in found[1:]]
    for (key, place), (next_key, next_place) in zip(zip(keys, places), zip(keys[1:], places[1:])):
        assert (key == next_key and place == next_place) or (key > next_key and place < next_place)


def test_nothing_beats_a_large_lays_out_its_result_as_every_game_does(app):
    """It ranks only its winner: the same table as the other games', the winner first,
    everyone else sharing second place whatever they completed, and no line of its own."""
    table = Api(client=app.test_client()).table("nothing-beats-a-large")
    table.finish()
    result = table.view()["result"]
    names = {p["id"]: p["name"] for p in table.view()["players"]}
    winner = names[result["winners"][0]]
    html = result_html(app, table)
    assert winner in re.search(r'<p class="explanation">(.*?)</p>', html).group(1)
    assert "Winner:" not in html
    found = rows(html)
    assert found[0] == ["Place", "Player", "Goals completed"]
    assert found[1] == ["1", winner, "2"]
    assert [row[0] for row in found[2:]] == ["2"] * (len(found) - 2)
    assert sorted(row[1] for row in found[1:]) == sorted(names.values())


def test_the_chart_starts_where_scoring_starts():
    assert from_first_score({1: [0, 0, 0, 2, 3], 2: [0, 0, 0, 0, 5]}) == {
        1: [0, 2, 3], 2: [0, 0, 5]}
    assert from_first_score({1: [25, 25, 30], 2: [25, 25, 20]}) == {1: [25, 30], 2: [25, 20]}
    assert from_first_score({1: [0, 0], 2: [0, 0]}) == {1: [0, 0], 2: [0, 0]}


def test_each_line_of_the_chart_has_its_own_dash_and_marker_and_the_legend_says_so():
    series = {player: [0] * 3 + list(range(player, 40, player)) for player in range(1, 7)}
    names = {player: f"P{player}" for player in series}
    svg = str(line_chart(series, names, "$"))
    styles = [re.findall(rf"chart-line-{n}\b", svg) for n in range(6)]
    for n, found in enumerate(styles):
        # its line, its markers and its key in the legend
        assert len(found) == 1 + len(marker_samples(len(series[n + 1]) - 2, n)) + 1, n
    assert len(set(re.findall(r'class="chart-marker chart-line-\d" [^>]*>(<[a-z]+ [^>]*/>)',
                              svg))) == 6
    assert 'aria-label="Scores over the game ($): P1 39, P2 38' in svg
    assert "P6: 36</li>" in svg
    assert 'preserveAspectRatio="none"' in svg and "style=" not in svg


def test_marker_samples_spread_along_the_line_and_end_at_its_end():
    for line in range(6):
        samples = marker_samples(101, line)
        assert samples[-1] == 100 and len(samples) >= 5 and samples == sorted(set(samples))
    assert marker_samples(101, 0) != marker_samples(101, 1)
    assert marker_samples(1, 0) == [0] and marker_samples(0, 0) == []


def sheet_played(app, rounds: int, players=("Ann", "Ben", "Cat")):
    """A score sheet entered by the host as scorer to its last round: the table, and each
    player's total, round by round."""
    table = Api(client=app.test_client()).table(
        game="score-sheet", players=players,
        options={"name": "Long", "rounds": rounds, "entry": "scorer"})
    totals = {player: [0] for player in table.ids.values()}
    for round_number in range(1, rounds + 1):
        for n, player in enumerate(table.ids.values()):
            score = (round_number * 7 + n * 3) % 11
            status, body = table.act(table.host, type="enter", round=round_number,
                                     player=player, scores={"Points": score})
            assert status == 200, body
            totals[player].append(totals[player][-1] + score)
    assert table.view()["status"] == "finished"
    return table, totals


def series_of(app, table) -> dict[int, list[int]]:
    with app.test_request_context():
        return records.score_series(store.load(store.find_version(table.code)[0]))


def test_the_chart_of_a_short_game_has_a_sample_per_action_and_of_a_long_one_a_few_hundred(app):
    """Every action of a short game is a sample of its chart. A long one (a sheet of 100
    rounds of five: 500 entries) is sampled every few actions, evenly, up to its end: its
    chart is drawn from at most CHART_SAMPLES samples (a sheet's totals are each a sum of
    every row: scored after each entry, a long sheet's end cost the square of its length)."""
    short, totals = sheet_played(app, 4)
    series = series_of(app, short)
    # A round's total shows once its three entries are in: setup, then one per entry.
    assert {player: len(values) for player, values in series.items()} == \
        {player: 1 + 3 * 4 for player in totals}
    assert {player: values[-1] for player, values in series.items()} == \
        {player: values[-1] for player, values in totals.items()}

    long, totals = sheet_played(app, 100, ("Ann", "Ben", "Cat", "Dan", "Eve"))
    series = series_of(app, long)
    lengths = {len(values) for values in series.values()}
    assert len(lengths) == 1 and records.CHART_SAMPLES // 2 < lengths.pop() <= \
        records.CHART_SAMPLES + 1
    assert {player: values[-1] for player, values in series.items()} == \
        {player: values[-1] for player, values in totals.items()}
    for values in series.values():  # the totals only grow (no score is below 0)
        assert values == sorted(values) and values[0] == 0
