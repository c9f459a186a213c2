"""Catalogue sentences as reportlab Paragraph markup, whole, in the reader's language.

:func:`sentence` translates an English template (marked with ``N_`` at the call site, so
``pybabel extract`` finds it) and fills its named placeholders: plain values are escaped and
set in the fonts their script needs (:func:`ledger.statements.fonts.markup`), values wrapped in
:class:`Marked` are ready markup (a bold name, an amount coloured by sign). The sentence's own
words go through the same font runs as names, so a Lao or Malayalam sentence is set in Noto
Sans Lao or Malayalam and shaped by HarfBuzz like a Lao or Malayalam name.

A translation whose placeholders do not fit the parameters falls back to the English sentence
(as :func:`ledger.i18n.gettext` does) rather than fail a PDF.
"""
from __future__ import annotations

from string import Formatter
from typing import Any

from ledger.i18n import _
from ledger.statements.fonts import markup

__all__ = ["Marked", "bold", "sentence"]


class Marked(str):
    """A parameter that is already Paragraph markup (not escaped again)."""


def bold(value: str) -> Marked:
    """``value`` (plain text) set in bold."""
    return Marked(f"<b>{markup(value)}</b>")


def _fill(template: str, params: dict[str, Any]) -> str:
    out = []
    for literal, field, spec, conversion in Formatter().parse(template):
        if literal:
            out.append(markup(literal))
        if field is None:
            continue
        if field not in params or spec or conversion:
            raise KeyError(field)
        value = params[field]
        out.append(value if isinstance(value, Marked) else markup(str(value)))
    return "".join(out)


def sentence(message: str, /, **params: Any) -> str:
    """``message`` in the current language as Paragraph markup, placeholders filled from
    ``params`` (:class:`Marked` values kept as they are, others escaped)."""
    translated = _(message)
    try:
        return _fill(translated, params)
    except (KeyError, IndexError, ValueError):
        return _fill(message, params)
