"""Payment hand-offs: what a phone opens to pay one transfer, and the checks of the handles (issue 22).

Pure (standard library, Babel's currency data, schwifty for IBAN/BIC, pycountry for ISO 4217
numbers): no Flask, database or PDF. Amounts are ``int`` minor units and are written with
:class:`decimal.Decimal` digits, never through ``float``.

Handles (a ``dict`` of ``str``; :func:`clean_handles` checks them):

- ``venmo``: a Venmo username (``@`` optional) → ``https://venmo.com/<user>?txn=pay&amount=&note=``, USD only.
- ``cashapp``: a Cash App ``$cashtag`` (``$`` optional) → ``https://cash.app/$<tag>/<amount>``, USD only.
- ``paypal``: a PayPal.me name → ``https://paypal.me/<name>/<amount><CUR>``, the currencies PayPal takes
  (:data:`PAYPAL_CURRENCIES`).
- ``upi``: a UPI virtual payment address ``name@bank`` → NPCI's deep link
  ``upi://pay?pa=&pn=&am=&cu=INR&tn=`` (percent-encoded), INR only.
- ``iban`` (+ ``name``, the account holder, required with it; ``bic`` optional) → the EPC QR payload
  (EPC069-12 v2, SEPA credit transfer), EUR only.
- ``qr``: the text of the payee's own receive code (QR Ph, FAST, Lao QR: EMVCo merchant-presented
  TLV ending in a valid CRC-16/CCITT-FALSE, tag ``63``) → shown unchanged, the amount typed beside it;
  any currency, unless its tag ``53`` names another one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping
from urllib.parse import quote

from ledger.money import minor_digits
from ledger.sentences import N_, Sentence

KINDS = ("venmo", "cashapp", "paypal", "upi", "iban", "qr")
"""The kinds of hand-off, in the order a transfer lists them."""

FIELDS = KINDS + ("name", "bic")
"""Every key a handles body may have (``name``: the account holder; ``bic``: with ``iban``)."""

PAYPAL_CURRENCIES = frozenset({
    "AUD", "BRL", "CAD", "CNY", "CZK", "DKK", "EUR", "HKD", "HUF", "ILS", "JPY", "MYR", "MXN", "TWD",
    "NZD", "NOK", "PHP", "PLN", "GBP", "SGD", "SEK", "CHF", "THB", "USD",
})
"""The currencies PayPal accepts for payments (PayPal REST API, "Currency codes")."""

# PayPal takes no decimals for these (PayPal REST API "Currency codes": HUF, JPY, TWD)
_PAYPAL_WHOLE = frozenset({"HUF", "JPY", "TWD"})

_FIT = {"venmo": frozenset({"USD"}), "cashapp": frozenset({"USD"}), "upi": frozenset({"INR"}),
        "iban": frozenset({"EUR"})}

_VENMO = re.compile(r"[A-Za-z0-9_-]{5,30}")
_CASHTAG = re.compile(r"(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,20}")
_PAYPAL = re.compile(r"[A-Za-z0-9]{1,20}")
_VPA = re.compile(r"[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,64}")

BAD_VENMO = N_("A Venmo username is 5 to 30 letters, digits, hyphens or underscores.")
BAD_CASHAPP = N_("A Cash App $cashtag is 1 to 20 letters or digits, with at least one letter.")
BAD_PAYPAL = N_("A PayPal.me name is 1 to 20 letters or digits.")
BAD_UPI = N_("A UPI ID looks like name@bank.")
BAD_IBAN = N_("This IBAN is not valid: check its country code and check digits.")
BAD_BIC = N_("This BIC is not valid.")
NEEDS_NAME = N_("An IBAN needs the account holder's name, up to 70 characters.")
BAD_QR = N_("This is not the text of a payment QR code: its fields or its CRC check are wrong.")
UNKNOWN_HANDLE = N_("{field} is not a kind of payment handle; use one of {kinds}.")


class HandleError(ValueError):
    """A refused handle: ``field`` (the key of the body), ``sentence`` (what a person reads)."""

    def __init__(self, field: str, sentence: Sentence) -> None:
        super().__init__(f"{field}: {sentence.template}")
        self.field = field
        self.sentence = sentence


@dataclass(frozen=True)
class HandOff:
    """One way to pay one transfer: ``kind`` (:data:`KINDS`), ``url`` (a link a phone opens) and/or
    ``qr_payload`` (the text of a QR code to scan from another phone)."""

    kind: str
    url: str | None = None
    qr_payload: str | None = None

    def to_json(self) -> dict[str, str]:
        body = {"kind": self.kind}
        if self.url is not None:
            body["url"] = self.url
        if self.qr_payload is not None:
            body["qr_payload"] = self.qr_payload
        return body


GAME_TITLES = {"tonk": "Tonk", "tongits": "Tong-its"}
"""The games' names in a payment note (brand names: the same in every language)."""


