"""What a phone is called (issue 23 item 8): the name it chose when it joined ("Bo's phone"),
else what its browser says it is, told the way people name phones ("Android · Chrome", from the
user-agent string read by ``ua-parser``, Browserscope's rules), never a raw user agent.

* :func:`describe` turns a user-agent string into ``"<system> · <browser>"``.
* :func:`phone_name` is the label a joining phone is stored with (``AccessKey.label``,
  ``ClubKey.label``): its chosen name, cleaned like every other name (:func:`ledger.names.clean_name`,
  at most :data:`MAX_PHONE_NAME` characters), else :func:`describe` of its browser.
* :func:`shown` is a stored label as the phones list shows it (labels kept from before this
  change hold the raw user agent: they are described when read).

Brand names are the same in every language, so a label is stored once and read by everyone.
"""
from __future__ import annotations

from functools import lru_cache

import ua_parser

from ledger.games.errors import HandError
from ledger.i18n import N_
from ledger.names import clean_name, normalise_name

MAX_PHONE_NAME = 40
TOO_LONG = N_("A phone’s name can be at most {most} characters.")
NAME_FIELD = "name"
# how ua-parser names browsers and systems, and how people at a table call them
_BROWSERS = {"Chrome Mobile": "Chrome", "Chrome Mobile iOS": "Chrome", "Chrome Mobile WebView": "Chrome WebView",
             "Mobile Safari": "Safari", "Mobile Safari UI/WKWebView": "Safari", "Firefox Mobile": "Firefox",
             "Firefox iOS": "Firefox", "Edge Mobile": "Edge", "Opera Mobile": "Opera", "HeadlessChrome": "Chrome",
             "Chromium": "Chromium"}
_SYSTEMS = {"Mac OS X": "Mac", "Chrome OS": "ChromeOS", "Ubuntu": "Linux"}
_APPLE_DEVICES = ("iPhone", "iPad", "iPod")


@lru_cache(maxsize=256)
def describe(user_agent: str | None) -> str:
    """``"Android · Chrome"`` for a phone's user-agent string (``"iPhone · Safari"``,
    ``"Windows · Edge"``); only the part known when the other is not (``"curl"``); ``""`` when
    nothing is known (an empty string, a made-up agent)."""
    text = (user_agent or "").strip()
    if not text:
        return ""
    parsed = ua_parser.parse(text[:512])
    browser = parsed.user_agent.family if parsed.user_agent and parsed.user_agent.family != "Other" else ""
    browser = _BROWSERS.get(browser, browser)
    system = parsed.os.family if parsed.os and parsed.os.family != "Other" else ""
    device = parsed.device.family if parsed.device else ""
    if system == "iOS":
        system = next((d for d in _APPLE_DEVICES if device.startswith(d)), "iPhone")
    system = _SYSTEMS.get(system, system)
    return " · ".join(part for part in (system, browser) if part)


def looks_like_user_agent(label: str) -> bool:
    """Whether a stored label is a browser's raw user-agent string (``Mozilla/5.0 (…``)."""
    return label.startswith("Mozilla/")


def shown(label: str | None) -> str:
    """A stored phone label as people read it: a raw user agent described (:func:`describe`),
    anything else (a chosen name, an API client's ``X-Device``) as it is."""
    text = (label or "").strip()
    if looks_like_user_agent(text):
        return describe(text) or text[:40]
    return text


def clean_phone_name(name: str | None, field: str = NAME_FIELD) -> str:
    """A phone's chosen name, cleaned like a player's (:func:`ledger.names.clean_name`): ``""``
    when none was given (``None`` or only spaces). Raises :class:`~ledger.games.errors.HandError`
    ``invalid_entry`` naming ``field`` for a name (its runs of spaces made one) longer than :data:`MAX_PHONE_NAME` characters
    or holding control or invisible characters."""
    if name is None or not name.strip():
        return ""
    cleaned = normalise_name(" ".join(name.split()))
    if len(cleaned) > MAX_PHONE_NAME:
        raise HandError("invalid_entry", TOO_LONG, field, most=MAX_PHONE_NAME)
    return clean_name(cleaned, field, MAX_PHONE_NAME)


def phone_name(name: str | None, user_agent: str | None, fallback: str = "phone", field: str = NAME_FIELD) -> str:
    """The label a joining phone is stored with: its chosen ``name`` cleaned
    (:func:`clean_phone_name`, raising as it does), else :func:`describe` of ``user_agent``,
    else ``fallback``."""
    return clean_phone_name(name, field) or shown(user_agent) or fallback
