"""Marshmallow schemas of the club calls (issue 9): request bodies and query strings, and the
answers the OpenAPI document describes. Money is int minor units."""
from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates, validates_schema

from ledger.api.responses import Answer, HandOffSchema, MONEY, SettlePlanSchema, TransferSchema, _net
from ledger.api.schemas import AMOUNT_BOUNDS, MAX_NUMBER, NAME_BOUNDS
from ledger.clubs.import_schema import ClubImportSchema  # noqa: F401  (the import's body, its shape and bounds)
from ledger.i18n import LANGUAGES
from ledger.money import minor_digits
from ledger.night.zones import DEFAULT_ZONE, is_known_zone

CLUB_ROLES = ("owner", "member", "viewer")
CLUB_CSV_TABLES = ("members", "nights", "results", "carries", "payments", "history")
WIN_KINDS = ("deal_tonk", "tonk_out", "discard_out", "knock", "catch", "dry_stock", "double_double",
             "tongits", "draw", "stock_out")  # Tonk's kinds, then Tong-its' (TONGITS.md §4.1–4.4)


class ClubCreateSchema(Schema):
    """``POST /api/v1/clubs``: ``{name, currency, timezone?, members?}``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    currency = fields.String(required=True, metadata={"description": "ISO 4217 code; every night of the club uses it."})
    timezone = fields.String(load_default=DEFAULT_ZONE, validate=validate.Length(min=1, max=64),
                             metadata={"description": "IANA time zone the club's dates are read in; default UTC."})
    members = fields.List(fields.String(metadata=NAME_BOUNDS), load_default=list, validate=validate.Length(max=200),
                          metadata={"description": "Names to put on the roster at once (optional)."})
    carry_needs_owner = fields.Boolean(load_default=True, truthy={True}, falsy={False}, metadata={
        "description": "A night hosted through a member's token carries into the club's balances only with the "
                       "owner's carry call (default true)."})

    @validates("timezone")
    def _timezone(self, value: str, **_: Any) -> None:
        if not is_known_zone(value):
            raise ValidationError("Send an IANA time zone name such as Europe/Paris.")

    @validates("currency")
    def _currency(self, value: str, **_: Any) -> None:
        try:
            minor_digits(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


class ClubSettingsSchema(Schema):
    """``PATCH /api/v1/clubs/{id}`` (owner): ``{carry_needs_owner}``."""

    class Meta:
        unknown = RAISE

    carry_needs_owner = fields.Boolean(required=True, truthy={True}, falsy={False}, metadata={
        "description": "A night hosted through a member's token carries only with the owner's carry call."})


LANGUAGE_CODES = tuple(LANGUAGES)


def _language_field() -> fields.String:
    return fields.String(allow_none=True, validate=validate.OneOf(
        LANGUAGE_CODES, error="Send one of the language codes {choices}, or null to follow the reader."),
        metadata={"description": "The language the member's season statements are written in (a catalogue "
                                 "code); null follows the reader's language."})


class MemberSchema(Schema):
    """``POST /api/v1/clubs/{id}/members`` and ``…/members/{member_id}/rename``: ``{name,
    language?}``. ``language`` (a catalogue code, or null) sets the member's statement language
    (a new member, or the renamed one); left out, it stays as it is."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    language = _language_field()


class MemberUpdateSchema(Schema):
    """``PATCH /api/v1/clubs/{id}/members/{member_id}``: ``{name?, language?}``, at least one.
    A new ``name`` needs the owner; ``language`` the owner or a member."""

    class Meta:
        unknown = RAISE

    name = fields.String(validate=validate.Length(min=1, max=80))
    language = _language_field()


class ClubPaymentSchema(Schema):
    """``POST /api/v1/clubs/{id}/payments``: ``{from, to, amount, confirm?}`` (member names,
    minor units) against the carried balances."""

    class Meta:
        unknown = RAISE

    payer = fields.String(required=True, data_key="from", metadata=NAME_BOUNDS)
    payee = fields.String(required=True, data_key="to", metadata=NAME_BOUNDS)
    amount = fields.Integer(required=True, strict=True, metadata=MONEY | AMOUNT_BOUNDS)
    confirm = fields.Boolean(load_default=False, truthy={True}, falsy={False},
                             metadata={"description": "Record more than is owed (else 422 overpayment)."})


class CloseSchema(Schema):
    """``POST /api/v1/sessions/{id}/close`` (body optional): ``carry_over`` (default false)
    carries what is still owed into the club's running balances (a club night only)."""

    class Meta:
        unknown = RAISE

    carry_over = fields.Boolean(load_default=False, truthy={True}, falsy={False},
                                metadata={"description": "Club nights: carry what is still owed into the club's "
                                                         "balances instead of settling it in cash."})


