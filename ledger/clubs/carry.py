"""Nights inside a club, and carrying what they leave into the club's books.

A night started inside a club takes the club's currency and seats members from the roster (a
new name joins it; a name that matches a member under :func:`ledger.names.name_key` sits under
that member's display name). Closing it says what happens to what is still owed after the night's
payments (:func:`ledger.night.lifecycle.outstanding`): settled in cash (nothing carries) or carried into
the club's running balances, one :class:`~ledger.storage.club_models.ClubCarry` per member.

The running balances those carries make, the payments against them and the club's plan are the
club's books (:mod:`ledger.clubs.books`).

The club's pot (:attr:`~ledger.storage.club_models.Club.pot_minor`, TONGITS.md §4.9 ``pot_at_end:
carry``): a Tong-its night whose close left its pot in the pot account carries that balance into
the club's pot with its balances (same transaction, same owner's say; undoing the carry takes it
back), and the club's next Tong-its night opens with it (state ``{balance: pot, holder: null,
streak: 0}``), emptying the club's pot in the transaction that creates the night. The members'
balances plus the club's pot plus what the club's nights not carried opened with sum to zero, and
the club's plan owes the pot that (:mod:`ledger.clubs.pot`). A night settled in cash settles what
its pot moved in cash (the night's settle-up) and leaves the club's pot as it was.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import bindparam, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.night import lifecycle as ledger_night
from ledger.access.roles import Actor
from ledger.storage.club_models import Club, ClubCarry, ClubMember, ClubNight, ClubSeat
from ledger.clubs.pot import pot_in_nights
from ledger.clubs.books import balances
from ledger.clubs.reasons import explained_plan_json
from ledger.clubs.roster import (ClubActor, club_event, join_roster, member_by_name, member_json, members_of,
                                 NIGHT_ROLE, refuse_look_alike)
from ledger.storage.db import begin_write
from ledger.i18n import N_
from ledger.storage.models import AuditEvent, GameSession
from ledger.names import clean_name
from ledger.money import is_points
from ledger.night.lifecycle import NightError
from ledger.games import DEFAULT_GAME, Rules
from ledger.games.tonk import HandError, RuleSet
from ledger.night.timeline import seat_order

_CLUBS = Club.__table__  # type: ignore[attr-defined]
_ADD_POT = update(_CLUBS).where(_CLUBS.c.id == bindparam("club")).values(
    pot_minor=_CLUBS.c.pot_minor + bindparam("delta"))


def club_night(db: Session, night: GameSession) -> ClubNight | None:
    """The night's club link, or ``None`` for a night outside clubs."""
    return db.get(ClubNight, night.id)


def seat_names(db: Session, club: Club, players: Sequence[str]) -> list[str]:
    """``players`` with each name that matches a member (:func:`ledger.names.name_key`) replaced by the member's
    display name, so a night seats the same person under one name."""
    out = []
    for name in players:
        member = member_by_name(db, club, name) if isinstance(name, str) else None
        out.append(member.name if member is not None else name)
    return out


