"""A club's settle-up carries each payee member's hand-offs (issue 22): ``GET /clubs/{id}/settlement``
(and the plan in ``GET /clubs/{id}``) gains ``pay`` as a night's does, with the note naming the club,
and ``GET /clubs/{id}/settlement/{n}/qr.svg`` draws one; the SVG is decoded back with zxing-cpp."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from club_nights import bearer, close, make_club, won_club_night
from test_settlement_handoffs import IBAN, decoded, svg_to_image

pytest.importorskip("zxingcpp")


def club_where_dee_won(client: Any, currency: str) -> tuple[dict[str, Any], dict[str, int]]:
    club = make_club(client, currency=currency, members=["Dee", "Marcus", "Rosa"])
    close(client, won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee"), True)
    members = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    return club, {m["name"]: m["id"] for m in members}


def set_member_handles(client: Any, club: dict[str, Any], member_id: int, handles: dict[str, str]) -> None:
    response = client.put(f"/api/v1/clubs/{club['id']}/members/{member_id}/handles", headers=bearer(club["token"]),
                          json=handles)
    assert response.status_code == 200, response.get_json()


def club_settlement(client: Any, club: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/v1/clubs/{club['id']}/settlement", headers=bearer(token or club["token"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_eur_club_gives_the_epc_payload_naming_the_club_and_its_svg_decodes_to_it(client: Any) -> None:
    club, ids = club_where_dee_won(client, "EUR")
    set_member_handles(client, club, ids["Dee"], {"iban": IBAN, "name": "Dee Tamm", "venmo": "dee_s"})
    plan = club_settlement(client, club, club["viewer_token"])
    assert plan["balances"]["Dee"] > 0 and sum(plan["balances"].values()) == 0
    assert [t["to"] for t in plan["transfers"]] == ["Dee", "Dee"]
    assert sum(t["amount"] for t in plan["transfers"]) == plan["balances"]["Dee"]
    for line, transfer in enumerate(plan["transfers"], start=1):
        cents = transfer["amount"]
        assert transfer["pay"] == [{"kind": "iban", "qr_payload": "\n".join(
            ["BCD", "002", "1", "SCT", "", "Dee Tamm", IBAN, f"EUR{cents // 100}.{cents % 100:02d}", "", "",
             "Tonk Ledger · Friday club"])}]
        svg = client.get(f"/api/v1/clubs/{club['id']}/settlement/{line}/qr.svg", headers=bearer(club["member_token"]))
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert decoded(svg_to_image(svg.get_data(as_text=True))) == transfer["pay"][0]["qr_payload"]
    whole = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert whole["settlement"] == {k: v for k, v in plan.items() if k != "balances"}


def test_a_usd_club_gives_venmo_with_the_exact_amount_and_no_handles_no_pay(client: Any) -> None:
    club, ids = club_where_dee_won(client, "USD")
    before = club_settlement(client, club)
    assert before["transfers"] and all("pay" not in t for t in before["transfers"])
    base = f"/api/v1/clubs/{club['id']}/settlement"
    missing = client.get(f"{base}/1/qr.svg", headers=bearer(club["token"]))
    assert missing.status_code == 404 and missing.get_json()["error"] == "hand_off_not_found"
    set_member_handles(client, club, ids["Dee"], {"venmo": "Dee-Santos", "upi": "dee@okaxis"})
    plan = club_settlement(client, club)
    for transfer in plan["transfers"]:
        cents = transfer["amount"]
        [venmo] = transfer["pay"]
        link = urlsplit(venmo["url"])
        assert venmo["kind"] == "venmo" and link.netloc == "venmo.com" and link.path == "/Dee-Santos"
        assert dict(parse_qsl(link.query)) == {"txn": "pay", "amount": f"{cents // 100}.{cents % 100:02d}",
                                               "note": "Tonk Ledger · Friday club"}
    svg = client.get(f"{base}/1/qr.svg?kind=venmo", headers=bearer(club["token"]))
    assert decoded(svg_to_image(svg.get_data(as_text=True))) == plan["transfers"][0]["pay"][0]["url"]
    beyond = client.get(f"{base}/{len(plan['transfers']) + 1}/qr.svg", headers=bearer(club["token"]))
    assert beyond.status_code == 404 and beyond.get_json()["error"] == "transfer_not_found"
    other = make_club(client)
    for url in (base, f"{base}/1/qr.svg"):
        assert client.get(url, headers=bearer(other["token"])).status_code == 403
        assert client.get(url).status_code == 401