HANDLE_LABELS = {"venmo": "Venmo @{}", "cashapp": "Cash App ${}", "paypal": "paypal.me/{}", "upi": "UPI {}",
                 "iban": "IBAN {}"}
"""How a handle is named in text (the group chat's settle-up, a statement PDF): brand names, the
same in every language; a ``qr`` handle has no text to name."""


def shown_handles(handles: Mapping[str, str], currency: str) -> tuple[tuple[str, str], ...]:
    """``((kind, text), ...)``: the handles of ``handles`` that fit ``currency`` (:func:`fits`)
    and can be named in text (:data:`HANDLE_LABELS`), in :data:`KINDS` order: ``("venmo",
    "Venmo @Dee-Santos")``."""
    return tuple((kind, HANDLE_LABELS[kind].format(handles[kind])) for kind in KINDS
                 if kind in handles and kind in HANDLE_LABELS and fits(kind, currency, handles))


def payment_note(game: str, night_name: str) -> str:
    """The note a hand-off carries: ``"Tonk · Friday at Dee's"`` (the game's name · the night's name)."""
    return f"{GAME_TITLES.get(game, game.title())} · {night_name}"


# -- amounts ---------------------------------------------------------------------------------------
def decimal_amount(amount_minor: int, currency: str, digits: int | None = None) -> str:
    """``amount_minor`` written with the currency's minor digits (or ``digits``), a '.' separator:
    ``(225, "USD") → "2.25"``, ``(5, "JPY") → "5"``. Raises ``ValueError`` for a negative amount."""
    if isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or amount_minor < 0:
        raise ValueError(f"amount_minor must be a non-negative int, got {amount_minor!r}")
    places = minor_digits(currency) if digits is None else digits
    value = Decimal(amount_minor).scaleb(-minor_digits(currency))
    return f"{value.quantize(Decimal(1).scaleb(-places)):f}"