def start_night(
    db: Session, club: Club, actor: ClubActor, *, name: str, currency: str | None, stake_minor: int,
    rules: RuleSet | Rules, players: Sequence[str], first_dealer: str | None, timezone: str | None,
    game: str = DEFAULT_GAME,
) -> tuple[GameSession, str]:
    """Open a night inside ``club`` (see :func:`ledger.night.lifecycle.create_night`) and return it with
    its host token. Members sit from the roster; new names join it. A club plays either game
    (``game``: Tonk or Tong-its; money is money). A Tong-its night opens with the club's pot
    (:attr:`Club.pot_minor`, what earlier nights carried: TONGITS.md §4.8, no holder) and empties
    it, in the transaction that creates the night (:func:`take_pot`); its rules may carry its own
    pot at the close (``pot_at_end`` ``carry``, TONGITS.md §4.9). Raises
    :class:`HandError` 422 ``invalid_entry`` naming ``currency`` when another currency than the
    club's is given, ``duplicate_player`` naming ``players[i]`` for a new name that looks like a
    member's (:func:`~ledger.clubs.roster.refuse_look_alike`), and whatever
    :func:`~ledger.night.lifecycle.create_night` raises;
    :class:`~ledger.clubs.roster.ClubAccessDenied` for a viewer."""
    actor.require("start_night")
    if currency is not None and currency.upper() != club.currency:
        raise HandError("invalid_entry", N_("This club plays in {currency}; a club night cannot use {other}."),
                        "currency", currency=club.currency, other=currency.upper())
    seated = seat_names(db, club, players)
    for index, seat in enumerate(seated):
        try:
            cleaned = clean_name(seat if isinstance(seat, str) else "", f"players[{index}]", ledger_night.MAX_NAME)
        except HandError:
            continue  # not a name: create_night refuses it, in its own order
        refuse_look_alike(db, club, cleaned, f"players[{index}]")
    dealer = seat_names(db, club, [first_dealer])[0] if first_dealer is not None else None
    night, token = ledger_night.create_night(
        db, name=name, currency=club.currency, stake_minor=stake_minor, rules=rules, players=seated,
        first_dealer=dealer, timezone=timezone or club.timezone, game=game,
        opening=lambda db_: take_pot(db_, club))
    opened = ledger_night.pot_json(db, night).get("pot", {}).get("opening_minor", 0)
    for _attempt in range(3):
        begin_write(db)
        db.add(ClubNight(session_id=night.id, club_id=club.id, host_role=actor.role))
        for seat in night.players:
            member = join_roster(db, club, seat, actor, "players")
            db.add(ClubSeat(session_id=night.id, member_id=member.id, name=seat))
        club_event(db, club, actor, "night_started", after={"id": night.id, "name": night.name,
                                                             "players": list(night.players)}
                   | ({"pot_opening": opened} if opened else {}))
        try:
            db.commit()
        except IntegrityError:  # another night added the same new member meanwhile: look again
            db.rollback()
            continue
        return night, token
    raise RuntimeError("could not seat the club night")


def take_pot(db: Session, club: Club) -> dict[str, int]:
    """Inside a new Tong-its night's creating transaction: the club's pot, emptied (its row locked
    first, so two nights started at once never both take it) → ``{"pot": amount}`` (minor units),
    the balance the night's pot opens with (TONGITS.md §4.8)."""
    row = db.exec(select(Club).where(Club.id == club.id).with_for_update()
                  .execution_options(populate_existing=True)).one()
    amount = int(row.pot_minor or 0)
    if amount:
        db.connection().execute(_ADD_POT, {"club": club.id, "delta": -amount})
        db.expire(row, ["pot_minor"])
    return {"pot": amount}


def _carry_pot(db: Session, club: Club, night: GameSession, link: ClubNight) -> int:
    """Inside a carry's transaction: what the closed night's pot still holds (a close that carried
    it, TONGITS.md §4.9; 0 after a split) goes into the club's pot and is kept on ``link``;
    returns it (minor units)."""
    amount = int(ledger_night.pot_json(db, night).get("pot", {}).get("balance_minor", 0))
    link.pot_carried_minor = amount
    if amount:
        db.connection().execute(_ADD_POT, {"club": club.id, "delta": amount})
        db.expire(club, ["pot_minor"])
    return amount


def seat_member_ids(db: Session, night: GameSession) -> dict[str, int]:
    """Each seat of ``night`` that has a seat row (a :class:`ClubSeat`: the seats it started with,
    and, once closed, every seat) → its member's id, under the seat's name now: the rows keep
    the name a seat had when its row was written, and renames follow its ``player_renamed``
    events."""
    by_name: dict[str, int] = {s.name: s.member_id for s in db.exec(
        select(ClubSeat).where(ClubSeat.session_id == night.id))}
    renames = db.exec(select(AuditEvent).where(AuditEvent.session_id == night.id,
                                               AuditEvent.action == "player_renamed").order_by(AuditEvent.id))
    for event in renames:
        old, new = event.detail.get("before", {}).get("name"), event.detail.get("after", {}).get("name")
        if old in by_name:
            by_name[new] = by_name.pop(old)
    return by_name


