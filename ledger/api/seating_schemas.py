"""Marshmallow schemas of the seating calls (``ledger.api.seating``): their request bodies
(shape only; seats, names and the rules are checked by :mod:`ledger.night.seating`) and their
answers, both published in the OpenAPI document (:mod:`ledger.api.openapi`)."""
from __future__ import annotations

from marshmallow import INCLUDE, RAISE, Schema, fields, validate

from ledger.api.responses import PaymentOutSchema, TransferSchema
from ledger.api.schemas import NAME_BOUNDS, STAKE_BOUNDS
from ledger.night.seating import SETTLE_CHOICES


class SitInSchema(Schema):
    """``POST /api/v1/sessions/{id}/players``: ``name`` sits in from the next hand, just after
    the seated player ``after`` (default: at the next dealer's right, so they deal last)."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, metadata=NAME_BOUNDS)
    after = fields.String(load_default=None, allow_none=True, metadata=NAME_BOUNDS)


class LeaveSchema(Schema):
    """``POST /api/v1/sessions/{id}/players/leave``: ``name`` leaves from the next hand;
    ``settle`` is ``now`` (the cash-out transfers are recorded as payments) or ``at_end`` (they
    are only shown; the leaver stays in the final plan). Default ``now``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, metadata=NAME_BOUNDS)
    settle = fields.String(load_default="now", validate=validate.OneOf(SETTLE_CHOICES))


class StakeSchema(Schema):
    """``POST /api/v1/sessions/{id}/stake``: the stake from the next hand, int minor units."""

    class Meta:
        unknown = RAISE

    stake = fields.Integer(required=True, strict=True, metadata=STAKE_BOUNDS)


class SwapSchema(Schema):
    """``POST /api/v1/sessions/{id}/seats/swap``: ``a`` and ``b`` were entered in each other's
    seats from hand ``from_hand`` on."""

    class Meta:
        unknown = RAISE

    a = fields.String(required=True, metadata=NAME_BOUNDS)
    b = fields.String(required=True, metadata=NAME_BOUNDS)
    from_hand = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1))


class RenameSchema(Schema):
    """``POST /api/v1/sessions/{id}/players/rename``: ``from`` is now called ``to``."""

    class Meta:
        unknown = RAISE

    old = fields.String(required=True, data_key="from", metadata=NAME_BOUNDS)
    new = fields.String(required=True, data_key="to", metadata=NAME_BOUNDS)


# -- answers (for the OpenAPI document, ledger.api.openapi) -------------------------------------
class _Answer(Schema):
    class Meta:
        unknown = INCLUDE


class SeatedSchema(_Answer):
    """201 of a sit-in: the seating from ``from_hand`` on."""

    players = fields.List(fields.String(), required=True, metadata={"description": "Seat order, clockwise."})
    from_hand = fields.Integer(required=True, metadata={"description": "The first hand played at this seating."})
    next_dealer = fields.String(required=True)


class CashOutSchema(_Answer):
    transfers = fields.List(fields.Nested(TransferSchema), required=True,
                            metadata={"description": "The fewest transfers that clear the leaver now."})
    remaining = fields.Integer(required=True, metadata={"description": "Minor units the seated players could not "
                                                                       "cover (0 normally)."})


class LeftSchema(_Answer):
    """200 of a leave: the seating after, the leaver's balance as of their last hand and the cash-out."""

    name = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    from_hand = fields.Integer(required=True)
    as_of_hand = fields.Integer(required=True, allow_none=True,
                                metadata={"description": "The leaver's last hand (null if they played none)."})
    balance = fields.Integer(required=True, metadata={"description": "The leaver's net over the hands, minor units."})
    settle = fields.String(required=True, validate=validate.OneOf(SETTLE_CHOICES))
    cash_out = fields.Nested(CashOutSchema, required=True)
    payments = fields.List(fields.Nested(PaymentOutSchema), required=True,
                           metadata={"description": "The cash-out recorded as payments (settle now), else empty."})
    outstanding = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    next_dealer = fields.String(required=True)


class StakeChangedSchema(_Answer):
    stake = fields.Integer(required=True, metadata={"description": "Minor units."})
    from_hand = fields.Integer(required=True)


class ReenteredSchema(_Answer):
    number = fields.Integer(required=True)
    version = fields.Integer(required=True)


class SwappedSchema(_Answer):
    """200 of a seat fix: the re-entered hands' numbers and new versions."""

    hands = fields.List(fields.Nested(ReenteredSchema), required=True)
    players = fields.List(fields.String(), required=True)
    from_hand = fields.Integer(required=True)
    net = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class RenamedSchema(_Answer):
    players = fields.List(fields.String(), required=True)
    old = fields.String(required=True, data_key="from")
    new = fields.String(required=True, data_key="to")
    net = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
