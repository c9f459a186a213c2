"""Why each line of a club's plan: the nights whose carries made up the payer's debt
(:mod:`ledger.settlement.allocation`, the same rule as a night's lines and its hands).

A member's balance is what their carried nights left them plus the club payments (see
:mod:`ledger.clubs.carry`); here the nights are the losses: each payer's most recent nights that
carried a debt, taken whole while they stay within what the payer owes and the next in part, and
money paid to the payer beyond what they were owed as the newest. Amounts are ``int`` minor units.
"""
from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from ledger.settlement.allocation import Event, Loss, explain
from ledger.storage.club_models import Club, ClubCarry, ClubNight, ClubPayment
from ledger.clubs.pot import POT, owed_pot
from ledger.clubs.handles import club_transfer_hand_offs
from ledger.clubs.roster import members_of
from ledger.storage.models import GameSession
from ledger.settlement.plan import SettlementPlan, settle


def explained_plan(db: Session, club: Club) -> tuple[SettlementPlan, tuple[tuple[Loss, ...], ...]]:
    """The club's plan (the fewest transfers that clear its running balances, as
    :func:`ledger.clubs.books.settlement_plan`) and, for each transfer, the nights (``kind``
    ``"night"``, keyed by session id) and payments (``"payment"``, keyed by id) that explain it,
    summing exactly to its amount. Balances, plan and reasons come from one read of the club's
    carries and payments, so they always agree."""
    names = {m.id: m.name for m in members_of(db, club)}
    balances = dict.fromkeys(names.values(), 0)
    by_night: dict[str, dict[str, int]] = {}
    for carry in db.exec(select(ClubCarry).where(ClubCarry.club_id == club.id)):
        name = names[carry.member_id]
        balances[name] += carry.amount_minor
        nets = by_night.setdefault(carry.session_id, {})
        nets[name] = nets.get(name, 0) + carry.amount_minor
    events: list[Event] = []
    payments = db.exec(select(ClubPayment).where(ClubPayment.club_id == club.id, ClubPayment.status == "counted")
                       .order_by(ClubPayment.id))  # type: ignore[arg-type]
    for payment in payments:
        payer, payee = names[payment.payer_id], names[payment.payee_id]
        balances[payer] += payment.amount_minor
        balances[payee] -= payment.amount_minor
        events.append(("payment", int(payment.id or 0), {payer: payment.amount_minor, payee: -payment.amount_minor}))
    order = db.exec(select(GameSession.id).join(ClubNight, ClubNight.session_id == GameSession.id)
                    .where(ClubNight.club_id == club.id).order_by(GameSession.created_at, GameSession.id))
    newest_first = events[::-1] + [("night", night, by_night[night]) for night in reversed(list(order))
                                   if any(by_night.get(night, {}).values())]  # an undone carry explains nothing
    pot = owed_pot(db, club)
    if pot:  # the pot is a party: its lines say who puts its money in (TONGITS.md §4.9, ledger.clubs.pot)
        balances[POT] = pot
    plan = settle(balances)
    return plan, explain(plan.transfers, newest_first)


def explained_plan_json(db: Session, club: Club) -> dict[str, Any]:
    """The club's ``settlement`` as ``GET /api/v1/clubs/{id}`` shows it: ``{transfers:
    [{from, to, amount, because: [{session_id, amount}], pay?}], transfer_count, minimal}``; a reason
    that is money paid to the payer beyond what they were owed is ``{payment, amount}``; ``pay``:
    the payee member's hand-offs that fit the club's currency, ``[{kind, url?, qr_payload?}]``
    (:func:`ledger.clubs.handles.club_transfer_hand_offs`, issue 22), absent when there is none."""
    plan, because = explained_plan(db, club)
    body = plan.to_json()
    for transfer, losses in zip(body["transfers"], because):
        transfer["because"] = [loss.to_json("session_id" if loss.kind == "night" else None) for loss in losses]
    for transfer, offers in zip(body["transfers"], club_transfer_hand_offs(db, club, body["transfers"])):
        if offers:  # absent when the payee keeps no handle that fits (the shape before issue 22)
            transfer["pay"] = [offer.to_json() for offer in offers]
    return body
