"""The live table: every phone's screen follows what the other phones record, within seconds.

A page that updates itself (table, hand history, settle up, log) wraps its changing part in
``data-live-region`` and names its view and the night's *version* (the id of the latest audit
event: every recorded, voided or corrected hand, payment or close adds one). ``static/live.js``
polls ``GET /s/<id>/state?view=table&since=<version>`` every two seconds while the tab is
visible, with the last answer's ``ETag`` in ``If-None-Match``; the answer is an empty 304 while
nothing changed, and otherwise carries the region re-rendered
by the same template partial the page used, plus a line of news ("Hand 4 recorded"). Without
JavaScript the page shows a Refresh link instead.

A view may also update row by row (:func:`rows_of`): when what changed since the phone's version
is a few rows (a hand recorded, voided or corrected on the history page) and the page asks with
``rows=1``, the answer carries ``"rows": [{"number", "html"}]`` instead of the region, and ``static/live.js`` replaces or
inserts just those rows, so the answer does not grow with the page.

Page modules register their view with :func:`view`, so this module knows no page.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from flask import Response, jsonify, render_template, request
from sqlalchemy import bindparam, func
from sqlmodel import Session, select
from werkzeug.exceptions import HTTPException

from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.storage.models import AuditEvent, GameSession
from ledger.web.access import authorised_at_version
from ledger.i18n import current_language
from ledger.web.blueprint import bp

POLL_MS = 2000
MAX_NEWS = 3
# every poll reads it: prepared once
_LATEST_EVENT = select(func.max(AuditEvent.id)).where(AuditEvent.session_id == bindparam("night"))
_NEWEST_EVENTS = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"),
                                           AuditEvent.id > bindparam("since"))  # type: ignore[operator]
                  .order_by(AuditEvent.id.desc()).limit(MAX_NEWS))  # type: ignore[union-attr]
_EVENTS_BETWEEN = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"),
                                            AuditEvent.id > bindparam("since"),  # type: ignore[operator]
                                            AuditEvent.id <= bindparam("version"))  # type: ignore[operator]
                   .order_by(AuditEvent.id).limit(bindparam("most")))  # type: ignore[arg-type]

MAX_ROW_EVENTS = 10  # past this many changes since the phone's version, the whole region is sent

Context = Callable[[Session, GameSession, Actor], dict[str, Any]]
# rows(db, night, actor, events since the phone's version) → [{"number", "html"}], or None
Rows = Callable[[Session, GameSession, Actor, list[AuditEvent]], list[dict[str, Any]] | None]


@dataclass(slots=True)
class LiveView:
    template: str
    context: Context
    rows: Rows | None = None


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


def rows_of(name: str) -> Callable[[Rows], Rows]:
    """Register ``rows(db, night, actor, events)`` as view ``name``'s row-by-row update: given
    the audit events after the phone's version (at most :data:`MAX_ROW_EVENTS`, oldest first),
    the changed rows as ``[{"number", "html"}]``, or ``None`` when the whole region must be
    sent (something else changed, or the region's frame did: a first row, a new page). The view
    itself is registered first, with :func:`view`."""

    def register(rows: Rows) -> Rows:
        VIEWS[name].rows = rows
        return rows

    return register


def version_of(db: Session, night: GameSession) -> int:
    """The night's version: the id of its latest audit event (0 for none)."""
    latest = db.connection().execute(_LATEST_EVENT, {"night": night.id}).scalar_one()
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
        night, actor, version = authorised_at_version(session_id)  # with its version: one query
    except HTTPException as err:
        return _no_store(jsonify({"error": "forbidden" if err.code == 403 else "not_found"})), err.code or 403
    name = request.args.get("view", "table")
    if name not in VIEWS:
        return _no_store(jsonify({"error": "unknown_view"})), 404
    db = get_session()
    etag = f"{name}-{version}-{actor.role}-{actor.access_key_id or 0}-{current_language()}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return _no_store(response)
    since = _int(request.args.get("since"))
    body: dict[str, Any] = {"version": version, "status": night.status, "changed": since != version}
    if since != version:
        rows_of = VIEWS[name].rows
        events = _events_for_rows(db, night, since, version) if rows_of is not None else None
        rows = rows_of(db, night, actor, events) if rows_of is not None and events is not None else None
        if rows is not None:
            body["rows"] = rows
        else:
            body["regions"] = {"main": region(name, db, night, actor)}
        body["news"] = _news(db, night, actor, since, events) if since is not None else []
    response = jsonify(body)
    response.set_etag(etag, weak=True)  # weak: the same answer compressed or not
    return _no_store(response)


def _events_for_rows(db: Session, night: GameSession, since: int | None, version: int) -> list[AuditEvent] | None:
    """The changes after the phone's version ``since`` (up to ``version``, oldest first) when
    they may go row by row (at most :data:`MAX_ROW_EVENTS`, to a page that asks), else
    ``None`` (the whole region goes)."""
    if since is None or since >= version or request.args.get("rows") != "1":
        return None  # rows go only to a page that takes them (a tab opened before they came gets regions)
    events = list(db.exec(_EVENTS_BETWEEN, params={"night": night.id, "since": since, "version": version,
                                                   "most": MAX_ROW_EVENTS + 1}))
    return events if events and len(events) <= MAX_ROW_EVENTS else None


def _news(db: Session, night: GameSession, actor: Actor, since: int,
          events: list[AuditEvent] | None = None) -> list[str]:
    """What other phones changed after ``since``, newest last, in words: the newest
    :data:`MAX_NEWS` changes (of ``events``, the changes since then oldest first, when they
    were read already), less this phone's own."""
    if describe is None:
        return []
    if events is None:
        events = list(reversed(db.exec(_NEWEST_EVENTS, params={"night": night.id, "since": since}).all()))
    def mine(event: AuditEvent) -> bool:
        return event.access_key_id == actor.access_key_id and event.device == actor.device

    return describe(db, night, [e for e in events[-MAX_NEWS:] if not mine(e)])


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdecimal() and len(text) < 16 else None


def _no_store(response: Any) -> Any:
    response.headers["Cache-Control"] = "no-store"
    return response
