"""The night's log (``/s/<id>/log``): every change in words — who (role and which phone), when,
what, and for hands and payments the values before → after — plus the exports (CSV tables
and one JSON document, :mod:`ledger.night.export`) for the phone that holds the table's cookie.

Amounts come from the stored audit details (``int`` minor units) and are only formatted here;
every sentence is one template in the request's language (:mod:`ledger.i18n`), made while the
request runs (the log and the news line are never cached across requests).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from flask import Response, abort, render_template, request
from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from ledger.night import export
from ledger.night import hosts
from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.i18n import N_, _
from ledger.storage.models import AuditEvent, GameSession, Hand
from ledger.games.tonk import PRESETS
from ledger.night.corrections import entry_changes
from ledger.night.reads import describe_stored
from ledger.sentences import Sentence
from ledger.web import live
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.paging import page_number
from ledger.web.formatting import engine_words, join_names, money, signed_money
from ledger.web.seat_events import SEAT_ACTIONS, describe_seat_event

NOT_COUNTED = N_("not counted")
COUNTED = N_("counted")


@dataclass(frozen=True, slots=True)
class Change:
    """One value that changed: ``label`` (a player, "Dealer"...), ``before`` → ``after``
    (either may be empty: a new hand has no before)."""

    label: str
    before: str = ""
    after: str = ""


@dataclass(frozen=True, slots=True)
class EventView:
    id: int
    action: str
    title: str
    role: str
    device: str
    at: Any
    hand_number: int | None
    summary: str = ""
    changes: list[Change] = field(default_factory=list)


def describe_event(
    event: AuditEvent, night: GameSession, hands: Mapping[tuple[int, int], Hand] | None = None,
    renames: Sequence[tuple[int, str, str]] = (),
) -> EventView:
    """An audit event as the log shows it, in the request's language. ``hands`` maps
    ``(number, version)`` to stored hands (for the one-line description of a recorded or
    corrected hand, which a rename rewrote). ``renames`` are the night's renames
    (:func:`renames_of`): the amounts, dealers and payments of an event before a rename are
    shown under the names of now, as its description is, so that a name given back to someone
    new never shows the money of the one who had it (the seat events keep the names of then)."""
    detail = event.detail or {}
    later = [(old, new) for at, old, new in renames if at > (event.id or 0)]

    def now(name: Any) -> Any:
        for old, new in later:
            name = new if name == old else name
        return name

    before, after = detail.get("before") or {}, detail.get("after") or {}
    number = event.hand_number
    currency = night.currency
    base = {"id": event.id or 0, "action": event.action, "role": event.actor_role, "device": event.device,
            "at": event.created_at, "hand_number": number}

    def hand_text(version: int) -> str:
        hand = (hands or {}).get((number or 0, version))
        return str(describe_stored(hand.entry.get("outcome", {}), hand.result)) if hand else ""  # by its game

    def nets(values: Any) -> dict[str, int]:
        return {now(p): int(v) for p, v in (values or {}).items() if isinstance(v, int)}

    def seats(*amounts: Mapping[str, int]) -> list[str]:
        """The players an event's amounts name (that hand's seating, with the names of then),
        or the night's seating when it names none."""
        named = [p for values in amounts for p in values]
        return list(dict.fromkeys(named)) or list(night.players)

    if event.action == "hand_recorded":
        net = nets(after.get("net"))
        return EventView(**base, title=_("Hand {number} recorded", number=number), summary=hand_text(1),
                         changes=[Change(p, "", signed_money(net.get(p, 0), currency)) for p in seats(net)]
                         + [Change(_("Dealer"), "", str(now(after.get("dealer", ""))))])
    if event.action == "hand_voided":
        net = nets(before.get("net"))
        return EventView(**base, title=_("Hand {number} voided", number=number),
                         changes=[Change(p, signed_money(net.get(p, 0), currency), _(NOT_COUNTED))
                                  for p in seats(net)])
    if event.action == "hand_restored":
        net = nets(after.get("net"))
        return EventView(**base, title=_("Hand {number} restored", number=number),
                         changes=[Change(p, _(NOT_COUNTED), signed_money(net.get(p, 0), currency))
                                  for p in seats(net)])
    if event.action == "cohost_added":
        name = after.get("name")
        return EventView(**base, title=_("{name} made a co-host", name=name) if name else _("A phone made a co-host"))
    if event.action == "host_recovered":
        return EventView(**base, title=_("Host recovered on a new phone with the recovery code"))
    if event.action == "phone_revoked":
        gone = before.get("name") if before.get("kind") != "link" else _(hosts.HOST_LINK_NAME)
        return EventView(**base, title=_("{name} removed from the night", name=gone) if gone
                         else _("A phone removed from the night"))
    if event.action == "links_rotated":
        return EventView(**base, title=_("New links and table code made; the old ones stopped working"))
    if event.action == "recovery_code_issued":
        return EventView(**base, title=_("New recovery code made; the old one stopped working"))
    if event.action == "hand_amended":
        old, new = nets(before.get("net")), nets(after.get("net"))
        v_old, v_new = before.get("version"), after.get("version")
        # the amounts that moved (a correction of a loser's total under a flat payout moves none)
        changes = [Change(p, signed_money(old.get(p, 0), currency), signed_money(new.get(p, 0), currency))
                   for p in seats(new, old) if old.get(p, 0) != new.get(p, 0)]
        if before.get("dealer") != after.get("dealer"):
            changes.append(Change(_("Dealer"), str(now(before.get("dealer", ""))), str(now(after.get("dealer", "")))))
        texts = (hand_text(v_old), hand_text(v_new)) if isinstance(v_old, int) and isinstance(v_new, int) else ("", "")
        inputs = [Change(str(Sentence(c.label.template, {"name": now(c.player)})), str(c.before), str(c.after))
                  for c in entry_changes(before.get("entry"), after.get("entry"))]  # "Dee's total 7 → 47"
        changes[:0] = ([Change(_("Hand"), texts[0], texts[1])] if texts[0] != texts[1] else []) + inputs
        return EventView(**base, title=_("Hand {number} corrected (version {old} → {new})", number=number,
                                         old=v_old, new=v_new), changes=changes,
                         summary="" if old != new or not old else _("No one's amount changed."))
    if event.action == "payment_recorded":
        return EventView(**base, title=_payment_words(after, currency, now))
    if event.action == "payment_voided":
        return EventView(**base, title=_("Payment voided"),
                         changes=[Change(_payment_words(before, currency, now), _(COUNTED), _(NOT_COUNTED))])
    if event.action == "session_created":
        preset = PRESETS.get(str((after.get("ruleset") or {}).get("preset")))
        stake = after.get("stake_minor")
        return EventView(**base, title=_("Night started"), changes=[
            Change(_("Players"), "", join_names([str(p) for p in after.get("players") or []])),
            Change(_("Stake"), "", money(stake, currency) if isinstance(stake, int) else ""),
            Change(_("Rules"), "", engine_words(preset.title) if preset
                   else str((after.get("ruleset") or {}).get("preset", ""))),
        ])
    if event.action == "session_closed":
        net = nets(after.get("net"))
        return EventView(**base, title=_("Night closed"),
                         changes=[Change(p, "", signed_money(net.get(p, 0), currency)) for p in seats(net)])
    if event.action == "night_voided":
        return EventView(**base, title=_("The whole night voided: kept for the record, counted nowhere"))
    if event.action == "night_restored":
        return EventView(**base, title=_("The night restored: it counts again, as a closed night"))
    if event.action == "night_removed":
        return EventView(**base, title=_("The night removed: it was started by mistake"))
    if event.action in SEAT_ACTIONS:
        title, summary, rows = describe_seat_event(event.action, detail, currency)
        return EventView(**base, title=title, summary=summary, changes=[Change(*row) for row in rows])
    return EventView(**base, title=event.action.replace("_", " ").capitalize())  # an action newer than this page: its code


