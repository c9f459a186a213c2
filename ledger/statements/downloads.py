"""PDF downloads of a night: summary, one player's statement, the night pack.

What the report model is made from is read in one short transaction
(:func:`ledger.night.reads.report_source`), the transaction is ended, and only then is the
report made and the PDF rendered, off the request threads in a small worker pool
(:mod:`ledger.statements.render_pool`), so rendering never holds a database lock or slows other
phones' hand entry. A second request for a PDF being rendered joins that render. Rendered PDFs
are cached in this process, keyed by the night's version (its latest audit event: every hand,
void, correction, payment and close writes one) plus what was asked for, so a second download
of an unchanged night is served from memory. A render that takes longer than ``PDF_TIMEOUT``
seconds, or a download while ``PDF_WAITERS`` others already wait, is 503 ``pdf_busy`` (with
``Retry-After``); the render goes on and asking again is answered from the cache. File names read ``<night name>-<date>.pdf`` in any script, sent as RFC 6266
``filename*`` with an ASCII fallback; the name is the same in every language.

Each PDF is written in the reader's language: the request's (:mod:`ledger.web.language`:
``?lang=``, the ``lang`` cookie, ``Accept-Language``), with money and dates in its Babel locale.
The language code and the locale go to the worker with the job (a worker process has no
request), which renders inside ``use_language``; both are part of the cache key, so a PDF in
one language is never served for a request in another.
"""
from __future__ import annotations

import dataclasses
import hashlib
import threading
import re
import unicodedata
from collections import OrderedDict
from urllib.parse import quote

from flask import Response, current_app
from sqlalchemy import func
from sqlmodel import Session, select

from ledger.i18n import LANGUAGES, N_, PSEUDO, SOURCE, current_language, known
from ledger.storage.models import AuditEvent, GameSession, Hand
from ledger.night.lifecycle import NightError
from ledger.night.reads import report_source
from ledger.statements.render_pool import Busy, pool
from ledger.statements import render
from ledger.night.timeline import seat_order

CACHE_BYTES = 64 * 1024 * 1024
RETRY_AFTER_S = 5

KINDS = ("summary", "statement", "pack")


class PdfCache:
    """A bounded in-memory LRU of rendered PDFs (bytes and file name) by key."""

    def __init__(self, limit_bytes: int = CACHE_BYTES) -> None:
        self.limit = limit_bytes
        self._items: OrderedDict[tuple, tuple[bytes, str]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[bytes, str] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple, item: tuple[bytes, str]) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = item
            self._size += len(item[0])
            while self._size > self.limit and len(self._items) > 1:
                _key, (old, _name) = self._items.popitem(last=False)
                self._size -= len(old)


CACHE = PdfCache()


def night_version(db: Session, night: GameSession) -> tuple[int, int]:
    """Changes whenever anything a statement shows changes: (latest audit event id, stored
    hand versions)."""
    last = db.exec(select(func.max(AuditEvent.id)).where(AuditEvent.session_id == night.id)).one()
    hands = db.exec(select(func.count()).select_from(Hand).where(Hand.session_id == night.id)).one()
    return int(last or 0), int(hands or 0)


def locale_for(language: str) -> str:
    """The Babel locale of money and dates in ``language`` (a catalogue code): the language's
    own (``"tr_TR"``), the app's ``LOCALE`` for English and the pseudo language."""
    known = LANGUAGES.get(language)
    if known is None or language in (SOURCE, PSEUDO):
        return str(current_app.config.get("LOCALE", "en_US"))
    return known.format_locale


def season_language(member: object | None) -> tuple[str, str]:
    """``(language, locale)`` of a club's season PDF: the member's own language when they have
    one (``ClubMember.language``, a catalogue code, added by migration 0006), else the request's;
    the locale as :func:`locale_for`. ``member`` None: the request's (the club summary)."""
    language = known(getattr(member, "language", None)) or current_language()
    return language, locale_for(language)


