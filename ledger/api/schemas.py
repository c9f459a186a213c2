"""Marshmallow schemas for the JSON API's request bodies and query strings (shape only; the
rules engine checks the entry itself, RULES.md §9.1). The published OpenAPI document
(:mod:`ledger.api.openapi`) is generated from these same classes, so what is documented is
what is validated. Response shapes are in :mod:`ledger.api.responses`."""
from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates, validates_schema

from ledger.night.export import CSV_TABLES
from ledger.access.limits import SETTLE_MAX_BALANCES, SETTLE_MAX_NONZERO
from ledger.money import minor_digits
from ledger.night.lifecycle import MAX_NAME
from ledger.night.payments import MAX_PAYMENT_MINOR
from ledger.games.tonk.validation import MAX_STAKE_MINOR
from ledger.night.zones import DEFAULT_ZONE, is_known_zone

MAX_NUMBER = 2**31 - 1
# the bounds the API enforces, for the document only: the checks themselves are the ledger's and
# the rules engine's, so that a refusal keeps its code (422 invalid_stake, invalid_payment, invalid_entry)
STAKE_BOUNDS = {"minimum": 1, "maximum": MAX_STAKE_MINOR}
AMOUNT_BOUNDS = {"minimum": 1, "maximum": MAX_PAYMENT_MINOR}
NAME_BOUNDS = {"minLength": 1, "maxLength": MAX_NAME}
SESSION_GAMES = ("tonk", "tongits", "rummy13")  # the games a night may be of
OUTCOME_KINDS = ("deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock", "double_double")

# Documentation of the §8.1 parts the rules engine parses (``ledger.games.tonk.entry``): marshmallow
# only checks that they are objects, so that refusals keep their §9.1 codes and precedence.
OUTCOME_DOC = {
    "description": "How the hand ended (RULES.md §8.1): `kind` plus that kind's fields.",
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": list(OUTCOME_KINDS)},
        "claimants": {"type": "array", "items": {"type": "string"}},
        "declared_before_any_drop": {"type": "boolean"},
        "winner": {"type": "string"},
        "final_turn": {"type": "object", "properties": {
            "spread_cards": {"type": "integer", "minimum": 0}, "hit_cards": {"type": "integer", "minimum": 0}}},
        "knocker": {"type": "string"},
        "knocker_lock_turns": {"type": "integer", "minimum": 0},
        "claimed_result": {"type": "string", "enum": ["knocker_wins", "knocker_caught"]},
        "claimed_winner": {"type": "string"},
        "first_tonker": {"type": "string"},
        "responder": {"type": "string"},
        "tonker_final_spread": {"type": "array", "items": {"type": "string"}},
    },
}
HANDS_DOC = {
    "description": "Each player's hand at the end (the dealt hand for a deal tonk): `cards` "
                   "(card texts such as \"10H\", \"QS\", \"A♠\"), and/or `total`, and the `spreads` laid.",
    "additionalProperties": {"type": "object", "properties": {
        "cards": {"type": ["array", "null"], "items": {"type": "string"}},
        "total": {"type": ["integer", "null"]},
        "spreads": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
    }},
}
SIDE_BETS_DOC = {
    "description": "Optional spade side pot (RULES.md §4.10): "
                   "`{\"spade\": {\"side_stake\": int, \"highest_spade\": {player: card or null}}}`.",
}
RULESET_DOC = {
    "description": "A preset (`classic`, `pagat_literal`, `wikipedia`, `texas`, `black_company`) and "
                   "house-rule `toggles` (RULES.md §6, §7).",
    "properties": {"preset": {"type": "string"}, "toggles": {"type": "object"}},
}


