"""Tong-its payouts (TONGITS.md §4.8, §4.9, §5): each loser's pay(L) = base + burn + bonus(W) +
streak(W), the loser's secret, the antes, the take, the close's split; gross payments in minor
units, before the netting of §8.3.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.games.tongits.entry import PLAYED_KINDS, POT, Entry, PotState
from ledger.games.tongits.ruleset import TongitsRules, money
from ledger.games.tongits.showdown import decide


@dataclass(frozen=True, slots=True)
class Payment:
    """One gross payment of ``amount_minor`` (> 0) from ``payer`` to ``payee`` (a player or
    ``"pot"``)."""

    payer: str
    payee: str
    amount_minor: int


@dataclass(frozen=True, slots=True)
class PotMove:
    """The pot part of a result (§8.2 ``pot``): minor units, and the state after the hand."""

    balance_before: int
    antes: int
    taken_by: str | None
    taken: int
    split: int
    holder: str | None
    streak: int

    @property
    def balance_after(self) -> int:
        return self.balance_before + self.antes - self.taken - self.split

    @property
    def state(self) -> PotState:
        """The next hand's ``pot`` input."""
        return PotState(self.balance_after, self.holder, self.streak)

    def to_json(self) -> dict[str, Any]:
        return {
            "balance_before": self.balance_before, "antes": self.antes, "taken_by": self.taken_by,
            "taken": self.taken, "split": self.split, "balance_after": self.balance_after,
            "holder": self.holder, "streak": self.streak,
        }


@dataclass(frozen=True, slots=True)
class Payout:
    """Everything one entry pays: the gross ``payments``, the ``winner`` (or ``None``), the
    ``pot`` move, and ``detail`` (facts for describing the hand: ``burned``, ``contested``,
    ``points``, ``units`` each loser paid...)."""

    payments: tuple[Payment, ...]
    winner: str | None
    pot: PotMove
    detail: dict[str, Any] = field(default_factory=dict)


def pay(rules: TongitsRules, entry: Entry) -> Payout:
    """The payout of a checked entry (§4, §5)."""
    kind = entry.outcome.kind
    if kind == "redeal":
        pot = entry.pot
        return Payout((), None, PotMove(pot.balance, 0, None, 0, 0, pot.holder, pot.streak))
    if kind == "close_pot":
        return _close(rules, entry)
    assert kind in PLAYED_KINDS
    decision = decide(entry)
    payments: list[Payment] = []
    detail: dict[str, Any] = {"contested": decision.contested}
    winner = decision.winner
    if winner is not None:
        payments += _winner_payments(rules, entry, winner, decision.showdown, decision.contested, detail)
    payments += _antes_and_take(rules, entry, winner, detail)
    return Payout(tuple(payments), winner, detail.pop("pot"), detail)


def _winner_payments(rules: TongitsRules, entry: Entry, winner: str, showdown: tuple[str, ...],
                     contested: bool, detail: dict[str, Any]) -> list[Payment]:
    kind = entry.outcome.kind
    bonus = _bonus(rules, entry, winner)
    streak = _streak(rules, entry, winner)
    winner_points = entry.points_of(winner)
    burned: list[str] = []
    units: dict[str, int] = {}
    payments: list[Payment] = []
    for loser in entry.players:
        if loser == winner:
            continue
        is_burned = not entry.opened[loser]
        if kind == "tongits":
            base, burn = rules.tongits_base, rules.burn_extra
        elif kind == "stock_out":
            base, burn = rules.stock_out_base, rules.burn_extra
        elif not contested:
            base, burn = rules.draw_uncontested_base, rules.burn_extra_draw
        elif loser in showdown:  # a losing caller or fighter: never burned
            base, burn, is_burned = rules.draw_fought_base + _fight_points(rules, entry, loser, winner_points), 0, False
        else:
            base, burn = rules.draw_folded_base, rules.burn_extra_draw
        if is_burned:
            burned.append(loser)
        owed = base + (burn if is_burned else 0) + bonus + streak
        units[loser] = owed
        amount = money(rules, owed, entry.stake)
        if amount > 0:
            payments.append(Payment(loser, winner, amount))
        secret_units = rules.loser_secret_bonus * entry.hand(loser).secrets
        secret_amount = money(rules, secret_units, entry.stake)
        if secret_amount > 0:
            payments.append(Payment(winner, loser, secret_amount))
    detail.update(burned=tuple(burned), units=units, bonus=bonus, streak_bonus=streak)
    return payments


