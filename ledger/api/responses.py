"""Marshmallow schemas of the JSON API's answers, for the published OpenAPI document.

They describe what :mod:`ledger.night.lifecycle`, :mod:`ledger.night.export` and the rules engine return (every
amount an int in minor units); the schemathesis test (``tests/test_api_contract.py``) checks
every answer of every operation against them. Objects may carry more fields than listed.
"""
from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

ROLES = ("host", "player", "viewer")
MONEY = {"description": "Minor units (cents)."}


class Answer(Schema):
    """Base of the answer schemas: an answer may carry fields added after this document."""

    class Meta:
        unknown = INCLUDE


def _net(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                       metadata={"description": description})


class ErrorSchema(Answer):
    """Every 4xx: a stable ``error`` code, a sentence, and the path of the field at fault."""

    error = fields.String(required=True, metadata={"description": "Stable machine code (README: JSON API)."})
    message = fields.String(required=True, metadata={"description": "One sentence for a person."})
    field = fields.String(required=True, allow_none=True, metadata={"description": "Path such as hands.Dee.cards[2]."})
    existing = fields.Nested("HandSchema", metadata={"description": "409 hand_number_taken: the hand already recorded."})
    current = fields.Nested("HandSchema", metadata={"description": "409 stale_version: the current version."})


class TransferSchema(Answer):
    payer = fields.String(required=True, data_key="from")
    payee = fields.String(required=True, data_key="to")
    amount = fields.Integer(required=True, validate=validate.Range(min=1), metadata=MONEY)


class ScoreResultSchema(Answer):
    """RULES.md §8.2 result plus ``redeal`` and ``winners``."""

    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    net = _net("Each player's signed result of the hand, zero included.")
    redeal = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)


class TongitsPotSchema(Answer):
    """TONGITS.md §8.2 ``pot``: the pot's move in one entry and the state after it."""

    balance_before = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    antes = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    taken_by = fields.String(required=True, allow_none=True, metadata={"description": "Who took the pot, or null."})
    taken = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    split = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    balance_after = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    holder = fields.String(required=True, allow_none=True, metadata={"description": "The hitter after the hand."})
    streak = fields.Integer(required=True, validate=validate.Range(min=0))


class TongitsScoreResultSchema(Answer):
    """TONGITS.md §8.2 result (``"game": "tongits"``): ``"pot"`` is a party of the transfers and
    a key of ``net``; ``next_dealer`` when the entry named its dealer (not on a close);
    ``redeal`` only on a redeal (true)."""

    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    net = _net("Each player's signed result of the entry, zero included, and the pot's.")
    pot = fields.Nested(TongitsPotSchema, required=True)
    winner = fields.String(required=True, allow_none=True)
    next_dealer = fields.String()
    redeal = fields.Boolean(validate=validate.Equal(True))


class RummyPoolSchema(Answer):
    """RUMMY13.md §8.2 ``pool`` of a pool-format hand: the running scores after it."""

    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    eliminated = fields.List(fields.String(), required=True)
    remaining = fields.List(fields.String(), required=True)
    over = fields.Boolean(required=True)
    winner = fields.String(required=True, allow_none=True)


class RummyScoreResultSchema(Answer):
    """RUMMY13.md §8.2 result (``"game": "rummy13"``): the points charged to each player, the
    netted transfers and nets (points × r); ``pool`` in pool format; ``redeal`` only on a void hand."""

    points = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    net = _net("Each player's signed result of the hand, zero included.")
    pool = fields.Nested(RummyPoolSchema)
    redeal = fields.Boolean(validate=validate.Equal(True))


class RummyPoolSettlementSchema(Answer):
    """RUMMY13.md §8.4 result of a pool's end: the pot, each share, the nets and the transfers."""

    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    net = _net("Each player's share less the entry fees paid, zero included.")
    pot = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    shares = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class SettlePlanSchema(Answer):
    transfers = fields.List(fields.Nested(TransferSchema), required=True, metadata={
        "description": "The fewest transfers that clear what is still owed. On a night whose game keeps a pot "
                       "(Tong-its, TONGITS.md §4.8) with money in it (open, kept at a seat change, or carried at the "
                       "close), the pot is a party: lines `to` `pot` say who pays into it; they are not payments "
                       "between players (`POST …/payments` names players only)."})
    transfer_count = fields.Integer(required=True)
    minimal = fields.Boolean(required=True, metadata={"description": "True when proven to be the fewest."})


class BecauseSchema(Answer):
    """One reason of a settle-up transfer: part of a loss of its payer (:mod:`ledger.settlement.allocation`)."""

    hand = fields.Integer(metadata={"description": "The hand whose loss this part is."})
    payment = fields.Integer(metadata={
        "description": "Instead of `hand`: a payment the payer received beyond what they were owed."})
    amount = fields.Integer(required=True, validate=validate.Range(min=1), metadata={
        "description": "Minor units: the part of that loss that explains the transfer."})


