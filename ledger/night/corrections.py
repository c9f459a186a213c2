"""What a correction changed in a hand's entry, player by player: "Dee's total 7 → 47".

A correction (audit ``hand_amended``) keeps the entry before and after (the phone's own words:
each player's total, cards, melds, points or result, as the game's entry takes them). The log
and the PDFs name the values that changed, not only the amounts that followed from them.
Labels are :class:`~ledger.sentences.Sentence` codes, put into words where they are shown; the
values are the entry's own (numbers, card codes with suit symbols), and a result code (rummy's
``first_drop``...) is a Sentence too. Pure domain code: the standard library and the cards.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.games.cards import Card, InvalidCard
from ledger.sentences import N_, Sentence

#: each entry field's label, one whole phrase with the player's name in it
FIELD_LABELS: dict[str, str] = {
    "total": N_("{name}'s total"),
    "cards": N_("{name}'s cards"),
    "spreads": N_("{name}'s spreads"),
    "melds": N_("{name}'s melds"),
    "points": N_("{name}'s points"),
    "deadwood": N_("{name}'s deadwood"),
    "result": N_("{name}'s result"),
}
OTHER_FIELD = N_("{name}'s hand")  # a field without a label of its own (a game's rarer ones)
RESULT_WORDS: dict[str, str] = {
    "lost": N_("Lost: their count"),
    "first_drop": N_("First drop"),
    "middle_drop": N_("Middle drop"),
    "wrong_show": N_("Showed wrongly"),
    "full_count": N_("Full count"),
}
NOTHING = "\u2014"  # a value the entry did not give


@dataclass(frozen=True, slots=True)
class EntryChange:
    """One value a correction changed: ``label`` names it ("Dee's total"), ``before`` and
    ``after`` are the values as shown (``str`` or a :class:`Sentence`; :data:`NOTHING` when the
    entry did not give it)."""

    player: str
    field: str
    label: Sentence
    before: str | Sentence
    after: str | Sentence


def entry_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[EntryChange]:
    """The per-player values that differ between two entries of one hand (``{"hands": {player:
    {field: value}}}``), players in the order the entries name them, fields in their order.
    The outcome itself (who won, how) is not here: the hand's description before and after says it."""
    old = _hands(before)
    new = _hands(after)
    changes: list[EntryChange] = []
    for player in dict.fromkeys([*old, *new]):
        was, now = old.get(player, {}), new.get(player, {})
        for name in dict.fromkeys([*was, *now]):
            if was.get(name) == now.get(name):
                continue
            label = Sentence(FIELD_LABELS.get(name, OTHER_FIELD), {"name": player})
            changes.append(EntryChange(player, name, label, shown(name, was.get(name)), shown(name, now.get(name))))
    return changes


def _hands(entry: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    hands = (entry or {}).get("hands") or {}
    return {str(p): dict(h) for p, h in hands.items() if isinstance(h, Mapping)} if isinstance(hands, Mapping) else {}


def shown(field: str, value: Any) -> str | Sentence:
    """A field's value as a person reads it: a card code with its suit symbol ("7♣"), groups of
    cards separated by " / ", a result in words (a :class:`Sentence`), a number as it is."""
    if value is None or value == [] or value == "":
        return NOTHING
    if field == "result" and isinstance(value, str) and value in RESULT_WORDS:
        return Sentence(RESULT_WORDS[value])
    if isinstance(value, bool):
        return Sentence(N_("yes")) if value else Sentence(N_("no"))
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, (list, tuple)) for v in value):
            return " / ".join(" ".join(_card(c) for c in group) for group in value)
        return " ".join(_card(v) for v in value)
    if isinstance(value, str):
        return _card(value)
    return str(value)


def _card(code: Any) -> str:
    try:
        return Card.parse(str(code)).pretty()
    except InvalidCard:
        return str(code)  # not a card (a game's own code): as the entry gave it
