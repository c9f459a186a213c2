"""Who may do what at a table: secrets, roles and the short table code.

Roles: ``host`` (everything: record, void, amend, undo, close, change the seating and stake), ``player`` (record hands and
payments, see everything), ``viewer`` (read only). The host's token is random; the player
and viewer link tokens and the table code are derived from it with HMAC, so the host's phone
can always show them again while the database keeps only SHA-256 hashes of every secret.
A phone that joins by typing the table code, or by opening a player or viewer link, gets a
token of its own (a ``device`` key), so the history can say which phone did what and the host
can make that phone a co-host (:mod:`ledger.night.hosts`).

The recovery code (16 characters of :data:`CODE_ALPHABET`, derived from the host token and
the code's generation, or random when a phone without the host token issues it) gives host
rights back on a new phone, once: using it mints that phone a host token of its own and
withdraws the code (:mod:`ledger.night.hosts`). Withdrawn keys keep their row with ``revoked_at`` set:
a withdrawn bearer token answers 401 (:func:`revoked`), a withdrawn code is refused at ``/join``.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session, select

from ledger.storage.db import begin_write
from ledger.i18n import N_
from ledger.sentences import english, render
from ledger.storage.models import AccessKey, GameSession

ROLES = ("host", "player", "viewer")
TOKEN_KINDS = ("link", "device")  # keys whose secret is a bearer token (codes are typed, then exchanged)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 6
RECOVERY_LENGTH = 16  # 80 bits: unguessable, still short enough to copy from paper
SEALED_PREFIX = "sealed:"  # how nights started before one-time codes labelled their recovery key

KEYS = AccessKey.__table__  # type: ignore[attr-defined]
# the key a bearer token opens, by the hash of the token: prepared once (every request runs it)
_KEY_BY_HASH = core_select(KEYS.c.id, KEYS.c.session_id, KEYS.c.role, KEYS.c.kind, KEYS.c.label,
                           KEYS.c.revoked_at).where(KEYS.c.secret_hash == bindparam("hash"))

# what each role may do; reading is open to every role
PERMISSIONS: dict[str, frozenset[str]] = {
    "host": frozenset({"read", "record", "pay", "void", "amend", "undo", "close", "void_payment", "share",
                       "restore", "cohost", "seat", "keys", "handles"}),  # keys: remove phones, new links/codes (ledger.night.hosts)  # seat: sit in, leave, stake, swap seats, rename (ledger.night.seating)
    "player": frozenset({"read", "record", "pay", "handles"}),  # handles: its own player's only (ledger.night.handles)
    "viewer": frozenset({"read"}),
}


# why a role may not do an action, one whole sentence per role and action
ROLE_REFUSALS: dict[tuple[str, str], str] = {
    ("player", "void"): N_("A player cannot void hands; ask the host."),
    ("player", "amend"): N_("A player cannot correct hands; ask the host."),
    ("player", "undo"): N_("A player cannot undo or redo hands; ask the host."),
    ("player", "close"): N_("A player cannot close the night; ask the host."),
    ("player", "void_payment"): N_("A player cannot void payments; ask the host."),
    ("player", "share"): N_("A player cannot share the table's links and codes; ask the host."),
    ("player", "restore"): N_("A player cannot restore voided hands; ask the host."),
    ("player", "cohost"): N_("A player cannot make another phone a host; ask the host."),
    ("player", "seat"): N_("A player cannot change the seats, the stake or the names; ask the host."),
    ("player", "keys"): N_("A player cannot remove phones or change the table's links and codes; ask the host."),
    ("viewer", "record"): N_("A viewer cannot record hands; ask the host."),
    ("viewer", "pay"): N_("A viewer cannot record payments; ask the host."),
    ("viewer", "void"): N_("A viewer cannot void hands; ask the host."),
    ("viewer", "amend"): N_("A viewer cannot correct hands; ask the host."),
    ("viewer", "undo"): N_("A viewer cannot undo or redo hands; ask the host."),
    ("viewer", "close"): N_("A viewer cannot close the night; ask the host."),
    ("viewer", "void_payment"): N_("A viewer cannot void payments; ask the host."),
    ("viewer", "share"): N_("A viewer cannot share the table's links and codes; ask the host."),
    ("viewer", "restore"): N_("A viewer cannot restore voided hands; ask the host."),
    ("viewer", "cohost"): N_("A viewer cannot make another phone a host; ask the host."),
    ("viewer", "seat"): N_("A viewer cannot change the seats, the stake or the names; ask the host."),
    ("viewer", "keys"): N_("A viewer cannot remove phones or change the table's links and codes; ask the host."),
    ("viewer", "handles"): N_("A viewer cannot set payment handles; ask the host."),
}
# a role or action without a sentence of its own: named by their codes
OTHER_REFUSAL = N_("Role {role} cannot do {action}; ask the host.")


class AccessDenied(Exception):
    """The credential's role may not do ``action`` (HTTP 403). ``message`` (and ``str()``) is
    the refusal in the language being written now."""

    refusals: dict[tuple[str, str], str] = ROLE_REFUSALS
    other_refusal: str = OTHER_REFUSAL

    def __init__(self, role: str, action: str) -> None:
        self.role = role
        self.action = action
        self.template = self.refusals.get((role, action), self.other_refusal)
        self.params = {"role": role, "action": action}
        super().__init__(english(self.template, self.params))

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    def __str__(self) -> str:
        return self.message


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


def _grouped_recovery(digest: bytes) -> str:
    raw = "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:RECOVERY_LENGTH])
    return "-".join(raw[i:i + 4] for i in range(0, RECOVERY_LENGTH, 4))


def derived_recovery_code(host_token: str, session_id: str, generation: int = 0) -> str:
    """The session's recovery code of ``generation`` (0 when the night starts or its links are
    renewed, then 1, 2, … for each new code the host's own phone issues), grouped for reading:
    ``ABCD-EFGH-JKLM-NPQR`` (16 characters of :data:`CODE_ALPHABET`; 256 is a multiple of 32,
    so every character is uniform)."""
    purpose = "recovery" if generation == 0 else f"recovery:{generation}"
    return _grouped_recovery(_derive(host_token, purpose, session_id))


def random_recovery_code() -> str:
    """A recovery code derived from nothing (a phone without the host token issues it): shown
    once, never again."""
    return _grouped_recovery(secrets.token_bytes(RECOVERY_LENGTH))


RECOVERY_LABEL = "recovery code"  # a recovery key's label: "recovery code <generation>", or this alone when random


def recovery_label(generation: int | None) -> str:
    return RECOVERY_LABEL if generation is None else f"{RECOVERY_LABEL} {generation}"


def recovery_generation(label: str) -> int | None:
    """The generation :func:`recovery_label` wrote; 0 for a key of a night started before
    generations (its label holds a sealed token); ``None`` for a random code."""
    if label.startswith(SEALED_PREFIX):
        return 0
    tail = label[len(RECOVERY_LABEL):].strip()
    return int(tail) if label.startswith(RECOVERY_LABEL) and tail.isdigit() else None


def recovery_hash(code: str) -> str:
    return hash_secret("recovery:" + normalise_code(code))


@dataclass(frozen=True, slots=True)
class TableSecrets:
    """The secrets of a session as only its host sees them."""

    host_token: str
    player_token: str
    viewer_token: str
    table_code: str
    recovery_code: str = ""

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
        recovery_code=derived_recovery_code(host_token, session_id),
    )


def add_keys(db: Session, night: GameSession, table: TableSecrets) -> None:
    """Store the hashed secrets of a new session (the caller commits)."""
    for role in ROLES:
        db.add(AccessKey(session_id=night.id, role=role, kind="link", secret_hash=hash_secret(table.for_role(role)),
                         label=f"{role} link"))
    db.add(AccessKey(session_id=night.id, role="player", kind="code", secret_hash=code_hash(table.table_code),
                     label="table code"))
    if table.recovery_code:
        db.add(AccessKey(session_id=night.id, role="host", kind="recovery",
                         secret_hash=recovery_hash(table.recovery_code), label=recovery_label(0)))


@dataclass(frozen=True, slots=True)
class HeldKey:
    """The live key a bearer token opens (what :func:`key_for` reads): its ``id`` (which
    phone or link), ``role``, ``kind`` (``link`` or ``device``) and ``label``."""

    id: int
    role: str
    kind: str
    label: str


def key_for(db: Session, night: GameSession, token: str | None) -> HeldKey | None:
    """The live link or device key of ``night`` whose secret is ``token``, else ``None``
    (one indexed read)."""
    if not token:
        return None
    row = db.connection().execute(_KEY_BY_HASH, {"hash": hash_secret(token)}).first()
    if row is None or row.session_id != night.id or row.revoked_at is not None or row.kind not in TOKEN_KINDS:
        return None
    return HeldKey(row.id, row.role, row.kind, row.label)


def revoked(db: Session, night: GameSession, token: str | None) -> bool:
    """Whether ``token`` is a bearer token of ``night`` that was withdrawn (a removed phone, a
    link replaced by new ones): the API answers it 401 ``token_revoked``."""
    if not token:
        return False
    row = db.connection().execute(_KEY_BY_HASH, {"hash": hash_secret(token)}).first()
    return (row is not None and row.session_id == night.id and row.revoked_at is not None
            and row.kind in TOKEN_KINDS)


def live_recovery_code(db: Session, night: GameSession, host_token: str) -> str:
    """The night's recovery code as the holder of the host token can show it again (the host's
    PDF prints it): the live recovery key's code when it derives from ``host_token``, else
    ``""`` (it was used, or a phone without the host token issued it)."""
    key = db.exec(select(AccessKey).where(AccessKey.session_id == night.id, AccessKey.kind == "recovery",
                                          AccessKey.revoked_at.is_(None))  # type: ignore[union-attr]
                  .order_by(AccessKey.id.desc())).first()  # type: ignore[union-attr]
    generation = recovery_generation(key.label) if key is not None else None
    if key is None or generation is None:
        return ""
    code = derived_recovery_code(host_token, night.id, generation)
    return code if recovery_hash(code) == key.secret_hash else ""


def is_host_link(db: Session, night: GameSession, token: str | None) -> bool:
    """Whether ``token`` is the night's own host token (the one its links and codes derive
    from), not a co-host's device token."""
    key = key_for(db, night, token)
    return key is not None and key.kind == "link" and key.role == "host"


def device_token_for_link(db: Session, night: GameSession, link_token: str, label: str) -> str | None:
    """A token of this phone's own for a player or viewer link (committed), so the history can
    tell the phones apart and the host can make this one a co-host; ``None`` when the link
    is not a player or viewer link of ``night``."""
    key = key_for(db, night, link_token)
    if key is None or key.kind != "link" or key.role == "host":
        return None
    token = secrets.token_urlsafe(24)
    begin_write(db)
    db.add(AccessKey(session_id=night.id, role=key.role, kind="device", secret_hash=hash_secret(token),
                     label=(label or "phone")[:120]))
    db.commit()
    return token


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
    begin_write(db)
    db.add(AccessKey(session_id=night.id, role="player", kind="device", secret_hash=hash_secret(token),
                     label=(device or "phone")[:120]))
    db.commit()
    return night, token

