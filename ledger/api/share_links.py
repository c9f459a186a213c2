"""The host's view of a table's secrets, as the API answers it (opening a night, ``/share``,
a club night opened by its owner)."""
from __future__ import annotations

from typing import Any

from flask import url_for

from ledger.access import roles as access
from ledger.storage.models import GameSession


def share_json(night: GameSession, host_token: str) -> dict[str, Any]:
    """The host's view of the table's secrets: tokens and join links per role, table code."""
    table = access.table_secrets(host_token, night.id)
    links = {role: url_for("web.join", session_id=night.id, token=table.for_role(role), _external=True)
             for role in access.ROLES}
    return {
        "table_url": links["host"],
        "player_token": table.player_token,
        "viewer_token": table.viewer_token,
        "table_code": table.table_code,
        "links": links,
    }
