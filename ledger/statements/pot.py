"""The pot's lines in a night's statements (TONGITS.md §4.8–4.9), for a game that keeps one.

:func:`pot_story` gives the summary's "Pot" section: what the antes paid in, what winners took
out (how many takes), the close (the balance it closed and each player's share of a split, or
the balance carried to the group's next night, which the players' nets do not settle), who
holds the pot while the night is open, and the identity the table can check: the players' nets
plus the pot make zero. :func:`statement_pot` gives one player's lines: the pot they took, and
their share of each split. Every line is one whole catalogue sentence with named placeholders,
in the current language (:mod:`ledger.i18n`); amounts are minor units, shown by ``money``.
A report without a pot (Tonk) gets no lines.
"""
from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable

from ledger.i18n import N_, _, ngettext
from ledger.night.report import SessionReport
from ledger.statements.look import Money, Styles, para, text
from ledger.statements.fonts import markup

#: the key of the pot's column in the hand table (no player's name: names hold no control character)
POT_COLUMN = "\x00pot"

PAID_IN = N_("The antes paid {amount} into the pot.")
CLOSE_SPLIT = N_("At the close the pot held {amount} and was split among the players.")
SHARE = N_("{player} received {amount} from the pot")
CLOSE_CARRY = N_("At the close the pot held {amount}; it is carried to the group\u2019s next night, "
                 "and the players\u2019 nets do not settle it.")
CLOSE_EMPTY = N_("The pot was empty at the close.")
OPEN = N_("The pot holds {amount} while the night is open.")
SEAT_CHANGE = N_("{player} received {amount} from the pot when it was split at a seat change")
IDENTITY = N_("The players\u2019 nets add up to {players} and the pot holds {pot}: together, zero.")
YOUR_SHARE = N_("You received {amount} from the pot when it was split at the close.")
YOUR_SEAT_CHANGE_SHARE = N_("You received {amount} from the pot when it was split at a seat change.")


def pot_story(report: SessionReport, st: Styles, money: Money) -> list[Flowable]:
    """The summary's pot section (TONGITS.md §4.8–4.9); ``[]`` for a report without a pot."""
    pot = report.pot
    if pot is None:
        return []
    bullet = ParagraphStyle("pot", st.body, leftIndent=12, spaceAfter=1)
    out: list[Flowable] = [text(_("Pot"), st.h2), text(_(PAID_IN, amount=money(pot.antes_minor)), st.body)]
    out.append(text(ngettext("Winners took {amount} out of the pot in {count} take.",
                             "Winners took {amount} out of the pot in {count} takes.", pot.takes,
                             amount=money(pot.taken_minor)), st.body))
    for player, amount in pot.seat_change_shares.items():
        out.append(para(markup(_(SEAT_CHANGE, player=player, amount=money(amount))), bullet, bulletText="\u2022"))
    if pot.closed == "split":
        out.append(text(_(CLOSE_SPLIT, amount=money(pot.closed_minor)), st.body))
        for player in report.players:
            if player in pot.close_shares:
                out.append(para(markup(_(SHARE, player=player, amount=money(pot.close_shares[player]))), bullet,
                                bulletText="\u2022"))
    elif pot.closed == "carry":
        out.append(text(_(CLOSE_CARRY, amount=money(pot.closed_minor)), st.body))
    elif pot.night_closed:
        out.append(text(_(CLOSE_EMPTY), st.body))
    else:
        out.append(text(_(OPEN, amount=money(pot.balance_minor)), st.body))
        if pot.holder is not None and pot.streak:
            out.append(text(ngettext("{holder} has won {count} hand in a row.",
                                     "{holder} has won {count} hands in a row.", pot.streak, holder=pot.holder),
                            st.body))
    players = sum(report.net_minor.values())
    out.append(text(_(IDENTITY, players=money(players), pot=money(pot.balance_minor)), st.small))
    return out


def statement_pot(report: SessionReport, player: str, st: Styles, money: Money) -> list[Flowable]:
    """One player's pot lines (what they took from the pot, their share of each split);
    ``[]`` for a report without a pot or a player it did not touch."""
    pot = report.pot
    if pot is None:
        return []
    lines: list[str] = []
    count, amount = pot.taken_by.get(player, (0, 0))
    if count:
        lines.append(ngettext("You took the pot {count} time, {amount} in all.",
                              "You took the pot {count} times, {amount} in all.", count, amount=money(amount)))
    if player in pot.seat_change_shares:
        lines.append(_(YOUR_SEAT_CHANGE_SHARE, amount=money(pot.seat_change_shares[player])))
    if player in pot.close_shares:
        lines.append(_(YOUR_SHARE, amount=money(pot.close_shares[player])))
    if not lines:
        return []
    return [text(_("Pot"), st.h2), *(text(line, st.body) for line in lines)]
