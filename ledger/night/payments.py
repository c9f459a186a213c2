"""Money handed over at settle-up: payments (partial amounts allowed, voided by the host),
what is still owed after them, and the plan that clears it (RULES.md §8, settlement).

Amounts are ``int`` minor units. What is owed is kept by :mod:`ledger.night.figures` in the
transaction of each payment, under the night's row lock, so two phones cannot both pay one debt.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Mapping

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.night import figures
from ledger.access.roles import SYSTEM, Actor
from ledger.settlement.allocation import Event, Loss, explain
from ledger.night.audit import audit
from ledger.storage.club_models import Club, ClubNight
from ledger.storage.db import begin_write
from ledger.errors import NightError
from ledger.games import game as game_of
from ledger.i18n import N_
from ledger.night.idempotency import check_idempotency_key, replay
from ledger.storage.models import GameSession, Hand, HandTransfer, Payment, utcnow
from ledger.money import format_plain, is_points
from ledger.names import normalise_name
from ledger.settlement.plan import SettlementPlan, settle_after_payments
from ledger.night.timeline import seat_order
from ledger.transfers import Transfer

MAX_PAYMENT_MINOR = 10**15  # far above any night's balance, below 2**53
MAX_EXACT_TOTAL = 2**53 - 1  # the largest integer JavaScript reads exactly

HANDS = Hand.__table__  # type: ignore[attr-defined]
TRANSFERS = HandTransfer.__table__  # type: ignore[attr-defined]
# the transfers of the counted hands numbered low < number <= high: a range of the hand index
_HAND_TRANSFERS = (core_select(HANDS.c.number, TRANSFERS.c.payer, TRANSFERS.c.payee, TRANSFERS.c.amount_minor)
                   .select_from(HANDS.join(TRANSFERS, TRANSFERS.c.hand_id == HANDS.c.id))
                   .where(HANDS.c.session_id == bindparam("night"), HANDS.c.status == "counted",
                          HANDS.c.number > bindparam("low"), HANDS.c.number <= bindparam("high")))
_LAST_NUMBER = core_select(GameSession.__table__.c.last_hand_number).where(  # type: ignore[attr-defined]
    GameSession.__table__.c.id == bindparam("night"))  # type: ignore[attr-defined]
REASON_BATCH = 64  # hands read at a time, newest first, while explaining the plan


def payments_of(db: Session, night: GameSession) -> list[Payment]:
    return list(db.exec(select(Payment).where(Payment.session_id == night.id).order_by(Payment.id)))


def outstanding(db: Session, night: GameSession) -> dict[str, int]:
    """What is still owed after the payments made so far: the running net, plus what each
    player has paid, minus what each has received (minor units, sums to 0; kept by
    :mod:`ledger.night.figures`)."""
    return figures.outstanding(db, night)


def check_money(currency: str) -> None:
    """A settle-up, payment or hand-off needs money: a night or club kept in points
    (:data:`ledger.money.POINTS`, issue 25) has none. Raises :class:`NightError` 409
    ``points_only``."""
    if is_points(currency):
        raise NightError(409, "points_only", N_("This table keeps points, not money: there is nothing to pay or "
                                                "settle up."), "currency")


def carried_into(db: Session, night: GameSession) -> Club | None:
    """The club a closed night's balances were carried into (its settle-up is then the
    club's), or ``None``: a night outside clubs, still open, or settled in cash."""
    if night.status != "closed":  # only a closed night carries: no read for an open one
        return None
    link = db.get(ClubNight, night.id, populate_existing=True)
    if link is None or link.carried is not True:
        return None
    return db.get(Club, link.club_id)


def _refuse_if_carried(db: Session, night: GameSession) -> None:
    """:class:`NightError` 409 ``night_carried`` when the night's balances went into its club."""
    club = carried_into(db, night)
    if club is not None:
        name = club.name
        db.rollback()  # ends the write transaction: nothing was changed
        raise NightError(409, "night_carried", N_("The debts of this night were carried into the balances of {club}; "
                                                  "pay them there, not on this night."),
                         None, club=name)