# every poll after a change reads them: prepared once
_NAMED_HANDS = select(Hand).where(Hand.session_id == bindparam("night"),
                                  col(Hand.number).in_(bindparam("numbers", expanding=True)))
LOG_PER_PAGE = 50
_LOG_PAGE = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"))
             .order_by(col(AuditEvent.id).desc()).limit(bindparam("count")).offset(bindparam("skip")))


def named_hands(db: Session, night: GameSession, events: list[AuditEvent]) -> dict[tuple[int, int], Hand]:
    """``(number, version) → hand`` for every version of the hands ``events`` name (and no
    other hand of the night)."""
    numbers = sorted({e.hand_number for e in events if e.hand_number is not None})
    if not numbers:
        return {}
    return {(h.number, h.version): h for h in db.exec(_NAMED_HANDS, params={"night": night.id, "numbers": numbers})}


def headlines(db: Session, night: GameSession, events: list[AuditEvent]) -> list[str]:
    """News lines for the live update of the other phones, in the request's language: "Hand 4
    recorded: Rosa knocked with 4 and won"."""
    hands = named_hands(db, night, events)
    out = []
    for event in events:
        view = describe_event(event, night, hands)
        # two whole sentences, the event and what the hand was: the language says how they are joined
        out.append(_("{event}: {hand}", event=view.title, hand=view.summary) if view.summary else view.title)
    return out


