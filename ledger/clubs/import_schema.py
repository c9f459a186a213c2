"""The shape of a club export (``format: "tonk-ledger-club"``, ``version: 1``), as marshmallow
schemas: every key the export writes, of its type, within the live API's bounds (names 1 to
120 or 80 characters, stakes 1 to 10**9 minor units, payments 1 to 10**15, hand numbers and
ids 1 to 2**31 − 1, idempotency keys 1 to 200 printable ASCII characters), enums (statuses,
payment kinds, outcome kinds), times ISO 8601 with an offset; a key the export does not write
is refused (``unknown = RAISE``). Keys that older exports lack have their defaults (a member's
``language``, a hand's ``voided_at``, a payment's ``kind``...).

:func:`load_document` loads a document or raises :class:`DocumentError` naming the first path
(in the document's own order) that is not of its shape, in the form
``nights[0].hands[3].stake``. What the values mean together (whether the figures are what the
entries give) is :mod:`ledger.clubs.import_replay`'s. The published OpenAPI document describes
``POST /api/v1/clubs/import``'s body with these same schemas.
"""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ledger.night.idempotency import MAX_IDEMPOTENCY_KEY
from ledger.night.payments import MAX_EXACT_TOTAL, MAX_PAYMENT_MINOR
from ledger.games import DEFAULT_GAME, GAMES
from ledger.games.tonk.entry import OUTCOME_KINDS
from ledger.games.tongits.entry import KINDS as TONGITS_KINDS
from ledger.games.rummy13.entry import KINDS as RUMMY13_KINDS
from ledger.games.rummy13.pool_night import END_KIND as POOL_END
from ledger.games.tonk.validation import MAX_STAKE_MINOR

FORMAT = "tonk-ledger-club"
VERSION = 1
MAX_ID = 2**31 - 1
HAND_STATUSES = ("counted", "voided", "superseded")
PAYMENT_STATUSES = ("counted", "voided")
PAYMENT_KINDS = ("payment", "cash_out")
NIGHT_STATUSES = ("open", "closed", "voided")  # voided: kept as a closed night that counts nowhere


def _text(most: int, *, least: int = 1, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=least, max=most), **kwargs)


def _whole(least: int, most: int, **kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=least, max=most), **kwargs)


def _time(**kwargs: Any) -> fields.AwareDateTime:
    return fields.AwareDateTime(format="iso", **kwargs)


def _flag(**kwargs: Any) -> fields.Boolean:
    return fields.Boolean(truthy={True}, falsy={False}, **kwargs)


def _money(least: int, most: int, description: str) -> fields.Integer:
    return _whole(least, most, required=True, metadata={"description": description})


class _Part(Schema):
    class Meta:
        unknown = RAISE
        ordered = True


class ImportClubSchema(_Part):
    id = _text(32, required=True, metadata={"description": "The club's id on the server it came from (a new "
                                                             "one is drawn)."})
    name = _text(120, required=True)
    currency = _text(3, least=3, required=True, metadata={"description": "ISO 4217 code, upper case."})
    timezone = _text(64, load_default=None, allow_none=True)
    created_at = _time(required=True)
    carry_needs_owner = _flag(load_default=True, metadata={
        "description": "A member-hosted night carries only with the owner's say (absent in older exports: true)."})
    pot_minor = _whole(0, MAX_EXACT_TOTAL, load_default=0, metadata={
        "description": "The club's Tong-its pot, waiting for its next Tong-its night (minor units; absent in older "
                       "exports: 0). Replayed: what its carried nights' pots carried, less what its nights opened "
                       "with."})


class ImportMemberSchema(_Part):
    id = _whole(1, MAX_ID, required=True, metadata={"description": "The member's id in this document (seats, "
                                                                   "carries and payments name it)."})
    name = _text(80, required=True)
    created_at = _time(required=True)
    language = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=16), metadata={
        "description": "A catalogue code; a code this server lacks imports as null (the reader's language)."})


