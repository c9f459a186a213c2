"""A club, its roster and its keys: create a club, find it by token, add and rename members.

Roles (as at a night): the ``owner`` may do everything (correct the roster, void payments, see
the links again), a ``member`` starts and records nights and records payments, a ``viewer``
only reads. The owner's token is random; the member and viewer tokens and the table code are
derived from it with HMAC (as :mod:`ledger.access.roles` does for a night), and only SHA-256 hashes
are stored. A member keeps one id across renames; two members of a club cannot share a display
name under the seats' rule (:func:`ledger.names.name_key`: NFC, trimmed, casefolded, dotted and
dotless i as i), and a new name cannot look like a member's (:func:`ledger.names.look_alike`:
the same UTS #39 confusable skeleton, as Cyrillic "Dее" and "Dee").
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import or_
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.access import roles as access
from ledger.access.roles import AccessDenied
from ledger.storage.club_models import Club, ClubEvent, ClubKey, ClubMember
from ledger.storage.db import begin_write
from ledger.i18n import LANGUAGES, N_
from ledger.money import minor_digits
from ledger.names import clean_name, look_alike, look_alike_pair, name_key, normalise_name
from ledger.money import UNKNOWN_CURRENCY
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.night.zones import DEFAULT_ZONE, is_known_zone

CLUB_ROLES = ("owner", "member", "viewer")
MAX_MEMBER_NAME = 80
CLUB_PERMISSIONS: dict[str, frozenset[str]] = {
    "owner": frozenset({"read", "start_night", "pay", "void_payment", "roster", "rename", "share", "keys", "carry",
                        "uncarry", "settings", "handles"}),
    "member": frozenset({"read", "start_night", "pay", "roster", "handles"}),
    "viewer": frozenset({"read"}),
}
NIGHT_ROLE = {"owner": "host", "member": "player", "viewer": "viewer"}  # a club role at the club's nights


class ClubAccessDenied(AccessDenied):
    """The club token's role may not do ``action`` (HTTP 403 ``role_forbidden``)."""

    refusals = {
        ("member", "void_payment"): N_("A club member cannot void payments; ask the club's owner."),
        ("member", "rename"): N_("A club member cannot rename members; ask the club's owner."),
        ("member", "share"): N_("A club member cannot share the club's links; ask the club's owner."),
        ("member", "carry"): N_("A club member cannot carry a night into the club's balances; ask the club's owner."),
        ("member", "uncarry"): N_("A club member cannot undo a carried night; ask the club's owner."),
        ("member", "settings"): N_("A club member cannot change the club's settings; ask the club's owner."),
        ("viewer", "carry"): N_("A club viewer cannot carry a night into the club's balances; ask the club's owner."),
        ("viewer", "uncarry"): N_("A club viewer cannot undo a carried night; ask the club's owner."),
        ("viewer", "settings"): N_("A club viewer cannot change the club's settings; ask the club's owner."),
        ("member", "keys"): N_("A club member cannot remove devices or renew the club's links; ask the club's owner."),
        ("viewer", "start_night"): N_("A club viewer cannot start a night; ask the club's owner."),
        ("viewer", "pay"): N_("A club viewer cannot record payments; ask the club's owner."),
        ("viewer", "void_payment"): N_("A club viewer cannot void payments; ask the club's owner."),
        ("viewer", "roster"): N_("A club viewer cannot add members or change them; ask the club's owner."),
        ("viewer", "handles"): N_("A club viewer cannot set payment handles; ask the club's owner."),
        ("viewer", "rename"): N_("A club viewer cannot rename members; ask the club's owner."),
        ("viewer", "share"): N_("A club viewer cannot share the club's links; ask the club's owner."),
        ("viewer", "keys"): N_("A club viewer cannot remove devices or renew the club's links; ask the club's owner."),
    }
    other_refusal = N_("Club role {role} cannot do {action}; ask the club's owner.")


@dataclass(frozen=True, slots=True)
class ClubActor:
    """Who acts on a club: ``role`` (owner, member, viewer) and the key used."""

    role: str
    key_id: int | None = None

    def can(self, action: str) -> bool:
        return action in CLUB_PERMISSIONS.get(self.role, frozenset())

    def require(self, action: str) -> None:
        """Raises :class:`ClubAccessDenied` unless this role may do ``action``."""
        if not self.can(action):
            raise ClubAccessDenied(self.role, action)


CLUB_SYSTEM = ClubActor("owner")


@dataclass(frozen=True, slots=True)
class ClubSecrets:
    """A club's secrets as only its owner sees them."""

    owner_token: str
    member_token: str
    viewer_token: str
    table_code: str

    def for_role(self, role: str) -> str:
        return {"owner": self.owner_token, "member": self.member_token, "viewer": self.viewer_token}[role]


