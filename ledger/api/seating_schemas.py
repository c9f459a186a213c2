"""Marshmallow schemas for the seating calls' request bodies (``ledger.api.seating``): shape
only; seats, names and the rules are checked by :mod:`ledger.seating`."""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from ledger.seating import SETTLE_CHOICES


class SitInSchema(Schema):
    """``POST /api/v1/sessions/{id}/players``: ``name`` sits in from the next hand, just after
    the seated player ``after`` (default: at the next dealer's right, so they deal last)."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True)
    after = fields.String(load_default=None, allow_none=True)


class LeaveSchema(Schema):
    """``POST /api/v1/sessions/{id}/players/leave``: ``name`` leaves from the next hand;
    ``settle`` is ``now`` (the cash-out transfers are recorded as payments) or ``at_end`` (they
    are only shown; the leaver stays in the final plan). Default ``now``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True)
    settle = fields.String(load_default="now", validate=validate.OneOf(SETTLE_CHOICES))


class StakeSchema(Schema):
    """``POST /api/v1/sessions/{id}/stake``: the stake from the next hand, int minor units."""

    class Meta:
        unknown = RAISE

    stake = fields.Integer(required=True, strict=True)


class SwapSchema(Schema):
    """``POST /api/v1/sessions/{id}/seats/swap``: ``a`` and ``b`` were entered in each other's
    seats from hand ``from_hand`` on."""

    class Meta:
        unknown = RAISE

    a = fields.String(required=True)
    b = fields.String(required=True)
    from_hand = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1))


class RenameSchema(Schema):
    """``POST /api/v1/sessions/{id}/players/rename``: ``from`` is now called ``to``."""

    class Meta:
        unknown = RAISE

    old = fields.String(required=True, data_key="from")
    new = fields.String(required=True, data_key="to")
