"""Every transfer of GET …/settlement carries the payee's hand-offs (issue 22) and
GET …/settlement/{n}/qr.svg draws one: the served SVG and segno's PNG of the payload are decoded
back with a real decoder (zxing-cpp) and compared with the payload."""
from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from club_nights import bearer
from conftest import session_body
from test_handoffs import QRPH

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")

IBAN = "EE382200221020145685"


def night_where_dee_wins(client: Any, night_data: dict[str, Any], currency: str) -> dict[str, Any]:
    body = session_body(night_data) | {"currency": currency, "ruleset": {"preset": "classic"}}
    night = client.post("/api/v1/sessions", json=body).get_json()
    recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                           json={"outcome": {"kind": "tonk_out", "winner": "Dee"}})
    assert recorded.status_code == 201, recorded.get_json()
    return night


def set_handles(client: Any, night: dict[str, Any], name: str, handles: dict[str, str]) -> None:
    response = client.put(f"/api/v1/sessions/{night['id']}/players/{name}/handles", headers=bearer(night["token"]),
                          json=handles)
    assert response.status_code == 200, response.get_json()


def settlement(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=bearer(night["token"]))
    assert response.status_code == 200
    return response.get_json()


def svg_to_image(svg: str) -> Any:
    """Draws segno's SVG (one path of ``M``/``m`` moves and ``h`` runs, ``scale(k)``) module by module."""
    size = int(re.search(r'width="(\d+)"', svg).group(1))
    scale = int(re.search(r'scale\((\d+)\)', svg).group(1))
    d = re.search(r' d="([^"]+)"', svg).group(1)
    modules = size // scale
    grid = [[255] * modules for _ in range(modules)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", d):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = 0
            x += float(a)
    image = Image.new("L", (modules * 8, modules * 8), 255)
    for row in range(modules):
        for column in range(modules):
            if grid[row][column] == 0:
                image.paste(0, (column * 8, row * 8, column * 8 + 8, row * 8 + 8))
    return image


def decoded(image: Any) -> str:
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1
    return found[0].text


def png_of(payload: str) -> Any:
    import segno

    out = io.BytesIO()
    segno.make(payload, error="m", micro=False).save(out, kind="png", scale=8)
    out.seek(0)
    return Image.open(out)


def test_a_eur_night_gives_the_epc_payload_and_its_svg_decodes_to_it(client: Any, night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "EUR")
    set_handles(client, night, "Dee", {"iban": IBAN, "name": "Dee Tamm", "bic": "HABAEE2X"})
    plan = settlement(client, night)
    assert plan["transfers"] and all(t["to"] == "Dee" for t in plan["transfers"])
    for line, transfer in enumerate(plan["transfers"], start=1):
        assert [p["kind"] for p in transfer["pay"]] == ["iban"]
        payload = transfer["pay"][0]["qr_payload"]
        cents = transfer["amount"]
        assert payload.split("\n") == ["BCD", "002", "1", "SCT", "HABAEE2X", "Dee Tamm", IBAN,
                                       f"EUR{cents // 100}.{cents % 100:02d}", "", "", f"Tonk · {night_data['name']}"]
        svg = client.get(f"/api/v1/sessions/{night['id']}/settlement/{line}/qr.svg", headers=bearer(night["token"]))
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert decoded(svg_to_image(svg.get_data(as_text=True))) == payload
        assert decoded(png_of(payload)) == payload


def test_an_inr_night_gives_a_upi_link(client: Any, night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "INR")
    set_handles(client, night, "Dee", {"upi": "dee.nair@okaxis", "venmo": "dee_s", "name": "Dee Nair"})
    transfer = settlement(client, night)["transfers"][0]
    assert [p["kind"] for p in transfer["pay"]] == ["upi"]
    url = transfer["pay"][0]["url"]
    paise = transfer["amount"]
    assert url.startswith("upi://pay?")
    assert parse_qsl(urlsplit(url).query) == [("pa", "dee.nair@okaxis"), ("pn", "Dee Nair"),
                                              ("am", f"{paise // 100}.{paise % 100:02d}"), ("cu", "INR"),
                                              ("tn", f"Tonk · {night_data['name']}")]
    svg = client.get(f"/api/v1/sessions/{night['id']}/settlement/1/qr.svg", headers=bearer(night["token"]))
    assert decoded(svg_to_image(svg.get_data(as_text=True))) == url


def test_a_usd_night_gives_venmo_cashapp_and_paypal_with_the_exact_amount(client: Any,
                                                                          night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "USD")
    set_handles(client, night, "Dee", {"venmo": "Dee-Santos", "cashapp": "$deesantos", "paypal": "deesantos",
                                       "upi": "dee@okaxis"})
    plan = settlement(client, night)
    for transfer in plan["transfers"]:
        cents = transfer["amount"]
        dollars = f"{cents // 100}.{cents % 100:02d}"
        pay = {p["kind"]: p["url"] for p in transfer["pay"]}
        assert list(pay) == ["venmo", "cashapp", "paypal"]
        venmo = urlsplit(pay["venmo"])
        assert venmo.netloc == "venmo.com" and venmo.path == "/Dee-Santos"
        assert dict(parse_qsl(venmo.query)) == {"txn": "pay", "amount": dollars,
                                                "note": f"Tonk · {night_data['name']}"}
        assert pay["cashapp"] == f"https://cash.app/$deesantos/{dollars}"
        assert pay["paypal"] == f"https://paypal.me/deesantos/{dollars}USD"
    # a link-only hand-off is drawn as its link; ?kind= picks one
    svg = client.get(f"/api/v1/sessions/{night['id']}/settlement/1/qr.svg?kind=cashapp", headers=bearer(night["token"]))
    assert decoded(svg_to_image(svg.get_data(as_text=True))) == plan["transfers"][0]["pay"][1]["url"]


def test_a_php_night_shows_the_payees_own_qr_unchanged(client: Any, night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "PHP")
    set_handles(client, night, "Dee", {"qr": QRPH, "venmo": "dee_s"})
    transfer = settlement(client, night)["transfers"][0]
    assert transfer["pay"] == [{"kind": "qr", "qr_payload": QRPH}]
    svg = client.get(f"/api/v1/sessions/{night['id']}/settlement/1/qr.svg", headers=bearer(night["token"]))
    assert decoded(svg_to_image(svg.get_data(as_text=True))) == QRPH


def test_no_handles_no_hand_offs_and_the_qr_refusals(client: Any, night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "USD")
    plan = settlement(client, night)
    assert plan["transfers"] and all("pay" not in t for t in plan["transfers"])
    base = f"/api/v1/sessions/{night['id']}/settlement"
    missing = client.get(f"{base}/1/qr.svg", headers=bearer(night["token"]))
    assert missing.status_code == 404 and missing.get_json()["error"] == "hand_off_not_found"
    beyond = client.get(f"{base}/{len(plan['transfers']) + 1}/qr.svg", headers=bearer(night["token"]))
    assert beyond.status_code == 404 and beyond.get_json()["error"] == "transfer_not_found"
    other = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert client.get(f"{base}/1/qr.svg", headers=bearer(other["token"])).status_code == 403


def test_the_settle_up_as_text_for_the_group_chat(client: Any, night_data: dict[str, Any]) -> None:
    night = night_where_dee_wins(client, night_data, "USD")
    set_handles(client, night, "Dee", {"venmo": "Dee-Santos"})
    plan = settlement(client, night)
    text = client.get(f"/api/v1/sessions/{night['id']}/settlement.txt", headers=bearer(night["token"]))
    assert text.status_code == 200 and text.mimetype == "text/plain"
    lines = text.get_data(as_text=True).splitlines()
    assert lines[0] == f"Settle up: {night_data['name']}"
    assert lines[1:] == [f"{t['from']} pays Dee ${t['amount'] // 100}.{t['amount'] % 100:02d} (Venmo @Dee-Santos)"
                         for t in plan["transfers"]]
    spanish = client.get(f"/api/v1/sessions/{night['id']}/settlement.txt?lang=es", headers=bearer(night["token"]))
    assert spanish.get_data(as_text=True).splitlines()[0] != lines[0]
    other = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert client.get(f"/api/v1/sessions/{night['id']}/settlement.txt", headers=bearer(other["token"])).status_code == 403
