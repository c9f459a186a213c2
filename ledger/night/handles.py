"""A night player's payment handles (issue 22): kept on their :class:`PlayerFigures` row, so a
rename keeps them; read only through this night's tokens.

Who may set them: a host (any player), or the player's own phone (a ``player`` token whose phone
joined under that player's name, :attr:`AccessKey.label`). A viewer is refused (403). At a club
night a player without handles of their own uses their club member's (:func:`payee_handles`).
"""
from __future__ import annotations

from typing import Any, Mapping

from sqlmodel import Session, select

from ledger.access.roles import Actor
from ledger.errors import NightError
from ledger.names import name_key
from ledger.money import is_points
from ledger.night.audit import audit
from ledger.settlement.handoffs import HandleError, HandOff, clean_handles, hand_offs, payment_note
from ledger.storage.db import begin_write
from ledger.storage.club_models import ClubMember, ClubSeat
from ledger.storage.models import AccessKey, GameSession, PlayerFigures
from ledger.i18n import N_

NOT_YOUR_HANDLES = N_("A player's phone can set only its own player's payment handles; ask the host.")
NO_SUCH_PLAYER = N_("{name} has not played at this night.")
SET_BY_ANOTHER_PHONE = N_("{name}'s payment handles were set from another phone; only that phone or the host can "
                          "change them.")


class HandleRefused(NightError):
    """A bad handle: 422 ``invalid_handle`` naming the field (:class:`ledger.settlement.handoffs.HandleError`)."""

    def __init__(self, err: HandleError) -> None:
        super().__init__(422, "invalid_handle", err.sentence.template, err.field, **dict(err.sentence.params))


def _row(db: Session, night: GameSession, name: str) -> PlayerFigures:
    wanted = name_key(name)
    for row in db.exec(select(PlayerFigures).where(PlayerFigures.session_id == night.id)):
        if name_key(row.player) == wanted:
            return row
    raise NightError(404, "player_not_found", NO_SUCH_PLAYER, "name", name=name)


def player_handles(db: Session, night: GameSession, name: str) -> dict[str, Any]:
    """``{"player": <name>, "handles": {kind: value}}`` (empty when none kept). 404
    ``player_not_found`` for a name that never sat at the night."""
    row = _row(db, night, name)
    return {"player": row.player, "handles": dict(row.handles or {})}


def handles_in_pdf(db: Session, night: GameSession, name: str) -> bool:
    """Whether player ``name`` ticked "Show my handles in PDF statements" (False for a name that
    never sat)."""
    wanted = name_key(name)
    return any(name_key(row.player) == wanted and row.handles_in_pdf for row in db.exec(
        select(PlayerFigures).where(PlayerFigures.session_id == night.id)))


def set_player_handles(db: Session, night: GameSession, name: str, raw: Mapping[str, Any],
                       actor: Actor, *, claimed: bool = False, in_pdf: bool | None = None) -> dict[str, Any]:
    """Replace player ``name``'s handles with ``raw`` (checked, :func:`clean_handles`); committed
    with a ``handles_set`` event naming the kinds (never the values). ``claimed``: this phone said
    it is that player ("This is me", :mod:`ledger.web.me`), which lets it set that player's handles
    unless another phone set the ones kept (403 ``role_forbidden``; a host may always);
    ``in_pdf``: the player's opt-in to show them in their statement PDF (None keeps it). 403
    ``role_forbidden`` for a viewer or another player's phone, 404 ``player_not_found``, 422
    ``invalid_handle``."""
    actor.require("handles")
    row = _row(db, night, name)
    if actor.role != "host" and not _own_phone(db, actor, row.player):
        if not claimed:
            raise NightError(403, "role_forbidden", NOT_YOUR_HANDLES, "name")
        if row.handles and row.handles_key_id != actor.access_key_id:  # said "This is me" only
            raise NightError(403, "role_forbidden", SET_BY_ANOTHER_PHONE, "name", name=row.player)
    try:
        handles = clean_handles(raw)
    except HandleError as err:
        raise HandleRefused(err) from None
    begin_write(db)
    row = _row(db, night, name)
    row.handles = handles or None
    row.handles_key_id = actor.access_key_id
    if in_pdf is not None:
        row.handles_in_pdf = in_pdf
    db.add(row)
    audit(db, night, actor, "handles_set", player=row.player, kinds=sorted(handles),
          **({} if in_pdf is None else {"in_pdf": in_pdf}))
    db.commit()
    return {"player": row.player, "handles": dict(handles)}


def _own_phone(db: Session, actor: Actor, player: str) -> bool:
    if actor.access_key_id is None:
        return False
    key = db.get(AccessKey, actor.access_key_id)
    return key is not None and key.kind == "device" and bool(key.label) and name_key(key.label) == name_key(player)


def payee_handles(db: Session, night: GameSession) -> dict[str, dict[str, str]]:
    """Every player's handles at ``night`` by name (one query, plus one for a club night's
    members): the player's own, else their club member's."""
    out = {row.player: dict(row.handles) for row in db.exec(
        select(PlayerFigures).where(PlayerFigures.session_id == night.id)) if row.handles}
    seats = db.exec(select(ClubSeat.name, ClubMember.handles).join(ClubMember, ClubMember.id == ClubSeat.member_id)
                    .where(ClubSeat.session_id == night.id)).all()
    for seat_name, member_handles in seats:
        if member_handles and seat_name not in out:
            out[seat_name] = dict(member_handles)
    return out


def transfer_hand_offs(db: Session, night: GameSession, transfers: list[dict[str, Any]], *,
                       handles: dict[str, dict[str, str]] | None = None) -> list[list[HandOff]]:
    """The hand-offs of each wire transfer ``{"from", "to", "amount"}`` of ``night``'s plan: the
    payee's handles that fit the night's currency (:func:`ledger.settlement.handoffs.hand_offs`),
    with the exact amount and the note "Tonk · <night name>"; none for a payee that is an account
    (the pot) or keeps no handles, and none at a night kept in points. ``handles``: :func:`payee_handles`, when the caller read them."""
    if is_points(night.currency):  # a night kept in points pays nothing (issue 25)
        return [[] for _ in transfers]
    if handles is None:
        handles = payee_handles(db, night)
    note = payment_note(night.game, night.name)
    return [hand_offs(handles[t["to"]], night.currency, t["amount"], note, t["to"]) if t["to"] in handles else []
            for t in transfers]