class StandingsQuerySchema(Schema):
    """``GET /api/v1/clubs/{id}/standings?from=YYYY-MM-DD&to=YYYY-MM-DD&last=N`` (each optional;
    dates in the club's time zone, inclusive; ``last`` keeps the last N counted nights)."""

    class Meta:
        unknown = EXCLUDE

    date_from = fields.Date(data_key="from", load_default=None, metadata={"description": "First day, YYYY-MM-DD."})
    date_to = fields.Date(data_key="to", load_default=None, metadata={"description": "Last day, YYYY-MM-DD."})
    last = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_NUMBER),
                          metadata={"description": "Only the last N counted nights of the period."})

    @validates_schema
    def _order(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise ValidationError("The period must start on or before the day it ends.", "to")


class ClubExportQuerySchema(Schema):
    """``GET /api/v1/clubs/{id}/export.csv?table=…``."""

    class Meta:
        unknown = EXCLUDE

    table = fields.String(load_default="results", validate=validate.OneOf(CLUB_CSV_TABLES))


class ClubJoinSchema(Schema):
    """``POST /api/v1/clubs/join``: the club's table code and, optionally, the device's own name."""

    class Meta:
        unknown = EXCLUDE

    code = fields.String(required=True, validate=validate.Regexp(r"\s*\S", error="Send the club's code."))
    name = fields.String(load_default=None, allow_none=True, metadata={
        "description": "Optional: what this phone is called in the club's list of devices (\"Bo's phone\"), "
                       "cleaned like a player's name, at most 40 characters (422 ``invalid_entry`` naming "
                       "``name`` otherwise). Without it the device is called by its ``X-Device`` header, "
                       "else \"api client\"."})


# -- answers ------------------------------------------------------------------------------------
class ClubMemberOutSchema(Answer):
    id = fields.Integer(required=True, metadata={"description": "Kept across renames."})
    name = fields.String(required=True)
    language = fields.String(validate=validate.OneOf(LANGUAGE_CODES), metadata={
        "description": "The member's statement language (a catalogue code); absent when the member follows "
                       "the reader's language."})


class ClubNightOutSchema(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    started_at = fields.String(required=True)
    closed_at = fields.String(required=True, allow_none=True)
    carried = fields.Raw(required=True, metadata={
        "description": "true: closed with carry-over into the club balances; false: not (settled in cash, open, or "
                       "its carry undone); \"pending\": closed with carry-over by a member's night, waiting for the "
                       "owner's carry call (nothing moved).",
        "oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["pending"]}]})
    status = fields.String(metadata={"description": "open or closed."})
    hosted_by = fields.String(validate=validate.OneOf(("owner", "member")), metadata={
        "description": "The club role of the token that started the night."})
    carried_by = fields.String(allow_none=True, validate=validate.OneOf(("owner", "member")), metadata={
        "description": "Whose say carried the night (null while not carried)."})
    carry_state = fields.String(allow_none=True, validate=validate.OneOf(("pending", "carried", "uncarried")),
                                metadata={"description": "null, pending, carried (by the owner's call) or uncarried "
                                                         "(the owner undid the carry)."})
    pot_carried_minor = fields.Integer(validate=validate.Range(min=1), metadata={
        "description": "Only on a carried Tong-its night whose pot held money at the close (`pot_at_end` `carry`): "
                       "what it carried into the club's pot, minor units."})


class ClubBecauseSchema(Answer):
    """One reason of a club transfer: part of what a night carried into its payer's balance."""

    session_id = fields.String(metadata={"description": "The carried night whose debt this part is."})
    payment = fields.Integer(metadata={
        "description": "Instead of `session_id`: a club payment the payer received beyond what they were owed."})
    amount = fields.Integer(required=True, validate=validate.Range(min=1), metadata=MONEY)


class ClubTransferSchema(TransferSchema):
    because = fields.List(fields.Nested(ClubBecauseSchema), required=True, metadata={
        "description": "The nights that explain this transfer, oldest first, summing exactly to `amount` "
                       "(the payer's most recent nights that carried a debt)."})
    pay = fields.List(fields.Nested(HandOffSchema), metadata={
        "description": "The payee member's payment hand-offs that fit the club's currency, with the exact amount "
                       "and the note \"Tonk Ledger · <club name>\" (issue 22; the same kinds as a night's). Absent "
                       "when the payee keeps none that fits. Opening one marks nothing paid."})


class ClubSettlementSchema(SettlePlanSchema):
    transfers = fields.List(fields.Nested(ClubTransferSchema), required=True)


class ClubSettlementAnswerSchema(ClubSettlementSchema):
    """``GET /clubs/{id}/settlement``: the club's plan and each member's running balance."""

    balances = _net("Each member's running club balance (carried nights less payments).")


class ClubSchema(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    members = fields.List(fields.Nested(ClubMemberOutSchema), required=True)
    balances = _net("Each member's running club balance (carried nights less payments).")
    settlement = fields.Nested(ClubSettlementSchema, required=True)
    carry_needs_owner = fields.Boolean(metadata={
        "description": "A member-hosted night closed with carry_over waits for the owner's carry call."})
    nights = fields.List(fields.Nested(ClubNightOutSchema), required=True)
    pot_minor = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "The club's Tong-its pot, minor units (TONGITS.md §4.9): what carried nights' pots left; its "
                       "next Tong-its night opens with it and empties it. Undoing a carry takes its pot back (409 "
                       "`pot_taken` once a later night opened with it)."})
    pot_in_nights_minor = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "What the club's nights not carried (open, pending, settled in cash, undone) opened with "
                       "from the club's pot. `sum(balances) + pot_minor + pot_in_nights_minor` is 0; the plan's "
                       "transfers `to` `\"pot\"` say who puts that pot's money in."})


class ClubDeviceSchema(Answer):
    """A device holding a club token (``GET /clubs/{id}/devices``)."""

    id = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "What the device joined as, or the owner link."})
    role = fields.String(required=True, validate=validate.OneOf(CLUB_ROLES))
    joined = fields.String(required=True, metadata={"description": "ISO 8601 time it joined."})


