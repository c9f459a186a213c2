"""Player statement: one player's night, checkable in a minute.

The night's header; the player's final net and what is left to settle ("You pay Dee $5.25",
"Rosa pays you $4.00"), each line with the hands that explain it, and the payments already
made; their running balance drawn against the table's; then every hand: number, the outcome
in words, what they paid or received and their running balance, closed by the final net
(which never stands alone at the top of a page). Every word is the current language's
(:mod:`ledger.i18n`).
"""
from __future__ import annotations

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle

from ledger.i18n import _, ngettext, pgettext
from ledger.money import is_points
from ledger.night.report import PlayerStatement, SessionReport, running_minor
from ledger.statements.chart import player_chart
from ledger.statements.fonts import BODY, BOLD, markup, runs, text_width
from ledger.statements.heading import Heading
from ledger.statements.story import story_flowables
from ledger.statements.look import (
    HEADER_BG, INK, LOSS, REDEAL_BG, RULE, STRIPE, VOID_BG, VOID_INK, Bookmark, Money,
    frame_width, hex_of, para, plain_fits, styles, text, when,
)
from ledger.statements import words
from ledger.statements.pot import statement_pot
from ledger.statements.words import why_sentence

PAGE = A4
TABLE_SIZE = 8.0


def statement_story(report: SessionReport, statement: PlayerStatement, locale: str, *,
                    series: dict[str, list[tuple[int, int]]] | None = None) -> list[Flowable]:
    """The flowables of ``statement`` (starting with its bookmark)."""
    money = Money(report.currency, locale)
    st = styles(TABLE_SIZE)
    width = frame_width(PAGE)
    player = statement.player
    out: list[Flowable] = [
        Bookmark(f"seat-{statement.seat}", f"{statement.seat}. {player}"),
        text(player, st.title),
        text(_("Player statement \u00b7 {night}", night=report.name), st.subtitle),
        Spacer(1, 3 * mm),
        _facts(report, statement, st, money, locale, width),
    ]
    if not is_points(report.currency):  # a night kept in points settles nothing (issue 25)
        out += _settle(statement, st, money, report.pot is not None)
    for _kind, handle in report.handles_shown.get(player, ()):  # only when the player ticked it (issue 22)
        out.append(para(markup(_("Pay {name}: {handle}", name=player, handle=handle)), st.body))
    out += statement_pot(report, player, st, money)
    if any(not h.voided for h in statement.hands):
        out.append(CondPageBreak(75 * mm))
        out.append(text(_("Your running balance"), st.h2))
        out.append(player_chart(report.players, series or running_minor(report), player, money, width))
    out.append(CondPageBreak(40 * mm))
    out.append(text(_("Your hands"), st.h2))
    if statement.hands:
        # the note goes above the table: below it, it could be left alone on a page of its own
        out.append(text(_("Amounts are what you received (+) or paid (-) in the hand; struck-through"
                          " {void} hands are shown for the record and do not count.",
                          void=pgettext("hand tag", "VOID")), st.small))
        out.append(Spacer(1, 3))
        out.append(_hands(statement, st, money, width))
    else:
        out.append(text(_("No hands recorded."), st.body))
    out += story_flowables(report, st, money)
    return out


