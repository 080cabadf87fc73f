"""No form leaves a refusal to the browser: every form of every screen is `novalidate`
(the panel's forms through their one macro), so a field sent empty or out of range is
answered by the server in the reader's language, never by the browser's own bubble."""
from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FORM = re.compile(r"<form\b[^>]*>", re.S)


def test_every_form_of_every_template_is_novalidate():
    found = [(path.relative_to(TEMPLATES), form) for path in sorted(TEMPLATES.rglob("*.html"))
             for form in FORM.findall(path.read_text(encoding="utf-8"))]
    assert len(found) > 20
    left = [(str(path), form) for path, form in found
            if "novalidate" not in form and "panel_form_attrs(" not in form]
    assert not left, left
    macro = (TEMPLATES / "table" / "_forms.html").read_text(encoding="utf-8")
    attrs = macro[macro.index("macro panel_form_attrs"):macro.index("endmacro", macro.index(
        "macro panel_form_attrs"))]
    assert "novalidate" in attrs
    twice = [(str(path), form) for path, form in found
             if "panel_form_attrs(" in form and "novalidate" in form]
    assert not twice, twice
