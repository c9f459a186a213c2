"""Player statements and the night pack, read back as text (pdftotext), for night-01.

Each player's statement shows their net, every hand's amount and running balance, the
settle-up lines that concern them and the hands named as the reason; the pack is the summary
then one statement per player, each on a new page, with a bookmark per player.
"""
from __future__ import annotations

import io
import re
import subprocess
import threading
from typing import Any
from urllib.parse import quote

import pytest
from pypdf import PdfReader

from conftest import session_body
from ledger.money import format_minor

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)


def pdftotext(pdf: bytes, *, layout: bool = False) -> str:
    args = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(args, input=pdf, capture_output=True, check=True).stdout.decode("utf-8")


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


def usd(amount: int) -> str:
    return format_minor(amount, "USD")


def result(amount: int) -> str:
    """A hand's or a night's result as the PDFs print it: winnings with a "+"."""
    return ("+" if amount > 0 else "") + usd(amount)


@pytest.fixture
def played(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    headers = {"Authorization": f"Bearer {body['token']}"}
    for hand in night_data["hands"]:
        entry = {"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]}
        assert client.post(f"/api/v1/sessions/{body['id']}/hands", json=entry, headers=headers).status_code == 201
    return {"id": body["id"], "headers": headers, "viewer": {"Authorization": f"Bearer {body['viewer_token']}"}}


def reason_hands(night: dict[str, Any], payer: str, owed: int) -> list[tuple[int, int, int]]:
    """The hands a plan line names as its reason, worked out here from the night's JSON, for a
    payer with one line of ``owed``: walking back from the last hand, each hand the payer lost is
    taken whole while the hands taken stay within what they owe, and the next in part, for what
    is left (issue 20 item 9: the parts sum exactly to the line). ``(number, part, whole)``,
    oldest first, part and whole as the payer's (negative) amounts."""
    found, left = [], owed
    for number in range(len(night["hands"]), 0, -1):
        net = night["hands"][number - 1]["expected"]["net"].get(payer, 0)
        if net < 0 and left > 0:
            part = min(-net, left)
            found.append((number, -part, net))
            left -= part
    assert left == 0, (payer, owed)
    return found[::-1]


def why_text(text: str, lead: str) -> str:
    """The sentence of ``text`` that starts with ``lead`` (up to its full stop, not a decimal point)."""
    why = text[text.index(lead):]
    end = re.search(r"\.(?!\d)", why)
    assert end is not None, why
    return why[: end.end()]


def test_each_players_statement_shows_net_hands_plan_and_reasons(
    client: Any, played: dict[str, Any], night_data: dict[str, Any]
) -> None:
    expected_net = night_data["expected"]["net"]
    plan = client.get(f"/api/v1/sessions/{played['id']}/settlement", headers=played["headers"]).get_json()["transfers"]
    assert {(t["from"], t["to"], t["amount"]) for t in plan} == {("Marcus", "Dee", 525), ("Rosa", "Tomás", 400)}
    for seat, player in enumerate(night_data["players"], start=1):
        response = client.get(f"/api/v1/sessions/{played['id']}/statements/{seat}.pdf", headers=played["viewer"])
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        text = flat(pdftotext(response.data))
        assert text.startswith(f"{player} Player statement")
        assert f"Final net {result(expected_net[player])}" in text
        balance = 0
        for number, hand in enumerate(night_data["hands"], start=1):
            amount = hand["expected"]["net"].get(player, 0)
            balance += amount
            shown = result(amount) if amount else "\u2013"
            assert f" {number} " in f" {text} " and f"{shown} {usd(balance)}" in text, (player, number)
        for t in plan:
            if player not in (t["from"], t["to"]):
                assert f"pays you" not in text or t["from"] not in text.split("pays you")[0][-30:]
                continue
            if player == t["from"]:
                assert f"You pay {t['to']} {usd(t['amount'])}" in text
                lead = "Why: you lost"
            else:
                assert f"{t['from']} pays you {usd(t['amount'])}" in text
                lead = f"Why: {t['from']} lost"
            reasons = reason_hands(night_data, t["from"], t["amount"])
            assert reasons and -sum(part for _, part, _ in reasons) == t["amount"], t
            why = why_text(text, lead)
            shown = [f"hand {number} ({usd(part)})" if part == whole else f"{usd(-part)} of hand {number}’s {usd(-whole)}"
                     for number, part, whole in reasons[:12]]
            assert why == f"{lead} {', '.join(shown[:-1])} and {shown[-1]}.", (player, why)
        if player == "Dee":  # Marcus's oldest hand in the line, 14, is used in part: $1.25 of its $1.50
            why = why_text(text, "Why: Marcus lost")
            assert why.startswith("Why: Marcus lost $1.25 of hand 14’s $1.50, hand 18 (-$0.50),"), why
            assert "hand 13 " not in why and "hand 30 " not in why, why  # hand 13 was older, Marcus won hand 30
        if player in ("Marcus", "Rosa"):
            assert f"Still to pay: {usd(-expected_net[player])}." in text
        else:
            assert f"Still owed to you: {usd(expected_net[player])}." in text


def test_payments_made_show_on_both_statements_and_shrink_what_is_owed(client: Any, played: dict[str, Any]) -> None:
    url = f"/api/v1/sessions/{played['id']}"
    assert client.post(f"{url}/payments", json={"from": "Marcus", "to": "Dee", "amount": 200},
                       headers=played["headers"]).status_code == 201
    marcus = flat(pdftotext(client.get(f"{url}/statements/2.pdf", headers=played["headers"]).data))
    dee = flat(pdftotext(client.get(f"{url}/statements/1.pdf", headers=played["headers"]).data))
    assert "You paid Dee $2.00" in marcus and "You pay Dee $3.25" in marcus and "Still to pay: $3.25." in marcus
    assert "Marcus paid you $2.00" in dee and "Marcus pays you $3.25" in dee


def test_night_pack_is_summary_then_each_statement_on_new_pages_with_bookmarks(
    client: Any, played: dict[str, Any], night_data: dict[str, Any]
) -> None:
    response = client.get(f"/api/v1/sessions/{played['id']}/statements.pdf", headers=played["viewer"])
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.data))
    outline = [item.title for item in reader.outline]
    players = night_data["players"]
    assert outline == ["Summary", *(f"{i}. {p}" for i, p in enumerate(players, start=1))]
    starts = [reader.get_destination_page_number(item) for item in reader.outline]
    assert starts[0] == 0 and starts == sorted(starts) and len(set(starts)) == len(starts)
    for item, player in zip(reader.outline[1:], players):
        page = flat(pdftotext(response.data).split("\f")[reader.get_destination_page_number(item)])
        assert page.startswith(f"{player} Player statement")  # each statement opens its own page
    first = flat(pdftotext(response.data).split("\f")[0])
    assert first.startswith(night_data["name"]) and "Session summary" in first
    assert "Marcus pays Dee $5.25" in first and "Why: Marcus lost $1.25 of hand 14’s $1.50, hand 18" in first


