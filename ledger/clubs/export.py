"""A whole club as one JSON document, and back; CSV tables for spreadsheets.

The document (``format: "tonk-ledger-club"``, ``version: 1``) holds the club, its members (ids
as in this server, and each member's statement ``language``: a catalogue code or ``null``;
exports from before issue 10 lack it and import as ``null``), every night with its rows as
stored (every hand version as entered and as scored, the night's payments and history, who sat
as which member, what it carried), the club's payments and its history. Tokens and codes are not in it: :func:`import_club` gives the club and
each night new ones. Balances, standings and statements computed from an imported club equal
the original's, since they are computed from exactly these rows. Amounts are int minor units.

An import trusts nothing the document claims (it needs no login): its shape is
:mod:`ledger.clubs.import_schema`'s, what the app could not read back is refused by
:mod:`ledger.clubs.import_checks`, and every figure is replayed by
:mod:`ledger.clubs.import_replay`; what is stored is the replay's. The club's history is kept,
its ids (members, nights, club payments) read as this server's.

The CSV header rows are machine identifiers (``member_id``, ``net_minor``, ``net_EUR``...) and
stay English in every language, as in :mod:`ledger.night.export`: scripts and spreadsheets read the
columns by these names. Their cells hold names, codes and figures, no sentences.
"""
from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.access import roles as access
from ledger.night import figures
from ledger.night import lifecycle as ledger_night
from ledger.clubs.books import balances, owed_balances, payments_of
from ledger.clubs.carry import carried_of, nights_of, seat_members
from ledger.clubs.import_checks import NOT_READABLE, check_document
from ledger.clubs.import_replay import Replayed, member_key, replay
from ledger.clubs.import_schema import FORMAT, VERSION, load_document
from ledger.storage.club_models import Club, ClubCarry, ClubEvent, ClubMember, ClubNight, ClubPayment, ClubSeat
from ledger.clubs.roster import add_keys, club_secrets, members_of
from ledger.storage.db import begin_write
from ledger.night.export import _csv
from ledger.i18n import LANGUAGES, N_
from ledger.storage.models import AuditEvent, GameSession, Hand, HandTransfer, Payment
from ledger.money import format_plain
from ledger.games import game as game_of
from ledger.games.tonk import HandError
from ledger.settlement.plan import settle

_INSERT_HAND = insert(Hand.__table__)  # type: ignore[attr-defined]  (prepared once)
_INSERT_TRANSFERS = insert(HandTransfer.__table__)  # type: ignore[attr-defined]
CLUB_CSV_TABLES = ("members", "nights", "results", "carries", "payments", "history")


