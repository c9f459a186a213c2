"""Fonts and text runs: any name, in any script, set with a font that has its glyphs.

Vendored OFL fonts (``fonts/``, licence in ``fonts/OFL.txt``): Noto Sans for Latin, Greek and
Cyrillic, and Noto Sans Lao, Malayalam, Thai, Devanagari, Hebrew and Arabic, each Regular and
Bold, and the white and angle brackets of Noto Sans Math (``⟦…⟧``: the pseudo language's marks,
regular only). Text is split into runs by the font that covers each character, names and the
catalogue's sentences alike, so "മനു knocked" keeps both words and a Lao or Malayalam sentence
is set and shaped as a Lao or Malayalam name is; runs in scripts that need shaping are shaped by HarfBuzz (reportlab's
``shaping`` support with ``uharfbuzz``), and runs of Hebrew or Arabic are put in visual
(right-to-left) word order. Characters no vendored font has:

* CJK (Han, kana, Hangul) is set in the system's Noto Sans CJK, embedded with just the
  characters the document prints (:mod:`ledger.statements.cjk`; see :func:`document`), or,
  on a system without it, in reportlab's standard CID fonts (not embedded; PDF viewers
  supply them);
* anything else (emoji, symbols) prints as a visible stand-in naming it, "[grinning face]",
  never as a blank or a box.

Glyphs HarfBuzz makes that have no character of their own (conjuncts, ligatures) are mapped
in the PDF's ToUnicode table to the characters they stand for, so text extraction gives the
name back.
"""
from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

from ledger.statements import cjk, unicode_map

