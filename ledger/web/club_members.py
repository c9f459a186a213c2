"""The club's roster on the phone (issue 9): add a member (owner or member), rename one
(owner only; the member keeps one identity: id, balance and nights), choose the language a
member's season statements are written in (owner or member; issue 10), and keep a member's payment
handles for every club night's settle-up (the owner, or the member's own device; issue 22). Names follow the seats'
rule (:func:`ledger.names.name_key`: NFC, trimmed, casefolded, dotted and dotless i as i): a name
another member already has, or one that looks like a member's (:func:`ledger.names.look_alike`), is
refused with the API's sentence, beside the field, with what was typed kept.
"""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, request, url_for

from ledger.clubs import roster
from ledger.clubs.handles import may_set_handles, set_member_handles
from ledger.settlement.handoffs import fits
from ledger.storage.club_models import Club
from ledger.web.my_handles import FIELDS, GROUPS, MAX_TYPED
from ledger.storage.db import get_session
from ledger.i18n import LANGUAGES, N_, _
from ledger.names import clean_name
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.web.blueprint import bp
from ledger.web.club_pages import club_view, club_authorised
from ledger.clubs.roster import ClubActor

DUPLICATE = N_("{name} is already a member of this club; choose a name that is easy to tell apart.")


@bp.post("/c/<club_id>/members")
def club_add_member(club_id: str) -> Any:
    """Add ``name`` to the roster (owner or member) and come back to the club page; a name
    already on the roster, or not a name, is refused (422) with the typed name kept."""
    club, actor = club_authorised(club_id, "roster")
    typed = request.form.get("name", "")[:200]
    db = get_session()
    try:
        existing = roster.member_by_name(db, club, clean_name(typed, "name", roster.MAX_MEMBER_NAME))
        if existing is not None:
            raise HandError("duplicate_player", DUPLICATE, "name", name=existing.name)
        member, _created = roster.add_member(db, club, typed, actor)
    except HandError as err:
        return club_view(club, actor, extra={"member_form": {"name": typed}, "member_errors": {"new": err.message}}), 422
    flash(_("{member} joined {club}.", member=member.name, club=club.name), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-members")


@bp.post("/c/<club_id>/members/<int(min=1, max=2147483647):member_id>/rename")
def club_rename_member(club_id: str, member_id: int) -> Any:
    """Owner: give member ``member_id`` the typed ``name``; their balance, nights and statements
    follow them. A name another member has is refused (422) beside that member's field."""
    club, actor = club_authorised(club_id, "rename")
    typed = request.form.get("name", "")[:200]
    db = get_session()
    try:
        before = roster.get_member(db, club, member_id).name
        member = roster.rename_member(db, club, member_id, typed, actor)
    except NightError:
        abort(404)
    except HandError as err:
        extra = {"rename_form": {member_id: typed}, "member_errors": {member_id: err.message}}
        return club_view(club, actor, extra=extra), 422
    if member.name == before:
        flash(_("{member} keeps the same name.", member=member.name), "success")
    else:
        flash(_("{before} is now called {member}; their balance and nights go with them.", before=before,
                member=member.name), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-members")


@bp.post("/c/<club_id>/members/<int(min=1, max=2147483647):member_id>/language")
def club_member_language(club_id: str, member_id: int) -> Any:
    """Owner or member: write member ``member_id``'s season statements in ``language`` (a
    catalogue code; empty: in the language of whoever reads them). A code outside the catalogues
    is refused (422) beside that member's field, the choice kept."""
    club, actor = club_authorised(club_id, "roster")
    chosen = request.form.get("language", "")[:16]
    db = get_session()
    try:
        member = roster.set_member_language(db, club, member_id, chosen or None, actor)
    except NightError:
        abort(404)
    except HandError:  # not one of the select's choices (the API's sentence lists the codes)
        extra = {"language_form": {member_id: chosen},
                 "language_errors": {member_id: _("Choose a language from the list.")}}
        return club_view(club, actor, extra=extra), 422
    if member.language:
        flash(_("The season statements of {member} are now written in {language}.", member=member.name,
                language=LANGUAGES[member.language].name), "success")
    else:
        flash(_("The season statements of {member} now follow the language of whoever reads them.",
                member=member.name), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-members")


@bp.app_template_global()
def club_handles_forms(club: Club, actor: ClubActor, typed: Any = None, error: Any = None) -> dict[int, Any]:
    """The payment-handles form of each member this phone may keep them for (the owner: every
    member; a member's own device: its member), by member id: ``{"values": {field: text},
    "first": [[(field, label)]], "more": [...], "more_open", "error": {"field", "message"} | None}``,
    the fields that fit the club's currency first. ``typed``/``error``: ``{member_id: ...}`` of a
    refused form (its typed values kept). One query for the roster."""
    db = get_session()
    typed = typed if isinstance(typed, dict) else {}
    error = error if isinstance(error, dict) else {}
    groups = [[(field, _(label)) for field, label in fields] for _kind, fields in GROUPS]
    fitting = [fits(kind, club.currency) for kind, _fields in GROUPS]
    more = [g for g, fit in zip(groups, fitting) if not fit]
    forms: dict[int, Any] = {}
    for member in roster.members_of(db, club):
        if not may_set_handles(db, actor, member):
            continue
        kept = typed.get(member.id) or dict(member.handles or {})
        err = error.get(member.id)
        forms[member.id] = {
            "values": {k: kept.get(k, "") for k in FIELDS},
            "first": [g for g, fit in zip(groups, fitting) if fit], "more": more,
            "more_open": err is not None and any(field == err["field"] for g in more for field, _label in g),
            "error": err,
        }
    return forms


@bp.post("/c/<club_id>/members/<int(min=1, max=2147483647):member_id>/handles")
def club_member_handles(club_id: str, member_id: int) -> Any:
    """Keep member ``member_id``'s payment handles (an empty field: no such handle), the same checks
    as ``PUT /api/v1/clubs/{id}/members/{member_id}/handles``; back to the roster. 403 for a viewer
    or another member's phone, 404 for no such member; a refused handle shows the club again (422)
    with everything typed and the field's sentence beside that member's form."""
    club, actor = club_authorised(club_id, "handles")
    typed = {k: request.form.get(k, "")[:MAX_TYPED] for k in FIELDS}
    db = get_session()
    try:
        member = roster.get_member(db, club, member_id)
        set_member_handles(db, club, member_id, typed, actor)
    except NightError as err:
        if err.status != 422:
            abort(err.status)
        extra = {"handles_typed": {member_id: typed},
                 "handles_errors": {member_id: {"field": err.field, "message": err.message}}}
        return club_view(club, actor, extra=extra), 422
    flash(_("{name}'s payment handles are saved.", name=member.name), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + f"#member-handles-{member_id}")
