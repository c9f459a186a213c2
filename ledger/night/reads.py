"""Reading one night: its hands, running balances and counts (kept by :mod:`ledger.night.figures`),
who deals next, the session and hands as the API shows them, and the report model every PDF
renders (:mod:`ledger.night.report`). Nothing here writes. Amounts are ``int`` minor units.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import Text, bindparam, cast, true, update
from sqlalchemy import select as core_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from ledger.night import figures
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.storage.club_models import ClubNight
from ledger.storage.models import AuditEvent, GameSession, Hand, PlayerFigures
from ledger.settlement.handoffs import shown_handles
from ledger.money import is_points
from ledger.night.payments import carried_into, outstanding, payments_of, settlement_plan
from ledger.night.report import SessionReport
from ledger.night.report_source import ReportSource
from ledger.night.story import STORY_ACTIONS
from ledger.games import Rules, game
from ledger.games.tonk.describe import describe_hand
from ledger.games.tongits.describe import describe_hand as describe_tongits_hand
from ledger.games.rummy13.describe import describe_hand as describe_rummy_hand
from ledger.games.rummy13.pool_night import buy_ins_of, pot_of, scores_of, still_in
from ledger.night.timeline import roster_of, rotate, seat_order
from ledger.transfers import Transfer

HANDS = Hand.__table__  # type: ignore[attr-defined]
EVENTS = AuditEvent.__table__  # type: ignore[attr-defined]
# who dealt the last counted hand: one row, read backwards along uq_hand_session_number_version
_LAST_COUNTED = (core_select(HANDS.c.dealer, HANDS.c.players, HANDS.c.number)
                 .where(HANDS.c.session_id == bindparam("night"), HANDS.c.status == "counted")
                 .order_by(HANDS.c.number.desc()).limit(1))
# the same for a game whose dealer rule reads the hand (TONGITS.md §2.3: the winner deals): the
# last counted hand played (an entry that is not a hand, such as a closed pot, deals nobody)
_LAST_PLAYED = (core_select(HANDS.c.dealer, HANDS.c.players, HANDS.c.number, HANDS.c.kind, HANDS.c.redeal,
                            HANDS.c.result)
                .where(HANDS.c.session_id == bindparam("night"), HANDS.c.status == "counted",
                       HANDS.c.kind.not_in(sorted(figures.NOT_A_HAND)))
                .order_by(HANDS.c.number.desc()).limit(1))
# who sat in since a hand: the night's sit-ins newest first, read only until one from before it,
# and the renames made after the first of those (index of session, action and id)
_SAT_IN_NEWEST_FIRST = (core_select(EVENTS.c.id, EVENTS.c.detail)
                        .where(EVENTS.c.session_id == bindparam("night"), EVENTS.c.action == "player_sat_in")
                        .order_by(EVENTS.c.id.desc()))
# who deals next at a Tonk night, in one read: the last counted hand's dealer, seating and number,
# and the night's newest sit-in (when it is from before that hand, nobody sat in since)
_LAST_COUNTED_HAND = _LAST_COUNTED.subquery()
_NEWEST_SIT_IN = _SAT_IN_NEWEST_FIRST.with_only_columns(EVENTS.c.detail).limit(1).scalar_subquery()
_DEAL_COLUMNS = (
    core_select(_LAST_COUNTED_HAND.c.dealer).scalar_subquery().label("dealer"),
    core_select(_LAST_COUNTED_HAND.c.players).scalar_subquery().label("last_players"),
    core_select(_LAST_COUNTED_HAND.c.number).scalar_subquery().label("last_number"),
    _NEWEST_SIT_IN.label("sat_in"))
_DEAL = core_select(*_DEAL_COLUMNS)
# a Tonk hand's number taken with who dealt the last counted hand, in one statement (issue 24):
# the night's counter UPDATE … RETURNING, the deal read as scalar subqueries beside it
_NEW_HAND_DEALT = figures.NEW_HAND.returning(*_DEAL_COLUMNS)
_RENAMES_AFTER = (core_select(EVENTS.c.id, EVENTS.c.detail)
                  .where(EVENTS.c.session_id == bindparam("night"), EVENTS.c.action == "player_renamed",
                         EVENTS.c.id > bindparam("after"))
                  .order_by(EVENTS.c.id))
_LAST_NUMBER = core_select(figures.NIGHTS.c.last_hand_number).where(figures.NIGHTS.c.id == bindparam("night"))


def rules_of(night: GameSession) -> Rules:
    """The rule set of the night's game frozen into the session when it started (never re-read
    from presets): a Tonk :class:`~ledger.games.tonk.RuleSet` for a Tonk night."""
    return game(night.game or None).rules_from_snapshot(night.ruleset)


class StoredResult:
    """A stored hand's outcome as a game's ``next_dealer`` reads it (:class:`ledger.games.base.Scored`'s
    ``kind``, ``winners``, ``redeal``; Tong-its' ``winner``), from the hand's row."""

    __slots__ = ("kind", "redeal", "winner", "winners")

    def __init__(self, kind: str, redeal: bool, result: Mapping[str, Any]) -> None:
        self.kind = kind
        self.redeal = bool(redeal)
        self.winner = result.get("winner")
        self.winners = tuple(result.get("winners") or ((self.winner,) if self.winner is not None else ()))


def game_dealer_after(night: GameSession, players: list[str], dealer: str, kind: str, redeal: bool,
                      result: Mapping[str, Any], arrived: frozenset[str] = frozenset()) -> str:
    """Who deals after a hand of a night whose game has its own dealer rule (TONGITS.md §2.3:
    the winner, or the same dealer after a redeal or a wash), under the ledger's seating rules:
    the game's choice when still seated and not sat in since (``arrived``), else the deal passes
    on from that seat as :func:`ledger.night.timeline.rotate` passes it."""
    chosen = game(night.game)
    candidate = chosen.next_dealer(rules_of(night), players, dealer, StoredResult(kind, redeal, result))  # type: ignore[arg-type]
    if candidate in night.players and candidate not in arrived:
        return candidate
    return rotate(night.players, players, candidate, night.first_dealer, arrived=arrived)


def get_hand(db: Session, night: GameSession, number: int) -> Hand:
    """The current version of hand ``number`` (read afresh). Raises :class:`NightError` 404
    ``hand_not_found``."""
    hand = db.exec(select(Hand).where(
        Hand.session_id == night.id, Hand.number == number, Hand.status != "superseded")
        .execution_options(populate_existing=True)).first()
    if hand is None:
        raise NightError(404, "hand_not_found", N_("This night has no hand number {number}."), "number", number=number)
    return hand


def hands_of(db: Session, night: GameSession, *, all_versions: bool = False) -> list[Hand]:
    """The session's hands in number order: the current version of each, or with
    ``all_versions`` every version (superseded ones included), oldest first."""
    query = select(Hand).where(Hand.session_id == night.id)
    if not all_versions:
        query = query.where(Hand.status != "superseded")
    return list(db.exec(query.order_by(Hand.number, Hand.version)))


def balances(db: Session, night: GameSession) -> dict[str, int]:
    """Each player's running net over the counted hands, minor units (sums to 0): everyone who
    ever sat, seated or not, in :func:`ledger.night.timeline.seat_order` (current seats first). Kept
    by :mod:`ledger.night.figures` (:func:`ledger.night.figures.recompute` works it out from the hands)."""
    return figures.balances(db, night)


def next_number(db: Session, night: GameSession) -> int:
    """The number the next recorded hand will get."""
    return int(db.connection().execute(_LAST_NUMBER, {"night": night.id}).scalar_one()) + 1


def hand_count(db: Session, night: GameSession) -> int:
    """Counted hands, redeals included (kept by :mod:`ledger.night.figures`)."""
    return figures.counted_hands(db, night)


def next_dealer(db: Session, night: GameSession) -> str:
    """Who deals next (RULES.md §2): one seat clockwise from the dealer of the last counted
    hand, redeals included, in that hand's seating, skipping players who left since and those
    who sat in (or came back) since, who deal last (:func:`ledger.night.timeline.rotate`,
    :func:`sat_in_since`); the first dealer when no hand counts yet."""
    if (night.game or "tonk") != "tonk":
        played = db.connection().execute(_LAST_PLAYED, {"night": night.id}).first()
        if played is not None:
            return game_dealer_after(night, list(played.players), played.dealer, played.kind, played.redeal,
                                     played.result or {}, sat_in_since(db, night, played.number))
        return rotate(night.players, None, None, night.first_dealer, night.roster, sat_in_since(db, night, 0))
    return _dealer_from(db, night, db.connection().execute(_DEAL, {"night": night.id}).one())  # one read


def _dealer_from(db: Session, night: GameSession, last: Any, seating: Sequence[str] | None = None) -> str:
    """:func:`next_dealer` of a Tonk night from the row of :data:`_DEAL_COLUMNS` (``dealer``,
    ``last_players``, ``last_number`` of the last counted hand, the newest ``sat_in``), for
    ``seating`` (default: the night's)."""
    seated = list(night.players) if seating is None else list(seating)
    if last.last_number is None:
        return rotate(seated, None, None, night.first_dealer, night.roster,
                      _sat_in_after(db, night, 0, last.sat_in))
    return rotate(seated, last.last_players, last.dealer, night.first_dealer,
                  arrived=_sat_in_after(db, night, int(last.last_number), last.sat_in))


# a hand voided: the night's count of hands taken down, with who deals next after it (issue 24)
_UNCOUNT_DEALT = (update(figures.NIGHTS).where(figures.NIGHTS.c.id == bindparam("night"))
                  .values(counted_hands=figures.NIGHTS.c.counted_hands - 1)
                  .returning(figures.NIGHTS.c.counted_hands, *_DEAL_COLUMNS))


def uncount_and_next_dealer(db: Session, night: GameSession) -> str:
    """For a Tonk hand just voided (flushed, in the caller's write transaction): the night's
    count of hands taken down and who deals next now (:func:`next_dealer`), in one statement."""
    row = db.connection().execute(_UNCOUNT_DEALT, {"night": night.id}).one()
    set_committed_value(night, "counted_hands", int(row.counted_hands))
    return _dealer_from(db, night, row)


def take_number_and_dealer(db: Session, night: GameSession) -> tuple[int, list[str], int, str] | None:
    """For a Tonk hand about to be recorded: :func:`ledger.night.figures.new_hand_number` and who
    deals it when the phone did not say (:func:`next_dealer`), in one statement, ``(number,
    players, stake_minor, dealer)``, or ``None`` when the night is not open. The dealer is worked
    out for the seating the statement returned (a host may have changed it since ``night`` was read)."""
    taken = figures.new_hand_row(db, night, _NEW_HAND_DEALT)
    if taken is None:
        return None
    number, players, stake_minor, row = taken
    return number, players, stake_minor, _dealer_from(db, night, row, players)


def _sat_in_after(db: Session, night: GameSession, number: int, newest: Mapping[str, Any] | None) -> frozenset[str]:
    """:func:`sat_in_since` ``number``, knowing the ``detail`` of the night's newest sit-in
    (``None``: none): nobody, without a read, when that one applies from hand ``number`` or before."""
    from_hand = ((newest or {}).get("after") or {}).get("from_hand")
    if type(from_hand) is not int or from_hand <= number:
        return frozenset()
    return sat_in_since(db, night, number)


def dealer_after(night: GameSession, hand: Hand, arrived: frozenset[str] = frozenset()) -> str:
    """Who deals after ``hand`` when it is the last counted hand: what :func:`next_dealer`
    reads then, without reading it (RULES.md §2). ``arrived``: who sat in since ``hand``
    (:func:`sat_in_since`; nobody for a hand just recorded)."""
    if (night.game or "tonk") != "tonk" and hand.kind not in figures.NOT_A_HAND:
        return game_dealer_after(night, list(hand.players), hand.dealer, hand.kind, hand.redeal, hand.result, arrived)
    return rotate(night.players, hand.players, hand.dealer, night.first_dealer, arrived=arrived)


def sat_in_since(db: Session, night: GameSession, number: int) -> frozenset[str]:
    """The seated players who sat in after hand ``number`` was played (their sit-in applies
    from a later hand), newcomers and players who came back alike, under the names they have
    now: the deal reaches them last (RULES.md §2). Reads the night's sit-ins newest first only
    until one from before, so usually one event, and the renames after them only when there
    are some (indexed reads; never the night's hands)."""
    found: list[tuple[int, str]] = []
    result = db.connection().execute(_SAT_IN_NEWEST_FIRST, {"night": night.id})
    try:
        for event_id, detail in result:
            after = (detail or {}).get("after") or {}
            from_hand = after.get("from_hand")
            if type(from_hand) is not int or from_hand <= number:
                break
            if isinstance(after.get("name"), str):
                found.append((int(event_id), after["name"]))
    finally:
        result.close()
    if not found:
        return frozenset()
    renames = []
    for event_id, detail in db.connection().execute(
            _RENAMES_AFTER, {"night": night.id, "after": min(event for event, _ in found)}):
        old, new = ((detail or {}).get(side, {}).get("name") for side in ("before", "after"))
        renames.append((int(event_id), old, new))
    names = set()
    for sat_at, name in found:
        for renamed_at, old, new in renames:
            if renamed_at > sat_at and name == old:
                name = new
        names.add(name)
    return frozenset(names.intersection(night.players))


def report_source(db: Session, night: GameSession) -> ReportSource:
    """What the night's report is made from, read in one go: the hands with their stored JSON
    as text (decoded where the PDF renders, see :mod:`ledger.night.report_source`), the kept
    figures, the payments, the settle-up plan, and the club its balances were carried into."""
    hands = db.exec(
        select(Hand.number, Hand.dealer, cast(Hand.players, Text), cast(Hand.entry, Text),  # type: ignore[call-overload]
               cast(Hand.result, Text), Hand.redeal, Hand.status)
        .where(Hand.session_id == night.id, Hand.status != "superseded").order_by(Hand.number))
    plan = settlement_plan(db, night)
    last = figures.last_hands(db, night)
    club = carried_into(db, night)
    return ReportSource(
        name=night.name,
        currency=night.currency,
        stake_minor=night.stake_minor,
        ruleset=dict(night.ruleset),
        created_at=night.created_at,
        timezone=night.timezone,
        players=tuple(seat_order(night)),
        hands=tuple(tuple(row) for row in hands),  # type: ignore[misc]
        net_minor=balances(db, night),
        settlement=plan.transfers,
        settlement_minimal=plan.minimal,
        payments=tuple(Transfer(p.payer, p.payee, p.amount_minor)
                       for p in payments_of(db, night) if p.status == "counted"),
        stakes=tuple((c.from_hand, c.stake_minor) for c in figures.stake_changes(db, night)),
        left={name: hand for name, hand in last.items() if name not in night.players},
        carried_into=club.name if club is not None else "",
        game=night.game or "tonk",
        accounts=figures.kept_accounts(db, night),
        state=figures.kept_state(db, night),
        status=night.status,
        handles_shown=_handles_shown(db, night),
        events=tuple((action, number, text) for action, number, text in db.connection().execute(
            _STORY_EVENTS, {"night": night.id})),
    )


# the events a night's story tells, oldest first (ix_audit_event_session_action)
_STORY_EVENTS = (core_select(EVENTS.c.action, EVENTS.c.hand_number, cast(EVENTS.c.detail, Text))
                 .where(EVENTS.c.session_id == bindparam("night"), EVENTS.c.action.in_(STORY_ACTIONS))
                 .order_by(EVENTS.c.id))


def _handles_shown(db: Session, night: GameSession) -> dict[str, tuple[tuple[str, str], ...]]:
    """The handles of the players who ticked "Show my handles in PDF statements" (one query)."""
    rows = db.exec(select(PlayerFigures.player, PlayerFigures.handles).where(
        PlayerFigures.session_id == night.id, PlayerFigures.handles_in_pdf == true()))
    return {player: shown for player, handles in rows if handles and (shown := shown_handles(handles, night.currency))}


def build_report(db: Session, night: GameSession) -> SessionReport:
    """The read model every PDF renders (:meth:`ReportSource.shape` of :func:`report_source`)."""
    return report_source(db, night).shape()


def is_pool_night(night: GameSession) -> bool:
    """Whether ``night`` is a 13-card rummy night in pool format."""
    return night.game == "rummy13" and bool(getattr(rules_of(night), "is_pool", False))


def pool_standing(night: GameSession) -> dict[str, Any] | None:
    """A pool night's standing (``GET`` session, the table): ``limit``, each seated player's
    ``scores``, who is ``out``, the ``buy_ins``, the ``pot`` (entry fee × buy-ins, minor units),
    whether it ``ended``; ``None`` for another night."""
    if not is_pool_night(night):
        return None
    rules, state, players = rules_of(night), night.game_state or {}, list(night.players)
    scores = scores_of(state)
    staying = still_in(rules, players, state)  # type: ignore[arg-type]
    return {"limit": rules.pool_limit, "scores": {name: scores.get(name, 0) for name in players},
            "out": [n for n in players if n not in staying], "buy_ins": buy_ins_of(state, players),
            "pot": pot_of(night.stake_minor, state, players), "ended": bool(state.get("ended")),
            "last_in": staying[0] if len(staying) == 1 else None}


def session_json(db: Session, night: GameSession) -> dict[str, Any]:
    """The session as the API shows it: every amount an int in minor units. ``players`` and
    ``stake`` are the current seating and stake; ``net`` and ``outstanding`` cover everyone who
    ever sat; ``roster`` says who is seated and each player's last hand (``as_of_hand``);
    ``stakes`` lists where the stake changed (``from_hand``); ``club`` is the club of a club
    night (else ``None``) and ``carried`` whether its close carried what was still owed into the
    club's balances (``True``: ``outstanding`` is then settled in the club; ``False``: in cash;
    ``None`` while open or outside clubs)."""
    following = next_number(db, night)
    link = db.get(ClubNight, night.id)
    return {
        "id": night.id,
        "name": night.name,
        "currency": night.currency,
        "points": is_points(night.currency),  # kept in points (issue 25): no settle-up
        "stake": night.stake_minor,
        "ruleset": night.ruleset,
        "players": list(night.players),
        "first_dealer": night.first_dealer,
        "status": night.status,
        "timezone": night.timezone,
        "created_at": night.created_at.isoformat(),
        "closed_at": night.closed_at.isoformat() if night.closed_at else None,
        "net": balances(db, night),
        "outstanding": outstanding(db, night),
        "hand_count": hand_count(db, night),
        "next_dealer": next_dealer(db, night),
        "next_number": following,
        "roster": roster_of(night, figures.last_hands(db, night)),
        "stakes": [change.to_json() for change in figures.stake_changes(db, night)],
        "pool": pool_standing(night),  # a pool rummy night (RUMMY13.md §4.9): its scores and pot, else None
        "club": link.club_id if link is not None else None,
        "carried": ("pending" if link.carry_state == "pending" else link.carried) if link is not None else None,
        "game": night.game or "tonk",
    } | pot_json(db, night)


def pot_json(db: Session, night: GameSession) -> dict[str, Any]:
    """``{"pot": {"balance_minor", "holder", "streak", "opening_minor"}}`` for a night whose game
    keeps a pot (TONGITS.md §4.8: the balance kept in the night's ``pot`` account, minor units; the
    holder and streak of the state the next hand is scored from; ``opening_minor``, only for a
    night whose pot opened with a pot its club carried, that balance: the players' nets plus
    ``balance_minor - opening_minor`` sum to zero); ``{}`` for a game without one (Tonk).
    A closed night's pot also says what its close did (:func:`pot_at_close`): ``closed``
    (``"split"``, ``"carried"`` or ``"empty"``), ``closed_minor`` (the balance split or carried,
    minor units) and ``closed_among`` (how many seated players shared a split, else 0)."""
    if "pot" not in game(night.game or None).accounts:
        return {}
    kept = figures.kept_accounts(db, night)
    state = figures.kept_state(db, night) or {}
    pot: dict[str, Any] = {"balance_minor": kept.get("pot", 0), "holder": state.get("holder"),
                           "streak": int(state.get("streak") or 0)}
    opening = figures.openings(db, night).get("pot", 0)
    if opening:
        pot["opening_minor"] = opening
    closing = pot_at_close(db, night)
    if closing is not None:
        pot |= closing
    return {"pot": pot}


def pot_at_close(db: Session, night: GameSession) -> dict[str, Any] | None:
    """What the close of a closed night whose game keeps a pot did with it (TONGITS.md §4.9,
    ``pot_at_end``): ``{"closed": "split" | "carried" | "empty", "closed_minor", "closed_among"}``
    (``split``: ``closed_minor`` paid out among ``closed_among`` seated players; ``carried``: the
    balance stays in the night's pot account, which the players' nets do not settle; ``empty``:
    nothing was in the pot); ``None`` for an open night or a game without a pot. One indexed read."""
    if night.status != "closed" or "pot" not in game(night.game or None).accounts:
        return None
    entry = pot_closed_at_close(db, night)
    pot = (entry.result.get("pot") or {}) if entry is not None else {}
    balance = int(pot.get("balance_before") or 0)
    if balance == 0:
        return {"closed": "empty", "closed_minor": 0, "closed_among": 0}
    if int(pot.get("split") or 0) > 0:
        assert entry is not None
        return {"closed": "split", "closed_minor": int(pot["split"]), "closed_among": len(entry.players)}
    return {"closed": "carried", "closed_minor": balance, "closed_among": 0}


def pot_closed_at_close(db: Session, night: GameSession) -> Hand | None:
    """The entry that closed the pot when ``night`` closed (TONGITS.md §4.9, ``end_of_night``:
    the night's last number), or ``None`` (an open night, a game without a pot, an empty pot)."""
    if night.status != "closed" or "pot" not in game(night.game or None).accounts:
        return None
    hand = db.exec(select(Hand).where(Hand.session_id == night.id, Hand.number == night.last_hand_number,
                                      Hand.status != "superseded")).first()
    if hand is None or hand.kind != "close_pot" or (hand.entry.get("outcome") or {}).get("reason") != "end_of_night":
        return None
    return hand


def hand_json(hand: Hand) -> dict[str, Any]:
    """A stored hand as the API shows it."""
    result: Mapping[str, Any] = hand.result
    return {
        "number": hand.number,
        "version": hand.version,
        "dealer": hand.dealer,
        "status": hand.status,
        "players": list(hand.players),
        "stake": hand.stake_minor,
        "outcome": hand.entry.get("outcome"),
        "hands": hand.entry.get("hands"),
        "side_bets": hand.entry.get("side_bets"),
        "description": str(describe_stored(hand.entry.get("outcome", {}), result)),  # the reader's language
        "transfers": list(result.get("transfers", [])),
        "net": dict(result.get("net", {})),
        "redeal": bool(result.get("redeal")),
        "winners": list(result.get("winners", [])),
        "created_at": hand.created_at.isoformat(),
        "voided_at": hand.voided_at.isoformat() if hand.voided_at else None,
    } | ({"kind": hand.kind, "pool_end": {"pot": result["pot"], "shares": dict(result["shares"]),
                                           "end": dict(result["pool_end"])}} if "pool_end" in result
         else {"kind": hand.kind, "winner": result.get("winner"), "pot": result["pot"]} if "pot" in result else {}) \
      | (rummy_hand_json(hand) if "points" in result else {})


def rummy_hand_json(hand: Hand) -> dict[str, Any]:
    """What a 13-card rummy hand adds to :func:`hand_json` (RUMMY13.md §8.2): ``kind``, ``winner``
    (or null), ``points`` (each player's points charged, 0 for the winner) and the hand's
    ``wild_rank`` (or null)."""
    winners = hand.result.get("winners") or []
    return {"kind": hand.kind, "winner": winners[0] if winners else None,
            "points": dict(hand.result["points"]), "wild_rank": hand.entry.get("wild_rank")}


def describe_stored(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> Any:
    """A stored hand in one sentence (:class:`~ledger.sentences.Sentence`) by the game that
    scored it: Tong-its' for a TONGITS.md §8.2 result (it has a ``pot``), else Tonk's."""
    return describer_of(result)(outcome, result)


def describer_of(result: Mapping[str, Any]) -> Any:
    """The describing function of the game that scored ``result``: a stored Tong-its result
    (TONGITS.md §8.2) is the one with a ``pot``, a 13-card rummy one (RUMMY13.md §8.2) the one
    with ``points``; Tonk's has neither."""
    if "pool_end" in result:  # the end of a pool (RUMMY13.md §4.10) has a pot too
        return describe_rummy_hand
    if "pot" in result:
        return describe_tongits_hand
    return describe_rummy_hand if "points" in result else describe_hand

