"""Error pages of the phone UI: 403 (no table token), 404, 400 (form expired / CSRF).

Registered on the blueprint only, so the JSON API keeps its own JSON errors.
"""
from __future__ import annotations

from typing import Any

from flask import render_template
from flask_wtf.csrf import CSRFError

from ledger.access import AccessDenied
from ledger.web.access import role_refusal
from ledger.web.blueprint import bp


@bp.errorhandler(403)
def forbidden(_err: Any) -> Any:
    return render_template("error.html", status=403, title="Open the table link",
                           reason="forbidden"), 403


@bp.errorhandler(404)
def not_found(_err: Any) -> Any:
    return render_template("error.html", status=404, title="Not found", reason="not_found"), 404


@bp.errorhandler(CSRFError)
def csrf_failed(_err: CSRFError) -> Any:
    return render_template("error.html", status=400, title="Form expired", reason="csrf"), 400


@bp.errorhandler(AccessDenied)
def role_forbidden(err: AccessDenied) -> Any:
    return role_refusal(None, err.role, err.action)
