"""Session summary PDF: the printable statement of one Tonk night.

``render_session_summary(report, locale=...)`` turns a :class:`~ledger.report.SessionReport`
into PDF bytes (reportlab platypus). The document holds, in order:

* the session name, date (in the night's time zone), players in seat order, stake, currency, rules preset and
  rules lines;
* the final net per player and the settle-up plan ("Marcus pays Dee $5.25");
* a running-balance line chart per player over the counted hands;
* the hand-by-hand table (one column per player, header repeated on every page; voided hands
  struck through and greyed, redeals marked) closed by a per-player net row.

Money is handled as ``int`` minor units throughout and shown only through
``ledger.money.format_minor``; floats appear solely as chart coordinates.

Fonts: the document is set in DejaVu Sans so names outside Latin-1 ("Łukasz") render and
extract. It is looked up in the usual system font folders (Debian package
``fonts-dejavu-core``) or in the folder named by ``TONK_LEDGER_FONT_DIR``; if it cannot be
found, reportlab's bundled Bitstream Vera (Latin-1 only) is used and a warning is logged.
Runs of characters DejaVu lacks (CJK names, a ja_JP date, "￥") are set in reportlab's standard
CID fonts (not embedded; PDF viewers supply them). Scripts that need shaping (Arabic, Indic)
are drawn unshaped.
"""
from __future__ import annotations

import io
import logging
import os
import threading
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timezone
from xml.sax.saxutils import escape

from babel.dates import format_date, format_time, get_timezone_name
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from ledger.money import format_minor
from ledger.report import HandLine, SessionReport
from ledger.rules import PRESETS
from ledger.zones import zone

__all__ = ["render_session_summary"]

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# Fonts
# --------------------------------------------------------------------------------------------

_FONT = "TonkSans"
_FONT_BOLD = "TonkSans-Bold"

_FONT_DIRS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu",  # Debian / Ubuntu: fonts-dejavu-core
    "/usr/share/fonts/dejavu",  # Fedora, Alpine
    "/usr/share/fonts/TTF",  # Arch
    "/usr/share/fonts/dejavu-sans-fonts",  # Fedora (newer layout)
    "/usr/local/share/fonts",
    "/usr/local/share/fonts/dejavu",  # FreeBSD
    "/Library/Fonts",  # macOS (user-installed)
)
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")

# Glyphs DejaVu lacks (CJK names, "年" in a ja_JP date, fullwidth "￥") are set in one of
# reportlab's standard CID fonts. These are not embedded: Acrobat, browsers and desktop viewers
# supply them; text extraction works either way.
_CID_JA, _CID_KO, _CID_ZH_HANS, _CID_ZH_HANT = (
    "HeiseiKakuGo-W5",
    "HYGothic-Medium",
    "STSong-Light",
    "MSung-Light",
)

_font_lock = threading.Lock()
_fonts_ready = False
_covered: frozenset[int] = frozenset()
_cid_default: ContextVar[str] = ContextVar("cid_default", default=_CID_JA)


def _find_dejavu() -> tuple[str, str] | None:
    dirs: list[str] = []
    override = os.environ.get("TONK_LEDGER_FONT_DIR")
    if override:
        dirs.append(override)
    dirs.extend(_FONT_DIRS)
    for folder in dirs:
        regular, bold = (os.path.join(folder, name) for name in _FONT_FILES)
        if os.path.isfile(regular) and os.path.isfile(bold):
            return regular, bold
    return None


def _ensure_fonts() -> None:
    """Register ``TonkSans`` / ``TonkSans-Bold`` with reportlab once per process."""
    global _fonts_ready
    if _fonts_ready:
        return
    with _font_lock:
        if _fonts_ready:
            return
        found = _find_dejavu()
        if found is None:
            import reportlab

            bundled = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
            found = (os.path.join(bundled, "Vera.ttf"), os.path.join(bundled, "VeraBd.ttf"))
            log.warning(
                "DejaVu Sans not found (install fonts-dejavu-core or set TONK_LEDGER_FONT_DIR);"
                " falling back to Bitstream Vera, which lacks glyphs beyond Latin-1"
            )
        regular = TTFont(_FONT, found[0])
        pdfmetrics.registerFont(regular)
        pdfmetrics.registerFont(TTFont(_FONT_BOLD, found[1]))
        pdfmetrics.registerFontFamily(
            _FONT, normal=_FONT, bold=_FONT_BOLD, italic=_FONT, boldItalic=_FONT_BOLD
        )
        for cid in (_CID_JA, _CID_KO, _CID_ZH_HANS, _CID_ZH_HANT):
            pdfmetrics.registerFont(UnicodeCIDFont(cid))
            pdfmetrics.registerFontFamily(cid, normal=cid, bold=cid, italic=cid, boldItalic=cid)
        global _covered
        _covered = frozenset(regular.face.charToGlyph)
        _fonts_ready = True


