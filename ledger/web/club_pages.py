"""The club's phone pages (issue 9): joining a club by link, the club page (members, running
balances, the plan that clears them, nights), the standings page, and starting a club night.

A club link (``/c/join/<id>/<token>``) remembers the club token in the signed cookie under
``session["club_tokens"][id]``; every club page turns it into a
:class:`~ledger.clubs.roster.ClubActor` (owner, member, viewer).
"""
from __future__ import annotations

from typing import Any

from flask import abort, current_app, redirect, render_template, session, url_for

from ledger.clubs import roster
from ledger.storage.club_models import Club
from ledger.clubs.roster import ClubActor
from ledger.storage.db import get_session
from ledger.games.tongits.ruleset import PRESETS as TONGITS_PRESETS
from ledger.i18n import _
from ledger.web.blueprint import bp

MAX_REMEMBERED_CLUBS = 10


def club_tokens() -> dict[str, str]:
    tokens = session.get("club_tokens")
    if not isinstance(tokens, dict):
        return {}
    return {str(k): str(v) for k, v in tokens.items() if isinstance(v, str)}


def remember_club_token(club_id: str, token: str) -> None:
    """Keep ``token`` for ``club_id`` in the cookie (most recent last, bounded)."""
    tokens = club_tokens()
    tokens.pop(club_id, None)
    tokens[club_id] = token
    while len(tokens) > MAX_REMEMBERED_CLUBS:
        tokens.pop(next(iter(tokens)))
    session["club_tokens"] = tokens
    session.permanent = True


def club_authorised(club_id: str, action: str = "read") -> tuple[Club, ClubActor]:
    """The club and this phone's role in it; 404 unknown club, 403 without a token or role
    (the club's own refusal page, :func:`club_refusal`)."""
    db = get_session()
    club = roster.find_club(db, club_id)
    if club is None:
        abort(404)
    actor = roster.actor_for(db, club, club_tokens().get(club_id))
    if actor is None or not actor.can(action):
        abort(club_refusal(club, actor))
    return club, actor


def club_refusal(club: Club, actor: ClubActor | None) -> Any:
    """The 403 page of a club. A phone whose token opens the club (``actor``: a member or
    viewer asking for more than its role allows) is told the club's name and its role, with a
    link back to the club; a phone without a working token learns nothing about the club (not
    even its name: the id in an address is no proof of membership) and is shown how to join one
    and the way home."""
    known = club if actor is not None else None
    page = render_template("club_forbidden.html", club=known, actor=actor)
    return current_app.response_class(page, status=403, headers={"Cache-Control": "no-store"})


@bp.get("/c/join/<club_id>/<token>")
def club_join(club_id: str, token: str) -> Any:
    """A club link: remembers the club token in the cookie, then opens the club page."""
    db = get_session()
    club = roster.find_club(db, club_id)
    if club is None:
        abort(404)
    if roster.actor_for(db, club, token) is None:
        abort(club_refusal(club, None))
    remember_club_token(club_id, token)
    return redirect(url_for("web.club_page", club_id=club_id))


@bp.app_template_global()
def my_clubs() -> list[Club]:
    """The clubs this phone holds a token of (most recently remembered first), for the home page."""
    db = get_session()
    out = []
    for club_id, token in reversed(list(club_tokens().items())):
        club = roster.find_club(db, club_id)
        if club is not None and roster.actor_for(db, club, token) is not None:
            out.append(club)
    return out


def club_share_context(club: Club) -> dict[str, Any] | None:
    """The member and viewer links, their QR codes and the club code, for the phone holding the
    owner's own token (the links derive from it); ``None`` for every other phone."""
    from ledger.web.share import qr_svg

    token = club_tokens().get(club.id)
    if not roster.is_owner_link(get_session(), club, token):
        return None
    assert token is not None
    keys = roster.club_secrets(token, club.id)
    links = {role: url_for("web.club_join", club_id=club.id, token=keys.for_role(role), _external=True)
             for role in ("member", "viewer")}
    return {"links": links, "qr": {role: qr_svg(link) for role, link in links.items()}, "code": keys.table_code,
            "join_url": url_for("web.club_join_code", _external=True)}


@bp.app_template_global()
def club_of(night: Any) -> Club | None:
    """The club a night belongs to (templates: the settle page offers carry-over), or ``None``."""
    from ledger.clubs.carry import club_night

    db = get_session()
    link = club_night(db, night)
    return roster.find_club(db, link.club_id) if link is not None else None


def close_night(night: Any, actor: Any, carry_over: bool) -> str:
    """Close a night from the phone (club-aware) and return the sentence to show."""
    from ledger.night import lifecycle as ledger_night
    from ledger.clubs import carry

    db = get_session()
    club = club_of(night)
    if club is None:
        ledger_night.close_night(db, night, actor)
        return _("The night is closed. Settle up with the plan below.")
    carry.close_night(db, club, night, actor, carry_over)
    if carry_over and carry.carry_state(db, night) == "pending":
        # a night a member hosted: nothing moves until the club's owner carries it (issue 20 item 5)
        return _("The night is closed; what is still owed waits for the owner of {club} to carry it into "
                 "the club's balances.", club=club.name)
    if carry_over:
        return _("The night is closed; what is still owed was carried into the balances of {club}.", club=club.name)
    return _("The night is closed and settled in cash. Settle up with the plan below.")


