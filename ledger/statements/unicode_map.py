"""Text extraction of shaped scripts: each shaped cluster maps back to its characters.

HarfBuzz turns a cluster of characters (Devanagari "प्रि", an Arabic ligature) into one or
more glyphs, often reordered and often with no character of their own; reportlab then writes
them under private-use codes and text extraction loses the name. Here every glyph of a
cluster that does not map one-to-one is given a code of its own for that cluster, and the
PDF's ToUnicode table maps the cluster's first glyph to the cluster's characters in logical
order and its other glyphs to nothing, so ``pdftotext`` reads "प्रिया" back.

Right-to-left text is mapped for readers that, like pypdf, read glyphs in drawing order and put
right-to-left letters back in logical order one by one: the glyphs of a run, read from the
last drawn, spell the run in logical order, and the first drawn stands for one letter.

The ToUnicode table alone cannot put a vowel sign drawn before its consonant (Malayalam "ജോ")
back where it belongs for a reader that orders text by position (``pdftotext``), so every
shaped string is also drawn inside a marked-content span whose ``/ActualText`` is the string
it stands for (PDF 32000-1 §14.9.4): in logical order, or for right-to-left text as
``pdftotext`` expects it (see :func:`_span`).

:func:`install` wraps reportlab's ``shapeFragWord`` (as used by Paragraph), its ToUnicode CMap
writer and the text object's string formatting; it is idempotent. :func:`shape` shapes a
string for drawing on a canvas (chart labels, page footers).
"""
from __future__ import annotations

import threading

from reportlab.lib.abag import ABag
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import ShapedStr
from reportlab.pdfgen import textobject
from reportlab.platypus import paragraph

_lock = threading.Lock()
_installed = False
# (font face name, private code) -> the characters that glyph stands for ("" for a mark);
# (face name, glyph id, those characters) -> the private code
_text_of: dict[tuple[bytes, int], str] = {}
_code_of: dict[tuple[bytes, int, str], int] = {}
_PRIVATE_START = 0xF0000  # supplementary private use area A: no font here uses it


def install() -> None:
    global _installed
    with _lock:
        if _installed:
            return
        original = paragraph.shapeFragWord
        make_cmap = ttfonts.makeToUnicodeCMap
        format_text = textobject.PDFTextObject._formatText

        def shape(w, *args, **kwargs):  # type: ignore[no-untyped-def]
            if not all(_shapable(f) for f, _s in w[1:]):
                return w  # a CID (CJK) run: drawn as is, reportlab cannot shape it
            if isinstance(w, ttfonts.ShapedFragWord) or any(isinstance(s, ShapedStr) for _f, s, *_ in w[1:]):
                return w  # shaped already (a paragraph wrapped again, or a piece of a split word)
            groups = _by_font(w)
            if len(groups) < 2:
                return _remap(w, original(w, *args, **kwargs))
            return _shape_groups(w, groups, original)

        def cmap(fontname: str, subset: list[int]) -> str:
            return _cmap(fontname, subset, make_cmap)

        def formatted(self, text):  # type: ignore[no-untyped-def]
            return _span(self, text, format_text(self, text))

        paragraph.shapeFragWord = shape
        ttfonts.makeToUnicodeCMap = cmap
        textobject.PDFTextObject._formatText = formatted
        _installed = True


def _shapable(frag) -> bool:  # type: ignore[no-untyped-def]
    if hasattr(frag, "cbDefn"):
        return True
    return isinstance(pdfmetrics.getFont(frag.fontName), ttfonts.TTFont)


def _by_font(word) -> list[list[tuple]]:  # type: ignore[no-untyped-def]
    """The pieces of a Paragraph word grouped by font (and size), in order."""
    groups: list[list[tuple]] = []
    key = None
    for item in word[1:]:
        frag = item[0]
        if not hasattr(frag, "cbDefn"):
            if (frag.fontName, frag.fontSize) != key or not groups:
                groups.append([])
            key = (frag.fontName, frag.fontSize)
        elif not groups:
            groups.append([])
        groups[-1].append(item)
    return groups


def _shape_groups(word, groups, original):  # type: ignore[no-untyped-def]
    """A word set in several fonts ("1.\u00a0ജോൺ"): reportlab would shape all of it with the
    first font (the others' letters become boxes), so each font's part is shaped on its own."""
    items: list = []
    width = 0.0
    for group in groups:
        sub = [sum(pdfmetrics.stringWidth(s, f.fontName, f.fontSize) for f, s, *_ in group
                   if not hasattr(f, "cbDefn")), *group]
        new = _remap(sub, original(sub, force=True))
        if new is sub:
            items.extend(group)
            width += sub[0]
        else:
            items.extend(new[1:])
            width += new[0]
    return ttfonts.makeShapedFragWord(word)([width, *items])


def _remap(word, new):  # type: ignore[no-untyped-def]
    if new is word or not isinstance(new, list) or len(new) < 2:
        return new
    text = "".join(s for f, s in word[1:] if not hasattr(f, "cbDefn"))
    pieces = [(f, s) for f, s in new[1:] if isinstance(s, ShapedStr)]
    if not pieces:
        return new
    starts = sorted({d.cluster for _, s in pieces for d in s.__shapeData__})
    end_of = {c: (starts[i + 1] if i + 1 < len(starts) else len(text)) for i, c in enumerate(starts)}
    out = [new[0]]
    for item in new[1:]:
        frag, s = item[0], item[1]
        if not isinstance(s, ShapedStr):
            out.append(item)
            continue
        font = pdfmetrics.getFont(frag.fontName)
        face = font.face
        data = s.__shapeData__
        by_cluster: dict[int, list[int]] = {}
        for i, d in enumerate(data):
            by_cluster.setdefault(d.cluster, []).append(i)
        chars = list(s)
        first = min(by_cluster)
        source = text[first:end_of[max(by_cluster)]]
        if _rtl(source):
            _map(face, chars, list(range(len(chars))), _share_rtl(source, len(chars)))
        else:
            for cluster, indices in by_cluster.items():
                source = text[cluster:end_of[cluster]]
                if "".join(chars[i] for i in indices) != source:
                    _map(face, chars, indices, _share(source, [data[i].x_advance for i in indices]))
        shaped = ShapedStr("".join(chars), shapeData=data)
        out.append((frag, shaped) if len(item) == 2 else (frag, shaped, *item[2:]))
    return new.__class__(out)