def _at(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def export_club(db: Session, club: Club) -> dict[str, Any]:
    """The whole club as one JSON-ready document (see the module docstring)."""
    nights = []
    for night, link in nights_of(db, club):
        nights.append({
            "session": {
                "id": night.id, "name": night.name, "currency": night.currency, "stake": night.stake_minor,
                "ruleset": night.ruleset, "game": night.game or "tonk",
                "players": list(night.players), "roster": list(night.roster or []),
                "first_dealer": night.first_dealer, "status": night.status,
                "last_hand_number": night.last_hand_number, "timezone": night.timezone,
                "created_at": _at(night.created_at), "closed_at": _at(night.closed_at),
                "pot_opening": figures.openings(db, night).get("pot", 0),
            },
            "carried": link.carried, "pot_carried": int(link.pot_carried_minor or 0),
            "host_role": link.host_role, "carry_state": link.carry_state, "carried_by": link.carried_by,
            "seats": [{"member_id": s.member_id, "name": s.name}
                      for s in db.exec(select(ClubSeat).where(ClubSeat.session_id == night.id).order_by(ClubSeat.id))],
            "carries": [{"member_id": c.member_id, "amount": c.amount_minor, "created_at": _at(c.created_at),
                         "kind": c.kind}
                        for c in db.exec(select(ClubCarry).where(ClubCarry.session_id == night.id)
                                         .order_by(ClubCarry.id))],
            "hands": [{
                "number": h.number, "version": h.version, "dealer": h.dealer, "players": list(h.players),
                "stake": h.stake_minor, "kind": h.kind, "entry": h.entry, "result": h.result, "redeal": h.redeal,
                "status": h.status, "idempotency_key": h.idempotency_key, "created_at": _at(h.created_at),
                "voided_at": _at(h.voided_at),
            } for h in ledger_night.hands_of(db, night, all_versions=True)],
            "payments": [{
                "from": p.payer, "to": p.payee, "amount": p.amount_minor, "status": p.status, "kind": p.kind,
                "created_at": _at(p.created_at), "voided_at": _at(p.voided_at),
            } for p in ledger_night.payments_of(db, night)],
            "history": [{
                "action": e.action, "actor_role": e.actor_role, "device": e.device, "hand_number": e.hand_number,
                "detail": e.detail, "at": _at(e.created_at),
            } for e in ledger_night.history(db, night)],
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {"id": club.id, "name": club.name, "currency": club.currency, "timezone": club.timezone,
                 "created_at": _at(club.created_at), "carry_needs_owner": club.carry_needs_owner,
                 "pot_minor": int(club.pot_minor or 0)},
        "members": [{"id": m.id, "name": m.name, "created_at": _at(m.created_at), "language": m.language}
                    for m in members_of(db, club)],
        "nights": nights,
        "payments": [{"from_id": p.payer_id, "to_id": p.payee_id, "amount": p.amount_minor, "status": p.status,
                      "created_at": _at(p.created_at), "voided_at": _at(p.voided_at)} for p in payments_of(db, club)],
        "history": [{"action": e.action, "actor_role": e.actor_role, "detail": e.detail, "at": _at(e.created_at)}
                    for e in db.exec(select(ClubEvent).where(ClubEvent.club_id == club.id).order_by(ClubEvent.id))],
    }


def _language(value: Any) -> str | None:
    """A member's statement language from a document: a catalogue code this server has, else
    ``None`` (older exports have none; a language this server lacks follows the reader)."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def import_club(db: Session, document: Mapping[str, Any]) -> tuple[Club, str, dict[str, str]]:
    """Store an exported club as a new club (committed) → ``(club, owner token, {new night id:
    host token})``. Every id is new; times, entries, payments and history are kept, and every
    figure is the replay's (:func:`ledger.clubs.import_replay.replay`), which the document's own
    must equal. Raises :class:`~ledger.clubs.import_schema.DocumentError` for a document not of
    the export's shape (the API answers 422 ``invalid_entry`` naming the path);
    :class:`HandError` 422 for a value the app could not read back
    (:func:`ledger.clubs.import_checks.check_document`); :class:`~ledger.errors.NightError` 422
    ``import_mismatch`` (or the live API's code for the check) naming the first path where the
    document disagrees with its replay. Nothing is stored unless all of it is."""
    try:
        doc = load_document(document)
        check_document(doc)
        replayed = replay(doc)
    except RecursionError:  # an entry or a history nested past what can be read back
        raise _unreadable(ValueError("nested too deeply")) from None
    for _attempt in range(3):
        begin_write(db)
        try:
            club, token, night_tokens = _store(db, doc, replayed)
            settle(owed_balances(db, club))  # the replay made them add up; the plan must be there to read
            db.commit()
        except IntegrityError:  # a drawn code already used: draw again
            db.rollback()
            continue
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            db.rollback()
            raise _unreadable(exc) from None
        except BaseException:
            db.rollback()
            raise
        return club, token, night_tokens
    # three fresh draws of secrets all taken is not chance: the document repeats what must be unique
    raise HandError("invalid_entry", N_("The document repeats what must be unique: a member, a seat at a night, "
                                        "or a version of a hand."), None)


def _unreadable(exc: BaseException) -> HandError:
    return HandError("invalid_entry", NOT_READABLE, None, detail=str(exc))


def _store(db: Session, doc: Mapping[str, Any], replayed: Replayed) -> tuple[Club, str, dict[str, str]]:
    """Write the loaded, replayed ``doc`` inside the caller's write transaction."""
    source = doc["club"]
    token = access.new_host_token()
    club = Club(id=secrets.token_urlsafe(9), name=source["name"], currency=source["currency"],
                timezone=source["timezone"] or "UTC", created_at=source["created_at"],
                carry_needs_owner=source["carry_needs_owner"], pot_minor=source["pot_minor"])
    db.add(club)
    db.flush()
    add_keys(db, club, club_secrets(token, club.id))
    member_ids: dict[int, int] = {}
    keys: set[str] = set()
    for row in doc["members"]:
        key = member_key(row["name"], keys)
        assert key is not None  # the replay refused one name twice
        keys.add(key)
        member = ClubMember(club_id=club.id, name=row["name"], name_key=key, created_at=row["created_at"],
                            language=_language(row["language"]))
        db.add(member)
        db.flush()
        member_ids[row["id"]] = int(member.id or 0)
    night_tokens: dict[str, str] = {}
    night_ids: dict[Any, Any] = {}
    for entry, results in zip(doc["nights"], replayed.results):
        stored = _store_night(db, club, entry, results, member_ids)
        night_tokens.update(stored)
        night_ids[entry["session"]["id"]] = next(iter(stored))
    payments = []
    for p in doc["payments"]:
        payments.append(ClubPayment(club_id=club.id, payer_id=member_ids[p["from_id"]],
                                    payee_id=member_ids[p["to_id"]], amount_minor=p["amount"], status=p["status"],
                                    created_at=p["created_at"], voided_at=p["voided_at"]))
        db.add(payments[-1])
    db.flush()
    recorded = [_id_in(e["detail"]) for e in doc["history"]  # as the replay matched them to the payments
                if e["action"] == "payment_recorded" and isinstance(e["detail"], dict)]
    ids = {"member": dict(member_ids), "night": night_ids,
           "payment": {old: new.id for old, new in zip(recorded, payments)}}
    for e in doc["history"]:
        db.add(ClubEvent(club_id=club.id, action=e["action"], actor_role=e["actor_role"],
                         detail=_with_new_ids(e["action"], e["detail"] or {}, ids), created_at=e["at"]))
    db.add(ClubEvent(club_id=club.id, action="club_imported", actor_role="owner", detail={"from": source["id"]}))
    db.flush()
    return club, token, night_tokens


def _id_in(detail: Mapping[str, Any]) -> Any:
    after = detail.get("after") if isinstance(detail, Mapping) else None
    found = after.get("id") if isinstance(after, Mapping) else None
    return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None


def _with_new_ids(action: str, detail: Mapping[str, Any], ids: Mapping[str, Mapping[Any, Any]]) -> dict[str, Any]:
    """A club event's ``detail`` with the ids it names (members, nights, club payments) as this
    server gave them, so that the history speaks of the rows beside it; the rest as it was."""
    kind = "night" if action.startswith("night_") else action.split("_")[0]
    out = dict(detail)
    for side in ("before", "after"):
        part = detail.get(side)
        if not isinstance(part, Mapping) or kind not in ids:
            continue
        moved = dict(part)
        for field, known in (("id", ids[kind]), ("from_id", ids["member"]), ("to_id", ids["member"])):
            if isinstance(moved.get(field), (int, str)) and not isinstance(moved[field], bool):
                moved[field] = known.get(moved[field], moved[field])
        out[side] = moved
    return out


def _store_night(db: Session, club: Club, entry: Mapping[str, Any], results: list[dict[str, Any]],
                 member_ids: Mapping[int, int]) -> dict[str, str]:
    s = entry["session"]
    night_token = access.new_host_token()
    night = GameSession(
        id=secrets.token_urlsafe(9), name=s["name"], currency=club.currency, stake_minor=s["stake"],
        ruleset=dict(s["ruleset"]), players=list(s["players"]), roster=list(s["roster"]),
        first_dealer=s["first_dealer"], status=s["status"], last_hand_number=s["last_hand_number"],
        timezone=s["timezone"], created_at=s["created_at"], closed_at=s["closed_at"], game=s["game"])
    db.add(night)
    db.flush()
    access.add_keys(db, night, access.table_secrets(night_token, night.id))
    db.add(ClubNight(session_id=night.id, club_id=club.id, carried=entry["carried"], host_role=entry["host_role"],
                     carry_state=entry["carry_state"], carried_by=entry["carried_by"],
                     pot_carried_minor=entry["pot_carried"]))
    chosen = game_of(night.game)
    if chosen.accounts:  # the pot opens with what the club brought in (the replay checked it); rebuild keeps it
        figures.accounts_opened(db, night, dict.fromkeys(chosen.accounts, 0) | {"pot": s["pot_opening"]})
    for seat in entry["seats"]:
        db.add(ClubSeat(session_id=night.id, member_id=member_ids[seat["member_id"]], name=seat["name"]))
    open_rows: list[ClubCarry] = []  # carry rows not yet reversed, oldest first
    for c in entry["carries"]:
        row = ClubCarry(club_id=club.id, session_id=night.id, member_id=member_ids[c["member_id"]],
                        amount_minor=c["amount"], created_at=c["created_at"], kind=c["kind"])
        if c["kind"] == "reversal":  # the replay checked it cancels an earlier carry row
            undone = next(r for r in open_rows if r.member_id == row.member_id and r.amount_minor == -row.amount_minor)
            open_rows.remove(undone)
            row.reverses = undone.id
        db.add(row)
        db.flush()
        if row.kind == "carry":
            open_rows.append(row)
    connection = db.connection()
    for h, result in zip(entry["hands"], results):
        hand_id = connection.execute(_INSERT_HAND, {
            "session_id": night.id, "number": h["number"], "version": h["version"], "dealer": h["dealer"],
            "players": list(h["players"]), "stake_minor": h["stake"], "kind": h["kind"], "entry": dict(h["entry"]),
            "result": result, "redeal": h["redeal"], "status": h["status"], "idempotency_key": h["idempotency_key"],
            "created_at": h["created_at"], "voided_at": h["voided_at"]}).inserted_primary_key[0]
        if result["transfers"]:
            connection.execute(_INSERT_TRANSFERS, [
                {"hand_id": hand_id, "payer": t["from"], "payee": t["to"], "amount_minor": t["amount"]}
                for t in result["transfers"]])
    for p in entry["payments"]:
        db.add(Payment(session_id=night.id, payer=p["payer"], payee=p["payee"], amount_minor=p["amount"],
                       status=p["status"], kind=p["kind"], created_at=p["created_at"], voided_at=p["voided_at"]))
    figures.rebuild(db, night)  # written whole, not change by change: the kept figures from them
    for e in entry["history"]:
        db.add(AuditEvent(session_id=night.id, action=e["action"], actor_role=e["actor_role"],
                          device=e["device"] or "", hand_number=e["hand_number"], detail=dict(e["detail"] or {}),
                          created_at=e["at"]))
    return {night.id: night_token}


def export_csv(db: Session, club: Club, table: str) -> str:
    """One CSV table of the club (one of :data:`CLUB_CSV_TABLES`; ``ValueError`` otherwise),
    text cells that a spreadsheet would run as a formula prefixed with ``'``."""
    cur = club.currency
    members = {m.id: m.name for m in members_of(db, club)}
    if table == "members":
        owed = balances(db, club)
        return _csv(["id", "name", "balance_minor", f"balance_{cur}"],
                    ([mid, name, owed[name], format_plain(owed[name], cur)] for mid, name in members.items()))
    if table == "nights":
        return _csv(["id", "name", "started_at", "closed_at", "status", "carried"],
                    ([n.id, n.name, _at(n.created_at), _at(n.closed_at) or "", n.status, carried_of(n, link)]
                     for n, link in nights_of(db, club)))
    if table == "results":
        rows = []
        for night, link in nights_of(db, club):
            seated = seat_members(db, club, night)
            finals = ledger_night.balances(db, night)
            for name, amount in finals.items():
                member = seated.get(name)
                rows.append([night.id, night.name, _at(night.created_at), member.id if member else "",
                             member.name if member else name, amount, format_plain(amount, cur),
                             night.status, carried_of(night, link)])
        return _csv(["night", "night_name", "started_at", "member_id", "member", "net_minor", f"net_{cur}",
                     "status", "carried"], rows)
    if table == "carries":
        return _csv(["night", "member_id", "member", "amount_minor", f"amount_{cur}", "at"],
                    ([c.session_id, c.member_id, members[c.member_id], c.amount_minor,
                      format_plain(c.amount_minor, cur), _at(c.created_at)]
                     for c in db.exec(select(ClubCarry).where(ClubCarry.club_id == club.id).order_by(ClubCarry.id))))
    if table == "payments":
        return _csv(["id", "status", "from", "to", "amount_minor", f"amount_{cur}", "recorded_at"],
                    ([p.id, p.status, members[p.payer_id], members[p.payee_id], p.amount_minor,
                      format_plain(p.amount_minor, cur), _at(p.created_at)] for p in payments_of(db, club)))
    if table == "history":
        return _csv(["at", "action", "role", "detail"],
                    ([_at(e.created_at), e.action, e.actor_role, json.dumps(e.detail, ensure_ascii=False, sort_keys=True)]
                     for e in db.exec(select(ClubEvent).where(ClubEvent.club_id == club.id).order_by(ClubEvent.id))))
    raise ValueError(f"no CSV table {table!r}; choose one of {', '.join(CLUB_CSV_TABLES)}")
