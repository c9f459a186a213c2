"""A report is checked once before any statement of it is drawn."""
from __future__ import annotations

from ledger.night.report import HandLine, SessionReport


def _require_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an int in minor units, got {value!r}")
    return value


def check(report: SessionReport) -> list[HandLine]:
    """Check ``report`` is a coherent statement; return its counted hands in order.

    Raises ``ValueError``: duplicate player names, a money value that is not an ``int``, a
    hand amount for an unseated player, ``net_minor`` not matching the counted hands, or
    payments plus settlement that do not clear ``net_minor`` (with a pot, TONGITS.md §4.8: the
    players' nets plus the pot's balance, and each hand's pot net summing to that balance).
    """
    players = report.players
    if len(set(players)) != len(players):
        raise ValueError(f"player names must be unique, got {players!r}")
    seated = set(players)
    _require_int(report.stake_minor, "stake_minor")

    counted: list[HandLine] = []
    totals = dict.fromkeys(players, 0)
    for hand in report.hands:
        _require_int(hand.number, "hand number")
        unknown = set(hand.amounts_minor) - seated
        if unknown:
            raise ValueError(f"hand {hand.number} has amounts for unseated {sorted(unknown)!r}")
        for player, amount in hand.amounts_minor.items():
            _require_int(amount, f"hand {hand.number} amount for {player!r}")
        if not hand.voided:
            counted.append(hand)
            for player, amount in hand.amounts_minor.items():
                totals[player] += amount

    if set(report.net_minor) != seated:
        raise ValueError("net_minor must hold exactly one entry per seated player")
    for player in players:
        net = _require_int(report.net_minor[player], f"net_minor[{player!r}]")
        if net != totals[player]:
            raise ValueError(
                f"net_minor[{player!r}] = {net} disagrees with the counted hands ({totals[player]})"
            )

    # what the payments and the plan clear: the nets, or nothing for a night voided as a whole
    # (its plan hands back what was paid at it, ledger.night.payments.owed_balances)
    left = dict.fromkeys(report.net_minor, 0) if report.night_voided else dict(report.net_minor)
    parties = set(seated)
    if report.pot is not None:
        pot = _require_int(report.pot.balance_minor, "pot balance")
        if sum(h.pot_minor or 0 for h in counted) != pot:
            raise ValueError(f"the pot's balance {pot} disagrees with the counted hands")
        if sum(report.net_minor.values()) + pot != 0:
            raise ValueError("the players' nets and the pot do not sum to zero")
        left["pot"] = 0 if report.night_voided else pot
        parties.add("pot")
    for payment in report.payments:
        if payment.payer not in seated or payment.payee not in seated:
            raise ValueError(f"payment names an unseated player: {payment!r}")
        _require_int(payment.amount_minor, "payment amount")
        left[payment.payer] += payment.amount_minor
        left[payment.payee] -= payment.amount_minor
    for transfer in report.settlement:
        if transfer.payer not in parties or transfer.payee not in parties:
            raise ValueError(f"settlement names an unseated player: {transfer!r}")
        _require_int(transfer.amount_minor, "transfer amount")
        left[transfer.payer] += transfer.amount_minor
        left[transfer.payee] -= transfer.amount_minor
    if any(left.values()):
        raise ValueError("payments and settlement do not clear net_minor")
    return counted