def _facts(report: SessionReport, statement: PlayerStatement, st, money: Money, locale: str,  # type: ignore[no-untyped-def]
           width: float) -> Table:
    counted = sum(1 for h in statement.hands if not h.voided and not h.not_a_hand)
    rows = [
        (_("Night"), markup(report.name)),
        (_("Date"), markup(when(report.created_at, locale, report.timezone))),
        (_("Seat"), markup(_("{seat} of {seats}", seat=statement.seat, seats=len(report.players)))),
        (_("Stake"), markup(words.stake_text(report, money))),
        (_("Hands"), markup(ngettext("{count} counted hand", "{count} counted hands", counted))),
        (_("Final net"), money.cell(statement.net_minor, bold=True)),
    ]
    left = words.left_text(report, statement.player)
    if left is not None:  # a player who left: no seat now, a balance as of their last hand
        rows[2] = (_("Left"), markup(left))
        number = report.left[statement.player]
        label = _(words.NET_AS_OF, number=number) if number is not None else _("Final net")
        rows[5] = (label, money.cell(statement.net_minor, bold=True))
    if report.night_voided:
        rows.append((_("Status"), markup(_("Void: the whole night is kept for the record and counts nowhere."))))
    table = Table([[text(k, st.label), para(v, st.body)] for k, v in rows],
                  colWidths=[28 * mm, width - 28 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return table


def _settle(statement: PlayerStatement, st, money: Money,  # type: ignore[no-untyped-def]
            report_has_pot: bool = False) -> list[Flowable]:
    line_style = ParagraphStyle("line", st.body, leftIndent=12, spaceAfter=0.5)
    why_style = ParagraphStyle("why", st.small, leftIndent=12, spaceAfter=3)
    me = statement.player
    out: list[Flowable] = [text(_("Settle up"), st.h2)]
    for t in statement.paid:
        sentence = _(words.YOU_PAID, payee=t.payee, amount=money(t.amount_minor))
        out.append(para(markup(sentence), line_style, bulletText="\u2022"))
    for t in statement.received:
        sentence = _(words.PAID_YOU, payer=t.payer, amount=money(t.amount_minor))
        out.append(para(markup(sentence), line_style, bulletText="\u2022"))
    left = statement.outstanding_minor
    if statement.carried_into:  # what is left is settled in the club: no plan lines between players
        if left < 0:
            summary = _("The {amount} you still owed was carried into your balance in {club}.",
                        amount=money(-left), club=statement.carried_into)
        elif left > 0:
            summary = _("The {amount} still owed to you was carried into your balance in {club}.",
                        amount=money(left), club=statement.carried_into)
        else:
            summary = _("Nothing left to settle: you are square.")
        out.append(para(markup(summary), st.body))
        return out
    for line in statement.owes:
        if report_has_pot and line.payee == "pot":  # the pot's cash (TONGITS.md §4.8)
            sentence = _(words.YOU_PAY_POT, amount=money(line.amount_minor))
        else:
            sentence = _(words.YOU_PAY, payee=line.payee, amount=money(line.amount_minor))
        out.append(para(f"<b>{markup(sentence)}</b>", line_style, bulletText="\u2022"))
        out.append(para(markup(why_sentence(line, money, me)), why_style))
    for line in statement.owed:
        sentence = _(words.PAYS_YOU, payer=line.payer, amount=money(line.amount_minor))
        out.append(para(f"<b>{markup(sentence)}</b>", line_style, bulletText="\u2022"))
        out.append(para(markup(why_sentence(line, money, me)), why_style))
    if left < 0:
        summary = _("Still to pay: {amount}.", amount=money(-left))
    elif left > 0:
        summary = _("Still owed to you: {amount}.", amount=money(left))
    else:
        summary = _("Nothing left to settle: you are square.")
    out.append(para(markup(summary), st.body))
    return out


def _plain_ok(samples: list[str]) -> bool:
    """Whether amounts can be plain table strings in Noto Sans (no other font needed)."""
    return all(all(r.font == BODY for r in runs(s)) for s in samples)


def _hands(statement: PlayerStatement, st, money: Money, width: float) -> Table:  # type: ignore[no-untyped-def]
    heads = [pgettext("hand number column", "#"), _("Outcome"), _("Paid or received"), _("Running balance")]
    size = TABLE_SIZE
    figures = [money(h.amount_minor) for h in statement.hands] + [money(h.balance_minor) for h in statement.hands]
    plain = _plain_ok(figures[:50] + figures[-50:])
    # the figure columns are as wide as their widest amount, and as the widest word of their
    # headings ("Ödenen" in "Ödenen veya alınan"), so that a heading keeps its type size
    head_words = [w for h in heads[2:] for w in h.split()]
    fig_w = max([text_width(f, size, bold=True) for f in set(figures)]
                + [text_width(w, size, bold=True) for w in head_words]) + 12
    num_w = max(text_width(str(max((h.number for h in statement.hands), default=0)), size, bold=True),
                min(text_width(heads[0], size, bold=True), 12 * mm)) + 12  # a long heading wraps
    col_widths = [num_w, width - num_w - 2 * fig_w, fig_w, fig_w]
    rows: list[list[object]] = [[Heading(heads[0], st.head_right), Heading(heads[1], st.head),
                                 Heading(heads[2], st.head_right), Heading(heads[3], st.head_right)]]
    commands: list[tuple] = [
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("FONT", (0, 1), (-1, -1), BODY, size),
        ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
        ("LINEBELOW", (0, 1), (-1, -2), 0.25, RULE),
    ]
    void = hex_of(VOID_INK)
    tag = f'<font size="{size - 1.2:.1f}" color="{{c}}"><b>{{t}}</b></font> '
    void_tag, redeal_tag = markup(pgettext("hand tag", "VOID")), markup(pgettext("hand tag", "REDEAL"))
    for r, hand in enumerate(statement.hands, start=1):
        outcome = markup(hand.outcome_text)
        if hand.voided:
            outcome = tag.format(c=hex_of(LOSS), t=void_tag) + f'<font color="{void}"><strike>{outcome}</strike></font>'
            commands.append(("BACKGROUND", (0, r), (-1, r), VOID_BG))
            commands.append(("TEXTCOLOR", (0, r), (-1, r), VOID_INK))
        elif hand.redeal:
            outcome = tag.format(c="#92400E", t=redeal_tag) + outcome
            commands.append(("BACKGROUND", (0, r), (-1, r), REDEAL_BG))
        elif r % 2 == 0:
            commands.append(("BACKGROUND", (0, r), (-1, r), STRIPE))
        if plain:
            amount: object = money.plain(hand.amount_minor)
            balance: object = money(hand.balance_minor)
            if not hand.voided:
                commands.append(("TEXTCOLOR", (2, r), (2, r), money.colour(hand.amount_minor)))
        else:
            amount = para(money.cell(hand.amount_minor, voided=hand.voided), st.cell_right)
            balance = para(markup(money(hand.balance_minor)), st.cell_right)
        plain_outcome = not (hand.voided or hand.redeal) and plain_fits(hand.outcome_text, BODY, size, col_widths[1] - 8)
        rows.append([str(hand.number), hand.outcome_text if plain_outcome else para(outcome, st.cell), amount, balance])
    bold = ParagraphStyle("total", st.cell_right, fontName=BOLD)
    rows.append(["", para("<b>{}</b>".format(markup(_("Final net"))), st.cell), "", para(money.cell(statement.net_minor, bold=True), bold)])
    commands += [
        ("LINEABOVE", (0, -1), (-1, -1), 1.0, INK),
        ("TOPPADDING", (0, -1), (-1, -1), 4),
        ("NOSPLIT", (0, -2), (-1, -1)),  # the final net never stands alone on a page
    ]
    table = Table(rows, colWidths=col_widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


__all__ = ["PAGE", "statement_story"]