def _cid_for_locale(locale: str) -> str:
    """CID fallback font for Han characters, picked by the reader's locale."""
    parts = locale.replace("-", "_").split("_")
    if parts[0] == "ko":
        return _CID_KO
    if parts[0] == "zh":
        return _CID_ZH_HANT if {"Hant", "TW", "HK", "MO"} & set(parts) else _CID_ZH_HANS
    return _CID_JA


def _is_covered(ch: str) -> bool:
    return ord(ch) in _covered or ch.isspace()


def _cid_for(run: str) -> str:
    if any("\uac00" <= c <= "\ud7af" or "\u1100" <= c <= "\u11ff" for c in run):
        return _CID_KO  # Hangul
    if any("\u3040" <= c <= "\u30ff" for c in run):
        return _CID_JA  # kana
    return _cid_default.get()


def _font_for(text: str, font: str = "") -> str:
    """Font for a single-font string (chart labels, footer): ours unless glyphs are missing."""
    if all(_is_covered(c) for c in text):
        return font or _FONT
    return _cid_for(text)


# --------------------------------------------------------------------------------------------
# Look
# --------------------------------------------------------------------------------------------

_INK = colors.HexColor("#1F2933")
_MUTED = colors.HexColor("#6B7280")
_RULE = colors.HexColor("#D1D5DB")
_HEADER_BG = colors.HexColor("#1F3A5F")
_STRIPE = colors.HexColor("#F3F4F6")
_VOID_BG = colors.HexColor("#ECECEC")
_REDEAL_BG = colors.HexColor("#FFF7E0")
_GAIN = colors.HexColor("#166534")
_LOSS = colors.HexColor("#B91C1C")
_VOID_INK = colors.HexColor("#9CA3AF")

# Okabe-Ito derived, distinguishable for colour-blind readers; dashes kick in past 8 players.
_SERIES_COLOURS = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#332288",
    "#882255",
)

_ZERO_MARK = "\u2013"  # en dash shown for a 0 amount
_MARGIN = 15 * mm
_PORTRAIT_MAX_PLAYERS = 5


def _series_colour(i: int) -> colors.Color:
    return colors.HexColor(_SERIES_COLOURS[i % len(_SERIES_COLOURS)])


def _series_dash(i: int) -> list[float] | None:
    return None if i < len(_SERIES_COLOURS) else [4, 2]


def _esc(text: str) -> str:
    """Escape free text (names, outcomes) for reportlab Paragraph mini-markup.

    Runs of characters our font cannot draw are wrapped in a CID fallback font.
    """
    out: list[str] = []
    run: list[str] = []
    missing = False
    for ch in text:
        gap = not _is_covered(ch)
        if run and gap != missing and not ch.isspace():
            out.append(_run(run, missing))
            run = []
        if not run:
            missing = gap
        run.append(ch)
    if run:
        out.append(_run(run, missing))
    return "".join(out)


def _run(chars: list[str], missing: bool) -> str:
    text = escape("".join(chars), {'"': "&quot;"})
    if not missing:
        return text
    return f'<font name="{_cid_for("".join(chars))}">{text}</font>'


def _hex(colour: colors.Color) -> str:
    return "#" + colour.hexval()[2:]


@dataclass(frozen=True)
class _Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    label: ParagraphStyle
    cell: ParagraphStyle
    cell_right: ParagraphStyle
    head: ParagraphStyle
    head_right: ParagraphStyle