__all__ = [
    "BODY", "BOLD", "SHAPED_MARK", "Run", "ensure_fonts", "markup", "runs", "cid_for_locale",
    "use_locale", "document", "plain_text", "drawn", "font_for", "text_width",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
BODY = "TonkSans"
BOLD = "TonkSans-Bold"

# family name -> file stem; the first covers Latin, Greek and Cyrillic
_FAMILIES: tuple[tuple[str, str], ...] = (
    (BODY, "NotoSans"),
    ("TonkS-Lao", "NotoSansLao"),
    ("TonkS-Malayalam", "NotoSansMalayalam"),
    ("TonkS-Thai", "NotoSansThai"),
    ("TonkS-Devanagari", "NotoSansDevanagari"),
    ("TonkS-Hebrew", "NotoSansHebrew"),
    ("TonkS-Arabic", "NotoSansArabic"),
    ("TonkS-Brackets", "NotoSansMathBrackets"),  # regular only: its bold is the regular
    ("TonkS-Suits", "NotoSansSuits"),  # the card suits ♠♥♦♣ of a hand's cards; regular only
)
_RTL = frozenset({"TonkS-Hebrew", "TonkS-Arabic"})
SHAPED_MARK = '<font name="TonkS-'  # markup of every run that needs shaping starts so
_SHAPED = frozenset(name for name, _ in _FAMILIES[1:])

_CID_JA, _CID_KO, _CID_ZH_HANS, _CID_ZH_HANT = (
    "HeiseiKakuGo-W5", "HYGothic-Medium", "STSong-Light", "MSung-Light",
)
_CIDS = (_CID_JA, _CID_KO, _CID_ZH_HANS, _CID_ZH_HANT)
_cid_default: ContextVar[str] = ContextVar("cid_default", default=_CID_JA)
# what can sit inside a CJK run besides the document's own CJK characters
_JOINERS = "".join(chr(c) for c in range(0x20, 0x7F)) + "\u00a0\u00b7\u2013\u2014\u2026\u2018\u2019\u201c\u201d"
_REGION = {_CID_JA: "JP", _CID_KO: "KR", _CID_ZH_HANS: "SC", _CID_ZH_HANT: "TC"}
_embedded: ContextVar[dict[str, cjk.Embedded]] = ContextVar("embedded_cjk", default={})

_lock = threading.Lock()
_ready = False
_coverage: list[tuple[str, frozenset[int]]] = []

# characters that never start a run of their own: they join the run around them
_IGNORABLE = frozenset({0x200C, 0x200D, 0xFE0E, 0xFE0F})


def ensure_fonts() -> None:
    """Register the vendored families (regular and bold) and the CJK CID fonts, once."""
    global _ready
    if _ready:
        return
    with _lock:
        if _ready:
            return
        for family, stem in _FAMILIES:
            regular = TTFont(family, str(FONT_DIR / f"{stem}-Regular.ttf"))
            pdfmetrics.registerFont(regular)
            bold = FONT_DIR / f"{stem}-Bold.ttf"
            pdfmetrics.registerFont(TTFont(f"{family}-Bold", str(bold if bold.exists() else FONT_DIR / f"{stem}-Regular.ttf")))
            pdfmetrics.registerFontFamily(
                family, normal=family, bold=f"{family}-Bold", italic=family, boldItalic=f"{family}-Bold"
            )
            _coverage.append((family, frozenset(regular.face.charToGlyph)))
        for cid in _CIDS:
            pdfmetrics.registerFont(UnicodeCIDFont(cid))
            pdfmetrics.registerFontFamily(cid, normal=cid, bold=cid, italic=cid, boldItalic=cid)
        unicode_map.install()
        _ready = True


def cid_for_locale(locale: str) -> str:
    """CID font for Han characters, picked by the reader's locale."""
    parts = locale.replace("-", "_").split("_")
    if parts[0] == "ko":
        return _CID_KO
    if parts[0] == "zh":
        return _CID_ZH_HANT if {"Hant", "TW", "HK", "MO"} & set(parts) else _CID_ZH_HANS
    return _CID_JA


def use_locale(locale: str):  # type: ignore[no-untyped-def]
    """Context token: Han runs use the CID font of ``locale`` until ``.reset``."""
    return _cid_default.set(cid_for_locale(locale))


@contextmanager
def document(locale: str, texts: Iterable[str]) -> Iterator[None]:
    """While one document is laid out: Han runs take ``locale``'s regional forms, and CJK runs
    are set in the system's Noto Sans CJK, embedded with the characters of ``texts`` (every
    name and phrase the document prints). A run with a character outside them, or a system
    without Noto Sans CJK, keeps the CID font."""
    ensure_fonts()
    token = _cid_default.set(cid_for_locale(locale))
    acquired: dict[str, cjk.Embedded] = {}
    try:
        regions: set[str] = set()
        chars: set[str] = set()
        for text in texts:
            if not text.isascii():
                for font, piece in _split(text):
                    if font == "cid":
                        regions.add(_cid_for(piece))
                        chars.update(piece)
        chars.update(_JOINERS)  # a run may join what the texts hold apart: "김민준 · 東京"
        for cid in sorted(regions):
            embedded = cjk.acquire(_REGION[cid], "".join(chars))
            if embedded is not None:
                acquired[cid] = embedded
        inner = _embedded.set(acquired)
        try:
            yield
        finally:
            _embedded.reset(inner)
    finally:
        for embedded in acquired.values():
            cjk.release(embedded)
        _cid_default.reset(token)


def _is_cjk(cp: int) -> bool:
    return (
        0x2E80 <= cp <= 0x9FFF or 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF
        or 0xF900 <= cp <= 0xFAFF or 0xFF00 <= cp <= 0xFFEF or 0x20000 <= cp <= 0x3FFFF
    )


def _cid_for(text: str) -> str:
    if any("\uac00" <= c <= "\ud7af" or "\u1100" <= c <= "\u11ff" for c in text):
        return _CID_KO
    if any("\u3040" <= c <= "\u30ff" for c in text):
        return _CID_JA
    return _cid_default.get()


@lru_cache(maxsize=4096)
def _font_of(ch: str) -> str | None:
    """The family for ``ch``: a vendored one, "cid" for CJK, None when nothing has it."""
    cp = ord(ch)
    for family, covered in _coverage:
        if cp in covered:
            return family
    if _is_cjk(cp):
        return "cid"
    return None


def _covers(font: str, cp: int) -> bool:
    return font == "cid" or cp in dict(_coverage)[font]


def _stand_in(ch: str) -> str:
    name = unicodedata.name(ch, "").lower()
    return f"[{name}]" if name else f"[U+{ord(ch):04X}]"


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text set in one ``font`` (a registered family: vendored, an embedded CJK
    font of the document, or a CID font name)."""

    font: str
    text: str

    @property
    def rtl(self) -> bool:
        return self.font in _RTL

    @property
    def shaped(self) -> bool:
        return self.font in _SHAPED


def runs(text: str) -> list[Run]:
    """Split ``text`` into runs by font. Spaces, digits and punctuation every font has stay in
    the run around them; characters nothing can draw become a visible stand-in (in Noto Sans).
    """
    return _trim_neutral_tails([_finish(font, chars) for font, chars in _split(text)])


def _split(text: str) -> list[tuple[str, str]]:
    """``text`` as ``(family or "cid", characters)`` pieces (see :func:`runs`)."""
    ensure_fonts()
    out: list[tuple[str, list[str]]] = []
    for ch in text:
        cp = ord(ch)
        if cp in _IGNORABLE or 0x1F3FB <= cp <= 0x1F3FF:  # joiners, variation selectors, skin tones
            continue
        font = _font_of(ch)
        if font is None:
            out.append((BODY, [_stand_in(ch)]))
            continue
        if font == BODY and out and out[-1][0] != BODY and not ch.isalpha() and _covers(out[-1][0], cp):
            out[-1][1].append(ch)  # a space, digit or mark continues a non-Latin run
            continue
        if out and out[-1][0] == font:
            out[-1][1].append(ch)
        else:
            out.append((font, [ch]))
    return [(font, "".join(chars)) for font, chars in out]


def _finish(font: str, text: str) -> Run:
    if font != "cid":
        return Run(font, text)
    cid = _cid_for(text)
    embedded = _embedded.get().get(cid)
    return Run(embedded.name if embedded is not None and embedded.covers(text) else cid, text)


def _trim_neutral_tails(items: list[Run]) -> list[Run]:
    """Move trailing spaces and punctuation of a non-Latin run back into Latin text, so an
    RTL run is only its words ("שרה כהן" then " pays")."""
    out: list[Run] = []
    for run in items:
        if run.font != BODY:
            core = run.text.rstrip(" .,:;!?()[]-\u2013\u2014")
            tail = run.text[len(core):]
            if core and tail:
                out.append(Run(run.font, core))
                out.append(Run(BODY, tail))
                continue
        out.append(run)
    return out


def _visual(run: Run) -> str:
    """A right-to-left run's words in visual order (HarfBuzz orders the letters of each word)."""
    if not run.rtl:
        return run.text
    return " ".join(reversed(run.text.split(" ")))


def markup(text: str) -> str:
    """``text`` as reportlab Paragraph markup: escaped, one ``<font>`` per non-Latin run."""
    if text.isascii():
        return escape(text, {'"': "&quot;"})
    parts = []
    for run in runs(text):
        body = escape(_visual(run), {'"': "&quot;"})
        parts.append(body if run.font == BODY else f'<font name="{run.font}">{body}</font>')
    return "".join(parts)


def plain_text(text: str) -> list[tuple[str, str]]:
    """``text`` as ``(font, visual text)`` pieces, unshaped (for measuring)."""
    if text.isascii():
        return [(BODY, text)]
    return [(run.font, _visual(run)) for run in runs(text)]


def drawn(text: str, size: float, *, bold: bool = False) -> list[tuple[str, str, float]]:
    """``text`` as ``(font, string, width in points)`` pieces to draw one after another on a
    canvas (chart labels, page footers): runs that need it shaped by HarfBuzz (a whole
    right-to-left run in visual order) and mapped for text extraction like Paragraph text."""
    out = []
    for run in [Run(BODY, text)] if text.isascii() else runs(text):
        font = f"{run.font}-Bold" if bold and run.font not in _CIDS else run.font
        if run.shaped:
            shaped, width = unicode_map.shape(run.text, font, size)
            out.append((font, shaped, width))
        else:
            out.append((font, run.text, pdfmetrics.stringWidth(run.text, font, size)))
    return out


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width in points of ``text`` set run by run, each in its own font (advances before
    shaping: near enough to size columns, in any script)."""
    if text.isascii():
        return pdfmetrics.stringWidth(text, BOLD if bold else BODY, size)
    total = 0.0
    for run in runs(text):
        font = f"{run.font}-Bold" if bold and run.font not in _CIDS else run.font
        total += pdfmetrics.stringWidth(run.text, font, size)
    return total


def font_for(text: str, bold: bool = False) -> str:
    """The one font to draw ``text`` in when it cannot be split (the first run's)."""
    font = plain_text(text)[0][0] if text else BODY
    if font.startswith("TonkCJK-") and not all(e.covers(text) for e in _embedded.get().values() if e.name == font):
        font = _cid_for(text)  # the embedded font has only the document's characters
    if bold and font not in _CIDS:
        return f"{font}-Bold"
    return font
