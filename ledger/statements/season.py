"""Season PDFs of a club (issue 9): one member's season statement and the club summary, in the
look of the night's statements (same fonts for any script, styles, chart and footer).

The member's statement: their figures for the period (nights, hands, net, best and worst night,
average per night, wins and times caught), each night's result with the running total and
whether it was carried or settled in cash, their running club balance, the payments they made
or received against it, and their cumulative net drawn against the rest of the club. The club
summary: the standings table, everyone's cumulative net by night, the balances and the plan.

Both render in a language given to them (a member's own, for their statement) or the current
one (the request's), every word through the catalogues (:mod:`ledger.i18n`), money and dates in
that language's Babel locale; days stay ``YYYY-MM-DD`` in English.
"""
from __future__ import annotations

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle

from ledger.clubs.season import SeasonReport
from ledger.clubs.standings import Standing
from ledger.money import is_points
from ledger.i18n import LANGUAGES, N_, SOURCE, _, current_language, format_locale, ngettext, use_language
from ledger.statements import fonts
from ledger.statements.chart import player_chart, table_chart
from ledger.statements.fonts import BODY
from ledger.statements.heading import Heading
from ledger.statements.look import (
    HEADER_BG, RULE, STRIPE, Money, build, day_text, frame_width, para, styles, text,
)

PAGE = A4
TABLE_SIZE = 8.5
WIN_WORDS = {"deal_tonk": N_("tonk on the deal {count}"), "tonk_out": N_("tonk out {count}"),
             "discard_out": N_("out by discard {count}"), "knock": N_("knock won {count}"),
             "catch": N_("caught a knock {count}"), "dry_stock": N_("dry stock {count}"),
             "double_double": N_("double-double {count}"),
             # Tong-its (TONGITS.md §4.1–4.4), in the table's words
             "tongits": N_("tong-its {count}"), "draw": N_("draw (laban) won {count}"),
             "stock_out": N_("stock out won {count}")}


def period_text(report: SeasonReport, locale: str = "en_US") -> str:
    """The period in words, one whole sentence ("All time: 3 counted nights.",
    "From 2026-01-01 to 2026-01-31: 4 counted nights, the last 4 kept.")."""
    p = report.period
    n = len(report.nights)
    days = {"start": day_text(p.date_from, locale) if p.date_from else "",
            "end": day_text(p.date_to, locale) if p.date_to else ""}
    if p.last is None:
        if p.date_from and p.date_to:
            return ngettext("From {start} to {end}: {count} counted night.",
                            "From {start} to {end}: {count} counted nights.", n, **days)
        if p.date_from:
            return ngettext("From {start} on: {count} counted night.", "From {start} on: {count} counted nights.",
                            n, **days)
        if p.date_to:
            return ngettext("Up to {end}: {count} counted night.", "Up to {end}: {count} counted nights.", n, **days)
        return ngettext("All time: {count} counted night.", "All time: {count} counted nights.", n)
    if p.date_from and p.date_to:
        return ngettext("From {start} to {end}: {count} counted night, the last {last} kept.",
                        "From {start} to {end}: {count} counted nights, the last {last} kept.", n, last=p.last, **days)
    if p.date_from:
        return ngettext("From {start} on: {count} counted night, the last {last} kept.",
                        "From {start} on: {count} counted nights, the last {last} kept.", n, last=p.last, **days)
    if p.date_to:
        return ngettext("Up to {end}: {count} counted night, the last {last} kept.",
                        "Up to {end}: {count} counted nights, the last {last} kept.", n, last=p.last, **days)
    return ngettext("{count} counted night, the last {last} kept.",
                    "{count} counted nights, the last {last} kept.", n, last=p.last)


def period_title(report: SeasonReport, locale: str = "en_US") -> str:
    """The period as a short title for a PDF's heading and file name, in the current language:
    "All time", "The last 2 nights", "2026-01-01 to 2026-01-31", "From 2026-01-01",
    "Up to 2026-01-31", "The last 2 nights of 2026-01-01 to 2026-01-31" (issue 23 item 6)."""
    p = report.period
    days = {"start": day_text(p.date_from, locale) if p.date_from else "",
            "end": day_text(p.date_to, locale) if p.date_to else ""}
    if p.last is None:
        if p.date_from and p.date_to:
            return _("{start} to {end}", **days)
        if p.date_from:
            return _("From {start}", **days)
        if p.date_to:
            return _("Up to {end}", **days)
        return _("All time")
    if p.date_from and p.date_to:
        return ngettext("The last night of {start} to {end}", "The last {count} nights of {start} to {end}",
                        p.last, **days)
    if p.date_from:
        return ngettext("The last night from {start}", "The last {count} nights from {start}", p.last, **days)
    if p.date_to:
        return ngettext("The last night up to {end}", "The last {count} nights up to {end}", p.last, **days)
    return ngettext("The last night", "The last {count} nights", p.last)


