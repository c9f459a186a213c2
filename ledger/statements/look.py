"""Layout pieces shared by every statement: colours, paragraph styles, money and time
formatting, clipped names, the page footer, bookmarks and the document builder.

All text goes through :func:`ledger.statements.fonts.markup`, so any script is set with a font
that has its glyphs; paragraphs holding a script that needs shaping get a shaped style. Words
are the current language's (:mod:`ledger.i18n`; a render sets it with ``use_language``), money
and dates the Babel locale each document is given.
"""
from __future__ import annotations

import html
import io
import re
import weakref
from typing import Any
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_time, get_timezone_name
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase import _fontdata
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph

from ledger.i18n import SOURCE, _, current_language
from ledger.money import format_minor
from ledger.statements import breaks
from ledger.statements.fonts import BODY, BOLD, SHAPED_MARK, drawn, markup, runs

INK = colors.HexColor("#1F2933")
MUTED = colors.HexColor("#6B7280")
RULE = colors.HexColor("#D1D5DB")
HEADER_BG = colors.HexColor("#1F3A5F")
STRIPE = colors.HexColor("#F3F4F6")
VOID_BG = colors.HexColor("#ECECEC")
REDEAL_BG = colors.HexColor("#FFF7E0")
GAIN = colors.HexColor("#166534")
LOSS = colors.HexColor("#B91C1C")
VOID_INK = colors.HexColor("#9CA3AF")
ZERO_MARK = "\u2013"  # en dash shown for a 0 amount
MARGIN = 15 * mm
NAME_LIMIT = 40


def hex_of(colour: colors.Color) -> str:
    return "#" + colour.hexval()[2:]


@dataclass(frozen=True)
class Styles:
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


def styles(table_size: float) -> Styles:
    """Paragraph styles for a document whose tables are set at ``table_size`` points."""
    base = ParagraphStyle(
        "base", fontName=BODY, bulletFontName=BODY, fontSize=9.5, leading=12.5, textColor=INK
    )
    lead = table_size * 1.22
    cell = ParagraphStyle("cell", base, fontSize=table_size, leading=lead, alignment=TA_LEFT)
    head = ParagraphStyle("head", cell, fontName=BOLD, textColor=colors.white, alignment=TA_LEFT)
    return Styles(
        title=ParagraphStyle("title", base, fontName=BOLD, fontSize=20, leading=24, spaceAfter=2),
        subtitle=ParagraphStyle("subtitle", base, fontSize=10.5, leading=14, textColor=MUTED),
        h2=ParagraphStyle(
            "h2", base, fontName=BOLD, fontSize=12.5, leading=16, spaceBefore=10, spaceAfter=5,
            textColor=HEADER_BG,
        ),
        body=base,
        small=ParagraphStyle("small", base, fontSize=8.5, leading=11, textColor=MUTED),
        label=ParagraphStyle("label", base, fontName=BOLD, fontSize=8.5, leading=11, textColor=MUTED),
        cell=cell,
        cell_right=ParagraphStyle("cell_right", cell, alignment=TA_RIGHT),
        head=head,
        head_right=ParagraphStyle("head_right", head, alignment=TA_RIGHT),
    )


# a style's shaped twin, for as long as the style lives (a render's styles die with it)
_shaped_styles: weakref.WeakKeyDictionary[ParagraphStyle, ParagraphStyle] = weakref.WeakKeyDictionary()
_RUN = re.compile(r'(<font name="[^"]+">)([^<]*)(</font>)')


def para(text_markup: str, style: ParagraphStyle, **kwargs: object) -> Paragraph:
    """A Paragraph of ready markup (from :func:`~ledger.statements.fonts.markup`); shaped by
    HarfBuzz when it holds a run in a script that needs it (Indic, Thai, Lao, Hebrew,
    Arabic). Long words break rather than overflow. In a bold style, runs in other fonts are
    bold too. Markup holding a script written without spaces (Thai, Lao, Khmer, Myanmar) is a
    :class:`Wrapped`: broken between syllables, never inside one."""
    if breaks.needs_breaking(text_markup):
        return Wrapped(text_markup, style, **kwargs)  # type: ignore[return-value]
    return reportlab_paragraph(text_markup, style, **kwargs)


def reportlab_paragraph(text_markup: str, style: ParagraphStyle, **kwargs: object) -> Paragraph:
    """reportlab's own Paragraph of ``text_markup`` (see :func:`para`), as it breaks it."""
    if style.fontName == BOLD and '<font name="' in text_markup:
        text_markup = _RUN.sub(r"\1<b>\2</b>\3", text_markup)  # a <font name> run is regular unless <b> is inside
    if SHAPED_MARK in text_markup:
        shaped = _shaped_styles.get(style)
        if shaped is None:
            shaped = _shaped_styles[style] = ParagraphStyle(style.name + "-shaped", style, shaping=1)
        style = shaped
    return Paragraph(text_markup, style, **kwargs)  # type: ignore[arg-type]


