"""The club's standings page (issue 9): a period picker (all time, between two dates, the last
N nights), the table (nights, hands, wins by kind, times caught, net, best and worst night,
average per night), each member's cumulative net by night as small multiples
(:mod:`ledger.web.club_chart`), and the season statement PDF of each member and the club
summary PDF for the same period.

The period is read from ``period`` (``all``, ``dates``, ``last``) with ``from``/``to``
(YYYY-MM-DD, the club's time zone) and ``last`` (N); without ``period`` it follows the
parameters given, as the API does. A refused period keeps what was typed beside its field and
shows all time (422).
"""
from __future__ import annotations

from datetime import date
from typing import Any, Mapping

from flask import redirect, render_template, request, url_for

from ledger.clubs import roster
from ledger.clubs.standings import Period, standings
from ledger.storage.db import get_session
from ledger.i18n import N_, _
from ledger.web.blueprint import bp
from ledger.web.club_chart import panels
from ledger.web.club_pages import club_authorised

# the standings' column headings, marked for the catalogue; the page writes them in the reader's language
WIN_LABELS = (("deal_tonk", N_("Tonk on the deal")), ("tonk_out", N_("Tonk out")), ("discard_out", N_("Out by discard")),
              ("knock", N_("Knock won")), ("catch", N_("Caught a knock")), ("dry_stock", N_("Dry stock")),
              ("double_double", N_("Double-double")))
# Tong-its' kinds (TONGITS.md §4.1–4.4), shown when the period holds a Tong-its win: a club of
# Tonk nights keeps the columns it had
TONGITS_WIN_LABELS = (("tongits", N_("Tong-its")), ("draw", N_("Draw (laban) won")), ("stock_out", N_("Stock out won")))
MODES = ("all", "dates", "last")
MOST_NIGHTS = 10**6


def read_period(args: Mapping[str, str]) -> tuple[Period, dict[str, str], dict[str, str]]:
    """``(period, typed, errors)`` from the picker's query parameters."""
    typed = {key: str(args.get(key, ""))[:20].strip() for key in ("period", "from", "to", "last")}
    if typed["period"] not in MODES:
        typed["period"] = "last" if typed["last"] else "dates" if typed["from"] or typed["to"] else "all"
    errors: dict[str, str] = {}
    if typed["period"] == "all":
        return Period(), typed, errors
    if typed["period"] == "last":
        text = typed["last"]
        if not (text.isdecimal() and 0 < int(text) < MOST_NIGHTS):
            errors["last"] = _("Type how many nights to count, a whole number from 1.")
            return Period(), typed, errors
        return Period(last=int(text)), typed, errors
    days: dict[str, date | None] = {}
    for key in ("from", "to"):
        try:
            days[key] = date.fromisoformat(typed[key]) if typed[key] else None
        except ValueError:
            errors[key] = _("Type the date as year-month-day, such as 2026-01-31.")
    if errors:
        return Period(), typed, errors
    if days["from"] and days["to"] and days["from"] > days["to"]:
        errors["to"] = _("The end date is before the start date.")
        return Period(), typed, errors
    return Period(days["from"], days["to"]), typed, errors


def period_query(period: Period) -> dict[str, str]:
    """The query parameters that name ``period`` (for the PDF links and the API)."""
    query = {}
    if period.date_from:
        query["from"] = period.date_from.isoformat()
    if period.date_to:
        query["to"] = period.date_to.isoformat()
    if period.last:
        query["last"] = str(period.last)
    return query


def win_labels(body: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The standings' win columns: Tonk's, and Tong-its' when a member of ``body`` (the
    standings' JSON) won a Tong-its hand in the period."""
    tongits = any(line["wins"].get(key) for line in body["members"] for key, _label in TONGITS_WIN_LABELS)
    return WIN_LABELS + TONGITS_WIN_LABELS if tongits else WIN_LABELS


@bp.get("/c/<club_id>/standings")
def club_standings_page(club_id: str) -> Any:
    """Standings, chart and PDF links for the chosen period (any club role)."""
    club, actor = club_authorised(club_id)
    period, typed, errors = read_period(request.args)
    table = standings(get_session(), club, period)
    body = table.to_json()
    charts = panels([(s.name, s.member_id, table.cumulative(s)) for s in table.members if s.lines])
    page = render_template("club_standings.html", club=club, actor=actor, table=body, period=period, typed=typed,
                           errors=errors, kinds=win_labels(body), charts=charts, query=period_query(period))
    return page, (422 if errors else 200)


@bp.get("/c/<club_id>/statements/<int(min=1, max=2147483647):member_id>.pdf")
def club_member_statement(club_id: str, member_id: int) -> Any:
    """A member's season statement PDF for the period (any club role), in the member's own
    language when one is set (:attr:`ClubMember.language`), else the reader's; 404 for another
    club's member; a period that is not one (``last=-1``, ``from=2026-13-01``) goes to the
    standings page, which says what is wrong (422)."""
    from flask import abort

    from ledger.clubs.season import season_report
    from ledger.statements.downloads import pdf_response, season_language
    from ledger.night.lifecycle import NightError
    from ledger.statements.season import render_season_statement, statement_file_name

    club, _actor = club_authorised(club_id)
    db = get_session()
    try:
        member = roster.get_member(db, club, member_id)
    except NightError:
        abort(404)
    period, _typed, errors = read_period(request.args)
    if errors:  # a period typed into the address that is not one: the picker, with what is wrong
        return redirect(url_for("web.club_standings_page", club_id=club.id, **request.args))
    report = season_report(db, club, period)
    language, locale = season_language(member)  # the member's language, else this phone's
    return pdf_response(render_season_statement(report, member.name, language=language, locale=locale),
                        statement_file_name(report, member.name, language=language, locale=locale))


@bp.get("/c/<club_id>/summary.pdf")
def club_summary(club_id: str) -> Any:
    """The club summary PDF for the period (all time by default) for any club role; a period
    that is not one goes to the standings page, which says what is wrong (422)."""
    from ledger.clubs.season import season_report
    from ledger.statements.downloads import pdf_response, season_language
    from ledger.statements.season import render_club_summary, summary_file_name

    club, _actor = club_authorised(club_id)
    period, _typed, errors = read_period(request.args)
    if errors:  # as for a statement: the picker says what is wrong with the period
        return redirect(url_for("web.club_standings_page", club_id=club.id, **request.args))
    language, locale = season_language(None)
    report = season_report(get_session(), club, period)
    return pdf_response(render_club_summary(report, language=language, locale=locale),
                        summary_file_name(report, language=language, locale=locale))
