"""Voiding a hand of a night whose dealer rule does not read the hands and whose game keeps no
account (Tonk), in one write transaction of five statements after the request's one read
(issue 24): the night's row locked; the hand marked void, when it counts, and read back in the
same ``UPDATE … RETURNING``; the
night's count of hands taken down with who deals next read in the same ``UPDATE … RETURNING``
(the last counted hand as the void leaves it); the players' figures moved back by the hand's
stored net; the audit event. The answer's totals are what these statements wrote.

Errors as :func:`ledger.night.lifecycle.void_hand_kept`: :class:`NightError` 404
``hand_not_found``, 409 ``session_closed``."""
from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, update
from sqlmodel import Session

from ledger.access.roles import Actor
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.night import figures
from ledger.night.audit import audit
from ledger.night.reads import get_hand, uncount_and_next_dealer
from ledger.storage.models import GameSession, Hand, utcnow

HANDS = Hand.__table__  # type: ignore[attr-defined]
# the hand made void when it counts, read back whole: the check and the change in one statement,
# after the night's row is locked (each statement then reads what committed before the lock)
_VOID_COUNTED = (update(HANDS)
                 .where(HANDS.c.session_id == bindparam("night"), HANDS.c.number == bindparam("hand_number"),
                        HANDS.c.status == "counted")
                 .values(status="voided", voided_at=bindparam("voided_now"))
                 .returning(*HANDS.c))


def void_counted_hand(
    db: Session, night: GameSession, number: int, actor: Actor, undo: bool
) -> tuple[Hand, dict[str, Any] | None]:
    """Void hand ``number`` (inside the caller's write transaction, which this commits):
    ``(hand, {"next_dealer", "session_net"})``, or ``(hand, None)`` when it was void already."""
    night = figures.lock(db, night)  # a change of this night waits here; what follows reads after it
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; its hands can no longer change."))
    row = db.connection().execute(_VOID_COUNTED, {"night": night.id, "hand_number": number, "voided_now": utcnow()}).first()
    if row is None:  # void already (or no such hand: 404)
        return get_hand(db, night, number), None
    hand = Hand(**row._mapping)
    dealer = uncount_and_next_dealer(db, night) if hand.kind not in figures.NOT_A_HAND else None
    nets = figures.hand_voided_as_stored(db, night, hand)
    audit(db, night, actor, "hand_voided", hand_number=number,
          before={"status": "counted", "net": hand.result.get("net")}, after={"status": "voided"},
          **({"undo": True} if undo else {}))
    db.commit()
    return hand, {"next_dealer": dealer, "session_net": nets}
