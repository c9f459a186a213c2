"""A club import is a replay: every figure of the document is worked out again from what
happened, and the document is refused when its own figures differ.

What happened is what the live API was told: the members, each night's seating, stake and
rules, each hand's entry (every version, as entered), the payments, who sat as which member,
and whether a closed night carried. From these :func:`replay` works out again, as the live
API does, every hand's result under the night's rules (:func:`ledger.games.tonk.score_hand`, at
the seating and stake the hand was played at; a Tong-its night's through its engine, each counted
hand from the pot the counted hands before it left, :mod:`ledger.clubs.import_chain`), each night's last hand number, nets and what is
still owed, what a carried night carried for each member, the current stake (from the night's
history), and checks the payments (night and club) against the history that recorded them. It
applies the live API's checks on the way: names (cleaned, distinct at a night and in the club),
a hand's dealer and players seated, hand numbers 1..n without gaps and versions 1..k with only
the latest counting or void, unique idempotency keys, a payer other than the payee and
balances within what is kept exactly, an open night carrying nothing and a closed one saying
whether it carried.

The first disagreement, in the document's order, is a :class:`~ledger.errors.NightError` 422
naming its path (``nights[0].carries[1].amount``): ``import_mismatch`` when a figure differs
from the replay's (with both in the sentence), else the live API's own code for the check
(``invalid_entry``, ``unknown_player``, ``duplicate_player``, ``invalid_payment``, a hand's
RULES.md §9.1 code); see :mod:`ledger.clubs.import_refusals`, and :mod:`ledger.clubs.import_history`
for what the history tells. Amounts are int minor units. No database, no Flask: the document is
loaded already (:func:`ledger.clubs.import_schema.load_document`).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.clubs.import_history import (
    as_renamed, event_problem, id_of, ident, names_over_time, night_renames, rosters_at_nights,
)
from ledger.clubs.import_refusals import (
    CLOSED_NIGHT, HAND_MISSING, LATEST_ONLY, MISSING, NO_SEAT, NOT_RECORDED, NOT_ROSTERED, OPEN_NIGHT, REPEATED,
    SEAT_NAME, SEAT_THEN, VERSION_MISSING, VOIDED_AT, mismatch, refuse, same,
)
from ledger.errors import NightError
from ledger.night.idempotency import IDEMPOTENCY_KEY, MAX_IDEMPOTENCY_KEY
from ledger.names import clean_name, name_key, normalise_name
from ledger.night.payments import MAX_EXACT_TOTAL
from ledger.night.submission import Submission
from ledger.clubs.import_chain import replay_chain
from ledger.games import DEFAULT_GAME, Game, game as game_of
from ledger.games.tonk import HandError, RuleSet, parse_hand, score_hand
from ledger.sentences import N_
from ledger.night.zones import is_known_zone


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay worked out, to be stored: each night's hand results in the document's
    order (``results[night][hand]``, JSON-ready), equal to the document's own."""

    results: list[list[dict[str, Any]]]


def replay(doc: Mapping[str, Any]) -> Replayed:
    """Check the loaded ``doc`` against its replay (see the module docstring) → what to store;
    raises :class:`NightError` 422 at the first disagreement."""
    members = _members(doc)
    names_had = names_over_time(doc, members)
    seated_then = rosters_at_nights(doc, members, names_had)
    carried: dict[int, int] = {}
    results = []
    pot = 0  # the club's pot: what carried nights' pots carried, less what nights opened with (TONGITS.md §4.9)
    for index, night in enumerate(doc["nights"]):
        where = f"nights[{index}]"
        results.append(_night(doc, night, where, members, names_had, seated_then[index]))
        for carry in night["carries"]:
            carried[carry["member_id"]] = carried.get(carry["member_id"], 0) + carry["amount"]
        pot += night["pot_carried"] - night["session"]["pot_opening"]
    if pot < 0:  # nights opened with more than the club's nights carried
        raise mismatch("club.pot_minor", doc["club"]["pot_minor"], pot)
    same(doc["club"]["pot_minor"], pot, "club.pot_minor")
    _club_payments(doc, members, carried)
    return Replayed(results)


