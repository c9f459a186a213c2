"""A whole club as one JSON document, and back; CSV tables for spreadsheets.

The document (``format: "tonk-ledger-club"``, ``version: 1``) holds the club, its members (ids
as in this server, and each member's statement ``language``: a catalogue code or ``null``;
exports from before issue 10 lack it and import as ``null``), every night with its rows as
stored (every hand version as entered and as scored, the night's payments and history, who sat
as which member, what it carried), the club's payments and its history. Tokens and codes are not in it: :func:`import_club` gives the club and
each night new ones. Balances, standings and statements computed from an imported club equal
the original's, since they are computed from exactly these rows. Amounts are int minor units.

The CSV header rows are machine identifiers (``member_id``, ``net_minor``, ``net_EUR``...) and
stay English in every language, as in :mod:`ledger.export`: scripts and spreadsheets read the
columns by these names. Their cells hold names, codes and figures, no sentences.
"""
from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger import access, figures
from ledger import night as ledger_night
from ledger.clubs.carry import balances, carried_of, nights_of, payments_of, seat_members
from ledger.clubs.import_checks import NOT_READABLE, check_document
from ledger.clubs.models import Club, ClubCarry, ClubEvent, ClubMember, ClubNight, ClubPayment, ClubSeat
from ledger.clubs.roster import add_keys, club_secrets, members_of, name_key
from ledger.names import normalise_name
from ledger.db import begin_write
from ledger.export import _csv
from ledger.i18n import LANGUAGES, N_
from ledger.models import AuditEvent, GameSession, Hand, HandTransfer, Payment
from ledger.money import format_plain
from ledger.rules import HandError
from ledger.settlement import settle

FORMAT = "tonk-ledger-club"
VERSION = 1
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
                "ruleset": night.ruleset, "players": list(night.players), "roster": list(night.roster or []),
                "first_dealer": night.first_dealer, "status": night.status,
                "last_hand_number": night.last_hand_number, "timezone": night.timezone,
                "created_at": _at(night.created_at), "closed_at": _at(night.closed_at),
            },
            "carried": link.carried,
            "seats": [{"member_id": s.member_id, "name": s.name}
                      for s in db.exec(select(ClubSeat).where(ClubSeat.session_id == night.id).order_by(ClubSeat.id))],
            "carries": [{"member_id": c.member_id, "amount": c.amount_minor, "created_at": _at(c.created_at)}
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
                 "created_at": _at(club.created_at)},
        "members": [{"id": m.id, "name": m.name, "created_at": _at(m.created_at), "language": m.language}
                    for m in members_of(db, club)],
        "nights": nights,
        "payments": [{"from_id": p.payer_id, "to_id": p.payee_id, "amount": p.amount_minor, "status": p.status,
                      "created_at": _at(p.created_at), "voided_at": _at(p.voided_at)} for p in payments_of(db, club)],
        "history": [{"action": e.action, "actor_role": e.actor_role, "detail": e.detail, "at": _at(e.created_at)}
                    for e in db.exec(select(ClubEvent).where(ClubEvent.club_id == club.id).order_by(ClubEvent.id))],
    }


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("a time must be an ISO 8601 text")
    return datetime.fromisoformat(value)


def _money(value: Any) -> int:
    if type(value) is not int or abs(value) > ledger_night.MAX_EXACT_TOTAL:
        raise ValueError("an amount must be an integer of minor units")
    return value


