"""The words ``static/*.js`` shows or reads aloud, in the reader's language.

Every page carries them as JSON (``base.html``: ``<script type="application/json" id="ui-words">``,
filled from the ``ui_words`` this module's context processor gives every template); ``app.js``
reads them with ``window.tonkWords(key, params)``, which the other scripts call.

Shapes (``ui_words()``):

- a sentence: ``key → "Hand {number} is kept on this phone…"``: the catalogue sentence with its
  ``{named}`` placeholders left for the script to fill;
- a counted sentence: ``key → {"one": "{count} waiting to send", "other": …}``: one form per
  CLDR plural category of the language (``Intl.PluralRules`` names the category on the phone;
  ``other`` is always there). Each form is the catalogue's ``ngettext`` for a number of that
  category, so the phone picks exactly the form the server would.

The service worker cannot read a page: ``offline-queue.js`` writes its offline page from these
words into the worker's page cache (``static/sw.js``).
"""
from __future__ import annotations

import functools
import itertools
from typing import Callable, Mapping, Union

from babel import Locale

from ledger.i18n import N_, PSEUDO, SOURCE, current_language, gettext, ngettext
from ledger.web.blueprint import bp

Words = dict[str, Union[str, dict[str, str]]]

SENTENCES: Mapping[str, str] = {
    # app.js
    "copied": N_("Copied ✓"),
    "card_held_by": N_("{name} has this card"),
    "card_held_by_another": N_("Another player has this card"),
    # live.js
    "offline": N_("Offline"),
    "live": N_("Live"),
    "not_live": N_("Not live"),
    "offline_retrying": N_("Offline, retrying…"),
    # offline-queue.js
    "hand": N_("Hand"),
    "hand_kept": N_("Hand {number} is kept on this phone and sent when the connection returns."),
    "hand_kept_payouts": N_("Hand {number} is kept on this phone; its payouts are shown when it is sent."),
    "payouts_when_sent": N_("You are offline: this hand is kept on this phone, and its payouts are shown when it is sent."),
    "hand_title": N_("Hand {number}: how did it end?"),
    "hand_number": N_("Hand {number}"),
    "hand_not_taken": N_("The server did not take this hand ({status}). Open it, check it and save it again."),
    "queue_sending": N_("Kept on this phone; sending them in order."),
    "queue_waiting": N_("Kept on this phone; they are sent in order when the connection returns."),
    "queue_item": N_("Hand {number} · {title}"),
    "fix_hand": N_("Fix and save hand {number}"),
    "discard_hand": N_("Discard hand {number}"),
    "discard_confirm": N_("Discard this kept hand? It was never recorded."),
    "offline_title": N_("Offline · Tonk Ledger"),
    "offline_heading": N_("You are offline"),
    "offline_text": N_("This page was not kept on this phone. Hands you save on a table you have opened are kept "
                       "on the phone and sent when the connection returns."),
    "offline_home": N_("Your nights"),
    # seats.js
    "seat": N_("Seat {number}"),
    # house-rules.js
    "rules_fix_first": N_("Fix the house rule marked above to see what these rules pay."),
    "rule_label": N_("{label}:"),
    "as_the_preset": N_("as the preset"),
    "joker_as": N_("Joker {card}"),
}

# The "{count}" (and any other placeholder) is kept for the script: a form is made with each
# placeholder filled with itself.
COUNTED: Mapping[str, Callable[[int], str]] = {
    "points": lambda n: ngettext("{count} pt", "{count} pts", n, count="{count}"),
    "waiting": lambda n: ngettext("{count} waiting to send", "{count} waiting to send", n, count="{count}"),
    "need_look": lambda n: ngettext("{count} needs a look", "{count} need a look", n, count="{count}"),
    "rules_changed": lambda n: ngettext("{count} changed", "{count} changed", n, count="{count}"),
    "preset_with_changes": lambda n: ngettext(
        "{preset}, with {count} house change", "{preset}, with {count} house changes", n,
        count="{count}", preset="{preset}"),
}

# numbers tried to find one of each plural category (es: "many" is a million and its multiples)
_SAMPLES = tuple(itertools.chain(range(0, 200), (1_000_000,)))


@functools.lru_cache(maxsize=None)
def plural_samples(code: str) -> tuple[tuple[str, int], ...]:
    """``(category, a whole number of that category)`` for each CLDR plural category of the
    language ``code`` (the pseudo language counts as English)."""
    locale = Locale.parse(SOURCE if code == PSEUDO else code.replace("-", "_"))
    found: dict[str, int] = {}
    for n in _SAMPLES:
        found.setdefault(locale.plural_form(n), n)
    found.setdefault("other", 2)
    return tuple(sorted(found.items()))


def counted_forms(make: Callable[[int], str], code: str) -> dict[str, str]:
    """One form per plural category: ``{"one": "{count} pt", "other": "{count} pts"}``."""
    return {category: make(sample) for category, sample in plural_samples(code)}


def _build(code: str) -> Words:
    words: Words = {key: gettext(text) for key, text in SENTENCES.items()}
    for key, make in COUNTED.items():
        words[key] = counted_forms(make, code)
    return words


@functools.lru_cache(maxsize=16)
def _cached(code: str) -> Words:
    return _build(code)


def forget() -> None:
    """Drop the words kept per language (after :func:`ledger.i18n.catalogs.forget`)."""
    _cached.cache_clear()


def ui_words() -> Words:
    """Every word the scripts use, in the current language (kept once per language)."""
    return _cached(current_language())


@bp.app_context_processor
def _words_context() -> dict[str, Words | str]:
    """``ui_words``, and ``ui_language``: the catalogue code they are in (``en-XA`` for the
    pseudo language, whose pages say ``lang="en"``), for the copies a phone keeps offline."""
    return {"ui_words": ui_words(), "ui_language": current_language()}