def club_view(club: Club, actor: ClubActor, form: dict[str, Any] | None = None,
               errors: dict[str, str] | None = None, extra: dict[str, Any] | None = None) -> str:
    from ledger.clubs import books, carry
    from ledger.i18n import LANGUAGES
    from ledger.web.start_form import preset_choices

    db = get_session()
    body = carry.club_json(db, club)
    payments = [books.payment_json(db, p) for p in books.payments_of(db, club)]
    if form is None and actor.can("start_night"):
        form = _as_last_night(db, club)
    return render_template("club.html", club=club, actor=actor, body=body, form=form or {}, errors=errors or {},
                           presets=[(name, title) for name, title, _description in preset_choices()],
                           tongits_presets=[(TONGITS_CHOICE + p.name, p.title) for p in TONGITS_PRESETS.values()],
                           statement_languages=LANGUAGES, share=club_share_context(club), payments=payments,
                           **(extra or {}))


def _as_last_night(db: Any, club: Club) -> dict[str, Any]:
    """The start form as the club's last night began: its members ticked, its stake and rules
    (nothing before the first night)."""
    from ledger.clubs.last_night import last_night
    from ledger.web.formatting import typed_money

    last = last_night(db, club)
    if last is None:
        return {}
    preset = {"tonk": last.preset, "tongits": TONGITS_CHOICE + last.preset}.get(last.game, "classic")
    return {"ticked": set(last.members), "stake": typed_money(last.stake_minor, club.currency) if last.stake_minor else "",
            "preset": preset}


@bp.get("/c/<club_id>")
def club_page(club_id: str) -> Any:
    """The club: members and running balances, the plan that clears them, nights, and (owner
    or member) a form to start a club night."""
    club, actor = club_authorised(club_id)
    return club_view(club, actor), 200, {"Cache-Control": "no-store"}  # the owner's links


#: the value of a Tong-its preset in the club's "Rules" choice (``tongits:classic``); a plain
#: preset name is Tonk's, as the form always sent
TONGITS_CHOICE = "tongits:"


def game_and_preset(value: str) -> tuple[Any, str]:
    """The game and preset a club night's "Rules" choice names: ``tongits:<preset>`` is
    Tong-its' (TONGITS.md §7), any other value a Tonk preset (RULES.md)."""
    from ledger.games import game

    if value.startswith(TONGITS_CHOICE):
        return game("tongits"), value[len(TONGITS_CHOICE):]
    return game("tonk"), value


@bp.post("/c/<club_id>/nights")
def club_start_night(club_id: str) -> Any:
    """Start a club night from the phone: the members ticked (in that order) and new names;
    the phone keeps the night's host token and opens its table."""
    from flask import request

    from ledger.clubs import carry
    from ledger.money import parse_amount
    from ledger.games.tonk import HandError, RuleSet
    from ledger.web.access import remember_token

    club, actor = club_authorised(club_id, "start_night")
    form = request.form
    db = get_session()
    ticked = [m.name for m in roster.members_of(db, club) if form.get(f"member-{m.id}") == "yes"]
    new = [" ".join(n.split()) for n in form.getlist("new_player") if n.strip()]
    players = ticked + new
    kept = {"name": form.get("name", ""), "stake": form.get("stake", ""), "new_player": new,
            "ticked": {m for m in ticked}, "first_dealer": form.get("first_dealer", ""),
            "preset": form.get("preset", "classic")}
    errors: dict[str, str] = {}
    try:
        stake_minor = parse_amount(kept["stake"], club.currency)
    except ValueError:
        errors["stake"] = _("Type the stake as an amount, such as 0.25.")
        stake_minor = 0
    if not errors:
        try:
            chosen, preset = game_and_preset(kept["preset"])
            rules = (RuleSet.from_spec({"preset": preset, "toggles": {}}) if chosen.name == "tonk"
                     else chosen.rules({"preset": preset, "toggles": {}}))
            dealer = kept["first_dealer"] if kept["first_dealer"] in players else None
            night, token = carry.start_night(
                db, club, actor, name=kept["name"].strip() or _default_name(db, club), currency=None,
                stake_minor=stake_minor, rules=rules, players=players, first_dealer=dealer, timezone=None,
                game=chosen.name)
        except HandError as err:
            errors[(err.field or "form").split("[")[0]] = err.message
    if errors:
        return club_view(club, actor, kept, errors), 422
    remember_token(night.id, token)
    return redirect(url_for("web.table", session_id=night.id))


def _default_name(db: Any, club: Club) -> str:
    """A club night's name when none is typed: the club and the date in the club's zone,
    numbered past the names its nights already have ("Kerala Club, Friday 5 December (2)")."""
    from ledger.clubs.last_night import night_names
    from ledger.web.start_form import default_name

    return default_name(club.timezone, club=club.name, taken=night_names(db, club))


@bp.get("/c/<club_id>/nights/<session_id>")
def club_open_night(club_id: str, session_id: str) -> Any:
    """Open one of the club's nights with this phone's club role (owner as a co-host, member as
    a player, viewer as a viewer): a night token of this phone's own is minted once and
    remembered (:mod:`ledger.clubs.night_access`), then the night's table opens. 404 for a
    night outside the club."""
    from ledger.clubs import night_access
    from ledger.night.lifecycle import NightError
    from ledger.web.access import device, remember_token, token_for
    from ledger.web.formatting import phone_label

    club, actor = club_authorised(club_id)
    db = get_session()
    try:
        night = night_access.club_night_of(db, club, session_id)
    except NightError:
        abort(404)
    if not night_access.keeps(db, night, token_for(night.id), actor):
        _night, token = night_access.night_token(db, club, actor, night.id, phone_label(device()) or "club phone")
        remember_token(night.id, token)
    return redirect(url_for("web.table", session_id=night.id))