# -- the club ------------------------------------------------------------------------------------
def _members(doc: Mapping[str, Any]) -> dict[int, str]:
    """Member id → name; each id once, each name cleaned and distinct from the others'."""
    out: dict[int, str] = {}
    keys: dict[str, str] = {}
    for index, member in enumerate(doc["members"]):
        where = f"members[{index}]"
        if member["id"] in out:
            raise refuse(f"{where}.id", REPEATED, value=member["id"])
        name = member["name"]
        _clean_as_given(name, f"{where}.name", 80)
        key = member_key(name, keys)
        if key is None:
            raise refuse(f"{where}.name", N_("{name} and {other} are the same name in a club; give members names "
                                             "that are easy to tell apart."), "duplicate_player",
                         name=name, other=keys[name_key(name)])
        keys[key] = name
        out[member["id"]] = name
    return out


def member_key(name: str, taken: Mapping[str, Any] | set[str]) -> str | None:
    """The ``name_key`` a member called ``name`` is stored under beside the keys ``taken``:
    :func:`name_key`, or for "Ali" beside "Alı" of a club from before İ and ı were read as i
    (migration 0007) the casefolded name; ``None`` when both are taken (one name twice)."""
    for key in (name_key(name), normalise_name(name).casefold()):
        if key not in taken:
            return key
    return None


def _clean_as_given(name: str, path: str, longest: int) -> None:
    """``name`` is a name (:func:`ledger.names.clean_name`) written as the server writes it."""
    cleaned = clean_name(name, path, longest)
    if cleaned != name:
        raise mismatch(path, name, cleaned)


def _club_payments(doc: Mapping[str, Any], members: Mapping[int, str], carried: Mapping[int, int]) -> None:
    balance = dict.fromkeys(members, 0) | dict(carried)
    recorded = [e["detail"].get("after") for e in doc["history"]
                if e["action"] == "payment_recorded" and isinstance(e["detail"], dict)]
    voided = {id_of(e["detail"]) for e in doc["history"]
              if e["action"] == "payment_voided" and isinstance(e["detail"], dict)} - {None}
    for index, payment in enumerate(doc["payments"]):
        where = f"payments[{index}]"
        for field, member_id in (("from_id", payment["from_id"]), ("to_id", payment["to_id"])):
            if member_id not in members:
                raise refuse(f"{where}.{field}", N_("This club has no member {member_id}."), member_id=member_id)
        if payment["from_id"] == payment["to_id"]:
            raise refuse(f"{where}.to_id", N_("A member cannot pay themselves."), "invalid_payment")
        _voided_at(payment, where)
        if index >= len(recorded) or not isinstance(recorded[index], dict):
            raise refuse(where, NOT_RECORDED, "import_mismatch")
        record = recorded[index]
        for field in ("from_id", "to_id", "amount"):
            same(payment[field], record.get(field, MISSING), f"{where}.{field}")
        same(payment["status"], "voided" if ident(record.get("id")) in voided else "counted", f"{where}.status")
        if payment["status"] == "counted":
            balance[payment["from_id"]] += payment["amount"]
            balance[payment["to_id"]] -= payment["amount"]
            if max(abs(balance[payment["from_id"]]), abs(balance[payment["to_id"]])) > MAX_EXACT_TOTAL:
                raise refuse(f"{where}.amount", N_("That payment would take a balance past what can be kept "
                                                   "exactly; check the amount."), "invalid_payment")
    if len(recorded) > len(doc["payments"]):
        raise mismatch("payments", len(doc["payments"]), len(recorded))


def _voided_at(row: Mapping[str, Any], where: str) -> None:
    if (row["status"] == "voided") != (row["voided_at"] is not None):
        raise refuse(f"{where}.voided_at", VOIDED_AT)