def text(value: str, style: ParagraphStyle, **kwargs: object) -> Paragraph:
    """A Paragraph showing ``value`` literally (escaped, any script; see :func:`para`)."""
    return para(markup(value), style, **kwargs)


_SLACK = 0.5  # points kept free on a line, so shaping's rounding never makes reportlab wrap it again
_TOKEN = re.compile(r"(<[^>]*>|&(?:#\d+|#x[0-9a-fA-F]+|\w+);|.)", re.S)
_BR = re.compile(r"<br\s*/?>")


class _Atoms:
    """Paragraph markup as tags and characters: ``plain`` is its text, and any stretch of it
    can be cut back out as markup of its own (tags open at the stretch's start reopened, those
    still open at its end closed)."""

    def __init__(self, text_markup: str) -> None:
        self.atoms: list[str] = []  # each a tag or one character (an entity counts as one)
        self.at: list[int] = []  # atom index of each plain character
        chars = []
        for token in _TOKEN.findall(text_markup):
            if token.startswith("<") and token.endswith(">"):
                self.atoms.append(token)
                continue
            self.at.append(len(self.atoms))
            self.atoms.append(token)
            chars.append(html.unescape(token) if token.startswith("&") else token)
        self.plain = "".join(chars)

    def cut(self, start: int, end: int) -> str:
        """The markup of plain characters ``start``..``end`` (tags kept balanced)."""
        if start >= end:
            return ""
        first, last = self.at[start], self.at[end - 1]
        opened: list[str] = []
        for atom in self.atoms[:first]:
            if atom.startswith("</"):
                if opened:
                    opened.pop()
            elif atom.startswith("<") and not atom.endswith("/>"):
                opened.append(atom)
        body = "".join(opened) + "".join(self.atoms[first:last + 1])
        depth = list(opened)
        for atom in self.atoms[first:last + 1]:
            if atom.startswith("</"):
                if depth:
                    depth.pop()
            elif atom.startswith("<") and not atom.endswith("/>"):
                depth.append(atom)
        return body + "".join(f"</{tag[1:].split()[0].rstrip('>')}>" for tag in reversed(depth))


class Wrapped(Flowable):
    """Paragraph markup in ``style``, broken into lines only where ICU's line break iterator
    allows (:func:`ledger.statements.breaks.opportunities`: Lao and Thai between syllables and
    words, never inside one; a syllable wider than the line alone is cut between grapheme
    clusters) for the width it is given, then set as one Paragraph of those lines: reportlab
    breaks only at spaces and cuts a long word between any two characters. Each line is
    measured as reportlab sets it. Splits across pages as that Paragraph does."""

    def __init__(self, text_markup: str, style: ParagraphStyle, **kwargs: object) -> None:
        super().__init__()
        self.markup, self.style, self.kwargs = text_markup, style, kwargs
        self._laid: tuple[float, Paragraph] | None = None

    def _width(self, text_markup: str) -> float:
        probe = reportlab_paragraph(text_markup, self.style)
        probe.wrap(1e6, 1e6)
        return max(probe.getActualLineWidths0() or [0.0])

    def lines(self, width: float) -> list[str]:
        """The markup of each line in ``width`` points (the style's indents taken off)."""
        room = max(width - self.style.leftIndent - self.style.rightIndent - _SLACK, 1.0)
        out: list[str] = []
        for part in _BR.split(self.markup):
            out += self._fill(_Atoms(part), room)
        return out

    def _fill(self, atoms: _Atoms, room: float) -> list[str]:
        plain = atoms.plain
        marks = breaks.opportunities(plain)
        out: list[str] = []
        start = 0
        while start < len(plain) and plain[start].isspace():
            start += 1
        while start < len(plain):
            ahead = [m for m in marks if m > start]
            end = self._farthest(atoms, start, ahead, room)
            if end is None:  # not even the next syllable fits: cut it between grapheme clusters
                clusters = breaks.cluster_ends(plain, start, ahead[0])
                end = self._farthest(atoms, start, clusters, room) or clusters[0]
            stop = end
            while stop > start and plain[stop - 1].isspace():
                stop -= 1
            out.append(atoms.cut(start, stop))
            start = end
            while start < len(plain) and plain[start].isspace():
                start += 1
        return out or [""]

    def _farthest(self, atoms: _Atoms, start: int, ends: list[int], room: float) -> int | None:
        """The last of ``ends`` whose line from ``start`` fits in ``room`` (None when none does)."""
        plain = atoms.plain

        def fits(end: int) -> bool:
            stop = end
            while stop > start and plain[stop - 1].isspace():
                stop -= 1
            return self._width(atoms.cut(start, stop)) <= room

        if not ends or not fits(ends[0]):
            return None
        low, high = 0, len(ends) - 1  # ends[low] fits; find the last that does
        while low < high:
            middle = (low + high + 1) // 2
            if fits(ends[middle]):
                low = middle
            else:
                high = middle - 1
        return ends[low]

    def _paragraph(self, width: float) -> Paragraph:
        if self._laid is None or self._laid[0] != width:
            self._laid = (width, reportlab_paragraph("<br/>".join(self.lines(width)), self.style, **self.kwargs))
        return self._laid[1]

    @property
    def blPara(self) -> Any:  # noqa: N802 (reportlab's name): the lines as laid, after wrap
        assert self._laid is not None, "a paragraph is wrapped before its lines are read"
        return self._laid[1].blPara

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.width, self.height = self._paragraph(aw).wrap(aw, ah)
        return self.width, self.height

    def split(self, aw: float, ah: float) -> list[Flowable]:
        return self._paragraph(aw).split(aw, ah)

    def getSpaceBefore(self) -> float:  # noqa: N802 (reportlab's name)
        return float(self.style.spaceBefore)

    def getSpaceAfter(self) -> float:  # noqa: N802
        return float(self.style.spaceAfter)

    def draw(self) -> None:
        assert self._laid is not None, "a paragraph is wrapped before it is drawn"
        self._laid[1].drawOn(self.canv, 0, 0)