def summary_file_name(report: SeasonReport, *, language: str, locale: str) -> str:
    """``<club>-<period>.pdf`` ("Friday club-The last 2 nights.pdf"), the period in ``language``."""
    with use_language(language, locale):
        return f"{report.club_name}-{period_title(report, locale)}.pdf"


def statement_file_name(report: SeasonReport, member: str, *, language: str, locale: str) -> str:
    """``<club>-<member>-<period>.pdf``, the period in ``language`` (the statement's own)."""
    with use_language(language, locale):
        return f"{report.club_name}-{member}-{period_title(report, locale)}.pdf"


def _grid(rows: list[list[object]], widths: list[float], right_from: int) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1)
    commands = [
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BG),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("FONT", (0, 1), (-1, -1), BODY, TABLE_SIZE),  # plain cells (counts) in the embedded font, not Helvetica
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
        text(_("Season statement \u00b7 {club} \u00b7 {period}", club=report.club_name,
               period=period_title(report, locale)), st.subtitle),
        text(period_text(report, locale), st.small),
        Spacer(1, 3 * mm),
    ]
    facts = [
        _("Nights played: {nights}; hands played: {hands}.", nights=len(standing.lines), hands=standing.hands),
        _("Net for the period: {amount}.", amount=money.signed(standing.net_minor)),
    ]
    if standing.lines:
        facts.append(_("Best night: {best}; worst night: {worst}; average per night: {average}.",
                       best=money.signed(standing.best_minor or 0), worst=money.signed(standing.worst_minor or 0),
                       average=money.signed(standing.average_minor or 0)))
    won = [_(WIN_WORDS[k], count=n) for k, n in standing.wins.items() if n]
    # each kind of win with its count, listed as figures are (", ")
    facts.append(_("Hands won: {wins}.", wins=", ".join(won)) if won else _("Hands won: none."))
    facts.append(_("Times caught after knocking: {count}.", count=standing.caught))
    facts.append(_("Running club balance now: {amount}.", amount=money.signed(report.balances_minor.get(member, 0))))
    out += [text(line, st.body) for line in facts]
    out.append(text(_("Nights"), st.h2))
    if standing.lines:
        heads = (_("Date"), _("Night"), _("Result"), _("Running total"), _("Owed after"))
        rows: list[list[object]] = [[Heading(h, st.head) for h in heads]]
        total = 0
        for line in standing.lines:
            total += line.net_minor
            after = (_("carried {amount}", amount=money.signed(line.carried_minor)) if line.carried
                     else _("settled in cash"))
            rows.append([text(day_text(line.started, locale), st.cell), text(line.night_name, st.cell),
                         para(money.cell(line.net_minor), st.cell_right), para(money.cell(total), st.cell_right),
                         text(after, st.cell_right)])
        out.append(_grid(rows, [22 * mm, width - 22 * mm - 3 * 28 * mm, 28 * mm, 28 * mm, 28 * mm], 2))
    else:
        out.append(text(_("No counted night in this period."), st.body))
    mine = [p for p in report.payments if member in (p.payer, p.payee)]
    out.append(text(_("Payments against the club balance"), st.h2))
    if mine:
        for p in mine:
            day = day_text(p.at.date(), locale)
            sentence = (_("{date}: you paid {payee} {amount}.", date=day, payee=p.payee, amount=money(p.amount_minor))
                        if p.payer == member else
                        _("{date}: {payer} paid you {amount}.", date=day, payer=p.payer, amount=money(p.amount_minor)))
            out.append(text(sentence, st.body))
    else:
        out.append(text(_("No payments recorded."), st.body))
    plan = [t for t in report.plan if member in (t.payer, t.payee)]
    for t in plan:
        sentence = (_("To clear the club: you pay {payee} {amount}.", payee=t.payee, amount=money(t.amount_minor))
                    if t.payer == member else
                    _("To clear the club: {payer} pays you {amount}.", payer=t.payer, amount=money(t.amount_minor)))
        out.append(text(sentence, st.body))
    if report.nights and standing.lines:
        out.append(CondPageBreak(70 * mm))
        out.append(text(_("Your running total by night"), st.h2))
        players = [s.name for s in report.members]
        out.append(player_chart(players, report.cumulative, member, money, width, x_title=_("Night")))
    return out