# -- a night -------------------------------------------------------------------------------------
def _night(doc: Mapping[str, Any], night: Mapping[str, Any], where: str, members: Mapping[int, str],
           names_had: Mapping[int, set[str]], rosters: Sequence[Mapping[str, int]]) -> list[dict[str, Any]]:
    session = night["session"]
    at = f"{where}.session"
    if session["currency"] != doc["club"]["currency"]:
        raise refuse(f"{at}.currency", N_("This club plays in {currency}; a club night cannot use {other}."),
                     currency=doc["club"]["currency"], other=session["currency"])
    if not is_known_zone(session["timezone"]):
        raise refuse(f"{at}.timezone", N_("The time zone must be an IANA name such as Europe/Paris."))
    chosen = game_of(session["game"])  # a registered game: import_schema checked the name
    rules = chosen.rules_from_snapshot(session["ruleset"])  # built already by import_checks
    same(session["ruleset"], rules.snapshot(), f"{at}.ruleset")
    roster = _seating(session, chosen, rules, at)
    _status(night, session, where)
    results = _hands(night, session, chosen, rules, roster, where)
    history = night["history"]
    for index, event in enumerate(history):
        problem = event_problem(event["action"], event["detail"])
        if problem:
            raise refuse(f"{where}.history[{index}].{problem[0]}", problem[1])
    _stake(session, history, at)
    order = list(session["players"]) + [name for name in session["roster"] if name not in session["players"]]
    owed = _nets(night, results, order, chosen.accounts)
    _pot_carried(night, session, results, where)
    _payments(night, order, owed, where)
    seats = _seats(night, order, members, names_had, rosters, where)
    _carries(night, session, order, owed, seats, where)
    return results


def _seating(session: Mapping[str, Any], chosen: Game, rules: Any, at: str) -> set[str]:
    roster: dict[str, str] = {}
    for index, name in enumerate(session["roster"]):
        _clean_as_given(name, f"{at}.roster[{index}]", 80)
        if name_key(name) in roster:
            raise refuse(f"{at}.roster[{index}]", REPEATED, "duplicate_player", value=name)
        roster[name_key(name)] = name
    seated: set[str] = set()
    for index, name in enumerate(session["players"]):
        _clean_as_given(name, f"{at}.players[{index}]", 80)
        if name_key(name) in seated:
            raise refuse(f"{at}.players[{index}]", N_("{name} is seated twice."), "duplicate_player", name=name)
        seated.add(name_key(name))
        if name not in roster.values():
            raise refuse(f"{at}.players[{index}]", NOT_ROSTERED, "unknown_player", name=name)
    most = rules.max_players if chosen.name == DEFAULT_GAME else chosen.seat_range(rules).stop - 1
    if len(session["players"]) > most:
        raise refuse(f"{at}.players", N_("These rules seat at most {most} players; {count} given."),
                     "too_many_players", most=most, count=len(session["players"]))
    if session["first_dealer"] not in roster.values():
        raise refuse(f"{at}.first_dealer", N_("The first dealer {name} is not seated."), "unknown_player",
                     name=session["first_dealer"])
    return set(roster.values())


def _status(night: Mapping[str, Any], session: Mapping[str, Any], where: str) -> None:
    if session["status"] == "open":
        for field, value in (("session.closed_at", session["closed_at"]), ("carried", night["carried"])):
            if value is not None:
                raise refuse(f"{where}.{field}", OPEN_NIGHT)
        if night["carries"]:
            raise refuse(f"{where}.carries[0]", OPEN_NIGHT)
    else:
        pending = night.get("carry_state") == "pending"  # closed to carry, waiting for the owner: carried null
        for field, value in (("session.closed_at", session["closed_at"]), ("carried", night["carried"])):
            if value is None and not (pending and field == "carried"):
                raise refuse(f"{where}.{field}", CLOSED_NIGHT)
        if pending and night["carried"] is not None:
            raise mismatch(f"{where}.carried", night["carried"], None)