def club_secrets(owner_token: str, club_id: str) -> ClubSecrets:
    """The member and viewer tokens and the table code derived from the owner's token."""
    scope = f"club:{club_id}"
    return ClubSecrets(
        owner_token=owner_token,
        member_token=access.derived_token(owner_token, scope, "member"),
        viewer_token=access.derived_token(owner_token, scope, "viewer"),
        table_code=access.derived_code(owner_token, scope),
    )


def club_code_hash(code: str) -> str:
    return access.hash_secret("club-code:" + access.normalise_code(code))


def club_event(db: Session, club: Club, actor: ClubActor, action: str, **detail: Any) -> None:
    """Add a club audit event (the caller commits with the change it describes)."""
    db.add(ClubEvent(club_id=club.id, action=action, actor_role=actor.role, detail=detail))


def create_club(db: Session, *, name: str, currency: str, timezone: str = DEFAULT_ZONE,
                members: Sequence[str] = (), carry_needs_owner: bool = True) -> tuple[Club, str]:
    """Open a club and return it with the owner's secret token (committed). With
    ``carry_needs_owner`` (the default) a night a member hosts carries into the club's balances
    only when the owner says so (:func:`ledger.clubs.carry.carry_night`).

    Raises :class:`HandError` ``invalid_entry`` naming ``name``, ``currency`` (not an ISO 4217
    code), ``timezone`` (not an IANA name) or ``members[i]`` (a bad or repeated name).
    """
    name = clean_name(name, "name", 120)
    currency = currency.upper()
    try:
        minor_digits(currency)
    except ValueError:
        raise HandError("invalid_entry", UNKNOWN_CURRENCY, "currency", code=repr(currency)) from None
    if not is_known_zone(timezone):
        raise HandError("invalid_entry", N_("The time zone must be an IANA name such as Europe/Paris."), "timezone")
    cleaned = [clean_name(m, f"members[{i}]", MAX_MEMBER_NAME) for i, m in enumerate(members)]
    alike = look_alike_pair(cleaned)
    if alike is not None:
        index, other = alike
        if name_key(other) == name_key(cleaned[index]):
            raise HandError("duplicate_player", N_("{name} and {other} are the same name in a club; give members "
                                                   "names that are easy to tell apart."), f"members[{index}]",
                            name=cleaned[index], other=other)
        raise member_look_alike(cleaned[index], other, f"members[{index}]")
    for _attempt in range(5):
        begin_write(db)
        token = access.new_host_token()
        club = Club(id=secrets.token_urlsafe(9), name=name, currency=currency, timezone=timezone,
                    carry_needs_owner=carry_needs_owner)
        db.add(club)
        db.flush()
        add_keys(db, club, club_secrets(token, club.id))
        for member in cleaned:
            db.add(ClubMember(club_id=club.id, name=member, name_key=name_key(member)))
        club_event(db, club, CLUB_SYSTEM, "club_created", after={
            "name": name, "currency": currency, "timezone": timezone, "members": cleaned,
            "carry_needs_owner": carry_needs_owner})
        try:
            db.commit()
        except IntegrityError:  # a table code shared with another club: draw new secrets
            db.rollback()
            continue
        return club, token
    raise RuntimeError("could not draw unique club secrets")


def set_carry_needs_owner(db: Session, club: Club, value: bool, actor: ClubActor) -> Club:
    """The owner sets the club's ``carry_needs_owner`` (committed; audited
    ``club_settings_changed`` with before/after). Raises :class:`ClubAccessDenied` (403
    ``role_forbidden``) unless the owner."""
    actor.require("settings")
    if club.carry_needs_owner is value:
        return club
    begin_write(db)
    before = club.carry_needs_owner
    club.carry_needs_owner = value
    db.add(club)
    club_event(db, club, actor, "club_settings_changed", before={"carry_needs_owner": before},
               after={"carry_needs_owner": value})
    db.commit()
    return club


def add_keys(db: Session, club: Club, keys: ClubSecrets) -> None:
    """Store the hashed secrets of a club (the caller commits)."""
    for role in CLUB_ROLES:
        db.add(ClubKey(club_id=club.id, role=role, kind="link", secret_hash=access.hash_secret(keys.for_role(role)),
                       label=f"{role} link"))
    db.add(ClubKey(club_id=club.id, role="member", kind="code", secret_hash=club_code_hash(keys.table_code),
                   label="table code"))


