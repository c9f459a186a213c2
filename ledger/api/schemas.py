"""Marshmallow schemas for the JSON API's request bodies (shape only; rules come after)."""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates

from ledger.money import minor_digits
from ledger.zones import DEFAULT_ZONE, is_known_zone


class SessionCreateSchema(Schema):
    """``POST /api/v1/sessions``: ``stake`` is an int in minor units of ``currency``;
    ``timezone`` an IANA zone name (default ``UTC``)."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    currency = fields.String(required=True)
    stake = fields.Integer(required=True, strict=True)
    ruleset = fields.Dict(load_default=dict)
    players = fields.List(fields.String(), required=True)
    first_dealer = fields.String(load_default=None, allow_none=True)
    timezone = fields.String(load_default=DEFAULT_ZONE)

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


class HandCreateSchema(Schema):
    """``POST /api/v1/sessions/{id}/hands``: one §8.1 entry without players, stake or rules."""

    class Meta:
        unknown = RAISE

    outcome = fields.Dict(required=True)
    hands = fields.Dict(load_default=dict)
    side_bets = fields.Dict(load_default=None, allow_none=True)
    dealer = fields.String(load_default=None, allow_none=True)
    number = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1))


class PaymentSchema(Schema):
    """``POST /api/v1/sessions/{id}/payments``: ``amount`` in minor units; ``confirm`` (JSON
    boolean, default false) records a payment beyond what is owed (else 422 ``overpayment``)."""

    class Meta:
        unknown = RAISE

    payer = fields.String(required=True, data_key="from")
    payee = fields.String(required=True, data_key="to")
    amount = fields.Integer(required=True, strict=True)
    confirm = fields.Boolean(load_default=False, truthy={True}, falsy={False})  # record an overpayment anyway


class SettleSchema(Schema):
    """``POST /api/v1/settle``: ``balances`` maps players to signed ints (minor units)."""

    class Meta:
        unknown = RAISE

    balances = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=-(10**15), max=10**15)),
        required=True,
    )
