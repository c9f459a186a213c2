"""Issue 13 through the API: a night of the shared nights' shape where players sit in and
leave, the stake changes and two seats get fixed, each hand paid at its own stake and seating.

Expected amounts come from the shared night's worked results (``nights/night-01.json``), scaled
by the stake (Tonk pays multiples of the stake) and with names moved as the seating moved, and,
for hands with a fifth player, from the stateless ``/score`` of the same entry.
"""
from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

import pytest

from small_nights import ann_bob_cat

from tests.conftest import session_body

FIFTH = "Ed"
SIT_IN_AT, STAKE_AT, LEAVE_AFTER, SWAP_AFTER, SWAP_FROM = 10, 15, 20, 25, 3
LEAVER = "Rosa"
# cards never dealt in night-01 alongside these ranks: Ed holds three court cards (30 points)
ED_CANDIDATES = ["KS", "QH", "JD", "KH", "QD", "JS", "KD", "QS", "JH", "KC", "QC", "JC"]


def rename(value: Any, names: dict[str, str]) -> Any:
    """``value`` (an entry part, a net...) with player names moved by ``names``."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [rename(v, names) for v in value]
    if isinstance(value, dict):
        return {rename(k, names): rename(v, names) for k, v in value.items()}
    return value


def ed_hand(entry_hands: dict[str, Any]) -> dict[str, Any]:
    used = {str(c).upper() for h in entry_hands.values() for c in (h.get("cards") or [])}
    used |= {str(c).upper() for h in entry_hands.values() for s in (h.get("spreads") or []) for c in s}
    cards: list[str] = []
    for rank in "KQJ":
        cards.append(next(c for c in ED_CANDIDATES if c[0] == rank and c not in used
                          and c[1] not in {x[1] for x in cards}))
    return {"cards": cards}


def entry_for(number: int, source: dict[str, Any]) -> dict[str, Any]:
    """Night-01's hand ``number`` as played this night: from hand 10 Ed sits in with three court
    cards; from hand 21 Ed plays the cards night-01 gave Rosa (who left after hand 20)."""
    entry = {"outcome": copy.deepcopy(source["outcome"]), "hands": copy.deepcopy(source["hands"])}
    if number > LEAVE_AFTER:
        entry = rename(entry, {LEAVER: FIFTH})
    elif number >= SIT_IN_AT and source["outcome"]["kind"] in ("dry_stock", "knock"):
        entry["hands"][FIFTH] = ed_hand(entry["hands"])
    return entry


def seating_at(number: int) -> list[str]:
    """Who sat at hand ``number`` as entered (before the seat fix)."""
    if number < SIT_IN_AT:
        return ["Dee", "Marcus", "Rosa", "Tomás"]
    if number <= LEAVE_AFTER:
        return ["Dee", "Marcus", "Rosa", "Tomás", FIFTH]
    return ["Dee", "Marcus", "Tomás", FIFTH]


def fewest_covering(amounts: list[int], target: int) -> int:
    for size in range(1, len(amounts) + 1):
        if any(sum(group) >= target for group in combinations(amounts, size)):
            return size
    return len(amounts)


@pytest.fixture
def five_seat_night(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    body = session_body(night_data) | {"ruleset": {"preset": "classic", "toggles": {"max_players": 5}}}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"},
            "player_headers": {"Authorization": f"Bearer {created['player_token']}"}}


def test_a_night_with_a_late_arrival_a_leaver_a_doubled_stake_and_a_seat_fix(
    client: Any, night_data: dict[str, Any], five_seat_night: dict[str, Any]
) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    dealers: list[str] = []
    cash: dict[str, Any] = {}
    for number, source in enumerate(night_data["hands"], start=1):
        if number == SIT_IN_AT:
            sat = client.post(f"{base}/players", json={"name": FIFTH}, headers=headers)
            assert sat.status_code == 201, sat.get_json()
            # at the next dealer's right (Dee deals hand 10), so that Ed deals last
            assert sat.get_json() == {"players": ["Dee", "Marcus", "Rosa", "Tomás", FIFTH], "from_hand": 10,
                                      "next_dealer": "Dee"}
        if number == STAKE_AT:
            staked = client.post(f"{base}/stake", json={"stake": 50}, headers=headers)
            assert staked.status_code == 200 and staked.get_json() == {"stake": 50, "from_hand": 15}
        if number == LEAVE_AFTER + 1:
            before = client.get(base, headers=headers).get_json()["outstanding"]
            gone = client.post(f"{base}/players/leave", json={"name": LEAVER, "settle": "now"}, headers=headers)
            assert gone.status_code == 200, gone.get_json()
            cash = gone.get_json() | {"before": before}
        if number == SWAP_AFTER + 1:
            swapped = client.post(f"{base}/seats/swap", json={"a": "Dee", "b": "Marcus", "from_hand": SWAP_FROM},
                                  headers=headers)
            assert swapped.status_code == 200, swapped.get_json()
            assert swapped.get_json()["hands"] == [{"number": n, "version": 2} for n in range(SWAP_FROM, SWAP_AFTER + 1)]
            assert swapped.get_json()["players"] == ["Marcus", "Dee", "Tomás", FIFTH]
        entry = entry_for(number, source)
        response = client.post(f"{base}/hands", json=entry | {"number": number}, headers=headers)
        assert response.status_code == 201, (number, response.get_json())
        dealers.append(response.get_json()["dealer"])

    # the deal went round each hand's own seating: Ed joined at Dee's right and dealt last;
    # after Rosa left the deal passed on from her seat
    assert dealers[:SWAP_FROM - 1] == ["Tomás", "Dee"]
    assert dealers[SWAP_AFTER:] == ["Tomás", FIFTH, "Marcus", "Dee", "Tomás"]
    hands = client.get(f"{base}/hands", headers=headers).get_json()["hands"]
    assert [h["dealer"] for h in hands[SWAP_FROM - 1:SWAP_AFTER]] == [
        # as dealt (Marcus, Rosa, Tomás, Dee, ...), with Dee and Marcus exchanged by the fix
        "Dee", "Rosa", "Tomás", "Marcus", "Dee", "Rosa", "Tomás",
        "Marcus", "Dee", "Rosa", "Tomás", FIFTH, "Marcus", "Dee", "Rosa", "Tomás", FIFTH, "Marcus",
        "Dee", "Tomás", FIFTH, "Marcus", "Dee"]

    fix = {"Dee": "Marcus", "Marcus": "Dee"}
    session = client.get(base, headers=headers).get_json()
    totals = {name: 0 for name in session["net"]}
    for hand in hands:
        number = hand["number"]
        stake = 25 if number < STAKE_AT else 50
        swapped = SWAP_FROM <= number <= SWAP_AFTER
        # the fix re-entered hands 3-25 with Dee and Marcus exchanged; later hands sat them fixed
        seats = rename(seating_at(number), fix) if number >= SWAP_FROM else seating_at(number)
        assert (hand["players"], hand["stake"], hand["version"]) == (seats, stake, 2 if swapped else 1), number
        assert sum(hand["net"].values()) == 0 and list(hand["net"]) == seats
        expected_net = night_data["hands"][number - 1]["expected"]["net"]
        if number < SIT_IN_AT or number > LEAVE_AFTER:  # four players: the worked result, scaled and moved
            moved = rename(expected_net, {LEAVER: FIFTH}) if number > LEAVE_AFTER else expected_net
            moved = rename(moved, fix) if swapped else moved
            assert hand["net"] == {p: amount * stake // 25 for p, amount in moved.items()}, number
        else:  # five players: the stateless engine on this hand's own seating and stake
            oracle = client.post("/api/v1/score", json={
                "ruleset": {"preset": "classic", "toggles": {"max_players": 5}}, "players": seats, "stake": stake,
                "outcome": hand["outcome"], "hands": hand["hands"]}).get_json()
            assert hand["net"] == oracle["net"], number
        for name, amount in hand["net"].items():
            totals[name] += amount
    assert session["net"] == totals
    assert set(session["net"]) == {"Dee", "Marcus", "Rosa", "Tomás", FIFTH}
    assert session["players"] == ["Marcus", "Dee", "Tomás", FIFTH] and session["stake"] == 50
    assert session["stakes"] == [{"from_hand": 1, "stake": 25}, {"from_hand": STAKE_AT, "stake": 50}]
    rosa = next(r for r in session["roster"] if r["name"] == LEAVER)
    assert rosa == {"name": LEAVER, "seated": False, "as_of_hand": LEAVE_AFTER}

    # the cash-out: Rosa's balance as of hand 20 cleared by the fewest transfers from those on the
    # other side, none paying more than they owed, recorded as payments at once
    owed = cash["before"][LEAVER]
    transfers = cash["cash_out"]["transfers"]
    assert owed != 0 and cash["as_of_hand"] == LEAVE_AFTER and cash["from_hand"] == LEAVE_AFTER + 1
    assert cash["cash_out"]["remaining"] == 0 and cash["outstanding"][LEAVER] == 0
    if owed > 0:
        assert all(t["to"] == LEAVER and 0 < t["amount"] <= -cash["before"][t["from"]] for t in transfers)
    else:
        assert all(t["from"] == LEAVER and 0 < t["amount"] <= cash["before"][t["to"]] for t in transfers)
    assert sum(t["amount"] for t in transfers) == abs(owed)
    other_side = [abs(v) for p, v in cash["before"].items() if p != LEAVER and v * owed < 0]
    assert len(transfers) == fewest_covering(other_side, abs(owed))
    assert [(p["from"], p["to"], p["amount"], p["kind"]) for p in cash["payments"]] == [
        (t["from"], t["to"], t["amount"], "cash_out") for t in transfers]

    # the cash-out plus the final plan clear everyone; nets are untouched by the payments
    plan = client.get(f"{base}/settlement", headers=headers).get_json()
    assert plan["balances"] == totals
    cleared = dict(totals)
    for t in transfers + plan["transfers"]:
        cleared[t["from"]] += t["amount"]
        cleared[t["to"]] -= t["amount"]
    assert cleared == {name: 0 for name in totals}
    assert all(LEAVER not in (t["from"], t["to"]) for t in plan["transfers"])

    actions = [e["action"] for e in client.get(f"{base}/history", headers=headers).get_json()["events"]]
    assert [a for a in actions if a not in ("hand_recorded", "session_created")] == [
        "player_sat_in", "stake_changed", "player_left", "seats_swapped"]
    swap_event = next(e for e in client.get(f"{base}/history", headers=headers).get_json()["events"]
                      if e["action"] == "seats_swapped")
    assert [h["number"] for h in swap_event["detail"]["after"]["hands"]] == list(range(SWAP_FROM, SWAP_AFTER + 1))


def _record(client: Any, base: str, headers: dict[str, str], entry: dict[str, Any]) -> Any:
    return client.post(f"{base}/hands", json=entry, headers=headers)


TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}, "hands": {"Dee": {"cards": []}}}


def test_a_hand_naming_someone_not_seated_at_it_is_refused(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    early = _record(client, base, headers, {"outcome": {"kind": "tonk_out", "winner": FIFTH},
                                            "hands": {FIFTH: {"cards": []}}})
    assert early.status_code == 422 and early.get_json()["error"] == "unknown_player"
    assert _record(client, base, headers, TONK).status_code == 201
    assert client.post(f"{base}/players/leave", json={"name": "Dee", "settle": "at_end"},
                       headers=headers).status_code == 200
    late = _record(client, base, headers, TONK)
    assert late.status_code == 422 and late.get_json()["error"] == "unknown_player"
    # the hand Dee played can still be corrected: it keeps its own seating
    amended = client.post(f"{base}/hands/1/amend", json=TONK | {"version": 1, "outcome": {
        "kind": "discard_out", "winner": "Dee"}}, headers=headers)
    assert amended.status_code == 201, amended.get_json()
    assert amended.get_json()["players"] == ["Dee", "Marcus", "Rosa", "Tomás"]


def test_an_amended_hand_keeps_the_stake_it_was_played_at(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    assert _record(client, base, headers, TONK).get_json()["net"]["Dee"] == 150  # 3 losers × 2 × 25
    assert client.post(f"{base}/stake", json={"stake": 100}, headers=headers).get_json() == {"stake": 100, "from_hand": 2}
    assert _record(client, base, headers, TONK).get_json()["net"]["Dee"] == 600
    amended = client.post(f"{base}/hands/1/amend", json={"outcome": {"kind": "discard_out", "winner": "Dee"},
                                                         "hands": {"Dee": {"cards": []}}, "version": 1}, headers=headers)
    assert amended.status_code == 201
    assert (amended.get_json()["stake"], amended.get_json()["net"]["Dee"]) == (25, 75)  # 3 × 1 × 25
    assert client.get(base, headers=headers).get_json()["stakes"] == [
        {"from_hand": 1, "stake": 25}, {"from_hand": 2, "stake": 100}]


def test_the_table_never_seats_more_than_the_rules_allow(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    assert client.post(f"{base}/players", json={"name": FIFTH, "after": "Dee"}, headers=headers).get_json()["players"] == [
        "Dee", FIFTH, "Marcus", "Rosa", "Tomás"]
    sixth = client.post(f"{base}/players", json={"name": "Sam"}, headers=headers)
    assert sixth.status_code == 422 and sixth.get_json()["error"] == "too_many_players"
    again = client.post(f"{base}/players", json={"name": "ed"}, headers=headers)
    assert again.status_code == 422 and again.get_json()["error"] == "duplicate_player"
    nowhere = client.post(f"{base}/players/leave", json={"name": "Sam"}, headers=headers)
    assert nowhere.status_code == 422 and nowhere.get_json()["error"] == "unknown_player"
    assert client.post(f"{base}/players/leave", json={"name": "Marcus"}, headers=headers).status_code == 200
    bad_after = client.post(f"{base}/players", json={"name": "Sam", "after": "Marcus"}, headers=headers)
    assert bad_after.status_code == 422 and bad_after.get_json()["field"] == "after"


def test_a_player_who_left_comes_back_with_their_balance(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    _record(client, base, headers, TONK)  # Dee +150, the others −50
    gone = client.post(f"{base}/players/leave", json={"name": "Rosa", "settle": "at_end"}, headers=headers).get_json()
    assert gone["cash_out"] == {"transfers": [{"from": "Rosa", "to": "Dee", "amount": 50}], "remaining": 0}
    assert gone["payments"] == [] and gone["outstanding"]["Rosa"] == -50  # pay at the end: still owed
    _record(client, base, headers, TONK)  # played by three: Dee +100
    back = client.post(f"{base}/players", json={"name": "Rosa"}, headers=headers)
    assert back.status_code == 201 and back.get_json()["from_hand"] == 3
    session = client.get(base, headers=headers).get_json()
    assert session["net"] == {"Dee": 250, "Marcus": -100, "Rosa": -50, "Tomás": -100}
    assert {r["name"]: r["seated"] for r in session["roster"]} == {"Dee": True, "Marcus": True, "Rosa": True,
                                                                    "Tomás": True}
    assert next(r for r in session["roster"] if r["name"] == "Rosa")["as_of_hand"] == 1
    plan = client.get(f"{base}/settlement", headers=headers).get_json()
    # each transfer also says which hands explain it (issue 20 item 9): Rosa's is her hand 1
    assert {"from": "Rosa", "to": "Dee", "amount": 50, "because": [{"hand": 1, "amount": 50}]} in plan["transfers"]


def test_a_seat_fix_is_all_or_nothing_and_names_the_hand(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    _record(client, base, headers, TONK)
    _record(client, base, headers, TONK)
    client.post(f"{base}/players", json={"name": FIFTH}, headers=headers)
    _record(client, base, headers, TONK)
    before = client.get(f"{base}/hands", headers=headers).get_json()
    events = len(client.get(f"{base}/history", headers=headers).get_json()["events"])
    refused = client.post(f"{base}/seats/swap", json={"a": "Dee", "b": FIFTH, "from_hand": 2}, headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "unknown_player" and refused.get_json()["hand"] == 2
    assert "hand 2" in refused.get_json()["message"]
    assert client.get(f"{base}/hands", headers=headers).get_json() == before
    assert len(client.get(f"{base}/history", headers=headers).get_json()["events"]) == events
    fixed = client.post(f"{base}/seats/swap", json={"a": "Dee", "b": FIFTH, "from_hand": 3}, headers=headers)
    assert fixed.status_code == 200 and fixed.get_json()["hands"] == [{"number": 3, "version": 2}]
    hand3 = client.get(f"{base}/hands/3", headers=headers).get_json()
    assert hand3["net"][FIFTH] == 200 and hand3["net"]["Dee"] == -50 and hand3["dealer"] == "Marcus"
    assert hand3["players"] == [FIFTH, "Dee", "Marcus", "Rosa", "Tomás"]  # Ed sat in at Marcus's right
    versions = client.get(f"{base}/hands/3/versions", headers=headers).get_json()["versions"]
    assert [v["status"] for v in versions] == ["superseded", "counted"]


def test_a_rename_changes_the_name_everywhere_and_keeps_the_person(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    _record(client, base, headers, TONK)
    client.post(f"{base}/payments", json={"from": "Marcus", "to": "Dee", "amount": 50}, headers=headers)
    renamed = client.post(f"{base}/players/rename", json={"from": "Dee", "to": "Deedee"}, headers=headers)
    assert renamed.status_code == 200, renamed.get_json()
    session = client.get(base, headers=headers).get_json()
    assert session["players"] == ["Deedee", "Marcus", "Rosa", "Tomás"]
    assert session["net"] == {"Deedee": 150, "Marcus": -50, "Rosa": -50, "Tomás": -50}
    assert session["outstanding"]["Deedee"] == 100
    hand = client.get(f"{base}/hands/1", headers=headers).get_json()
    assert hand["outcome"]["winner"] == "Deedee" and "Deedee" in hand["hands"] and hand["winners"] == ["Deedee"]
    assert {t["to"] for t in hand["transfers"]} == {"Deedee"}
    payments = client.get(f"{base}/payments", headers=headers).get_json()["payments"]
    assert (payments[0]["from"], payments[0]["to"]) == ("Marcus", "Deedee")
    clash = client.post(f"{base}/players/rename", json={"from": "Marcus", "to": "rosa"}, headers=headers)
    assert clash.status_code == 422 and clash.get_json()["error"] == "duplicate_player"
    events = client.get(f"{base}/history", headers=headers).get_json()["events"]
    assert events[-1]["action"] == "player_renamed" and events[-1]["detail"]["after"] == {"name": "Deedee"}
    exported = client.get(f"{base}/export.csv?table=transfers", headers=headers).get_data(as_text=True)
    assert "Deedee" in exported and ",Dee," not in exported


def test_only_the_host_changes_seats_and_not_after_closing(client: Any, five_seat_night: dict[str, Any]) -> None:
    sid, headers, player = five_seat_night["id"], five_seat_night["headers"], five_seat_night["player_headers"]
    base = f"/api/v1/sessions/{sid}"
    calls = [("players", {"name": FIFTH}), ("players/leave", {"name": "Dee"}), ("stake", {"stake": 50}),
             ("seats/swap", {"a": "Dee", "b": "Rosa", "from_hand": 1}),
             ("players/rename", {"from": "Dee", "to": "D"})]
    for path, body in calls:
        response = client.post(f"{base}/{path}", json=body, headers=player)
        assert response.status_code == 403 and response.get_json()["error"] == "role_forbidden", path
    assert client.post(f"{base}/close", headers=headers).status_code == 200
    for path, body in calls[:4]:
        response = client.post(f"{base}/{path}", json=body, headers=headers)
        assert response.status_code == 409 and response.get_json()["error"] == "session_closed", path
    bad = client.post(f"{base}/stake", json={"stake": 0}, headers=headers)
    assert bad.status_code == 422 and bad.get_json()["error"] == "invalid_stake"


def test_a_seat_fix_reenters_the_voided_hands_so_restore_and_redo_bring_them_back_at_the_fixed_seats(
    client: Any
) -> None:
    """Ann, Bob and Cat each tonk out once; hand 2 is voided and hand 3 undone; Bob and Cat
    then swap from hand 1. Restoring hand 2 and redoing hand 3 count them with the seats fixed:
    what was entered for Bob was Cat's, and the reverse."""
    night = ann_bob_cat(client, "Ann", "Bob", "Cat")
    url, headers = night["url"], night["headers"]
    assert client.post(f"{url}/hands/2/void", headers=headers).status_code == 200
    assert client.post(f"{url}/undo", headers=headers).status_code == 200
    swapped = client.post(f"{url}/seats/swap", json={"a": "Bob", "b": "Cat", "from_hand": 1}, headers=headers)
    assert swapped.status_code == 200, swapped.get_json()
    assert [(h["number"], h["version"]) for h in swapped.get_json()["hands"]] == [(1, 2), (2, 2), (3, 2)]
    hands = client.get(f"{url}/hands", headers=headers).get_json()["hands"]
    assert [(h["number"], h["status"]) for h in hands] == [(1, "counted"), (2, "voided"), (3, "voided")]
    assert client.get(url, headers=headers).get_json()["net"] == {"Ann": 100, "Bob": -50, "Cat": -50}

    assert client.post(f"{url}/hands/2/restore", headers=headers).status_code == 200
    assert client.post(f"{url}/redo", headers=headers).status_code == 200
    hands = client.get(f"{url}/hands", headers=headers).get_json()["hands"]
    assert [(h["number"], h["outcome"]["winner"], h["status"]) for h in hands] == [
        (1, "Ann", "counted"), (2, "Cat", "counted"), (3, "Bob", "counted")]
    body = client.get(url, headers=headers).get_json()
    assert body["net"] == {"Ann": 0, "Bob": 0, "Cat": 0} and body["players"] == ["Ann", "Cat", "Bob"]
    from kept_figures import checked_figures

    with client.application.app_context():
        from ledger.storage.db import get_session
        checked_figures(get_session(), night["id"])


