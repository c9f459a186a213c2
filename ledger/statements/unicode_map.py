"""Text extraction of shaped scripts: each shaped cluster maps back to its characters.

HarfBuzz turns a cluster of characters (Devanagari "प्रि", an Arabic ligature) into one or
more glyphs, often reordered and often with no character of their own; reportlab then writes
them under private-use codes and text extraction loses the name. Here every glyph of a
cluster that does not map one-to-one is given a code of its own for that cluster, and the
PDF's ToUnicode table maps the cluster's first glyph to the cluster's characters in logical
order and its other glyphs to nothing, so ``pdftotext`` reads "प्रिया" back.

:func:`install` wraps reportlab's ``shapeFragWord`` (as used by Paragraph) and its ToUnicode
CMap writer; it is idempotent.
"""
from __future__ import annotations

import threading

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import ShapedStr
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

        def shape(w, *args, **kwargs):  # type: ignore[no-untyped-def]
            if not all(_shapable(f) for f, _s in w[1:]):
                return w  # a CID (CJK) run: drawn as is, reportlab cannot shape it
            return _remap(w, original(w, *args, **kwargs))

        def cmap(fontname: str, subset: list[int]) -> str:
            return _cmap(fontname, subset, make_cmap)

        paragraph.shapeFragWord = shape
        ttfonts.makeToUnicodeCMap = cmap
        _installed = True


def _shapable(frag) -> bool:  # type: ignore[no-untyped-def]
    if hasattr(frag, "cbDefn"):
        return True
    return isinstance(pdfmetrics.getFont(frag.fontName), ttfonts.TTFont)


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
        for cluster, indices in by_cluster.items():
            source = text[cluster:end_of[cluster]]
            glyph_text = "".join(chars[i] for i in indices)
            if glyph_text == source:
                continue
            if _rtl(source):
                source = source[::-1]  # extraction reverses right-to-left text character-wise
            for i, piece in zip(indices, _share(source, [data[i].x_advance for i in indices])):
                gid = face.charToGlyph.get(ord(chars[i]))
                if gid is not None:
                    chars[i] = chr(_code(face, gid, piece))
        shaped = ShapedStr("".join(chars), shapeData=data)
        out.append((frag, shaped) if len(item) == 2 else (frag, shaped, *item[2:]))
    return new.__class__(out)


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
