"""Marshmallow schemas for the JSON API's request bodies (shape only; rules come after)."""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates

from ledger.limits import SETTLE_MAX_BALANCES, SETTLE_MAX_NONZERO
from ledger.money import minor_digits


class SessionCreateSchema(Schema):
    """``POST /api/v1/sessions``: ``stake`` is an int in minor units of ``currency``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    currency = fields.String(required=True)
    stake = fields.Integer(required=True, strict=True)
    ruleset = fields.Dict(load_default=dict)
    players = fields.List(fields.String(), required=True)
    first_dealer = fields.String(load_default=None, allow_none=True)

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
    """``POST /api/v1/sessions/{id}/payments``: ``amount`` in minor units."""

    class Meta:
        unknown = RAISE

    payer = fields.String(required=True, data_key="from")
    payee = fields.String(required=True, data_key="to")
    amount = fields.Integer(required=True, strict=True)


class SettleSchema(Schema):
    """``POST /api/v1/settle``: ``balances`` maps players to signed ints (minor units); at most
    :data:`~ledger.limits.SETTLE_MAX_BALANCES` entries, :data:`~ledger.limits.SETTLE_MAX_NONZERO`
    of them non-zero."""

    class Meta:
        unknown = RAISE

    balances = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=-(10**15), max=10**15)),
        required=True,
        metadata={"maxProperties": SETTLE_MAX_BALANCES},
    )

    @validates("balances")
    def _cap(self, value: dict[str, int], **_: Any) -> None:
        if len(value) > SETTLE_MAX_BALANCES:
            raise ValidationError(
                f"Send at most {SETTLE_MAX_BALANCES} balances at once; {len(value)} were sent."
            )
        nonzero = sum(1 for amount in value.values() if amount)
        if nonzero > SETTLE_MAX_NONZERO:
            raise ValidationError(
                f"Settle at most {SETTLE_MAX_NONZERO} non-zero balances at once; {nonzero} were sent."
            )
