"""Starting and joining a club from the phone (issue 9): ``/clubs/new`` (name, currency, time
zone; the owner's token is remembered on this phone, as starting a night remembers the host's)
and ``/clubs/join`` (the club's table code, exchanged for a member token of this phone's own).

Both forms keep what was typed on a refusal (422) with the sentence beside its field; CSRF is
Flask-WTF's, as on every other form. The club tokens live in the signed cookie
(:func:`ledger.web.club_pages.remember_club_token`).
"""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for

from ledger.access import devices
from ledger.clubs import roster
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.games.tonk import HandError
from ledger.web.access import device
from ledger.web.blueprint import bp
from ledger.web.club_pages import remember_club_token
from ledger.money import POINTS
from ledger.web.start_form import CURRENCIES, DEFAULT_CURRENCY, currency_choices
from ledger.night.zones import DEFAULT_ZONE, is_known_zone
from ledger.web.language import format_locale_now

CLUB_FIELDS = ("name", "currency", "timezone")


def _new_club_page(form: dict[str, str], errors: dict[str, str], fresh: bool) -> Any:
    return render_template("club_new.html", form=form, errors=errors, fresh=fresh,
                           currencies=currency_choices(format_locale_now())), \
        (422 if errors else 200)


@bp.route("/clubs/new", methods=["GET", "POST"])
def club_new() -> Any:
    """Start a club: ``name``, ``currency`` (from the list), ``timezone`` (an IANA name, filled
    in from the phone). On success this phone keeps the owner's token and opens the club page
    with its share panel; a refusal re-renders the form with what was typed (422)."""
    if request.method == "GET":
        return _new_club_page({"name": "", "currency": DEFAULT_CURRENCY, "timezone": DEFAULT_ZONE}, {}, True)
    form = {key: request.form.get(key, "")[:200] for key in CLUB_FIELDS}
    form["timezone"] = form["timezone"].strip() or DEFAULT_ZONE
    errors: dict[str, str] = {}
    if not form["name"].strip():
        errors["name"] = _("Type the club's name, such as Friday club.")
    if form["currency"] not in CURRENCIES and form["currency"] != POINTS:
        errors["currency"] = _("Choose a currency from the list.")
    if not is_known_zone(form["timezone"]):
        errors["timezone"] = _("Type the time zone as an IANA name, such as Europe/Paris or America/Chicago.")
    if errors:
        return _new_club_page(form, errors, False)
    try:
        club, token = roster.create_club(get_session(), name=form["name"], currency=form["currency"],
                                         timezone=form["timezone"])
    except HandError as err:
        field = err.field if err.field in CLUB_FIELDS else "name"
        return _new_club_page(form, {field: err.message}, False)
    remember_club_token(club.id, token)
    flash(_("{club} is started. Share the member link or the club code with the other players.", club=club.name),
          "success")
    return redirect(url_for("web.club_page", club_id=club.id, share=1))


@bp.route("/clubs/join", methods=["GET", "POST"])
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE, methods=["POST"])
def club_join_code() -> Any:
    """Join a club by typing its table code: this phone gets a member token of its own
    (remembered) and opens the club page; a wrong code is refused beside the field (422),
    with the typed code kept. Guesses share the table code's rate limit (429)."""
    code = request.form.get("code", "")[:200] if request.method == "POST" else request.args.get("code", "")[:20]
    name = request.form.get("name", "")[:200]
    error = name_error = None
    if request.method == "POST":
        try:
            label = devices.phone_name(name, device())
        except HandError as err:
            name_error, label = err.message, None
        joined = roster.join_by_code(get_session(), code, label) if code.strip() and label else None
        if joined is not None:
            club, token = joined
            remember_club_token(club.id, token)
            flash(_("You joined {club}.", club=club.name), "success")
            return redirect(url_for("web.club_page", club_id=club.id))
        if name_error is None:
            error = _("No club has that code. Check it on the club page of a member's phone.") if code.strip() \
                else _("Type the club's 6-letter code.")
    failed = error is not None or name_error is not None
    return render_template("club_join.html", code=code, name=name, error=error, name_error=name_error), \
        (422 if failed else 200)