def _fight_points(rules: TongitsRules, entry: Entry, loser: str, winner_points: int | None) -> int:
    """§5.2 fight points of a losing caller or fighter of a challenged draw."""
    if rules.fighter_points == "none":
        return 0
    own = entry.points_of(loser)
    assert own is not None and winner_points is not None
    if rules.fighter_points == "difference":
        return rules.fighter_point_value * (own - winner_points)
    return rules.fighter_point_value * own


def bonus_counts(rules: TongitsRules, entry: Entry, winner: str) -> dict[str, int]:
    """A, K, S, E of the winner (§5.3): computed from the cards when the entry gave both
    ``cards`` and ``melds`` (checked equal to any declared count), else declared (absent 0)."""
    hand = entry.hand(winner)
    return {"aces": hand.aces or 0, "kings": hand.kings or 0, "secrets": hand.secrets,
            "escaleras": hand.escaleras or 0}


def _bonus(rules: TongitsRules, entry: Entry, winner: str) -> int:
    if entry.outcome.kind == "tongits" and not rules.bonuses_on_tongits:
        return 0
    n = bonus_counts(rules, entry, winner)
    return (rules.ace_bonus * n["aces"] + rules.king_bonus * n["kings"] + rules.secret_bonus * n["secrets"]
            + rules.escalera_bonus * n["escaleras"])


def _streak(rules: TongitsRules, entry: Entry, winner: str) -> int:
    """§5.4: the holder's next win pays ``streak_bonus + streak_bonus_step × (s − 1)``."""
    pot = entry.pot
    if pot.holder == winner and pot.streak >= 1:
        return rules.streak_bonus + rules.streak_bonus_step * (pot.streak - 1)
    return 0


def _antes_and_take(rules: TongitsRules, entry: Entry, winner: str | None, detail: dict[str, Any]) -> list[Payment]:
    """§4.8: every seated player antes; the streak moves; a take empties the pot to W."""
    pot = entry.pot
    ante_units = rules.pot_opening_ante if pot.balance == 0 else rules.pot_ante
    ante = money(rules, ante_units, entry.stake)
    payments = [Payment(p, POT, ante) for p in entry.players if ante > 0]
    antes = ante * len(entry.players)
    holder, streak = pot.holder, pot.streak
    if winner is not None:
        holder, streak = winner, (streak + 1 if pot.holder == winner else 1)
    taken_by, taken = None, 0
    whole = pot.balance + antes
    if winner is not None and whole > 0:
        n = rules.pot_take_streak
        takes = streak >= n if rules.pot_after_take == "keep" else streak % n == 0
        if takes:
            taken_by, taken = winner, whole
            payments.append(Payment(POT, winner, whole))
    detail["pot"] = PotMove(pot.balance, antes, taken_by, taken, 0, holder, streak)
    return payments


def _close(rules: TongitsRules, entry: Entry) -> Payout:
    """§4.9: split (⌊B / n⌋ each, one more to the first B mod n seats) or carry/keep; the
    streak is cleared either way."""
    reason = entry.outcome.reason
    rule = rules.pot_at_end if reason == "end_of_night" else rules.pot_on_seat_change
    balance = entry.pot.balance
    payments: list[Payment] = []
    split = 0
    if rule == "split" and balance > 0:
        share, extra = divmod(balance, len(entry.players))
        for index, player in enumerate(entry.players):
            amount = share + (1 if index < extra else 0)
            if amount > 0:
                payments.append(Payment(POT, player, amount))
        split = balance
    return Payout(tuple(payments), None, PotMove(balance, 0, None, 0, split, None, 0), {"rule": rule})
