"""No single point of failure on the phones: the night's phones and co-hosts
(``/s/<id>/phones``), the recovery code that makes a new phone the host (``/recover``),
restoring a voided hand and redoing an undo. The ledger side is :mod:`ledger.hosts` and
:func:`ledger.night.restore_hand`."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for

from ledger import hosts
from ledger import night as ledger_night
from ledger.db import get_session
from ledger.i18n import _
from ledger.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.night import NightError
from ledger.web.hand_rows import history_at
from ledger.web.access import MAX_ID, authorised, device, remember_token, token_for
from ledger.web.blueprint import bp
from ledger import access as roles


@bp.get("/s/<session_id>/phones")
def phones(session_id: str) -> Any:
    """Who holds a token of this night; the host makes a phone a co-host here."""
    night, actor = authorised(session_id)
    db = get_session()
    mine = roles.key_for(db, night, token_for(night.id))
    rows = [p | {"mine": mine is not None and p["id"] == mine.id, "seen": datetime.fromisoformat(p["last_seen"]),
                 "promotable": p["role"] != "host" and actor.can("cohost") and night.status == "open"}
            for p in hosts.phones(db, night)]
    return render_template("phones.html", night=night, actor=actor, phones=rows)


@bp.post("/s/<session_id>/phones/<int:phone_id>/host")
def make_cohost(session_id: str, phone_id: int) -> Any:
    night, actor = authorised(session_id, "cohost")
    if phone_id > MAX_ID:
        abort(404)
    try:
        phone = hosts.make_cohost(get_session(), night, phone_id, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("{phone} is now a co-host: it can correct, void, restore, undo and close.", phone=phone["name"]),
              "success")
    return redirect(url_for("web.phones", session_id=night.id))


@bp.route("/recover", methods=["GET", "POST"])
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE, methods=["POST"])
def recover() -> Any:
    """Type the night's recovery code (from the host's PDF or where it was written down) to
    make this phone the host; shares the table code's budget of guesses."""
    code = request.form.get("code", "")[:60] if request.method == "POST" else ""
    error = None
    if request.method == "POST":
        recovered = hosts.recover_host(get_session(), code, device()) if code.strip() else None
        if recovered is not None:
            night, token = recovered
            remember_token(night.id, token)
            flash(_("This phone is now the host of {night}.", night=night.name), "success")
            return redirect(url_for("web.table", session_id=night.id))
        error = (_("That is not a recovery code of any night. Check it on the host’s PDF.") if code.strip()
                 else _("Type the recovery code."))
    return render_template("recover.html", code=code, error=error), (422 if error else 200)


@bp.post("/s/<session_id>/hands/<int:number>/restore")
def restore(session_id: str, number: int) -> Any:
    """Count a voided hand again (kept in the log as restored)."""
    night, actor = authorised(session_id, "restore")
    if number > MAX_ID:
        abort(404)
    try:
        ledger_night.restore_hand(get_session(), night, number, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("Hand {number} restored; it counts again.", number=number), "success")
    return redirect(history_at(night, number))


@bp.post("/s/<session_id>/redo")
def redo(session_id: str) -> Any:
    """Undo the last undo: the hand it voided counts again."""
    night, actor = authorised(session_id, "restore")
    try:
        hand = ledger_night.redo_undo(get_session(), night, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("Hand {number} counts again.", number=hand.number), "success")
    return redirect(url_for("web.table", session_id=night.id))