def _styles(table_size: float) -> _Styles:
    base = ParagraphStyle(
        "base", fontName=_FONT, bulletFontName=_FONT, fontSize=9.5, leading=12.5, textColor=_INK
    )
    lead = table_size * 1.22
    cell = ParagraphStyle("cell", base, fontSize=table_size, leading=lead, alignment=TA_LEFT)
    head = ParagraphStyle(
        "head", cell, fontName=_FONT_BOLD, textColor=colors.white, alignment=TA_LEFT
    )
    return _Styles(
        title=ParagraphStyle(
            "title", base, fontName=_FONT_BOLD, fontSize=20, leading=24, spaceAfter=2
        ),
        subtitle=ParagraphStyle("subtitle", base, fontSize=10.5, leading=14, textColor=_MUTED),
        h2=ParagraphStyle(
            "h2",
            base,
            fontName=_FONT_BOLD,
            fontSize=12.5,
            leading=16,
            spaceBefore=10,
            spaceAfter=5,
            textColor=_HEADER_BG,
        ),
        body=base,
        small=ParagraphStyle("small", base, fontSize=8.5, leading=11, textColor=_MUTED),
        label=ParagraphStyle(
            "label", base, fontName=_FONT_BOLD, fontSize=8.5, leading=11, textColor=_MUTED
        ),
        cell=cell,
        cell_right=ParagraphStyle("cell_right", cell, alignment=TA_RIGHT),
        head=head,
        head_right=ParagraphStyle("head_right", head, alignment=TA_RIGHT),
    )


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _require_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an int in minor units, got {value!r}")
    return value


def _check(report: SessionReport) -> list[HandLine]:
    """Check the report is a coherent statement; return its counted hands in order."""
    players = report.players
    if len(set(players)) != len(players):
        raise ValueError(f"player names must be unique, got {players!r}")
    seated = set(players)
    _require_int(report.stake_minor, "stake_minor")

    counted: list[HandLine] = []
    totals = dict.fromkeys(players, 0)
    for hand in report.hands:
        _require_int(hand.number, "hand number")
        unknown = set(hand.amounts_minor) - seated
        if unknown:
            raise ValueError(f"hand {hand.number} has amounts for unseated {sorted(unknown)!r}")
        for player, amount in hand.amounts_minor.items():
            _require_int(amount, f"hand {hand.number} amount for {player!r}")
        if not hand.voided:
            counted.append(hand)
            for player, amount in hand.amounts_minor.items():
                totals[player] += amount

    if set(report.net_minor) != seated:
        raise ValueError("net_minor must hold exactly one entry per seated player")
    for player in players:
        net = _require_int(report.net_minor[player], f"net_minor[{player!r}]")
        if net != totals[player]:
            raise ValueError(
                f"net_minor[{player!r}] = {net} disagrees with the counted hands ({totals[player]})"
            )

    left = dict(report.net_minor)
    for payment in report.payments:
        if payment.payer not in seated or payment.payee not in seated:
            raise ValueError(f"payment names an unseated player: {payment!r}")
        _require_int(payment.amount_minor, "payment amount")
        left[payment.payer] += payment.amount_minor
        left[payment.payee] -= payment.amount_minor
    for transfer in report.settlement:
        if transfer.payer not in seated or transfer.payee not in seated:
            raise ValueError(f"settlement names an unseated player: {transfer!r}")
        _require_int(transfer.amount_minor, "transfer amount")
        left[transfer.payer] += transfer.amount_minor
        left[transfer.payee] -= transfer.amount_minor
    if any(left.values()):
        raise ValueError("payments and settlement do not clear net_minor")
    return counted


# --------------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------------


class _Money:
    """Formats int minor amounts for one report (currency + locale fixed)."""

    def __init__(self, currency: str, locale: str) -> None:
        self.currency = currency
        self.locale = locale

    def __call__(self, amount_minor: int) -> str:
        return format_minor(amount_minor, self.currency, self.locale)

    def cell(self, amount_minor: int, *, voided: bool = False, bold: bool = False) -> str:
        """Paragraph markup for an amount cell: coloured by sign, en dash for 0."""
        if amount_minor == 0:
            return f'<font color="{_hex(_VOID_INK if voided else _MUTED)}">{_ZERO_MARK}</font>'
        text = _esc(("+" if amount_minor > 0 else "") + self(amount_minor))  # winnings read as winnings
        if voided:
            return f'<font color="{_hex(_VOID_INK)}"><strike>{text}</strike></font>'
        colour = _GAIN if amount_minor > 0 else _LOSS
        if bold:
            text = f"<b>{text}</b>"
        return f'<font color="{_hex(colour)}">{text}</font>'