def _hands(night: Mapping[str, Any], session: Mapping[str, Any], chosen: Game, rules: Any, roster: set[str],
           where: str) -> list[dict[str, Any]]:
    hands = night["hands"]
    versions: dict[int, dict[int, int]] = {}  # number → version → index in hands
    keys: set[str] = set()
    for index, hand in enumerate(hands):
        at = f"{where}.hands[{index}]"
        if hand["version"] in versions.setdefault(hand["number"], {}):
            raise refuse(f"{at}.version", REPEATED, value=f"{hand['number']}.{hand['version']}")
        versions[hand["number"]][hand["version"]] = index
        key = hand["idempotency_key"]
        if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):  # as the live API reads one
            raise refuse(f"{at}.idempotency_key", N_("An Idempotency-Key must be 1 to {most} printable ASCII "
                                                     "characters."), most=MAX_IDEMPOTENCY_KEY)
        if key is not None:
            if key in keys:
                raise refuse(f"{at}.idempotency_key", REPEATED, value=key)
            keys.add(key)
    same(session["last_hand_number"], max(versions, default=0), f"{where}.session.last_hand_number")
    for number in range(1, session["last_hand_number"] + 1):
        if number not in versions:
            raise refuse(f"{where}.hands", HAND_MISSING, number=number)
    for number, made in versions.items():
        latest = max(made)
        for version in range(1, latest + 1):
            if version not in made:
                first = min(i for v, i in made.items() if v > version)
                raise refuse(f"{where}.hands[{first}].version", VERSION_MISSING, number=number, version=version)
        for version, index in made.items():
            status = hands[index]["status"]
            if (status == "superseded") != (version < latest):
                raise refuse(f"{where}.hands[{index}].status", LATEST_ONLY, number=number)
    if chosen.name != DEFAULT_GAME:  # scored from the state the hands before left (TONGITS.md §4.8)
        for index, hand in enumerate(hands):
            _seated(hand, roster, f"{where}.hands[{index}]")
        return replay_chain(chosen, rules, hands, where, session["pot_opening"])
    if session["pot_opening"]:  # Tonk keeps no pot
        raise mismatch(f"{where}.session.pot_opening", session["pot_opening"], 0)
    return [_hand(hand, rules, roster, f"{where}.hands[{index}]") for index, hand in enumerate(hands)]


def _pot_carried(night: Mapping[str, Any], session: Mapping[str, Any], results: Sequence[Mapping[str, Any]],
                 where: str) -> None:
    """A night carried into the club (closed, ``carried``) carried its pot's balance at the close
    into the club's pot (its opening plus what its counted hands moved into it); any other night
    carried none (TONGITS.md §4.9)."""
    balance = session["pot_opening"] + sum(result["net"].get("pot", 0) for hand, result in zip(night["hands"], results)
                                           if hand["status"] == "counted")
    carried = session["status"] == "closed" and night["carried"] is True
    same(night["pot_carried"], balance if carried else 0, f"{where}.pot_carried")


def _seated(hand: Mapping[str, Any], roster: set[str], at: str) -> None:
    """A hand version's own checks: when it was voided, its players on the roster, its dealer seated."""
    if hand["status"] != "superseded":  # a superseded version keeps when it was voided, if it was
        _voided_at(hand, at)
    for index, name in enumerate(hand["players"]):
        _clean_as_given(name, f"{at}.players[{index}]", 80)
        if name not in roster:
            raise refuse(f"{at}.players[{index}]", N_("{name} never sat at this table."), "unknown_player",
                         name=name)
    if hand["dealer"] not in hand["players"]:
        raise refuse(f"{at}.dealer", N_("The dealer {name} was not seated at hand {number}."), "unknown_player",
                     name=hand["dealer"], number=hand["number"])


def _hand(hand: Mapping[str, Any], rules: RuleSet, roster: set[str], at: str) -> dict[str, Any]:
    """The replayed result of one Tonk hand version (JSON-ready), checked against the document's."""
    _seated(hand, roster, at)
    entry = hand["entry"]
    submission = Submission(outcome=entry["outcome"], hands=entry["hands"], side_bets=entry.get("side_bets"))
    try:
        submission = submission.normalised()
        same(entry, submission.entry(), f"{at}.entry")
        record = parse_hand(players=tuple(hand["players"]), stake=hand["stake"], outcome=submission.outcome,
                            hands=submission.hands, side_bets=submission.side_bets)
        result = score_hand(rules, record)
    except HandError as err:  # the rules' own refusal, its field found inside this hand
        field = err.field or "entry"
        inside = field.split(".")[0].split("[")[0] in ("outcome", "hands", "side_bets")
        raise NightError(422, err.code, err.template, f"{at}.{'entry.' if inside else ''}{field}", None,
                         **err.params) from None
    replayed = json.loads(json.dumps(result.to_json() | {"detail": result.detail, "counts": result.counts}))
    same(hand["kind"], result.kind, f"{at}.kind")
    same(hand["redeal"], result.redeal, f"{at}.redeal")
    same(hand["result"], replayed, f"{at}.result")
    return replayed  # type: ignore[no-any-return]