class SessionCreateSchema(Schema):
    """``POST /api/v1/sessions``: ``stake`` is an int in minor units of ``currency``;
    ``timezone`` an IANA zone name (default ``UTC``)."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    currency = fields.String(load_default=None, metadata={
        "description": "ISO 4217 code, e.g. USD; required outside a club (a club night takes the club's)."})
    stake = fields.Integer(required=True, strict=True,
                           metadata={"description": "Stake S in minor units (points in a night kept in points)."}
                           | STAKE_BOUNDS)
    points = fields.Boolean(load_default=False, metadata={
        "description": "Keep the night in points instead of money (where playing for money is not allowed): the same "
                       "rules and scoring, every amount a whole number of points, `currency` `PTS` (send no other), "
                       "no settle-up, payments or hand-offs (409 `points_only`). A club night takes its club's: a "
                       "club kept in points has currency `PTS`."})
    ruleset = fields.Dict(load_default=dict, metadata=RULESET_DOC)
    game = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(SESSION_GAMES), metadata={
        "description": "The game: absent or null = `tonk` (RULES.md); `tongits` = a Tong-its night (TONGITS.md: its "
                       "`ruleset` presets and toggles, 3 players or 4 with `four_players`, nobody named `pot`, the pot "
                       "kept by the ledger); `rummy13` = a 13-card rummy night (RUMMY13.md: `stake` is the point rate, "
                       "presets `points_rummy` and `home_table` and the §6 toggles, 2 to 6 players; with `pool_101` or "
                       "`pool_201` a pool night: `stake` is the entry fee, the session's `pool` keeps the scores, "
                       "`POST …/pool/end` pays the pot). Any other value is 400 `invalid_game`. A club night may be of either "
                       "game; a Tong-its club night opens with the club's pot (what earlier nights carried, `pot_minor` "
                       "of the club; the club's pot is then empty) and may carry its own at the close (`pot_at_end` "
                       "`carry`: the pot goes into the club's pot when the night's balances are carried)."})
    club = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=32), metadata={
        "description": "A club id: the night is played in that club (send the club's owner or member token "
                       "as the bearer token). Members sit from the roster; new names join it."})
    players = fields.List(fields.String(metadata=NAME_BOUNDS), required=True,
                          metadata={"description": "Names in seat order."})
    first_dealer = fields.String(load_default=None, allow_none=True, metadata=NAME_BOUNDS)
    timezone = fields.String(
        load_default=DEFAULT_ZONE, validate=validate.Length(min=1, max=64),
        metadata={"description": "IANA time zone of the night (e.g. America/Chicago); default UTC."},
    )

    @validates("timezone")
    def _timezone(self, value: str, **_: Any) -> None:
        if not is_known_zone(value):
            raise ValidationError("Send an IANA time zone name such as Europe/Paris.")

    @validates("currency")
    def _currency(self, value: str | None, **_: Any) -> None:
        if value is None:  # a club night takes the club's currency
            return
        try:
            minor_digits(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


class SeenTableSchema(Schema):
    """``seen``: the table a phone entered a hand against: the seating in seat order and the
    stake (minor units) it showed. When the night's differ as the hand is stored, the hand is
    refused with 409 ``table_changed`` instead of being paid to others or at another stake."""

    class Meta:
        unknown = RAISE

    players = fields.List(fields.String(validate=validate.Length(min=1, max=80)), required=True,
                          validate=validate.Length(min=1, max=64))
    stake = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=1_000_000_000))


class HandCreateSchema(Schema):
    """``POST /api/v1/sessions/{id}/hands``: one §8.1 entry without players, stake or rules,
    optionally with the ``seen`` table it was entered against."""

    class Meta:
        unknown = RAISE

    seen = fields.Nested(SeenTableSchema, load_default=None, allow_none=True, metadata={
        "description": "The seating and stake (minor units) this phone showed when the hand was "
                       "entered; 409 table_changed when the night's are other ones now."})

    outcome = fields.Dict(required=True, metadata=OUTCOME_DOC)
    hands = fields.Dict(load_default=dict, metadata=HANDS_DOC)
    side_bets = fields.Dict(load_default=None, allow_none=True, metadata=SIDE_BETS_DOC)
    pool = fields.Raw(load_default=None, allow_none=True, metadata={
        "description": "A pool rummy night (RUMMY13.md §4.9): `{\"rejoined\": [names]}`, the players out of the pool "
                       "who buy in again with this hand (back at the highest staying score + 1; 422 "
                       "`rejoin_not_allowed` when the rules do not allow it). The scores before the hand are the "
                       "night's: never sent."})
    wild_rank = fields.Raw(load_default=None, allow_none=True, metadata={
        "type": "string",
        "description": "13-card rummy (`rummy13` nights) only: the rank of the cut card, whose every card is a wild "
                       "joker this hand (RUMMY13.md §1.4: `A`, `2` … `10`, `J`, `Q`, `K`; null or absent for a hand "
                       "without a cut joker). A rank that is not one is 422 `invalid_card`; other games ignore it."})
    dealer = fields.String(load_default=None, allow_none=True, metadata=NAME_BOUNDS)
    number = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=MAX_NUMBER),
        metadata={"description": "The hand number this phone means to record (409 if taken)."},
    )


VERSION_NEEDED = "Say which version of the hand you are correcting."


class AmendSchema(HandCreateSchema):
    """``POST /api/v1/sessions/{id}/hands/{n}/amend``: an entry plus the ``version`` it corrects
    (a correction keeps the hand's own seating and stake, so it takes no ``seen``)."""

    class Meta:
        unknown = RAISE
        exclude = ("seen",)

    version = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=MAX_NUMBER, error=VERSION_NEEDED),
        error_messages={"required": VERSION_NEEDED, "invalid": VERSION_NEEDED, "null": VERSION_NEEDED},
    )


