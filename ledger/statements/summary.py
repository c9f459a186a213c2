"""Session summary: the printable statement of one whole night.

:func:`summary_story` gives the flowables (used alone and as the first part of the night
pack); :func:`ledger.statements.pack.render_session_summary` renders them. The document holds,
in order: the night's name, local date and time (zone named), players in seat order, stake,
currency, rules preset and rules lines; the final net per player and the settle-up plan
("Marcus pays Dee $5.25"), each line with the hands that explain it, and payments already
made; the running-balance chart; the hand-by-hand table (header repeated on every page,
voided hands struck through, redeals marked) closed by a per-player net row that never
stands alone at the top of a page. Every word is the current language's (:mod:`ledger.i18n`).
"""
from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle

from ledger.i18n import N_, _, ngettext, pgettext
from ledger.money import is_points
from ledger.night.report import HandLine, SessionReport, hands_played, plan_lines, running_minor
from ledger.games.tonk import PRESETS
from ledger.statements.chart import table_chart
from ledger.statements.fonts import BODY, BOLD, markup, text_width
from ledger.statements.heading import Heading
from ledger.statements.story import story_flowables
from ledger.statements.look import (
    HEADER_BG, INK, LOSS, MUTED, REDEAL_BG, RULE, STRIPE, VOID_BG, VOID_INK, Money, Styles,
    frame_width, hex_of, para, plain_fits, short, styles, text, when,
)
from ledger.statements.marked import bold, sentence
from ledger.statements.pot import POT_COLUMN, pot_story
from ledger.statements.words import PAID, PAYS, PAYS_POT, seat_name, stake_text, why_sentence

PORTRAIT_MAX_PLAYERS = 5


def page_size(report: SessionReport) -> tuple[float, float]:
    """A4 portrait up to 5 players, landscape beyond."""
    return landscape(A4) if len(report.players) > PORTRAIT_MAX_PLAYERS else A4


def summary_story(report: SessionReport, counted: list[HandLine], locale: str) -> list[Flowable]:
    """The summary's flowables for a checked ``report`` (``counted``: its counted hands)."""
    money = Money(report.currency, locale)
    size = page_size(report)
    wide = size[0] > size[1]
    table_size = 8.0 if not wide else 7.0 if len(report.players) <= 8 else 6.5
    width = frame_width(size)
    st = styles(table_size)
    story: list[Flowable] = []
    story += _header(report, st, money, locale, width)
    story += _results(report, st, money, width)
    story += pot_story(report, st, money)
    story.append(CondPageBreak(90 * mm))
    story.append(text(_("Running balance"), st.h2))
    if counted and report.players:
        story.append(table_chart(report.players, running_minor(report), money, width))
    else:
        story.append(text(_("No counted hands yet."), st.body))
    story.append(CondPageBreak(40 * mm))
    story.append(text(_("Hands"), st.h2))
    if report.hands:
        # the note goes above the table: below it, it could be left alone on a page of its own
        story.append(text(_("Amounts are each player\u2019s net for the hand. Struck-through {void} hands are"
                            " shown for the record and not counted; {redeal} marks a redealt hand.",
                            void=pgettext("hand tag", "VOID"), redeal=pgettext("hand tag", "REDEAL")), st.small))
        story.append(Spacer(1, 3))
        story.append(_hand_table(report, counted, money, width, table_size))
    else:
        story.append(text(_("No hands recorded."), st.body))
    story += story_flowables(report, st, money)
    return story


def _header(
    report: SessionReport, st: Styles, money: Money, locale: str, width: float
) -> list[Flowable]:
    voided = sum(1 for h in report.hands if h.voided and not h.not_a_hand)
    redeals = sum(1 for h in report.hands if h.redeal and not h.voided)
    tally = [ngettext("{count} hand", "{count} hands", hands_played(report.hands))]
    if voided:
        tally.append(ngettext("{count} void", "{count} void", voided))
    if redeals:
        tally.append(ngettext("{count} redeal", "{count} redeals", redeals))

    seats = " \u00b7 ".join(
        f'<font color="{hex_of(MUTED)}">{i}.</font>\u00a0{markup(seat_name(report, p))}'
        for i, p in enumerate(report.players, 1)
    )
    if report.preset_title:  # a game other than Tonk names its own preset
        preset = report.preset_title
    else:
        preset = _(str(PRESETS[report.preset].title)) if report.preset in PRESETS else report.preset
    rows = [
        *([(_("Status"), markup(_("Void: the whole night is kept for the record and counts nowhere.")))]
          if report.night_voided else []),
        (_("Date"), markup(when(report.created_at, locale, report.timezone))),
        (_("Players"), seats or "\u2014"),
        (_("Stake"), markup(stake_text(report, money))),
        (_("Currency"), markup(_("None: the night is kept in points") if is_points(report.currency)
                               else report.currency)),
        *([(_("Game"), markup(report.game_title))] if report.game_title else []),
        (_("Rules preset"), markup(preset)),
        (_("Hands"), markup(", ".join(tally))),  # counts of one night, listed as figures are
    ]
    if report.recovery_code:  # the host's own PDF only
        rows.append((_("Recovery code"), sentence(
            N_("{code} \u2014 makes another phone the host (type it at {page}); keep this PDF to yourself"),
            code=bold(report.recovery_code), page="/recover")))
    meta = Table(
        [[text(k, st.label), para(v, st.body)] for k, v in rows],
        colWidths=[28 * mm, width - 28 * mm],
        hAlign="LEFT",
    )
    meta.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("TOPPADDING", (1, 0), (1, -1), 0.5),
            ]
        )
    )
    out: list[Flowable] = [
        text(report.name, st.title),
        text(_("Session summary \u00b7 Tonk Ledger"), st.subtitle),
        Spacer(1, 4 * mm),
        meta,
    ]
    if report.rules_lines:
        out.append(text(_("Rules"), st.h2))
        out.extend(
            text(line, st.body, bulletText="\u2022") for line in report.rules_lines
        )
    return out


