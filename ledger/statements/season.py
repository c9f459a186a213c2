"""Season PDFs of a club (issue 9): one member's season statement and the club summary, in the
look of the night's statements (same fonts for any script, styles, chart and footer).

The member's statement: their figures for the period (nights, hands, net, best and worst night,
average per night, wins and times caught), each night's result with the running total and
whether it was carried or settled in cash, their running club balance, the payments they made
or received against it, and their cumulative net drawn against the rest of the club. The club
summary: the standings table, everyone's cumulative net by night, the balances and the plan.
"""
from __future__ import annotations

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle
from reportlab.graphics.shapes import String

from ledger.clubs.season import SeasonReport
from ledger.clubs.standings import Standing
from ledger.statements import fonts
from ledger.statements.chart import player_chart, table_chart
from ledger.statements.fonts import markup
from ledger.statements.look import (
    HEADER_BG, RULE, STRIPE, Money, build, frame_width, para, plural, styles, text,
)

PAGE = A4
TABLE_SIZE = 8.5
WIN_WORDS = {"deal_tonk": "tonk on the deal", "tonk_out": "tonk out", "discard_out": "out by discard",
             "knock": "knock won", "catch": "caught a knock", "dry_stock": "dry stock", "double_double": "double-double"}


def period_text(report: SeasonReport) -> str:
    """The period in words, one whole sentence."""
    p = report.period
    count = plural(len(report.nights), "counted night")
    if p.date_from and p.date_to:
        shown = f"From {p.date_from.isoformat()} to {p.date_to.isoformat()}: {count}."
    elif p.date_from:
        shown = f"From {p.date_from.isoformat()} on: {count}."
    elif p.date_to:
        shown = f"Up to {p.date_to.isoformat()}: {count}."
    else:
        shown = f"All time: {count}."
    return shown if p.last is None else f"{shown[:-1]}, the last {p.last} kept."


def _nights_x(drawing: object) -> object:
    for item in getattr(drawing, "contents", []):
        if isinstance(item, String) and item.text == "Hand":
            item.text = "Night"
    return drawing


def _grid(rows: list[list[object]], widths: list[float], right_from: int) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1)
    commands = [
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (right_from, 0), (-1, -1), "RIGHT"),
    ]
    commands += [("BACKGROUND", (0, i), (-1, i), STRIPE) for i in range(2, len(rows), 2)]
    table.setStyle(TableStyle(commands))
    return table


def _standing_of(report: SeasonReport, member: str) -> Standing:
    return next(s for s in report.members if s.name == member)


def member_story(report: SeasonReport, member: str, locale: str) -> list[Flowable]:
    money = Money(report.currency, locale)
    st = styles(TABLE_SIZE)
    width = frame_width(PAGE)
    standing = _standing_of(report, member)
    out: list[Flowable] = [
        text(member, st.title),
        para(f"Season statement \u00b7 {markup(report.club_name)}", st.subtitle),
        text(period_text(report), st.small),
        Spacer(1, 3 * mm),
    ]
    facts = [
        f"Nights played: {len(standing.lines)}; hands played: {standing.hands}.",
        f"Net for the period: {money.signed(standing.net_minor)}.",
    ]
    if standing.lines:
        facts.append(f"Best night: {money.signed(standing.best_minor or 0)}; worst night: "
                     f"{money.signed(standing.worst_minor or 0)}; average per night: {money.signed(standing.average_minor or 0)}.")
    won = [f"{WIN_WORDS[k]} {n}" for k, n in standing.wins.items() if n]
    facts.append(f"Hands won: {', '.join(won)}." if won else "Hands won: none.")
    facts.append(f"Times caught after knocking: {standing.caught}.")
    facts.append(f"Running club balance now: {money.signed(report.balances_minor.get(member, 0))}.")
    out += [text(line, st.body) for line in facts]
    out.append(para("Nights", st.h2))
    if standing.lines:
        rows: list[list[object]] = [[text(h, st.head) for h in ("Date", "Night", "Result", "Running total", "Owed after")]]
        total = 0
        for line in standing.lines:
            total += line.net_minor
            after = (f"carried {money.signed(line.carried_minor)}" if line.carried else "settled in cash")
            rows.append([text(line.started.isoformat(), st.cell), text(line.night_name, st.cell),
                         para(money.cell(line.net_minor), st.cell_right), para(money.cell(total), st.cell_right),
                         text(after, st.cell_right)])
        out.append(_grid(rows, [22 * mm, width - 22 * mm - 3 * 28 * mm, 28 * mm, 28 * mm, 28 * mm], 2))
    else:
        out.append(text("No counted night in this period.", st.body))
    mine = [p for p in report.payments if member in (p.payer, p.payee)]
    out.append(para("Payments against the club balance", st.h2))
    if mine:
        for p in mine:
            sentence = (f"{p.at.date().isoformat()}: you paid {p.payee} {money(p.amount_minor)}." if p.payer == member
                        else f"{p.at.date().isoformat()}: {p.payer} paid you {money(p.amount_minor)}.")
            out.append(text(sentence, st.body))
    else:
        out.append(text("No payments recorded.", st.body))
    plan = [t for t in report.plan if member in (t.payer, t.payee)]
    for t in plan:
        sentence = (f"To clear the club: you pay {t.payee} {money(t.amount_minor)}." if t.payer == member
                    else f"To clear the club: {t.payer} pays you {money(t.amount_minor)}.")
        out.append(text(sentence, st.body))
    if report.nights and standing.lines:
        out.append(CondPageBreak(70 * mm))
        out.append(para("Your running total by night", st.h2))
        players = [s.name for s in report.members]
        out.append(_nights_x(player_chart(players, report.cumulative, member, money, width)))
    return out