# braces doubled: marshmallow formats its messages
CODE_NEEDED = "Send the table code as {{\"code\": \"…\"}}."


class JoinSchema(Schema):
    """``POST /api/v1/join``: the 6-character table code (spaces, dashes and case are forgiven)
    and, optionally, the phone's own name."""

    class Meta:
        unknown = EXCLUDE

    code = fields.String(
        required=True, validate=validate.Regexp(r"\s*\S", error=CODE_NEEDED),
        error_messages={"required": CODE_NEEDED, "invalid": CODE_NEEDED, "null": CODE_NEEDED},
    )
    name = fields.String(load_default=None, allow_none=True, metadata={
        "description": "Optional: what this phone is called in the phones list and the history (\"Bo's phone\"), "
                       "cleaned like a player's name, at most 40 characters (422 ``invalid_entry`` naming "
                       "``name`` otherwise). Without it the phone is called by its system and browser "
                       "(\"Android · Chrome\"), or by its ``X-Device`` header."})


class RecoverSchema(Schema):
    """``POST /api/v1/sessions/{id}/recover``: the night's recovery code (from the host's PDF)."""

    class Meta:
        unknown = RAISE

    code = fields.String(
        required=True, validate=validate.Regexp(r"\s*\S", error="Send the recovery code as {{\"code\": \"…\"}}."),
        metadata={"description": "The recovery code shown once when the night started (dashes and case forgiven)."},
    )


class CohostSchema(Schema):
    """``POST /api/v1/sessions/{id}/hosts``: the id of a phone from ``GET …/phones``."""

    class Meta:
        unknown = RAISE

    phone = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_NUMBER),
                           metadata={"description": "A phone's id from GET /sessions/{id}/phones."})


class PaymentSchema(Schema):
    """``POST /api/v1/sessions/{id}/payments``: ``amount`` in minor units; ``confirm`` (JSON
    boolean, default false) records a payment beyond what is owed (else 422 ``overpayment``)."""

    class Meta:
        unknown = RAISE

    payer = fields.String(required=True, data_key="from", metadata=NAME_BOUNDS)
    payee = fields.String(required=True, data_key="to", metadata=NAME_BOUNDS)
    amount = fields.Integer(required=True, strict=True, metadata={"description": "Minor units."} | AMOUNT_BOUNDS)
    confirm = fields.Boolean(
        load_default=False, truthy={True}, falsy={False},
        metadata={"description": "Confirm a payment above what the payer owes (else 422 overpayment)."},
    )


