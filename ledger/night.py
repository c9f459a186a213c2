"""One night's ledger: open a game session, record and void hands, balances, settle-up, close.

This is the layer the JSON API, the phone pages and the CLI share. It calls the rules engine
(:mod:`ledger.rules`) and the settlement (:mod:`ledger.settlement`) and stores their results;
no rule is computed here. All amounts are ``int`` minor units.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.models import AuditEvent, GameSession, Hand, HandTransfer, utcnow
from ledger.report import HandLine, SessionReport
from ledger.rules import HandError, HandResult, RuleSet, parse_hand, score_hand
from ledger.rules.describe import describe_hand
from ledger.rules.validation import check_table
from ledger.settlement import SettlementPlan, settle

MAX_NAME = 80


class NightError(Exception):
    """A request the ledger refuses for a reason outside the rules: ``status`` is the HTTP
    status (404 unknown hand, 409 closed session...), ``code``/``message``/``field`` as in
    :class:`~ledger.rules.HandError`."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, str | None]:
        return {"error": self.code, "message": self.message, "field": self.field}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(night: GameSession, token: str | None) -> bool:
    """Whether ``token`` is this session's secret (constant-time comparison)."""
    if not token:
        return False
    return hmac.compare_digest(night.token_hash, hash_token(token))


def rules_of(night: GameSession) -> RuleSet:
    """The rule set frozen into the session when it started (never re-read from presets)."""
    return RuleSet.from_snapshot(night.ruleset)


# -- opening -------------------------------------------------------------------------------------
def create_night(
    db: Session,
    *,
    name: str,
    currency: str,
    stake_minor: int,
    rules: RuleSet,
    players: Sequence[str],
    first_dealer: str | None = None,
) -> tuple[GameSession, str]:
    """Open a session and return it with its secret token (shown once, stored hashed).

    ``players`` are in seat order (clockwise). ``first_dealer`` defaults to the first seat.
    Raises :class:`HandError` (``too_few_players``, ``too_many_players``, ``duplicate_player``,
    ``invalid_stake``, ``unknown_player`` for a first dealer who is not seated).
    """
    seated = tuple(p.strip() for p in players)
    for index, player in enumerate(seated):
        if not player or len(player) > MAX_NAME:
            raise HandError(
                "invalid_entry", f"Player names must be 1 to {MAX_NAME} characters.", f"players[{index}]"
            )
    check_table(rules, seated)
    if type(stake_minor) is not int or stake_minor <= 0:
        raise HandError("invalid_stake", "The stake must be a positive amount.", "stake")
    dealer = seated[0] if first_dealer is None else first_dealer.strip()
    if dealer not in seated:
        raise HandError("unknown_player", f"The first dealer {dealer} is not seated.", "first_dealer")
    token = secrets.token_urlsafe(24)
    night = GameSession(
        id=secrets.token_urlsafe(9),
        name=name.strip(),
        currency=currency,
        stake_minor=stake_minor,
        ruleset=rules.snapshot(),
        players=list(seated),
        first_dealer=dealer,
        token_hash=hash_token(token),
    )
    db.add(night)
    db.flush()
    db.add(AuditEvent(session_id=night.id, action="session_created", detail={
        "name": night.name, "players": night.players, "stake_minor": stake_minor,
        "currency": currency, "ruleset": night.ruleset,
    }))
    db.commit()
    return night, token


def find_night(db: Session, session_id: str) -> GameSession | None:
    return db.get(GameSession, session_id)


# -- recording ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Submission:
    """What a phone or API client sends for one hand: the §8.1 ``outcome``, ``hands`` and
    ``side_bets`` (raw JSON), optional ``dealer`` and idempotency key."""

    outcome: Any
    hands: Any
    side_bets: Any = None
    dealer: str | None = None
    idempotency_key: str | None = None

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome, "hands": self.hands}
        if self.side_bets is not None:
            out["side_bets"] = self.side_bets
        return out


def preview_hand(night: GameSession, submission: Submission) -> HandResult:
    """Score a hand under the session's rules without storing it.

    Raises :class:`HandError` exactly as recording would.
    """
    record = parse_hand(
        players=tuple(night.players),
        stake=night.stake_minor,
        outcome=submission.outcome,
        hands=submission.hands,
        side_bets=submission.side_bets,
    )
    return score_hand(rules_of(night), record)


