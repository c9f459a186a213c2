"""Tong-its nights in the statements (issue 21 item 5): the night summary, each player's
statement and the night pack of the shared night (TONGITS.md §8.4, ``nights/night-01.json``),
read back as text (pypdf). Hands read as Tong-its sentences (the table's words), the pot has
its own lines (antes in, takes out, the close: split or carried, §4.8–4.9), the players' nets plus
the pot make zero and say so, and a player's statement shows what they took from the pot and
their share of its split. Real database (SQLite file, or PostgreSQL with ``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader

from ledger.money import format_minor
from tests.test_tongits_ledger import open_tongits, record, tongits_night


def pdftotext(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2019", "'").split())


def php(amount: int) -> str:
    return format_minor(amount, "PHP")


def signed(amount: int) -> str:
    return ("+" if amount > 0 else "") + php(amount)


def played(client: Any, *, close: bool = True, **changes: Any) -> dict[str, Any]:
    data = tongits_night()
    night = open_tongits(client, **changes)
    for hand in data["hands"]:
        record(client, night, hand)
    if close:
        assert client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"]).status_code == 200
    return night


def pdf(client: Any, night: dict[str, Any], path: str, lang: str = "en") -> str:
    response = client.get(f"/api/v1/sessions/{night['id']}/{path}?lang={lang}", headers=night["headers"])
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    return flat(pdftotext(response.data))


def totals(data: dict[str, Any]) -> dict[str, Any]:
    hands = [h["expected"]["pot"] for h in data["hands"]]
    taken: dict[str, list[int]] = {}
    for pot in hands:
        if pot["taken_by"] is not None:
            taken.setdefault(pot["taken_by"], []).append(pot["taken"])
    return {"antes": sum(p["antes"] for p in hands), "taken": sum(p["taken"] for p in hands),
            "takes": sum(1 for p in hands if p["taken_by"] is not None), "by": taken}


def test_the_summary_of_the_shared_night_reads_as_tongits_with_its_pot(client: Any) -> None:
    data = tongits_night()
    night = played(client)
    text = pdf(client, night, "summary.pdf")
    figures = totals(data)
    assert figures["takes"] == data["expected"]["pot_takes"]
    # the game and its preset, not Tonk's
    assert "Tong-its" in text and "Classic chips" in text
    # hands in Tong-its sentences
    assert "Ligaya went out: tong-its" in text  # hand 3
    assert "Dodong called a draw (laban) and nobody fought" in text  # hand 2
    assert "Dodong took the pot" in text
    assert "Misdeal: redeal, nobody pays" in text
    # the pot's own lines, with the night's figures
    assert f"The antes paid {php(figures['antes'])} into the pot." in text
    assert f"Winners took {php(figures['taken'])} out of the pot in {figures['takes']} takes." in text
    close = data["expected"]["close"]
    assert f"At the close the pot held {php(close['pot']['balance_before'])} and was split among the players." in text
    for share in close["transfers"]:
        assert f"{share['to']} received {php(share['amount'])} from the pot" in text
    assert "The pot was split among the players" in text  # the close's own row in the hand table
    # nets after the close, and players + pot = 0 said in figures
    for player, amount in data["expected"]["net_after_close"].items():
        assert signed(amount) in text, player
    assert f"The players' nets add up to {php(0)} and the pot holds {php(0)}: together, zero." in text


def test_a_carried_pot_is_said_and_the_nets_do_not_settle_it(client: Any) -> None:
    data = tongits_night()
    night = played(client, ruleset={"preset": "classic", "toggles": {"pot_at_end": "carry"}})
    text = pdf(client, night, "summary.pdf")
    pot = data["expected"]["pot_balance"]
    assert (f"At the close the pot held {php(pot)}; it is carried to the group's next night, and the players' "
            "nets do not settle it.") in text
    assert f"The players' nets add up to {php(-pot)} and the pot holds {php(pot)}: together, zero." in text
    for player, amount in data["expected"]["net"].items():
        assert signed(amount) in text, player
    assert "received" not in text.split("Running balance")[0].split("Pot")[-1]  # no shares paid out


def test_an_open_night_says_who_holds_the_pot(client: Any) -> None:
    data = tongits_night()
    night = played(client, close=False)
    text = pdf(client, night, "summary.pdf")
    last = data["hands"][-1]["expected"]["pot"]
    assert f"The pot holds {php(last['balance_after'])} while the night is open." in text
    if last["holder"] is not None:
        assert f"{last['holder']} has won {last['streak']} hand" in text


def test_each_players_statement_shows_pot_takes_and_split_share(client: Any) -> None:
    data = tongits_night()
    night = played(client)
    figures = totals(data)
    shares = {t["to"]: t["amount"] for t in data["expected"]["close"]["transfers"]}
    for seat, player in enumerate(data["players"], start=1):
        text = pdf(client, night, f"statements/{seat}.pdf")
        assert player in text and "Player statement" in text
        takes = figures["by"].get(player, [])
        if takes:
            times = "time" if len(takes) == 1 else "times"
            assert f"You took the pot {len(takes)} {times}, {php(sum(takes))} in all." in text, player
        else:
            assert "You took the pot" not in text
        assert f"You received {php(shares[player])} from the pot when it was split at the close." in text
        assert signed(data["expected"]["net_after_close"][player]) in text
        assert f"{data['expected']['hands_recorded']} counted hands" in text  # the close is no hand


def test_the_night_pack_holds_the_pot_and_every_statement(client: Any) -> None:
    data = tongits_night()
    night = played(client)
    text = pdf(client, night, "statements.pdf")
    assert "At the close the pot held" in text
    assert text.count("Player statement") == len(data["players"])
    assert text.count("from the pot when it was split at the close.") == len(data["players"])


def test_the_filipino_summary_speaks_the_tables_words(client: Any) -> None:
    night = played(client)
    text = pdf(client, night, "summary.pdf", lang="fil").lower()
    assert "tong-its" in text and "laban" in text and "pot" in text
    assert "at the close the pot held" not in text


def test_the_settle_up_of_a_night_with_money_in_the_pot_says_who_puts_it_in(client: Any) -> None:
    """The players' nets sum to minus the pot (TONGITS.md §0): the plan settles the pot as a party
    (it was a 500: a plan over players whose nets do not sum to zero)."""
    data = tongits_night()
    night = played(client, close=False)
    pot = data["hands"][-1]["expected"]["pot"]["balance_after"]
    response = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"])
    assert response.status_code == 200, response.get_json()
    plan = response.get_json()["transfers"]
    assert sum(t["amount"] for t in plan if t["to"] == "pot") == pot
    assert all(t["from"] != "pot" for t in plan)
    owed = dict.fromkeys(data["players"], 0)
    for hand in data["hands"]:
        for player in owed:
            owed[player] += hand["expected"]["net"][player]
    for t in plan:
        owed[t["from"]] += t["amount"]
        if t["to"] != "pot":
            owed[t["to"]] -= t["amount"]
    assert all(v == 0 for v in owed.values())
    text = pdf(client, night, "summary.pdf")
    for t in plan:
        if t["to"] == "pot":
            assert f"{t['from']} puts {php(t['amount'])} into the pot" in text


def test_the_settle_page_says_who_puts_money_into_the_pot_and_offers_no_payment_to_it(app: Any, client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:3]:
        record(client, night, hand)
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"]).get_json()["transfers"]
    into_pot = [t for t in plan if t["to"] == "pot"]
    assert into_pot
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['body']['token']}").status_code in (200, 302)
    page = phone.get(f"/s/{night['id']}/settle?lang=en").get_data(as_text=True)
    for line in into_pot:
        assert f"<strong>{line['from']}</strong> puts this into the pot" in page
    assert 'name="to" value="pot"' not in page and "The pot keeps this money" in page
    # a payment to the pot is refused with the field, never a 500
    response = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=night["headers"],
                           json={"from": into_pot[0]["from"], "to": "pot", "amount": into_pot[0]["amount"]})
    assert response.status_code == 422 and response.get_json()["field"] == "to"


def test_the_tongits_pdfs_in_the_pseudo_language_leave_no_english(pseudo_app: Any) -> None:
    """Every sentence of a Tong-its night's PDFs goes through the catalogue (the pot's lines, the
    hand sentences, the preset): in the pseudo language no English word is left but the names,
    the currency code and the product's name."""
    import shutil

    import pytest

    if shutil.which("pdftotext") is None:
        pytest.skip("needs pdftotext")
    from test_pdf_languages import english_left, pdf_text

    client = pseudo_app.test_client()
    night = played(client)
    import re

    names = {"Sabado", "sa", "bahay", "ni", "Ligaya", "Dodong", "Marisol", "PHP"}
    names |= set(re.findall(r"[A-Za-z]{2,}", night["body"]["recovery_code"]))  # a code, printed as typed
    for path in ("summary.pdf", "statements/1.pdf", "statements.pdf"):
        response = client.get(f"/api/v1/sessions/{night['id']}/{path}?lang=en-XA", headers=night["headers"])
        assert response.status_code == 200, path
        text = pdf_text(response.data)
        assert english_left(text, names) == [], path
        assert "\u27e6" in text, path