def _stake(session: Mapping[str, Any], history: Sequence[Mapping[str, Any]], at: str) -> None:
    """The night's current stake is the one its history last set (opening or changing it)."""
    stakes = [e["detail"].get("after", {}).get("stake_minor") for e in history
              if e["action"] in ("session_created", "stake_changed") and isinstance(e["detail"], dict)
              and isinstance(e["detail"].get("after"), dict)]
    if stakes:
        same(session["stake"], stakes[-1], f"{at}.stake")


def _nets(night: Mapping[str, Any], results: Sequence[Mapping[str, Any]], order: Sequence[str],
          accounts: Sequence[str] = ()) -> dict[str, int]:
    """What each name won or lost over the counted hands (replayed), ``order``'s names (the
    game's ``accounts``, Tong-its' pot, are no one's: TONGITS.md §8.2)."""
    net = dict.fromkeys(order, 0)
    for hand, result in zip(night["hands"], results):
        if hand["status"] == "counted":
            for name, amount in result["net"].items():
                if name not in accounts:
                    net[name] = net.get(name, 0) + amount
    return net


def _payments(night: Mapping[str, Any], order: Sequence[str], owed: dict[str, int], where: str) -> None:
    """Each payment: between two who sat, each recorded in the history as it is (names as renamed
    since), within what is kept exactly; ``owed`` then holds what is still owed after them."""
    history = night["history"]
    renames = night_renames(history)
    recorded: list[tuple[int, Any]] = []
    voided = set()
    for index, event in enumerate(history):
        detail = event["detail"] if isinstance(event["detail"], dict) else {}
        if event["action"] == "payment_recorded":
            recorded.append((index, detail.get("after")))
        elif event["action"] == "player_left":
            made = detail.get("after", {}).get("payments") if isinstance(detail.get("after"), dict) else None
            recorded.extend((index, p) for p in (made if isinstance(made, list) else []))
        elif event["action"] == "payment_voided" and id_of(detail) is not None:
            voided.add(id_of(detail))
    paid = dict.fromkeys(order, 0)
    for index, payment in enumerate(night["payments"]):
        at = f"{where}.payments[{index}]"
        for field, name in (("from", payment["payer"]), ("to", payment["payee"])):
            if name not in owed:
                raise refuse(f"{at}.{field}", N_("{name} did not sit at this table."), "invalid_payment", name=name)
        if payment["payer"] == payment["payee"]:
            raise refuse(f"{at}.to", N_("A player cannot pay themselves."), "invalid_payment")
        _voided_at(payment, at)
        if index >= len(recorded) or not isinstance(recorded[index][1], dict):
            raise refuse(at, NOT_RECORDED, "import_mismatch")
        when, record = recorded[index]
        names = {"from": payment["payer"], "to": payment["payee"]}
        for field in ("from", "to"):
            same(names[field], as_renamed(record.get(field, MISSING), when, renames), f"{at}.{field}")
        same(payment["amount"], record.get("amount", MISSING), f"{at}.amount")
        same(payment["kind"], record.get("kind", "payment"), f"{at}.kind")
        same(payment["status"], "voided" if ident(record.get("id")) in voided else "counted", f"{at}.status")
        if payment["status"] == "counted":
            for name, amount in ((payment["payer"], payment["amount"]), (payment["payee"], -payment["amount"])):
                paid[name] += amount
                owed[name] += amount
                if max(abs(paid[name]), abs(owed[name])) > MAX_EXACT_TOTAL:
                    raise refuse(f"{at}.amount", N_("That payment would take a balance past what can be kept "
                                                    "exactly; check the amount."), "invalid_payment")
    if len(recorded) > len(night["payments"]):
        raise mismatch(f"{where}.payments", len(night["payments"]), len(recorded))


