"""Who may open a table, and as what: the table token remembered in the signed session cookie.

A join link (``/join/<id>/<token>``) or a typed table code stores a token under
``session["tokens"][id]``. Every table page turns it into an :class:`~ledger.access.roles.Actor`
(host, player or viewer, see :mod:`ledger.access.roles`) and passes that actor to the ledger, so
the history says which phone did what and a viewer's phone cannot record. No token, a wrong
token or an unknown table aborts with 403 or 404 (pages in :mod:`ledger.web.errors`); a role
refused an action gets a page saying so in one whole sentence of the request's language.
"""
from __future__ import annotations

import dataclasses

from flask import Response, abort, make_response, render_template, request, session

from ledger.access import devices, roles
from ledger.night import lifecycle as ledger_night
from ledger.access.roles import Actor, TableSecrets
from ledger.storage.db import get_session
from ledger.i18n import N_, _, pgettext
from ledger.storage.models import GameSession
from ledger.access.opening import open_night
from ledger.night.whole_night import REMOVED
from ledger.web.blueprint import bp

MAX_REMEMBERED = 20
MAX_ID = 2**31 - 1  # larger numbers in a URL name nothing (and overflow the database's integers)

# Why the page refuses: one whole sentence per action; ``role`` is the phone's role in words.
REFUSALS = {
    "record": N_("This phone joined the table as a {role}, and a {role} cannot record hands."),
    "void": N_("This phone joined the table as a {role}, and a {role} cannot void hands."),
    "close": N_("This phone joined the table as a {role}, and a {role} cannot close the night."),
    "pay": N_("This phone joined the table as a {role}, and a {role} cannot mark payments."),
    "share": N_("This phone joined the table as a {role}, and a {role} cannot see the table's links."),
    "undo": N_("This phone joined the table as a {role}, and a {role} cannot undo the last hand."),
    "amend": N_("This phone joined the table as a {role}, and a {role} cannot correct hands."),
    "void_payment": N_("This phone joined the table as a {role}, and a {role} cannot void payments."),
    "restore": N_("This phone joined the table as a {role}, and a {role} cannot restore hands."),
    "cohost": N_("This phone joined the table as a {role}, and a {role} cannot make co-hosts."),
    "seat": N_("This phone joined the table as a {role}, and a {role} cannot change the seats or the stake."),
    "keys": N_("This phone joined the table as a {role}, and a {role} cannot remove phones or change the links."),
}


def remembered_tokens() -> dict[str, str]:
    tokens = session.get("tokens")
    if not isinstance(tokens, dict):
        return {}
    return {str(k): str(v) for k, v in tokens.items() if isinstance(v, str)}


def remember_token(session_id: str, token: str) -> None:
    """Keep ``token`` for ``session_id`` in the cookie (most recent last, bounded)."""
    tokens = remembered_tokens()
    tokens.pop(session_id, None)
    tokens[session_id] = token
    while len(tokens) > MAX_REMEMBERED:
        tokens.pop(next(iter(tokens)))
    session["tokens"] = tokens
    session.permanent = True


def token_for(session_id: str) -> str | None:
    return remembered_tokens().get(session_id)


def device() -> str:
    """A short description of this phone's browser, for the audit history."""
    return (request.user_agent.string or "phone")[:120]


def opens(night: GameSession, token: str | None) -> bool:
    """Whether ``token`` opens ``night`` in any role."""
    return roles.key_for(get_session(), night, token) is not None


def authorised(session_id: str, action: str = "read") -> tuple[GameSession, Actor]:
    """The night ``session_id`` and this phone's role at it, if the role may do ``action``.

    Aborts 404 for an unknown table, 403 without a token that opens it, and 403 with an
    explanation when the role may not do ``action`` (a viewer recording, a player voiding).
    """
    night, actor, _version = _opened(session_id, action, with_version=False)
    return night, actor


def authorised_at_version(session_id: str, action: str = "read") -> tuple[GameSession, Actor, int]:
    """:func:`authorised` with the night's version (its latest audit event's id), read in the
    same query: what a live poll compares (:mod:`ledger.web.live`)."""
    night, actor, version = _opened(session_id, action, with_version=True)
    return night, actor, int(version or 0)