def record_hand(db: Session, night: GameSession, submission: Submission) -> tuple[Hand, bool]:
    """Check, score and store one hand in a single transaction.

    Returns ``(hand, created)``; ``created`` is False when the idempotency key was already
    used in this session (the stored hand is returned and nothing new is written).
    Raises :class:`HandError` (422) for an entry the rules refuse, :class:`NightError` 409
    ``session_closed`` when the night is closed.
    """
    if submission.idempotency_key:
        existing = _by_idempotency_key(db, night, submission.idempotency_key)
        if existing is not None:
            return existing, False
    if night.status != "open":
        raise NightError(409, "session_closed", "This night is closed; no more hands can be recorded.")
    result = preview_hand(night, submission)
    dealer = submission.dealer if submission.dealer is not None else next_dealer(db, night)
    if dealer not in night.players:
        raise HandError("unknown_player", f"The dealer {dealer} is not seated at this table.", "dealer")
    stored_result = result.to_json() | {"detail": result.detail, "counts": result.counts}
    try:
        number = _take_hand_number(db, night)
        hand = Hand(
            session_id=night.id,
            number=number,
            dealer=dealer,
            kind=result.kind,
            entry=submission.entry(),
            result=stored_result,
            redeal=result.redeal,
            idempotency_key=submission.idempotency_key or None,
        )
        db.add(hand)
        db.flush()
        for t in result.transfers:
            db.add(HandTransfer(hand_id=hand.id, payer=t.payer, payee=t.payee, amount_minor=t.amount_minor))
        db.add(AuditEvent(session_id=night.id, action="hand_recorded", hand_number=number, detail={
            "after": {"dealer": dealer, "entry": hand.entry, "net": result.net},
        }))
        db.commit()
    except IntegrityError:
        db.rollback()
        if submission.idempotency_key:
            existing = _by_idempotency_key(db, night, submission.idempotency_key)
            if existing is not None:
                return existing, False
        raise
    return hand, True


def _take_hand_number(db: Session, night: GameSession) -> int:
    """Bump the session's hand counter; the row lock (or SQLite's write lock) serialises
    concurrent recorders so numbers stay unique and contiguous."""
    statement = (
        update(GameSession)
        .where(GameSession.id == night.id, GameSession.status == "open")
        .values(last_hand_number=GameSession.last_hand_number + 1)
        .returning(GameSession.last_hand_number)
    )
    number = db.exec(statement).scalar_one_or_none()  # type: ignore[call-overload]
    if number is None:
        db.rollback()
        raise NightError(409, "session_closed", "This night is closed; no more hands can be recorded.")
    return int(number)


def _by_idempotency_key(db: Session, night: GameSession, key: str) -> Hand | None:
    return db.exec(
        select(Hand).where(Hand.session_id == night.id, Hand.idempotency_key == key)
    ).first()


def void_hand(db: Session, night: GameSession, number: int) -> Hand:
    """Void hand ``number``: it is kept (shown struck through) and stops counting.

    Voiding a voided hand changes nothing. Raises :class:`NightError` 404 ``hand_not_found``,
    409 ``session_closed``.
    """
    hand = get_hand(db, night, number)
    if night.status != "open":
        raise NightError(409, "session_closed", "This night is closed; its hands can no longer change.")
    if hand.status == "voided":
        return hand
    hand.status = "voided"
    hand.voided_at = utcnow()
    db.add(hand)
    db.add(AuditEvent(session_id=night.id, action="hand_voided", hand_number=number, detail={
        "before": {"status": "counted"}, "after": {"status": "voided"},
    }))
    db.commit()
    return hand


def close_night(db: Session, night: GameSession) -> GameSession:
    """Close the night: no more hands or voids. Closing twice changes nothing."""
    if night.status == "closed":
        return night
    night.status = "closed"
    night.closed_at = utcnow()
    db.add(night)
    db.add(AuditEvent(session_id=night.id, action="session_closed", detail={
        "net": balances(db, night),
    }))
    db.commit()
    return night


# -- reading ---------------------------------------------------------------------------------------
def get_hand(db: Session, night: GameSession, number: int) -> Hand:
    hand = db.exec(select(Hand).where(Hand.session_id == night.id, Hand.number == number)).first()
    if hand is None:
        raise NightError(404, "hand_not_found", f"This night has no hand number {number}.", "number")
    return hand


def hands_of(db: Session, night: GameSession) -> list[Hand]:
    return list(db.exec(select(Hand).where(Hand.session_id == night.id).order_by(Hand.number)))