def actor_for(db: Session, club: Club, token: str | None) -> ClubActor | None:
    """The :class:`ClubActor` a bearer token makes of its holder at ``club``, or ``None``."""
    if not token:
        return None
    key = db.exec(select(ClubKey).where(ClubKey.secret_hash == access.hash_secret(token))).first()
    if key is None or key.club_id != club.id or key.kind not in ("link", "device") or key.revoked_at is not None:
        return None
    return ClubActor(key.role, key.id)


def is_owner_link(db: Session, club: Club, token: str | None) -> bool:
    """Whether ``token`` is the club's own owner token (the one its links derive from)."""
    if not token:
        return False
    key = db.exec(select(ClubKey).where(ClubKey.secret_hash == access.hash_secret(token))).first()
    return (key is not None and key.club_id == club.id and key.kind == "link" and key.role == "owner"
            and key.revoked_at is None)


def join_by_code(db: Session, code: str, label: str = "") -> tuple[Club, str] | None:
    """Exchange a typed club table code for a member token of this phone's own (committed), or
    ``None`` when no club has that code."""
    key = db.exec(select(ClubKey).where(ClubKey.secret_hash == club_code_hash(code), ClubKey.kind == "code")).first()
    if key is None or key.revoked_at is not None:
        return None
    club = db.get(Club, key.club_id)
    if club is None:
        return None
    token = secrets.token_urlsafe(24)
    begin_write(db)
    db.add(ClubKey(club_id=club.id, role="member", kind="device", secret_hash=access.hash_secret(token),
                   label=(label or "phone")[:120]))
    db.commit()
    return club, token


def members_of(db: Session, club: Club) -> list[ClubMember]:
    """The roster in the order members joined."""
    return list(db.exec(select(ClubMember).where(ClubMember.club_id == club.id).order_by(ClubMember.id)))


def member_by_name(db: Session, club: Club, name: str) -> ClubMember | None:
    """The member called ``name``: the one with exactly that (normalised) name, else the one
    whose :func:`name_key` it has. (Two members of a club that had both "Ali" and "Alı" before
    İ and ı were read as i keep their own keys, migration 0007: each is found by their name.)"""
    cleaned = normalise_name(name)
    found = list(db.exec(select(ClubMember).where(
        ClubMember.club_id == club.id, or_(ClubMember.name == cleaned, ClubMember.name_key == name_key(cleaned)))
        .order_by(ClubMember.id)))  # type: ignore[arg-type]
    return next((m for m in found if m.name == cleaned), found[0] if found else None)


def look_alike_member(db: Session, club: Club, name: str, besides: int | None = None) -> ClubMember | None:
    """The first member (other than member ``besides``) a table could take ``name`` for
    (:func:`ledger.names.look_alike`: the same name key or UTS #39 skeleton), or ``None``.
    Reads the whole roster in one query."""
    members = [m for m in members_of(db, club) if m.id != besides]
    other = look_alike(name, [m.name for m in members])
    return next(m for m in members if m.name == other) if other is not None else None


def refuse_look_alike(db: Session, club: Club, name: str, field: str, besides: int | None = None) -> None:
    """Raise :class:`HandError` 422 ``duplicate_player`` naming ``field`` when the (cleaned)
    ``name`` is not a member's (:func:`member_by_name`) but looks like one other than member
    ``besides`` (:func:`look_alike_member`): a night must not seat Cyrillic "Dее" beside the
    club's "Dee"."""
    if member_by_name(db, club, name) is None:
        alike = look_alike_member(db, club, name, besides)
        if alike is not None:
            raise member_look_alike(name, alike.name, field)


def member_look_alike(name: str, other: str, field: str) -> HandError:
    """The refusal (422 ``duplicate_player``, naming ``field``) of a new name ``name`` that looks
    like the member ``other`` (:func:`look_alike_member`)."""
    return HandError("duplicate_player", N_("{name} looks like {other}, a member of this club; give members names "
                                            "that are easy to tell apart."), field, name=name, other=other)


def get_member(db: Session, club: Club, member_id: int) -> ClubMember:
    """Raises :class:`NightError` 404 ``member_not_found``."""
    member = db.get(ClubMember, member_id)
    if member is None or member.club_id != club.id:
        raise NightError(404, "member_not_found", N_("This club has no member {member_id}."), "member_id",
                         member_id=member_id)
    return member


def join_roster(db: Session, club: Club, name: str, actor: ClubActor, field: str = "name") -> ClubMember:
    """The member called ``name`` (by :func:`name_key`), added to the roster when new. Inside
    the caller's write transaction (it commits). Raises :class:`HandError` ``invalid_entry``."""
    cleaned = clean_name(name, field, MAX_MEMBER_NAME)
    member = member_by_name(db, club, cleaned)
    if member is None:
        member = ClubMember(club_id=club.id, name=cleaned, name_key=name_key(cleaned))
        db.add(member)
        db.flush()
        club_event(db, club, actor, "member_added", after={"id": member.id, "name": cleaned})
    return member