class PreferLineSchema(Schema):
    """One line of a plan shown before (``POST /api/v1/settle``'s ``prefer``)."""

    class Meta:
        unknown = RAISE

    payer = fields.String(required=True, data_key="from", validate=validate.Length(min=1, max=120))
    payee = fields.String(required=True, data_key="to", validate=validate.Length(min=1, max=120))
    amount = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=10**15),
                            metadata={"description": "Minor units."})


class SettleSchema(Schema):
    """``POST /api/v1/settle``: ``balances`` maps players (names that are not blank) to signed
    ints (minor units); at most :data:`~ledger.access.limits.SETTLE_MAX_BALANCES` entries,
    :data:`~ledger.access.limits.SETTLE_MAX_NONZERO` of them non-zero. ``prefer`` (optional, at most as
    many lines as balances may be sent) is a plan shown before: among the plans with the fewest
    transfers the one keeping the most of its lines is answered (:func:`ledger.settlement.plan.settle`);
    each line names two different players of ``balances`` (else 422 naming ``prefer.<i>.from`` or
    ``.to``)."""

    class Meta:
        unknown = RAISE

    balances = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=-(10**15), max=10**15)),
        required=True,
        metadata={"maxProperties": SETTLE_MAX_BALANCES,
                  "description": f"Signed balances by player (a name that is not blank), summing to zero; at most "
                                 f"{SETTLE_MAX_NONZERO} non-zero."},
    )

    @validates("balances")
    def _cap(self, value: dict[str, int], **_: Any) -> None:
        if any(not name.strip() for name in value):  # a transfer to or from nobody
            raise ValidationError("A player must be named by a non-empty text.")
        if len(value) > SETTLE_MAX_BALANCES:
            raise ValidationError(
                f"Send at most {SETTLE_MAX_BALANCES} balances at once; {len(value)} were sent."
            )
        nonzero = sum(1 for amount in value.values() if amount)
        if nonzero > SETTLE_MAX_NONZERO:
            raise ValidationError(
                f"Settle at most {SETTLE_MAX_NONZERO} non-zero balances at once; {nonzero} were sent."
            )

    prefer = fields.List(fields.Nested(PreferLineSchema), load_default=list,
                         validate=validate.Length(max=SETTLE_MAX_BALANCES), metadata={
                             "description": "Optional: the plan shown before (`from`, `to`, `amount`); among the plans "
                                            "with the fewest transfers, the one keeping the most of its lines."})

    @validates_schema
    def _prefer_names(self, data: dict[str, Any], **_: Any) -> None:
        balances = data.get("balances", {})
        for index, line in enumerate(data.get("prefer", [])):
            for key, name in (("from", line["payer"]), ("to", line["payee"])):
                if name not in balances:
                    raise ValidationError({"prefer": {index: {key: [f"{name} is not one of the balances sent."]}}})
            if line["payer"] == line["payee"]:
                raise ValidationError({"prefer": {index: {"to": ["A line needs two different players."]}}})


class ExportQuerySchema(Schema):
    """``GET /api/v1/sessions/{id}/export.csv?table=…``."""

    class Meta:
        unknown = EXCLUDE

    table = fields.String(load_default="hands", validate=validate.OneOf(CSV_TABLES))


