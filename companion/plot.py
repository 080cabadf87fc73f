"""The score chart's data, whatever draws it: the series from the first move that scored,
the scale (its top and bottom), where each sample falls as a percentage of the plot, and
where the markers go. The screens' SVG (companion/chart.py) and the result's picture
(companion/result_picture.py) both draw from it."""
from __future__ import annotations

from dataclasses import dataclass

LINE_STYLES = 6  # each line's colour, dash and marker shape: .chart-line-0 ... 5
MARKERS_PER_LINE = 5


def from_first_score(series: dict[int, list[int]]) -> dict[int, list[int]]:
    """The series from the sample before the first change of any score (the setup steps
    that score nothing are left out); unchanged if no score ever changes."""
    length = max((len(values) for values in series.values()), default=0)
    for index in range(1, length):
        if any(len(values) > index and values[index] != values[0]
               for values in series.values()):
            return {player: values[index - 1:] for player, values in series.items()}
    return series


def marker_samples(length: int, line: int) -> list[int]:
    """Where a line's markers go: a few samples spread along it, shifted a little per line
    so that lines running together still show each their own, and the last sample."""
    if length <= 1:
        return [0] * length
    step = (length - 1) / MARKERS_PER_LINE
    shift = step * (line % LINE_STYLES) / LINE_STYLES
    found = {round(shift + step * k) for k in range(MARKERS_PER_LINE)}
    return sorted(found | {length - 1})


@dataclass(frozen=True)
class Plot:
    """A chart's series (a score per sample for each player id, from the first score) on
    their scale: `top` the highest score, `bottom` the lowest or 0."""

    series: dict[int, list[int]]
    top: int
    bottom: int
    points: int

    def x(self, sample: int) -> float:
        """Where a sample falls across the plot, 0 to 100."""
        return 100 * sample / max(1, self.points - 1)

    def y(self, score: int) -> float:
        """Where a score falls down the plot, 0 (the top) to 100 (the bottom)."""
        return 100 * (self.top - score) / (self.top - self.bottom or 1)

    def final(self, player: int) -> int:
        values = self.series.get(player) or [0]
        return values[-1]


def plot_of(series: dict[int, list[int]]) -> Plot:
    series = from_first_score(series)
    top = max((max(values) for values in series.values() if values), default=0)
    bottom = min(0, min((min(values) for values in series.values() if values), default=0))
    points = max((len(values) for values in series.values()), default=1)
    return Plot(series, top, bottom, points)