def record_payment(
    db: Session, night: GameSession, payer: str, payee: str, amount_minor: int, actor: Actor = SYSTEM,
    *, confirm: bool = False, idempotency_key: str | None = None,
) -> tuple[Payment, bool]:
    """:func:`record_payment_kept` without what is left outstanding: ``(payment, created)``."""
    payment, created, _left = record_payment_kept(db, night, payer, payee, amount_minor, actor, confirm=confirm,
                                                  idempotency_key=idempotency_key)
    return payment, created


def record_payment_kept(
    db: Session, night: GameSession, payer: str, payee: str, amount_minor: int, actor: Actor = SYSTEM,
    *, confirm: bool = False, idempotency_key: str | None = None,
) -> tuple[Payment, bool, dict[str, int] | None]:
    """Record money handed over at settle-up (partial amounts allowed); the plan shrinks.
    Returns ``(payment, created, outstanding)``: ``outstanding`` is what each player still owes
    (< 0) or is owed (> 0) once this payment counts (:func:`outstanding`, minor units, seat
    order), worked out from what was read under the night's lock and the payment, so the
    answer needs no read after the commit; ``None`` for a replay.
    Returns ``(payment, created)``: ``created`` is False when the same request was already
    recorded under ``idempotency_key`` (a double tap, a retry after a lost answer; the stored
    payment is returned and nothing is written, whatever has happened since).

    Without ``confirm`` the payment must be owed: the payer still owes at least
    ``amount_minor`` and the payee is still owed at least that much (what is ``outstanding``).
    Anyone who sat at the night may pay or be paid, seated now or not. Raises
    :class:`NightError` 422 ``invalid_payment`` (field ``from``/``to``/``amount``) for a player
    who never sat, paying oneself, a non-positive amount, or one that would take a total
    past ±(2**53 − 1) (what JavaScript reads exactly); 422 ``overpayment`` (field ``from`` when
    the payer owes nothing, ``to`` when the payee is owed nothing, else ``amount``; with
    ``owes`` and ``owed``, minor units) for an unconfirmed payment beyond what is owed;
    409 ``points_only`` for a night kept in points (nothing to pay); 409 ``night_carried`` once
    the night's balances were carried into its club
    (:func:`carried_into`; payments made before closing stay); 422 ``invalid_entry`` (field
    ``Idempotency-Key``) for a key that is not 1 to 200 printable ASCII characters, 409
    ``idempotency_key_reused`` (with the ``existing`` payment) for a key already used by another
    request; :class:`AccessDenied` for a viewer.
    """
    actor.require("pay")
    check_money(night.currency)
    check_idempotency_key(idempotency_key)
    payer, payee = normalise_name(payer), normalise_name(payee)
    for field, name in (("from", payer), ("to", payee)):
        if name not in seat_order(night):
            raise NightError(422, "invalid_payment", N_("{name} did not sit at this table."), field, name=name)
    if payer == payee:
        raise NightError(422, "invalid_payment", N_("A player cannot pay themselves."), "to")
    if type(amount_minor) is not int or not 0 < amount_minor <= MAX_PAYMENT_MINOR:
        raise NightError(422, "invalid_payment", N_("A payment must be a positive amount, and not absurdly large."), "amount")
    # the session row's lock queues concurrent payments, so two phones cannot both pay one debt.
    # The key is not looked up first (issue 24): a retry or a twin is stopped by the unique key
    # of (night, key), or by a refusal its first made true (the debt is paid now), and answered
    # with the payment stored under it
    try:
        payment, left = _record_new_payment(db, night, payer, payee, amount_minor, actor, confirm, idempotency_key)
    except (NightError, IntegrityError):
        db.rollback()
        stored = payment_by_key(db, night, idempotency_key) if idempotency_key is not None else None
        if stored is None:
            raise
        same = (stored.kind, stored.payer, stored.payee, stored.amount_minor) == ("payment", payer, payee, amount_minor)
        return replay(db, stored, same, payment_json(stored)), False, None
    left = dict(left)  # what figures.payment_counted added to the kept figures, under the lock
    left[payer] += amount_minor
    left[payee] -= amount_minor
    return payment, True, left