class ImportSessionSchema(_Part):
    id = _text(32, required=True)
    name = _text(120, required=True)
    currency = _text(3, least=3, required=True)
    stake = _whole(1, MAX_STAKE_MINOR, required=True, metadata={"description": "The stake of the next hand, "
                                                                              "minor units."})
    ruleset = fields.Dict(required=True, metadata={"description": "The night's frozen rule set, as stored."})
    game = fields.String(load_default=DEFAULT_GAME, validate=validate.OneOf(tuple(GAMES)), metadata={
        "description": "The game played: tonk, tongits or rummy13 (absent in older exports: tonk)."})
    players = fields.List(_text(80), required=True, validate=validate.Length(min=1))
    roster = fields.List(_text(80), required=True, validate=validate.Length(min=1))
    first_dealer = _text(80, required=True)
    status = fields.String(required=True, validate=validate.OneOf(NIGHT_STATUSES))
    last_hand_number = _whole(0, MAX_ID, required=True)
    timezone = _text(64, required=True)
    created_at = _time(required=True)
    closed_at = _time(required=True, allow_none=True)
    pot_opening = _whole(0, MAX_EXACT_TOTAL, load_default=0, metadata={
        "description": "What the night's pot opened with: the club's pot taken when it started (minor units; "
                       "absent in older exports: 0; a Tonk night: 0)."})


class ImportSeatSchema(_Part):
    member_id = _whole(1, MAX_ID, required=True)
    name = _text(80, required=True)


class ImportCarrySchema(_Part):
    member_id = _whole(1, MAX_ID, required=True)
    amount = _money(-MAX_EXACT_TOTAL, MAX_EXACT_TOTAL, "What the night left the member (minor units); must be "
                                                       "what the replay of the night gives.")
    created_at = _time(required=True)
    kind = fields.String(load_default="carry", validate=validate.OneOf(("carry", "reversal")), metadata={
        "description": "carry, or reversal (the owner's undoing: the negated amount of an earlier carry row)."})


class ImportEntrySchema(_Part):
    outcome = fields.Raw(required=True, metadata={"description": "RULES.md §8.1 outcome."})
    hands = fields.Raw(required=True, metadata={"description": "RULES.md §8.1 hands."})
    side_bets = fields.Raw(metadata={"description": "RULES.md §8.1 side bets."})
    wild_rank = fields.Raw(metadata={"description": "RUMMY13.md §1.4: a rummy hand's wild rank."})
    pool = fields.Raw(metadata={"description": "RUMMY13.md §4.9: a pool rummy hand's rejoins, `{rejoined: [names]}`."})


class ImportHandSchema(_Part):
    number = _whole(1, MAX_ID, required=True)
    version = _whole(1, MAX_ID, required=True)
    dealer = _text(80, required=True)
    players = fields.List(_text(80), required=True, validate=validate.Length(min=1))
    stake = _whole(1, MAX_STAKE_MINOR, required=True)
    kind = fields.String(required=True, validate=validate.OneOf(tuple(dict.fromkeys(
        OUTCOME_KINDS + TONGITS_KINDS + RUMMY13_KINDS + (POOL_END,)))))  # pool_end: a pool's pot paid, RUMMY13.md §4.10
    entry = fields.Nested(ImportEntrySchema, required=True)
    result = fields.Dict(required=True, metadata={"description": "The engine's result; must be what re-scoring "
                                                                 "the entry gives."})
    redeal = _flag(required=True)
    status = fields.String(required=True, validate=validate.OneOf(HAND_STATUSES))
    idempotency_key = fields.String(load_default=None, allow_none=True, validate=[
        validate.Length(min=1, max=MAX_IDEMPOTENCY_KEY), validate.Regexp(r"^[\x20-\x7e]+$")])
    created_at = _time(required=True)
    voided_at = _time(load_default=None, allow_none=True)


class ImportPaymentSchema(_Part):
    payer = _text(80, required=True, data_key="from")
    payee = _text(80, required=True, data_key="to")
    amount = _money(1, MAX_PAYMENT_MINOR, "Minor units.")
    status = fields.String(required=True, validate=validate.OneOf(PAYMENT_STATUSES))
    kind = fields.String(load_default="payment", validate=validate.OneOf(PAYMENT_KINDS))
    created_at = _time(required=True)
    voided_at = _time(load_default=None, allow_none=True)


class ImportEventSchema(_Part):
    action = _text(40, required=True)
    actor_role = _text(16, least=0, load_default="")
    device = _text(120, least=0, load_default="", allow_none=True)
    hand_number = _whole(1, MAX_ID, load_default=None, allow_none=True)
    detail = fields.Dict(load_default=dict, allow_none=True)
    at = _time(required=True)


