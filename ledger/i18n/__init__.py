"""Tonk Ledger in seven languages: catalogues, the current language, and sentence lookup.

No Flask here: the web layer chooses the language (:mod:`ledger.web.language`), the PDF renders
and the CLI set it with :func:`use_language`. The rules engine stays out of it: it raises codes
with parameters and English templates marked for the catalogue, and this package turns them into
the reader's sentences (:mod:`ledger.i18n.refusals`).
"""
from __future__ import annotations

from ledger.i18n.languages import LANGUAGES, PSEUDO, SOURCE, Language, known
from ledger.i18n.translate import (
    N_, _, current_language, format_locale, gettext, ngettext, pgettext, set_language, use_language,
)

from ledger.i18n import sentences as _sentences

_sentences.install()  # the engine's sentences read in the current language from now on

__all__ = [
    "LANGUAGES", "PSEUDO", "SOURCE", "Language", "known", "N_", "_", "current_language", "format_locale",
    "gettext", "ngettext", "pgettext", "set_language", "use_language",
]
