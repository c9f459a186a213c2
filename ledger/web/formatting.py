"""Template filters: money in the session's currency, cards with suit symbols, times, table
codes in groups, names joined the reader's way and short names of phones for the history.

Display only. Amounts are ``int`` minor units and go through :func:`ledger.money.format_minor`;
dates and times through Babel in the request's locale; words through :mod:`ledger.i18n`.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

from babel.dates import format_date, format_datetime
from flask import has_request_context, request
from jinja2 import pass_context
from markupsafe import Markup
from jinja2.runtime import Context

from ledger.access import devices
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.i18n.sentences import names_text
from ledger.sentences import Sentence
from ledger.storage.models import GameSession
from ledger.money import format_minor, format_plain, format_typed, is_points
from ledger.games.tonk import Card, InvalidCard
from ledger.web.blueprint import bp
from ledger.night.zones import zone
from ledger.web.language import format_locale_now


def money(amount_minor: int, currency: str) -> str:
    """``money(75, "USD") == "$0.75"`` in the app's ``LOCALE``."""
    return format_minor(int(amount_minor), currency, format_locale_now())


@bp.app_template_test("points")
def points_test(currency: str) -> bool:
    """``{% if night.currency is points %}``: a night or club kept in points (issue 25)."""
    return is_points(currency)


@bp.app_template_filter("money")
def money_filter(amount_minor: int, currency: str) -> str:
    return money(amount_minor, currency)


@bp.app_template_filter("signed_money")
def signed_money(amount_minor: int, currency: str) -> str:
    """``+$0.75``, ``-$0.25``, ``$0.00``: a balance with an explicit sign."""
    text = money(amount_minor, currency)
    return f"+{text}" if amount_minor > 0 else text


@bp.app_template_filter("plain_money")
def plain_money(amount_minor: int, currency: str) -> str:
    """``"5.25"``: an amount as a form value that :func:`ledger.money.parse_amount` reads back."""
    return format_plain(int(amount_minor), currency)


@bp.app_template_filter("typed_money")
def typed_money(amount_minor: int, currency: str) -> str:
    """An amount prefilled in a visible input, as the reader types it: ``"7,40"`` in Turkish
    (as the money shown beside it, ``"₺7,40"``), ``"7.40"`` in English; read back by
    :func:`ledger.money.parse_amount` (:func:`ledger.money.format_typed`)."""
    return format_typed(int(amount_minor), currency, format_locale_now())


@bp.app_template_filter("names")
def join_names(names: list[str] | tuple[str, ...]) -> str:
    """``["Dee", "Rosa", "Marcus"]`` → ``"Dee, Rosa and Marcus"`` joined as the reader's
    language joins a list; ``"nobody"`` (in that language) for none."""
    items = [str(n) for n in names]
    return names_text(items) if items else _("nobody")


def engine_words(text: str | Sentence) -> str:
    """Words the rules engine hands out (a preset's title, an outcome's name, a rule line) in
    the reader's language: a :class:`~ledger.sentences.Sentence` is rendered, a plain
    ``N_``-marked string is looked up in the catalogue (unknown text stays as it is)."""
    if isinstance(text, Sentence):
        return str(text)
    return _(str(text)) if text else ""


@bp.app_template_filter("tone")
def tone(amount_minor: int) -> str:
    """CSS class of a signed amount: ``pos``, ``neg`` or ``zero``."""
    return "pos" if amount_minor > 0 else "neg" if amount_minor < 0 else "zero"


@bp.app_template_filter("card")
def pretty_card(text: str) -> str:
    """``"QD"`` → ``"Q♦"``; text that is not a card is shown as typed."""
    try:
        return Card.parse(text).pretty()
    except InvalidCard:
        return str(text)


@bp.app_template_filter("red_card")
def is_red(text: str) -> bool:
    try:
        return Card.parse(text).suit in ("H", "D")
    except InvalidCard:
        return False


@bp.app_template_filter("code_groups")
def code_groups(code: str) -> str:
    """``"K7QM2X"`` → ``"K7Q M2X"``: a table code in two groups, easy to read aloud."""
    text = str(code)
    return f"{text[:3]} {text[3:]}" if len(text) == 6 else text


