"""Table column headings that wrap between words and never inside one, in any script.

A heading is laid out when its table gives it the column's width: it breaks only where ICU's
line break iterator allows (:mod:`ledger.statements.breaks`: between words; in a script
written without spaces, Thai, Lao, Khmer, Myanmar, Han, kana, between its syllables or
characters as that script's rules and dictionaries say, never inside a syllable); when one word is wider
than the column the heading's type shrinks, down to :data:`FLOOR` points, rather than
breaking the word. A word still too wide at the floor is abbreviated with an ellipsis, cut
between grapheme clusters, never inside one (a long name: "Konstantinopoli…"). Every line is ordinary markup (:func:`ledger.statements.fonts.markup`), so
each piece is set in its script's font and shaped by HarfBuzz like any other text.
"""
from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

from ledger.statements.breaks import clip_points, segments
from ledger.statements.fonts import BOLD, drawn, markup
from ledger.statements.look import reportlab_paragraph

__all__ = ["FLOOR", "Heading", "heading_lines"]

FLOOR = 6.0  # points: a heading's type never gets smaller than this
_SLACK = 0.5  # points kept free on a line, so shaping's rounding never makes reportlab wrap it again


def _width(value: str, size: float, bold: bool) -> float:
    """Shaped width of ``value`` in points, run by run (as it will be drawn)."""
    return sum(width for _font, _piece, width in drawn(value, size, bold=bold))


def _units(value: str) -> list[tuple[str, str]]:
    """``value`` as ``(piece, joiner)`` units between which a line may break: the pieces between
    ICU's line break opportunities (:func:`ledger.statements.breaks.segments`: words at spaces
    and after hyphens; in Thai, Lao, Khmer and Myanmar syllables and words by dictionary, never
    inside one), each with what joins it to the one before (a space, or nothing)."""
    out: list[tuple[str, str]] = []
    spaced = True
    for segment in segments(" ".join(value.split())):
        piece = segment.rstrip()
        if piece:
            out.append((piece, " " if spaced else ""))
        spaced = piece != segment
    return out


def _clipped(word: str, room: float, size: float, bold: bool) -> str:
    """``word`` cut with an ellipsis after as much of it as fits in ``room``: whole grapheme
    clusters, and in Lao or Thai whole syllables (:func:`ledger.statements.breaks.clip_points`;
    at least the first)."""
    cuts = clip_points(word)[:-1] or [len(word)]
    keep = len(cuts) - 1
    while keep > 0 and _width(word[:cuts[keep]] + "\u2026", size, bold) > room:
        keep -= 1
    return word[:cuts[keep]] + "\u2026"


def heading_lines(value: str, width: float, size: float, *, bold: bool = True,
                  floor: float = FLOOR) -> tuple[list[str], float]:
    """The lines ``value`` is set on in a column ``width`` points wide, and the type size:
    ``size`` unless a word is wider than the column, then smaller (not below ``floor``) so the
    widest word fits. Lines break between words (see the module); a word still too wide at
    ``floor`` is abbreviated with an ellipsis at a grapheme-cluster boundary."""
    room = max(width - _SLACK, 1.0)
    units = _units(value)
    if not units:
        return [""], size
    widest = max(_width(piece, size, bold) for piece, _join in units)
    if widest > room:
        size = max(floor, int(size * room / widest * 10) / 10)  # width grows with size
        while size > floor and max(_width(p, size, bold) for p, _j in units) > room:
            size = max(floor, size - 0.1)
    pieces: list[tuple[str, str]] = []
    for piece, join in units:
        if _width(piece, size, bold) <= room:
            pieces.append((piece, join))
            continue
        pieces.append((_clipped(piece, room, size, bold), join))  # wider than the column at the floor
    lines: list[str] = []
    line = ""
    for piece, join in pieces:
        candidate = line + join + piece if line else piece
        if line and _width(candidate, size, bold) > room:
            lines.append(line)
            line = piece
        else:
            line = candidate
    lines.append(line)
    return lines, size


class Heading(Flowable):
    """A table column heading in ``style`` (a Paragraph style; alignment and colour are its):
    wrapped to the width its cell gives it (see the module). Draws as the Paragraph it
    becomes."""

    def __init__(self, value: str, style: ParagraphStyle, *, floor: float = FLOOR) -> None:
        super().__init__()
        self.value, self.style, self.floor = value, style, floor
        self._laid: tuple[float, Paragraph] | None = None

    def _paragraph(self, width: float) -> Paragraph:
        if self._laid is None or self._laid[0] != width:
            lines, size = heading_lines(self.value, width, self.style.fontSize,
                                        bold=self.style.fontName == BOLD, floor=self.floor)
            base = self.style
            style = ParagraphStyle(f"{base.name}-heading", base, fontSize=size, splitLongWords=0,
                                   leading=base.leading * size / base.fontSize)
            self._laid = (width, reportlab_paragraph("<br/>".join(markup(line) for line in lines), style))
        return self._laid[1]

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.width, self.height = self._paragraph(aw).wrap(aw, ah)
        return self.width, self.height

    def draw(self) -> None:
        assert self._laid is not None, "a heading is wrapped before it is drawn"
        self._laid[1].drawOn(self.canv, 0, 0)
