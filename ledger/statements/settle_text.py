"""The settle-up as plain text for the group chat (issue 22): ``GET
/api/v1/sessions/{id}/settlement.txt`` and the settle page's "Share the settle-up" (``/s/{id}/settle.txt``).

In the current language (:mod:`ledger.i18n`): the night's name, then one whole sentence per
transfer of the plan (:func:`ledger.night.payments.settlement_plan`), naming the payee's first
handle that fits the night's currency and has a text (:data:`ledger.settlement.handoffs.HANDLE_LABELS`),
or "Everyone is square" when nobody owes anything. Amounts are written from ``int`` minor units
in the current locale.
"""
from __future__ import annotations

from typing import Any

from sqlmodel import Session

from ledger.i18n import _, format_locale
from ledger.money import format_minor
from ledger.night import handles as night_handles
from ledger.night.payments import settlement_plan
from ledger.settlement.handoffs import HANDLE_LABELS
from ledger.storage.models import GameSession


def settle_up_text(db: Session, night: GameSession, *, transfers: list[dict[str, Any]] | None = None,
                   handles: dict[str, dict[str, str]] | None = None) -> str:
    """The text, one line per transfer, ending in a newline (a few queries, none over the hands).
    A page that already holds the plan's ``transfers`` (``Transfer.to_json()`` shapes, minor
    units) and the payees' ``handles`` (:func:`ledger.night.handles.payee_handles`) passes them,
    and the text reads nothing more."""
    if transfers is None:
        transfers = [t.to_json() for t in settlement_plan(db, night).transfers]
    if handles is None:
        handles = night_handles.payee_handles(db, night)
    offers = night_handles.transfer_hand_offs(db, night, transfers, handles=handles)
    lines = [_("Settle up: {night}", night=night.name)]
    for transfer, offered in zip(transfers, offers):
        amount = format_minor(transfer["amount"], night.currency, format_locale())
        named = [HANDLE_LABELS[o.kind].format(handles[transfer["to"]][o.kind]) for o in offered
                 if o.kind in HANDLE_LABELS]
        if transfer["to"] == "pot":
            lines.append(_("{payer} puts {amount} into the pot", payer=transfer["from"], amount=amount))
        elif named:
            lines.append(_("{payer} pays {payee} {amount} ({handle})", payer=transfer["from"], payee=transfer["to"],
                           amount=amount, handle=named[0]))
        else:
            lines.append(_("{payer} pays {payee} {amount}", payer=transfer["from"], payee=transfer["to"],
                           amount=amount))
    if not transfers:
        lines.append(_("Everyone is square: nobody owes anything."))
    return "\n".join(lines) + "\n"
