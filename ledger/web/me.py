""""This is me": a phone says which seat it is, and downloads statements.

The chosen player is remembered by name per night in the signed session cookie
(``session["me"]``), so no database change is needed and the choice follows the player when
seats shift (a sit-in, a swap); it is asked once on the table screen after joining (the question stays
open until answered), changeable any time. The table screen then highlights that player and
"My statement" is one tap away. Statement PDFs come from :mod:`ledger.statements.downloads`.
"""
from __future__ import annotations

from typing import Any

from flask import Response, abort, redirect, render_template, request, session, url_for

from ledger.statements import downloads
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.storage.models import GameSession
from ledger.night.lifecycle import NightError
from ledger.web.access import MAX_REMEMBERED, authorised, host_secrets
from ledger.web.blueprint import bp
from ledger.web.language import format_locale_now


def my_seat(night: GameSession) -> int | None:
    """The current seat (1-based, as in the statement links) of the player this phone said it
    is at ``night``; None if it did not say, or that player is no longer seated."""
    chosen = session.get("me")
    name = chosen.get(night.id) if isinstance(chosen, dict) else None
    return night.players.index(name) + 1 if isinstance(name, str) and name in night.players else None


@bp.app_context_processor
def _me_context() -> dict[str, Any]:
    return {"my_seat": my_seat}


@bp.post("/s/<session_id>/me")
def this_is_me(session_id: str) -> Any:
    """Remember (or with ``seat`` 0 forget) which seat this phone is; back to the table.
    A player's or the host's phone (a viewer watches, it sits at no seat)."""
    night, _actor = authorised(session_id, "record")
    raw = request.form.get("seat", "")
    seat = int(raw) if raw.isdecimal() and len(raw) <= 2 else -1
    if not 0 <= seat <= len(night.players):
        abort(422)
    seats = dict(session.get("me") or {}) if isinstance(session.get("me"), dict) else {}
    seats.pop(night.id, None)
    if seat:
        seats[night.id] = night.players[seat - 1]
    while len(seats) > MAX_REMEMBERED:
        seats.pop(next(iter(seats)))
    session["me"] = seats
    session.permanent = True
    return redirect(url_for("web.table", session_id=night.id))


def _download(session_id: str, kind: str, seat: int | None = None) -> Any:
    night, actor = authorised(session_id)
    secrets = host_secrets(night, actor) if kind != "statement" else None
    try:
        pdf, name = downloads.statement_pdf(get_session(), night, kind, seat=seat,
                                            locale=format_locale_now(),
                                            recovery_code=secrets.recovery_code if secrets else "")
    except NightError as err:
        if err.code != "pdf_busy":
            abort(404)
        retry = str(err.extra["retry_after"])  # the page asks again by itself (Refresh)
        return render_template("error.html", status=503, title=_("The PDF is being made"), reason="pdf_busy",
                               night=night), 503, {"Retry-After": retry, "Refresh": retry}
    return downloads.pdf_response(pdf, name)


@bp.get("/s/<session_id>/summary.pdf")
def summary_pdf(session_id: str) -> Response:
    return _download(session_id, "summary")


@bp.get("/s/<session_id>/statements/<int:seat>.pdf")
def statement_pdf(session_id: str, seat: int) -> Response:
    """One player's statement (seat 1..n)."""
    return _download(session_id, "statement", seat)


@bp.get("/s/<session_id>/statements.pdf")
def pack_pdf(session_id: str) -> Response:
    """The night pack: summary plus every player's statement."""
    return _download(session_id, "pack")
