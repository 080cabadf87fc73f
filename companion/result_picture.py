"""A finished game's result as a PNG picture, for a group chat: the game's name and date,
the winner, the standings, the sentence that explains the result (its tie-break) and the
score chart, each line of the chart with the colour, dash and marker of its line on the
screens.

It draws words it is handed, already in the reader's language: it knows no language and
no request. The font is DejaVu Sans (it has the letters of every language the app speaks),
installed with the front-end files (`make install`, static/vendor/fonts). It is drawn at
twice its size and scaled down, which smooths the lines and the markers."""
from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .plot import LINE_STYLES, Plot, marker_samples

FONTS = Path(__file__).resolve().parent.parent / "static" / "vendor" / "fonts"
REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"

WIDTH = 1200  # the picture's, in pixels: chat apps show 1080 and more sharp
SCALE = 2  # drawn at this many times its size, then scaled down
MARGIN = 72
INK, MUTED, RULE, PAPER, WINNER_BAND = "#1b1b1f", "#5b5b66", "#c9c9d1", "#ffffff", "#fff3c4"
# The screens' light theme (static/app.css, .chart-line-N): colour and dash of each line,
# the dash in its stroke widths.
LINE_COLOURS = ("#1f6fb4", "#c62828", "#23802a", "#7b4fb0", "#b35900", "#0e7c86")
DASHES: tuple[tuple[float, ...], ...] = ((), (3.6, 1.6), (0.8, 1.2), (4.8, 1.2, 0.8, 1.2),
                                         (2, 2), (5.6, 1.6, 0.8, 1.6, 0.8, 1.6))
LINE_WIDTH = 5
MARKER_RADIUS = 9


@dataclass(frozen=True)
class ResultSheet:
    """What the picture shows, every word and figure as the reader reads it."""

    title: str
    date: str
    winners: str  # "Winner: Ann"
    explanation: str
    columns: list[str]  # the standings' headings: place, player, score, tie-breaks
    rows: list[list[str]]  # the standings, cell by cell, as the headings say
    first: list[bool]  # which rows are the winners'
    caption: str  # what the chart shows
    legend: dict[int, str]  # each line's key: "Ann: 32"
    scale: tuple[str, str]  # the chart's top and bottom scores, written
    plot: Plot
    scored: bool = True  # False: no score column, no chart (a game won without points)


class MissingFont(RuntimeError):
    """The font is not installed (`make install` copies it)."""


@lru_cache(maxsize=32)
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    path = FONTS / name
    if not path.is_file():
        raise MissingFont(f"{path} is missing: `make install` installs it")
    return ImageFont.truetype(str(path), size * SCALE)


def drawn_text(sheet: ResultSheet) -> list[str]:
    """Every text the picture draws (what a test checks the font has every letter of)."""
    return [sheet.title, sheet.date, sheet.winners, sheet.explanation, *sheet.columns,
            *(cell for row in sheet.rows for cell in row), sheet.caption,
            *sheet.legend.values(), *sheet.scale]


def draw(sheet: ResultSheet) -> bytes:
    """The picture of `sheet`, as PNG."""
    width = WIDTH * SCALE
    blocks = list(_layout(sheet, width - 2 * MARGIN * SCALE))
    wider = max(block.needed for block in blocks)
    if wider > width - 2 * MARGIN * SCALE:  # standings too wide even in their smallest type
        width = wider + 2 * MARGIN * SCALE
        blocks = list(_layout(sheet, wider))
    height = sum(block.height for block in blocks) + 2 * MARGIN * SCALE
    image = Image.new("RGB", (width, height), PAPER)
    pen = ImageDraw.Draw(image)
    top = MARGIN * SCALE
    for block in blocks:
        block.draw(pen, MARGIN * SCALE, top)
        top += block.height
    picture = image.reduce(SCALE)
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()


class Block:
    """A part of the picture, the full width of the text, `height` tall."""

    height = 0
    needed = 0  # the width it would need, when more than it was given

    def draw(self, pen: ImageDraw.ImageDraw, left: int, top: int) -> None:
        raise NotImplementedError


class Gap(Block):
    def __init__(self, size: int):
        self.height = size * SCALE

    def draw(self, pen: ImageDraw.ImageDraw, left: int, top: int) -> None:
        pass