def _record_new_payment(
    db: Session, night: GameSession, payer: str, payee: str, amount_minor: int, actor: Actor, confirm: bool,
    idempotency_key: str | None,
) -> tuple[Payment, dict[str, int]]:
    """:func:`record_payment_kept`'s write transaction, its key not looked up first: the payment
    and what was outstanding before it (read under the night's lock; whether its club took its
    balances is read only for a closed night)."""
    begin_write(db)
    night = figures.lock(db, night)
    if night.status == "voided":  # counted nowhere: nothing is owed in it (ledger.night.whole_night)
        raise NightError(409, "session_closed", N_("This night is void: nothing in it is owed, and nothing can change."))
    _refuse_if_carried(db, night)  # read after the lock: its club may have taken its balances
    left = outstanding(db, night)
    _check_owed(night, payer, payee, amount_minor, left, confirm)
    if max(abs(left[payer] + amount_minor), abs(left[payee] - amount_minor)) > MAX_EXACT_TOTAL:
        raise NightError(422, "invalid_payment",
                         N_("That payment would take a balance past what can be kept exactly; check the amount."), "amount")
    payment = Payment(session_id=night.id, payer=payer, payee=payee, amount_minor=amount_minor,
                      idempotency_key=idempotency_key)
    db.add(payment)
    db.flush()
    figures.payment_counted(db, night, payment)
    audit(db, night, actor, "payment_recorded", after=payment_json(payment))
    db.commit()
    return payment, left


def payment_by_key(db: Session, night: GameSession, idempotency_key: str) -> Payment | None:
    """The night's payment stored under ``idempotency_key``, or ``None`` (one indexed read)."""
    return db.exec(select(Payment).where(Payment.session_id == night.id,
                                         Payment.idempotency_key == idempotency_key)).first()


def _check_owed(
    night: GameSession, payer: str, payee: str, amount_minor: int, left: Mapping[str, int], confirm: bool
) -> None:
    """:class:`NightError` 422 ``overpayment`` unless ``confirm`` or the payment is owed."""
    owes, owed = max(-left[payer], 0), max(left[payee], 0)
    if confirm or amount_minor <= min(owes, owed):
        return
    amount = f"{format_plain(amount_minor, night.currency)} {night.currency}"
    extra = {"owes": owes, "owed": owed, "amount": amount_minor}
    params = {"payer": payer, "payee": payee, "amount": amount,
              "owes": f"{format_plain(owes, night.currency)} {night.currency}",
              "owed": f"{format_plain(owed, night.currency)} {night.currency}"}
    if owes == 0:
        template, field = N_("{payer} owes nothing; send confirm to record {amount} anyway."), "from"
    elif owed == 0:
        template, field = N_("{payee} is owed nothing; send confirm to record {amount} anyway."), "to"
    elif amount_minor > owes:
        template, field = N_("{payer} owes only {owes}; send confirm to record {amount} anyway."), "amount"
    else:
        template, field = N_("{payee} is owed only {owed}; send confirm to record {amount} anyway."), "amount"
    raise NightError(422, "overpayment", template, field, extra, **params)


def void_payment(db: Session, night: GameSession, payment_id: int, actor: Actor = SYSTEM) -> Payment:
    """Void a recorded payment (kept, stops counting). Raises :class:`NightError` 404
    ``payment_not_found``, 409 ``night_carried`` (as :func:`record_payment`); :class:`AccessDenied`
    unless host."""
    actor.require("void_payment")
    begin_write(db)
    night = figures.lock(db, night)
    payment = db.get(Payment, payment_id, populate_existing=True)
    if payment is None or payment.session_id != night.id:
        raise NightError(404, "payment_not_found", N_("This night has no payment {id}."), "id", id=payment_id)
    _refuse_if_carried(db, night)
    if payment.status == "voided":
        return payment
    if night.status == "voided":  # kept as it was (ledger.night.whole_night)
        db.rollback()
        raise NightError(409, "session_closed", N_("This night is void: nothing in it is owed, and nothing can change."))
    before = payment_json(payment)
    payment.status = "voided"
    payment.voided_at = utcnow()
    db.add(payment)
    figures.payment_counted(db, night, payment, -1)
    audit(db, night, actor, "payment_voided", before=before, after=payment_json(payment))
    db.commit()
    return payment