def add_member(db: Session, club: Club, name: str, actor: ClubActor,
               language: str | None = None) -> tuple[ClubMember, bool]:
    """Add ``name`` to the roster (committed) → ``(member, created)``; an existing member by
    that name (:func:`ledger.names.name_key`) is returned with ``created`` False (and its language untouched).
    ``language``: the new member's statement language (:func:`checked_language`). Raises
    :class:`ClubAccessDenied` for a viewer, :class:`HandError` ``invalid_entry`` for a bad name
    or language, ``duplicate_player`` (field ``name``) for a new name that looks like a member's
    (:func:`look_alike_member`)."""
    actor.require("roster")
    language = checked_language(language)
    cleaned = clean_name(name, "name", MAX_MEMBER_NAME)
    existing = member_by_name(db, club, cleaned)
    if existing is None:
        begin_write(db)
        db.exec(select(Club).where(Club.id == club.id).with_for_update()).one()  # queues adds (PostgreSQL)
        existing = member_by_name(db, club, cleaned)  # under the lock: another phone may have just added them
        if existing is not None:
            db.rollback()
    if existing is not None:
        return existing, False
    alike = look_alike_member(db, club, cleaned)
    if alike is not None:
        db.rollback()
        raise member_look_alike(cleaned, alike.name, "name")
    member = join_roster(db, club, name, actor)
    if language is not None:
        member.language = language
        db.add(member)
    db.commit()
    return member, True


def rename_member(db: Session, club: Club, member_id: int, new_name: str, actor: ClubActor) -> ClubMember:
    """Give a member a new display name (committed); they keep their id, balance and history.
    Raises :class:`NightError` 404 ``member_not_found``, :class:`HandError` ``duplicate_player``
    (field ``name``) when another member already has that name or one it looks like
    (:func:`look_alike_member`); :class:`ClubAccessDenied` unless owner."""
    actor.require("rename")
    member = get_member(db, club, member_id)
    cleaned = clean_name(new_name, "name", MAX_MEMBER_NAME)
    other = member_by_name(db, club, cleaned)
    if other is not None and other.id != member.id:
        raise HandError("duplicate_player", N_("{name} is already a member of this club; "
                                               "choose a name that is easy to tell apart."), "name", name=other.name)
    alike = look_alike_member(db, club, cleaned, besides=member.id) if cleaned != member.name else None
    if alike is not None:
        raise member_look_alike(cleaned, alike.name, "name")
    begin_write(db)
    before = member.name
    member.name, member.name_key = cleaned, name_key(cleaned)
    db.add(member)
    club_event(db, club, actor, "member_renamed", before={"id": member.id, "name": before},
               after={"id": member.id, "name": cleaned})
    db.commit()
    return member


def find_club(db: Session, club_id: str) -> Club | None:
    return db.get(Club, club_id)


def member_json(member: ClubMember) -> dict[str, Any]:
    """``{id, name}`` of a member, with ``language`` (a catalogue code) only when the member has
    chosen one: a member without one follows the reader's language."""
    shown: dict[str, Any] = {"id": member.id, "name": member.name}
    if member.language:
        shown["language"] = member.language
    return shown


def checked_language(language: str | None) -> str | None:
    """``language`` if it is a catalogue code (a key of :data:`ledger.i18n.LANGUAGES`), ``None``
    for ``None`` or ``""`` (follow the reader). Raises :class:`HandError` ``invalid_entry``
    (field ``language``) for anything else."""
    if language is None or language == "":
        return None
    if language not in LANGUAGES:
        raise HandError("invalid_entry", N_("Choose a language from the list: {codes}."), "language",
                        codes=", ".join(LANGUAGES))
    return language


def set_member_language(db: Session, club: Club, member_id: int, language: str | None,
                        actor: ClubActor) -> ClubMember:
    """Write member ``member_id``'s season statements in ``language`` from now on (``None``:
    in the reader's language); committed, with a ``member_language_set`` event. Owner or
    member. Raises :class:`NightError` 404 ``member_not_found``, :class:`HandError`
    ``invalid_entry`` (field ``language``), :class:`ClubAccessDenied` for a viewer."""
    actor.require("roster")
    language = checked_language(language)
    member = get_member(db, club, member_id)
    if member.language == language:
        return member
    begin_write(db)
    before = member.language
    member.language = language
    db.add(member)
    club_event(db, club, actor, "member_language_set", before={"id": member.id, "language": before},
               after={"id": member.id, "language": language})
    db.commit()
    return member
