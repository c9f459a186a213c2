"""A night's audit trail: every change writes one event (who: role and which phone; when; what,
before and after) in the transaction of the change; :func:`history` reads them back."""
from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlmodel import Session, select

from ledger.access.roles import Actor
from ledger.storage.db import check_writing
from ledger.storage.models import AuditEvent, GameSession, utcnow

_INSERT_EVENT = insert(AuditEvent.__table__)  # type: ignore[attr-defined]  (prepared once)


def audit(
    db: Session, night: GameSession, actor: Actor, action: str, *, hand_number: int | None = None,
    before: Any = None, after: Any = None, **detail: Any,
) -> None:
    """Write an audit event in the caller's transaction (the caller commits with the change it
    describes; the night's row must be stored already)."""
    body = dict(detail)
    if before is not None:
        body["before"] = before
    if after is not None:
        body["after"] = after
    check_writing(db)
    db.connection().execute(_INSERT_EVENT, {
        "session_id": night.id, "action": action, "actor_role": actor.role, "access_key_id": actor.access_key_id,
        "device": actor.device, "hand_number": hand_number, "detail": body, "created_at": utcnow()})


def history(db: Session, night: GameSession) -> list[AuditEvent]:
    """Every audit event of the session, oldest first."""
    return list(db.exec(select(AuditEvent).where(AuditEvent.session_id == night.id).order_by(AuditEvent.id)))


def audit_json(event: AuditEvent) -> dict[str, Any]:
    return {
        "id": event.id, "action": event.action, "hand_number": event.hand_number,
        "actor_role": event.actor_role, "access_key_id": event.access_key_id, "device": event.device,
        "at": event.created_at.isoformat(), "detail": event.detail,
    }
