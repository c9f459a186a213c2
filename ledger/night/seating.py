"""The night as it really goes: players sit in and leave, the stake changes, seats get fixed.

Every change takes effect from the next hand (``from_hand``, the number the next recorded hand
gets); hands already played keep the seating and stake they were played at (``Hand.players``,
``Hand.stake_minor``), and an amendment keeps them too. The rules stay frozen for the night,
and ``max_players`` bounds the table at every moment. Each change is one audit event
(``player_sat_in``, ``player_left``, ``stake_changed``, ``seats_swapped``, ``player_renamed``)
written in the same transaction, under the night row's lock, so a hand recorded at the same
moment is played either before the change or after it, never half-way.

Only the host may change the seating (action ``seat``, :mod:`ledger.access.roles`). Amounts are
``int`` minor units. Errors: :class:`~ledger.games.tonk.HandError` (422) with the RULES.md §9.1 codes
(``too_many_players``, ``duplicate_player``, ``unknown_player``, ``invalid_stake``) or
``invalid_entry``; :class:`~ledger.night.lifecycle.NightError` 409 ``session_closed``, 422 for a seat fix
that a re-entered hand refuses (with the ``hand`` number).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlalchemy import update
from sqlmodel import Session, col, select

from ledger.night import figures
from ledger.access.roles import SYSTEM, Actor
from ledger.storage.db import begin_write
from ledger.storage.models import GameSession, Hand, HandTransfer, Payment
from ledger.names import alike_names, clean_name, look_alike, normalise_name
from ledger.night.lifecycle import (
    MAX_NAME,
    NightError,
    Submission,
    audit,
    balances,
    close_pot,
    hands_of,
    next_dealer,
    next_number,
    outstanding,
    payment_json,
    preview_hand,
    rules_of,
    store_version,
)
from ledger.night import rescoring
from ledger.night.recording import deals_by_rule, pot_close_preview, stored_result
from ledger.games import game
from ledger.games.tonk import HandError
from ledger.games.tonk.renaming import rename_entry, rename_result, rename_state
from ledger.games.tonk.validation import check_stake
from ledger.sentences import N_, Sentence
from ledger.money import is_points
from ledger.settlement.plan import CashOut, cash_out
from ledger.night.timeline import seat_for_newcomer, seat_order
from ledger.night.reads import pool_standing

SETTLE_CHOICES = ("now", "at_end")


@dataclass(frozen=True, slots=True)
class SeatingChange:
    """The seating after a change and the first hand it applies to; ``pot_closed``: the
    ``close_pot`` entry (reason ``seat_change``, TONGITS.md §4.9) the change recorded first, for a
    night whose game keeps a pot that was open, else ``None``."""

    players: tuple[str, ...]
    from_hand: int
    pot_closed: Hand | None = None


@dataclass(frozen=True, slots=True)
class Departure:
    """A player who left: the seating after, from which hand, their balance as of their last
    hand (``as_of_hand``; ``balance_minor`` over the hands, ``outstanding_minor`` after the
    payments made before leaving), the cash-out and, when settled now, its payments; ``pot_closed``:
    the ``close_pot`` entry the leave recorded first (TONGITS.md §4.9), else ``None``."""

    name: str
    players: tuple[str, ...]
    from_hand: int
    as_of_hand: int | None
    balance_minor: int
    outstanding_minor: int
    settle: str
    cash_out: CashOut
    payments: tuple[Payment, ...]
    pot_closed: Hand | None = None


def _locked(db: Session, night: GameSession) -> GameSession:
    """Start writing (:func:`ledger.storage.db.begin_write`): the night's row, locked for this
    transaction and read afresh (hands recorded at the same moment queue behind the change)."""
    begin_write(db)
    return figures.lock(db, night)


def _require_open(night: GameSession) -> None:
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; its seats and stake can no longer change."))


def _refuse_mid_pool(night: GameSession, field: str) -> None:
    """A pool in progress (RUMMY13.md §4.10) keeps its players and their names: its scores, who is
    out and the buy-ins that make its pot are kept by name, and a seat change would leave a
    night that can neither score, end nor close. :class:`NightError` 409 ``pool_in_progress``
    naming ``field`` until the pool has ended."""
    standing = pool_standing(night)
    if standing is not None and not standing["ended"]:
        raise NightError(409, "pool_in_progress",
                         N_("A pool in progress keeps its players and their names: end the pool first "
                            "(or start a new night), then change the seats."), field)


def _refuse_an_account_name(night: GameSession, name: str, field: str) -> None:
    """Tong-its' ``"pot"`` is an account of the books: a player named so (any case), by a sit-in
    or a rename, would mix with it. :class:`HandError` 422 ``invalid_player_name`` naming ``field``."""
    if name.casefold() in {account.casefold() for account in game(night.game or None).accounts}:
        raise HandError("invalid_player_name", N_("No player may be called {name}: the pot takes that name."),
                        field, name=name)


def _name_clash(night: GameSession, name: str, field: str, *, besides: str | None = None) -> None:
    """:class:`HandError` ``duplicate_player`` when ``name`` looks like someone who sat at the
    night (other than ``besides``): :func:`ledger.names.look_alike`, it differs only in capitals,
    in a dotted or dotless i, or in letters that look the same (UTS #39)."""
    other = look_alike(name, [p for p in seat_order(night) if p not in (besides, name)])
    if other is not None:
        raise alike_names(name, other, field)


def sit_in(db: Session, night: GameSession, name: str, after: str | None = None, actor: Actor = SYSTEM) -> SeatingChange:
    """Seat ``name`` from the next hand: just after the seated player ``after``, or by default
    at the next dealer's right so that they deal last (RULES.md §2). A player who left comes
    back under the same name and keeps their balance.

    On a night whose game keeps a pot (Tong-its) with a pot still open (a balance, or someone on a
    streak), the pot is closed first, in the same transaction (:func:`close_pot`, reason
    ``seat_change``, TONGITS.md §4.9: the rules' ``pot_on_seat_change``, ``split`` among the
    players seated before the change, or ``keep``; the streak is cleared either way): that entry
    takes the next number, and the new seating applies from the hand after it.

    Raises :class:`HandError` 422 ``invalid_entry`` (field ``name``) for a name that is not a
    name, ``duplicate_player`` (already seated, or looking like someone who sat:
    :func:`ledger.names.look_alike`), ``unknown_player`` (field ``after``) when ``after`` is not seated,
    ``too_many_players`` beyond the rules' ``max_players``; :class:`NightError` 409
    ``session_closed``; :class:`~ledger.access.roles.AccessDenied` unless host.
    """
    actor.require("seat")
    _refuse_mid_pool(night, "name")
    name = clean_name(name, "name", MAX_NAME)
    _refuse_an_account_name(night, name, "name")
    neighbour = normalise_name(after) if isinstance(after, str) and after.strip() else None
    night = _locked(db, night)
    _require_open(night)
    seated = list(night.players)
    if name in seated:
        raise HandError("duplicate_player", N_("{name} is already seated."), "name", name=name)
    if name not in seat_order(night):  # a player coming back sits under the name they had
        _name_clash(night, name, "name")
    if neighbour is not None and neighbour not in seated:
        raise HandError("unknown_player", N_("{name} is not seated, so nobody can sit next to them."), "after",
                        name=neighbour)
    most = rules_of(night).max_players
    if len(seated) + 1 > most:
        raise HandError("too_many_players",
                        N_("These rules seat at most {most} players, and {count} are seated."), "name",
                        most=most, count=len(seated))
    closed = close_pot(db, night, actor, "seat_change")  # TONGITS.md §4.9: before anyone joins
    from_hand = next_number(db, night)
    index = seat_for_newcomer(seated, next_dealer(db, night), neighbour)
    players = seated[:index] + [name] + seated[index:]
    returning = name in (night.roster or [])
    night.players = players
    if not returning:
        night.roster = list(night.roster or []) + [name]
        figures.players_seated(db, night, [name])
    db.add(night)
    audit(db, night, actor, "player_sat_in", before={"players": seated},
          after={"name": name, "players": players, "from_hand": from_hand, "after": players[index - 1] if index else None,
                 "returning": returning} | _closed_number(closed))
    db.commit()
    return SeatingChange(tuple(players), from_hand, closed)


def _closed_number(closed: Hand | None) -> dict[str, Any]:
    """The audit detail naming the ``close_pot`` entry a seat change recorded first, if any."""
    return {} if closed is None else {"pot_closed": closed.number}


def leave(db: Session, night: GameSession, name: str, settle: str = "now", actor: Actor = SYSTEM) -> Departure:
    """``name`` leaves from the next hand. Their balance as of their last hand (after the
    payments already made) is cleared by the fewest transfers with the players still seated
    (:func:`ledger.settlement.plan.cash_out`), without changing anyone's net. With ``settle="now"``
    those transfers are recorded as payments (``kind`` ``cash_out``) at once; with
    ``"at_end"`` they are only shown, and the leaver stays in the night's final plan. A player
    who left may sit in again later.

    On a night whose game keeps an open pot (Tong-its), the pot is closed first in the same
    transaction, as :func:`sit_in` closes it (TONGITS.md §4.9, ``seat_change``: a ``split`` pays the
    leaver their share too), so the leaver's balance and cash-out include their share.

    Raises :class:`HandError` 422 ``invalid_entry`` (field ``settle``), ``unknown_player``
    (field ``name``) for a player who is not seated, ``too_few_players`` for the last player
    seated (close the night instead); :class:`NightError` 409 ``session_closed``;
    :class:`~ledger.access.roles.AccessDenied` unless host.
    """
    actor.require("seat")
    _refuse_mid_pool(night, "name")
    if settle not in SETTLE_CHOICES:
        raise HandError("invalid_entry", N_("Say whether the leaver is paid now or at the end (now or at_end)."), "settle")
    name = normalise_name(name) if isinstance(name, str) else ""
    if not name:
        raise HandError("invalid_entry", N_("Choose who is leaving."), "name")
    night = _locked(db, night)
    _require_open(night)
    seated = list(night.players)
    if name not in seated:
        left_already = name in (night.roster or [])
        raise HandError("unknown_player",
                        N_("{name} already left this table.") if left_already
                        else N_("{name} is not seated at this table."),
                        "name", name=name)
    if len(seated) == 1:
        raise HandError("too_few_players", N_("{name} is the last player seated; close the night instead."), "name",
                        name=name)
    chosen = game(night.game or None)
    least = chosen.seat_range(rules_of(night)).start
    # a game with a pot closes it among the seated when the night closes: below its seats (Tong-its: 3)
    # the table could neither play a hand nor close (Tonk and rummy close with anyone left)
    if chosen.accounts and len(seated) - 1 < least:
        raise HandError("too_few_players",
                        N_("{name} cannot leave: these rules need at least {least} players at the table. "
                           "Seat someone first, or close the night."), "name", name=name, least=least)
    closed = close_pot(db, night, actor, "seat_change")  # TONGITS.md §4.9: the leaver gets their share
    quote = cash_out_quote(db, night, name, pot_open=closed is None)
    from_hand, as_of, balance, owed, plan = (quote.from_hand, quote.as_of_hand, quote.balance_minor,
                                             quote.outstanding, quote.cash_out)
    players = [p for p in seated if p != name]
    payments: list[Payment] = []
    if is_points(night.currency):  # a score sheet pays nothing: the leaver's score stays in the standings
        settle = "at_end"
    if settle == "now":
        for transfer in plan.transfers:
            payment = Payment(session_id=night.id, payer=transfer.payer, payee=transfer.payee,
                              amount_minor=transfer.amount_minor, kind="cash_out")
            db.add(payment)
            payments.append(payment)
    night.players = players
    db.add(night)
    db.flush()
    for payment in payments:
        figures.payment_counted(db, night, payment)
    audit(db, night, actor, "player_left", before={"players": seated}, after={
        "name": name, "players": players, "from_hand": from_hand, "as_of_hand": as_of, "settle": settle,
        "balance": balance, "outstanding": owed[name], "cash_out": plan.to_json(),
        "payments": [payment_json(p) for p in payments],
    } | _closed_number(closed))
    db.commit()
    return Departure(name, tuple(players), from_hand, as_of, balance, owed[name], settle, plan, tuple(payments),
                     closed)


@dataclass(frozen=True, slots=True)
class Quote:
    """What a seated player's leaving would settle, before they leave: ``balance_minor`` over
    the hands as of ``as_of_hand``, everyone's ``outstanding`` (after payments) and the cash-out."""

    name: str
    from_hand: int
    as_of_hand: int | None
    balance_minor: int
    outstanding: dict[str, int]
    cash_out: CashOut


def cash_out_quote(db: Session, night: GameSession, name: str, *, pot_open: bool = True) -> Quote:
    """The cash-out :func:`leave` would make for the seated player ``name`` now (nothing is
    written; the phone shows it before the host confirms). With ``pot_open`` (the default), a pot
    the leave would close first (:func:`ledger.night.recording.pot_close_preview`, TONGITS.md §4.9) is
    counted as closed: everyone's share of a split is in the balances and the plan, and
    ``from_hand`` / ``as_of_hand`` are the numbers after that entry. Raises ``ValueError`` for a
    player who is not seated."""
    if name not in night.players:
        raise ValueError(f"{name!r} is not seated")
    owed = outstanding(db, night)
    balance = balances(db, night)[name]
    from_hand, as_of = next_number(db, night), figures.last_hands(db, night)[name]
    closing = pot_close_preview(night, "seat_change") if pot_open else None
    if closing is not None:  # the close takes the next number and pays the seated players their shares
        share = closing[1].net
        owed = {player: amount + share.get(player, 0) for player, amount in owed.items()}
        balance += share.get(name, 0)
        from_hand, as_of = from_hand + 1, from_hand
    # the pot (TONGITS.md §4.8) is no one to pay or be paid at a cash-out, but what it holds is what
    # the players' balances do not sum to: it is a party of the balances only
    accounts = {account: amount for account, amount in figures.kept_accounts(db, night).items() if amount}
    if closing is not None:
        accounts = {account: amount + closing[1].net.get(account, 0) for account, amount in accounts.items()}
    plan = cash_out(owed | {a: v for a, v in accounts.items() if v}, name, [p for p in night.players if p != name])
    return Quote(name, from_hand, as_of, balance, owed, plan)


def change_stake(db: Session, night: GameSession, stake_minor: int, actor: Actor = SYSTEM) -> tuple[int, int]:
    """From the next hand the stake is ``stake_minor`` (minor units); hands already played keep
    theirs. Returns ``(stake, from_hand)``; the same stake again changes nothing.

    Raises :class:`HandError` 422 ``invalid_stake``; :class:`NightError` 409
    ``session_closed``; :class:`~ledger.access.roles.AccessDenied` unless host.
    """
    actor.require("seat")
    check_stake(stake_minor)
    night = _locked(db, night)
    _require_open(night)
    from_hand = next_number(db, night)
    before = night.stake_minor
    if before == stake_minor:
        db.rollback()
        return stake_minor, from_hand
    night.stake_minor = stake_minor
    figures.stake_changed(db, night, from_hand, stake_minor)
    db.add(night)
    audit(db, night, actor, "stake_changed", before={"stake_minor": before},
          after={"stake_minor": stake_minor, "from_hand": from_hand})
    db.commit()
    return stake_minor, from_hand


def swap_seats(
    db: Session, night: GameSession, a: str, b: str, from_hand: int, actor: Actor = SYSTEM
) -> list[Hand]:
    """``a`` and ``b`` were entered in each other's seats from hand ``from_hand`` on: at every
    hand from then, whatever was entered for one was the other's (cards, outcome, dealer,
    seat). Each such hand is re-entered as a new version at its own stake (the old version is
    kept, superseded) and the current seating is fixed the same way; one audit event names them
    all. A voided hand (an undo, a void) is re-entered too and stays voided, so that restoring
    it later brings it back at the fixed seats (one that seated only one of the two is left as
    it was). All or nothing: when any hand refuses, nothing changes.

    On a night whose game scores a hand from the state the hands before left (Tong-its' pot,
    TONGITS.md §4.8), the re-entered hands are scored in number order from that chained state, a
    later hand whose pot input changed gets a new version too, and the night's state becomes the
    one the last counted hand leaves. A swap keeps the same players at the table (nobody is "about
    to leave or join", TONGITS.md §4.9), so it never closes the pot.

    Returns the new versions, number order. Raises :class:`HandError` 422 ``invalid_entry``
    (the same player twice, a ``from_hand`` outside the night), ``unknown_player`` for a name
    who never sat; :class:`NightError` 422 with the refusing hand's code (``unknown_player``
    when only one of the two sat at a hand) naming that hand (``hand``), 409
    ``session_closed``; :class:`~ledger.access.roles.AccessDenied` unless host.
    """
    actor.require("seat")
    _refuse_mid_pool(night, "a")
    a, b = (normalise_name(x) if isinstance(x, str) else "" for x in (a, b))
    night = _locked(db, night)
    _require_open(night)
    for field, name in (("a", a), ("b", b)):
        if not name:
            raise HandError("invalid_entry", N_("Name two different players to swap."), field)
        if name not in seat_order(night):
            raise HandError("unknown_player", N_("{name} never sat at this table."), field, name=name)
    if a == b:
        raise HandError("invalid_entry", N_("Name two different players to swap."), "b")
    upcoming = next_number(db, night)
    if type(from_hand) is not int or not 1 <= from_hand <= upcoming:
        raise HandError("invalid_entry", N_("Say from which hand, 1 to {most}."), "from_hand", most=upcoming)
    swap = {a: b, b: a}
    by_rule = deals_by_rule(night)  # Tong-its: each hand is scored from the state the counted hands before leave
    chain = rescoring.before(db, night, from_hand).state if by_rule else None
    planned: list[tuple[Hand, list[str], str, Submission, Any]] = []
    for hand in _current_from(db, night, from_hand):
        try:
            involved = _both_or_neither(hand.players, a, b, hand.number)
        except NightError:
            if hand.status == "voided":  # not counting, and not the pair's to swap: as it was
                continue
            raise
        if not involved and not by_rule:
            continue
        mapping = swap if involved else {}
        players = [mapping.get(p, p) for p in hand.players]
        entry = rename_entry(hand.entry, mapping) if involved else hand.entry
        submission = Submission.of_entry(entry)
        dealer = mapping.get(hand.dealer, hand.dealer)
        try:
            if by_rule:
                result = preview_hand(night, submission, players=players, stake_minor=hand.stake_minor, state=chain,
                                      dealer=None if hand.kind in figures.NOT_A_HAND else dealer)
            else:
                result = preview_hand(night, submission, players=players, stake_minor=hand.stake_minor)
        except HandError as err:
            raise NightError(422, err.code, N_("Hand {number} refuses the swap: {reason}"), err.field,
                             {"hand": hand.number}, number=hand.number,
                             reason=Sentence(err.template, err.params)) from None
        if by_rule and hand.status == "counted":
            chain = None if result.state is None else dict(result.state)
        if not involved and stored_result(result) == hand.result:
            continue  # a hand without the pair whose pot input did not change: as it was
        planned.append((hand, players, dealer, submission, result))
    seated = list(night.players)
    swaps_now = _both_or_neither(seated, a, b, upcoming)
    if not planned and not swaps_now:
        db.rollback()
        return []
    made: list[Hand] = []
    replaced: list[tuple[Hand, Hand]] = []  # counted (old, new)
    for hand, players, dealer, submission, result in planned:
        voided_at = hand.voided_at if hand.status == "voided" else None
        hand.status = "superseded"
        db.add(hand)
        db.flush()
        new = store_version(db, night, hand.number, hand.version + 1, dealer, submission, result,
                            players=players, stake_minor=hand.stake_minor, voided_at=voided_at)
        if voided_at is None:
            replaced.append((hand, new))
        made.append(new)
    figures.hands_replaced(db, night, [old for old, _ in replaced], [new for _, new in replaced])
    if by_rule:
        figures.state_changed(db, night, chain)
    if swaps_now:
        night.players = [swap.get(p, p) for p in seated]
    if from_hand == 1:
        night.first_dealer = swap.get(night.first_dealer, night.first_dealer)
    db.add(night)
    audit(db, night, actor, "seats_swapped",
          before={"players": seated, "hands": [{"number": h.number, "version": h.version,
                                                 "net": h.result.get("net")} for h, *_ in planned]},
          after={"a": a, "b": b, "from_hand": from_hand, "players": list(night.players),
                 "hands": [{"number": h.number, "version": h.version, "net": h.result.get("net")} for h in made]})
    db.commit()
    return made


def _current_from(db: Session, night: GameSession, from_hand: int) -> list[Hand]:
    """The current versions (counted or voided) numbered ``from_hand`` or later, number order
    (read afresh)."""
    return list(db.exec(select(Hand).where(Hand.session_id == night.id, Hand.number >= from_hand,
                                           Hand.status != "superseded").order_by(Hand.number)  # type: ignore[arg-type]
                        .execution_options(populate_existing=True)))


def _both_or_neither(players: Sequence[str], a: str, b: str, number: int) -> bool:
    """Whether ``a`` and ``b`` both sat at hand ``number`` (False when neither did); a hand
    that seated only one of them cannot swap them: :class:`NightError` 422 ``unknown_player``."""
    has_a, has_b = a in players, b in players
    if has_a != has_b:
        there, missing = (a, b) if has_a else (b, a)
        raise NightError(422, "unknown_player",
                         N_("At hand {number} {there} was seated but {missing} was not, so they cannot swap seats "
                            "there; swap from a later hand."), "from_hand", {"hand": number},
                         number=number, there=there, missing=missing)
    return has_a


def rename_player(db: Session, night: GameSession, old: str, new: str, actor: Actor = SYSTEM) -> GameSession:
    """``old`` is now called ``new`` everywhere in the night: seats, every hand (all versions:
    entries, results, transfers, dealer, seating), payments; the person and their balance are
    kept. Allowed on a closed night too (a name is not money). Renaming to the same name
    changes nothing.

    Raises :class:`HandError` 422 ``unknown_player`` (field ``from``) for a name who never sat,
    ``invalid_entry`` (field ``to``) for a name that is not a name, ``duplicate_player`` for a
    name someone else at the night has (or looks like: :func:`ledger.names.look_alike`);
    :class:`~ledger.access.roles.AccessDenied` unless host.
    """
    actor.require("seat")
    _refuse_mid_pool(night, "from")
    old = normalise_name(old) if isinstance(old, str) else ""
    new = clean_name(new if isinstance(new, str) else "", "to", MAX_NAME)
    if not old:
        raise HandError("invalid_entry", N_("Choose a player to rename."), "from")
    night = _locked(db, night)
    if old not in seat_order(night):
        raise HandError("unknown_player", N_("{name} never sat at this table."), "from", name=old)
    if new == old:
        db.rollback()
        return night
    if new in seat_order(night):
        raise HandError("duplicate_player", N_("{name} already sat at this table."), "to", name=new)
    _refuse_an_account_name(night, new, "to")
    _name_clash(night, new, "to", besides=old)
    names: Mapping[str, str] = {old: new}
    night.players = [names.get(p, p) for p in night.players]
    night.roster = [names.get(p, p) for p in night.roster or []]
    night.first_dealer = names.get(night.first_dealer, night.first_dealer)
    if night.game_state is not None:  # Tong-its: the pot's holder is a name too
        night.game_state = rename_state(night.game_state, names)
    db.add(night)
    for hand in hands_of(db, night, all_versions=True):
        if old not in hand.players:
            continue
        hand.players = [names.get(p, p) for p in hand.players]
        hand.dealer = names.get(hand.dealer, hand.dealer)
        hand.entry = rename_entry(hand.entry, names)
        hand.result = rename_result(hand.result, names)
        db.add(hand)
    hand_ids = select(Hand.id).where(Hand.session_id == night.id)
    for column in ("payer", "payee"):
        db.exec(update(HandTransfer).where(col(HandTransfer.hand_id).in_(hand_ids),  # type: ignore[call-overload]
                                           getattr(HandTransfer, column) == old).values({column: new}))
        db.exec(update(Payment).where(Payment.session_id == night.id,  # type: ignore[call-overload]
                                      getattr(Payment, column) == old).values({column: new}))
    figures.player_renamed(db, night, old, new)
    audit(db, night, actor, "player_renamed", before={"name": old}, after={"name": new})
    db.commit()
    return night