def _results(
    report: SessionReport, st: Styles, money: Money, width: float
) -> list[Flowable]:
    """Final net table and settle-up plan, side by side when they comfortably fit."""
    side_by_side = len(report.players) <= 12 and len(report.settlement) <= 14
    gap = 8 * mm
    net_col = (width - gap) * 0.46 if side_by_side else min(width, 110 * mm)

    head_l = ParagraphStyle("rh", st.body, fontName=BOLD, textColor=colors.white)
    head_r = ParagraphStyle("rhr", head_l, alignment=TA_RIGHT)
    right = ParagraphStyle("rr", st.body, alignment=TA_RIGHT)
    final_net = _("Final score") if is_points(report.currency) else _("Final net")
    rows: list[list[Flowable]] = [[text(_("Player"), head_l), text(final_net, head_r)]]
    for player in report.players:
        rows.append(
            [
                text(player, st.body),
                para(money.cell(report.net_minor[player], bold=True), right),
            ]
        )
    amount_w = max(  # as drawn: signed ("+$4,999.95"), so that no amount wraps
        [text_width(money.signed(report.net_minor[p]), 9.5, bold=True) for p in report.players]
        + [text_width(final_net, 9.5, bold=True)]
    )
    net_w = min(amount_w + 14, net_col * 0.6)
    table = Table(rows, colWidths=[net_col - net_w, net_w], hAlign="LEFT", repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]),
                ("LINEBELOW", (0, -1), (-1, -1), 0.6, RULE),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    net_part: list[Flowable] = [text(final_net, st.h2), table]
    if is_points(report.currency):  # a score sheet (issue 25): the scores, and nothing to settle
        return net_part

    plan: list[Flowable] = [text(_("Settle up"), st.h2)]
    if report.payments:
        paid = ParagraphStyle("paid", st.body, leftIndent=12, spaceAfter=2.5)
        plan.append(text(_("Already paid"), st.small))
        for t in report.payments:
            plan.append(para(sentence(PAID, payer=bold(t.payer), payee=bold(t.payee), amount=money(t.amount_minor)),
                             paid, bulletText="\u2022"))
        plan.append(text(_("Still to pay"), st.small))
    n = len(report.settlement)
    if n == 0:
        plan.append(text(_("Nothing to settle \u2014 everyone is square."), st.body))
    elif report.carried_into:  # settled in the club, not between the night's players
        plan.append(text(_("What was still owed when the night closed was carried into the balances of {club}; "
                           "it is settled there.", club=report.carried_into), st.body))
    else:
        if report.settlement_minimal:
            label = ngettext("{count} transfer, minimal", "{count} transfers, minimal", n)
        else:
            label = ngettext("{count} transfer (heuristic)", "{count} transfers (heuristic)", n)
        pay = ParagraphStyle("pay", st.body, leftIndent=12, spaceAfter=0.5)
        why = ParagraphStyle("why", st.small, leftIndent=12, spaceAfter=3)
        for line in plan_lines(report):
            if report.pot is not None and line.payee == "pot":  # the pot's cash (TONGITS.md §4.8)
                said = sentence(PAYS_POT, payer=bold(line.payer), amount=money(line.amount_minor))
            else:
                said = sentence(PAYS, payer=bold(line.payer), payee=bold(line.payee), amount=money(line.amount_minor))
            plan.append(para(said, pay, bulletText="\u2022"))
            plan.append(para(markup(why_sentence(line, money)), why))
        plan.append(Spacer(1, 2))
        plan.append(text(label, st.small))

    if side_by_side:
        # One table row cannot split across pages: put the two side by side only when both
        # comfortably fit on one page at their column widths; otherwise they flow one after
        # the other (the net table repeats its header, plan lines break between pages).
        tallest = max(
            _height(net_part, net_col), _height(plan, width - net_col - gap)
        )
        side_by_side = tallest <= _SIDE_BY_SIDE_MAX_HEIGHT
    if not side_by_side:
        return [*net_part, *plan]
    both = Table(
        [[net_part, plan]], colWidths=[net_col + gap, width - net_col - gap], hAlign="LEFT"
    )
    both.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (0, 0), gap),
                ("RIGHTPADDING", (1, 0), (1, 0), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return [Spacer(1, 2 * mm), both]


_SIDE_BY_SIDE_MAX_HEIGHT = 120 * mm


def _height(flowables: Sequence[Flowable], width: float) -> float:
    """Laid-out height of ``flowables`` stacked in a column ``width`` points wide."""
    total = 0.0
    for flowable in flowables:
        _w, h = flowable.wrap(width, 10**6)
        total += h + flowable.getSpaceBefore() + flowable.getSpaceAfter()
    return total





def _winners(hand: HandLine) -> str:
    return ", ".join(short(w) for w in hand.winners) if hand.winners else "\u2014"



def _amount(money: Money, amount_minor: int, plain: bool, st: Styles, commands: list[tuple],
            row: int, column: int) -> object:
    """An amount cell: plain text coloured by sign when the font allows, else a Paragraph."""
    if not plain:
        return para(money.cell(amount_minor), st.cell_right)
    if amount_minor:
        commands.append(("TEXTCOLOR", (column, row), (column, row), money.colour(amount_minor)))
    else:
        commands.append(("TEXTCOLOR", (column, row), (column, row), MUTED))
    return money.plain(amount_minor)


def _hand_table(
    report: SessionReport, counted: Sequence[HandLine], money: Money, width: float, size: float
) -> Table:
    st = styles(size)
    players: tuple[str, ...] = report.players
    if report.pot is not None:  # the pot's net for each hand, after the players (TONGITS.md §8.2)
        players = (*players, POT_COLUMN)

    def amount_of(hand: HandLine, p: str) -> int:
        return (hand.pot_minor or 0) if p == POT_COLUMN else hand.amounts_minor.get(p, 0)

    def total_of(p: str) -> int:
        if p == POT_COLUMN:
            return sum(h.pot_minor or 0 for h in counted)
        return report.net_minor[p]

    def head_of(p: str) -> str:
        return _("Pot") if p == POT_COLUMN else short(p)

    # Column widths, HTML-table style: every column gets at least its longest word (names
    # wrap between words, not inside them) and shares the slack by how much more it could use.
    pad = 8.0 + 1.0  # cell paddings plus a hair so a word that just fits is not split
    bold = ParagraphStyle("tot", st.cell_right, fontName=BOLD)

    def natural(texts: Sequence[str], font: str) -> tuple[float, float]:
        unique = set(texts) or {""}
        words = {w for t in unique for w in t.split()} or {""}
        bold = font == BOLD
        return (
            max(text_width(w, size, bold=bold) for w in words) + pad,
            max(text_width(t, size, bold=bold) for t in unique) + pad,
        )

    def text_column(header_text: str, texts: list[str]) -> tuple[float, float, float]:
        low, high = natural([header_text], BOLD)
        word, full = natural(texts or [""], BODY)
        return (max(12 * mm, low), max(low, word), max(high, full))  # a heading's words stay whole

    num_w = stringWidth(str(max(h.number for h in report.hands)), BOLD, size) + pad + 2
    heads = [pgettext("hand number column", "#"), _("Dealer"), _("Outcome"), _("Winner(s)")]
    num_w = max(num_w, min(text_width(heads[0], size, bold=True) + pad, 12 * mm))  # a long heading wraps
    winners = [_winners(h) for h in report.hands]
    columns = [
        text_column(heads[1], [short(h.dealer) for h in report.hands]),
        text_column(heads[2], [h.outcome_text for h in report.hands]),
        text_column(heads[3], winners),
    ]
    outcome = 1
    for p in players:
        figures = [money(amount_of(h, p)) for h in report.hands] + [
            money(total_of(p))
        ]
        figure_w = max(text_width(f, size, bold=True) for f in set(figures)) + pad
        word, _full = natural([head_of(p)], BOLD)
        name_w = max(figure_w, min(word, 22 * mm))
        columns.append((figure_w, name_w, max(name_w, figure_w + pad)))
    room = width - num_w
    hard = [c[0] for c in columns]
    soft = [c[1] for c in columns]
    full = [c[2] for c in columns]
    if sum(full) <= room:
        widths = list(full)
        widths[outcome] += room - sum(full)
    elif sum(soft) <= room:
        share = (room - sum(soft)) / sum(f - s for f, s in zip(full, soft))
        widths = [s + (f - s) * share for s, f in zip(soft, full)]
    elif sum(hard) <= room:
        share = (room - sum(hard)) / sum(s - h for s, h in zip(soft, hard))
        widths = [h + (s - h) * share for h, s in zip(hard, soft)]
    else:
        widths = [h * room / sum(hard) for h in hard]
    col_widths = [num_w, *widths]

    header = [
        Heading(heads[0], st.head_right),
        Heading(heads[1], st.head),
        Heading(heads[2], st.head),
        Heading(heads[3], st.head),
    ] + [Heading(head_of(p), st.head_right) for p in players]
    rows: list[list[object]] = [header]
    commands: list[tuple] = [
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
        ("LINEBELOW", (0, 1), (-1, -2), 0.25, RULE),
        ("LINEBEFORE", (4, 0), (4, -1), 0.5, RULE),
    ]
    commands += [("FONT", (0, 1), (-1, -1), BODY, size), ("TEXTCOLOR", (0, 1), (-1, -1), INK),
                 ("ALIGN", (0, 1), (0, -1), "RIGHT"), ("ALIGN", (4, 1), (-1, -1), "RIGHT")]
    samples = [money(amount_of(h, p)) for h in report.hands[:20] for p in players]
    plain = all(plain_fits(s, BODY, size, 10**6) for s in samples)
    void_ink = hex_of(VOID_INK)
    tag = f'<font size="{size - 1.2:.1f}" color="{{c}}"><b>{{t}}</b></font>'
    void_tag, redeal_tag = markup(pgettext("hand tag", "VOID")), markup(pgettext("hand tag", "REDEAL"))
    for r, hand in enumerate(report.hands, start=1):
        winners = _winners(hand)
        if hand.voided:
            num = f'<font color="{void_ink}"><strike>{hand.number}</strike></font>'
            dealer = f'<font color="{void_ink}"><strike>{markup(short(hand.dealer))}</strike></font>'
            outcome = (
                tag.format(c=hex_of(LOSS), t=void_tag)
                + f' <font color="{void_ink}"><strike>{markup(hand.outcome_text)}</strike></font>'
            )
            if hand.redeal:
                outcome = tag.format(c=hex_of(MUTED), t=redeal_tag) + " " + outcome
            win = f'<font color="{void_ink}"><strike>{markup(winners)}</strike></font>'
            commands.append(("BACKGROUND", (0, r), (-1, r), VOID_BG))
        else:
            outcome = markup(hand.outcome_text)
            if hand.redeal:
                outcome = tag.format(c="#92400E", t=redeal_tag) + " " + outcome
                commands.append(("BACKGROUND", (0, r), (-1, r), REDEAL_BG))
            elif r % 2 == 0:
                commands.append(("BACKGROUND", (0, r), (-1, r), STRIPE))
            dealer_text = short(hand.dealer)
            rows.append(
                [
                    para(str(hand.number), st.cell_right),
                    dealer_text if plain_fits(dealer_text, BODY, size, col_widths[1] - 8)
                    else text(dealer_text, st.cell),
                    hand.outcome_text if not hand.redeal and plain_fits(hand.outcome_text, BODY, size, col_widths[2] - 8)
                    else para(outcome, st.cell),
                    winners if plain_fits(winners, BODY, size, col_widths[3] - 8) else text(winners, st.cell),
                ]
                + [_amount(money, amount_of(hand, p), plain, st, commands, r, 4 + i)
                   for i, p in enumerate(players)]
            )
            continue
        rows.append(
            [
                para(num, st.cell_right),
                para(dealer, st.cell),
                para(outcome, st.cell),
                para(win, st.cell),
            ]
            + [
                para(
                    money.cell(amount_of(hand, p), voided=hand.voided), st.cell_right
                )
                for p in players
            ]
        )

    rows.append(
        [
            "",
            para("<b>{}</b>".format(markup(ngettext("Net over {count} counted hand", "Net over {count} counted hands",
                                                    hands_played(counted)))), st.cell),
            "",
            "",
        ]
        + [para(money.cell(total_of(p), bold=True), bold) for p in players]
    )
    commands += [
        ("SPAN", (1, -1), (3, -1)),
        ("LINEABOVE", (0, -1), (-1, -1), 1.0, INK),
        ("NOSPLIT", (0, -2), (-1, -1)),  # the totals row never stands alone on a page
        ("TOPPADDING", (0, -1), (-1, -1), 4),
    ]
    table = Table(rows, colWidths=col_widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