def _language(value: Any) -> str | None:
    """A member's statement language from a document: a catalogue code this server has, else
    ``None`` (older exports have none; a language this server lacks follows the reader)."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def import_club(db: Session, document: Mapping[str, Any]) -> tuple[Club, str, dict[str, str]]:
    """Store an exported club as a new club (committed) → ``(club, owner token, {new night id:
    host token})``. Every id is new; times, entries, results, payments and history are kept.
    Raises :class:`HandError` 422 for a document that is not a club export, naming the field
    where it can (:func:`ledger.clubs.import_checks.check_document`), ``invalid_entry`` for one
    whose books do not add up to zero or that repeats what must be unique (a member, a night's
    seat, a hand's version). Nothing is stored unless all of it is."""
    try:
        check_document(document)
    except HandError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _unreadable(exc) from None
    for _attempt in range(3):
        begin_write(db)
        try:
            club, token, night_tokens = _store(db, document)
            settle(balances(db, club))  # books that do not add up are refused before they are kept
            db.commit()
        except IntegrityError:  # a drawn code already used (draw again), or the document repeats itself
            db.rollback()
            continue
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
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


def _store(db: Session, doc: Mapping[str, Any]) -> tuple[Club, str, dict[str, str]]:
    source = doc["club"]
    token = access.new_host_token()
    club = Club(id=secrets.token_urlsafe(9), name=str(source["name"]), currency=str(source["currency"]),
                timezone=str(source.get("timezone") or "UTC"), created_at=_time(source["created_at"]))
    db.add(club)
    db.flush()
    add_keys(db, club, club_secrets(token, club.id))
    member_ids: dict[int, int] = {}
    keys: set[str] = set()
    for row in doc["members"]:
        key = name_key(str(row["name"]))
        if key in keys:  # "Ali" and "Alı" of a club from before İ and ı were read as i (migration 0007)
            key = normalise_name(str(row["name"])).casefold()
        keys.add(key)
        member = ClubMember(club_id=club.id, name=str(row["name"]), name_key=key,
                            created_at=_time(row["created_at"]), language=_language(row.get("language")))
        db.add(member)
        db.flush()
        member_ids[int(row["id"])] = int(member.id or 0)
    night_tokens: dict[str, str] = {}
    for entry in doc["nights"]:
        s = entry["session"]
        night_token = access.new_host_token()
        night = GameSession(
            id=secrets.token_urlsafe(9), name=str(s["name"]), currency=club.currency, stake_minor=_money(s["stake"]),
            ruleset=dict(s["ruleset"]), players=list(s["players"]), roster=list(s["roster"]),
            first_dealer=str(s["first_dealer"]), status=str(s["status"]), last_hand_number=int(s["last_hand_number"]),
            timezone=str(s["timezone"]), created_at=_time(s["created_at"]), closed_at=_time(s["closed_at"]))
        db.add(night)
        db.flush()
        access.add_keys(db, night, access.table_secrets(night_token, night.id))
        night_tokens[night.id] = night_token
        carried = entry["carried"]
        db.add(ClubNight(session_id=night.id, club_id=club.id, carried=None if carried is None else bool(carried)))
        for seat in entry["seats"]:
            db.add(ClubSeat(session_id=night.id, member_id=member_ids[int(seat["member_id"])], name=str(seat["name"])))
        for c in entry["carries"]:
            db.add(ClubCarry(club_id=club.id, session_id=night.id, member_id=member_ids[int(c["member_id"])],
                             amount_minor=_money(c["amount"]), created_at=_time(c["created_at"])))
        for h in entry["hands"]:
            hand = Hand(session_id=night.id, number=int(h["number"]), version=int(h["version"]), dealer=str(h["dealer"]),
                        players=list(h["players"]), stake_minor=_money(h["stake"]), kind=str(h["kind"]),
                        entry=dict(h["entry"]), result=dict(h["result"]), redeal=bool(h["redeal"]),
                        status=str(h["status"]), idempotency_key=h.get("idempotency_key"),
                        created_at=_time(h["created_at"]), voided_at=_time(h.get("voided_at")))
            db.add(hand)
            db.flush()
            for t in hand.result.get("transfers", []):
                db.add(HandTransfer(hand_id=hand.id, payer=str(t["from"]), payee=str(t["to"]),
                                    amount_minor=_money(t["amount"])))
        for p in entry["payments"]:
            db.add(Payment(session_id=night.id, payer=str(p["from"]), payee=str(p["to"]), amount_minor=_money(p["amount"]),
                           status=str(p["status"]), kind=str(p.get("kind") or "payment"),
                           created_at=_time(p["created_at"]), voided_at=_time(p.get("voided_at"))))
        figures.rebuild(db, night)  # written whole, not change by change: the kept figures from them
        for e in entry["history"]:
            db.add(AuditEvent(session_id=night.id, action=str(e["action"]), actor_role=str(e.get("actor_role", "")),
                              device=str(e.get("device") or ""), hand_number=e.get("hand_number"),
                              detail=dict(e.get("detail") or {}), created_at=_time(e["at"])))
    for p in doc.get("payments", []):
        db.add(ClubPayment(club_id=club.id, payer_id=member_ids[int(p["from_id"])], payee_id=member_ids[int(p["to_id"])],
                           amount_minor=_money(p["amount"]), status=str(p["status"]), created_at=_time(p["created_at"]),
                           voided_at=_time(p.get("voided_at"))))
    for e in doc.get("history", []):
        db.add(ClubEvent(club_id=club.id, action=str(e["action"]), actor_role=str(e.get("actor_role", "")),
                         detail=dict(e.get("detail") or {}), created_at=_time(e["at"])))
    db.add(ClubEvent(club_id=club.id, action="club_imported", actor_role="owner",
                     detail={"from": str(source.get("id", ""))}))
    db.flush()
    return club, token, night_tokens


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
