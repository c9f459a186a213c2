"""Renaming a seat of a club night (:func:`ledger.night.seating.rename_player`, club-aware), and
seating a newcomer at one (:func:`ledger.night.seating.sit_in`, club-aware).

A rename fixes how a seat is written; the seat keeps its club member and so its money
(:func:`ledger.clubs.carry.seat_member_ids` follows the rename). A name that belongs to another
member of the club is refused: the night would show that member's name on money the club
books to someone else, and the member could not be seated under their own name any more. A
new name (sitting in, or a rename) that looks like a member's is refused too
(:func:`ledger.clubs.roster.refuse_look_alike`): the table could take the one for the other.
"""
from __future__ import annotations

from sqlmodel import Session

from ledger.night import seating
from ledger.access.roles import SYSTEM, Actor
from ledger.clubs.carry import club_night, seat_member_ids
from ledger.clubs.roster import find_club, member_by_name, refuse_look_alike
from ledger.i18n import N_
from ledger.storage.models import GameSession
from ledger.names import clean_name, normalise_name
from ledger.night.lifecycle import MAX_NAME
from ledger.games.tonk import HandError
from ledger.night.timeline import seat_order


def sit_in(db: Session, night: GameSession, name: str, after: str | None = None,
           actor: Actor = SYSTEM) -> seating.SeatingChange:
    """:func:`ledger.night.seating.sit_in`, and for a club night the club's check first. Raises what
    it raises, and :class:`HandError` 422 ``duplicate_player`` (field ``name``) when a name new
    to the night is no member's but looks like one (:func:`~ledger.clubs.roster.refuse_look_alike`)."""
    link = club_night(db, night)
    if link is not None and isinstance(name, str):
        club = find_club(db, link.club_id)
        assert club is not None
        try:
            cleaned = clean_name(name, "name", MAX_NAME)
        except HandError:
            cleaned = ""  # not a name: the sit-in refuses it
        if cleaned and cleaned not in seat_order(night):  # one who left comes back under their own name
            refuse_look_alike(db, club, cleaned, "name")
    return seating.sit_in(db, night, name, after, actor)


def rename_player(db: Session, night: GameSession, old: str, new: str, actor: Actor = SYSTEM) -> GameSession:
    """:func:`ledger.night.seating.rename_player`, and for a club night the club's check inside the
    same transaction. Raises what it raises, and :class:`HandError` 422 ``duplicate_player``
    (field ``to``) when ``new`` is the name of a club member other than the seat's own, or looks
    like one (:func:`~ledger.clubs.roster.refuse_look_alike`)."""
    link = club_night(db, night)
    if link is None:
        return seating.rename_player(db, night, old, new, actor)
    club = find_club(db, link.club_id)
    assert club is not None
    seat = normalise_name(old) if isinstance(old, str) else ""
    if seat in seat_order(night):  # else the rename refuses it (unknown_player)
        by_name = seat_member_ids(db, night)
        own = by_name.get(seat)  # None for a seat that sat in later: its member is found at closing
        target = member_by_name(db, club, new) if isinstance(new, str) else None
        # a guest who sat in may be named as a member who is not at the table
        named_free = own is None and target is not None and target.id not in by_name.values()
        if target is not None and target.id != own and not named_free:
            raise HandError("duplicate_player",
                            N_("{name} is another member of {club}; a rename keeps the seat's money with its own "
                               "member. Seat {name} on their own, or pick another name."),
                            "to", name=target.name, club=club.name)
        if target is None and isinstance(new, str):
            try:
                cleaned = clean_name(new, "to", MAX_NAME)
            except HandError:
                cleaned = ""  # not a name: the rename refuses it
            if cleaned:
                refuse_look_alike(db, club, cleaned, "to", besides=own)
    return seating.rename_player(db, night, old, new, actor)