def summary_story(report: SeasonReport, locale: str) -> list[Flowable]:
    money = Money(report.currency, locale)
    st = styles(TABLE_SIZE)
    width = frame_width(PAGE)
    out: list[Flowable] = [
        text(report.club_name, st.title),
        text(_("Club summary \u00b7 {period}", period=period_title(report, locale)), st.subtitle),
        text(period_text(report, locale), st.small),
        text(_("Standings"), st.h2),
    ]
    heads = (_("Member"), _("Nights"), _("Hands"), _("Net"), _("Best"), _("Worst"), _("Average"), _("Caught"))
    rows: list[list[object]] = [[Heading(h, st.head) for h in heads]]
    for s in report.members:
        rows.append([text(s.name, st.cell), str(len(s.lines)), str(s.hands), para(money.cell(s.net_minor), st.cell_right),
                     para(money.cell(s.best_minor or 0), st.cell_right), para(money.cell(s.worst_minor or 0), st.cell_right),
                     para(money.cell(s.average_minor or 0), st.cell_right), str(s.caught)])
    name_w = width - 7 * 19 * mm
    out.append(_grid(rows, [name_w] + [19 * mm] * 7, 1))
    if report.nights:
        out.append(CondPageBreak(75 * mm))
        out.append(text(_("Cumulative net by night"), st.h2))
        players = [s.name for s in report.members if s.lines]
        out.append(table_chart(players, {p: report.cumulative[p] for p in players}, money, width, x_title=_("Night")))
    out.append(text(_("Running balances"), st.h2))
    for name, amount in report.balances_minor.items():
        out.append(text(_("{member}: {amount}.", member=name, amount=money.signed(amount)), st.body))
    if is_points(report.currency):  # a club kept in points (issue 25): nothing to clear
        return out
    out.append(text(_("Fewest transfers that clear the club"), st.h2))
    if report.plan:
        for t in report.plan:
            out.append(text(_("{payer} pays {payee} {amount}.", payer=t.payer, payee=t.payee,
                              amount=money(t.amount_minor)), st.body))
        if not report.plan_minimal:
            out.append(text(_("This plan is not proven to be the fewest transfers."), st.small))
    else:
        out.append(text(_("Nothing is owed."), st.body))
    return out


def locale_for(language: str, default: str = "en_US") -> str:
    """The Babel locale money and dates are written in for ``language``: the language's own
    (``"tr_TR"``); for English (and the pseudo language) the current format locale when that
    is the language of the running request, else ``default``."""
    known = LANGUAGES.get(language)
    if known is not None and language != SOURCE:
        return known.format_locale
    return format_locale(default) if language == current_language() else default


def render_season_statement(report: SeasonReport, member: str, *, locale: str | None = None,
                            language: str | None = None) -> bytes:
    """``member``'s season statement PDF (A4), in ``language`` (a catalogue code such as
    ``"lo"``: the member's own; the current language, that of the request, when None) with
    money and dates in ``locale`` (the language's Babel locale when None, see
    :func:`locale_for`). Raises ``StopIteration`` for a name not in the report."""
    language = language or current_language()
    locale = locale or locale_for(language)
    fonts.ensure_fonts()
    token = fonts.use_locale(locale)
    try:
        with use_language(language, locale):
            return build(member_story(report, member, locale), {"season": PAGE},
                         title=f"{report.club_name} \u00b7 {member}",
                         subject=_("Tonk season statement: {member}", member=member), locale=locale)
    finally:
        token.var.reset(token)


def render_club_summary(report: SeasonReport, *, locale: str | None = None, language: str | None = None) -> bytes:
    """The club summary PDF (A4): standings, chart, balances and plan; ``language`` and
    ``locale`` as for :func:`render_season_statement`."""
    language = language or current_language()
    locale = locale or locale_for(language)
    fonts.ensure_fonts()
    token = fonts.use_locale(locale)
    try:
        with use_language(language, locale):
            return build(summary_story(report, locale), {"club": PAGE}, title=report.club_name,
                         subject=_("Tonk club summary: {club}", club=report.club_name), locale=locale)
    finally:
        token.var.reset(token)
