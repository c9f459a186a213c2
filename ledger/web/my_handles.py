""""Your payment handles" on the phone's "This is me" screen (issue 22): once a phone has said
which player it is (:mod:`ledger.web.me`), a small form keeps that player's handles (Venmo, Cash
App, PayPal.me, UPI, IBAN with the account holder's name and BIC, their own payment QR's text)
and their opt-in to show them in their statement PDF.

The handles are checked and stored by :func:`ledger.night.handles.set_player_handles` (the same
checks as ``PUT /api/v1/sessions/{id}/players/{name}/handles``); the phone's "This is me" makes
it that player's own phone. A refused handle shows the table again with everything typed and the
field's sentence (422). The fields that fit the night's currency come first, the others behind
"More" (:func:`ledger.settlement.handoffs.fits`).
"""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, request, url_for

from ledger.i18n import N_, _
from ledger.night.handles import handles_in_pdf, player_handles, set_player_handles
from ledger.night.lifecycle import NightError
from ledger.settlement.handoffs import fits
from ledger.storage.db import get_session
from ledger.storage.models import GameSession
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.me import my_seat
from ledger.web.views import render_table

# (kind, the fields of its group, each with its label); kinds in ledger.settlement.handoffs.KINDS order
GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("venmo", (("venmo", N_("Venmo username")),)),
    ("cashapp", (("cashapp", N_("Cash App $cashtag")),)),
    ("paypal", (("paypal", N_("PayPal.me name")),)),
    ("upi", (("upi", N_("UPI ID (name@bank)")),)),
    ("iban", (("iban", N_("IBAN")), ("name", N_("Account holder's name")), ("bic", N_("BIC (optional)")))),
    ("qr", (("qr", N_("The text of your own payment QR code (GCash, Maya, FAST, Lao QR)")),)),
)
FIELDS = tuple(field for _kind, fields in GROUPS for field, _label in fields)
MAX_TYPED = 600  # a QR payload is at most 512 characters (EMVCo); more is cut, and then refused


def handles_form(night: GameSession, typed: Any = None, error: Any = None) -> dict[str, Any] | None:
    """What the form shows for the player this phone said it is, or None (it did not say):
    ``{"player", "values": {field: text}, "in_pdf", "first": [[(field, label)]], "more": [...],
    "more_open", "error": {"field", "message"} | None}``; ``typed`` (the form sent back) replaces the kept values."""
    seat = my_seat(night)
    if seat is None:
        return None
    name = night.players[seat - 1]
    db = get_session()
    if isinstance(typed, dict):
        values, in_pdf = {k: typed.get(k, "") for k in FIELDS}, bool(typed.get("in_pdf"))
    else:
        kept = player_handles(db, night, name)["handles"]
        values, in_pdf = {k: kept.get(k, "") for k in FIELDS}, handles_in_pdf(db, night, name)
    groups = [[(field, _(label)) for field, label in fields] for _kind, fields in GROUPS]
    fitting = [fits(kind, night.currency) for kind, _fields in GROUPS]
    more = [g for g, fit in zip(groups, fitting) if not fit]
    error = error if isinstance(error, dict) else None
    return {"player": name, "values": values, "in_pdf": in_pdf,
            "first": [g for g, fit in zip(groups, fitting) if fit], "more": more,
            "more_open": error is not None and any(field == error["field"] for g in more for field, _label in g),
            "error": error}


@bp.app_context_processor
def _handles_context() -> dict[str, Any]:
    return {"my_handles_form": handles_form}


@bp.post("/s/<session_id>/me/handles")
def save_my_handles(session_id: str) -> Any:
    """Keep the handles of the player this phone said it is (an empty field: no such handle),
    and the PDF opt-in; back to the table. 403 for a viewer, 409 (the table again) when the phone
    has not said which player it is."""
    night, actor = authorised(session_id, "record")
    seat = my_seat(night)
    if seat is None:
        abort(409)
    typed = {k: request.form.get(k, "")[:MAX_TYPED] for k in FIELDS}
    in_pdf = request.form.get("in_pdf") == "yes"
    name = night.players[seat - 1]
    try:
        set_player_handles(get_session(), night, name, typed, actor, claimed=True, in_pdf=in_pdf)
    except NightError as err:
        shown = typed | {"in_pdf": in_pdf}
        return render_table(night, actor, err.status, handles_typed=shown,
                            handles_error={"field": err.field, "message": err.message})
    flash(_("{name}'s payment handles are saved.", name=name), "success")
    return redirect(url_for("web.table", session_id=night.id) + "#my-handles")