def transfers_by_hand(db: Session, night: GameSession) -> dict[int, list[HandTransfer]]:
    rows = db.exec(
        select(HandTransfer, Hand.id).join(Hand, HandTransfer.hand_id == Hand.id)  # type: ignore[arg-type]
        .where(Hand.session_id == night.id).order_by(HandTransfer.id)
    )
    out: dict[int, list[HandTransfer]] = {}
    for transfer, hand_id in rows:
        out.setdefault(hand_id, []).append(transfer)
    return out


def balances(db: Session, night: GameSession) -> dict[str, int]:
    """Each player's running net over the counted hands, seat order, minor units (sums to 0)."""
    net = {p: 0 for p in night.players}
    rows = db.exec(
        select(HandTransfer.payer, HandTransfer.payee, func.sum(HandTransfer.amount_minor))
        .join(Hand, HandTransfer.hand_id == Hand.id)  # type: ignore[arg-type]
        .where(Hand.session_id == night.id, Hand.status == "counted")
        .group_by(HandTransfer.payer, HandTransfer.payee)
    )
    for payer, payee, amount in rows:
        net[payer] -= int(amount)
        net[payee] += int(amount)
    return net


def hand_count(db: Session, night: GameSession) -> int:
    """Counted hands, redeals included."""
    return int(db.exec(
        select(func.count()).select_from(Hand).where(Hand.session_id == night.id, Hand.status == "counted")
    ).one())


def next_dealer(db: Session, night: GameSession) -> str:
    """Who deals next (RULES.md §2): one seat clockwise from the dealer of the last counted
    hand, redeals included; the first dealer when no hand counts yet."""
    last = db.exec(
        select(Hand.dealer).where(Hand.session_id == night.id, Hand.status == "counted")
        .order_by(Hand.number.desc())  # type: ignore[attr-defined]
    ).first()
    if last is None:
        return night.first_dealer
    seats = night.players
    return seats[(seats.index(last) + 1) % len(seats)] if last in seats else night.first_dealer


def settlement_plan(db: Session, night: GameSession) -> SettlementPlan:
    """The fewest transfers that clear the current balances."""
    return settle(balances(db, night))


def build_report(db: Session, night: GameSession) -> SessionReport:
    """The read model a PDF summary renders."""
    lines = []
    for hand in hands_of(db, night):
        net = hand.result.get("net", {})
        lines.append(HandLine(
            number=hand.number,
            dealer=hand.dealer,
            outcome_text=describe_hand(hand.entry.get("outcome", {}), hand.result),
            winners=tuple(hand.result.get("winners", [])),
            amounts_minor={p: int(net.get(p, 0)) for p in night.players},
            redeal=hand.redeal,
            voided=hand.status == "voided",
        ))
    net = balances(db, night)
    plan = settle(net)
    rules = rules_of(night)
    return SessionReport(
        name=night.name,
        currency=night.currency,
        stake_minor=night.stake_minor,
        preset=rules.preset,
        created_at=night.created_at,
        players=tuple(night.players),
        hands=tuple(lines),
        net_minor=net,
        settlement=plan.transfers,
        settlement_minimal=plan.minimal,
        rules_lines=tuple(f"{k} = {v}" for k, v in rules.differences().items()),
    )


def session_json(db: Session, night: GameSession) -> dict[str, Any]:
    """The session as the API shows it: every amount an int in minor units."""
    return {
        "id": night.id,
        "name": night.name,
        "currency": night.currency,
        "stake": night.stake_minor,
        "ruleset": night.ruleset,
        "players": list(night.players),
        "first_dealer": night.first_dealer,
        "status": night.status,
        "created_at": night.created_at.isoformat(),
        "closed_at": night.closed_at.isoformat() if night.closed_at else None,
        "net": balances(db, night),
        "hand_count": hand_count(db, night),
        "next_dealer": next_dealer(db, night),
    }


def hand_json(hand: Hand, transfers: Sequence[HandTransfer] | None = None) -> dict[str, Any]:
    """A stored hand as the API shows it."""
    result: Mapping[str, Any] = hand.result
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "status": hand.status,
        "outcome": hand.entry.get("outcome"),
        "hands": hand.entry.get("hands"),
        "side_bets": hand.entry.get("side_bets"),
        "description": describe_hand(hand.entry.get("outcome", {}), result),
        "transfers": list(result.get("transfers", [])),
        "net": dict(result.get("net", {})),
        "redeal": bool(result.get("redeal")),
        "winners": list(result.get("winners", [])),
        "created_at": hand.created_at.isoformat(),
        "voided_at": hand.voided_at.isoformat() if hand.voided_at else None,
    }