def test_a_retried_hand_after_a_seat_fix_is_answered_with_the_hand_as_it_stands(client: Any) -> None:
    night = ann_bob_cat(client)
    url, headers = night["url"], night["headers"]
    body = {"outcome": {"kind": "tonk_out", "winner": "Bob"}}
    keyed = headers | {"Idempotency-Key": "hand-1-from-a-phone"}
    first = client.post(f"{url}/hands", json=body, headers=keyed)
    assert first.status_code == 201
    assert client.post(f"{url}/seats/swap", json={"a": "Bob", "b": "Cat", "from_hand": 1},
                       headers=headers).status_code == 200
    again = client.post(f"{url}/hands", json=body, headers=keyed)  # the phone never saw the first answer
    answer = again.get_json()
    assert again.status_code == 200, answer
    assert (answer["number"], answer["version"], answer["status"], answer["outcome"]["winner"]) == (
        1, 2, "counted", "Cat")
    assert client.get(url, headers=headers).get_json()["hand_count"] == 1


@pytest.mark.parametrize(("path", "body", "field", "message"), [
    ("players/leave", {"name": " "}, "name", "Choose who is leaving."),
    ("seats/swap", {"a": "", "b": "Ann", "from_hand": 1}, "a", "Name two different players to swap."),
    ("players/rename", {"from": "", "to": "Ann B"}, "from", "Choose a player to rename."),
])
def test_a_seat_change_without_a_name_asks_for_one(
    client: Any, path: str, body: dict[str, Any], field: str, message: str
) -> None:
    night = ann_bob_cat(client)
    refused = client.post(f"{night['url']}/{path}", json=body, headers=night["headers"])
    answer = refused.get_json()
    assert (refused.status_code, answer["error"], answer["field"], answer["message"]) == (
        422, "invalid_entry", field, message)