# -- the checks ------------------------------------------------------------------------------------
def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), the CRC of EMVCo
    QR payloads (EMV QRCPS-MPM §4.7.3): ``crc16_ccitt_false(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def emv_fields(payload: str) -> list[tuple[str, str]]:
    """The top-level ``(id, value)`` pairs of an EMVCo merchant-presented payload (EMV QRCPS-MPM §4:
    two-digit id, two-digit length, value). Raises ``ValueError`` unless it parses to the end,
    starts with ``000201`` (payload format indicator), ends with tag ``63`` of length 4 and that CRC
    (upper-case hex, over everything up to and including ``6304``) is right."""
    fields: list[tuple[str, str]] = []
    at = 0
    while at < len(payload):
        head = payload[at:at + 4]
        if len(head) < 4 or not head.isdigit() or not head.isascii():
            raise ValueError(f"broken TLV at {at}")
        length = int(head[2:])
        value = payload[at + 4:at + 4 + length]
        if len(value) != length:
            raise ValueError(f"tag {head[:2]} runs past the end")
        fields.append((head[:2], value))
        at += 4 + length
    if not fields or fields[0] != ("00", "01"):
        raise ValueError("payload format indicator 00=01 must come first")
    if fields[-1][0] != "63" or len(fields[-1][1]) != 4:
        raise ValueError("the CRC (tag 63, 4 hex digits) must come last")
    expected = f"{crc16_ccitt_false(payload[:-4].encode('utf-8')):04X}"
    if fields[-1][1].upper() != expected:
        raise ValueError(f"CRC {fields[-1][1]} is wrong, expected {expected}")
    return fields


def _iban(value: str) -> str:
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    try:
        return IBAN(value).compact
    except (SchwiftyException, ValueError):
        raise HandleError("iban", Sentence(BAD_IBAN)) from None


def _bic(value: str) -> str:
    from schwifty import BIC
    from schwifty.exceptions import SchwiftyException

    try:
        return str(BIC(value).compact)
    except (SchwiftyException, ValueError):
        raise HandleError("bic", Sentence(BAD_BIC)) from None


def clean_handles(raw: Mapping[str, object]) -> dict[str, str]:
    """Checks a handles body and returns it tidied: ``@``/``$`` prefixes dropped, the IBAN and BIC
    compact and upper-case, blanks and ``null`` removed (a removed handle). ``name`` is required
    with ``iban`` (at most 70 characters, EPC069-12 §7.2). Raises :class:`HandleError` naming the
    first bad field (an unknown key, a value that is not a string, a bad shape)."""
    out: dict[str, str] = {}
    for key, value in raw.items():
        if key not in FIELDS:
            raise HandleError(str(key), Sentence(UNKNOWN_HANDLE, {"field": str(key), "kinds": ", ".join(FIELDS)}))
        if value is None:
            continue
        if not isinstance(value, str):
            raise HandleError(key, Sentence(_BAD[key]))
        text = value.strip()
        if text:
            out[key] = text
    checks = {
        "venmo": lambda v: _shaped(v.removeprefix("@"), _VENMO, "venmo"),
        "cashapp": lambda v: _shaped(v.removeprefix("$"), _CASHTAG, "cashapp"),
        "paypal": lambda v: _shaped(v.removeprefix("paypal.me/"), _PAYPAL, "paypal"),
        "upi": lambda v: _shaped(v, _VPA, "upi"),
        "iban": _iban,
        "bic": _bic,
        "qr": _qr,
        "name": _name,
    }
    for key in FIELDS:
        if key in out:
            out[key] = checks[key](out[key])
    if "iban" in out and "name" not in out:
        raise HandleError("name", Sentence(NEEDS_NAME))
    return out


_BAD = {"venmo": BAD_VENMO, "cashapp": BAD_CASHAPP, "paypal": BAD_PAYPAL, "upi": BAD_UPI, "iban": BAD_IBAN,
        "bic": BAD_BIC, "qr": BAD_QR, "name": NEEDS_NAME}


def _shaped(value: str, shape: re.Pattern[str], field: str) -> str:
    if not shape.fullmatch(value):
        raise HandleError(field, Sentence(_BAD[field]))
    return value


def _name(value: str) -> str:
    if len(value) > 70 or any(ord(c) < 32 for c in value):
        raise HandleError("name", Sentence(NEEDS_NAME))
    return value


def _qr(value: str) -> str:
    try:
        emv_fields(value)
    except ValueError:
        raise HandleError("qr", Sentence(BAD_QR)) from None
    return value


# -- which kinds fit -------------------------------------------------------------------------------
def _numeric(currency: str) -> str | None:
    import pycountry

    found = pycountry.currencies.get(alpha_3=currency)
    return found.numeric if found is not None else None


def fits(kind: str, currency: str, handles: Mapping[str, str] | None = None) -> bool:
    """Whether ``kind`` can carry a payment in ``currency``: Venmo and Cash App USD, UPI INR, IBAN
    (EPC QR) EUR, PayPal :data:`PAYPAL_CURRENCIES`, ``qr`` any currency unless the payload's tag
    ``53`` (ISO 4217 numeric, EMV QRCPS-MPM §4.7.1) names another."""
    if kind in _FIT:
        return currency in _FIT[kind]
    if kind == "paypal":
        return currency in PAYPAL_CURRENCIES
    if kind == "qr":
        named = dict(emv_fields(handles["qr"])).get("53") if handles and "qr" in handles else None
        return named is None or named == _numeric(currency)
    return False


# -- the payloads ----------------------------------------------------------------------------------
def _q(text: str) -> str:
    return quote(text, safe="")


def upi_url(vpa: str, payee_name: str, amount_minor: int, note: str) -> str:
    """NPCI UPI deep link: ``upi://pay?pa=<vpa>&pn=<name>&am=<rupees, 2 decimals>&cu=INR&tn=<note>``,
    every value percent-encoded (UTF-8)."""
    return (f"upi://pay?pa={_q(vpa)}&pn={_q(payee_name)}&am={decimal_amount(amount_minor, 'INR', 2)}"
            f"&cu=INR&tn={_q(note)}")


def epc_payload(name: str, iban: str, amount_minor: int, text: str, bic: str = "") -> str:
    """EPC069-12 v2 "BCD" payload of a SEPA credit transfer, lines joined by ``\\n``: ``BCD``,
    ``002``, ``1`` (UTF-8), ``SCT``, the BIC (empty allowed in v2), the name (≤ 70), the IBAN,
    ``EUR`` + the amount with two decimals (0.01–999999999.99), the purpose (empty), the structured
    reference (empty) and the unstructured remittance text (≤ 140). Raises ``ValueError`` for an
    amount outside that range."""
    if not 1 <= amount_minor <= 99_999_999_999:
        raise ValueError(f"an EPC QR amount is EUR 0.01 to 999999999.99, got {amount_minor} cents")
    lines = ["BCD", "002", "1", "SCT", bic, name[:70], iban, "EUR" + decimal_amount(amount_minor, "EUR", 2),
             "", "", text[:140]]
    return "\n".join(lines)


def venmo_url(user: str, amount_minor: int, note: str) -> str:
    """``https://venmo.com/<user>?txn=pay&amount=<dollars, 2 decimals>&note=<note>`` (USD)."""
    return f"https://venmo.com/{_q(user)}?txn=pay&amount={decimal_amount(amount_minor, 'USD', 2)}&note={_q(note)}"


def cashapp_url(tag: str, amount_minor: int) -> str:
    """``https://cash.app/$<tag>/<dollars, 2 decimals>`` (USD)."""
    return f"https://cash.app/${_q(tag)}/{decimal_amount(amount_minor, 'USD', 2)}"


def paypal_url(name: str, amount_minor: int, currency: str) -> str:
    """``https://paypal.me/<name>/<amount><CUR>``: the currency's digits (none for HUF, JPY, TWD,
    which PayPal takes whole; such an amount with a fraction is not offered, see :func:`hand_offs`)."""
    digits = 0 if currency in _PAYPAL_WHOLE else minor_digits(currency)
    return f"https://paypal.me/{_q(name)}/{decimal_amount(amount_minor, currency, digits)}{currency}"


def hand_offs(handles: Mapping[str, str], currency: str, amount_minor: int, note: str,
              payee: str) -> list[HandOff]:
    """Every hand-off of ``handles`` (already checked by :func:`clean_handles`) that fits
    ``currency``, in :data:`KINDS` order, for paying ``amount_minor`` with ``note``; ``payee`` is
    the name shown when there is no account holder's ``name``."""
    holder = handles.get("name") or payee
    out: list[HandOff] = []
    for kind in KINDS:
        if kind not in handles or not fits(kind, currency, handles):
            continue
        value = handles[kind]
        if kind == "venmo":
            out.append(HandOff(kind, url=venmo_url(value, amount_minor, note)))
        elif kind == "cashapp":
            out.append(HandOff(kind, url=cashapp_url(value, amount_minor)))
        elif kind == "paypal":
            if currency in _PAYPAL_WHOLE and minor_digits(currency) and amount_minor % 10 ** minor_digits(currency):
                continue  # PayPal would round it: not the exact amount
            out.append(HandOff(kind, url=paypal_url(value, amount_minor, currency)))
        elif kind == "upi":
            link = upi_url(value, holder, amount_minor, note)
            out.append(HandOff(kind, url=link, qr_payload=link))
        elif kind == "iban":
            out.append(HandOff(kind, qr_payload=epc_payload(holder, value, amount_minor, note,
                                                            handles.get("bic", ""))))
        elif kind == "qr":
            out.append(HandOff(kind, qr_payload=value))
    return out