class HandOffSchema(Answer):
    kind = fields.String(required=True, validate=validate.OneOf(("venmo", "cashapp", "paypal", "upi", "iban", "qr")))
    url = fields.String(metadata={"description": "A link that opens the payee's payment app, pre-filled."})
    qr_payload = fields.String(metadata={
        "description": "The text of a QR code to scan (`iban`: the EPC069-12 payload; `qr`: the payee's own code, "
                       "unchanged: type the amount; `upi`: the link)."})


class ExplainedTransferSchema(TransferSchema):
    because = fields.List(fields.Nested(BecauseSchema), required=True, metadata={
        "description": "The payer's losses that explain this transfer, oldest first, summing exactly to `amount`: "
                       "their most recent losing hands, their wins counted against their earliest losses; a hand "
                       "may be split between the payer's transfers, never used more than it lost."})
    pay = fields.List(fields.Nested(HandOffSchema), metadata={
        "description": "The payee's payment hand-offs that fit the night's currency, with the exact amount and the "
                       "note \"Tonk · <night name>\" (issue 22): Venmo and Cash App (USD), UPI (INR), the EPC QR of "
                       "an IBAN (EUR), PayPal.me (the currencies PayPal takes), the payee's own receive QR (any). "
                       "Absent when the payee keeps none that fits. Opening one marks nothing paid."})


class SettlementSchema(SettlePlanSchema):
    """A session's settle-up plan for what is still outstanding; while people pay it keeps the
    lines nobody paid (among the plans with the fewest transfers)."""

    transfers = fields.List(fields.Nested(ExplainedTransferSchema), required=True)
    balances = _net("Each player's running net of the counted hands.")
    outstanding = _net("Balances less the payments made.")
    carried_into = fields.String(allow_none=True, metadata={
        "description": "The club whose balances took what was still owed when the night closed (the transfers "
                       "are then settled there, not between the night's players), else null."})


class SessionSchema(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    stake = fields.Integer(required=True, metadata=MONEY)
    ruleset = fields.Dict(required=True, metadata={"description": "The full rule snapshot: preset and every toggle."})
    players = fields.List(fields.String(), required=True)
    first_dealer = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(("open", "closed", "voided", "removed")),
                           metadata={"description": "`voided`: kept for the record, counted nowhere; `removed`: "
                                                    "started by mistake and taken away by its host."})
    created_at = fields.String(required=True, metadata={"description": "ISO 8601 time."})
    closed_at = fields.String(required=True, allow_none=True)
    timezone = fields.String(metadata={"description": "IANA time zone of the night."})
    net = _net("Each player's running net of the counted hands.")
    outstanding = _net("Balances less the payments made.")
    hand_count = fields.Integer(required=True)
    next_dealer = fields.String(required=True)
    next_number = fields.Integer(required=True)
    roster = fields.List(fields.Nested("RosterEntrySchema"), metadata={
        "description": "Everyone who ever sat: whether seated now, and their last hand (`as_of_hand`)."})
    stakes = fields.List(fields.Nested("StakeFromSchema"), metadata={
        "description": "Where the stake changed: the stake from each `from_hand` on."})
    club = fields.String(allow_none=True, metadata={"description": "The club of a club night, else null."})
    carried = fields.Boolean(allow_none=True, metadata={
        "description": "A closed club night: true when what was still owed was carried into the club's balances "
                       "(`outstanding` is then settled in the club, not between the night's players), false when "
                       "it was settled in cash; null while open and outside clubs."})
    game = fields.String(required=True, validate=validate.OneOf(("tonk", "tongits", "rummy13")), metadata={
        "description": "The game played: `tonk` (RULES.md), `tongits` (TONGITS.md) or `rummy13` (RUMMY13.md)."})
    pot = fields.Nested("NightPotSchema", metadata={
        "description": "A night whose game keeps a pot (Tong-its): the pot as the ledger keeps it. `net` covers the "
                       "players only; their nets plus `pot.balance_minor` less `pot.opening_minor` (0 when absent) "
                       "sum to zero."})
    points = fields.Boolean(metadata={
        "description": "Kept in points instead of money (issue 25; `currency` `PTS`): no settle-up, payments or "
                       "hand-offs."})
    pool = fields.Nested("NightPoolSchema", allow_none=True, metadata={
        "description": "A pool rummy night (RUMMY13.md §4.9): where the pool stands; null for any other night."})
    pot_closed = fields.Nested("HandSchema", metadata={
        "description": "POST …/close of a Tong-its night with a pot: the entry that closed it (TONGITS.md §4.9, "
                       "`pot_at_end`: split among the seated players, or carried)."})