def _when(created_at: datetime, locale: str, zone_name: str = "UTC") -> str:
    """The night's start in its own zone, naming it: ``"January 2, 2026, 11:30 PM PST
    (America/Los_Angeles)"`` (just ``UTC`` for a UTC night)."""
    place = zone(zone_name)
    moment = created_at if created_at.tzinfo else created_at.replace(tzinfo=timezone.utc)
    moment = moment.astimezone(place)
    day = format_date(moment.date(), format="long", locale=locale)
    clock = format_time(moment, format="short", tzinfo=place, locale=locale)
    short = get_timezone_name(moment, "short", locale=locale)
    named = short if place.key == "UTC" else f"{short} ({place.key})"
    return f"{day}, {clock} {named}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _header(
    report: SessionReport, st: _Styles, money: _Money, locale: str, width: float
) -> list[Flowable]:
    voided = sum(1 for h in report.hands if h.voided)
    redeals = sum(1 for h in report.hands if h.redeal and not h.voided)
    tally = [_plural(len(report.hands), "hand")]
    if voided:
        tally.append(f"{voided} void")
    if redeals:
        tally.append(_plural(redeals, "redeal"))

    seats = " \u00b7 ".join(
        f'<font color="{_hex(_MUTED)}">{i}.</font>\u00a0{_esc(p)}'
        for i, p in enumerate(report.players, 1)
    )
    rows = [
        ("Date", _esc(_when(report.created_at, locale, report.timezone))),
        ("Players", seats or "\u2014"),
        ("Stake", _esc(money(report.stake_minor))),
        ("Currency", _esc(report.currency)),
        ("Rules preset", _esc(PRESETS[report.preset].title if report.preset in PRESETS else report.preset)),
        ("Hands", _esc(", ".join(tally))),
    ]
    if report.recovery_code:  # the host's own PDF only
        rows.append(("Recovery code", f"<b>{_esc(report.recovery_code)}</b> — makes another phone the host "
                     "(type it at /recover); keep this PDF to yourself"))
    meta = Table(
        [[Paragraph(k, st.label), Paragraph(v, st.body)] for k, v in rows],
        colWidths=[28 * mm, width - 28 * mm],
        hAlign="LEFT",
    )
    meta.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("TOPPADDING", (1, 0), (1, -1), 0.5),
            ]
        )
    )
    out: list[Flowable] = [
        Paragraph(_esc(report.name), st.title),
        Paragraph("Session summary \u00b7 Tonk Ledger", st.subtitle),
        Spacer(1, 4 * mm),
        meta,
    ]
    if report.rules_lines:
        out.append(Paragraph("Rules", st.h2))
        out.extend(
            Paragraph(_esc(line), st.body, bulletText="\u2022") for line in report.rules_lines
        )
    return out


