"""What a person reads on a page, and the English words left in it (the pseudo-language tests).

``visible_text(html)`` gathers the text nodes and the attributes a browser shows or reads aloud
(``title``, ``aria-label``, ``alt``, ``placeholder``, a button's ``value``), skipping ``<script>``,
``<style>``, ``<time>`` (a date Babel wrote; the pseudo language formats like ``en_US``) and any
element marked ``translate="no"`` (names, codes, cards). In the pseudo language
every catalogue sentence is written in accented look-alike letters, so ``english_left`` finds the
sentences that never went through the catalogue: runs of two or more plain ASCII letters.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "aria-description")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# brand and technical words that stay as they are in every language
ALLOWED = {"Tonk", "Ledger", "PDF", "CSV", "JSON", "QR", "URL", "API", "OK"}
_WORD = re.compile(r"[A-Za-z]{2,}")
_URL = re.compile(r"(?:https?://|/)[^\s]*")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip: list[str] = []  # stack of open tags whose text is skipped

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        skipped = bool(self._skip) or tag in ("script", "style", "time") or values.get("translate") == "no"
        if skipped and tag not in VOID:
            self._skip.append(tag)
        if skipped:
            return
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.parts.append(str(values[name]))
        if tag == "input" and values.get("type") in ("submit", "button", "reset") and values.get("value"):
            self.parts.append(str(values["value"]))

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> list[str]:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.parts


def english_left(html: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The pieces of ``html``'s visible text holding plain English words (pseudo-language pages)."""
    found = []
    for part in visible_text(html):
        text = _URL.sub(" ", part)
        words = [w for w in _WORD.findall(text) if w not in ALLOWED and w not in allowed]
        if words:
            found.append(part)
    return found
