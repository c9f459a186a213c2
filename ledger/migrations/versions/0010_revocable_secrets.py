"""club keys can be withdrawn: a removed member device, links and code renewed by the owner

``club_key`` gets ``revoked_at`` (nullable, timezone-aware UTC), as ``access_key`` has had
since the first revision: a withdrawn club token answers 401 ``token_revoked``, a withdrawn
club code is refused at ``POST /clubs/join``. Keys stored before are live.

Revision ID: 0010_revocable_secrets
Revises: 0009_payment_keys
Create Date: 2026-12-03
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ledger.storage.models import UTCDateTime

revision = '0010_revocable_secrets'
down_revision = '0009_payment_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('club_key', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revoked_at', UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('club_key', schema=None) as batch_op:
        batch_op.drop_column('revoked_at')
