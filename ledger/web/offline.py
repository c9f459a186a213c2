"""The phone as an installable, offline-first app: the web app manifest and the service
worker, served from the site's root so the worker's scope is the whole app (``/``).

The worker (``static/sw.js``) keeps the app shell, the table screen and the entry pages;
``static/offline-queue.js`` keeps hands saved without a connection in IndexedDB and posts them,
in order, to the record flow's save (``POST /s/<id>/record`` with ``Accept: application/json``,
the form's CSRF token and each hand's idempotency key) when the connection returns.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request, send_from_directory
from flask.blueprints import BlueprintSetupState
from flask.sessions import SessionMixin

from ledger.i18n import N_, _, current_language
from ledger.web.blueprint import bp
from ledger.web.cookie_sessions import KeptSerializerSessions

# the manifest's description (static/manifest.webmanifest), for the catalogue
N_("Records Tonk hands at the table, pays them exactly, settles the night in the fewest transfers.")


def is_offline_copy() -> bool:
    """A page fetched by ``offline-queue.js`` to keep for offline use, not shown now."""
    return request.headers.get("X-Offline-Copy") == "1"


class CopyAwareSessions(KeptSerializerSessions):
    """Flask's signed-cookie sessions (their signer kept between requests), except that a copy kept for offline use never rewrites
    the cookie: an answer arriving late must not put back an older session (a one-time
    message, a token just remembered)."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        return super().should_set_cookie(app, session) and not is_offline_copy()


@bp.record_once
def _install_sessions(state: BlueprintSetupState) -> None:
    state.app.session_interface = CopyAwareSessions()


@bp.after_app_request
def _copies_are_not_stored(response: Response) -> Response:
    if is_offline_copy():
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/sw.js")
def service_worker() -> Any:
    response = send_from_directory(current_app.static_folder or "static", "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new worker is picked up at once
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Any:
    """``static/manifest.webmanifest`` with its description and ``lang`` in the phone's language
    (the name, "Tonk Ledger", is the same in every language)."""
    path = Path(current_app.static_folder or "static") / "manifest.webmanifest"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["description"] = _(document["description"])
    document["lang"] = current_language()
    response = Response(json.dumps(document, ensure_ascii=False), mimetype="application/manifest+json")
    response.cache_control.max_age = 3600
    return response
