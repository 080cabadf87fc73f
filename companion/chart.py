"""The score chart at the end of a game: a line per player, drawn on the server as SVG.

The plot stretches to the width it is given (its lines keep their thickness), while the
markers, the scale and the legend keep their size: the markers sit at percentages of the
plot, the scale and the legend are HTML beside it. Each line has a colour, a dash and a
marker shape of its own (static/app.css, `.chart-line-N`), so lines are told apart without
colour, and the colours follow the light and the dark theme. Its words and numbers are in
the language of the request that draws it."""
from __future__ import annotations

from flask_babel import format_decimal, gettext
from markupsafe import Markup, escape

from .plot import LINE_STYLES, from_first_score, marker_samples, plot_of

__all__ = ["from_first_score", "line_chart", "marker_samples"]

# Each marker shape drawn around (0, 0), 9 px across.
SHAPES = ['<circle r="4.5"/>', '<rect x="-4" y="-4" width="8" height="8"/>',
          '<path d="M0 -5 L5 4 L-5 4 Z"/>', '<path d="M0 -5.5 L5.5 0 L0 5.5 L-5.5 0 Z"/>',
          '<path d="M-4.5 -1.5 H-1.5 V-4.5 H1.5 V-1.5 H4.5 V1.5 H1.5 V4.5 H-1.5 V1.5 H-4.5 Z"/>',
          '<path d="M0 5 L5 -4 L-5 -4 Z"/>']
# The plot's own units: stretched to the box (preserveAspectRatio="none").
WIDTH, HEIGHT = 1000, 1000


def line_chart(series: dict[int, list[int]], names: dict[int, str], label: str) -> Markup:
    """The chart of `series` (a score per sample for each player id); `label` says what a
    score counts ("$", "bank total"...)."""
    plot = plot_of(series)
    series, top, bottom, x, y = plot.series, plot.top, plot.bottom, plot.x, plot.y
    finals = ", ".join(f"{names.get(p, '?')} {format_decimal(v[-1])}"
                       for p, v in series.items() if v)
    described = gettext("Scores over the game (%(score)s): %(finals)s", score=gettext(label),
                        finals=finals)
    lines, markers, legend = [], [], []
    for index, (player, values) in enumerate(series.items()):
        style = index % LINE_STYLES
        drawn = " ".join(f"{x(i) * WIDTH / 100:.1f},{y(v) * HEIGHT / 100:.1f}"
                         for i, v in enumerate(values))
        lines.append(f'<polyline class="chart-line chart-line-{style}" points="{drawn}"/>')
        for i in marker_samples(len(values), index):
            markers.append(f'<svg class="chart-marker chart-line-{style}" x="{x(i):.2f}%" '
                           f'y="{y(values[i]):.2f}%" overflow="visible">{SHAPES[style]}</svg>')
        legend.append(f'<li><svg class="chart-key chart-line-{style}" viewBox="-18 -7 36 14" '
                      f'aria-hidden="true"><line class="chart-line" x1="-18" y1="0" x2="18" '
                      f'y2="0"/>{SHAPES[style]}</svg>{escape(names.get(player, "?"))}: '
                      f'{format_decimal(values[-1] if values else 0)}</li>')
    return Markup(
        f'<div class="chart-plot"><div class="chart-scale" aria-hidden="true">'
        f'<span>{format_decimal(top)}</span><span>{format_decimal(bottom)}</span></div>'
        f'<svg class="chart" role="img" '
        f'aria-label="{escape(described)}">'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" preserveAspectRatio="none" overflow="visible">'
        f'<line class="chart-axis" x1="0" y1="{y(bottom) * HEIGHT / 100:.1f}" x2="{WIDTH}" '
        f'y2="{y(bottom) * HEIGHT / 100:.1f}"/>{"".join(lines)}</svg>{"".join(markers)}</svg>'
        f'</div><ul class="chart-legend">{"".join(legend)}</ul>')