def seat_members(db: Session, club: Club, night: GameSession, *, add: bool = False,
                 actor: ClubActor | None = None) -> dict[str, ClubMember]:
    """Each name that sat at ``night`` (:func:`ledger.night.timeline.seat_order`) → its member.
    Seats with a row follow it (:func:`seat_member_ids`); a player who sat in under a new name
    is found on the roster by name, or with ``add`` (inside the caller's write transaction)
    joins it and gets a seat row.

    With ``add``, raises :class:`HandError` 422 ``duplicate_player`` (field ``players``) when
    the member a name finds already sits at the night under another seat's name (Rosa's seat
    renamed "Rosie", then "Rosa" seated again): one member cannot hold two seats' money."""
    by_name = seat_member_ids(db, night)
    seated_as = {member_id: name for name, member_id in by_name.items()}
    out: dict[str, ClubMember] = {}
    for name in seat_order(night):
        member = db.get(ClubMember, by_name[name]) if name in by_name else member_by_name(db, club, name)
        if member is None and add:
            member = join_roster(db, club, name, actor or ClubActor("owner"), "players")
        if member is not None:
            if add and name not in by_name:
                if member.id in seated_as:
                    raise HandError("duplicate_player",
                                    N_("{name} and {seat} are both the club member {member}; rename one of them "
                                       "before closing the night."),
                                    "players", name=name, seat=seated_as[member.id], member=member.name)
                db.add(ClubSeat(session_id=night.id, member_id=member.id, name=name))
                seated_as[member.id] = name
            out[name] = member
    return out


def close_night(db: Session, club: Club, night: GameSession, actor: Actor, carry_over: bool | None) -> GameSession:
    """Close a club night (:func:`ledger.night.lifecycle.close_night`) and, in the same transaction, say
    what happens to what is still owed: with ``carry_over`` each member's outstanding amount
    joins their running club balance, else (``False`` or ``None``) it was settled in cash.

    Closing again with the same choice, or with ``None`` (no choice said), changes nothing.
    Raises :class:`NightError` 409 ``session_closed`` (field ``carry_over``, with ``carried``)
    when the night was already closed the other way (by another phone, perhaps at the same
    moment): the first choice stands, and the phone is told which it was;
    :class:`HandError` 422 ``duplicate_player`` from :func:`seat_members`;
    :class:`~ledger.access.roles.AccessDenied` unless the night's host."""
    if night.status != "closed":
        night = _close(db, club, night, actor, bool(carry_over))
    link = db.get(ClubNight, night.id)
    if link is not None and link.carry_state == "pending" and carry_over is False:
        raise NightError(409, "session_closed",
                         N_("This night was already closed to be carried into the balances of {club}; it waits "
                            "for the owner's say."), "carry_over", {"carried": "pending"}, club=club.name)
    if carry_over is None or link is None or link.carried is None or link.carried == carry_over:
        return night
    if link.carried:
        raise NightError(409, "session_closed",
                         N_("This night was already closed, and what was still owed was carried into the balances "
                            "of {club}."), "carry_over", {"carried": True}, club=club.name)
    raise NightError(409, "session_closed",
                     N_("This night was already closed and settled in cash; nothing was carried into the "
                        "balances of {club}."), "carry_over", {"carried": False}, club=club.name)


def carry_state(db: Session, night: GameSession) -> str | None:
    """What became of a club night's balances: ``"pending"`` (closed to be carried, waiting for
    the owner), ``"carried"``, ``"uncarried"``, or ``None`` (open, settled in cash, or no club night)."""
    link = db.get(ClubNight, night.id)
    return None if link is None else link.carry_state


def _close(db: Session, club: Club, night: GameSession, actor: Actor, carry_over: bool) -> GameSession:
    """:func:`close_night`'s closing transaction (a night closed meanwhile is returned as it is)."""

    def carry() -> None:
        link = db.get(ClubNight, night.id)
        assert link is not None
        members = seat_members(db, club, night, add=True)
        left = ledger_night.outstanding(db, night)
        if carry_over and link.host_role == "member" and club.carry_needs_owner:
            link.carry_state = "pending"  # a member's say alone moves nothing: the owner carries it
            db.add(link)
            club_event(db, club, ClubActor("member"), "night_carry_pending",
                       after={"id": night.id, "name": night.name,
                              "carrying": {members[name].name: amount for name, amount in left.items() if amount}})
            return
        link.carried = carry_over
        link.carried_by = (link.host_role or "owner") if carry_over else None
        db.add(link)
        carried = {}
        pot = 0
        if carry_over:
            for name, amount in left.items():
                if amount:
                    db.add(ClubCarry(club_id=club.id, session_id=night.id, member_id=members[name].id,
                                     amount_minor=amount))
                    carried[members[name].name] = amount
            pot = _carry_pot(db, club, night, link)
        club_event(db, club, ClubActor(_club_role(actor.role)),
                   "night_carried" if carry_over else "night_settled_in_cash",
                   after={"id": night.id, "name": night.name, "carried": carried} | ({"pot": pot} if pot else {}))

    return ledger_night.close_night(db, night, actor, before_commit=carry)


