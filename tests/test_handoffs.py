"""Payment hand-offs (issue 22, ledger/settlement/handoffs.py): each payload field by field against
its specification (NPCI UPI linking, EPC069-12 v2, EMV QRCPS-MPM CRC, the Venmo, Cash App and
PayPal.me links), and the checks of the handles."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from ledger.settlement import handoffs as h


def emv(*fields: tuple[str, str]) -> str:
    """An EMVCo payload of ``fields`` with its CRC computed independently of the module (CRC-16/CCITT-FALSE)."""
    body = "".join(f"{tag}{len(value):02d}{value}" for tag, value in fields) + "6304"
    import binascii

    # binascii.crc_hqx with init 0xFFFF is CRC-16/CCITT-FALSE
    return body + f"{binascii.crc_hqx(body.encode(), 0xFFFF):04X}"


QRPH = emv(("00", "01"), ("01", "11"), ("27", "0012ph.ppmi.p2m0111GXCHPHM2XXX"), ("52", "6016"), ("53", "608"),
           ("58", "PH"), ("59", "DEE SANTOS"), ("60", "MANILA"))


def test_crc16_ccitt_false_check_value():
    assert h.crc16_ccitt_false(b"123456789") == 0x29B1
    assert h.crc16_ccitt_false(b"") == 0xFFFF


def test_emv_fields_parse_and_check_the_crc():
    fields = h.emv_fields(QRPH)
    assert fields[0] == ("00", "01")
    assert dict(fields)["53"] == "608"
    assert dict(fields)["59"] == "DEE SANTOS"
    assert fields[-1][0] == "63"
    wrong = QRPH[:-4] + ("0000" if QRPH[-4:] != "0000" else "0001")
    with pytest.raises(ValueError):
        h.emv_fields(wrong)
    with pytest.raises(ValueError):
        h.emv_fields("000201" + "5903AB")  # no CRC
    with pytest.raises(ValueError):
        h.emv_fields(emv(("01", "11"), ("00", "01")))  # format indicator not first


def test_decimal_amount_from_minor_units():
    assert h.decimal_amount(225, "USD") == "2.25"
    assert h.decimal_amount(5, "USD") == "0.05"
    assert h.decimal_amount(100, "USD") == "1.00"
    assert h.decimal_amount(5, "JPY") == "5"
    assert h.decimal_amount(1234, "BHD") == "1.234"
    assert h.decimal_amount(99_999_999_999_999_999, "USD") == "999999999999999.99"
    with pytest.raises(ValueError):
        h.decimal_amount(-1, "USD")


def test_upi_link_fields():
    url = h.upi_url("dee.nair@okaxis", "Dee Nair", 12_350, "Tonk · Friday at Dee's")
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("upi", "pay")
    assert parse_qsl(parts.query) == [("pa", "dee.nair@okaxis"), ("pn", "Dee Nair"), ("am", "123.50"),
                                      ("cu", "INR"), ("tn", "Tonk · Friday at Dee's")]
    assert url == ("upi://pay?pa=dee.nair%40okaxis&pn=Dee%20Nair&am=123.50&cu=INR"
                   "&tn=Tonk%20%C2%B7%20Friday%20at%20Dee%27s")


def test_epc_payload_lines_exactly():
    payload = h.epc_payload("Dee Tamm", "EE382200221020145685", 1_230, "Tonk · Reede", bic="HABAEE2X")
    assert payload.split("\n") == ["BCD", "002", "1", "SCT", "HABAEE2X", "Dee Tamm", "EE382200221020145685",
                                   "EUR12.30", "", "", "Tonk · Reede"]
    no_bic = h.epc_payload("Dee", "ES9121000418450200051332", 5, "x").split("\n")
    assert no_bic[4] == "" and no_bic[7] == "EUR0.05"
    assert len(h.epc_payload("N" * 90, "ES9121000418450200051332", 1, "t" * 200).split("\n")[5]) == 70
    assert len(h.epc_payload("N", "ES9121000418450200051332", 1, "t" * 200).split("\n")[10]) == 140
    with pytest.raises(ValueError):
        h.epc_payload("Dee", "ES9121000418450200051332", 0, "x")
    with pytest.raises(ValueError):
        h.epc_payload("Dee", "ES9121000418450200051332", 100_000_000_000, "x")


def test_venmo_cashapp_paypal_links_carry_the_exact_amount():
    venmo = urlsplit(h.venmo_url("Dee-Santos", 225, "Tonk · Friday"))
    assert (venmo.scheme, venmo.netloc, venmo.path) == ("https", "venmo.com", "/Dee-Santos")
    assert parse_qsl(venmo.query) == [("txn", "pay"), ("amount", "2.25"), ("note", "Tonk · Friday")]
    assert h.cashapp_url("dee", 225) == "https://cash.app/$dee/2.25"
    assert h.cashapp_url("dee", 1) == "https://cash.app/$dee/0.01"
    assert h.paypal_url("deesantos", 225, "USD") == "https://paypal.me/deesantos/2.25USD"
    assert h.paypal_url("deesantos", 500, "JPY") == "https://paypal.me/deesantos/500JPY"
    assert h.paypal_url("deesantos", 12_345, "PHP") == "https://paypal.me/deesantos/123.45PHP"
    assert h.paypal_url("deesantos", 12_300, "HUF") == "https://paypal.me/deesantos/12300HUF"


def test_which_kinds_fit_a_currency():
    assert h.fits("venmo", "USD") and not h.fits("venmo", "EUR")
    assert h.fits("cashapp", "USD") and not h.fits("cashapp", "PHP")
    assert h.fits("upi", "INR") and not h.fits("upi", "USD")
    assert h.fits("iban", "EUR") and not h.fits("iban", "TRY")
    assert h.fits("paypal", "PHP") and h.fits("paypal", "EUR") and not h.fits("paypal", "INR")
    assert h.fits("qr", "PHP", {"qr": QRPH}) and not h.fits("qr", "LAK", {"qr": QRPH})
    untagged = emv(("00", "01"), ("01", "11"), ("59", "DEE"))
    assert h.fits("qr", "TRY", {"qr": untagged}) and h.fits("qr", "LAK", {"qr": untagged})


def test_hand_offs_per_currency():
    handles = h.clean_handles({"venmo": "@dee_s", "cashapp": "$dee", "paypal": "deesantos", "upi": "dee@upi",
                               "iban": "ee38 2200 2210 2014 5685", "name": "Dee Tamm", "qr": QRPH})
    usd = [o.to_json() for o in h.hand_offs(handles, "USD", 225, "Tonk · Friday", "Dee")]
    assert [o["kind"] for o in usd] == ["venmo", "cashapp", "paypal"]
    assert usd[1] == {"kind": "cashapp", "url": "https://cash.app/$dee/2.25"}
    inr = h.hand_offs(handles, "INR", 10_000, "Tonk · Onam", "Dee")
    assert [o.kind for o in inr] == ["upi"] and "pn=Dee%20Tamm" in inr[0].url and "am=100.00" in inr[0].url
    assert inr[0].qr_payload == inr[0].url
    eur = h.hand_offs(handles, "EUR", 1_230, "Tonk · Reede", "Dee")
    assert [o.kind for o in eur] == ["paypal", "iban"]
    assert eur[1].qr_payload.split("\n")[5:8] == ["Dee Tamm", "EE382200221020145685", "EUR12.30"]
    php = h.hand_offs(handles, "PHP", 50_000, "Tonk", "Dee")
    assert [o.to_json() for o in php] == [{"kind": "paypal", "url": "https://paypal.me/deesantos/500.00PHP"},
                                          {"kind": "qr", "qr_payload": QRPH}]
    assert [o.to_json() for o in h.hand_offs({"paypal": "dee"}, "HUF", 12_300, "n", "Dee")] == [
        {"kind": "paypal", "url": "https://paypal.me/dee/12300HUF"}]


@pytest.mark.parametrize(("body", "field"), [
    ({"iban": "DE89370400440532013001", "name": "Dee"}, "iban"),  # wrong check digits
    ({"iban": "DE89370400440532013000"}, "name"),  # no account holder
    ({"upi": "dee.okaxis"}, "upi"),
    ({"qr": QRPH[:-1] + ("0" if QRPH[-1] != "0" else "1")}, "qr"),
    ({"venmo": "abc"}, "venmo"),
    ({"cashapp": "$12345"}, "cashapp"),
    ({"paypal": "dee.santos"}, "paypal"),
    ({"bic": "NOTABIC"}, "bic"),
    ({"swish": "123"}, "swish"),
    ({"venmo": 12345}, "venmo"),
    ({"name": "x" * 71}, "name"),
])
def test_bad_handles_name_their_field(body, field):
    with pytest.raises(h.HandleError) as caught:
        h.clean_handles(body)
    assert caught.value.field == field


def test_clean_handles_tidies():
    assert h.clean_handles({"venmo": " @Dee-Santos ", "cashapp": "$dee", "upi": "", "qr": None,
                            "iban": "de89 3704 0044 0532 0130 00", "name": "Dee", "bic": "cobadeffxxx"}) == {
        "venmo": "Dee-Santos", "cashapp": "dee", "iban": "DE89370400440532013000", "name": "Dee",
        "bic": "COBADEFFXXX"}
