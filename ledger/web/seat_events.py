"""The seating changes in words, for the log and the other phones' news line:
"Ed sat in from hand 10", "Rosa leaves +$4.25: Marcus pays Rosa $4.25", "Stake $0.50 from
hand 15 (was $0.25)", "Dee and Marcus swapped seats from hand 3", "Tom is now Tomás".

Each sentence is one template with named placeholders; amounts come from the stored audit
details (``int`` minor units) and are only formatted here.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ledger.rules.describe import join_names
from ledger.web.formatting import money, signed_money

SEAT_ACTIONS = ("player_sat_in", "player_left", "stake_changed", "seats_swapped", "player_renamed")


def transfer_words(transfers: Sequence[Mapping[str, Any]], currency: str) -> list[str]:
    """``["Marcus pays Rosa $4.25", ...]``."""
    return ["{payer} pays {payee} {amount}".format(payer=t.get("from", "?"), payee=t.get("to", "?"),
                                                    amount=money(int(t.get("amount", 0)), currency))
            for t in transfers]


def leave_line(name: str, balance_minor: int, transfers: Sequence[Mapping[str, Any]], currency: str) -> str:
    """``"Rosa leaves +$4.25: Marcus pays Rosa $4.25"`` (or ``"Rosa leaves even"``)."""
    if not transfers:
        return "{name} leaves {balance}".format(name=name, balance=signed_money(balance_minor, currency)) \
            if balance_minor else "{name} leaves even".format(name=name)
    return "{name} leaves {balance}: {transfers}".format(
        name=name, balance=signed_money(balance_minor, currency), transfers="; ".join(transfer_words(transfers, currency)))


def describe_seat_event(action: str, detail: Mapping[str, Any], currency: str) -> tuple[str, str, list[tuple[str, str, str]]]:
    """``(title, summary, changes)`` of a seating event: ``changes`` are ``(label, before,
    after)`` rows. Raises ``KeyError`` for an action not in :data:`SEAT_ACTIONS`."""
    before, after = detail.get("before") or {}, detail.get("after") or {}
    seats = ("Seats", join_names([str(p) for p in before.get("players") or []]),
             join_names([str(p) for p in after.get("players") or []]))
    if action == "player_sat_in":
        title = ("{name} sat in again from hand {hand}" if after.get("returning") else
                 "{name} sat in from hand {hand}").format(name=after.get("name", "?"), hand=after.get("from_hand", "?"))
        return title, "", [seats]
    if action == "player_left":
        cash = after.get("cash_out") or {}
        title = leave_line(str(after.get("name", "?")), int(after.get("outstanding", after.get("balance")) or 0),
                           cash.get("transfers") or [],
                           currency)
        paid = ("at the end of the night" if after.get("settle") == "at_end" else "now, recorded as payments")
        rows = [seats, ("Cash-out paid", "", paid)]
        as_of = after.get("as_of_hand")
        if as_of is not None:
            rows.append(("Balance as of hand", "", str(as_of)))
        return title, "", rows
    if action == "stake_changed":
        old, new = before.get("stake_minor"), after.get("stake_minor")
        title = "Stake {new} from hand {hand} (was {old})".format(
            new=money(int(new or 0), currency), hand=after.get("from_hand", "?"), old=money(int(old or 0), currency))
        return title, "", []
    if action == "seats_swapped":
        numbers = [h.get("number") for h in after.get("hands") or []]
        title = "{a} and {b} swapped seats from hand {hand}".format(
            a=after.get("a", "?"), b=after.get("b", "?"), hand=after.get("from_hand", "?"))
        summary = ("Hands {numbers} re-entered as new versions.".format(numbers=", ".join(str(n) for n in numbers))
                   if numbers else "No hand needed re-entering.")
        return title, summary, [seats] if before.get("players") != after.get("players") else []
    if action == "player_renamed":
        return "{old} is now {new}".format(old=before.get("name", "?"), new=after.get("name", "?")), "", []
    raise KeyError(action)