def statement_pdf(db: Session, night: GameSession, kind: str, *, seat: int | None = None,
                  locale: str | None = None, recovery_code: str = "",
                  language: str | None = None) -> tuple[bytes, str]:
    """``(pdf bytes, file name)`` of ``kind`` ("summary", "statement" with ``seat``, "pack").

    Written in ``language`` (a catalogue code; the request's language when None) with money and
    dates in ``locale`` (a Babel locale; the language's, see :func:`locale_for`, when None).

    ``recovery_code`` is given only for the host's own download: the summary (alone or at the
    head of the pack) then prints it. Ends ``db``'s transaction before rendering. Raises :class:`NightError` 404
    ``seat_not_found`` (field ``seat``) for a seat outside ``1..n``, where the seats are
    numbered in :func:`ledger.night.timeline.seat_order` (those seated now, then those who left);
    503 ``pdf_busy`` (with ``retry_after``, seconds) when the render takes longer than
    ``PDF_TIMEOUT`` or ``PDF_WAITERS`` downloads wait already (the render goes on).
    """
    seats = len(seat_order(night))  # the seated, then those who left (statements "as of hand N")
    if kind == "statement" and (seat is None or not 1 <= seat <= seats):
        raise NightError(404, "seat_not_found", N_("This night has seats 1 to {seats}; there is no seat {seat}."),
                         "seat", None, seats=seats, seat=seat)
    language = language or current_language()
    locale = locale or locale_for(language)
    key = (night.id, kind, seat, language, locale, recovery_code, *night_version(db, night))
    db.commit()  # no transaction stays open while the request waits for a render
    cached = CACHE.get(key)
    if cached is not None:
        return cached

    def report_to_render() -> tuple[object, ...]:
        """What the report is made from, read in one short transaction that is then ended
        (nothing after it touches the database); the worker makes the report and renders it."""
        source = report_source(db, night)
        db.commit()
        if recovery_code:
            source = dataclasses.replace(source, recovery_code=recovery_code)
        return kind, source, seat, locale, language

    try:
        return pool().render(key, render, report_to_render, keep=lambda item: CACHE.put(key, item),
                             kept=lambda: CACHE.get(key), timeout=current_app.config["PDF_TIMEOUT"])
    except Busy:
        raise NightError(503, "pdf_busy", N_("The PDF is still being made; ask for it again in a few seconds."),
                         None, {"retry_after": RETRY_AFTER_S}) from None


# letters that no decomposition turns into ASCII, spelled as their languages' readers would
_SPELLED = str.maketrans({"ı": "i", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "đ": "d", "Đ": "D",
                          "ł": "l", "Ł": "L", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"})


def content_disposition(name: str) -> str:
    """RFC 6266: an ASCII ``filename`` fallback and the exact name as ``filename*`` UTF-8.

    The fallback keeps what has an ASCII spelling (``İsmail Şık`` → ``Ismail Sik``). Where
    letters of another script had to be left out (a Lao night, a Malayalam player's statement),
    six characters of a hash of the whole name are added, so that two files whose names differ
    only in those letters never share a fallback (a statement and the summary, two players)."""
    spelled = unicodedata.normalize("NFKD", name.translate(_SPELLED))
    lost = any(not c.isascii() and unicodedata.category(c)[0] in "LN" for c in spelled)
    ascii_name = spelled.encode("ascii", "ignore").decode("ascii")
    ascii_name = "".join(c if c.isalnum() or c in "-_. " else "_" for c in ascii_name).strip()
    ascii_name = re.sub(r"\s{2,}", " ", re.sub(r"\s*_[\s_]*", "_", ascii_name))
    stem = ascii_name[:-len(".pdf")] if ascii_name.endswith(".pdf") else ascii_name
    # words in another script leave nothing: no dash stands where they stood
    stem = "-".join(part for part in re.split(r"[-_. ]*-[-_. ]*", stem) if part.strip("_. ")).strip("-_. ")
    if not any(c.isalpha() for c in stem):
        stem = f"tonk-{stem}" if stem else "tonk"
    if lost:
        stem += "-" + hashlib.sha256(name.encode()).hexdigest()[:6]
    ascii_name = stem + ".pdf"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def pdf_response(pdf: bytes, name: str) -> Response:
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition(name)
    return response