@bp.app_template_filter("iso")
def iso_time(moment: datetime) -> str:
    """A stored time as ISO 8601 in UTC (for ``<time datetime>``; the phone shows it local)."""
    return _utc(moment).isoformat(timespec="seconds").replace("+00:00", "Z")


@bp.app_template_filter("clock")
@pass_context
def clock(context: Context, moment: datetime) -> str:
    """``"Fri 23:30 PST"``: the time in the zone of the page's ``night`` (UTC on a page without
    one), naming the zone, as pages without JavaScript show it; ``live.js`` rewrites it in the
    phone's own zone."""
    night = context.get("night") or _night_of_request()
    return local_clock(moment, getattr(night, "timezone", None))


@bp.app_template_filter("day")
def day(value: str | date) -> str:
    """``"2026-12-01"`` (or a date, or an ISO time whose day is meant) as the reader writes a day:
    ``"Dec 1, 2026"`` in English, ``"1 Ara 2026"`` in Turkish (Babel's medium date)."""
    when = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    return format_date(when, "medium", locale=format_locale_now())


@bp.app_template_global("day_tag")
def day_tag(value: str | date) -> Markup:
    """:func:`day` inside ``<time datetime="2026-12-01">``, for a sentence's parameter."""
    when = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    return Markup('<time datetime="{}">{}</time>').format(when.isoformat(), day(when))


@bp.app_template_filter("night_date")
def night_date(moment: datetime, night: GameSession) -> str:
    """``"Fri 5 Dec 2025"``: the day a night started, in its own zone (the Nights list)."""
    locale = format_locale_now()
    return format_datetime(_utc(moment), "EEE d MMM y", tzinfo=zone(night.timezone), locale=locale)


def _night_of_request() -> GameSession | None:
    """The night whose page this is (macros imported without context do not see ``night``);
    already in the request's session, so no query is made."""
    session_id = (request.view_args or {}).get("session_id") if has_request_context() else None
    return get_session().get(GameSession, session_id) if isinstance(session_id, str) else None


def local_clock(moment: datetime, zone_name: str | None) -> str:
    """``local_clock(t, "America/Los_Angeles") == "Fri 23:30 PST"`` (Babel, the app's ``LOCALE``)."""
    locale = format_locale_now()
    return format_datetime(_utc(moment), "EEE HH:mm zzz", tzinfo=zone(zone_name), locale=locale)


def _utc(moment: datetime) -> datetime:
    # stored times come back aware (ledger.storage.models.UTCDateTime); a naive one is taken as UTC
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


@bp.app_template_filter("phone_label")
def phone_label(device: str | None) -> str:
    """A short name for the phone that did something: ``"Android · Chrome"`` from a browser's
    user-agent string (:func:`ledger.access.devices.describe`; "Browser" in the reader's words
    for one it cannot tell); a name the phone joined with (``"Bo's phone"``) or an API client's
    ``X-Device`` is shown as it is; nothing for the server itself (``"system"``)."""
    text = (device or "").strip()
    if text in ("", "system"):
        return ""
    if not devices.looks_like_user_agent(text):
        return text[:40]
    return devices.describe(text) or _("Browser")


@bp.app_template_filter("syllables")
def syllables(value: str) -> Markup:
    """``value`` escaped, and where it holds a script written without spaces (Lao, Thai, Khmer,
    Myanmar) cut into unbreakable pieces at ICU's line break opportunities
    (:func:`ledger.statements.breaks.segments`) with a ``<wbr>`` between them, so a narrow table
    header breaks between syllables and words, never inside one: the browser's own dictionary
    may differ, and ``overflow-wrap: anywhere`` would cut anywhere."""
    from markupsafe import escape

    from ledger.statements.breaks import needs_breaking, segments

    if not needs_breaking(value):
        return escape(value)
    return Markup("<wbr>").join(Markup('<span class="unbroken">{}</span>').format(piece)
                                for piece in segments(value))
