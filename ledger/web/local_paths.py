"""Where a page may send a phone on to: a path on this site, never another site.

The language switch's ``next`` and a kept form's ``rejoin_next`` come from the address or the
form, so anyone can write them. A path is taken only when it is one a browser reads as a path
here: it starts with one ``/`` (not ``//host``), names no scheme or host, and holds no
backslash (browsers read ``/\\host`` as ``//host``) and no control character (CR and LF would
end the ``Location`` header; tabs and newlines are dropped by browsers, so ``/\\t/host`` is
``//host``), nor a Unicode line or paragraph separator.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

_REFUSED = re.compile(r"[\x00-\x1f\x7f-\x9f\\\u2028\u2029]")


def local_path(target: object) -> str | None:
    """``target`` when it is a path on this site (see the module docstring), else ``None``."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//"):
        return None
    if _REFUSED.search(target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target
