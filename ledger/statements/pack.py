"""Rendering entry points: the session summary, one player's statement, the night pack.

Each checks the report once (:func:`ledger.statements.validate.check`), reads every figure
from the report model (:mod:`ledger.night.report`) and returns PDF bytes. The night pack is the
summary followed by one statement per player in seat order, each on a new page, with a PDF
bookmark per player.

Words are the current language's (:mod:`ledger.i18n`): a caller outside a request, such as a
worker of :mod:`ledger.statements.render_pool`, gives :func:`render` the ``language`` to write in, and
the report is made and the PDF laid out inside ``use_language(language, locale)``.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from reportlab.platypus import NextPageTemplate, PageBreak

from ledger.i18n import _, use_language
from ledger.night.report import SessionReport, plan_lines, player_statement, running_minor
from ledger.night.report_source import ReportSource
from ledger.statements import fonts
from ledger.statements.look import Bookmark, Money, build, day_of, when
from ledger.statements.player import PAGE, statement_story
from ledger.statements.summary import page_size, summary_story
from ledger.statements.validate import check

__all__ = ["file_name", "render", "render_night_pack", "render_player_statement", "render_session_summary"]


def _prepare(report: SessionReport, locale: str) -> list:  # type: ignore[type-arg]
    counted = check(report)
    fonts.ensure_fonts()
    when(report.created_at, locale, report.timezone)  # an unknown locale fails before layout
    return counted


def _texts(report: SessionReport, locale: str) -> Iterator[str]:
    """Everything of the report's own a document may print (names, outcomes, the date and
    amounts in ``locale``), for :func:`ledger.statements.fonts.document`."""
    yield from (report.name, report.preset, *report.players, *report.rules_lines)
    for hand in report.hands:
        yield hand.dealer
        yield hand.outcome_text
    yield when(report.created_at, locale, report.timezone)
    money = Money(report.currency, locale)
    yield from (money.signed(-123456789), money.signed(123456789), money(0))


def render_session_summary(report: SessionReport, *, locale: str = "en_US") -> bytes:
    """The session summary PDF of ``report``.

    A4 portrait up to 5 players, landscape beyond. ``locale`` (Babel id such as ``"en_US"``)
    drives money (:func:`ledger.money.format_minor`) and dates; times are shown in
    ``report.timezone`` with the zone named. Labels and sentences are in the current language
    (:func:`ledger.i18n.use_language`); all text is extractable.
    Raises ``ValueError`` for an incoherent report (see :func:`~ledger.statements.validate.check`)
    and ``babel.UnknownLocaleError`` for an unknown locale, before any layout work.
    """
    counted = _prepare(report, locale)
    with fonts.document(locale, _texts(report, locale)):
        story = summary_story(report, counted, locale)
        return build(story, {"summary": page_size(report)}, title=report.name,
                     subject=_("Tonk session summary: {night}", night=report.name), locale=locale)


def render_player_statement(report: SessionReport, seat: int, *, locale: str = "en_US") -> bytes:
    """The statement of the player in ``seat`` (1-based, seat order), A4 portrait.

    Raises ``IndexError`` for a seat outside ``1..len(report.players)``; otherwise as
    :func:`render_session_summary`.
    """
    _prepare(report, locale)
    statement = player_statement(report, seat)
    with fonts.document(locale, _texts(report, locale)):
        story = statement_story(report, statement, locale)
        return build(story, {"statement": PAGE}, title=f"{statement.player} \u00b7 {report.name}",
                     subject=_("Tonk player statement: {player}", player=statement.player), locale=locale)


def render_night_pack(report: SessionReport, *, locale: str = "en_US") -> bytes:
    """The night pack: the summary, then every player's statement in seat order, each from a
    new page, with a PDF bookmark for the summary and for each player. Errors as
    :func:`render_session_summary`."""
    counted = _prepare(report, locale)
    plan = plan_lines(report)
    series = running_minor(report)
    with fonts.document(locale, _texts(report, locale)):
        story = [Bookmark("summary", _("Summary")), *summary_story(report, counted, locale)]
        for seat in range(1, len(report.players) + 1):
            statement = player_statement(report, seat, plan)
            story += [NextPageTemplate("statement"), PageBreak()]
            story += statement_story(report, statement, locale, series=series)
        return build(story, {"summary": page_size(report), "statement": PAGE}, title=report.name,
                     subject=_("Tonk night pack: {night}", night=report.name), locale=locale)


def render(kind: str, report: SessionReport | ReportSource, seat: int | None = None,
           locale: str = "en_US", language: str | None = None) -> tuple[bytes, str]:
    """``(pdf, file name)`` of ``kind``: ``"summary"``, ``"statement"`` (of ``seat``) or
    ``"pack"``, as the functions above render them, of ``report`` or of the report made from a
    :class:`~ledger.night.report_source.ReportSource` (what a worker of :mod:`ledger.statements.render_pool`
    runs), in ``language`` (a catalogue code such as ``"lo"``; the current language when
    None) with money and dates in ``locale``. The file name is the same in every language.
    Raises ``ValueError`` for another kind, else as the function of that kind."""
    if language is not None:
        with use_language(language, locale):
            return render(kind, report, seat, locale)
    if isinstance(report, ReportSource):
        report = report.shape()
    if kind == "pack":
        return render_night_pack(report, locale=locale), file_name(report, pack=True)
    if kind == "statement":
        if seat is None or not 1 <= seat <= len(report.players):
            raise IndexError(f"seat must be 1..{len(report.players)}, got {seat}")
        return render_player_statement(report, seat, locale=locale), file_name(report, report.players[seat - 1])
    if kind == "summary":
        return render_session_summary(report, locale=locale), file_name(report)
    raise ValueError(f"unknown kind of PDF {kind!r}")


_UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|]+')


PACK_SUFFIX = "pack"  # the same in every language, as the rest of a file name is


def file_name(report: SessionReport, player: str | None = None, *, pack: bool = False) -> str:
    """``<night name>-<date>.pdf`` for the summary, ``<night name>-<date>-<player>.pdf`` for a
    statement, ``<night name>-<date>-pack.pdf`` for the night pack (so that a phone keeps the
    summary and the pack side by side): the night's local date, any script kept, characters no
    file system accepts replaced. Send it with RFC 6266 ``filename*`` (the web layer does)."""
    parts = [report.name, day_of(report.created_at, report.timezone)]
    if player is not None:
        parts.append(player)
    elif pack:
        parts.append(PACK_SUFFIX)
    stem = "-".join(_UNSAFE.sub("_", unicodedata.normalize("NFC", p)).strip(" ._") or "night" for p in parts)
    return f"{stem[:150]}.pdf"