class NightPoolSchema(Answer):
    """A pool rummy night's standing (RUMMY13.md §4.9–§4.10, :func:`ledger.night.reads.pool_standing`)."""

    limit = fields.Integer(required=True, metadata={"description": "The score that puts a player out (101, 201)."})
    scores = _net("Each seated player's running score.")
    out = fields.List(fields.String(), required=True, metadata={"description": "Who is out, in seat order."})
    buy_ins = _net("Each player's buy-ins (1 + rejoins).")
    pot = fields.Integer(required=True, metadata=MONEY | {"description": "Entry fee × buy-ins, minor units."})
    ended = fields.Boolean(required=True, metadata={"description": "The pot was paid (a `pool_end` entry counts)."})
    last_in = fields.String(required=True, allow_none=True, metadata={
        "description": "The one player still in, once everyone else is out; else null."})


class NightPotSchema(Answer):
    """A Tong-its night's pot (TONGITS.md §4.8): the balance of its ``pot`` account and the state
    the next hand is scored from."""

    balance_minor = fields.Integer(required=True, validate=validate.Range(min=0), metadata=MONEY)
    holder = fields.String(required=True, allow_none=True, metadata={"description": "The hitter, or null."})
    streak = fields.Integer(required=True, validate=validate.Range(min=0))
    closed = fields.String(validate=validate.OneOf(("split", "carried", "empty")), metadata={
        "description": "A closed night only: what its close did with the pot (TONGITS.md §4.9, `pot_at_end`): `split` "
                       "among the seated players, `carried` (the balance stays in the pot for the group's next night; "
                       "the players' nets do not settle it), or `empty` (nothing was in it)."})
    closed_minor = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "A closed night only: the balance the close split or carried, minor units (0 when empty)."})
    closed_among = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "A closed night only: how many seated players shared a split (0 unless `split`)."})
    opening_minor = fields.Integer(validate=validate.Range(min=1), metadata={
        "description": "Only for a club night that opened with the club's pot (TONGITS.md §4.8: what earlier club "
                       "nights carried; no holder, no streak): that balance, minor units. The players' nets plus "
                       "`balance_minor - opening_minor` sum to zero."})


class RosterEntrySchema(Answer):
    name = fields.String(required=True)
    seated = fields.Boolean(required=True)
    as_of_hand = fields.Integer(required=True, allow_none=True)


class StakeFromSchema(Answer):
    from_hand = fields.Integer(required=True)
    stake = fields.Integer(required=True, metadata=MONEY)


class ShareSchema(Answer):
    """The host's secrets to hand to the other phones (shown to the host only)."""

    table_url = fields.String(required=True)
    player_token = fields.String(required=True)
    viewer_token = fields.String(required=True)
    table_code = fields.String(required=True)
    links = fields.Dict(keys=fields.String(validate=validate.OneOf(ROLES)), values=fields.String(), required=True)


class SessionCreatedSchema(SessionSchema, ShareSchema):
    token = fields.String(required=True, metadata={"description": "The host's bearer token, shown once."})
    recovery_code = fields.String(required=True, metadata={
        "description": "Restores host rights on a new phone (POST …/recover); shown once, also printed in the host's PDF."})


class PhoneSchema(Answer):
    """A phone that holds a token of the night (``GET …/phones``)."""

    id = fields.Integer(required=True)
    name = fields.String(required=True, metadata={
        "description": "The name the phone chose when it joined (\"Bo's phone\"), else its X-Device header, else "
                       "its system and browser (\"Android · Chrome\"); the host link's in the reader's language."})
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    last_seen = fields.String(required=True, metadata={"description": "ISO 8601 time of its newest change, or when it joined."})


class RevokedPhoneSchema(PhoneSchema):
    """A phone removed from the night (``DELETE …/phones/{phone_id}``)."""

    revoked_at = fields.String(required=True, metadata={"description": "ISO 8601 time it was removed."})


class RecoveredSchema(Answer):
    id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "A host bearer token of this phone's own "
                                                                  "(never the host's link token)."})
    role = fields.String(required=True, validate=validate.OneOf(("host",)))
    phone = fields.Integer(required=True, metadata={"description": "This phone's id in GET …/phones."})


class RecoveryCodeSchema(Answer):
    recovery_code = fields.String(required=True, metadata={
        "description": "The new recovery code: works once; the host's PDF prints it when the host link issued it."})


class RotatedSchema(ShareSchema):
    """``POST …/rotate``: the new secrets, the shape of ``/share`` with the new host token."""

    token = fields.String(required=True, metadata={"description": "The new host bearer token (this phone keeps it)."})
    recovery_code = fields.String(required=True, metadata={"description": "The new recovery code (works once)."})


