"""Error pages of the phone UI: 403 (no table token), 404, 400 (form expired / CSRF), 429
(too many tries at a table code).

Registered on the blueprint only, so the JSON API keeps its own JSON errors. A form whose
CSRF check fails comes back with everything typed kept (:mod:`ledger.web.resubmit`). Titles
and messages are in the request's language.
"""
from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, NotFound

from ledger.access.roles import AccessDenied
from ledger.i18n import N_, _
from ledger.web import resubmit
from ledger.web.access import role_refusal
from ledger.web.blueprint import bp

TOO_MANY = N_("Too many tries. Wait a minute, then type the code again.")


@bp.errorhandler(403)
def forbidden(_err: Any) -> Any:
    return render_template("error.html", status=403, title=_("Open the table link"),
                           reason="forbidden"), 403


@bp.errorhandler(404)
def not_found(_err: Any) -> Any:
    return render_template("error.html", status=404, title=_("Not found"), reason="not_found"), 404


@bp.errorhandler(410)
def gone(_err: Any) -> Any:
    """A night its host removed (:mod:`ledger.night.whole_night`)."""
    return render_template("error.html", status=410, title=_("This night was removed"), reason="removed"), 410


def any_not_found(err: NotFound) -> Any:
    """An address no route knows (a share link cut short, ``/nope``): the phone's own 404 page
    in its language; the API keeps its JSON answer."""
    if request.path.startswith("/api/"):
        from ledger.api import http_error

        return http_error(err)
    return not_found(err)


@bp.errorhandler(CSRFError)
def csrf_failed(_err: CSRFError) -> Any:
    kept = resubmit.recover()
    if kept is not None:
        return kept
    return render_template("error.html", status=400, title=_("Form expired"), reason="csrf"), 400


@bp.errorhandler(429)
def too_many(_err: Any) -> Any:
    """Guessing table codes is rate-limited; the page keeps what was typed."""
    if request.endpoint == "web.join_code":
        return render_template("join.html", code=request.form.get("code", "")[:40],
                               name=request.form.get("name", "")[:40], error=_(TOO_MANY)), 429
    if request.endpoint == "web.rejoin":
        target = request.form.get("rejoin_next", "")
        try:
            endpoint, args = resubmit.post_route(target)
        except HTTPException:  # not a table's form: the plain page below
            pass
        else:
            return resubmit.render_page(target, endpoint, args, resubmit.kept_fields(request.form),
                                        error=_(TOO_MANY), code=request.form.get("rejoin_code", "")[:40],
                                        status=429)
    return render_template("error.html", status=429, title=_("Too many tries"), reason="too_many"), 429


@bp.errorhandler(AccessDenied)
def role_forbidden(err: AccessDenied) -> Any:
    return role_refusal(None, err.role, err.action)
