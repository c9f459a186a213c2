"""Running-balance charts: the table's lines with direct labels (up to 8 players), small
multiples beyond (a club's season of 40 members), and one player's line drawn against the
table's on their statement.

Balances stay ``int`` minor units; floats appear only as plot coordinates. The axis title
("Hand", "Night") and "rest of the table" are in the current language, drawn run by run in the
fonts their script needs, like the names.
"""
from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Table, TableStyle

from ledger.i18n import _
from ledger.statements.fonts import BODY, drawn, font_for
from ledger.statements.look import MUTED, RULE, Money, short

# Okabe-Ito derived, distinguishable for colour-blind readers.
SERIES_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#332288", "#882255")
OTHERS = colors.HexColor("#C7CCD3")
DIRECT_LABELS_UP_TO = 8
MAX_POINTS = 500
LABEL_SIZE = 7.5
LABEL_GAP = LABEL_SIZE * 1.4  # labels this far apart: their lines (ascent to descent) do not touch
BOTTOM = 26  # below the plot: the hand numbers, then "Hand"
AXIS_TITLE_SIZE = 6.5

Series = dict[str, list[tuple[int, int]]]


def series_colour(i: int) -> colors.Color:
    return colors.HexColor(SERIES_COLOURS[i % len(SERIES_COLOURS)])


