"""club members' name keys fold the Turkish dotted İ and dotless ı into i

``club_member.name_key`` was the NFC, casefolded name, so "Ali" and "ALİ" (or "Alı") were two
members. :func:`ledger.names.name_key` now reads İ and ı as i; this revision works every key out
again with it. A member whose new key another member of the club already has keeps the key it
had (both stay the members they were: nothing is merged, no balance moves).

The keys are worked out here with a copy of the rule as it is at this revision, so that later
changes to :mod:`ledger.names` do not change what this revision did.

Revision ID: 0007_dotted_i_name_keys
Revises: 0006_member_language
Create Date: 2026-12-01
"""
from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op


revision = '0007_dotted_i_name_keys'
down_revision = '0006_member_language'
branch_labels = None
depends_on = None

MEMBERS = sa.table('club_member', sa.column('id', sa.Integer), sa.column('club_id', sa.String),
                   sa.column('name', sa.String), sa.column('name_key', sa.String))


def _key(name: str) -> str:
    folded = unicodedata.normalize("NFC", name).strip().casefold()
    return unicodedata.normalize("NFC", folded.replace("i\u0307", "i").replace("ı", "i"))


def _old_key(name: str) -> str:
    return unicodedata.normalize("NFC", name).strip().casefold()


def _rekey(key_of: object) -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(MEMBERS.c.id, MEMBERS.c.club_id, MEMBERS.c.name, MEMBERS.c.name_key)
                              .order_by(MEMBERS.c.club_id, MEMBERS.c.id)).all()
    taken: dict[str, set[str]] = {}
    for row in rows:  # every key a member keeps, so that a new key never takes one of them
        taken.setdefault(row.club_id, set()).add(row.name_key)
    for row in rows:  # oldest member first: the first to want a key gets it
        wanted = key_of(row.name)  # type: ignore[operator]
        if wanted == row.name_key or wanted in taken[row.club_id]:
            continue
        taken[row.club_id].discard(row.name_key)
        taken[row.club_id].add(wanted)
        connection.execute(MEMBERS.update().where(MEMBERS.c.id == row.id).values(name_key=wanted))


def upgrade() -> None:
    _rekey(_key)


def downgrade() -> None:
    _rekey(_old_key)