def payment_json(payment: Payment) -> dict[str, Any]:
    return {"id": payment.id, "from": payment.payer, "to": payment.payee, "amount": payment.amount_minor,
            "status": payment.status, "kind": payment.kind, "created_at": payment.created_at.isoformat()}


def settlement_plan(db: Session, night: GameSession) -> SettlementPlan:
    """The fewest transfers that clear what is still owed (balances less payments made),
    keeping the earlier suggestions while payments follow them. A night whose game keeps a pot
    (TONGITS.md §4.8) with money in it settles the pot as a party: the players' nets sum to
    minus the pot's balance, and the plan's lines to ``"pot"`` say who puts it in (the
    pot's cash, kept for the rest of the night or carried to the group's next one)."""
    payments = [Transfer(p.payer, p.payee, p.amount_minor) for p in payments_of(db, night) if p.status == "counted"]
    return settle_after_payments(owed_balances(db, night), payments)


def owed_balances(db: Session, night: GameSession) -> dict[str, int]:
    """What the settle-up plan clears: each player's kept net (seat order) and, for a game with
    accounts, what the night moved into each account (Tong-its' ``"pot"``, TONGITS.md §4.8–4.9:
    its balance less what it opened with, a pot the club brought in); the values sum to zero.
    Minor units. A night voided as a whole (:mod:`ledger.night.whole_night`) owes nothing: its
    plan only hands back what was paid at it before the void."""
    owed = figures.balances(db, night)
    if night.status == "voided":
        return dict.fromkeys(owed, 0)
    if game_of(night.game or None).accounts:
        owed |= {name: amount for name, amount in figures.movements(db, night).items() if amount}
    return owed


def explained_settlement(db: Session, night: GameSession) -> tuple[SettlementPlan, tuple[tuple[Loss, ...], ...]]:
    """:func:`settlement_plan` and, for each of its transfers, the losses that explain it
    (:func:`ledger.settlement.allocation.explain`: each payer's most recent losing hands, and money they
    were paid beyond what they were owed, allocated to their lines in order; each share sums to
    its transfer's amount). The hands are read newest first, :data:`REASON_BATCH` at a time, only
    until every payer's debt is made up, so the cost follows what is shown, not the night.

    Plan and hands are separate reads (the database reads each statement afresh): when a change
    committed between them makes them disagree, both are read again."""
    for attempt in range(3):
        counted = [p for p in payments_of(db, night) if p.status == "counted"]
        plan = settle_after_payments(owed_balances(db, night),
                                     [Transfer(p.payer, p.payee, p.amount_minor) for p in counted])
        try:
            return plan, explain(plan.transfers, _events(db, night, counted))
        except ValueError:
            if attempt == 2:
                raise
            db.rollback()
    raise AssertionError("unreachable")


def because_json(because: tuple[Loss, ...]) -> list[dict[str, int | str]]:
    """One transfer's ``because`` on the wire: ``[{"hand": number, "amount": int}]``, and
    ``{"payment": id, "amount": int}`` for money the payer was paid beyond what they were owed."""
    return [loss.to_json() for loss in because]


def _events(db: Session, night: GameSession, counted: list[Payment]) -> Iterator[Event]:
    """What moved the night's balances, newest first: the counted payments (by id), then the
    counted hands (by number), each with every player's net; read lazily, a batch at a time."""
    for payment in reversed(counted):
        yield "payment", int(payment.id or 0), {payment.payer: payment.amount_minor,
                                                payment.payee: -payment.amount_minor}
    high = int(db.connection().execute(_LAST_NUMBER, {"night": night.id}).scalar_one())
    while high > 0:
        low = max(high - REASON_BATCH, 0)
        nets: dict[int, dict[str, int]] = {}
        for number, payer, payee, amount in db.connection().execute(
                _HAND_TRANSFERS, {"night": night.id, "low": low, "high": high}):
            hand = nets.setdefault(int(number), {})
            hand[payer] = hand.get(payer, 0) - int(amount)
            hand[payee] = hand.get(payee, 0) + int(amount)
        for number in sorted(nets, reverse=True):
            yield "hand", number, nets[number]
        high = low