live.describe = headlines


def _payment_words(payment: Mapping[str, Any], currency: str, now: Callable[[Any], Any]) -> str:
    amount = payment.get("amount")
    shown = money(amount, currency) if isinstance(amount, int) else "?"
    return _("{payer} paid {payee} {amount}", payer=now(payment.get("from", "?")), payee=now(payment.get("to", "?")),
             amount=shown)


_RENAMES = (select(AuditEvent.id, AuditEvent.detail)
            .where(AuditEvent.session_id == bindparam("night"), AuditEvent.action == "player_renamed")
            .order_by(col(AuditEvent.id)))


def renames_of(db: Session, night: GameSession) -> list[tuple[int, str, str]]:
    """The night's renames, oldest first: ``(event id, old name, new name)`` (one indexed read
    of the rename events only, ``ix_audit_event_session_action``)."""
    out = []
    for event_id, detail in db.exec(_RENAMES, params={"night": night.id}):
        old, new = (detail or {}).get("before", {}).get("name"), (detail or {}).get("after", {}).get("name")
        if isinstance(old, str) and isinstance(new, str):
            out.append((int(event_id), old, new))
    return out


@live.view("log", "_live_log.html")
def log_state(db: Session, night: GameSession, actor: Actor, page: int = 1) -> dict[str, Any]:
    """Log page ``page``: :data:`LOG_PER_PAGE` changes, newest first (page 1 the newest; the
    live region follows it), ``older`` when an older page exists. Only that page's events, and
    the hands they name, are read."""
    found = list(db.exec(_LOG_PAGE, params={"night": night.id, "count": LOG_PER_PAGE + 1,
                                            "skip": (page - 1) * LOG_PER_PAGE}))
    shown = found[:LOG_PER_PAGE]
    hands = named_hands(db, night, shown)
    renames = renames_of(db, night)
    return {"events": [describe_event(e, night, hands, renames) for e in shown], "page": page,
            "older": len(found) > LOG_PER_PAGE}


@bp.get("/s/<session_id>/log")
def log(session_id: str) -> Any:
    """The log of every change, :data:`LOG_PER_PAGE` a page (``?page=2`` the older ones; 404
    past the oldest)."""
    night, actor = authorised(session_id)
    page = page_number(request.args.get("page"))
    if page <= 1:
        return render_template("log.html", night=night, actor=actor, csv_tables=export.CSV_TABLES,
                               **live.page_context("log", get_session(), night, actor))
    context = log_state(get_session(), night, actor, page)
    if not context["events"]:
        abort(404)
    return render_template("log.html", night=night, actor=actor, csv_tables=export.CSV_TABLES, live_view=None,
                           **context)


@bp.get("/s/<session_id>/export/<table>.csv")
def export_csv(session_id: str, table: str) -> Response:
    """One table of the night as CSV (hands, transfers, payments, history), formula-safe."""
    night, _actor = authorised(session_id)
    if table not in export.CSV_TABLES:
        abort(404)
    return _download(export.export_csv(get_session(), night, table), "text/csv", f"tonk-{night.id}-{table}.csv")


@bp.get("/s/<session_id>/export.json")
def export_json(session_id: str) -> Response:
    """The whole night as one JSON document (amounts in int minor units)."""
    night, _actor = authorised(session_id)
    text = json.dumps(export.export_json(get_session(), night), ensure_ascii=False, indent=2)
    return _download(text, "application/json", f"tonk-{night.id}.json")


def _download(text: str, mimetype: str, filename: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
