"""The night's story beside its hands, as the PDFs print it (issue 23): who sat in and who left
(with the cash-out, paid on leaving or at the end), stake changes, seat swaps, renames, and
each correction, void and restore of a hand already played, oldest first.

Each line is one whole sentence with named placeholders in the reader's language; a correction
lists what it changed as whole clauses ("Rosa's total from 7 to 47; Rosa from -$0.25 to -$1.25"), the way a
leave lists its payments. The figures come from :class:`~ledger.night.report.StoryLine` (names
of then, ``int`` minor units); nothing here needs reportlab but :func:`story_flowables`.
"""
from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether

from ledger.money import is_points
from ledger.i18n import N_, _, ngettext, pgettext
from ledger.night.report import SessionReport, StoryLine
from ledger.statements.look import Money, Styles, text
from ledger.statements.words import PAYS

# one value a correction changed: "Rosa's total from 7 to 47" (the PDF fonts have no arrow; the log says "7 → 47")
CHANGED = N_("{what} from {before} to {after}")
HEADING = N_("What else happened")


def story_sentence(line: StoryLine, money: Money) -> str:
    """``line`` as one sentence in the current language (an unknown code: the code itself)."""
    p = line.params
    code = line.code
    if code == "player_sat_in":
        if p.get("returning"):
            return _("{name} sat in again from hand {hand}", name=p["name"], hand=p.get("from_hand"))
        return _("{name} sat in from hand {hand}", name=p["name"], hand=p.get("from_hand"))
    if code == "player_left":
        return _left(p, money)
    if code == "stake_changed":
        return _("Stake {new} from hand {hand} (was {old})", new=money(p["new_minor"]), hand=p.get("from_hand"),
                 old=money(p["old_minor"]))
    if code == "seats_swapped":
        numbers = [n for n in p.get("hands") or [] if n is not None]
        if not numbers:
            return _("{a} and {b} swapped seats from hand {hand}", a=p["a"], b=p["b"], hand=p.get("from_hand"))
        return ngettext("{a} and {b} swapped seats from hand {hand}; hand {numbers} was re-entered as a new version.",
                        "{a} and {b} swapped seats from hand {hand}; hands {numbers} were re-entered as new versions.",
                        len(numbers), a=p["a"], b=p["b"], hand=p.get("from_hand"),
                        numbers=", ".join(str(n) for n in numbers))
    if code == "player_renamed":
        return _("{old} is now {new}", old=p["old"], new=p["new"])
    if code == "hand_amended":
        clauses = [_(CHANGED, what=what, before=before, after=after) for what, before, after in p.get("changes") or []]
        clauses += [_(CHANGED, what=name, before=money.signed(old),
                      after=money.signed(new))
                    for name, old, new in p.get("moved") or []]
        if p.get("dealer"):
            clauses.append(_(CHANGED, what=_("Dealer"), before=p["dealer"][0], after=p["dealer"][1]))
        if not clauses:
            return _("Hand {number} corrected; nothing it paid changed.", number=p.get("number"))
        return _("Hand {number} corrected: {changes}", number=p.get("number"),
                 changes=pgettext("between payments", "; ").join(clauses))
    if code == "hand_rescored":
        return _("Hand {number} re-scored because hand {because} changed", number=p.get("number"),
                 because=p.get("because"))
    if code == "hand_voided":
        return _("Hand {number} voided", number=p.get("number"))
    if code == "hand_restored":
        return _("Hand {number} restored", number=p.get("number"))
    return code


def _left(p: dict[str, Any], money: Money) -> str:
    name, hand, balance = p["name"], p.get("as_of_hand"), int(p.get("balance_minor") or 0)
    if hand is None:
        return _("{name} left before playing a hand", name=name)
    signed = money.signed(balance)
    if not balance:
        return _("{name} left after hand {hand}, even", name=name, hand=hand)
    if is_points(money.currency):  # a score sheet: the score stays, nobody settles
        return _("{name} left after hand {hand} with {balance}", name=name, hand=hand, balance=signed)
    transfers = pgettext("between payments", "; ").join(
        _(PAYS, payer=payer, payee=payee, amount=money(amount)) for payer, payee, amount in p.get("transfers") or [])
    if not p.get("paid_now"):
        return _("{name} left after hand {hand} with {balance}, to be settled at the end of the night",
                 name=name, hand=hand, balance=signed)
    if not transfers:
        return _("{name} left after hand {hand} with {balance}", name=name, hand=hand, balance=signed)
    return _("{name} left after hand {hand} with {balance}, paid on leaving: {transfers}", name=name, hand=hand,
             balance=signed, transfers=transfers)


def story_flowables(report: SessionReport, st: Styles, money: Money) -> list[Flowable]:
    """The story as a heading and one bulleted line per event (the heading kept with the first);
    nothing for a night without any."""
    if not report.story:
        return []
    item = ParagraphStyle("story", st.body, leftIndent=12, spaceAfter=1.5)
    lines = [text(story_sentence(line, money), item, bulletText="\u2022") for line in report.story]
    return [KeepTogether([text(_(HEADING), st.h2), lines[0]]), *lines[1:]]  # never a heading alone at a page's foot