def plain_fits(value: str, font: str, size: float, width: float) -> bool:
    """Whether ``value`` can be a plain (unwrapped, single-font) table cell: every character in
    Noto Sans and one line of it no wider than ``width``. Plain cells lay out far faster than
    Paragraphs, which long and non-Latin text still gets."""
    if not (value.isascii() or all(run.font == BODY for run in runs(value))):
        return False
    return stringWidth(value, font, size) <= width


def short(name: str, limit: int = NAME_LIMIT) -> str:
    """A name clipped with an ellipsis for narrow places (headers show it in full): at most
    ``limit`` characters with the ellipsis, cut between grapheme clusters, and in Lao or Thai
    between syllables (:func:`ledger.statements.breaks.clip_points`)."""
    if len(name) <= limit:
        return name
    cuts = [i for i in breaks.clip_points(name) if i <= limit - 1]
    return name[: cuts[-1] if cuts else limit - 1].rstrip() + "\u2026"


class Money:
    """Formats int minor amounts for one report (currency + locale fixed)."""

    def __init__(self, currency: str, locale: str) -> None:
        self.currency = currency
        self.locale = locale
        self._seen: dict[int, str] = {}  # a night repeats the same few amounts: format each once

    def __call__(self, amount_minor: int) -> str:
        shown = self._seen.get(amount_minor)
        if shown is None:
            shown = self._seen[amount_minor] = format_minor(amount_minor, self.currency, self.locale)
        return shown

    def cell(self, amount_minor: int, *, voided: bool = False, bold: bool = False) -> str:
        """Paragraph markup for an amount: coloured by sign, en dash for 0."""
        if amount_minor == 0:
            return f'<font color="{hex_of(VOID_INK if voided else MUTED)}">{ZERO_MARK}</font>'
        shown = markup(self.signed(amount_minor))
        if voided:
            return f'<font color="{hex_of(VOID_INK)}"><strike>{shown}</strike></font>'
        colour = GAIN if amount_minor > 0 else LOSS
        if bold:
            shown = f"<b>{shown}</b>"
        return f'<font color="{hex_of(colour)}">{shown}</font>'

    def colour(self, amount_minor: int) -> colors.Color:
        return MUTED if amount_minor == 0 else GAIN if amount_minor > 0 else LOSS

    def signed(self, amount_minor: int) -> str:
        """A hand's or a night's result: winnings carry a "+" so they read as winnings."""
        return ("+" if amount_minor > 0 else "") + self(amount_minor)

    def plain(self, amount_minor: int) -> str:
        """A result as plain cell text (signed; en dash for 0)."""
        return ZERO_MARK if amount_minor == 0 else self.signed(amount_minor)