def _map(face, chars: list[str], indices: list[int], pieces: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Give glyph ``chars[i]`` (for each ``i`` in ``indices``) a code standing for its piece."""
    for i, piece in zip(indices, pieces):
        if chars[i] == piece:
            continue
        gid = face.charToGlyph.get(ord(chars[i]))
        if gid is not None:
            chars[i] = chr(_code(face, gid, piece))


def _share_rtl(source: str, glyphs: int) -> list[str]:
    """Pieces for the ``glyphs`` glyphs of a right-to-left run drawn left to right, so the
    pieces read from the last drawn spell ``source``: one letter each from its end, the
    last drawn glyph taking whatever is left (in logical order), the rest of the glyphs none."""
    if glyphs >= len(source):
        return [*source[::-1], *[""] * (glyphs - len(source))]
    head = len(source) - glyphs + 1
    return [*source[head:][::-1], source[:head]]


def _rtl(text: str) -> bool:
    return any("\u0590" <= c <= "\u08ff" or "\ufb1d" <= c <= "\ufeff" for c in text)


def _share(source: str, advances: list[int]) -> list[str]:
    """Split a cluster's characters over its glyphs in drawing order: the glyphs that move the
    pen take one character each (the first takes what is left over), marks take none, so
    extraction sees no gaps and reads the characters in logical order."""
    moving = [n for n, a in enumerate(advances) if a] or [0]
    pieces = [""] * len(advances)
    extra = max(0, len(source) - len(moving))
    at = 0
    for k, n in enumerate(moving):
        take = 1 + extra if k == 0 else 1
        pieces[n] = source[at:at + take]
        at += take
    return pieces


def _code(face, gid: int, text: str) -> int:  # type: ignore[no-untyped-def]
    """A private code of ``face`` for glyph ``gid`` standing for ``text``."""
    key = (face.name, gid, text)
    with _lock:
        code = _code_of.get(key)
        if code is None:
            code = _PRIVATE_START
            while code in face.charToGlyph:
                code += 1
            face.charToGlyph[code] = gid
            face.glyphToChar.setdefault(gid, []).append(code)
            width = face.charWidths.get(face.glyphToChar[gid][0], 0)
            face.charWidths[code] = width
            _code_of[key] = code
            _text_of[(face.name, code)] = text
    return code


def _utf16_hex(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _cmap(fontname: str, subset: list[int], make_cmap) -> str:  # type: ignore[no-untyped-def]
    face_name = fontname.split("+", 1)[-1].encode("latin-1", "replace")
    mapped = {i: _text_of.get((face_name, cp)) for i, cp in enumerate(subset) if cp >= _PRIVATE_START}
    base = make_cmap(fontname, subset)
    if not any(v is not None for v in mapped.values()):
        return base
    lines = []
    for line in base.split("\n"):
        if line.startswith("<") and "> <" in line and len(line) < 40:
            code = int(line[1:3], 16)
            text = mapped.get(code)
            if text is not None:
                line = f"<{code:02X}> <{_utf16_hex(text)}>"
        lines.append(line)
    return "\n".join(lines)


def _pieces(face, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    """What each glyph code of ``text`` stands for, in drawing order."""
    return [_text_of.get((face.name, ord(c)), c) for c in text]


def logical(face, text: str) -> str:  # type: ignore[no-untyped-def]
    """The characters a shaped string drawn in ``face`` stands for, in logical order."""
    pieces = _pieces(face, text)
    if _rtl("".join(pieces)):
        pieces.reverse()
    return "".join(pieces)


_LRM = "\u200e"


def _span(tx, text, ops: str) -> str:  # type: ignore[no-untyped-def]
    """``ops`` (the operators drawing ``text``) inside an ``/ActualText`` span when ``text`` is
    a shaped string whose glyphs do not spell it one character each, left to right.

    ``pdftotext`` treats the span's characters like drawn ones: left to right, putting runs
    of right-to-left letters (and the spaces after them) in logical order itself. So a
    right-to-left string's span holds its characters in visual order, then a LEFT-TO-RIGHT
    MARK that ends the run, so the space and the word after it stay after the name."""
    if not isinstance(text, ShapedStr) or not ops:
        return ops
    face = getattr(pdfmetrics.getFont(tx._fontname), "face", None)
    if face is None:
        return ops
    actual = logical(face, text)
    if _rtl(actual):
        actual = actual[::-1] + _LRM
    elif actual == text:
        return ops
    return f"/Span <</ActualText <FEFF{_utf16_hex(actual)}>>> BDC {ops} EMC"


def shape(text: str, font_name: str, size: float) -> tuple[str, float]:
    """``text`` (logical order, one font) shaped for a canvas, and its width in points: a
    ``ShapedStr`` mapped like Paragraph text, or ``text`` itself when shaping changes nothing."""
    width = pdfmetrics.stringWidth(text, font_name, size)
    word = [width, (ABag(fontName=font_name, fontSize=size), text)]
    new = paragraph.shapeFragWord(word)
    if new is word or len(new) != 2:
        return text, width
    return new[1][1], float(new[0])