def _results(
    report: SessionReport, st: _Styles, money: _Money, width: float
) -> list[Flowable]:
    """Final net table and settle-up plan, side by side when they comfortably fit."""
    side_by_side = len(report.players) <= 12 and len(report.settlement) <= 14
    gap = 8 * mm
    net_col = (width - gap) * 0.46 if side_by_side else min(width, 110 * mm)

    head_l = ParagraphStyle("rh", st.body, fontName=_FONT_BOLD, textColor=colors.white)
    head_r = ParagraphStyle("rhr", head_l, alignment=TA_RIGHT)
    right = ParagraphStyle("rr", st.body, alignment=TA_RIGHT)
    rows: list[list[Flowable]] = [[Paragraph("Player", head_l), Paragraph("Final net", head_r)]]
    for player in report.players:
        rows.append(
            [
                Paragraph(_esc(player), st.body),
                Paragraph(money.cell(report.net_minor[player], bold=True), right),
            ]
        )
    amount_w = max(
        [stringWidth(money(report.net_minor[p]), _FONT_BOLD, 9.5) for p in report.players]
        + [stringWidth("Final net", _FONT_BOLD, 9.5)]
    )
    net_w = min(amount_w + 14, net_col * 0.6)
    table = Table(rows, colWidths=[net_col - net_w, net_w], hAlign="LEFT", repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), _HEADER_BG),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, _STRIPE]),
                ("LINEBELOW", (0, -1), (-1, -1), 0.6, _RULE),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    net_part: list[Flowable] = [Paragraph("Final net", st.h2), table]

    plan: list[Flowable] = [Paragraph("Settle up", st.h2)]
    if report.payments:
        paid = ParagraphStyle("paid", st.body, leftIndent=12, spaceAfter=2.5)
        plan.append(Paragraph("Already paid", st.small))
        for t in report.payments:
            plan.append(Paragraph(
                f"<b>{_esc(t.payer)}</b> paid <b>{_esc(t.payee)}</b> {_esc(money(t.amount_minor))}",
                paid, bulletText="\u2713",
            ))
        plan.append(Paragraph("Still to pay", st.small))
    n = len(report.settlement)
    if n == 0:
        plan.append(Paragraph("Nothing to settle \u2014 everyone is square.", st.body))
    else:
        count = _plural(n, "transfer")
        label = f"{count}, minimal" if report.settlement_minimal else f"{count} (heuristic)"
        pay = ParagraphStyle("pay", st.body, leftIndent=12, spaceAfter=2.5)
        for t in report.settlement:
            plan.append(
                Paragraph(
                    f"<b>{_esc(t.payer)}</b> pays <b>{_esc(t.payee)}</b>"
                    f" {_esc(money(t.amount_minor))}",
                    pay,
                    bulletText="\u2192",
                )
            )
        plan.append(Spacer(1, 2))
        plan.append(Paragraph(_esc(label), st.small))

    if not side_by_side:
        return [KeepTogether(net_part), KeepTogether(plan)]
    both = Table(
        [[net_part, plan]], colWidths=[net_col + gap, width - net_col - gap], hAlign="LEFT"
    )
    both.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (0, 0), gap),
                ("RIGHTPADDING", (1, 0), (1, 0), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return [Spacer(1, 2 * mm), both]


def _nice_step(span: int, intervals: int) -> int:
    """Smallest 1/2/2.5/5 x 10^k integer step covering ``span`` in at most ``intervals``."""
    span = max(span, 1)
    magnitude = 1
    while True:
        quarter = [25 * magnitude // 10] if magnitude >= 10 else []
        for step in [magnitude, 2 * magnitude, *quarter, 5 * magnitude]:
            if span <= step * intervals:
                return step
        magnitude *= 10


def _chart(
    report: SessionReport,
    counted: Sequence[HandLine],
    st: _Styles,
    money: _Money,
    width: float,
) -> list[Flowable]:
    out: list[Flowable] = [Paragraph("Running balance", st.h2)]
    if not counted or not report.players:
        out.append(Paragraph("No counted hands yet.", st.body))
        return out

    # Cumulative balances in int minor units; converted to float only as plot coordinates.
    running = dict.fromkeys(report.players, 0)
    series: dict[str, list[tuple[int, int]]] = {p: [(0, 0)] for p in report.players}
    for hand in counted:
        for player in report.players:
            running[player] += hand.amounts_minor.get(player, 0)
            series[player].append((hand.number, running[player]))

    low = min(0, *(y for pts in series.values() for _, y in pts))
    high = max(0, *(y for pts in series.values() for _, y in pts))
    y_step = _nice_step(high - low, 6)
    y_min = (low // y_step) * y_step
    y_max = -((-high) // y_step) * y_step
    if y_max == y_min:
        y_max = y_min + y_step
    last = max(h.number for h in counted)
    x_step = _nice_step(last, 12)

    y_labels = [money(v) for v in range(y_min, y_max + 1, y_step)]
    label_w = max(stringWidth(s, _font_for(s), 7.5) for s in y_labels)
    height = 62 * mm
    left = label_w + 12
    drawing = Drawing(width, height)
    plot = LinePlot()
    plot.x = left
    plot.y = 22
    plot.width = width - left - 8
    plot.height = height - plot.y - 8
    plot.data = [[(float(x), float(y)) for x, y in series[p]] for p in report.players]
    plot.joinedLines = 1
    for i in range(len(report.players)):
        line = plot.lines[i]
        line.strokeColor = _series_colour(i)
        line.strokeWidth = 1.6
        dash = _series_dash(i)
        if dash:
            line.strokeDashArray = dash

    xa = plot.xValueAxis
    xa.valueMin, xa.valueMax = 0, last
    xa.valueSteps = list(range(0, last + 1, x_step))
    xa.labels.fontName, xa.labels.fontSize, xa.labels.fillColor = _FONT, 7.5, _MUTED
    xa.labelTextFormat = lambda v: str(int(round(v)))
    xa.strokeColor = _RULE
    xa.tickDown = 3

    ya = plot.yValueAxis
    ya.valueMin, ya.valueMax = y_min, y_max
    ya.valueSteps = list(range(y_min, y_max + 1, y_step))
    ya.labels.fontName = _font_for("".join(y_labels))
    ya.labels.fontSize, ya.labels.fillColor = 7.5, _MUTED
    # Tick values are our own integer steps; format them as money, never as floats.
    ya.labelTextFormat = lambda v: money(int(round(v)))
    ya.strokeColor = _RULE
    ya.visibleGrid = 1
    ya.gridStrokeColor = colors.HexColor("#E5E7EB")
    ya.gridStrokeWidth = 0.5
    ya.tickLeft = 3
    drawing.add(plot)

    # Emphasise the break-even line.
    zero_y = plot.y + plot.height * (0 - y_min) / (y_max - y_min)
    drawing.add(
        Line(plot.x, zero_y, plot.x + plot.width, zero_y, strokeColor=_MUTED, strokeWidth=0.7)
    )
    drawing.add(
        String(
            plot.x + plot.width,
            2,
            "Hand",
            fontName=_FONT,
            fontSize=7.5,
            fillColor=_MUTED,
            textAnchor="end",
        )
    )
    out.append(drawing)
    out.append(Spacer(1, 3))
    out.append(_legend(report.players, st, width))
    return out


def _legend(players: Sequence[str], st: _Styles, width: float) -> Table:
    per_row = 4 if len(players) > 4 else max(len(players), 1)
    swatch_w = 16
    name_w = (width - per_row * swatch_w) / per_row
    style = ParagraphStyle("legend", st.body, fontSize=8.5, leading=10.5)
    cells: list[list[object]] = []
    row: list[object] = []
    for i, player in enumerate(players):
        swatch = Drawing(swatch_w - 4, 8)
        line = Line(0, 4, swatch_w - 4, 4, strokeColor=_series_colour(i), strokeWidth=2.2)
        dash = _series_dash(i)
        if dash:
            line.strokeDashArray = dash
        swatch.add(line)
        row.extend([swatch, Paragraph(_esc(_short(player)), style)])
        if len(row) == 2 * per_row:
            cells.append(row)
            row = []
    if row:
        row.extend([""] * (2 * per_row - len(row)))
        cells.append(row)
    table = Table(cells, colWidths=[swatch_w, name_w] * per_row, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


_NAME_LIMIT = 40


def _short(name: str) -> str:
    """A name clipped for narrow table cells (the header and net table show it in full)."""
    return name if len(name) <= _NAME_LIMIT else name[: _NAME_LIMIT - 1].rstrip() + "\u2026"


def _winners(hand: HandLine) -> str:
    return ", ".join(_short(w) for w in hand.winners) if hand.winners else "\u2014"


def _hand_table(
    report: SessionReport, counted: Sequence[HandLine], money: _Money, width: float, size: float
) -> Table:
    st = _styles(size)
    players = report.players

    # Column widths, HTML-table style: every column gets at least its longest word (names
    # wrap between words, not inside them) and shares the slack by how much more it could use.
    pad = 8.0 + 1.0  # cell paddings plus a hair so a word that just fits is not split
    bold = ParagraphStyle("tot", st.cell_right, fontName=_FONT_BOLD)

    def natural(texts: Sequence[str], font: str) -> tuple[float, float]:
        words = [w for t in texts for w in t.split()] or [""]
        return (
            max(stringWidth(w, font, size) for w in words) + pad,
            max(stringWidth(t, font, size) for t in texts) + pad,
        )

    def text_column(header_text: str, texts: list[str]) -> tuple[float, float, float]:
        low, high = natural([header_text], _FONT_BOLD)
        word, full = natural(texts or [""], _FONT)
        return (12 * mm, max(low, word), max(high, full))

    num_w = stringWidth(str(max(h.number for h in report.hands)), _FONT_BOLD, size) + pad + 2
    num_w = max(num_w, stringWidth("#", _FONT_BOLD, size) + pad)
    winners = [_winners(h) for h in report.hands]
    columns = [
        text_column("Dealer", [_short(h.dealer) for h in report.hands]),
        text_column("Outcome", [h.outcome_text for h in report.hands]),
        text_column("Winner(s)", winners),
    ]
    outcome = 1
    for p in players:
        figures = [money(h.amounts_minor.get(p, 0)) for h in report.hands] + [
            money(report.net_minor[p])
        ]
        figure_w = max(stringWidth(f, _FONT_BOLD, size) for f in figures) + pad
        word, _ = natural([_short(p)], _FONT_BOLD)
        name_w = max(figure_w, min(word, 22 * mm))
        columns.append((figure_w, name_w, max(name_w, figure_w + pad)))
    room = width - num_w
    hard = [c[0] for c in columns]
    soft = [c[1] for c in columns]
    full = [c[2] for c in columns]
    if sum(full) <= room:
        widths = list(full)
        widths[outcome] += room - sum(full)
    elif sum(soft) <= room:
        share = (room - sum(soft)) / sum(f - s for f, s in zip(full, soft))
        widths = [s + (f - s) * share for s, f in zip(soft, full)]
    elif sum(hard) <= room:
        share = (room - sum(hard)) / sum(s - h for s, h in zip(soft, hard))
        widths = [h + (s - h) * share for h, s in zip(hard, soft)]
    else:
        widths = [h * room / sum(hard) for h in hard]
    col_widths = [num_w, *widths]

    header = [
        Paragraph("#", st.head_right),
        Paragraph("Dealer", st.head),
        Paragraph("Outcome", st.head),
        Paragraph("Winner(s)", st.head),
    ] + [Paragraph(_esc(_short(p)), st.head_right) for p in players]
    rows: list[list[object]] = [header]
    commands: list[tuple] = [
        ("BACKGROUND", (0, 0), (-1, 0), _HEADER_BG),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
        ("LINEBELOW", (0, 1), (-1, -2), 0.25, _RULE),
        ("LINEBEFORE", (4, 0), (4, -1), 0.5, _RULE),
    ]
    void_ink = _hex(_VOID_INK)
    tag = f'<font size="{size - 1.2:.1f}" color="{{c}}"><b>{{t}}</b></font>'
    for r, hand in enumerate(report.hands, start=1):
        winners = _winners(hand)
        if hand.voided:
            num = f'<font color="{void_ink}"><strike>{hand.number}</strike></font>'
            dealer = f'<font color="{void_ink}"><strike>{_esc(_short(hand.dealer))}</strike></font>'
            outcome = (
                tag.format(c=_hex(_LOSS), t="VOID")
                + f' <font color="{void_ink}"><strike>{_esc(hand.outcome_text)}</strike></font>'
            )
            if hand.redeal:
                outcome = tag.format(c=_hex(_MUTED), t="REDEAL") + " " + outcome
            win = f'<font color="{void_ink}"><strike>{_esc(winners)}</strike></font>'
            commands.append(("BACKGROUND", (0, r), (-1, r), _VOID_BG))
        else:
            num, dealer, win = str(hand.number), _esc(_short(hand.dealer)), _esc(winners)
            outcome = _esc(hand.outcome_text)
            if hand.redeal:
                outcome = tag.format(c="#92400E", t="REDEAL") + " " + outcome
                commands.append(("BACKGROUND", (0, r), (-1, r), _REDEAL_BG))
            elif r % 2 == 0:
                commands.append(("BACKGROUND", (0, r), (-1, r), _STRIPE))
        rows.append(
            [
                Paragraph(num, st.cell_right),
                Paragraph(dealer, st.cell),
                Paragraph(outcome, st.cell),
                Paragraph(win, st.cell),
            ]
            + [
                Paragraph(
                    money.cell(hand.amounts_minor.get(p, 0), voided=hand.voided), st.cell_right
                )
                for p in players
            ]
        )

    rows.append(
        [
            "",
            Paragraph(f"<b>Net over {_plural(len(counted), 'counted hand')}</b>", st.cell),
            "",
            "",
        ]
        + [Paragraph(money.cell(report.net_minor[p], bold=True), bold) for p in players]
    )
    commands += [
        ("SPAN", (1, -1), (3, -1)),
        ("LINEABOVE", (0, -1), (-1, -1), 1.0, _INK),
        ("TOPPADDING", (0, -1), (-1, -1), 4),
    ]
    table = Table(rows, colWidths=col_widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def _footer(session_name: str) -> Callable[[object, object], None]:
    def draw(canvas, doc) -> None:  # type: ignore[no-untyped-def]
        canvas.saveState()
        font = _font_for(session_name)
        canvas.setFillColor(_MUTED)
        canvas.setStrokeColor(_RULE)
        canvas.setLineWidth(0.5)
        y = _MARGIN * 0.55
        canvas.line(doc.leftMargin, y + 9, doc.pagesize[0] - doc.rightMargin, y + 9)
        left = "Tonk Ledger \u00b7 " + session_name[:200]
        room = doc.width * 0.75
        if stringWidth(left, font, 7.5) > room:
            while left and stringWidth(left + "\u2026", font, 7.5) > room:
                left = left[:-1]
            left += "\u2026"
        canvas.setFont(font, 7.5)
        canvas.drawString(doc.leftMargin, y, left)
        canvas.setFont(_FONT, 7.5)
        canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, y, f"Page {doc.page}")
        canvas.restoreState()

    return draw


def render_session_summary(report: SessionReport, *, locale: str = "en_US") -> bytes:
    """Render ``report`` as a session summary PDF and return the PDF file's bytes.

    Layout: A4 portrait for up to 5 players; A4 landscape with a smaller table font for more
    (7 pt up to 8 players, 6.5 pt beyond). ``locale`` (a Babel locale id such as ``"en_US"``
    or ``"de_DE"``) drives the money format (``ledger.money.format_minor``; a 0 amount is shown
    as an en dash) and the date, which is shown in ``report.timezone`` naming the zone (a naive
    ``created_at`` is taken as UTC). Labels are English. All text is real, extractable text; names and other free text
    are escaped, so any string is shown literally. The PDF metadata title is the session name.

    Raises ``ValueError`` if the report is not a coherent statement: duplicate player names, a
    money value that is not an ``int``, a hand amount for an unseated player, ``net_minor`` not
    matching the sum of the counted (non-voided) hands per player, or a settlement that does not
    clear ``net_minor``. An unknown ``locale`` raises Babel's ``babel.UnknownLocaleError`` (a
    malformed one ``ValueError``), before any layout work.
    """
    counted = _check(report)
    _ensure_fonts()
    token = _cid_default.set(_cid_for_locale(locale))
    try:
        return _render(report, counted, locale)
    finally:
        _cid_default.reset(token)


def _render(report: SessionReport, counted: list[HandLine], locale: str) -> bytes:
    money = _Money(report.currency, locale)
    _when(report.created_at, locale)  # fail on a bad locale before any layout work

    wide = len(report.players) > _PORTRAIT_MAX_PLAYERS
    pagesize = landscape(A4) if wide else A4
    table_size = 8.0 if not wide else 7.0 if len(report.players) <= 8 else 6.5
    width = pagesize[0] - 2 * _MARGIN
    st = _styles(table_size)

    story: list[Flowable] = []
    story += _header(report, st, money, locale, width)
    story += _results(report, st, money, width)
    story.append(CondPageBreak(90 * mm))
    story += _chart(report, counted, st, money, width)
    story.append(CondPageBreak(40 * mm))
    story.append(Paragraph("Hands", st.h2))
    if report.hands:
        story.append(_hand_table(report, counted, money, width, table_size))
        story.append(Spacer(1, 3))
        story.append(
            Paragraph(
                "Amounts are each player\u2019s net for the hand. Struck-through VOID hands are"
                " shown for the record and not counted; REDEAL marks a redealt hand.",
                st.small,
            )
        )
    else:
        story.append(Paragraph("No hands recorded.", st.body))

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=_MARGIN,
        rightMargin=_MARGIN,
        topMargin=_MARGIN,
        bottomMargin=_MARGIN + 4 * mm,
        title=report.name,
        author="Tonk Ledger",
        subject=f"Tonk session summary: {report.name}",
        creator="Tonk Ledger",
        lang=locale.replace("_", "-"),
    )
    footer = _footer(report.name)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