def carry_night(db: Session, club: Club, night: GameSession, actor: ClubActor) -> ClubNight:
    """The owner's say (issue 20 item 5): carry a closed night waiting for it (``carry_state``
    ``pending``) or one whose carry was undone (``uncarried``) into the club's balances, each
    member's outstanding amount at the night now (:func:`ledger.night.lifecycle.outstanding`) as one
    :class:`ClubCarry`; audited ``night_carried`` with ``by: "owner"`` (committed). Raises
    :class:`~ledger.clubs.roster.ClubAccessDenied` (403 ``role_forbidden``) unless the owner;
    :class:`NightError` 409 ``night_not_pending`` for a night that is open, already carried or
    settled in cash. What the night's pot holds goes into the club's pot with them (:func:`_carry_pot`)."""
    actor.require("carry")
    begin_write(db)
    db.exec(select(Club).where(Club.id == club.id).with_for_update()).one()  # one say at a time
    link = db.get(ClubNight, night.id, populate_existing=True)
    db.refresh(night)
    assert link is not None
    if night.status != "closed" or link.carried is True or link.carry_state not in ("pending", "uncarried"):
        db.rollback()
        raise NightError(409, "night_not_pending",
                         N_("Only a closed night waiting for the owner, or one whose carry was undone, can be "
                            "carried into the balances of {club}."), "session_id", club=club.name)
    members = seat_members(db, club, night, add=True, actor=actor)
    carried = {}
    for name, amount in ledger_night.outstanding(db, night).items():
        if amount:
            db.add(ClubCarry(club_id=club.id, session_id=night.id, member_id=members[name].id, amount_minor=amount))
            carried[members[name].name] = amount
    pot = _carry_pot(db, club, night, link)
    link.carried, link.carry_state, link.carried_by = True, "carried", actor.role
    db.add(link)
    club_event(db, club, actor, "night_carried", after={"id": night.id, "name": night.name, "carried": carried,
                                                        "by": actor.role} | ({"pot": pot} if pot else {}))
    db.commit()
    return link


def uncarry_night(db: Session, club: Club, night: GameSession, actor: ClubActor) -> ClubNight:
    """The owner undoes a carried night (committed): each of its carry rows not yet reversed
    gets a ``reversal`` row of the negated amount (nothing is deleted), so the club's balances
    lose what the night carried and the night's own outstanding amounts are to be paid at the
    night again (its payments are allowed again); audited ``night_uncarried``. The owner may
    carry it again (:func:`carry_night`). What the night's pot carried into the club's pot
    (``pot_carried_minor``) is taken back out of it. Raises ``ClubAccessDenied`` (403) unless the owner;
    :class:`NightError` 409 ``night_not_carried`` for a night that is not carried now, 409
    ``pot_taken`` (with ``pot_minor``, what the club's pot holds) when a later Tong-its night has
    already opened with the pot this night carried (the club's pot holds less than it): that night
    plays with it."""
    actor.require("uncarry")
    begin_write(db)
    locked = db.exec(select(Club).where(Club.id == club.id).with_for_update()
                     .execution_options(populate_existing=True)).one()
    link = db.get(ClubNight, night.id, populate_existing=True)
    db.refresh(night)
    assert link is not None
    if night.status != "closed" or link.carried is not True:
        db.rollback()
        raise NightError(409, "night_not_carried",
                         N_("This night's balances are not carried into {club}, so there is no carry to undo."),
                         "session_id", club=club.name)
    pot = int(link.pot_carried_minor or 0)
    if pot > int(locked.pot_minor or 0):
        held = int(locked.pot_minor or 0)
        db.rollback()
        raise NightError(409, "pot_taken",
                         N_("The pot this night carried has already opened a later Tong-its night of {club}, so "
                            "its carry cannot be undone."), "session_id", {"pot_minor": held}, club=club.name)
    rows = list(db.exec(select(ClubCarry).where(ClubCarry.session_id == night.id).order_by(ClubCarry.id)))
    reversed_ids = {r.reverses for r in rows if r.kind == "reversal"}
    names = {m.id: m.name for m in members_of(db, club)}
    undone: dict[str, int] = {}
    for row in rows:
        if row.kind == "carry" and row.id not in reversed_ids:
            db.add(ClubCarry(club_id=club.id, session_id=night.id, member_id=row.member_id,
                             amount_minor=-row.amount_minor, kind="reversal", reverses=row.id))
            undone[names[row.member_id]] = undone.get(names[row.member_id], 0) - row.amount_minor
    before_by = link.carried_by
    link.carried, link.carry_state, link.carried_by = False, "uncarried", None
    link.pot_carried_minor = 0
    db.add(link)
    if pot:
        db.connection().execute(_ADD_POT, {"club": club.id, "delta": -pot})
        db.expire(club, ["pot_minor"])
    club_event(db, club, actor, "night_uncarried", before={"id": night.id, "carried_by": before_by},
               after={"id": night.id, "name": night.name, "reversed": undone} | ({"pot": -pot} if pot else {}))
    db.commit()
    return link