def _seats(night: Mapping[str, Any], order: Sequence[str], members: Mapping[int, str],
           names_had: Mapping[int, set[str]], rosters: Sequence[Mapping[str, int]], where: str) -> dict[str, int]:
    """Each name that sat → its member's id, as :func:`ledger.clubs.carry.seat_members` finds
    it: the seats (names as written then, renamed since by the night's history), then, for a
    name without a seat, the member of that name now. A seat is held by the member who had its
    name when the night started or closed (``rosters``, :func:`rosters_at_nights`), else (a
    history that does not tell) by a member who has had its name."""
    by_name: dict[str, int] = {}
    rows: dict[str, int] = {}
    taken: set[int] = set()
    for index, seat in enumerate(night["seats"]):
        at = f"{where}.seats[{index}]"
        member_id = seat["member_id"]
        if member_id not in members:
            raise refuse(f"{at}.member_id", N_("This club has no member {member_id}."), member_id=member_id)
        if member_id in taken:
            raise refuse(f"{at}.member_id", REPEATED, value=member_id)
        taken.add(member_id)
        _clean_as_given(seat["name"], f"{at}.name", 80)
        if seat["name"] in by_name:
            raise refuse(f"{at}.name", REPEATED, value=seat["name"])
        if name_key(seat["name"]) not in names_had[member_id]:
            raise refuse(f"{at}.name", SEAT_NAME, name=seat["name"], member=members[member_id])
        then = {roster[name_key(seat["name"])] for roster in rosters if name_key(seat["name"]) in roster}
        if then and member_id not in then:
            raise refuse(f"{at}.member_id", SEAT_THEN, name=seat["name"], member=members[member_id],
                         other=members[min(then)])
        by_name[seat["name"]] = member_id
        rows[seat["name"]] = index
    for _index, old, new in night_renames(night["history"]):
        if old in by_name:
            by_name[new] = by_name.pop(old)
            rows[new] = rows.pop(old)
    for name, index in rows.items():
        if name not in order:
            raise refuse(f"{where}.seats[{index}].name", N_("{name} never sat at this table."), "unknown_player",
                         name=name)
    seated_as = {member_id: name for name, member_id in by_name.items()}
    by_key: dict[str, int] = {}
    for member_id, name in members.items():  # the first member of a key, as member_by_name finds
        by_key.setdefault(name_key(name), member_id)
    exact = {name: member_id for member_id, name in members.items()}
    for name in order:
        if name in by_name:
            continue
        member_id = exact.get(name, by_key.get(name_key(name)))
        if member_id is None:
            if night["session"]["status"] == "closed":
                raise refuse(f"{where}.seats", NO_SEAT, name=name)
            continue
        if member_id in seated_as:
            raise refuse(f"{where}.seats", N_("{name} and {seat} are both the club member {member}; rename one of "
                                              "them before closing the night."), "duplicate_player",
                         name=name, seat=seated_as[member_id], member=members[member_id])
        by_name[name] = member_id
        seated_as[member_id] = name
    return by_name


def _carries(night: Mapping[str, Any], session: Mapping[str, Any], order: Sequence[str], owed: Mapping[str, int],
             seats: Mapping[str, int], where: str) -> None:
    """A carried night carried, for each name still owing or owed (seat order), that amount
    to its member; any other night carried nothing."""
    expected: list[dict[str, int]] = []
    if session["status"] == "closed" and night["carried"]:
        for name in order:
            if owed[name]:
                if name not in seats:
                    raise refuse(f"{where}.seats", NO_SEAT, name=name)
                expected.append({"member_id": seats[name], "amount": owed[name]})
    carries, open_rows = [], []  # the rows not undone by an owner's reversal (issue 20 item 5), in order
    for index, carry in enumerate(night["carries"]):
        if carry.get("kind", "carry") != "reversal":
            open_rows.append((index, carry))
            continue
        undone = next((row for row in open_rows if row[1]["member_id"] == carry["member_id"]
                       and row[1]["amount"] == -carry["amount"]), None)
        if undone is None:
            raise mismatch(f"{where}.carries[{index}]", {"member_id": carry["member_id"], "amount": carry["amount"]},
                           MISSING)
        open_rows.remove(undone)
    carries = [carry for _index, carry in open_rows]
    for index, carry in enumerate(carries):
        if index >= len(expected):
            raise mismatch(f"{where}.carries[{index}]", {"member_id": carry["member_id"], "amount": carry["amount"]},
                           MISSING)
        for field in ("member_id", "amount"):
            same(carry[field], expected[index][field], f"{where}.carries[{index}].{field}")
    if len(carries) < len(expected):
        raise mismatch(f"{where}.carries", len(carries), len(expected))
