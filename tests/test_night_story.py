"""Issue 23, item 4: a night tells its story. The log names what a correction changed ("Rosa's
total: 7 → 47") and only the amounts that moved; the summary and every statement list who sat
in and who left (with the cash-out, paid on leaving), stake changes, seat swaps, renames,
corrections, voids and restores; a cash-out shows as paid on the table and in the payment list."""
from __future__ import annotations

from typing import Any

from conftest import session_body
from test_statements import flat, pdftotext, pytestmark  # noqa: F401  (needs pdftotext)
from test_web_rules import text_of


def _night(client: Any, night_data: dict[str, Any]) -> tuple[str, str, dict[str, str], list[str]]:
    """A night of Dee, Marcus, Rosa and Tomás whose host phone (this client) holds the cookie."""
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert client.get(f"/join/{body['id']}/{body['token']}").status_code == 302  # the host's own link
    return body["id"], f"/api/v1/sessions/{body['id']}", {"Authorization": f"Bearer {body['token']}"}, body["players"]


def _post(client: Any, url: str, headers: dict[str, str], body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = client.post(url, json=body, headers=headers)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_a_correction_names_the_total_it_changed_and_only_the_amounts_that_moved(
    client: Any, night_data: dict[str, Any]
) -> None:
    sid, url, host, (dee, marcus, rosa, tomas) = _night(client, night_data)
    out = {"outcome": {"kind": "discard_out", "winner": marcus}, "hands": {marcus: {"cards": []}}}
    _post(client, f"{url}/hands", host, out | {"hands": {marcus: {"cards": []}, rosa: {"total": 7}}})
    # a flat payout: Rosa's total moves no money, and the log says so
    _post(client, f"{url}/hands/1/amend", host, out | {"version": 1, "hands": {marcus: {"cards": []}, rosa: {"total": 47}}})
    log = text_of(client.get(f"/s/{sid}/log").get_data(as_text=True))
    corrected = log[log.index("Hand 1 corrected (version 1 → 2)"):log.index("Hand 1 recorded")]
    assert "Rosa's total: 7 → 47" in corrected
    assert "No one's amount changed." in corrected and "$" not in corrected
    # a correction that moves money names the amounts that moved, not the ones that did not
    tonk = {"version": 2, "outcome": {"kind": "tonk_out", "winner": dee}, "hands": {dee: {"cards": []}}}
    _post(client, f"{url}/hands/1/amend", host, tonk)
    log = text_of(client.get(f"/s/{sid}/log").get_data(as_text=True))
    corrected = log[log.index("Hand 1 corrected (version 2 → 3)"):log.index("Hand 1 corrected (version 1 → 2)")]
    assert "Marcus went out by discard → Dee tonked out (2×)" in corrected
    assert f"{dee}: -$0.25 → +$1.50" in corrected and f"{marcus}: +$0.75 → -$0.50" in corrected
    assert f"{tomas}: -$0.25 → -$0.50" in corrected and "Rosa's total: 47 → —" in corrected


def test_the_summary_and_statements_tell_the_night_beside_its_hands(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host, (dee, marcus, rosa, tomas) = _night(client, night_data)
    _post(client, f"{url}/hands", host, {"outcome": {"kind": "tonk_out", "winner": dee}, "hands": {dee: {"cards": []}}})
    out = {"outcome": {"kind": "discard_out", "winner": marcus}, "hands": {marcus: {"cards": []}, rosa: {"total": 7}}}
    _post(client, f"{url}/hands", host, out)
    _post(client, f"{url}/hands/2/amend", host, out | {"version": 1, "hands": {marcus: {"cards": []}, rosa: {"total": 47}}})
    _post(client, f"{url}/stake", host, {"stake": 50}, 200)
    left = _post(client, f"{url}/players/leave", host, {"name": dee, "settle": "now"}, 200)
    assert left["cash_out"]["transfers"] == [{"from": rosa, "to": dee, "amount": 75}, {"from": tomas, "to": dee, "amount": 50}]
    _post(client, f"{url}/players", host, {"name": "Ed"}, 201)
    _post(client, f"{url}/hands", host, {"outcome": {"kind": "tonk_out", "winner": "Ed"}, "hands": {"Ed": {"cards": []}}})
    _post(client, f"{url}/hands/3/void", host, {}, 200)
    _post(client, f"{url}/hands/3/restore", host, {}, 200)

    summary = flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    story = summary[summary.index("What else happened"):]
    expected = [
        "Hand 2 corrected: Rosa's total from 7 to 47",
        "Stake $0.50 from hand 3 (was $0.25)",
        "Dee left after hand 2 with +$1.25, paid on leaving: Rosa pays Dee $0.75; Tomás pays Dee $0.50",
        "Ed sat in from hand 3",
        "Hand 3 voided",
        "Hand 3 restored",
    ]
    at = [story.index(line) for line in expected]
    assert at == sorted(at), story  # oldest first
    seat = next(i for i, r in enumerate(client.get(url, headers=host).get_json()["roster"], 1) if r["name"] == dee)
    dees = flat(pdftotext(client.get(f"{url}/statements/{seat}.pdf", headers=host).data))
    assert expected[2] in dees and "Ed sat in from hand 3" in dees

    # paid on leaving: the table says so beside Dee, the payment list names the cash-out
    table = text_of(client.get(f"/s/{sid}").get_data(as_text=True))
    assert "Dee left · as of hand 2 · paid +$1.25" in table
    settle = text_of(client.get(f"/s/{sid}/settle").get_data(as_text=True))
    assert "Rosa paid Dee $0.75 (cash-out on leaving)" in settle
    assert "Tomás paid Dee $0.50 (cash-out on leaving)" in settle


def test_a_leaver_to_settle_at_the_end_is_not_shown_as_paid(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host, (dee, *_others) = _night(client, night_data)
    _post(client, f"{url}/hands", host, {"outcome": {"kind": "tonk_out", "winner": dee}, "hands": {dee: {"cards": []}}})
    _post(client, f"{url}/players/leave", host, {"name": dee, "settle": "at_end"}, 200)
    table = text_of(client.get(f"/s/{sid}").get_data(as_text=True))
    assert "Dee left · as of hand 1 +$1.50" in table and "· paid" not in table
    summary = flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    assert "Dee left after hand 1 with +$1.50, to be settled at the end of the night" in summary


def test_a_night_without_changes_has_no_story_section(client: Any, night_data: dict[str, Any]) -> None:
    _sid, url, host, (dee, *_others) = _night(client, night_data)
    _post(client, f"{url}/hands", host, {"outcome": {"kind": "tonk_out", "winner": dee}, "hands": {dee: {"cards": []}}})
    assert "What else happened" not in flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))


def test_a_correction_of_cards_names_them_with_their_suits(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host, (dee, marcus, rosa, _tomas) = _night(client, night_data)
    out = {"outcome": {"kind": "discard_out", "winner": marcus}}
    _post(client, f"{url}/hands", host, out | {"hands": {marcus: {"cards": []}, rosa: {"cards": ["7C", "QD"]}}})
    _post(client, f"{url}/hands/1/amend", host, out | {"version": 1, "hands": {marcus: {"cards": []}, rosa: {"cards": ["7C", "QH"]}}})
    log = text_of(client.get(f"/s/{sid}/log").get_data(as_text=True))
    assert "Rosa's cards: 7♣ Q♦ → 7♣ Q♥" in log
    summary = flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    assert "Hand 1 corrected: Rosa's cards from 7♣ Q♦ to 7♣ Q♥" in summary
