"""Test catalogues for the counted words of the scripts: every plural sentence of
:mod:`ledger.web.js_words` given one distinct form per plural form of each language
(``"[0] {count} pt"``, ``"[1] {count} pts"``…), merged into the language's real catalogue (whose
``Plural-Forms`` header, from CLDR, stays the one used), so that a test can tell exactly which
form a count got. :func:`restore` drops them again."""
from __future__ import annotations

import io
from typing import Iterator

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from ledger.i18n import LANGUAGES, SOURCE
from ledger.i18n.catalogs import forget, translations
from ledger.web import js_words

PAIRS = (
    ("{count} pt", "{count} pts"),
    ("{count} waiting to send", "{count} waiting to send"),
    ("{count} needs a look", "{count} need a look"),
    ("{count} changed", "{count} changed"),
    ("{preset}, with {count} house change", "{preset}, with {count} house changes"),
)
TRANSLATED = [code for code in LANGUAGES if code != SOURCE]


def _counted_catalogue(code: str) -> Translations:
    catalogue = Catalog(locale=code)
    for singular, plural in PAIRS:
        forms = tuple(f"[{i}] {plural}" for i in range(catalogue.num_plurals))
        catalogue.add((singular, plural), forms)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return Translations(buffer)


def install() -> None:
    """Every translated language's catalogue gets the distinct forms."""
    restore()
    for code in TRANSLATED:
        loaded = translations(code)
        assert isinstance(loaded, Translations), f"no catalogue for {code}"
        loaded.merge(_counted_catalogue(code))


def restore() -> None:
    forget()
    js_words.forget()


def installed() -> Iterator[None]:
    install()
    try:
        yield
    finally:
        restore()
