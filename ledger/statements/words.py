"""The sentences statements print about settle-up lines, each one whole sentence with named
placeholders (English)."""
from __future__ import annotations

from ledger.report import PlanLine
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