SCORE_GAMES = ("tonk", "tongits", "rummy13")
TONGITS_KINDS = ("tongits", "draw", "stock_out", "redeal", "close_pot")
RUMMY13_KINDS = ("show", "last_player", "wrong_show", "void")
SCORE_OUTCOME_DOC = OUTCOME_DOC | {
    "description": "How the hand ended: `kind` plus that kind's fields (RULES.md §8.1; with `\"game\": "
                   "\"tongits\"`, TONGITS.md §8.1: `tongits` with `winner`, `draw` with `caller` and `responses`, "
                   "`stock_out` with `last_drawer`, `redeal`, `close_pot` with `reason`; with `\"game\": "
                   "\"rummy13\"`, RUMMY13.md §8.1: `show` with `winner` and optional `first_turn_show`, "
                   "`last_player` with `winner`, `wrong_show` with `shower`, `void`).",
    "properties": OUTCOME_DOC["properties"] | {
        "kind": {"type": "string", "enum": list(dict.fromkeys([*OUTCOME_DOC["properties"]["kind"]["enum"],
                                                               *TONGITS_KINDS, *RUMMY13_KINDS]))},
        "shower": {"type": "string"},
        "first_turn_show": {"type": "boolean"},
        "caller": {"type": "string"},
        "responses": {"type": "object", "additionalProperties": {"type": "string",
                                                                 "enum": ["fight", "fold", "auto_fold"]}},
        "caller_locked": {"type": "boolean"},
        "last_drawer": {"type": "string"},
        "reason": {"type": "string", "enum": ["end_of_night", "seat_change"]},
    },
}


class ScoreEntrySchema(Schema):
    """``POST /api/v1/score``: one RULES.md §8.1 entry, or with ``"game": "tongits"`` one TONGITS.md
    §8.1 entry. Documentation only: the game's engine (``ledger.games.tonk.entry.parse_entry``,
    ``ledger.games.tongits.validation.read_entry``) checks it so that each refusal keeps its §9.1
    code."""

    game = fields.String(allow_none=True, validate=validate.OneOf(SCORE_GAMES), metadata={
        "description": "The game: absent or null = `tonk` (a RULES.md §8.1 entry); `tongits` = a TONGITS.md §8.1 "
                       "entry (with `pot`, `dealer`, its outcomes and hands), answered with its §8.2 result; "
                       "`rummy13` = a RUMMY13.md §8.1 hand entry (§8.2 result) or §8.4 pool settlement entry "
                       "(with `entry_fee` and `pool_settlement`, no `stake` or `outcome`). Any other value is 400 "
                       "`invalid_game`."})
    ruleset = fields.Dict(metadata=RULESET_DOC)
    players = fields.List(fields.String(), required=True)
    stake = fields.Integer(metadata={"description": "Stake S in minor units (the point rate r in 13-card rummy); "
                                                    "required except in a rummy13 pool settlement entry."} | STAKE_BOUNDS)
    outcome = fields.Dict(metadata=SCORE_OUTCOME_DOC | {
        "description": SCORE_OUTCOME_DOC["description"] + " Required except in a rummy13 pool settlement entry."})
    wild_rank = fields.String(allow_none=True, metadata={
        "description": "rummy13 only: the cut joker's rank (`A`, `2` … `10`, `J`, `Q`, `K`) or null (RUMMY13.md §1.4)."})
    pool = fields.Dict(metadata={
        "description": "rummy13 pool format only (RUMMY13.md §4.9): `scores_before` (every player's running "
                       "score) and optional `rejoined` (names)."})
    entry_fee = fields.Integer(metadata={"description": "rummy13 pool settlement only: the entry fee E in minor units."})
    pool_settlement = fields.Dict(metadata={
        "description": "rummy13 only (RUMMY13.md §8.4): `buy_ins`, `final_scores` and `end` "
                       "(`{kind: winner, winner}` or `{kind: split, method: equal | by_drops}`)."})
    pot = fields.Dict(allow_none=True, metadata={
        "description": "Tong-its only: the pot before the deal (TONGITS.md §4.8), `balance` (minor units), "
                       "`holder` (a seated name or null) and `streak`.",
        "properties": {"balance": {"type": "integer", "minimum": 0}, "holder": {"type": ["string", "null"]},
                       "streak": {"type": "integer", "minimum": 0}}})
    hands = fields.Dict(metadata=HANDS_DOC)
    side_bets = fields.Dict(allow_none=True, metadata=SIDE_BETS_DOC)
    dealer = fields.String()
    id = fields.String(metadata={"description": "Ignored, like `expected` and `explain` (vector files)."})
    expected = fields.Raw(metadata={"description": "Ignored."})
    explain = fields.Raw(metadata={"description": "Ignored."})
