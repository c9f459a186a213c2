"""Page numbers of the paged lists (the hand history, fifty hands a page; the log, fifty
changes a page), read from ``?page=``."""
from __future__ import annotations

PAST_ANY_PAGE = 10**9  # what a page number too long to be real reads as: the caller answers 404


def page_number(text: str | None) -> int:
    """``?page=`` as a page number: 1 when absent or not a number ("abc", "-1", "2.0", "²");
    :data:`PAST_ANY_PAGE` when it has more than eight digits (no night has that many pages,
    and the caller answers 404 as for any page past the last)."""
    if not text or not text.isdecimal():
        return 1
    return int(text) if len(text) <= 8 else PAST_ANY_PAGE
