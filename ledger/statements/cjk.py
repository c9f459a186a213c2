"""CJK names in the system's Noto Sans CJK, embedded: a font made for each document with only
the characters it prints.

Noto Sans CJK (Debian's ``fonts-noto-cjk``) ships as CFF-flavoured OpenType collections, which
reportlab cannot embed. So at render time the glyphs a document needs are read from the
system font (fontTools), their cubic outlines converted to TrueType quadratics (``cu2qu``, as
fontTools' ``otf2ttf`` does), and a small TrueType font is built and registered with reportlab
(regular, and bold from ``NotoSansCJK-Bold`` when the system has it). Fonts are cached by
region, weight and character set; one no document is using is dropped when more than
:data:`KEEP` are cached. Without a system Noto CJK, :func:`acquire` returns None and callers
keep reportlab's (not embedded) CID fonts.

Regions pick the face of the collection: ``JP``, ``KR``, ``SC`` (simplified Chinese), ``TC``
(traditional Chinese); they draw Han characters in each region's forms. Noto CJK is under the
SIL Open Font License 1.1; the built font keeps the source's copyright and licence names.
"""
from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection
from fontTools.ttLib import TTFont as SourceFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

__all__ = ["KEEP", "REGIONS", "Embedded", "acquire", "release", "system_font"]

REGIONS = ("JP", "KR", "SC", "TC")
KEEP = 32
MAX_ERR = 1.0  # font units (of 1000 per em) a quadratic may stray from the cubic: otf2ttf's default
_KNOWN = (  # Debian/Ubuntu, Fedora, Arch
    "/usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-{weight}.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-{weight}.ttc",
)
_KEPT_NAMES = (0, 7, 13, 14)  # copyright, trademark, licence, licence URL

_lock = threading.RLock()


@lru_cache(maxsize=2)
def system_font(weight: str = "Regular") -> Path | None:
    """The system's Noto Sans CJK collection of ``weight`` ("Regular" or "Bold"), or None:
    known paths first, then ``fc-match``."""
    for pattern in _KNOWN:
        path = Path(pattern.format(weight=weight))
        if path.is_file():
            return path
    if shutil.which("fc-match") is None:
        return None
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", f"Noto Sans CJK JP:style={weight}"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(found)
    if path.is_file() and path.name.startswith("NotoSansCJK") and weight in path.name:
        return path
    return None


class _Source:
    """One face of the system collection, opened once: its character map and its outlines,
    read glyph by glyph as documents ask for them."""

    def __init__(self, path: Path, region: str) -> None:
        number = 0
        if path.suffix.lower() == ".ttc":
            family = f"Noto Sans CJK {region}"
            with TTCollection(str(path), lazy=True) as faces:
                number = next((i for i, f in enumerate(faces) if f["name"].getDebugName(1) == family), 0)
        self.font = SourceFont(str(path), fontNumber=number, lazy=True)
        self.cmap = self.font.getBestCmap()
        self.glyphs = self.font.getGlyphSet()
        self.upem = self.font["head"].unitsPerEm


@lru_cache(maxsize=8)
def _source(path: Path, region: str) -> _Source:
    return _Source(path, region)


def _build(source: _Source, chars: str, ps_name: str, family: str, weight: str) -> bytes:
    """A TrueType font of ``source``'s glyphs for ``chars`` (those it has)."""
    order = [".notdef"]
    cmap: dict[int, str] = {}
    for ch in chars:
        name = source.cmap.get(ord(ch))
        if name is not None:
            cmap[ord(ch)] = name
            if name not in order:
                order.append(name)
    glyphs, metrics = {}, {}
    hmtx = source.font["hmtx"]
    for name in order:
        pen = TTGlyphPen(None)
        source.glyphs[name].draw(Cu2QuPen(pen, MAX_ERR, reverse_direction=True))
        glyphs[name] = pen.glyph()
        metrics[name] = hmtx[name]
    builder = FontBuilder(source.upem, isTTF=True)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(cmap)
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(metrics)
    hhea, os2 = source.font["hhea"], source.font["OS/2"]
    builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
    names: dict[str, str] = {"familyName": family, "styleName": weight, "psName": ps_name}
    kept = {0: "copyright", 7: "trademark", 13: "licenseDescription", 14: "licenseInfoURL"}
    for number in _KEPT_NAMES:
        value = source.font["name"].getDebugName(number)
        if value:
            names[kept[number]] = value
    builder.setupNameTable(names)
    builder.setupOS2(
        sTypoAscender=os2.sTypoAscender, sTypoDescender=os2.sTypoDescender, sTypoLineGap=os2.sTypoLineGap,
        usWinAscent=os2.usWinAscent, usWinDescent=os2.usWinDescent, fsType=0, achVendID=os2.achVendID,
    )
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class Embedded:
    """A registered CJK font: ``name`` (bold is ``name + "-Bold"``) and the code points it
    covers."""

    name: str
    covered: frozenset[int]

    def covers(self, text: str) -> bool:
        return all(ord(ch) in self.covered for ch in text)


@dataclass(slots=True)
class _Entry:
    embedded: Embedded
    users: int


_cache: OrderedDict[str, _Entry] = OrderedDict()


def acquire(region: str, chars: str) -> Embedded | None:
    """The embedded Noto Sans CJK font of ``region`` (one of :data:`REGIONS`) covering those of
    ``chars`` the system font has, registered with reportlab until :func:`release`; None when
    the system has no Noto Sans CJK or none of ``chars``. Thread-safe."""
    regular = system_font("Regular")
    if regular is None:
        return None
    wanted = "".join(sorted(set(chars)))
    digest = hashlib.sha1(f"{region}:{wanted}".encode()).hexdigest()[:10]
    name = f"TonkCJK-{region}-{digest}"
    with _lock:
        entry = _cache.get(name)
        if entry is None:
            embedded = _register(region, wanted, name, digest, regular)
            if embedded is None:
                return None
            entry = _cache[name] = _Entry(embedded, 0)
        entry.users += 1
        _cache.move_to_end(name)
        _evict()
        return entry.embedded


def release(embedded: Embedded) -> None:
    """A document using ``embedded`` is done with it."""
    with _lock:
        entry = _cache.get(embedded.name)
        if entry is not None:
            entry.users = max(0, entry.users - 1)
        _evict()


def _register(region: str, chars: str, name: str, digest: str, regular: Path) -> Embedded | None:
    source = _source(regular, region)
    covered = frozenset(ord(ch) for ch in chars if ord(ch) in source.cmap)
    if not covered:
        return None
    bold_path = system_font("Bold") or regular
    for font_name, path, weight in ((name, regular, "Regular"), (f"{name}-Bold", bold_path, "Bold")):
        ps_name = f"NotoSansCJK{region.lower()}-{weight}-{digest}"
        data = _build(_source(path, region), chars, ps_name, f"Noto Sans CJK {region}", weight)
        pdfmetrics.registerFont(TTFont(font_name, io.BytesIO(data)))
    pdfmetrics.registerFontFamily(name, normal=name, bold=f"{name}-Bold", italic=name, boldItalic=f"{name}-Bold")
    return Embedded(name, covered)


def _evict() -> None:
    idle = [name for name, entry in _cache.items() if entry.users == 0]
    for name in idle[: max(0, len(_cache) - KEEP)]:
        del _cache[name]
        for font_name in (name, f"{name}-Bold"):
            font = pdfmetrics._fonts.get(font_name)
            if isinstance(font, TTFont):
                font.unregister()
