"""No single point of failure on the phones: the night's phones and co-hosts
(``/s/<id>/phones``), the recovery code that makes a new phone the host (``/recover``),
restoring a voided hand and redoing an undo. The ledger side is :mod:`ledger.night.hosts` and
:func:`ledger.night.lifecycle.restore_hand`."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import abort, flash, redirect, render_template, request, session, url_for

from ledger.night import hosts
from ledger.night import lifecycle as ledger_night
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.access.roles import Actor
from ledger.storage.models import GameSession
from ledger.night.lifecycle import NightError
from ledger.games.errors import HandError
from ledger.web.formatting import phone_label
from ledger.web.hand_rows import history_at
from ledger.web.access import MAX_ID, authorised, device, remember_token, token_for
from ledger.web.blueprint import bp
from ledger.access import roles


def _phones_page(night: GameSession, actor: Actor, recovery_code: str = "") -> Any:
    db = get_session()
    mine = roles.key_for(db, night, token_for(night.id))
    owner = hosts.is_owner(db, night, actor)
    rows = [p | {"mine": mine is not None and p["id"] == mine.id, "seen": datetime.fromisoformat(p["last_seen"]),
                 "promotable": p["role"] != "host" and actor.can("cohost") and night.status == "open",
                 "removable": owner and (mine is None or p["id"] != mine.id)}
            for p in hosts.phones(db, night)]
    holds_link = mine is not None and mine.kind == "link"
    page = render_template("phones.html", night=night, actor=actor, phones=rows, owner=owner,
                           holds_link=holds_link, recovery_code=recovery_code)
    return page, 200, {"Cache-Control": "no-store"}


@bp.get("/s/<session_id>/phones")
def phones(session_id: str) -> Any:
    """Who holds a token of this night; the host makes a phone a co-host here, and the night's
    own host (:func:`ledger.night.hosts.is_owner`) removes a phone, renews the links and code, or
    issues a new recovery code. Removed phones leave the list (the log names them)."""
    night, actor = authorised(session_id)
    return _phones_page(night, actor)


@bp.post("/s/<session_id>/phones/<int:phone_id>/remove")
def remove_phone(session_id: str, phone_id: int) -> Any:
    """Remove a phone (its token stops opening the night). Without ``confirmed=yes`` the confirm
    page comes first."""
    night, actor = authorised(session_id, "keys")
    if phone_id > MAX_ID:
        abort(404)
    db = get_session()
    if not hosts.is_owner(db, night, actor):  # a co-host: told why before any confirm page
        flash(_(hosts.OWNER_ONLY), "error")
        return redirect(url_for("web.phones", session_id=night.id))
    phone = next((p for p in hosts.phones(db, night) if p["id"] == phone_id), None)
    if phone is None:
        flash(_("That phone has not joined this night."), "error")
        return redirect(url_for("web.phones", session_id=night.id))
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html", night=night, title=_("Remove {name}?", name=phone["name"]), row=None,
            message=_("That phone will no longer open this night; what it recorded stays. To let it back, share "
                      "the links again."),
            action=url_for("web.remove_phone", session_id=night.id, phone_id=phone_id),
            button=_("Remove {name}", name=phone["name"]), back=url_for("web.phones", session_id=night.id))
    try:
        hosts.revoke_phone(db, night, phone_id, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("{phone} was removed: it no longer opens this night.", phone=phone["name"]), "success")
    return redirect(url_for("web.phones", session_id=night.id))


@bp.post("/s/<session_id>/rotate")
def rotate(session_id: str) -> Any:
    """New links, table code and recovery code (every old one stops working; phones that joined
    keep theirs). Without ``confirmed=yes`` the confirm page comes first. This phone keeps the
    new host token and sees the new links and recovery code on the table page."""
    night, actor = authorised(session_id, "keys")
    if not hosts.is_owner(get_session(), night, actor):
        flash(_(hosts.OWNER_ONLY), "error")
        return redirect(url_for("web.phones", session_id=night.id))
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html", night=night, title=_("New links and code?"), row=None,
            message=_("The old links, table code and recovery code stop working at once. Phones that already "
                      "joined keep working; anyone else needs the new link or code."),
            action=url_for("web.rotate", session_id=night.id),
            button=_("Make new links and code"), back=url_for("web.phones", session_id=night.id))
    try:
        token = hosts.rotate(get_session(), night, actor)
    except NightError as err:
        flash(err.message, "error")
        return redirect(url_for("web.phones", session_id=night.id))
    remember_token(night.id, token)
    session["new_night"] = night.id  # the table shows the new recovery code this once
    flash(_("New links and code made; the old ones no longer work."), "success")
    return redirect(url_for("web.table", session_id=night.id, share=1))


@bp.post("/s/<session_id>/recovery")
def new_recovery_code(session_id: str) -> Any:
    """A new recovery code, shown on this answer (the old code stops working)."""
    night, actor = authorised(session_id, "keys")
    try:
        code = hosts.issue_recovery_code(get_session(), night, actor, token_for(night.id))
    except NightError as err:
        flash(err.message, "error")
        return redirect(url_for("web.phones", session_id=night.id))
    return _phones_page(night, actor, recovery_code=code)


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
        try:
            recovered = hosts.recover_host(get_session(), code, phone_label(device()) or "phone") if code.strip() else None
        except NightError as err:
            return render_template("recover.html", code=code, error=err.message), err.status
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
    except (NightError, HandError) as err:  # a later hand, or the pot, refuses the change
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
    except (NightError, HandError) as err:  # a later hand, or the pot, refuses the change
        flash(err.message, "error")
    else:
        flash(_("Hand {number} counts again.", number=hand.number), "success")
    return redirect(url_for("web.table", session_id=night.id))