def test_a_player_who_leaves_and_comes_back_deals_last_like_a_newcomer(
    app: Any, client: Any, five_seat_night: dict[str, Any]
) -> None:
    """RULES.md §2: a player who joins mid-session sits at the dealer's right, so that they deal
    last. A player who left and came back before the next hand is one who joins: they sat in
    where the deal reaches them last (issue 20; they dealt next, at their old seat), and the
    table screen, the session and the next recorded hand all agree."""
    from kept_figures import checked_table
    from ledger.storage.db import get_session

    sid, headers = five_seat_night["id"], five_seat_night["headers"]
    base = f"/api/v1/sessions/{sid}"
    first = _record(client, base, headers, TONK)  # Tomás deals hand 1; Dee would deal hand 2
    assert (first.get_json()["dealer"], first.get_json()["next_dealer"]) == ("Tomás", "Dee")

    def away_and_back(name: str, **where: str) -> dict[str, Any]:
        assert client.post(f"{base}/players/leave", json={"name": name, "settle": "at_end"},
                           headers=headers).status_code == 200
        back = client.post(f"{base}/players", json={"name": name} | where, headers=headers)
        assert back.status_code == 201, back.get_json()
        return back.get_json()

    back = away_and_back("Dee")
    assert back["players"] == ["Marcus", "Rosa", "Tomás", "Dee"] and back["next_dealer"] == "Marcus"
    assert client.get(base, headers=headers).get_json()["next_dealer"] == "Marcus"
    with app.app_context():
        assert checked_table(get_session(), sid)["next_dealer"] == "Marcus"
    dealers = [_record(client, base, headers, TONK).get_json()["dealer"] for _ in range(4)]
    assert dealers == ["Marcus", "Rosa", "Tomás", "Dee"]  # Dee deals last in the round

    # sitting back in just after a named player: the deal reaches that seat in turn, not at once
    back = away_and_back("Marcus", after="Tomás")  # Dee dealt hand 5; Marcus sat at her left
    assert back["players"] == ["Rosa", "Tomás", "Marcus", "Dee"] and back["next_dealer"] == "Rosa"
    dealers = [_record(client, base, headers, TONK).get_json()["dealer"] for _ in range(4)]
    assert dealers == ["Rosa", "Tomás", "Marcus", "Dee"]

    # renamed after coming back: still the one who came back
    back = away_and_back("Rosa")  # Dee dealt hand 9; Rosa sat at her left
    assert back["players"] == ["Tomás", "Marcus", "Dee", "Rosa"] and back["next_dealer"] == "Tomás"
    assert client.post(f"{base}/players/rename", json={"from": "Rosa", "to": "Rosie"}, headers=headers).status_code == 200
    assert client.get(base, headers=headers).get_json()["next_dealer"] == "Tomás"
    with app.app_context():
        assert checked_table(get_session(), sid)["next_dealer"] == "Tomás"
    dealers = [_record(client, base, headers, TONK).get_json()["dealer"] for _ in range(4)]
    assert dealers == ["Tomás", "Marcus", "Dee", "Rosie"]
