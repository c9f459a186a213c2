"""Puts the engine's sentences into the reader's words: the renderer installed into
:mod:`ledger.sentences`, so that ``HandError.message``, ``NightError.message`` and every
:class:`~ledger.sentences.Sentence` read in the current language.

Parameters are localised on the way: lists of names are joined the language's way (Babel's
``format_list``: "Dee, Rosa ja Marcus"), cards keep their rank and suit symbol with the joker
named in the language, nested sentences are rendered first.
"""
from __future__ import annotations

from typing import Any, Mapping

from babel.lists import format_list

from ledger.i18n.languages import PSEUDO, SOURCE
from ledger.i18n.pseudo import pseudo
from ledger.i18n.translate import current_language, format_locale, gettext, pgettext
from ledger import sentences as words
from ledger.games.tonk.cards import Card


def card_text(card: Card) -> str:
    """``Q♦``, ``10♠``; a joker by the language's name for it (``"Joker (as 7♠)"``)."""
    if not card.is_joker:
        return card.pretty()
    if card.declared is None:
        return pgettext("card", "Joker")
    return pgettext("card", "Joker (as {card})", card=card.declared.pretty())


def names_text(names: list[Any] | tuple[Any, ...]) -> str:
    """Names joined as the language joins a list ("Dee, Rosa and Marcus" in English)."""
    items = [str(localised(n)) for n in names]
    if current_language() == SOURCE or len(items) < 2:
        return words.join_english(items)
    if current_language() == PSEUDO:  # joined as in English, its "and" in look-alike letters like its sentences
        return ", ".join(items[:-1]) + " " + pseudo("and") + " " + items[-1]
    return format_list(items, locale=format_locale())


def localised(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return names_text(value)
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, words.Sentence):
        return render(value.template, value.params)
    return value


def render(template: str, params: Mapping[str, Any]) -> str:
    """``template`` in the current language with each parameter localised."""
    return gettext(template, **{key: localised(value) for key, value in params.items()})


def install() -> None:
    words.install(render)
