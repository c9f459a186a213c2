"""The pseudo language (``en-XA``): every catalogue sentence in accented look-alike letters inside
``⟦…⟧``, placeholders kept. A page rendered in it shows at a glance any English left unwrapped.

Test use only (``I18N_PSEUDO``).
"""
from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

_LOOKALIKE = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšŧûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŦÛṼŴẊÝŽ",
)
# kept as they are: {placeholders}, HTML tags and entities
_KEEP = re.compile(r"(\{[^{}]*\}|<[^>]*>|&[#\w]+;)")


def pseudo(text: str) -> str:
    """``"{winner} knocked"`` → ``"⟦{winner} ķñöçķéđ⟧"``."""
    if not text:
        return text
    parts = _KEEP.split(text)
    return "⟦" + "".join(p if _KEEP.fullmatch(p) else p.translate(_LOOKALIKE) for p in parts) + "⟧"


def pseudo_catalogue(template: Path) -> Catalog:
    """The pseudo translation of every sentence in ``template`` (the ``.pot``)."""
    with template.open("rb") as handle:
        source = read_po(handle)
    catalogue = Catalog(locale="en", domain="messages")
    for message in source:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: object = tuple(pseudo(part) for part in message.id)
        else:
            string = pseudo(message.id)
        catalogue.add(message.id, string, context=message.context)
    return catalogue