def summary_story(report: SeasonReport, locale: str) -> list[Flowable]:
    money = Money(report.currency, locale)
    st = styles(TABLE_SIZE)
    width = frame_width(PAGE)
    out: list[Flowable] = [
        text(report.club_name, st.title),
        para("Club summary", st.subtitle),
        text(period_text(report), st.small),
        para("Standings", st.h2),
    ]
    heads = ("Member", "Nights", "Hands", "Net", "Best", "Worst", "Average", "Caught")
    rows: list[list[object]] = [[text(h, st.head) for h in heads]]
    for s in report.members:
        rows.append([text(s.name, st.cell), str(len(s.lines)), str(s.hands), para(money.cell(s.net_minor), st.cell_right),
                     para(money.cell(s.best_minor or 0), st.cell_right), para(money.cell(s.worst_minor or 0), st.cell_right),
                     para(money.cell(s.average_minor or 0), st.cell_right), str(s.caught)])
    name_w = width - 7 * 19 * mm
    out.append(_grid(rows, [name_w] + [19 * mm] * 7, 1))
    if report.nights:
        out.append(CondPageBreak(75 * mm))
        out.append(para("Cumulative net by night", st.h2))
        players = [s.name for s in report.members if s.lines]
        out.append(_nights_x(table_chart(players, {p: report.cumulative[p] for p in players}, money, width)))
    out.append(para("Running balances", st.h2))
    for name, amount in report.balances_minor.items():
        out.append(text(f"{name}: {money.signed(amount)}.", st.body))
    out.append(para("Fewest transfers that clear the club", st.h2))
    if report.plan:
        for t in report.plan:
            out.append(text(f"{t.payer} pays {t.payee} {money(t.amount_minor)}.", st.body))
        if not report.plan_minimal:
            out.append(text("This plan is not proven to be the fewest transfers.", st.small))
    else:
        out.append(text("Nothing is owed.", st.body))
    return out


def render_season_statement(report: SeasonReport, member: str, *, locale: str = "en_US") -> bytes:
    """``member``'s season statement PDF (A4). Raises ``StopIteration`` for a name not in the report."""
    fonts.ensure_fonts()
    token = fonts.use_locale(locale)
    try:
        return build(member_story(report, member, locale), {"season": PAGE}, title=f"{report.club_name} \u00b7 {member}",
                     subject=f"Tonk season statement: {member}", locale=locale)
    finally:
        token.var.reset(token)


def render_club_summary(report: SeasonReport, *, locale: str = "en_US") -> bytes:
    """The club summary PDF (A4): standings, chart, balances and plan."""
    fonts.ensure_fonts()
    token = fonts.use_locale(locale)
    try:
        return build(summary_story(report, locale), {"club": PAGE}, title=report.club_name,
                     subject=f"Tonk club summary: {report.club_name}", locale=locale)
    finally:
        token.var.reset(token)
