"""A club's books: each member's running balance (what carried nights left them, plus what they
paid against it, minus what they were paid; minor units, positive means the club owes them), the
payments made against those balances, and the club's plan that clears them and fills its pot
(:func:`ledger.settlement.plan.settle`, exact up to its bound; the pot: :mod:`ledger.clubs.pot`).
What carries a night into these books is :mod:`ledger.clubs.carry`."""
from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from ledger.clubs.pot import POT, owed_pot
from ledger.clubs.roster import ClubActor, club_event, member_by_name, members_of
from ledger.i18n import N_
from ledger.money import format_plain
from ledger.night.payments import check_money
from ledger.night.idempotency import check_idempotency_key, replay
from ledger.night.lifecycle import MAX_EXACT_TOTAL, MAX_PAYMENT_MINOR, NightError
from ledger.settlement.plan import SettlementPlan, settle
from ledger.storage.club_models import Club, ClubCarry, ClubMember, ClubPayment
from ledger.storage.db import begin_write
from ledger.storage.models import utcnow


def payments_of(db: Session, club: Club) -> list[ClubPayment]:
    return list(db.exec(select(ClubPayment).where(ClubPayment.club_id == club.id).order_by(ClubPayment.id)))


def balances(db: Session, club: Club) -> dict[str, int]:
    """Every member's running balance (minor units, sums to 0), roster order: what carried
    nights left them, plus payments made, minus payments received."""
    members = members_of(db, club)
    by_id = {m.id: m.name for m in members}
    out = {m.name: 0 for m in members}
    for carry in db.exec(select(ClubCarry).where(ClubCarry.club_id == club.id)):
        out[by_id[carry.member_id]] += carry.amount_minor
    for payment in payments_of(db, club):
        if payment.status == "counted":
            out[by_id[payment.payer_id]] += payment.amount_minor
            out[by_id[payment.payee_id]] -= payment.amount_minor
    return out


def owed_balances(db: Session, club: Club) -> dict[str, int]:
    """What the club's plan clears: each member's running balance (:func:`balances`) and, when the
    members owe the pot money (:func:`ledger.clubs.pot.owed_pot`: the club's pot and what its nights
    not carried opened with), ``"pot"`` with it: the values sum to zero
    (minor units). The plan's lines to ``"pot"`` say who puts the pot's money in (the pot keeps it
    for the club's next Tong-its night, TONGITS.md §4.9)."""
    owed = balances(db, club)
    pot = owed_pot(db, club)
    return owed | ({POT: pot} if pot else {})


def settlement_plan(db: Session, club: Club) -> SettlementPlan:
    """The fewest transfers that clear the club's running balances and fill its pot
    (:func:`owed_balances`; exact, ``minimal`` honest)."""
    return settle(owed_balances(db, club))


