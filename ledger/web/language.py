"""Which language a phone reads, and the switch on every page.

Chosen per request, first match wins: ``?lang=`` (PDF links, a shared link), the ``lang`` cookie
the switch sets (remembered per phone for a year), then ``Accept-Language``; English otherwise.
A page opened with ``?lang=`` sets the same cookie (issue 23 item 1): ``/?lang=lo`` makes the
start form, the night it starts (its default name too) and every later page Lao on that phone,
until another ``?lang=`` or the switch. Only pages and redirects remember it: a PDF, CSV or JSON
answer in another language (a statement for someone else) leaves the phone's language alone.
Flask-Babel is told the same choice (its ``get_locale``, formats); sentences go through
:mod:`ledger.i18n`, whose context variable is set here before every request.

Templates get ``_``, ``gettext``, ``ngettext`` and ``pgettext`` that escape the sentence and
its parameters (``{{ _("Hand {number} recorded", number=n) }}``), ``lang`` and ``languages``.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, abort, current_app, redirect, request
from flask_babel import Babel
from markupsafe import Markup, escape

from ledger.i18n import LANGUAGES, PSEUDO, SOURCE, current_language, known, set_language
from ledger.i18n.catalogs import TRANSLATIONS_DIR, translations
from ledger.web.blueprint import bp
from ledger.web.local_paths import local_path

COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


def _allow_pseudo() -> bool:
    return bool(current_app.config.get("I18N_PSEUDO"))


def choose_language() -> str:
    """The catalogue code for this request (``"en"``, ``"lo"``, …; ``"en-XA"`` in pseudo tests)."""
    pseudo = _allow_pseudo()
    for tag in (request.args.get("lang"), request.cookies.get(COOKIE)):
        code = known(tag, pseudo=pseudo)
        if code:
            return code
    # the phone's languages best first ("fil-PH, en;q=0.8" is Filipino): the first one we speak
    for tag, quality in request.accept_languages:
        code = known(tag, pseudo=pseudo) if quality > 0 else None
        if code:
            return code
    return SOURCE


def _format_locale_for(code: str) -> str:
    lang = LANGUAGES.get(code)
    if lang is None or code == SOURCE:
        return str(current_app.config.get("LOCALE", "en_US"))
    return lang.format_locale


def format_locale_now() -> str:
    """The Babel locale of the running request (the app's ``LOCALE`` for English)."""
    return _format_locale_for(current_language())


def _before() -> None:
    code = choose_language()
    set_language(code, _format_locale_for(code))


def _after(_error: BaseException | None = None) -> None:
    """Back to the source language once the request is over (a test client runs requests in
    the test's own context: the next request, or the test itself, starts from English)."""
    set_language(SOURCE)


def _remember(response: Response) -> Response:
    """A page asked for with a known ``?lang=`` other than the phone's cookie remembers it for
    the phone (the ``lang`` cookie, as :func:`switch_language` sets it): pages (``text/html``)
    and redirects only, never a download or an API answer, nor the copies the phone keeps for
    offline (``X-Offline-Copy``: asked in the page's own language, which the phone may read by
    its settings rather than by choice)."""
    asked = request.args.get("lang")
    if not asked or request.headers.get("X-Offline-Copy"):
        return response
    page = response.mimetype == "text/html" or 300 <= response.status_code < 400
    code = known(asked, pseudo=_allow_pseudo())
    if page and code and code != request.cookies.get(COOKIE):
        _set_cookie(response, code)
    return response


def _set_cookie(response: Response, code: str) -> None:
    response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", secure=request.is_secure,
                        httponly=True)


def _vary(response: Response) -> Response:
    """Caches keep one copy per language; the answer says which language it is in."""
    response.vary.update(("Accept-Language", "Cookie"))  # one rewrite of the header, not two
    if current_language() != PSEUDO:
        response.headers.setdefault("Content-Language", current_language())
    return response


def _markup(text: str, source: str, params: dict[str, Any]) -> Markup:
    template = Markup(escape(text))
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return Markup(escape(source)).format(**params)


def markup_gettext(message: str, /, **params: Any) -> Markup:
    """Template ``_``: the sentence escaped, its parameters escaped unless already markup."""
    return _markup(translations(current_language()).gettext(message), message, params)


def markup_ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Markup:
    params.setdefault("count", count)
    text = translations(current_language()).ngettext(singular, plural, count)
    return _markup(text, singular if count == 1 else plural, params)


def markup_pgettext(context: str, message: str, /, **params: Any) -> Markup:
    return _markup(translations(current_language()).pgettext(context, message), message, params)


def _safe_next(target: str | None) -> str:
    """Only a path on this site (:func:`ledger.web.local_paths.local_path`: never ``//evil``,
    ``https://…``, a backslash or a CR/LF); the home page otherwise."""
    return local_path(target) or "/"


@bp.get("/language/<code>")
def switch_language(code: str) -> Any:
    """Remember ``code`` for this phone and go back to ``next`` (a path on this site)."""
    chosen = known(code, pseudo=_allow_pseudo())
    if chosen is None:
        abort(404)
    response = redirect(_safe_next(request.args.get("next")), code=303)
    _set_cookie(response, chosen)
    return response


def _context() -> dict[str, Any]:
    return {
        "lang": current_language() if current_language() != PSEUDO else "en",
        "languages": list(LANGUAGES.values()),
        "here": request.full_path.rstrip("?") if request else "/",
    }


def init_app(app: Flask) -> None:
    Babel(app, configure_jinja=False, locale_selector=lambda: format_locale_now(),
          default_translation_directories=str(TRANSLATIONS_DIR))
    app.before_request(_before)
    app.after_request(_vary)
    app.after_request(_remember)
    app.teardown_request(_after)
    app.context_processor(_context)
    app.jinja_env.globals.update(
        _=markup_gettext, gettext=markup_gettext, ngettext=markup_ngettext, pgettext=markup_pgettext,
    )