class ImportNightSchema(_Part):
    session = fields.Nested(ImportSessionSchema, required=True)
    carried = _flag(required=True, allow_none=True, metadata={
        "description": "null while the night is open; true (carried into the club's balances) or false once "
                       "closed."})
    host_role = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(("owner", "member")))
    carry_state = fields.String(load_default=None, allow_none=True,
                                validate=validate.OneOf(("pending", "carried", "uncarried")))
    carried_by = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(("owner", "member")))
    pot_carried = _whole(0, MAX_EXACT_TOTAL, load_default=0, metadata={
        "description": "What the night's pot carried into the club's pot (minor units; absent in older exports: "
                       "0): a carried night's pot balance at the close, else 0."})
    seats = fields.List(fields.Nested(ImportSeatSchema), required=True)
    carries = fields.List(fields.Nested(ImportCarrySchema), required=True)
    hands = fields.List(fields.Nested(ImportHandSchema), required=True)
    payments = fields.List(fields.Nested(ImportPaymentSchema), required=True)
    history = fields.List(fields.Nested(ImportEventSchema), required=True)


class ImportClubPaymentSchema(_Part):
    from_id = _whole(1, MAX_ID, required=True)
    to_id = _whole(1, MAX_ID, required=True)
    amount = _money(1, MAX_PAYMENT_MINOR, "Minor units.")
    status = fields.String(required=True, validate=validate.OneOf(PAYMENT_STATUSES))
    created_at = _time(required=True)
    voided_at = _time(load_default=None, allow_none=True)


class ImportClubEventSchema(_Part):
    action = _text(40, required=True)
    actor_role = _text(16, least=0, load_default="")
    detail = fields.Dict(load_default=dict, allow_none=True)
    at = _time(required=True)


class ClubImportSchema(_Part):
    """``POST /api/v1/clubs/import``: a document from ``GET /api/v1/clubs/{id}/export.json``
    (:mod:`ledger.clubs.export`), every part of it of this shape."""

    format = fields.String(required=True, validate=validate.Equal(FORMAT))
    version = fields.Integer(required=True, strict=True, validate=validate.Equal(VERSION))
    club = fields.Nested(ImportClubSchema, required=True)
    members = fields.List(fields.Nested(ImportMemberSchema), required=True)
    nights = fields.List(fields.Nested(ImportNightSchema), required=True)
    payments = fields.List(fields.Nested(ImportClubPaymentSchema), load_default=list)
    history = fields.List(fields.Nested(ImportClubEventSchema), load_default=list)


class DocumentError(ValueError):
    """A document not of :class:`ClubImportSchema`'s shape: ``path`` is the first part that is
    not (``nights[0].hands[3].stake``; ``None`` for the document as a whole), ``message``
    marshmallow's sentence for it (English; :func:`ledger.api.errors.schema_sentence` reads it
    back into the catalogue's)."""

    def __init__(self, path: str | None, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path, self.message = path, message


def load_document(document: Any) -> dict[str, Any]:
    """``document`` loaded through :class:`ClubImportSchema` (times as aware ``datetime``,
    payments' ``from``/``to`` as ``payer``/``payee``); raises :class:`DocumentError`."""
    try:
        return ClubImportSchema().load(document)  # type: ignore[no-any-return]
    except ValidationError as err:
        path, message = first_error(err.messages, document)
        raise DocumentError(path, message) from None


def first_error(messages: Any, data: Any) -> tuple[str | None, str]:
    """The first ``(path, message)`` of marshmallow's ``messages`` in the order of ``data`` (the
    document as sent: its keys in their order, list items by index; a missing key after those
    present), the path written ``a.b[2].c``."""
    parts: list[str | int] = []
    while isinstance(messages, dict) and messages:
        key = min(messages, key=lambda k: _position(k, data))
        messages = messages[key]
        if key != "_schema":
            parts.append(key)
            data = _child(data, key)
    while isinstance(messages, list) and messages and not isinstance(messages[0], str):
        messages = messages[0]
    message = messages[0] if isinstance(messages, list) and messages else str(messages)
    return path_of(parts), str(message)


def _position(key: Any, data: Any) -> tuple[int, int, str]:
    if key == "_schema":
        return (0, 0, "")
    if isinstance(data, list) and isinstance(key, int):
        return (1, key, "")
    if isinstance(data, dict) and key in data:
        return (1, list(data).index(key), "")
    return (2, 0, str(key))


def _child(data: Any, key: Any) -> Any:
    if isinstance(data, dict):
        return data.get(key)
    if isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
        return data[key]
    return None


def path_of(parts: list[str | int]) -> str | None:
    """``["nights", 0, "carries", 1, "amount"]`` → ``"nights[0].carries[1].amount"``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None