class JoinedPhoneSchema(Answer):
    """The phone that joined, as ``GET …/phones`` lists it."""

    id = fields.Integer(required=True, allow_none=True)
    name = fields.String(required=True, metadata={
        "description": "The name it chose (\"Bo's phone\"), else its X-Device header, else its system and "
                       "browser (\"Android · Chrome\")."})


class JoinedSchema(Answer):
    id = fields.String(required=True)
    token = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf(("player",)))
    phone = fields.Nested(JoinedPhoneSchema, required=True)


class HandSchema(Answer):
    """One stored version of a hand."""

    number = fields.Integer(required=True)
    version = fields.Integer(required=True)
    dealer = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(("counted", "voided", "superseded")))
    outcome = fields.Dict(required=True, allow_none=True)
    hands = fields.Dict(required=True, allow_none=True)
    side_bets = fields.Dict(required=True, allow_none=True)
    description = fields.String(required=True)
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    net = _net("Each player's signed result of the hand.")
    redeal = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)
    voided_at = fields.String(required=True, allow_none=True)
    players = fields.List(fields.String(), metadata={"description": "The seating the hand was played at."})
    stake = fields.Integer(metadata={"description": "The stake the hand was played at, minor units."})
    kind = fields.String(metadata={"description": "A Tong-its or 13-card rummy night's hand: its outcome kind "
                                                  "(TONGITS.md §8.1, `close_pot` for the pot closed at the end or at a "
                                                  "seat change; RUMMY13.md §8.1: `show`, `last_player`, `wrong_show`, "
                                                  "`void`)."})
    winner = fields.String(allow_none=True, metadata={
        "description": "A Tong-its or 13-card rummy night's hand: who won, or null."})
    points = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "A 13-card rummy night's hand: the points charged to each player (RUMMY13.md §8.2; 0 for the "
                       "winner); each payment is points × the stake."})
    wild_rank = fields.String(allow_none=True, metadata={
        "description": "A 13-card rummy night's hand: the wild rank it was played with (RUMMY13.md §1.4), or null."})
    pot = fields.Nested("TongitsPotSchema", metadata={
        "description": "A Tong-its night's hand: the pot's move in it and the state after it (TONGITS.md §8.2); "
                       "`net` and `transfers` name the pot as `pot`."})
    pool_end = fields.Dict(metadata={
        "description": "A pool rummy night's entry of kind `pool_end` (RUMMY13.md §4.10): `{pot, shares, end}`, the "
                       "pot (entry fee × buy-ins) and each share, minor units, and how it ended (`{kind: winner, "
                       "winner}` or `{kind: split, method}`)."})


class HandRecordedSchema(HandSchema):
    next_dealer = fields.String(required=True)
    session_net = _net("The night's running net after this change.")


class HandListSchema(Answer):
    hands = fields.List(fields.Nested(HandSchema), required=True)


class HandVersionsSchema(Answer):
    versions = fields.List(fields.Nested(HandSchema), required=True)


class PaymentOutSchema(Answer):
    id = fields.Integer(required=True)
    payer = fields.String(required=True, data_key="from")
    payee = fields.String(required=True, data_key="to")
    amount = fields.Integer(required=True, metadata=MONEY)
    status = fields.String(required=True, validate=validate.OneOf(("counted", "voided")))
    kind = fields.String(validate=validate.OneOf(("payment", "cash_out")),
                         metadata={"description": "`cash_out`: paid to or by a player leaving mid-night."})
    created_at = fields.String(required=True)


class PaymentRecordedSchema(PaymentOutSchema):
    outstanding = _net("Balances less the payments made.")


class PaymentListSchema(Answer):
    payments = fields.List(fields.Nested(PaymentOutSchema), required=True)
    outstanding = _net("Balances less the payments made.")


class HistoryEventSchema(Answer):
    id = fields.Integer(required=True)
    action = fields.String(required=True)
    hand_number = fields.Integer(required=True, allow_none=True)
    actor_role = fields.String(required=True)
    access_key_id = fields.Integer(required=True, allow_none=True)
    device = fields.String(required=True, allow_none=True)
    at = fields.String(required=True)
    detail = fields.Dict(required=True, metadata={"description": "before / after and what changed."})


class HistorySchema(Answer):
    events = fields.List(fields.Nested(HistoryEventSchema), required=True)


class ExportSchema(Answer):
    session = fields.Nested(SessionSchema, required=True)
    hands = fields.List(fields.Nested(HandSchema), required=True)
    payments = fields.List(fields.Nested(PaymentOutSchema), required=True)
    settlement = fields.Nested(SettlePlanSchema, required=True)
    history = fields.List(fields.Nested(HistoryEventSchema), required=True)
