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

LINE_STYLES = 6  # .chart-line-0 ... .chart-line-5 in static/app.css
MARKERS_PER_LINE = 5
# Each marker shape drawn around (0, 0), 9 px across.
SHAPES = ['<circle r="4.5"/>', '<rect x="-4" y="-4" width="8" height="8"/>',
          '<path d="M0 -5 L5 4 L-5 4 Z"/>', '<path d="M0 -5.5 L5.5 0 L0 5.5 L-5.5 0 Z"/>',
          '<path d="M-4.5 -1.5 H-1.5 V-4.5 H1.5 V-1.5 H4.5 V1.5 H1.5 V4.5 H-1.5 V1.5 H-4.5 Z"/>',
          '<path d="M0 5 L5 -4 L-5 -4 Z"/>']
# The plot's own units: stretched to the box (preserveAspectRatio="none").
WIDTH, HEIGHT = 1000, 1000


def from_first_score(series: dict[int, list[int]]) -> dict[int, list[int]]:
    """The series from the sample before the first change of any score (the setup steps
    that score nothing are left out); unchanged if no score ever changes."""
    length = max((len(values) for values in series.values()), default=0)
    for index in range(1, length):
        if any(len(values) > index and values[index] != values[0]
               for values in series.values()):
            return {player: values[index - 1:] for player, values in series.items()}
    return series


def line_chart(series: dict[int, list[int]], names: dict[int, str], label: str) -> Markup:
    """The chart of `series` (a score per sample for each player id); `label` says what a
    score counts ("$", "bank total"...)."""
    series = from_first_score(series)
    points = max((len(values) for values in series.values()), default=1)
    top = max((max(values) for values in series.values() if values), default=0)
    bottom = min(0, min((min(values) for values in series.values() if values), default=0))
    span = top - bottom or 1

    def x(i: int) -> float:
        return 100 * i / max(1, points - 1)

    def y(score: int) -> float:
        return 100 * (top - score) / span

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


def marker_samples(length: int, line: int) -> list[int]:
    """Where a line's markers go: a few samples spread along it, shifted a little per line
    so that lines running together still show each their own, and the last sample."""
    if length <= 1:
        return [0] * length
    step = (length - 1) / MARKERS_PER_LINE
    shift = step * (line % LINE_STYLES) / LINE_STYLES
    found = {round(shift + step * k) for k in range(MARKERS_PER_LINE)}
    return sorted(found | {length - 1})