class Paragraph(Block):
    """Text wrapped at spaces to the width."""

    def __init__(self, text: str, width: int, size: int, bold: bool = False,
                 colour: str = INK):
        self.face = font(BOLD if bold else REGULAR, size)
        self.colour = colour
        self.lines = wrapped(text, self.face, width)
        self.line_height = round(size * 1.35) * SCALE
        self.height = self.line_height * len(self.lines)

    def draw(self, pen: ImageDraw.ImageDraw, left: int, top: int) -> None:
        for number, line in enumerate(self.lines):
            pen.text((left, top + number * self.line_height), line, font=self.face,
                     fill=self.colour)


def wrapped(text: str, face: ImageFont.FreeTypeFont, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split(" "):
            tried = f"{line} {word}" if line else word
            if line and face.getlength(tried) > width:
                lines.append(line)
                line = word
            else:
                line = tried
        lines.append(line)
    return lines


class Standings(Block):
    """The standings as a table: the place and the player at the left, the numbers at
    the right of their columns; the winners' rows bold on a band."""

    SIZES = (26, 22, 18)  # the largest whose columns fit the width, else the picture widens
    ROW = 50

    def __init__(self, sheet: ResultSheet, width: int):
        self.sheet = sheet
        gap = 36 * SCALE
        for size in self.SIZES:
            self.regular, self.bold = font(REGULAR, size), font(BOLD, size)
            self.heading = font(BOLD, size - 4)
            widths = [max(self.bold.getlength(row[column])
                          for row in [sheet.columns, *sheet.rows])
                      for column in range(len(sheet.columns))]
            needed = sum(widths) + gap * (len(widths) - 1)
            if needed <= width:
                break
        self.needed = int(needed) + SCALE
        # The player's column takes what the others leave.
        widths[1] += max(0, width - needed)
        self.edges = [sum(widths[:column]) + gap * column for column in range(len(widths))]
        self.widths = widths
        self.height = self.ROW * SCALE * (len(sheet.rows) + 1)

    def draw(self, pen: ImageDraw.ImageDraw, left: int, top: int) -> None:
        row_height = self.ROW * SCALE
        right = left + self.edges[-1] + self.widths[-1]
        self.cells(pen, left, top, self.sheet.columns, self.heading, MUTED)
        pen.line([(left, top + row_height - SCALE), (right, top + row_height - SCALE)],
                 fill=RULE, width=2 * SCALE)
        for index, row in enumerate(self.sheet.rows):
            y = top + row_height * (index + 1)
            if self.sheet.first[index]:
                pen.rectangle([left - 12 * SCALE, y + 2 * SCALE, right + 12 * SCALE,
                               y + row_height - 2 * SCALE], fill=WINNER_BAND)
            self.cells(pen, left, y, row, self.bold if self.sheet.first[index] else self.regular,
                       INK)

    def cells(self, pen: ImageDraw.ImageDraw, left: int, top: int, cells: list[str],
              face: ImageFont.FreeTypeFont, colour: str) -> None:
        middle = top + self.ROW * SCALE // 2
        for column, text in enumerate(cells):
            x = left + self.edges[column]
            if column >= 2:  # a number: at the right of its column
                x += self.widths[column] - face.getlength(text)
            pen.text((x, middle), text, font=face, fill=colour, anchor="lm")


class Chart(Block):
    """The score chart: the scale at the left, a line per player with its dash and its
    markers, and the legend under it."""

    PLOT = 380
    ABOVE = 32  # room for the scale's top figure under the caption
    SIZE = 22

    def __init__(self, sheet: ResultSheet, width: int):
        self.sheet, self.width = sheet, width
        self.face = font(REGULAR, self.SIZE)
        self.scale_width = int(max(self.face.getlength(text) for text in sheet.scale)) + 16 * SCALE
        self.legend_rows = list(self.legend_layout())
        legend_height = (self.legend_rows[-1][2] + 1) * 40 * SCALE if self.legend_rows else 0
        self.height = (self.ABOVE + self.PLOT + 24) * SCALE + legend_height

    def legend_layout(self) -> Iterator[tuple[int, int, int]]:
        """(player, column in pixels, row) of each key of the legend, left to right."""
        x, row, key = 0, 0, 64 * SCALE
        for player, text in self.sheet.legend.items():
            wide = key + int(self.face.getlength(text)) + 32 * SCALE
            if x and x + wide > self.width:
                x, row = 0, row + 1
            yield player, x, row
            x += wide

    def draw(self, pen: ImageDraw.ImageDraw, left: int, top: int) -> None:
        plot = self.sheet.plot
        box = (left + self.scale_width, top + self.ABOVE * SCALE, left + self.width,
               top + (self.PLOT + self.ABOVE) * SCALE)
        pen.text((box[0] - 12 * SCALE, box[1]), self.sheet.scale[0], font=self.face,
                 fill=MUTED, anchor="rm")
        pen.text((box[0] - 12 * SCALE, box[3]), self.sheet.scale[1], font=self.face,
                 fill=MUTED, anchor="rm")

        def at(sample: int, score: int) -> tuple[float, float]:
            return (box[0] + (box[2] - box[0]) * plot.x(sample) / 100,
                    box[1] + (box[3] - box[1]) * plot.y(score) / 100)

        axis = at(0, plot.bottom)[1]
        pen.line([(box[0], axis), (box[2], axis)], fill=MUTED, width=SCALE)
        for index, values in enumerate(plot.series.values()):
            style = index % LINE_STYLES
            points = [at(sample, score) for sample, score in enumerate(values)]
            dashed_line(pen, points, style)
            for sample in marker_samples(len(values), index):
                marker(pen, points[sample], style)
        keys_top = box[3] + 24 * SCALE
        for player, x, row in self.legend_rows:
            style = list(plot.series).index(player) % LINE_STYLES if player in plot.series else 0
            y = keys_top + row * 40 * SCALE + 20 * SCALE
            dashed_line(pen, [(left + x, y), (left + x + 52 * SCALE, y)], style)
            marker(pen, (left + x + 26 * SCALE, y), style)
            pen.text((left + x + 64 * SCALE, y), self.sheet.legend[player], font=self.face,
                     fill=INK, anchor="lm")


def dashed_line(pen: ImageDraw.ImageDraw, points: list[tuple[float, float]],
                style: int) -> None:
    """A line through `points` in the style's colour and dash (the dash carried on from
    one segment to the next, as SVG draws it)."""
    colour, width = LINE_COLOURS[style], LINE_WIDTH * SCALE
    pattern = [length * width for length in DASHES[style]]
    if not pattern or len(points) < 2:
        if len(points) >= 2:
            pen.line(points, fill=colour, width=width, joint="curve")
        return
    dash, left_in_dash = 0, pattern[0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        done = 0.0
        while done < length:
            step = min(left_in_dash, length - done)
            if dash % 2 == 0:
                start, end = done / length, (done + step) / length
                pen.line([(x0 + (x1 - x0) * start, y0 + (y1 - y0) * start),
                          (x0 + (x1 - x0) * end, y0 + (y1 - y0) * end)],
                         fill=colour, width=width)
            done += step
            left_in_dash -= step
            if left_in_dash <= 0:
                dash = (dash + 1) % len(pattern)
                left_in_dash = pattern[dash]


def marker(pen: ImageDraw.ImageDraw, at: tuple[float, float], style: int) -> None:
    """The style's marker (the screens' shapes: a circle, a square, a triangle, a diamond,
    a cross, a triangle upside down) around `at`, edged in the paper's colour."""
    x, y = at
    r = MARKER_RADIUS * SCALE
    colour = LINE_COLOURS[style]
    if style == 0:
        pen.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=PAPER)
        return
    t = 1 / 3  # the cross's half-thickness
    corners = {
        1: [(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)],
        2: [(0, -1.1), (1.1, 0.9), (-1.1, 0.9)],
        3: [(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)],
        4: [(-1, -t), (-t, -t), (-t, -1), (t, -1),
            (t, -t), (1, -t), (1, t), (t, t),
            (t, 1), (-t, 1), (-t, t), (-1, t)],
        5: [(0, 1.1), (1.1, -0.9), (-1.1, -0.9)],
    }[style]
    pen.polygon([(x + r * dx, y + r * dy) for dx, dy in corners], fill=colour, outline=PAPER)


def _layout(sheet: ResultSheet, width: int) -> Iterator[Block]:
    yield Paragraph(sheet.title, width, 44, bold=True)
    yield Paragraph(sheet.date, width, 24, colour=MUTED)
    yield Gap(20)
    yield Paragraph(sheet.winners, width, 32, bold=True)
    yield Gap(12)
    yield Paragraph(sheet.explanation, width, 24)
    yield Gap(24)
    yield Standings(sheet, width)
    if sheet.scored:
        yield Gap(36)
        yield Paragraph(sheet.caption, width, 22, colour=MUTED)
        yield Chart(sheet, width)