def record_payment(db: Session, club: Club, payer: str, payee: str, amount_minor: int, actor: ClubActor,
                   *, confirm: bool = False, idempotency_key: str | None = None) -> tuple[ClubPayment, bool]:
    """Record money handed over against the club balances (committed; partial allowed) →
    ``(payment, created)``: ``created`` is False when the same request was already recorded
    under ``idempotency_key`` (the stored payment is returned, nothing is written; another
    request under that key is 409 ``idempotency_key_reused``, a key that is not one 422
    ``invalid_entry``, as for a night's payments, :func:`ledger.night.payments.record_payment`).
    Without ``confirm`` it must be owed: the payer's balance is at least ``amount_minor`` in
    debt and the payee's at least that much in credit. Raises :class:`NightError` 422
    ``invalid_payment`` (field ``from``/``to``/``amount``: not a member, paying oneself, not a
    positive amount, a total past ±(2**53 − 1)), 422 ``overpayment`` (with ``owes``, ``owed``);
    :class:`~ledger.clubs.roster.ClubAccessDenied` for a viewer."""
    actor.require("pay")
    check_money(club.currency)  # a club kept in points pays nothing: 409 points_only
    check_idempotency_key(idempotency_key)
    found: dict[str, ClubMember] = {}
    for field, name in (("from", payer), ("to", payee)):
        if not isinstance(name, str) or not name.strip():  # no name to say "is not a member" of
            raise NightError(422, "invalid_payment",
                             N_("That payment is not complete: choose who paid and who was paid."), field)
        member = member_by_name(db, club, name)
        if member is None:
            raise NightError(422, "invalid_payment", N_("{name} is not a member of this club."), field, name=name)
        found[field] = member
    if found["from"].id == found["to"].id:
        raise NightError(422, "invalid_payment", N_("A member cannot pay themselves."), "to")
    if type(amount_minor) is not int or not 0 < amount_minor <= MAX_PAYMENT_MINOR:
        raise NightError(422, "invalid_payment", N_("A payment must be a positive amount, and not absurdly large."),
                         "amount")
    begin_write(db)
    db.exec(select(Club).where(Club.id == club.id).with_for_update()).one()  # queues concurrent payments
    if idempotency_key is not None:  # under the lock: a twin of this request has finished
        stored = db.exec(select(ClubPayment).where(ClubPayment.club_id == club.id,
                                                   ClubPayment.idempotency_key == idempotency_key)).first()
        if stored is not None:
            same = (stored.payer_id, stored.payee_id, stored.amount_minor) == (found["from"].id, found["to"].id,
                                                                               amount_minor)
            return replay(db, stored, same, payment_json(db, stored)), False
    left = balances(db, club)
    payer_name, payee_name = found["from"].name, found["to"].name
    owes, owed = max(-left[payer_name], 0), max(left[payee_name], 0)
    if not confirm and amount_minor > min(owes, owed):
        db.rollback()
        amount = f"{format_plain(amount_minor, club.currency)} {club.currency}"
        most = f"{format_plain(min(owes, owed), club.currency)} {club.currency}"
        if owes == 0:
            template, field = N_("{payer} owes the club nothing; send confirm to record {amount} anyway."), "from"
        elif owed == 0:
            template, field = N_("{payee} is owed nothing; send confirm to record {amount} anyway."), "to"
        else:
            template, field = N_("At most {most} is owed between {payer} and {payee}; send confirm to record "
                                 "{amount} anyway."), "amount"
        raise NightError(422, "overpayment", template, field, {"owes": owes, "owed": owed, "amount": amount_minor},
                         payer=payer_name, payee=payee_name, amount=amount, most=most)
    if max(abs(left[payer_name] + amount_minor), abs(left[payee_name] - amount_minor)) > MAX_EXACT_TOTAL:
        db.rollback()
        raise NightError(422, "invalid_payment",
                         N_("That payment would take a balance past what can be kept exactly; check the amount."),
                         "amount")
    payment = ClubPayment(club_id=club.id, payer_id=found["from"].id, payee_id=found["to"].id,
                          amount_minor=amount_minor, idempotency_key=idempotency_key)
    db.add(payment)
    db.flush()
    club_event(db, club, actor, "payment_recorded", after=payment_json(db, payment))
    db.commit()
    return payment, True


def void_payment(db: Session, club: Club, payment_id: int, actor: ClubActor) -> ClubPayment:
    """Void a club payment (kept, stops counting; committed). Raises :class:`NightError` 404
    ``payment_not_found``; :class:`~ledger.clubs.roster.ClubAccessDenied` unless owner."""
    actor.require("void_payment")
    payment = db.get(ClubPayment, payment_id)
    if payment is None or payment.club_id != club.id:
        raise NightError(404, "payment_not_found", N_("This club has no payment {payment_id}."), "payment_id",
                         payment_id=payment_id)
    if payment.status == "voided":
        return payment
    begin_write(db)
    before = payment_json(db, payment)
    payment.status, payment.voided_at = "voided", utcnow()
    db.add(payment)
    club_event(db, club, actor, "payment_voided", before=before, after=payment_json(db, payment))
    db.commit()
    return payment


def payment_json(db: Session, payment: ClubPayment) -> dict[str, Any]:
    """``{id, from, to, from_id, to_id, amount, status, created_at}`` (names as they are now)."""
    payer, payee = db.get(ClubMember, payment.payer_id), db.get(ClubMember, payment.payee_id)
    assert payer is not None and payee is not None
    return {"id": payment.id, "from": payer.name, "to": payee.name, "from_id": payer.id, "to_id": payee.id,
            "amount": payment.amount_minor, "status": payment.status, "created_at": payment.created_at.isoformat()}
