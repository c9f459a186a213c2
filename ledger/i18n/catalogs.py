"""The translation catalogues: ``ledger/translations/<code>/LC_MESSAGES/messages.po``.

A compiled ``messages.mo`` (``make translations``, run at install) is used when it is newer than
its ``.po``; otherwise the ``.po`` is compiled in memory at first use, so a fresh checkout and an
edited catalogue both work without a build step. Fuzzy entries are never used.
"""
from __future__ import annotations

import gettext
import io
import threading
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from ledger.i18n.languages import LANGUAGES, PSEUDO, SOURCE

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"
TEMPLATE = TRANSLATIONS_DIR / "messages.pot"
DOMAIN = "messages"

_lock = threading.Lock()
_loaded: dict[str, gettext.NullTranslations] = {}


def po_path(code: str) -> Path:
    return TRANSLATIONS_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def translations(code: str) -> gettext.NullTranslations:
    """The catalogue of ``code`` (a key of :data:`LANGUAGES`, or :data:`PSEUDO`), loaded once per
    process. English, and a language whose catalogue is missing, give the source sentences."""
    found = _loaded.get(code)
    if found is not None:
        return found
    with _lock:
        found = _loaded.get(code)
        if found is None:
            found = _load(code)
            _loaded[code] = found
    return found


def forget() -> None:
    """Drop every loaded catalogue (tests that rewrite one)."""
    with _lock:
        _loaded.clear()


def _load(code: str) -> gettext.NullTranslations:
    if code == PSEUDO:
        from ledger.i18n.pseudo import pseudo_catalogue

        return _compiled(pseudo_catalogue(TEMPLATE))
    if code == SOURCE or code not in LANGUAGES:
        return gettext.NullTranslations()
    po = po_path(code)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return Translations(handle, domain=DOMAIN)
    if not po.exists():
        return gettext.NullTranslations()
    with po.open("rb") as handle:
        catalogue = read_po(handle, locale=code.replace("-", "_"))
    return _compiled(catalogue)


def _compiled(catalogue) -> Translations:  # type: ignore[no-untyped-def]
    buffer = io.BytesIO()
    write_mo(buffer, catalogue, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)
