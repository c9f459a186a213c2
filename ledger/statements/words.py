"""The sentences statements print about settle-up lines, each one whole sentence with named
placeholders (English)."""
from __future__ import annotations

from ledger.report import PlanLine, SessionReport
from ledger.statements.look import Money

PAYS = "{payer} pays {payee} {amount}"
YOU_PAY = "You pay {payee} {amount}"
PAYS_YOU = "{payer} pays you {amount}"
PAID = "{payer} paid {payee} {amount}"
YOU_PAID = "You paid {payee} {amount}"
PAID_YOU = "{payer} paid you {amount}"
WHY_PAIR = "Why: {payer} lost {hands}, which {payee} won."
WHY_PAIR_YOU = "Why: you lost {hands}, which {payee} won."
WHY_PAIR_TO_YOU = "Why: {payer} lost {hands}, which you won."
WHY_LOST = "Why: {payer} lost {hands}."
WHY_LOST_YOU = "Why: you lost {hands}."
HAND = "hand {number} ({amount})"
MORE = "{count} more"


def hand_list(line: PlanLine, money: Money) -> str:
    """"hand 4 (-$1.00), hand 9 (-$0.50) and 3 more" (the reason hands of ``line``)."""
    items = [HAND.format(number=h.number, amount=money(h.amount_minor)) for h in line.why]
    if line.why_more:
        items.append(MORE.format(count=line.why_more))
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def why_sentence(line: PlanLine, money: Money, you: str | None = None) -> str:
    """Why ``line`` exists: the hands that built the payer's debt. ``you`` names the reader
    (on their own statement) so the sentence speaks to them."""
    if not line.why:
        return ""
    hands = hand_list(line, money)
    if line.pairwise:
        if you == line.payer:
            return WHY_PAIR_YOU.format(hands=hands, payee=line.payee)
        if you == line.payee:
            return WHY_PAIR_TO_YOU.format(payer=line.payer, hands=hands)
        return WHY_PAIR.format(payer=line.payer, hands=hands, payee=line.payee)
    if you == line.payer:
        return WHY_LOST_YOU.format(hands=hands)
    return WHY_LOST.format(payer=line.payer, hands=hands)


STAKE_FROM = "{stake} from hand {number}"
NET_AS_OF = "Net as of hand {number}"
LEFT_AFTER = "Left after hand {number}; balance as of hand {number}"
LEFT_UNPLAYED = "Left before playing a hand"
PLAYER_LEFT = "{player} (left after hand {number})"


def stake_text(report: SessionReport, money: Money) -> str:
    """"$0.25; $0.50 from hand 15": the stake and where it changed (the plain stake when it
    never did)."""
    if len(report.stakes) < 2:
        return money(report.stakes[0][1] if report.stakes else report.stake_minor)
    first, *later = report.stakes
    return "; ".join([money(first[1])] + [STAKE_FROM.format(stake=money(stake), number=n) for n, stake in later])


def left_text(report: SessionReport, player: str) -> str | None:
    """"Left after hand 20; balance as of hand 20" for a player who left, else None."""
    if player not in report.left:
        return None
    number = report.left[player]
    return LEFT_UNPLAYED if number is None else LEFT_AFTER.format(number=number)


def seat_name(report: SessionReport, player: str) -> str:
    """The player's name in the summary's list of players ("Rosa (left after hand 20)")."""
    number = report.left.get(player)
    return PLAYER_LEFT.format(player=player, number=number) if number is not None else player