class RevokedClubDeviceSchema(ClubDeviceSchema):
    revoked_at = fields.String(required=True, metadata={"description": "ISO 8601 time it was removed."})


class ClubCreatedSchema(ClubSchema):
    token = fields.String(required=True, metadata={"description": "The owner's bearer token, shown once."})
    member_token = fields.String(required=True)
    viewer_token = fields.String(required=True)
    table_code = fields.String(required=True)
    links = fields.Dict(keys=fields.String(validate=validate.OneOf(CLUB_ROLES)), values=fields.String(),
                        required=True)


class ClubJoinedSchema(Answer):
    id = fields.String(required=True)
    token = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf(("member",)))


class ClubNightTokenSchema(Answer):
    id = fields.String(required=True, metadata={"description": "The night's id."})
    token = fields.String(required=True, metadata={"description": "A token of the night of this client's own."})
    role = fields.String(required=True, validate=validate.OneOf(("host", "player", "viewer")),
                         metadata={"description": "The night role: owner → host, member → player, viewer → viewer."})


class ClubPaymentOutSchema(Answer):
    id = fields.Integer(required=True)
    payer = fields.String(required=True, data_key="from")
    payee = fields.String(required=True, data_key="to")
    amount = fields.Integer(required=True, metadata=MONEY)
    status = fields.String(required=True, validate=validate.OneOf(("counted", "voided")))
    created_at = fields.String(required=True)


class ClubPaymentRecordedSchema(ClubPaymentOutSchema):
    balances = _net("The running club balances after the payment.")


class ClubPaymentListSchema(Answer):
    payments = fields.List(fields.Nested(ClubPaymentOutSchema), required=True)
    balances = _net("The running club balances.")


class StandingSchema(Answer):
    member = fields.String(required=True)
    member_id = fields.Integer(required=True)
    nights = fields.Integer(required=True)
    hands = fields.Integer(required=True)
    net = fields.Integer(required=True, metadata={"description": "Sum of the member's finals, minor units."})
    wins = fields.Dict(keys=fields.String(validate=validate.OneOf(WIN_KINDS)), values=fields.Integer(), required=True,
                       metadata={"description": "Hands won by kind: Tonk's kinds, then Tong-its' (`tongits`, `draw`, "
                                                "`stock_out`); a club plays either game."})
    caught = fields.Integer(required=True)
    best_night = fields.Integer(allow_none=True, metadata=MONEY)
    worst_night = fields.Integer(allow_none=True, metadata=MONEY)
    average_per_night = fields.Integer(allow_none=True, metadata={
        "description": "Net divided by nights, rounded to the nearest minor unit (half-way cases away "
                       "from zero), minor units."})


class StandingsSchema(Answer):
    members = fields.List(fields.Nested(StandingSchema), required=True)


class ClubImportedSchema(ClubCreatedSchema):
    night_tokens = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "A new host token for each imported night, by its new id."})