def carried_answer(night: GameSession, link: ClubNight) -> bool | str:
    """A night's ``carried`` in answers: ``"pending"`` while it waits for the owner's carry,
    else :func:`carried_of` (true/false as before)."""
    return "pending" if link.carry_state == "pending" else carried_of(night, link)


def _club_role(night_role: str) -> str:
    return {night: club for club, night in NIGHT_ROLE.items()}.get(night_role, night_role)


def nights_of(db: Session, club: Club) -> list[tuple[GameSession, ClubNight]]:
    """The club's nights, oldest first, each with its link (``carried``); a night its host
    removed (started by mistake, :mod:`ledger.night.whole_night`) is not one of them."""
    rows = db.exec(select(GameSession, ClubNight).join(ClubNight, ClubNight.session_id == GameSession.id)
                   .where(ClubNight.club_id == club.id, GameSession.status != "removed")
                   .order_by(GameSession.created_at, GameSession.id))
    return [(night, link) for night, link in rows]


def carried_of(night: GameSession, link: ClubNight) -> bool:
    """Whether a night's balance went into the club's: only a closed night that chose to."""
    return night.status == "closed" and bool(link.carried)


def club_json(db: Session, club: Club) -> dict[str, Any]:
    """The club as ``GET /api/v1/clubs/{id}`` shows it: ``{id, name, currency, timezone,
    members: [{id, name, language?}], balances: {name: int}, settlement: {transfers: [{from, to, amount,
    because: [{session_id, amount}]}], transfer_count, minimal} (the nights that explain each transfer,
    :mod:`ledger.clubs.reasons`), carry_needs_owner, nights: [{id, name, started_at, closed_at, carried
    (true, false or "pending"), status, hosted_by (club role), carried_by (club role or null), carry_state,
    pot_carried_minor?}], pot_minor, pot_in_nights_minor}``: ``pot_minor`` is the club's Tong-its
    pot (minor units, TONGITS.md §4.9), which the next Tong-its night opens with;
    ``pot_in_nights_minor`` what the club's nights not carried opened with
    (:func:`ledger.clubs.pot.pot_in_nights`), so ``sum(balances) + pot_minor + pot_in_nights_minor
    == 0``; ``pot_carried_minor``, only on a night whose pot carried something into the club's pot
    (and is still carried), that amount. A club kept in points (``points``, currency ``PTS``)
    settles nothing: its ``settlement`` has no transfers."""
    return {
        "id": club.id,
        "name": club.name,
        "currency": club.currency,
        "timezone": club.timezone,
        "members": [member_json(m) for m in members_of(db, club)],
        "balances": balances(db, club),
        "points": is_points(club.currency),  # kept in points (issue 25): no settle-up
        "settlement": (explained_plan_json(db, club) if not is_points(club.currency)
                       else {"transfers": [], "transfer_count": 0, "minimal": True}),
        "carry_needs_owner": club.carry_needs_owner,
        "nights": [{"id": n.id, "name": n.name, "started_at": n.created_at.isoformat(),
                    "closed_at": n.closed_at.isoformat() if n.closed_at else None,
                    "carried": carried_answer(n, link), "status": n.status,
                    "hosted_by": link.host_role or "owner", "carried_by": link.carried_by if link.carried else None,
                    "carry_state": link.carry_state}
                   | ({"pot_carried_minor": int(link.pot_carried_minor)} if link.pot_carried_minor else {})
                   for n, link in nights_of(db, club)],
        "pot_minor": int(club.pot_minor or 0),
        "pot_in_nights_minor": pot_in_nights(db, club),
    }


def outstanding_by_member(db: Session, club: Club, night: GameSession) -> Mapping[str, int]:
    """What each member still owed or was owed at ``night`` (by the member's current name)."""
    members = seat_members(db, club, night)
    return {members[name].name if name in members else name: amount
            for name, amount in ledger_night.outstanding(db, night).items()}
