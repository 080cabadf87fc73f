"""A game's public part cut into its frame and pieces: what a change sends a screen."""
from __future__ import annotations

from markupsafe import escape

from companion.web.public_pieces import changed, cut

SHEET = ('<table><thead id="heads" data-piece><tr><th>Ann</th></tr></thead><tbody>'
         '<tr id="round-1" data-piece class="latest"><td><table><tr><td>{one}</td></tr>'
         '</table></td></tr><tr id="open" data-piece><td>{open}</td></tr></tbody></table>'
         '<p id="entered" data-piece>{entered}</p>')


def test_a_part_is_cut_at_its_pieces_each_whole_with_what_it_holds():
    frame, pieces = cut(SHEET.format(one=3, open="…", entered="0 of 2"))
    assert list(pieces) == ["heads", "round-1", "open", "entered"]
    assert pieces["round-1"] == ('<tr id="round-1" data-piece class="latest"><td><table><tr>'
                                 '<td>3</td></tr></table></td></tr>')
    assert frame == ('<table><piece heads><tbody><piece round-1><piece open></tbody></table>'
                     '<piece entered>')


def test_a_change_sends_the_pieces_it_changed_and_the_whole_part_when_the_frame_changed():
    before = cut(SHEET.format(one=3, open="…", entered="0 of 2"))
    after = cut(SHEET.format(one=3, open="✓", entered="1 of 2"))
    assert changed(before, after) == [  # (a row read outside a table needs a template)
        '<template><tr id="open" data-piece hx-swap-oob="morph"><td>✓</td></tr></template>',
        '<template><p id="entered" data-piece hx-swap-oob="morph">1 of 2</p></template>']
    assert changed(before, before) == []
    closed = cut(SHEET.format(one=3, open="…", entered="0 of 2").replace("<tbody>", "<tbody>x"))
    assert changed(before, closed) is None


def test_text_typed_at_the_table_makes_no_piece():
    typed = str(escape('<b id="open" data-piece>'))
    frame, pieces = cut(f"<p>{typed}</p>")
    assert pieces == {} and frame == f"<p>{typed}</p>"
