"""The sentences statements print about settle-up lines, stakes and players who left: each one
whole sentence with named placeholders, an English template marked for the catalogue (``N_``)
and put into the reader's words where it is used (``_(PAYS, payer=…)`` as plain text,
:func:`ledger.statements.marked.sentence` as markup)."""
from __future__ import annotations

from ledger.i18n import N_, _, ngettext
from ledger.i18n.sentences import names_text
from ledger.report import PlanLine, SessionReport
from ledger.statements.look import Money

PAYS = N_("{payer} pays {payee} {amount}")
YOU_PAY = N_("You pay {payee} {amount}")
PAYS_YOU = N_("{payer} pays you {amount}")
PAID = N_("{payer} paid {payee} {amount}")
YOU_PAID = N_("You paid {payee} {amount}")
PAID_YOU = N_("{payer} paid you {amount}")
WHY_PAIR = N_("Why: {payer} lost {hands}, which {payee} won.")
WHY_PAIR_YOU = N_("Why: you lost {hands}, which {payee} won.")
WHY_PAIR_TO_YOU = N_("Why: {payer} lost {hands}, which you won.")
WHY_LOST = N_("Why: {payer} lost {hands}.")
WHY_LOST_YOU = N_("Why: you lost {hands}.")
HAND = N_("hand {number} ({amount})")


def hand_list(line: PlanLine, money: Money) -> str:
    """"hand 4 (-$1.00), hand 9 (-$0.50) and 3 more" (the reason hands of ``line``), joined
    as the current language joins a list; "{count} more" by its plural rule."""
    items = [_(HAND, number=h.number, amount=money(h.amount_minor)) for h in line.why]
    if line.why_more:
        items.append(ngettext("{count} more", "{count} more", line.why_more))
    return names_text(items)


def why_sentence(line: PlanLine, money: Money, you: str | None = None) -> str:
    """Why ``line`` exists: the hands that built the payer's debt. ``you`` names the reader
    (on their own statement) so the sentence speaks to them."""
    if not line.why:
        return ""
    hands = hand_list(line, money)
    if line.pairwise:
        if you == line.payer:
            return _(WHY_PAIR_YOU, hands=hands, payee=line.payee)
        if you == line.payee:
            return _(WHY_PAIR_TO_YOU, payer=line.payer, hands=hands)
        return _(WHY_PAIR, payer=line.payer, hands=hands, payee=line.payee)
    if you == line.payer:
        return _(WHY_LOST_YOU, hands=hands)
    return _(WHY_LOST, payer=line.payer, hands=hands)


STAKE_FROM = N_("{stake} from hand {number}")
NET_AS_OF = N_("Net as of hand {number}")
LEFT_AFTER = N_("Left after hand {number}; balance as of hand {number}")
LEFT_UNPLAYED = N_("Left before playing a hand")
PLAYER_LEFT = N_("{player} (left after hand {number})")


def stake_text(report: SessionReport, money: Money) -> str:
    """"$0.25; $0.50 from hand 15": the stake and where it changed (the plain stake when it
    never did)."""
    if len(report.stakes) < 2:
        return money(report.stakes[0][1] if report.stakes else report.stake_minor)
    first, *later = report.stakes
    return "; ".join([money(first[1])] + [_(STAKE_FROM, stake=money(stake), number=n) for n, stake in later])


def left_text(report: SessionReport, player: str) -> str | None:
    """"Left after hand 20; balance as of hand 20" for a player who left, else None."""
    if player not in report.left:
        return None
    number = report.left[player]
    return _(LEFT_UNPLAYED) if number is None else _(LEFT_AFTER, number=number)


def seat_name(report: SessionReport, player: str) -> str:
    """The player's name in the summary's list of players ("Rosa (left after hand 20)")."""
    number = report.left.get(player)
    return _(PLAYER_LEFT, player=player, number=number) if number is not None else player
