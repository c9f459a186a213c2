"""The live table: every phone's screen follows what the other phones record, within seconds.

A page that updates itself (table, hand history, settle up, log) wraps its changing part in
``data-live-region`` and names its view and the night's *version* (the id of the latest audit
event: every recorded, voided or corrected hand, payment or close adds one). ``static/live.js``
polls ``GET /s/<id>/state?view=table&since=<version>`` every two seconds while the tab is
visible, with the last answer's ``ETag`` in ``If-None-Match``; the answer is an empty 304 while
nothing changed, and otherwise carries the region re-rendered
by the same template partial the page used, plus a line of news ("Hand 4 recorded"). Without
JavaScript the page shows a Refresh link instead.

Page modules register their view with :func:`view`, so this module knows no page.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from flask import Response, jsonify, render_template, request
from sqlalchemy import func
from sqlmodel import Session, select
from werkzeug.exceptions import HTTPException

from ledger.access import Actor
from ledger.db import get_session
from ledger.models import AuditEvent, GameSession
from ledger.web.access import authorised
from ledger.i18n import current_language
from ledger.web.blueprint import bp

POLL_MS = 2000
MAX_NEWS = 3

Context = Callable[[Session, GameSession, Actor], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class LiveView:
    template: str
    context: Context


VIEWS: dict[str, LiveView] = {}
# set by the log page: audit events in words, for the news line
describe: Callable[[Session, GameSession, list[AuditEvent]], list[str]] | None = None


def view(name: str, template: str) -> Callable[[Context], Context]:
    """Register ``context(db, night, actor)`` as the data of live view ``name``, rendered by
    the partial ``template`` (which the full page includes inside its live region)."""

    def register(context: Context) -> Context:
        VIEWS[name] = LiveView(template, context)
        return context

    return register


def version_of(db: Session, night: GameSession) -> int:
    """The night's version: the id of its latest audit event (0 for none)."""
    latest = db.exec(select(func.max(AuditEvent.id)).where(AuditEvent.session_id == night.id)).one()
    return int(latest or 0)


def region(name: str, db: Session, night: GameSession, actor: Actor) -> str:
    """The live region of view ``name`` as HTML (the page includes the same partial)."""
    live = VIEWS[name]
    return render_template(live.template, night=night, actor=actor, **live.context(db, night, actor))


def page_context(name: str, db: Session, night: GameSession, actor: Actor) -> dict[str, Any]:
    """What a full page needs for its live region: the view's data, its version (read
    first, so a change made while the page renders is fetched by the first poll), the
    polling settings."""
    version = version_of(db, night)
    return VIEWS[name].context(db, night, actor) | {"live_view": name, "live_version": version,
                                                    "live_poll_ms": POLL_MS}


@bp.get("/s/<session_id>/state")
def state(session_id: str) -> Any:
    """``{"version", "status", "changed"}``, plus ``"regions": {"main": html}`` and
    ``"news"`` (what other phones did) when the version moved past ``since``.

    Every answer carries an ``ETag`` naming the view, the night's version and the phone's role
    and key; a poll sending it back in ``If-None-Match`` while nothing changed is answered 304
    with no body, after one indexed query (the version)."""
    try:
        night, actor = authorised(session_id)
    except HTTPException as err:
        return _no_store(jsonify({"error": "forbidden" if err.code == 403 else "not_found"})), err.code or 403
    name = request.args.get("view", "table")
    if name not in VIEWS:
        return _no_store(jsonify({"error": "unknown_view"})), 404
    db = get_session()
    version = version_of(db, night)
    etag = f"{name}-{version}-{actor.role}-{actor.access_key_id or 0}-{current_language()}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return _no_store(response)
    since = _int(request.args.get("since"))
    body: dict[str, Any] = {"version": version, "status": night.status, "changed": since != version}
    if since != version:
        body["regions"] = {"main": region(name, db, night, actor)}
        body["news"] = _news(db, night, actor, since) if since is not None else []
    response = jsonify(body)
    response.set_etag(etag, weak=True)  # weak: the same answer compressed or not
    return _no_store(response)


def _news(db: Session, night: GameSession, actor: Actor, since: int) -> list[str]:
    """What other phones changed after ``since``, newest last, in words."""
    if describe is None:
        return []
    events = db.exec(
        select(AuditEvent).where(AuditEvent.session_id == night.id, AuditEvent.id > since)  # type: ignore[operator]
        .order_by(AuditEvent.id.desc()).limit(MAX_NEWS)  # type: ignore[union-attr]
    ).all()
    def mine(event: AuditEvent) -> bool:
        return event.access_key_id == actor.access_key_id and event.device == actor.device

    return describe(db, night, [e for e in reversed(events) if not mine(e)])


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) < 16 else None


def _no_store(response: Any) -> Any:
    response.headers["Cache-Control"] = "no-store"
    return response
