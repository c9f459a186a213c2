"""Phone pages. (Placeholder routes; the full table UI is built on top of these.)"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, session, url_for

bp = Blueprint("web", __name__)


@bp.get("/")
def index() -> Any:
    return "Tonk Ledger"


@bp.get("/join/<session_id>/<token>")
def join(session_id: str, token: str) -> Any:
    """The table link: remembers the secret in the signed cookie, then opens the table."""
    tokens = dict(session.get("tokens", {}))
    tokens[session_id] = token
    session["tokens"] = tokens
    session.permanent = True
    return redirect(url_for("web.index"))
