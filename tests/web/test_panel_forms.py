"""Every form of a screen that posts and gets the panel back is written one way
(templates/table/_forms.html): the same htmx attributes, its request synced with the
panel's refreshes, a plain form post without htmx."""
from __future__ import annotations

import re

POSTS = re.compile(r"<(form|button)\b[^>]*\bhx-post=[^>]*>", re.S)


def posts_of(html: str) -> list[str]:
    found = [match.group(0) for match in POSTS.finditer(html)]
    assert found
    return found


def assert_written_one_way(html: str, once: bool | None = None) -> None:
    for tag in posts_of(html):
        assert 'hx-target="#panel"' in tag and 'hx-swap="morph"' in tag, tag
        assert 'hx-ext="morph"' in tag, tag  # found even once the sender left the page
        assert 'hx-sync="#live:replace"' in tag, tag
        if tag.startswith("<form"):
            assert 'method="post"' in tag
            post = re.search(r'hx-post="([^"]+)"', tag).group(1)
            assert f'action="{post}"' in tag, tag
        if once is not None:
            assert ('hx-disabled-elt="find button"' in tag) == once, tag


def test_the_lobby_forms_are_written_like_the_moves(client, api):
    table = api.table(start=False)
    client.set_cookie(f"companion_host_{table.code}", table.host)
    html = client.get(f"/t/{table.code}/host").get_data(as_text=True)
    # Each seat's four, add a player, pick who starts at random, start.
    assert len(posts_of(html)) == 3 * 4 + 3
    assert_written_one_way(html, once=True)


def test_the_move_forms_and_the_undo_form_are_written_alike(client, api):
    table = api.table()
    token, move = table.next_move()
    client.set_cookie(f"companion_{table.code}", token)
    status, body = table.act(token, **move)
    assert status == 200, body
    html = client.get(f"/t/{table.code}").get_data(as_text=True)
    assert "From the deck" in html  # the draw that ends the turn
    assert_written_one_way(html, once=False)
    confirm = client.get(f"/t/{table.code}/undo?screen=phone").get_data(as_text=True)
    assert "Yes, undo it" in confirm
    assert_written_one_way(confirm, once=True)
