"""A night's running figures, kept up to date in the same transaction as each change, so that no
request that runs per hand or per poll reads every hand, transfer or payment of the night.

Kept per player (:class:`~ledger.storage.models.PlayerFigures`, one row for everyone who ever sat):
``net_minor`` over the counted hands, ``paid_minor`` what the counted payments moved (paid less
received), ``last_hand`` the last hand number the player sat at. Kept on the night's row
(:class:`~ledger.storage.models.GameSession`): ``counted_hands`` and ``stakes`` (where the stake changed).
For a game with accounts besides the players (:attr:`ledger.games.base.Game.accounts`, Tong-its'
``"pot"``): each account's balance (:class:`~ledger.storage.models.NightAccount`, received less paid over
the counted hands, from the balance it opened with: a pot a club brought in, TONGITS.md §4.8; the
players' nets plus each account's movement, its balance less its opening, sum to zero) and, on the
night's row, the game's ``game_state`` (what the next hand is scored from, TONGITS.md §4.8).

Every change calls one of the functions below after :func:`lock` (the night's row, locked for
the transaction: PostgreSQL queues the changes of one night behind it, SQLite's write lock
already does), and applies differences with atomic increments (``SET net_minor = net_minor +
:delta``), so concurrent writers on PostgreSQL lose no update. The rows of one night are
updated after the night's row (in name order, or all of them in one statement for a recorded
hand), so two changes never wait on each other in a circle.

:func:`recompute` works every figure out again from the hands and payments (what the PDF
report reads anyway, and what the tests compare with :func:`kept`). Amounts are ``int`` minor
units.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, case, func, insert, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from ledger.games import game as game_of
from ledger.storage.models import GameSession, Hand, HandTransfer, NightAccount, Payment, PlayerFigures
from ledger.night.timeline import StakeChange, last_hand_of, seat_order

FIGURES = PlayerFigures.__table__  # type: ignore[attr-defined]
NIGHTS = GameSession.__table__  # type: ignore[attr-defined]
ACCOUNTS = NightAccount.__table__  # type: ignore[attr-defined]
#: a hand's ``kind`` that is not a hand played but an entry of the ledger's (TONGITS.md §4.9: the
#: pot closed at the end of the night or at a seat change): it moves money, and does not count
#: among the night's hands
NOT_A_HAND = frozenset({"close_pot", "pool_end"})  # pool_end: the end of a pool paid its pot (RUMMY13.md §4.10)

# the statements every change runs, prepared once (SQLAlchemy caches their compiled forms)
_OF_PLAYER = (FIGURES.c.session_id == bindparam("night")) & (FIGURES.c.player == bindparam("name"))
_ADD = {column: update(FIGURES).where(_OF_PLAYER).values({column: FIGURES.c[column] + bindparam("delta")})
        for column in ("net_minor", "paid_minor")}
_ADD_ACCOUNT = update(ACCOUNTS).where(
    (ACCOUNTS.c.session_id == bindparam("night")) & (ACCOUNTS.c.account == bindparam("name"))).values(
    balance_minor=ACCOUNTS.c.balance_minor + bindparam("delta"))
_SET_STATE = update(NIGHTS).where(NIGHTS.c.id == bindparam("night")).values(game_state=bindparam("state"))
_ACCOUNT_BALANCES = select(ACCOUNTS.c.account, ACCOUNTS.c.balance_minor).where(
    ACCOUNTS.c.session_id == bindparam("night"))
_OPENINGS = select(ACCOUNTS.c.account, ACCOUNTS.c.opening_minor).where(ACCOUNTS.c.session_id == bindparam("night"))
_STATE = select(NIGHTS.c.game_state).where(NIGHTS.c.id == bindparam("night"))
_COUNT = update(NIGHTS).where(NIGHTS.c.id == bindparam("night")).values(
    counted_hands=NIGHTS.c.counted_hands + bindparam("delta"))
NEW_HAND = _NEW_HAND = (
    update(NIGHTS).where(NIGHTS.c.id == bindparam("night"), NIGHTS.c.status == "open")
    .values(last_hand_number=NIGHTS.c.last_hand_number + 1, counted_hands=NIGHTS.c.counted_hands + 1)
    .returning(NIGHTS.c.last_hand_number, NIGHTS.c.counted_hands, NIGHTS.c.players, NIGHTS.c.stake_minor,
               NIGHTS.c.game_state)
)
_NEW_ENTRY = (  # an entry that is not a hand (NOT_A_HAND): a number, not a counted hand
    update(NIGHTS).where(NIGHTS.c.id == bindparam("night"), NIGHTS.c.status == "open")
    .values(last_hand_number=NIGHTS.c.last_hand_number + 1)
    .returning(NIGHTS.c.last_hand_number, NIGHTS.c.counted_hands, NIGHTS.c.players, NIGHTS.c.stake_minor,
               NIGHTS.c.game_state)
)
_COUNTED_HANDS = select(NIGHTS.c.counted_hands).where(NIGHTS.c.id == bindparam("night"))
_STAKES = select(NIGHTS.c.stakes).where(NIGHTS.c.id == bindparam("night"))
_COUNTERS = select(NIGHTS.c.counted_hands, NIGHTS.c.last_hand_number, NIGHTS.c.stakes, NIGHTS.c.game_state).where(
    NIGHTS.c.id == bindparam("night"))
_OF_NIGHT = FIGURES.c.session_id == bindparam("night")
_BY_PLAYER = {
    "net": select(FIGURES.c.player, FIGURES.c.net_minor).where(_OF_NIGHT),
    "outstanding": select(FIGURES.c.player, FIGURES.c.net_minor + FIGURES.c.paid_minor).where(_OF_NIGHT),
    "last_hand": select(FIGURES.c.player, FIGURES.c.last_hand).where(_OF_NIGHT),
}
_PLAYER_FIGURES = select(FIGURES.c.player, FIGURES.c.net_minor, FIGURES.c.paid_minor, FIGURES.c.last_hand).where(
    _OF_NIGHT)


# -- what every change does first ------------------------------------------------------------------
def lock(db: Session, night: GameSession) -> GameSession:
    """The night's row, locked until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL; under SQLite's write lock already) and read afresh, so what a change reads
    next (a hand's status, what is owed) is what it changes. Call after ``begin_write``."""
    statement = (select(GameSession).where(GameSession.id == night.id).with_for_update()
                 .execution_options(populate_existing=True))
    return db.exec(statement).one()


# -- keeping the figures ---------------------------------------------------------------------------
def opening_stakes(stake_minor: int) -> list[list[int]]:
    """``GameSession.stakes`` of a new night: ``stake_minor`` from hand 1."""
    return [[1, stake_minor]]


def players_seated(db: Session, night: GameSession, names: Iterable[str]) -> None:
    """Rows for players sitting at the night for the first time (nothing owed yet)."""
    rows = [{"session_id": night.id, "player": name} for name in names]
    if rows:
        db.connection().execute(insert(FIGURES), rows)


def new_hand_number(db: Session, night: GameSession, *, counted: bool = True) -> tuple[int, list[str], int] | None:
    """Take the number of a hand about to be recorded and count it, in one statement that
    also reads the seating and stake it is played at: ``(number, players, stake_minor)``, or
    ``None`` when the night is not open. The night's row stays locked until the transaction
    ends (PostgreSQL's row lock; SQLite's write lock already), which keeps numbers unique and
    gap-free under concurrent recorders. :func:`hand_recorded` follows in the same transaction.
    The game state read with them is set on ``night`` (``night.game_state``, as stored).
    ``counted=False``: the number of an entry that is not a hand (:data:`NOT_A_HAND`), which the
    night's hand count leaves out."""
    taken = new_hand_row(db, night, _NEW_HAND if counted else _NEW_ENTRY)
    return taken[:3] if taken is not None else None


def new_hand_row(db: Session, night: GameSession, statement: Any) -> tuple[int, list[str], int, Any] | None:
    """:func:`new_hand_number` by ``statement`` (:data:`NEW_HAND`, or it returning more: who
    dealt the last counted hand, :func:`ledger.night.reads.take_number_and_dealer`), with the
    row it returned: ``(number, players, stake_minor, row)``."""
    row = db.connection().execute(statement, {"night": night.id}).first()
    if row is None:
        return None
    set_committed_value(night, "last_hand_number", int(row.last_hand_number))  # as stored: nothing to write
    set_committed_value(night, "counted_hands", int(row.counted_hands))
    set_committed_value(night, "game_state", row.game_state)
    return int(row.last_hand_number), list(row.players), int(row.stake_minor), row


def accounts_opened(db: Session, night: GameSession, balances: Mapping[str, int]) -> None:
    """Rows for the accounts of a new night's game (``balances``: account → opening balance,
    minor units; a pot a club brought in, TONGITS.md §4.8, which the players' nets of this night do
    not match: they match each account's movement from it)."""
    rows = [{"session_id": night.id, "account": name, "balance_minor": amount, "opening_minor": amount}
            for name, amount in balances.items()]
    if rows:
        db.connection().execute(insert(ACCOUNTS), rows)


def state_changed(db: Session, night: GameSession, state: Mapping[str, Any] | None) -> None:
    """The state the night's next hand is scored from is now ``state`` (the night's row, locked;
    set on ``night`` as stored)."""
    value = None if state is None else dict(state)
    db.connection().execute(_SET_STATE, {"night": night.id, "state": value})
    set_committed_value(night, "game_state", value)


def hand_recorded(db: Session, night: GameSession, number: int, players: Sequence[str],
                  transfers: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """New hand ``number`` (taken and counted by :func:`new_hand_number`) counts: the
    ``transfers`` (payer, payee, amount) are added to the nets, and ``number`` is the last hand
    of everyone in ``players``. Returns every player's net as written (what :func:`balances`
    would read next, in seat order, minor units): one ``UPDATE … RETURNING`` over the night's
    player rows (everyone who ever sat, never its hands), so the answer needs no other read."""
    net = dict.fromkeys(players, 0) | _deltas(transfers)
    accounts = _accounts(night)
    _add_accounts(db, night, {name: amount for name, amount in net.items() if name in accounts})
    moved = {name: amount for name, amount in net.items() if name not in accounts}
    return _moved(db, night, moved, last_hand=number)


def _moved(db: Session, night: GameSession, delta: Mapping[str, int], *, last_hand: int | None = None) -> dict[str, int]:
    """Add ``delta`` (player → minor units) to the players' nets, and with ``last_hand`` make it
    the last hand of everyone in ``delta``, in one ``UPDATE … RETURNING`` over the night's player
    rows (everyone who ever sat; SQLite 3.35+ and PostgreSQL): every player's net as written, in
    seat order. The statement is prepared once per shape (:func:`_moving`); names and amounts
    are its parameters."""
    moving = sorted((name, amount) for name, amount in delta.items() if amount)  # a redeal moves nothing
    if last_hand is None and not moving:
        return balances(db, night)
    # no parameter named as a column: an UPDATE would set a column its parameters name
    params: dict[str, Any] = {"night": night.id}
    if last_hand is not None:
        params |= {"hand_number": last_hand, "sat": sorted(delta)}
    for i, (name, amount) in enumerate(moving):
        params[f"p{i}"], params[f"d{i}"] = name, amount
    written = dict(db.connection().execute(_moving(last_hand is not None, len(moving)), params).all())
    return {p: int(written.get(p) or 0) for p in seat_order(night)}


@lru_cache(maxsize=64)
def _moving(sets_last_hand: bool, moves: int) -> Any:
    """The ``UPDATE … RETURNING`` of :func:`_moved` for its shape: whether it sets ``last_hand``
    (to ``hand_number`` for the players in the expanding parameter ``sat``), and how many nets it moves (player
    ``p{i}`` by ``d{i}``). Built once per shape: building it took a fifth of a recorded hand's
    time in Python."""
    changes: dict[str, Any] = {}
    if sets_last_hand:
        changes["last_hand"] = case((FIGURES.c.player.in_(bindparam("sat", expanding=True)), bindparam("hand_number")),
                                    else_=FIGURES.c.last_hand)
    if moves:
        changes["net_minor"] = FIGURES.c.net_minor + case(
            *[(FIGURES.c.player == bindparam(f"p{i}"), bindparam(f"d{i}")) for i in range(moves)], else_=0)
    return (update(FIGURES).where(FIGURES.c.session_id == bindparam("night")).values(changes)
            .returning(FIGURES.c.player, FIGURES.c.net_minor))


def hand_voided(db: Session, night: GameSession, hand: Hand) -> dict[str, int]:
    """Counted ``hand`` stops counting (void, undo). Returns every player's net as written (what
    :func:`balances` would read next, seat order, minor units; one ``UPDATE … RETURNING`` over
    the night's player rows)."""
    if hand.kind not in NOT_A_HAND:
        _count(db, night, -1)
    delta = _deltas(_stored_transfers(db, [hand]), sign=-1)
    accounts = _accounts(night)
    _add_accounts(db, night, {name: amount for name, amount in delta.items() if name in accounts})
    return _moved(db, night, {name: amount for name, amount in delta.items() if name not in accounts})


def hand_voided_as_stored(db: Session, night: GameSession, hand: Hand) -> dict[str, int]:
    """:func:`hand_voided` for a game without accounts (Tonk), the night's count of hands taken
    down by the caller: the nets move back by the hand's stored net (``result["net"]``, what its
    transfers moved), with no read of the transfers. Returns every player's net as written."""
    return _moved(db, night, {str(p): -int(v) for p, v in (hand.result.get("net") or {}).items() if v})


def hand_restored(db: Session, night: GameSession, hand: Hand) -> None:
    """Voided ``hand`` counts again (restore, redo)."""
    if hand.kind not in NOT_A_HAND:
        _count(db, night, 1)
    _add_net(db, night, _deltas(_stored_transfers(db, [hand])))


def hands_replaced(db: Session, night: GameSession, old: Sequence[Hand], new: Sequence[Hand]) -> None:
    """Counted versions ``old`` were replaced by counted versions ``new`` (a correction, a seat
    fix; both flushed): the nets move by the difference, and every hand still counts."""
    delta = _deltas(_stored_transfers(db, old), sign=-1)
    for name, amount in _deltas(_stored_transfers(db, new)).items():
        delta[name] = delta.get(name, 0) + amount
    _add_net(db, night, delta)


def payment_counted(db: Session, night: GameSession, payment: Payment, sign: int = 1) -> None:
    """A payment starts counting (``sign`` 1) or stops (``sign`` -1, a void)."""
    amount = sign * payment.amount_minor
    _add(db, night, "paid_minor", {payment.payer: amount, payment.payee: -amount})


def player_renamed(db: Session, night: GameSession, old: str, new: str) -> None:
    db.connection().execute(update(FIGURES).where(FIGURES.c.session_id == night.id, FIGURES.c.player == old)
                            .values(player=new))


def stake_changed(db: Session, night: GameSession, from_hand: int, stake_minor: int) -> None:
    """From hand ``from_hand`` (the next to be recorded) the stake is ``stake_minor``. A change
    made before any hand was played at the last one replaces it; changing back to the stake of
    the hands before drops it."""
    stakes = [list(change) for change in night.stakes or [[1, stake_minor]]]
    if stakes[-1][0] >= from_hand:
        stakes.pop()
    if not stakes or stakes[-1][1] != stake_minor:
        stakes.append([from_hand if stakes else 1, stake_minor])
    night.stakes = stakes
    db.add(night)


def _count(db: Session, night: GameSession, delta: int) -> None:
    db.connection().execute(_COUNT, {"night": night.id, "delta": delta})


def _add_net(db: Session, night: GameSession, delta: Mapping[str, int]) -> None:
    accounts = _accounts(night)
    _add(db, night, "net_minor", {name: amount for name, amount in delta.items() if name not in accounts})
    _add_accounts(db, night, {name: amount for name, amount in delta.items() if name in accounts})


def _accounts(night: GameSession) -> tuple[str, ...]:
    """The accounts of the night's game besides the players (Tonk: none)."""
    return game_of(night.game or None).accounts


def _add_accounts(db: Session, night: GameSession, delta: Mapping[str, int]) -> None:
    changes = [{"night": night.id, "name": name, "delta": amount} for name, amount in sorted(delta.items()) if amount]
    if changes:
        db.connection().execute(_ADD_ACCOUNT, changes)


def _add(db: Session, night: GameSession, column: str, delta: Mapping[str, int]) -> None:
    changes = [{"night": night.id, "name": name, "delta": amount} for name, amount in sorted(delta.items()) if amount]
    if changes:
        db.connection().execute(_ADD[column], changes)


def _deltas(transfers: Iterable[tuple[str, str, int]], sign: int = 1) -> dict[str, int]:
    out: dict[str, int] = {}
    for payer, payee, amount in transfers:
        out[payer] = out.get(payer, 0) - sign * amount
        out[payee] = out.get(payee, 0) + sign * amount
    return out


def _stored_transfers(db: Session, hands: Sequence[Hand]) -> list[tuple[str, str, int]]:
    if not hands:
        return []
    db.flush()
    rows = db.exec(select(HandTransfer.payer, HandTransfer.payee, HandTransfer.amount_minor)
                   .where(col(HandTransfer.hand_id).in_([h.id for h in hands])))
    return [(payer, payee, int(amount)) for payer, payee, amount in rows]


# -- reading them --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Figures:
    """A night's running figures: ``net`` and ``paid`` (minor units) and ``last_hand`` by player
    in :func:`ledger.night.timeline.seat_order`, ``counted_hands``, ``stakes`` (where the stake changed),
    and ``last_number``, the last hand number given out (read from the night's row by both
    :func:`kept` and :func:`recompute`: :func:`new_hand_number` keeps it)."""

    net: dict[str, int]
    paid: dict[str, int]
    last_hand: dict[str, int | None]
    counted_hands: int
    stakes: list[StakeChange]
    last_number: int
    #: the balance of each account of the night's game (minor units; Tonk: none)
    accounts: dict[str, int] = field(default_factory=dict)
    #: the state the next hand is scored from (Tonk: ``None``)
    state: dict[str, Any] | None = None


def kept(db: Session, night: GameSession) -> Figures:
    """The figures as kept: one indexed read of the night's player rows, one of its row, and for
    a game with accounts one of those (what the table screen shows, and what the tests compare
    with :func:`recompute`)."""
    rows = {name: (net, paid, last) for name, net, paid, last in
            db.connection().execute(_PLAYER_FIGURES, {"night": night.id})}
    counted, last_number, stakes, state = db.connection().execute(_COUNTERS, {"night": night.id}).one()
    accounts = _accounts(night)  # read only for a game that keeps accounts (Tonk: none)
    kept_accounts = dict(db.connection().execute(_ACCOUNT_BALANCES, {"night": night.id}).all()) if accounts else {}
    order = seat_order(night)
    nothing = (0, 0, None)
    return Figures(
        net={p: int(rows.get(p, nothing)[0]) for p in order},
        paid={p: int(rows.get(p, nothing)[1]) for p in order},
        last_hand={p: None if rows.get(p, nothing)[2] is None else int(rows[p][2]) for p in order},
        counted_hands=int(counted),
        stakes=_stake_changes(stakes),
        last_number=int(last_number),
        accounts={name: int(kept_accounts.get(name, 0)) for name in accounts},
        state=None if state is None else dict(state),
    )


def balances(db: Session, night: GameSession) -> dict[str, int]:
    """Each player's running net over the counted hands (kept), in seat order."""
    return _by_player(db, night, "net", 0)


def outstanding(db: Session, night: GameSession) -> dict[str, int]:
    """What each player still owes (< 0) or is owed (> 0) after the counted payments (kept),
    in seat order."""
    return _by_player(db, night, "outstanding", 0)


def last_hands(db: Session, night: GameSession) -> dict[str, int | None]:
    """The last hand number each player sat at (kept; None before their first), seat order."""
    return _by_player(db, night, "last_hand", None)


def kept_accounts(db: Session, night: GameSession) -> dict[str, int]:
    """The balance of each account of the night's game (kept; minor units; Tonk: none)."""
    found = dict(db.connection().execute(_ACCOUNT_BALANCES, {"night": night.id}).all())
    return {name: int(found.get(name, 0)) for name in _accounts(night)}


def openings(db: Session, night: GameSession) -> dict[str, int]:
    """The balance each account of the night's game opened with (minor units: a pot its club
    brought in, TONGITS.md §4.8, else 0; Tonk: none). One indexed read."""
    found = dict(db.connection().execute(_OPENINGS, {"night": night.id}).all())
    return {name: int(found.get(name, 0)) for name in _accounts(night)}


def movements(db: Session, night: GameSession) -> dict[str, int]:
    """What the counted hands moved into each account of the night's game (kept balance less its
    opening, minor units): the players' nets plus these sum to zero."""
    opened = openings(db, night)
    return {name: amount - opened.get(name, 0) for name, amount in kept_accounts(db, night).items()}


def first_state(db: Session, night: GameSession) -> dict[str, Any] | None:
    """The state the night's first hand is scored from: the game's first state with the
    accounts' opening balances (TONGITS.md §4.8: a carried pot, no holder); ``None`` for Tonk."""
    chosen = game_of(night.game or None)
    opened = openings(db, night)
    first = chosen.initial_state(chosen.rules_from_snapshot(night.ruleset),  # type: ignore[arg-type]
                                 opened if any(opened.values()) else None)
    return None if first is None else dict(first)


def kept_state(db: Session, night: GameSession) -> dict[str, Any] | None:
    """The state the night's next hand is scored from (kept; Tonk: ``None``), read afresh."""
    state = db.connection().execute(_STATE, {"night": night.id}).scalar_one()
    return None if state is None else dict(state)


def counted_hands(db: Session, night: GameSession) -> int:
    """How many hands count (kept), redeals included."""
    return int(db.connection().execute(_COUNTED_HANDS, {"night": night.id}).scalar_one())


def stake_changes(db: Session, night: GameSession) -> list[StakeChange]:
    """Where the stake changed (kept), as :func:`ledger.night.timeline.stake_changes` works it out
    from every hand; the last entry is the current stake."""
    return _stake_changes(db.connection().execute(_STAKES, {"night": night.id}).scalar_one())


def _stake_changes(stored: list[list[int]]) -> list[StakeChange]:
    """``GameSession.stakes`` as stored (``[[from_hand, stake_minor], ...]``) as changes."""
    return [StakeChange(int(h), int(s)) for h, s in stored]


def _by_player(db: Session, night: GameSession, figure: str, default: int | None) -> dict[str, Any]:
    found = dict(db.connection().execute(_BY_PLAYER[figure], {"night": night.id}).all())
    return {p: default if found.get(p) is None else int(found[p]) for p in seat_order(night)}


# -- working them out again -------------------------------------------------------------------------
def recompute(db: Session, night: GameSession) -> Figures:
    """Every figure worked out again from all the night's hands, transfers and payments (the
    full reads the kept figures spare each request)."""
    from ledger.night.timeline import stake_changes as changes_over

    order = seat_order(night)
    last_number = int(db.exec(select(GameSession.last_hand_number).where(GameSession.id == night.id)).one())
    hands = list(db.exec(select(Hand).where(Hand.session_id == night.id, Hand.status != "superseded")
                         .order_by(Hand.number)))  # type: ignore[arg-type]
    net = dict.fromkeys(order, 0)
    opened = openings(db, night)
    accounts = dict(opened)
    rows = db.exec(select(HandTransfer.payer, HandTransfer.payee, func.sum(HandTransfer.amount_minor))
                   .join(Hand, HandTransfer.hand_id == Hand.id)  # type: ignore[arg-type]
                   .where(Hand.session_id == night.id, Hand.status == "counted")
                   .group_by(HandTransfer.payer, HandTransfer.payee))
    for payer, payee, amount in rows:
        (accounts if payer in accounts else net)[payer] -= int(amount)
        (accounts if payee in accounts else net)[payee] += int(amount)
    paid = dict.fromkeys(order, 0)
    for payment in db.exec(select(Payment).where(Payment.session_id == night.id, Payment.status == "counted")):
        paid[payment.payer] += payment.amount_minor
        paid[payment.payee] -= payment.amount_minor
    return Figures(
        net=net,
        paid=paid,
        last_hand={p: last_hand_of(p, hands) for p in order},
        counted_hands=sum(1 for h in hands if h.status == "counted" and h.kind not in NOT_A_HAND),
        stakes=changes_over(night, hands, last_number + 1),
        last_number=last_number,
        accounts=accounts,
        state=state_after(night, [h for h in hands if h.status == "counted"], opened),
    )


def state_after(night: GameSession, counted: Sequence[Hand],
                opened: Mapping[str, int] | None = None) -> dict[str, Any] | None:
    """The game state after the ``counted`` hands (number order): the state the last of them
    stored (``result["state"]``), or the game's first state when none counts (with the accounts'
    ``opened`` balances, :func:`openings`)."""
    for hand in reversed(counted):
        if "state" in hand.result:
            stored = hand.result["state"]
            return None if stored is None else dict(stored)
    chosen = game_of(night.game or None)
    first = chosen.initial_state(chosen.rules_from_snapshot(night.ruleset),  # type: ignore[arg-type]
                                 dict(opened) if opened and any(opened.values()) else None)
    return None if first is None else dict(first)


def rebuild(db: Session, night: GameSession) -> Figures:
    """Store :func:`recompute`'s figures as the kept ones, for a night whose hands and payments
    were written whole rather than change by change (a club imported from its export). Call
    after they are flushed, in the same write transaction; returns the figures stored."""
    db.flush()
    figures = recompute(db, night)
    opened = openings(db, night)
    db.connection().execute(FIGURES.delete().where(FIGURES.c.session_id == night.id))
    rows = [{"session_id": night.id, "player": p, "net_minor": figures.net[p], "paid_minor": figures.paid[p],
             "last_hand": figures.last_hand[p]} for p in figures.net]
    if rows:
        db.connection().execute(insert(FIGURES), rows)
    db.connection().execute(ACCOUNTS.delete().where(ACCOUNTS.c.session_id == night.id))
    accounts_opened(db, night, opened)
    _add_accounts(db, night, {name: amount - opened.get(name, 0) for name, amount in figures.accounts.items()})
    db.connection().execute(update(NIGHTS).where(NIGHTS.c.id == night.id).values(
        counted_hands=figures.counted_hands,
        stakes=[[change.from_hand, change.stake_minor] for change in figures.stakes],
        game_state=figures.state))
    db.expire(night, ["counted_hands", "stakes", "game_state"])
    return figures
