"""The phone as an installable, offline-first app: the web app manifest and the service
worker, served from the site's root so the worker's scope is the whole app (``/``).

The worker (``static/sw.js``) keeps the app shell, the table screen and the entry pages;
``static/offline-queue.js`` keeps hands saved without a connection in IndexedDB and posts them,
in order, to the record flow's save (``POST /s/<id>/record`` with ``Accept: application/json``,
the form's CSRF token and each hand's idempotency key) when the connection returns.
"""
from __future__ import annotations

from typing import Any

from flask import current_app, send_from_directory

from ledger.web.blueprint import bp


@bp.get("/sw.js")
def service_worker() -> Any:
    response = send_from_directory(current_app.static_folder or "static", "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new worker is picked up at once
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Any:
    return send_from_directory(current_app.static_folder or "static", "manifest.webmanifest",
                               mimetype="application/manifest+json", max_age=3600)