def _opened(session_id: str, action: str, *, with_version: bool) -> tuple[GameSession, Actor, int | None]:
    opened = open_night(get_session(), session_id, token_for(session_id), device(), with_version=with_version)
    night, actor = opened.night, opened.actor
    if night is None:
        abort(404)
    if actor is None:
        abort(403)
    if night.status == REMOVED:
        abort(410)  # removed by its host (ledger.night.whole_night): the link leads nowhere now
    if not actor.can(action):
        abort(role_refusal(night, actor.role, action))
    return night, actor, opened.version


@bp.app_template_filter("role")
def role_word(role: str | None) -> str:
    """A role in the request's language: ``host``, ``player``, ``viewer`` (anything else, such
    as a club role, as it is)."""
    words = {"host": pgettext("role", "host"), "player": pgettext("role", "player"),
             "viewer": pgettext("role", "viewer")}
    return words.get(role or "", role or "")


def role_refusal(night: GameSession | None, role: str, action: str) -> Response:
    """The 403 page for a role that may not do ``action``: ``refusal`` is the whole sentence
    ("This phone joined the table as a player, and a player cannot void hands."), in the
    request's language."""
    refusal = (_(REFUSALS[action], role=role_word(role)) if action in REFUSALS
               else _("This phone joined the table as a {role}, and a {role} cannot do that.", role=role_word(role)))
    return make_response(render_template(
        "error.html", status=403, title=_("Ask the host"), reason="role", night=night,
        refusal=refusal,
    ), 403)


def host_secrets(night: GameSession, actor: Actor) -> TableSecrets | None:
    """The links and table code to share, when this phone holds the host's own token (a
    co-host's token derives nothing)."""
    token = token_for(night.id)
    if not actor.can("share") or not roles.is_host_link(get_session(), night, token):
        return None
    assert token is not None
    # the recovery code only while it still works (a used one, or one issued without the host
    # token, is not shown)
    return dataclasses.replace(roles.table_secrets(token, night.id),
                               recovery_code=roles.live_recovery_code(get_session(), night, token))


def token_for_link(night: GameSession, link_token: str) -> str:
    """The token this phone keeps for a join link: the host's own token as it is; for a player
    or viewer link, a device token of this phone's own (minted once; a phone that already
    holds one for this night in that role keeps it), so the host can make it a co-host."""
    db = get_session()
    link = roles.key_for(db, night, link_token)
    if link is None or link.kind != "link" or link.role == "host":
        return link_token
    held = roles.key_for(db, night, token_for(night.id))
    if held is not None and held.kind == "device" and held.role in (link.role, "host"):
        return token_for(night.id) or link_token
    return roles.device_token_for_link(db, night, link_token, devices.phone_name(None, device())) or link_token


def join_with_code(code: str, name: str = "", session_id: str | None = None) -> GameSession | None:
    """Exchange a typed table code for this phone's own player token (remembered). ``name``
    (optional, e.g. "Bo's phone") names this phone in the phones list and the history; without
    it the phone is called by its system and browser ("Android · Chrome"). With ``session_id``
    only that table's code is accepted. Raises :class:`~ledger.games.errors.HandError`
    ``invalid_entry`` (field ``name``) for a name that is not one
    (:func:`ledger.access.devices.clean_phone_name`)."""
    label = devices.phone_name(name, device())
    joined = roles.join_by_code(get_session(), code, label)
    if joined is None:
        return None
    night, token = joined
    if session_id is not None and night.id != session_id:
        return None
    remember_token(night.id, token)
    return night


def my_nights() -> list[GameSession]:
    """The nights this browser can open, most recently joined first."""
    db = get_session()
    out = []
    for session_id, token in reversed(list(remembered_tokens().items())):
        night = ledger_night.find_night(db, session_id)
        if night is not None and night.status != REMOVED and opens(night, token):
            out.append(night)
    return out
