"""Sharing a table (host only): the players' join link as a QR code, the short table code to
type at ``/join``, and a watch-only (viewer) link. The host's own token is never shown: the
links and the code are derived from it (:mod:`ledger.access.roles`).

The QR code is drawn by segno as inline SVG. The SVG holds only the module paths (no text
from the link), so it is safe to put in the page as it is.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import segno
from flask import render_template, url_for
from markupsafe import Markup

from ledger.access.roles import Actor
from ledger.storage.models import GameSession
from ledger.web.access import authorised, host_secrets
from ledger.web.blueprint import bp

SHARED_ROLES = ("player", "viewer")


def qr_svg(text: str) -> Markup:
    """``text`` as a QR code: black on white with the standard quiet zone, sized by CSS
    through its ``viewBox`` (medium error correction survives a scratched screen)."""
    return Markup(_drawn(text))  # noqa: S704 - segno output: module paths only, no input text


@lru_cache(maxsize=512)
def _drawn(text: str) -> str:
    """The SVG of :func:`qr_svg`, kept per link: drawing a code takes ~20 ms (segno tries all
    eight masks), and the host's table page shows two on every load. A link is as secret as
    the page it was drawn for; a revoked one is no longer asked for and ages out."""
    code = segno.make(text, error="m")
    return str(code.svg_inline(omitsize=True, border=4, dark="#000", light="#fff", svgclass="qr-svg",
                               lineclass=None))


def share_context(night: GameSession, actor: Actor) -> dict[str, Any] | None:
    """The join links (player, viewer), their QR codes and the table code, for the host's
    phone; ``None`` for every other role."""
    secrets = host_secrets(night, actor)
    if secrets is None:
        return None
    links = {role: url_for("web.join", session_id=night.id, token=secrets.for_role(role), _external=True)
             for role in SHARED_ROLES}
    return {
        "links": links,
        "qr": {role: qr_svg(link) for role, link in links.items()},
        "code": secrets.table_code,
        "join_url": url_for("web.join_code", _external=True),
    }


@bp.get("/s/<session_id>/share")
def share(session_id: str) -> Any:
    """A page to hold up at the table: the QR code, the code in big type, both links."""
    night, actor = authorised(session_id, "share")
    response = render_template("share.html", night=night, actor=actor, share=share_context(night, actor))
    return response, 200, {"Cache-Control": "no-store"}
