"""Sentences in the reader's language: ``_("{winner} knocked with {count}", winner=…, count=…)``.

The language is the one set for the running request or render (:func:`use_language`), kept in a
context variable so that the web layer, the PDF workers and the CLI share one mechanism.
Placeholders are named and in braces (``str.format``); a catalogue sentence whose placeholders do
not fit its parameters falls back to the English sentence rather than fail the page (the catalogue
tests refuse such entries before they ship).

Extraction keywords (``pybabel extract``): ``_``, ``gettext``, ``ngettext``, ``pgettext``, ``N_``.
"""
from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Any, Iterator

from ledger.i18n.catalogs import translations
from ledger.i18n.languages import LANGUAGES, PSEUDO, SOURCE

_language: ContextVar[str] = ContextVar("ledger_language", default=SOURCE)
_format_locale: ContextVar[str | None] = ContextVar("ledger_format_locale", default=None)


def current_language() -> str:
    """The code of the language sentences are written in now (``"en"`` outside any request)."""
    return _language.get()


def format_locale(default: str = "en_US") -> str:
    """The Babel locale money, numbers and dates are written in now: the language's own
    (``"tr_TR"``), or ``default`` (the app's ``LOCALE``) for English and the pseudo language."""
    override = _format_locale.get()
    if override:
        return override
    lang = LANGUAGES.get(_language.get())
    if lang is None or lang.code == SOURCE:
        return default
    return lang.format_locale


def set_language(code: str, format_locale: str | None = None) -> None:
    """Set the language for the rest of this context (a request's before-hook)."""
    _language.set(code)
    _format_locale.set(format_locale)


@contextlib.contextmanager
def use_language(code: str | None, format_locale: str | None = None) -> Iterator[None]:
    """Write sentences in ``code`` inside the block (a PDF render, a test)."""
    token = _language.set(code or SOURCE)
    token_locale = _format_locale.set(format_locale)
    try:
        yield
    finally:
        _language.reset(token)
        _format_locale.reset(token_locale)


def _fill(text: str, source: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return source.format(**params)


def gettext(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    return _fill(translations(_language.get()).gettext(message), message, params)


_ = gettext


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """The plural form for ``count`` in the current language's plural rule; ``{count}`` is
    filled with ``count`` unless ``params`` gives it."""
    params.setdefault("count", count)
    text = translations(_language.get()).ngettext(singular, plural, count)
    return _fill(text, singular if count == 1 else plural, params)


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """``message`` told apart by ``context`` (``pgettext("card", "Joker")``)."""
    return _fill(translations(_language.get()).pgettext(context, message), message, params)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it (module-level tables)."""
    return message


def is_pseudo() -> bool:
    return _language.get() == PSEUDO