def nice_step(span: int, intervals: int) -> int:
    """Smallest 1/2/2.5/5 x 10^k integer step covering ``span`` in at most ``intervals``."""
    span = max(span, 1)
    magnitude = 1
    while True:
        quarter = [25 * magnitude // 10] if magnitude >= 10 else []
        for step in [magnitude, 2 * magnitude, *quarter, 5 * magnitude]:
            if span <= step * intervals:
                return step
        magnitude *= 10


def _thin(points: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """At most about ``MAX_POINTS`` points, keeping each stretch's lowest and highest."""
    if len(points) <= MAX_POINTS:
        return [(float(x), float(y)) for x, y in points]
    bucket = -(-len(points) // (MAX_POINTS // 2))
    out: list[tuple[int, int]] = [points[0]]
    for start in range(1, len(points), bucket):
        chunk = points[start:start + bucket]
        low = min(chunk, key=lambda p: p[1])
        high = max(chunk, key=lambda p: p[1])
        out.extend(sorted({low, high}))
    if out[-1] != points[-1]:
        out.append(points[-1])
    return [(float(x), float(y)) for x, y in out]


def _scale(series: Series) -> tuple[int, int, int]:
    low = min(0, *(y for pts in series.values() for _x, y in pts))
    high = max(0, *(y for pts in series.values() for _x, y in pts))
    step = nice_step(high - low, 6)
    y_min = (low // step) * step
    y_max = -((-high) // step) * step
    if y_max == y_min:
        y_max = y_min + step
    return y_min, y_max, step


def _plot(series: Series, order: Sequence[str], x: float, y: float, width: float, height: float,
          money: Money, scale: tuple[int, int, int], last: int, *, axis_labels: bool = True) -> LinePlot:
    y_min, y_max, y_step = scale
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = x, y, width, height
    plot.data = [_thin(series[p]) for p in order]
    plot.joinedLines = 1
    xa = plot.xValueAxis
    xa.valueMin, xa.valueMax = 0, max(last, 1)
    x_step = nice_step(last, 10 if axis_labels else 3)
    xa.valueSteps = list(range(0, last + 1, x_step))
    xa.labels.fontName, xa.labels.fontSize, xa.labels.fillColor = BODY, 6.5 if axis_labels else 5.5, MUTED
    xa.labelTextFormat = lambda v: str(int(round(v)))
    xa.strokeColor = RULE
    xa.tickDown = 2
    ya = plot.yValueAxis
    ya.valueMin, ya.valueMax = y_min, y_max
    ya.valueSteps = list(range(y_min, y_max + 1, y_step if axis_labels else (y_max - y_min)))
    labels = [money(v) for v in ya.valueSteps]
    ya.labels.fontName = font_for("".join(labels))
    ya.labels.fontSize, ya.labels.fillColor = 6.5 if axis_labels else 5.5, MUTED
    ya.labelTextFormat = lambda v: money(int(round(v)))  # our own integer steps, shown as money
    ya.strokeColor = RULE
    ya.visibleGrid = 1
    ya.gridStrokeColor = colors.HexColor("#E5E7EB")
    ya.gridStrokeWidth = 0.5
    ya.tickLeft = 2
    return plot


def _label_width(labels: Sequence[str], size: float) -> float:
    return max(sum(width for _font, _piece, width in drawn(s, size)) for s in labels)


def _zero_line(drawing: Drawing, plot: LinePlot, scale: tuple[int, int, int]) -> None:
    y_min, y_max, _step = scale
    zero = plot.y + plot.height * (0 - y_min) / (y_max - y_min)
    drawing.add(Line(plot.x, zero, plot.x + plot.width, zero, strokeColor=MUTED, strokeWidth=0.6))


def _y_of(plot: LinePlot, scale: tuple[int, int, int], value: int) -> float:
    y_min, y_max, _step = scale
    return plot.y + plot.height * (value - y_min) / (y_max - y_min)


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions near ``wanted`` (sorted ascending) at least ``gap`` apart."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + gap) if placed else max(y, low))
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    return placed


def _label(drawing: Drawing, x: float, y: float, name: str, colour: colors.Color, bold: bool = False) -> None:
    for font, piece, width in drawn(name, LABEL_SIZE, bold=bold):
        drawing.add(String(x, y, piece, fontName=font, fontSize=LABEL_SIZE, fillColor=colour))
        x += width


def _axis_title(drawing: Drawing, plot: LinePlot, title: str) -> None:
    """``title`` ("Hand") centred under the hand numbers."""
    pieces = drawn(title, AXIS_TITLE_SIZE)
    x = plot.x + plot.width / 2 - sum(width for _f, _p, width in pieces) / 2
    for font, piece, width in pieces:
        drawing.add(String(x, 2, piece, fontName=font, fontSize=AXIS_TITLE_SIZE, fillColor=MUTED))
        x += width


def table_chart(players: Sequence[str], series: Series, money: Money, width: float, *,
                x_title: str | None = None) -> Flowable:
    """Every player's running balance: one plot with a label at each line's end (up to
    ``DIRECT_LABELS_UP_TO`` players), small multiples on one shared scale beyond, a row of
    panels at a time (so 40 members run on over pages). ``x_title`` names the steps along the
    bottom ("Hand" in the current language by default; a club's season passes "Night")."""
    last = max(x for pts in series.values() for x, _y in pts)
    scale = _scale(series)
    if len(players) > DIRECT_LABELS_UP_TO:
        return _small_multiples(players, series, money, width, scale, last)
    names = [short(p, 18) for p in players]
    label_w = _label_width(names, LABEL_SIZE) + 10
    y_labels = [money(v) for v in range(scale[0], scale[1] + 1, scale[2])]
    left = _label_width(y_labels, 6.5) + 8
    height = 66 * mm
    drawing = Drawing(width, height)
    plot = _plot(series, players, left, BOTTOM, width - left - label_w, height - BOTTOM - 8, money, scale, last)
    for i in range(len(players)):
        plot.lines[i].strokeColor = series_colour(i)
        plot.lines[i].strokeWidth = 1.5
    drawing.add(plot)
    _zero_line(drawing, plot, scale)
    ends = sorted(range(len(players)), key=lambda i: series[players[i]][-1][1])
    ys = _spread([_y_of(plot, scale, series[players[i]][-1][1]) - 2.5 for i in ends], LABEL_GAP,
                 plot.y - 2, plot.y + plot.height)
    for i, y in zip(ends, ys):
        _label(drawing, plot.x + plot.width + 4, y, names[i], series_colour(i))
    _axis_title(drawing, plot, _("Hand") if x_title is None else x_title)
    return drawing


def _fit(name: str, width: float, size: float) -> str:
    """``name``, clipped with an ellipsis until it is no wider than ``width`` (bold)."""
    limit = len(name)
    while limit > 1 and _drawn_width(short(name, limit), size) > width:
        limit -= 1
    return short(name, limit)


def _drawn_width(text: str, size: float) -> float:
    return sum(width for _font, _piece, width in drawn(text, size, bold=True))


def _small_multiples(players: Sequence[str], series: Series, money: Money, width: float,
                     scale: tuple[int, int, int], last: int) -> Table:
    columns = 5 if width > 600 else 4
    rows = -(-len(players) // columns)
    cell_w, cell_h = width / columns, 32 * mm
    y_labels = [money(scale[0]), money(scale[1])]
    left = _label_width(y_labels, 5.5) + 6
    drawings = []
    for row in range(rows):
        drawing = Drawing(width, cell_h)
        for col in range(columns):
            i = row * columns + col
            if i >= len(players):
                break
            player, x0 = players[i], col * cell_w
            # from the bottom: hand numbers, the plot, the panel's title (name, final balance)
            plot = _plot(series, [player], x0 + left, 16, cell_w - left - 6, cell_h - 37, money, scale, last,
                         axis_labels=False)
            plot.lines[0].strokeColor = series_colour(i)
            plot.lines[0].strokeWidth = 1.2
            drawing.add(plot)
            _zero_line(drawing, plot, scale)
            final = money(series[player][-1][1])
            room = plot.x + plot.width - (x0 + 4) - _drawn_width(final, LABEL_SIZE) - 6
            _label(drawing, x0 + 4, cell_h - 11, _fit(player, room, LABEL_SIZE), series_colour(i), bold=True)
            drawing.add(String(plot.x + plot.width, cell_h - 11, final, fontName=font_for(final, bold=True),
                               fontSize=LABEL_SIZE, fillColor=money.colour(series[player][-1][1]),
                               textAnchor="end"))
        drawings.append([drawing])
    table = Table(drawings, colWidths=[width], hAlign="LEFT")
    table.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
    return table


def player_chart(players: Sequence[str], series: Series, player: str, money: Money, width: float, *,
                 x_title: str | None = None) -> Drawing:
    """``player``'s running balance (bold, coloured) drawn against the rest of the table's
    (thin grey), labelled at the line's end; "rest of the table" beside where the others end.
    ``x_title`` as for :func:`table_chart`."""
    last = max(x for pts in series.values() for x, _y in pts)
    scale = _scale(series)
    others = [p for p in players if p != player]
    order = [*others, player]
    y_labels = [money(v) for v in range(scale[0], scale[1] + 1, scale[2])]
    left = _label_width(y_labels, 6.5) + 8
    label = short(player, 18)
    rest = _("rest of the table")
    label_w = max(_label_width([label, rest], LABEL_SIZE) + 10, 20)
    height = 58 * mm
    drawing = Drawing(width, height)
    plot = _plot(series, order, left, BOTTOM, width - left - label_w, height - BOTTOM - 8, money, scale, last)
    for i in range(len(others)):
        plot.lines[i].strokeColor = OTHERS
        plot.lines[i].strokeWidth = 0.8
    seat = list(players).index(player)
    plot.lines[len(others)].strokeColor = series_colour(seat)
    plot.lines[len(others)].strokeWidth = 2.2
    drawing.add(plot)
    _zero_line(drawing, plot, scale)
    labels = [(_y_of(plot, scale, series[player][-1][1]) - 2.5, label, series_colour(seat), True)]
    if others:
        ends = sorted(series[p][-1][1] for p in others)
        labels.append((_y_of(plot, scale, ends[len(ends) // 2]) - 2.5, rest, MUTED, False))
    labels.sort(key=lambda item: item[0])
    ys = _spread([item[0] for item in labels], LABEL_GAP, plot.y - 2, plot.y + plot.height)
    for (_y, text, colour, bold), y in zip(labels, ys):
        _label(drawing, plot.x + plot.width + 4, y, text, colour, bold=bold)
    _axis_title(drawing, plot, _("Hand") if x_title is None else x_title)
    return drawing