def test_unknown_seat_is_a_json_404_and_filenames_follow_rfc_6266(client: Any, night_data: dict[str, Any]) -> None:
    body = session_body(night_data) | {"name": "Ночь у Ди"}
    created = client.post("/api/v1/sessions", json=body).get_json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    for seat in (0, 5):
        missing = client.get(f"/api/v1/sessions/{created['id']}/statements/{seat}.pdf", headers=headers)
        assert missing.status_code == 404 and missing.get_json()["error"] == "seat_not_found"
    response = client.get(f"/api/v1/sessions/{created['id']}/statements/3.pdf", headers=headers)
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="')
    assert f"filename*=UTF-8''{quote('Ночь у Ди', safe='')}-20" in disposition
    assert disposition.endswith(quote("-Rosa.pdf", safe=""))
    assert client.get(f"/api/v1/sessions/{created['id']}/statements/3.pdf").status_code == 401


def test_a_second_download_of_an_unchanged_night_is_the_same_and_a_change_shows(
    client: Any, played: dict[str, Any]
) -> None:
    url = f"/api/v1/sessions/{played['id']}/statements.pdf"
    first = client.get(url, headers=played["headers"]).data
    assert client.get(url, headers=played["headers"]).data == first
    viewers = client.get(url, headers=played["viewer"]).data
    assert client.get(url, headers=played["viewer"]).data == viewers
    # only the host's own copy prints the recovery code
    assert "Recovery code" in pdftotext(first) and "Recovery code" not in pdftotext(viewers)
    client.post(f"/api/v1/sessions/{played['id']}/hands/30/void", headers=played["headers"])
    changed = client.get(url, headers=played["headers"]).data
    assert changed != first and "VOID" in pdftotext(changed)


def test_rendering_holds_no_database_transaction_and_other_phones_record_hands_meanwhile(
    client: Any, played: dict[str, Any], night_data: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While reportlab lays the pack out (in the render pool's thread, so this test can watch
    it), the downloading request's database session is outside any transaction and another
    phone's hand is recorded; the pack shows the night as read, and the next download shows the
    new hand."""
    from flask import g, request_started
    from reportlab.platypus import doctemplate

    client.application.config["PDF_POOL"] = "thread"
    url = f"/api/v1/sessions/{played['id']}"
    hand = night_data["hands"][0]
    entry = {"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]}
    during: list[tuple[bool, int]] = []
    requests: list[Any] = []  # each request's app globals (g), where its database session lives
    build = doctemplate.BaseDocTemplate.build

    def started(sender: Any, **extra: Any) -> None:
        requests.append(g._get_current_object())  # type: ignore[attr-defined]

    def laying_out(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not during:
            session = requests[-1].get("db_session")  # the download waiting for this render
            busy = session is not None and session.in_transaction()
            recorded: list[int] = []  # another phone, on its own thread (its own app context)
            other = threading.Thread(target=lambda: recorded.append(
                client.post(f"{url}/hands", json=entry, headers=played["headers"]).status_code))
            other.start()
            other.join()
            during.append((busy, *recorded))
        return build(self, *args, **kwargs)

    request_started.connect(started, client.application)
    monkeypatch.setattr(doctemplate.BaseDocTemplate, "build", laying_out)
    try:
        hands = len(night_data["hands"])
        first = flat(pdftotext(client.get(f"{url}/statements.pdf", headers=played["viewer"]).data))
        assert during == [(False, 201)]
        assert f"Net over {hands} counted hands" in first
        again = flat(pdftotext(client.get(f"{url}/statements.pdf", headers=played["viewer"]).data))
        assert f"Net over {hands + 1} counted hands" in again
    finally:
        request_started.disconnect(started, client.application)
