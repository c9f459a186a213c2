"""Nothing typed is lost when a form's CSRF check fails.

A form opened at 20:00 still saves at 02:00 (``WTF_CSRF_TIME_LIMIT`` is ``None`` and the
signed cookie lives 31 days). But a phone can lose its cookie (private tab, cleared data), and
then the form's token no longer matches. Instead of a dead-end error, :func:`recover` answers
with a page that holds every submitted field (hidden, as typed) and a fresh token: one tap
sends it all again to the same address. The hand's idempotency key travels with it, so a
hand that did get saved is not saved twice.

If the lost cookie also held this phone's key to the table, the same page asks for the table
code: ``POST /rejoin`` joins with it (rate-limited like ``/join``) and answers ``307``, so
the browser re-sends the very same form to where it was going.

Only a request from this site gets the page (``Origin``/``Referer``); a form posted from
another site gets the plain "Form expired" error, so this never becomes a way around CSRF.
The page's words are in the request's language.
"""
from __future__ import annotations

from typing import Any, Iterable
from urllib.parse import urlsplit

from flask import abort, current_app, redirect, render_template, request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from ledger.night import lifecycle as ledger_night
from ledger.storage.db import get_session
from ledger.i18n import N_, _
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.web.access import join_with_code, opens, token_for
from ledger.web.blueprint import bp
from ledger.web.entry_form import outcome_title
from ledger.web.local_paths import local_path

NOT_KEPT = frozenset({"csrf_token", "rejoin_code", "rejoin_next"})
MAX_FIELDS = 400

BUTTONS = {
    "web.pay": N_("Save the payment"),
    "web.void_payment": N_("Void the payment"),
    "web.undo": N_("Undo the last hand"),
    "web.close": N_("Close the night"),
    "web.index": N_("Start the night"),
    "web.join_code": N_("Join"),
}
# What a kept hand entry was about, by which of (number, outcome, dealer) it names (the outcome
# alone is just its name).
HAND_SUMMARIES = {
    (True, True, True): N_("Hand {number} · {outcome} · dealt by {dealer}"),
    (True, True, False): N_("Hand {number} · {outcome}"),
    (True, False, True): N_("Hand {number} · dealt by {dealer}"),
    (True, False, False): N_("Hand {number}"),
    (False, True, True): N_("{outcome} · dealt by {dealer}"),
    (False, False, True): N_("dealt by {dealer}"),
}


def same_site() -> bool:
    """Whether the request came from one of this site's pages: its ``Origin`` (or else its
    ``Referer``) names this host. Neither header at all, as some privacy settings send,
    counts as yes; ``Origin: null`` does not. Only the host is compared, so a proxy that
    ends HTTPS in front of the app does not matter."""
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == request.host.lower()


def kept_fields(form: MultiDict[str, str]) -> list[tuple[str, str]]:
    """Every submitted field as typed (repeated names kept, e.g. tapped cards), except the
    stale token and the rejoin fields."""
    return [(k, v) for k, v in form.items(multi=True) if k not in NOT_KEPT][:MAX_FIELDS]


def recover() -> Any | None:
    """The "send again" page for a POST whose CSRF check failed, or ``None`` when it is
    not this site's form or nothing was typed (the caller shows the plain error)."""
    if request.method != "POST" or not same_site():
        return None
    fields = kept_fields(request.form)
    if not fields or request.endpoint is None:
        return None
    return render_page(request.path, request.endpoint, dict(request.view_args or {}), fields)


def render_page(
    action: str, endpoint: str, args: dict[str, Any], fields: list[tuple[str, str]],
    *, error: str | None = None, code: str = "", status: int = 400,
) -> Any:
    session_id = args.get("session_id")
    night = ledger_night.find_night(get_session(), session_id) if isinstance(session_id, str) else None
    lost_key = night is not None and not opens(night, token_for(night.id))
    return render_template(
        "resubmit.html",
        night=night,
        action=action,
        fields=fields,
        button=button_label(endpoint, args, fields),
        summary=summary(endpoint, fields, night.players if night else ()),
        lost_key=lost_key,
        error=error,
        code=code,
    ), status


def button_label(endpoint: str, args: dict[str, Any], fields: Iterable[tuple[str, str]]) -> str:
    form = dict(fields)
    if endpoint in ("web.record", "web.amend"):
        if form.get("go") != "save":
            return _("Continue")
        return _("Save hand") if endpoint == "web.record" else _("Save the correction")
    if endpoint == "web.void" and "number" in args:
        return _("Void hand {number}", number=args["number"])
    return _(BUTTONS[endpoint]) if endpoint in BUTTONS else _("Send again")


def summary(endpoint: str, fields: Iterable[tuple[str, str]], players: Iterable[str]) -> list[str]:
    """A line or two saying what the kept form was about, in the request's language (names come
    from the night)."""
    form = dict(fields)
    seated = list(players)

    def name(index: str | None) -> str:
        return seated[int(index)] if index and index.isdecimal() and int(index) < len(seated) else "?"

    if endpoint == "web.record":
        number = form.get("number", "")
        named = (number.isdecimal(), bool(form.get("kind")), bool(form.get("dealer")))
        if not any(named):
            return []
        if named == (False, True, False):
            return [outcome_title(form["kind"])]
        return [_(HAND_SUMMARIES[named], number=number, outcome=outcome_title(form.get("kind", "")),
                  dealer=name(form.get("dealer")))]
    if endpoint == "web.pay":
        return [_("{payer} paid {payee} {amount}", payer=form.get("from", "?"), payee=form.get("to", "?"),
                  amount=form.get("amount", "")).strip()]
    if endpoint == "web.index" and form.get("name"):
        return [_("Start “{name}”", name=form["name"])]
    return []


@bp.post("/rejoin")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def rejoin() -> Any:
    """Join by table code, then send the kept form on (``307`` keeps the method and body)."""
    target = request.form.get("rejoin_next", "")
    endpoint, args = post_route(target)
    session_id = args.get("session_id")
    if not isinstance(session_id, str) or ledger_night.find_night(get_session(), session_id) is None:
        abort(404)
    code = request.form.get("rejoin_code", "")[:40]
    night = join_with_code(code, session_id=session_id) if code.strip() else None
    if night is None:
        error = (_("That is not this table’s code. Check it with the host.") if code.strip()
                 else _("Type the table code."))
        return render_page(target, endpoint, args, kept_fields(request.form), error=error, code=code, status=422)
    return redirect(target, code=307)


def post_route(path: str) -> tuple[str, dict[str, Any]]:
    """The web endpoint a kept form was going to; 404 unless it is a page of a table that
    takes a POST (never another site: the path must start with ``/s/``)."""
    if local_path(path) is None or not path.startswith("/s/") or "//" in path:
        abort(404)
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, args = adapter.match(path, method="POST")
    except HTTPException:
        abort(404)
    if not str(endpoint).startswith("web."):
        abort(404)
    return str(endpoint), dict(args)
