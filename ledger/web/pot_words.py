"""The pot of a Tong-its night in words (TONGITS.md §4.8, §4.9): one whole sentence for the table
screen and the close, saying what the pot holds and who is on a streak, or what the close did
with it (split among the seated players, carried to the group's next night, or empty)."""
from __future__ import annotations

from typing import Any, Mapping

from sqlmodel import Session

from ledger import night as ledger_night
from ledger.i18n import _, ngettext
from ledger.models import GameSession
from ledger.web.formatting import money


def pot_sentence(db: Session, night: GameSession) -> str | None:
    """The sentence for the night's pot (:func:`ledger.night.pot_json`), in the current language;
    ``None`` for a game without a pot (Tonk)."""
    pot = ledger_night.pot_json(db, night).get("pot")
    return None if pot is None else pot_words(pot, night.currency)


def pot_words(pot: Mapping[str, Any], currency: str) -> str:
    """:func:`pot_sentence` from a session's ``pot`` JSON (amounts in minor units of ``currency``)."""
    closed = pot.get("closed")
    if closed == "split":
        return ngettext("The pot of {amount} was split among {count} player.",
                        "The pot of {amount} was split among {count} players.", int(pot["closed_among"]),
                        amount=money(int(pot["closed_minor"]), currency))
    if closed == "carried":
        return _("The pot of {amount} is carried to the group's next night; the players' balances do not settle it.",
                 amount=money(int(pot["closed_minor"]), currency))
    if closed == "empty":
        return _("The pot was empty when the night closed.")
    balance = int(pot.get("balance_minor") or 0)
    holder = pot.get("holder")
    if holder is not None:
        return ngettext("The pot holds {amount}; {holder} has won {count} hand in a row.",
                        "The pot holds {amount}; {holder} has won {count} hands in a row.", int(pot["streak"]),
                        amount=money(balance, currency), holder=holder)
    if balance:
        return _("The pot holds {amount}.", amount=money(balance, currency))
    return _("The pot is empty.")
