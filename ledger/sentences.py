"""Sentences the engine hands out, as codes for the catalogue: an English template with named
placeholders and its parameters, never a finished sentence in one language.

``N_`` marks a template for ``pybabel extract``. :class:`Sentence` holds a template and its
parameters and becomes words only when shown (``str(sentence)``), through the renderer installed
by the language layer (:mod:`ledger.i18n.refusals`); with none installed, plain English.
Parameters may be ``str``, ``int``, a :class:`~ledger.games.tonk.cards.Card` (shown with its suit
symbol), :class:`Cards` (several cards side by side: "K♠ Q♥ J♦"), a list or tuple of names
("Dee, Rosa and Marcus"), or another :class:`Sentence`.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


def N_(template: str) -> str:
    """Marks ``template`` for the catalogue; returns it unchanged."""
    return template


def join_english(names: list[str] | tuple[str, ...]) -> str:
    """``["Dee", "Rosa", "Marcus"]`` → ``"Dee, Rosa and Marcus"``."""
    names = [str(n) for n in names]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _english_value(value: Any) -> Any:
    if type(value) in _SHOWN_AS_THEY_ARE:
        return value
    if isinstance(value, (list, tuple)):
        return join_english([str(_english_value(v)) for v in value])
    pretty = getattr(value, "pretty", None)
    if callable(pretty):
        return pretty()
    if isinstance(value, Sentence):
        return english(value.template, value.params)
    return value


_SHOWN_AS_THEY_ARE = (str, int)  # exactly these types (a subclass might define pretty())


def english(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled in English (lists joined with "and", cards with suit symbols)."""
    if not params:
        return template
    return template.format(**{k: _english_value(v) for k, v in params.items()})


Renderer = Callable[[str, Mapping[str, Any]], str]
_renderer: list[Renderer] = [english]


def install(renderer: Renderer) -> None:
    """Use ``renderer(template, params)`` to put sentences into words (the language layer)."""
    _renderer[0] = renderer


def render(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with ``params`` in words, through the installed renderer."""
    return _renderer[0](template, params)


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards shown side by side as one parameter (``"K♠ Q♥ J♦"``), each card in the reader's
    words (a joker named in the language). ``cards`` are :class:`~ledger.games.tonk.cards.Card`."""

    cards: tuple[Any, ...]

    def pretty(self) -> str:
        return " ".join(card.pretty() for card in self.cards)

    def __str__(self) -> str:
        # "{card}" is no catalogue sentence: each card goes through the renderer's card words
        return " ".join(render("{card}", {"card": card}) for card in self.cards)


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence not yet in words: ``str(Sentence(N_("{winner} tonked out"), {"winner": "Dee"}))``."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self.template, self.params)

    def english(self) -> str:
        return english(self.template, self.params)

    # a Sentence stands in for the str it used to be in joins, comparisons and templates
    def __html__(self) -> str:
        from html import escape

        return escape(str(self), quote=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self) == other
        if isinstance(other, Sentence):
            return self.template == other.template and dict(self.params) == dict(other.params)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.template)