def zone(name: str) -> ZoneInfo:
    """The night's time zone; an unknown name falls back to UTC."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when(moment: datetime, locale: str, zone_name: str = "UTC") -> str:
    """``moment`` as a local date and time in ``zone_name``, with the zone named:
    "November 29, 2024, 4:30 PM (America/New York, EST)" (date, time and zone name in
    ``locale``, the sentence in the current language). A naive ``moment`` is taken as UTC."""
    tz = zone(zone_name)
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    local = moment.astimezone(tz)
    day = format_date(local.date(), format="long", locale=locale)
    clock = format_time(local, format="short", tzinfo=tz, locale=locale)
    if tz.key == "UTC":
        return _("{date}, {time} UTC", date=day, time=clock)
    city = get_timezone_name(tz, width="short", locale=locale)
    if city.startswith("(") and city.endswith(")"):  # CLDR's Estonian "(Eesti)": the sentence brackets it already
        city = city[1:-1]
    abbreviation = local.tzname() or tz.key
    return _("{date}, {time} ({zone}, {zone_name})", date=day, time=clock, zone=tz.key.replace("_", " "),
             zone_name=city if city != abbreviation else abbreviation)


def day_text(day: date, locale: str) -> str:
    """A calendar day: ``2026-01-31`` in English (as the season statements always showed it),
    the Babel short date of ``locale`` in any other language ("31.01.26" in Estonian)."""
    if current_language() == SOURCE:
        return day.isoformat()
    return format_date(day, format="short", locale=locale)


def day_of(moment: datetime, zone_name: str = "UTC") -> str:
    """The night's local date as ``YYYY-MM-DD`` (for file names)."""
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(zone(zone_name)).date().isoformat()


def draw_text(canvas, x: float, y: float, value: str, size: float, *, right: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Draw ``value`` on a canvas run by run (any script), left- or right-aligned at ``x``."""
    pieces = drawn(value, size)
    x = x - sum(width for _font, _piece, width in pieces) if right else x
    for font, piece, width in pieces:
        canvas.setFont(font, size)
        canvas.drawString(x, y, piece)
        x += width


def footer(title: str) -> Callable[[object, object], None]:
    """Page decoration: a rule, "Tonk Ledger · <title>" (clipped) and "Page N" (in the current
    language)."""
    left = "Tonk Ledger \u00b7 " + short(title, 90)

    def draw(canvas, doc) -> None:  # type: ignore[no-untyped-def]
        canvas.saveState()
        canvas.setFillColor(MUTED)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        y = MARGIN * 0.55
        canvas.line(doc.leftMargin, y + 9, doc.pagesize[0] - doc.rightMargin, y + 9)
        draw_text(canvas, doc.leftMargin, y, left, 7.5)
        draw_text(canvas, doc.pagesize[0] - doc.rightMargin, y, _("Page {number}", number=doc.page), 7.5,
                  right=True)
        canvas.restoreState()

    return draw


class Bookmark(Flowable):
    """An invisible mark: a PDF outline entry ("bookmark") pointing at where it lands."""

    def __init__(self, key: str, title: str, level: int = 0) -> None:
        super().__init__()
        self.key, self.title, self.level = key, title, level
        self.width = self.height = 0

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.canv.bookmarkPage(self.key)
        self.canv.addOutlineEntry(self.title, self.key, level=self.level, closed=True)
        self.canv.showOutline()


class EmbeddedCanvas(Canvas):
    """A canvas on which reportlab's own defaults (a table cell's font, a chart drawing's first
    state, all Helvetica) name our embedded Noto Sans instead: every font in the file is
    embedded. Our text never asks for a standard font; this only catches the defaults."""

    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        if psfontname in _fontdata.standardFonts:
            psfontname = BOLD if "Bold" in psfontname else BODY
        super().setFont(psfontname, size, leading)


def build(story: Sequence[Flowable], pages: dict[str, tuple[float, float]], *, title: str,
          subject: str, locale: str) -> bytes:
    """Lay ``story`` out on page templates named in ``pages`` (the first starts) and return
    the PDF bytes. The metadata title is ``title``; outline entries show when present."""
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer, pagesize=next(iter(pages.values())), leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN, bottomMargin=MARGIN + 4 * mm, title=title, author="Tonk Ledger",
        subject=subject, creator="Tonk Ledger", lang=locale.replace("_", "-"),
        initialFontName=BODY,  # the canvas's first font: not a non-embedded Helvetica
    )
    deco = footer(title)
    templates = []
    for name, size in pages.items():
        frame = Frame(MARGIN, MARGIN + 4 * mm, size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - 4 * mm,
                      id=f"frame-{name}", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        templates.append(PageTemplate(id=name, frames=[frame], onPage=deco, pagesize=size))
    doc.addPageTemplates(templates)
    doc.build(list(story), canvasmaker=EmbeddedCanvas)
    return buffer.getvalue()


def frame_width(size: tuple[float, float]) -> float:
    return size[0] - 2 * MARGIN

