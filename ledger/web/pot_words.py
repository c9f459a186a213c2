"""The pot of a Tong-its night in words (TONGITS.md §4.8, §4.9): one whole sentence for the table
screen and the close, saying what the pot holds and who is on a streak, or what the close did
with it (split among the seated players, carried to the group's next night, or empty)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session

from ledger.night import lifecycle as ledger_night
from ledger.i18n import _, ngettext
from ledger.storage.models import GameSession, Hand
from ledger.web.formatting import money


def pot_sentence(db: Session, night: GameSession) -> str | None:
    """The sentence for the night's pot (:func:`ledger.night.lifecycle.pot_json`), in the current language;
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


def seat_close_words(closed: Hand | None, currency: str) -> str | None:
    """What a sit-in or a leave did with the pot before the seat changed (its ``close_pot`` entry,
    TONGITS.md §4.9 ``pot_on_seat_change``): split among the seating of then, kept for the new
    seating, or only the streak cleared; ``None`` when it closed nothing."""
    if closed is None:
        return None
    pot = closed.result.get("pot") or {}
    balance = int(pot.get("balance_before") or 0)
    if int(pot.get("split") or 0) > 0:
        return ngettext("Before the seat change, the pot of {amount} was split among {count} player.",
                        "Before the seat change, the pot of {amount} was split among {count} players.",
                        len(closed.players), amount=money(int(pot["split"]), currency))
    if balance:
        return _("The pot of {amount} stays for the new seating; the streak starts again.",
                 amount=money(balance, currency))
    return _("The streak starts again for the new seating.")
