"""A club member's payment handles (issue 22), kept once for every club night
(:func:`ledger.night.handles.payee_handles` falls back on them); read only through this club's tokens.

Who may set them: the owner (any member), or the member's own device (a ``member`` device key
whose phone joined under that member's name, :attr:`ClubKey.label`). A viewer is refused (403).
"""
from __future__ import annotations

from typing import Any, Mapping

from sqlmodel import Session, select

from ledger.clubs.roster import ClubActor, club_event, get_member
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.names import name_key
from ledger.night.handles import HandleRefused
from ledger.settlement.handoffs import HandleError, HandOff, clean_handles, hand_offs
from ledger.storage.club_models import Club, ClubKey, ClubMember
from ledger.storage.db import begin_write

NOT_YOUR_MEMBER = N_("A member's phone can set only its own payment handles; ask the club's owner.")


def member_handles(db: Session, club: Club, member_id: int) -> dict[str, Any]:
    """``{"member_id", "name", "handles": {kind: value}}``; 404 ``member_not_found``."""
    member = get_member(db, club, member_id)
    return {"member_id": member.id, "name": member.name, "handles": dict(member.handles or {})}


def may_set_handles(db: Session, actor: ClubActor, member: ClubMember) -> bool:
    """Whether ``actor`` may replace ``member``'s handles: the owner, or the member's own device
    (a ``device`` key labelled with the member's name, :func:`ledger.names.name_key`)."""
    if not actor.can("handles"):
        return False
    if actor.role == "owner":
        return True
    key = db.get(ClubKey, actor.key_id) if actor.key_id is not None else None
    return key is not None and key.kind == "device" and bool(key.label) and name_key(key.label) == name_key(member.name)


def set_member_handles(db: Session, club: Club, member_id: int, raw: Mapping[str, Any],
                       actor: ClubActor) -> dict[str, Any]:
    """Replace member ``member_id``'s handles with ``raw`` (checked, :func:`clean_handles`);
    committed with a ``member_handles_set`` event naming the kinds. 403 ``role_forbidden`` (a
    viewer, another member's phone), 404 ``member_not_found``, 422 ``invalid_handle``."""
    actor.require("handles")
    member = get_member(db, club, member_id)
    if not may_set_handles(db, actor, member):
        raise NightError(403, "role_forbidden", NOT_YOUR_MEMBER, "member_id")
    try:
        handles = clean_handles(raw)
    except HandleError as err:
        raise HandleRefused(err) from None
    begin_write(db)
    member.handles = handles or None
    db.add(member)
    club_event(db, club, actor, "member_handles_set", member_id=member.id, kinds=sorted(handles))
    db.commit()
    return {"member_id": member.id, "name": member.name, "handles": dict(handles)}


CLUB_NOTE = "Tonk Ledger · {club}"
"""The note of a club transfer's hand-off: the product's name (a brand, the same in every
language) and the club's name, as a night's names its game and the night."""


def club_payment_note(club: Club) -> str:
    """``"Tonk Ledger · Friday club"``: the note a club transfer's hand-offs carry."""
    return CLUB_NOTE.format(club=club.name)


def club_transfer_hand_offs(db: Session, club: Club, transfers: list[dict[str, Any]]) -> list[list[HandOff]]:
    """The hand-offs of each transfer ``{"from", "to", "amount"}`` (minor units) of the club's plan
    (:func:`ledger.clubs.books.settlement_plan`): the payee member's handles that fit the club's
    currency (:func:`ledger.settlement.handoffs.hand_offs`, the same as a night's), with the exact
    amount and the note "Tonk Ledger · <club name>"; none for the pot or a member keeping no
    handles. One query for every member's handles, whatever the number of nights."""
    handles = {name: dict(kept) for name, kept in db.exec(
        select(ClubMember.name, ClubMember.handles).where(ClubMember.club_id == club.id)) if kept}
    note = club_payment_note(club)
    return [hand_offs(handles[t["to"]], club.currency, t["amount"], note, t["to"]) if t["to"] in handles else []
            for t in transfers]
