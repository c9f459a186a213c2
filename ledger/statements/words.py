"""The sentences statements print about settle-up lines, stakes and players who left: each one
whole sentence with named placeholders, an English template marked for the catalogue (``N_``)
and put into the reader's words where it is used (``_(PAYS, payer=…)`` as plain text,
:func:`ledger.statements.marked.sentence` as markup). The settle page says the "why" of
each line with :func:`why_sentence` too; nothing here needs reportlab."""
from __future__ import annotations

from collections.abc import Callable

from ledger.i18n import N_, _, ngettext
from ledger.i18n.sentences import names_text
from ledger.night.report import PlanLine, SessionReport

Money = Callable[[int], str]  # an amount in minor units as the reader reads it (``look.Money``, the page's filter)

PAYS = N_("{payer} pays {payee} {amount}")
YOU_PAY = N_("You pay {payee} {amount}")
PAYS_YOU = N_("{payer} pays you {amount}")
PAID = N_("{payer} paid {payee} {amount}")
#: a plan line to the pot of a game that keeps one (TONGITS.md §4.8: the payee is ``"pot"``)
PAYS_POT = N_("{payer} puts {amount} into the pot")
YOU_PAY_POT = N_("You put {amount} into the pot")
YOU_PAID = N_("You paid {payee} {amount}")
PAID_YOU = N_("{payer} paid you {amount}")
WHY_LOST = N_("Why: {payer} lost {hands}.")
WHY_LOST_YOU = N_("Why: you lost {hands}.")
WHY_OVERPAID = N_("Why: {payer} was paid {amount} more than they were owed.")
WHY_OVERPAID_YOU = N_("Why: you were paid {amount} more than you were owed.")
ALSO_OVERPAID = N_("{payer} was also paid {amount} more than they were owed.")
ALSO_OVERPAID_YOU = N_("You were also paid {amount} more than you were owed.")
HAND = N_("hand {number} ({amount})")
HAND_PART = N_("{amount} of hand {number}’s {lost}")


def hand_list(line: PlanLine, money: Money) -> str:
    """"hand 4 (-$1.00), $0.50 of hand 9's $1.00 and 3 more hands (-$1.25)" (the reason hands
    of ``line``, a hand used in part saying so), joined as the current language joins a list;
    "{count} more hands ({amount})" by its plural rule."""
    items = [_(HAND_PART, amount=money(-h.amount_minor), number=h.number, lost=money(-h.lost_minor)) if h.partial
             else _(HAND, number=h.number, amount=money(h.amount_minor)) for h in line.why]
    if line.why_more:
        items.append(ngettext("{count} more hand ({amount})", "{count} more hands ({amount})", line.why_more,
                              amount=money(line.why_more_minor)))
    return names_text(items)


def why_sentence(line: PlanLine, money: Money, you: str | None = None) -> str:
    """Why ``line`` exists: the payer's losses that make up exactly its amount
    (:mod:`ledger.settlement.allocation`), hand by hand, and money paid to the payer beyond what they were
    owed. ``you`` names the reader (on their own statement) so the sentence speaks to them."""
    mine = you is not None and you == line.payer
    sentences = []
    if line.why:
        hands = hand_list(line, money)
        sentences.append(_(WHY_LOST_YOU, hands=hands) if mine else _(WHY_LOST, payer=line.payer, hands=hands))
    if line.overpaid_minor:
        amount = money(line.overpaid_minor)
        if line.why:
            sentences.append(_(ALSO_OVERPAID_YOU, amount=amount) if mine
                             else _(ALSO_OVERPAID, payer=line.payer, amount=amount))
        else:
            sentences.append(_(WHY_OVERPAID_YOU, amount=amount) if mine
                             else _(WHY_OVERPAID, payer=line.payer, amount=amount))
    return " ".join(sentences)


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
