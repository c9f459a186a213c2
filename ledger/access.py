"""Who may do what at a table: secrets, roles and the short table code.

Roles: ``host`` (everything: record, void, amend, undo, close, change the seating and stake), ``player`` (record hands and
payments, see everything), ``viewer`` (read only). The host's token is random; the player
and viewer link tokens and the table code are derived from it with HMAC, so the host's phone
can always show them again while the database keeps only SHA-256 hashes of every secret.
A phone that joins by typing the table code gets a token of its own, so the history can say
which phone did what.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlmodel import Session, select

from ledger.models import AccessKey, GameSession

ROLES = ("host", "player", "viewer")
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 6

# what each role may do; reading is open to every role
PERMISSIONS: dict[str, frozenset[str]] = {
    "host": frozenset({"read", "record", "pay", "void", "amend", "undo", "close", "void_payment", "share",
                       "seat"}),  # seat: sit in, leave, stake, swap seats, rename (ledger.seating)
    "player": frozenset({"read", "record", "pay"}),
    "viewer": frozenset({"read"}),
}


class AccessDenied(Exception):
    """The credential's role may not do ``action`` (HTTP 403)."""

    def __init__(self, role: str, action: str) -> None:
        super().__init__(f"A {role} cannot {action.replace('_', ' ')}; ask the host.")
        self.role = role
        self.action = action


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: ``role``, the ``access_key_id`` they used (which phone/link), and a
    short ``device`` description (browser or client) for the history."""

    role: str
    access_key_id: int | None = None
    device: str = ""

    def can(self, action: str) -> bool:
        return action in PERMISSIONS.get(self.role, frozenset())

    def require(self, action: str) -> None:
        """Raises :class:`AccessDenied` unless this role may do ``action``."""
        if not self.can(action):
            raise AccessDenied(self.role, action)


SYSTEM = Actor("host", None, "system")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def normalise_code(code: str) -> str:
    return "".join(code.upper().split()).replace("-", "")


def _derive(host_token: str, purpose: str, session_id: str) -> bytes:
    return hmac.new(host_token.encode(), f"{purpose}:{session_id}".encode(), hashlib.sha256).digest()


def derived_token(host_token: str, session_id: str, role: str) -> str:
    """The player or viewer link token of a session, from its host token."""
    return base64.urlsafe_b64encode(_derive(host_token, role, session_id)).decode().rstrip("=")[:32]


def derived_code(host_token: str, session_id: str) -> str:
    """The session's short table code (6 characters of :data:`CODE_ALPHABET`)."""
    digest = _derive(host_token, "code", session_id)
    return "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:CODE_LENGTH])


def code_hash(code: str) -> str:
    return hash_secret("code:" + normalise_code(code))


@dataclass(frozen=True, slots=True)
class TableSecrets:
    """The secrets of a session as only its host sees them."""

    host_token: str
    player_token: str
    viewer_token: str
    table_code: str

    def for_role(self, role: str) -> str:
        return {"host": self.host_token, "player": self.player_token, "viewer": self.viewer_token}[role]


def new_host_token() -> str:
    return secrets.token_urlsafe(24)


def table_secrets(host_token: str, session_id: str) -> TableSecrets:
    return TableSecrets(
        host_token=host_token,
        player_token=derived_token(host_token, session_id, "player"),
        viewer_token=derived_token(host_token, session_id, "viewer"),
        table_code=derived_code(host_token, session_id),
    )


def add_keys(db: Session, night: GameSession, table: TableSecrets) -> None:
    """Store the hashed secrets of a new session (the caller commits)."""
    for role in ROLES:
        db.add(AccessKey(session_id=night.id, role=role, kind="link", secret_hash=hash_secret(table.for_role(role)),
                         label=f"{role} link"))
    db.add(AccessKey(session_id=night.id, role="player", kind="code", secret_hash=code_hash(table.table_code),
                     label="table code"))


def key_for(db: Session, night: GameSession, token: str | None) -> AccessKey | None:
    """The live link or device key of ``night`` whose secret is ``token``, else ``None``."""
    if not token:
        return None
    key = db.exec(select(AccessKey).where(AccessKey.secret_hash == hash_secret(token))).first()
    if key is None or key.session_id != night.id or key.revoked_at is not None or key.kind == "code":
        return None
    return key


def actor_for(db: Session, night: GameSession, token: str | None, device: str = "") -> Actor | None:
    """The :class:`Actor` a token makes of its bearer at ``night``, or ``None``."""
    key = key_for(db, night, token)
    if key is None:
        return None
    # a phone that joined by code is known by the name it joined with
    return Actor(key.role, key.id, (key.label if key.kind == "device" else device)[:120])


def join_by_code(db: Session, code: str, device: str = "") -> tuple[GameSession, str] | None:
    """Exchange a typed table code for a new player token for this phone (committed), or
    ``None`` when no open session has that code."""
    key = db.exec(
        select(AccessKey).where(AccessKey.secret_hash == code_hash(code), AccessKey.kind == "code")
    ).first()
    if key is None or key.revoked_at is not None:
        return None
    night = db.get(GameSession, key.session_id)
    if night is None or night.status != "open":
        return None
    token = secrets.token_urlsafe(24)
    db.add(AccessKey(session_id=night.id, role="player", kind="device", secret_hash=hash_secret(token),
                     label=(device or "phone")[:120]))
    db.commit()
    return night, token