def test_a_pot_split_at_a_seat_change_is_said_in_the_summary_and_the_statement() -> None:
    """A seat change's close (TONGITS.md §4.9 ``seat_change``, ``split``) shares the pot among those
    seated: the summary lists each share, each player's statement says theirs (the report as
    the ledger shapes it, drawn without a database)."""
    from datetime import datetime, timezone

    from ledger.night.report import HandLine, PotReport, SessionReport
    from ledger.statements.pack import render_player_statement, render_session_summary
    from ledger.transfers import Transfer

    players = ("Ligaya", "Dodong", "Marisol")
    hands = (
        HandLine(1, "Dodong", "Ligaya went out: tong-its", ("Ligaya",), {"Ligaya": 3500, "Dodong": -3000,
                                                                         "Marisol": -3500}, pot_minor=3000),
        HandLine(2, "Ligaya", "The pot was split among the players", (), {"Ligaya": 1000, "Dodong": 1000,
                                                                           "Marisol": 1000},
                 pot_minor=-3000, not_a_hand=True),
    )
    net = {"Ligaya": 4500, "Dodong": -2000, "Marisol": -2500}
    report = SessionReport(
        name="Sabado", currency="PHP", stake_minor=500, preset="classic",
        created_at=datetime(2026, 12, 5, 12, tzinfo=timezone.utc), players=players, hands=hands, net_minor=net,
        settlement=(Transfer("Marisol", "Ligaya", 2500), Transfer("Dodong", "Ligaya", 2000)),
        game_title="Tong-its", preset_title="Classic chips",
        pot=PotReport(balance_minor=0, antes_minor=3000, seat_change_shares={p: 1000 for p in players}))
    text = flat(pdftotext(render_session_summary(report)))
    for player in players:
        assert f"{player} received {php(1000)} from the pot when it was split at a seat change" in text
    assert "1 hand" in text and f"The players' nets add up to {php(0)} and the pot holds {php(0)}" in text
    statement = flat(pdftotext(render_player_statement(report, 2)))
    assert f"You received {php(1000)} from the pot when it was split at a seat change." in statement
    assert "1 counted hand" in statement
