"""The seating changes in words, for the log and the other phones' news line:
"Ed sat in from hand 10", "Rosa leaves +$4.25: Marcus pays Rosa $4.25", "Stake $0.50 from
hand 15 (was $0.25)", "Dee and Marcus swapped seats from hand 3", "Tom is now Tomás".

Each sentence is one template with named placeholders, in the request's language
(:mod:`ledger.i18n`); amounts come from the stored audit details (``int`` minor units) and are
only formatted here.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ledger.money import is_points
from ledger.i18n import _, ngettext, pgettext
from ledger.web.formatting import join_names, money, signed_money

SEAT_ACTIONS = ("player_sat_in", "player_left", "stake_changed", "seats_swapped", "player_renamed")


def transfer_words(transfers: Sequence[Mapping[str, Any]], currency: str) -> list[str]:
    """``["Marcus pays Rosa $4.25", ...]``."""
    return [_("{payer} pays {payee} {amount}", payer=t.get("from", "?"), payee=t.get("to", "?"),
              amount=money(int(t.get("amount", 0)), currency))
            for t in transfers]


def leave_line(name: str, balance_minor: int, transfers: Sequence[Mapping[str, Any]], currency: str) -> str:
    """``"Rosa leaves +$4.25: Marcus pays Rosa $4.25"`` (or ``"Rosa leaves even"``; a night kept in
    points names no payment: ``"Rosa leaves +21"``)."""
    if not transfers or is_points(currency):
        if not balance_minor:
            return _("{name} leaves even", name=name)
        return _("{name} leaves {balance}", name=name, balance=signed_money(balance_minor, currency))
    # the transfers are a list of whole clauses ("Dee pays Rosa $0.75; Tomás pays Rosa $0.50")
    return _("{name} leaves {balance}: {transfers}", name=name, balance=signed_money(balance_minor, currency),
             transfers=pgettext("between payments", "; ").join(transfer_words(transfers, currency)))


def describe_seat_event(action: str, detail: Mapping[str, Any], currency: str) -> tuple[str, str, list[tuple[str, str, str]]]:
    """``(title, summary, changes)`` of a seating event in the request's language: ``changes``
    are ``(label, before, after)`` rows. Raises ``KeyError`` for an action not in
    :data:`SEAT_ACTIONS`."""
    before, after = detail.get("before") or {}, detail.get("after") or {}
    seats = (_("Seats"), join_names([str(p) for p in before.get("players") or []]),
             join_names([str(p) for p in after.get("players") or []]))
    if action == "player_sat_in":
        name, hand = after.get("name", "?"), after.get("from_hand", "?")
        title = (_("{name} sat in again from hand {hand}", name=name, hand=hand) if after.get("returning")
                 else _("{name} sat in from hand {hand}", name=name, hand=hand))
        return title, "", [seats]
    if action == "player_left":
        cash = after.get("cash_out") or {}
        title = leave_line(str(after.get("name", "?")), int(after.get("outstanding", after.get("balance")) or 0),
                           cash.get("transfers") or [],
                           currency)
        paid = (_("at the end of the night") if after.get("settle") == "at_end"
                else _("now, recorded as payments"))
        rows = [seats, (_("Cash-out paid"), "", paid)]
        as_of = after.get("as_of_hand")
        if as_of is not None:
            rows.append((_("Balance as of hand"), "", str(as_of)))
        return title, "", rows
    if action == "stake_changed":
        old, new = before.get("stake_minor"), after.get("stake_minor")
        title = _("Stake {new} from hand {hand} (was {old})", new=money(int(new or 0), currency),
                  hand=after.get("from_hand", "?"), old=money(int(old or 0), currency))
        return title, "", []
    if action == "seats_swapped":
        numbers = [h.get("number") for h in after.get("hands") or []]
        title = _("{a} and {b} swapped seats from hand {hand}", a=after.get("a", "?"), b=after.get("b", "?"),
                  hand=after.get("from_hand", "?"))
        summary = (ngettext("Hand {numbers} re-entered as a new version.", "Hands {numbers} re-entered as new versions.",
                            len(numbers), numbers=", ".join(str(n) for n in numbers))
                   if numbers else _("No hand needed re-entering."))
        return title, summary, [seats] if before.get("players") != after.get("players") else []
    if action == "player_renamed":
        return _("{old} is now {new}", old=before.get("name", "?"), new=after.get("name", "?")), "", []
    raise KeyError(action)
