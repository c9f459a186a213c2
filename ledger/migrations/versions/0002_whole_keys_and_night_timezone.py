"""whole idempotency keys and the night's time zone

Issue 7: ``hand.idempotency_key`` widens from 80 to 200 characters (keys are stored whole or
refused, never cut); ``game_session.timezone`` holds the IANA zone of the phone that started
the night (existing nights get ``UTC``). Datetime columns keep their SQL type: reading them
back as aware UTC is done by ``ledger.storage.models.UTCDateTime``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timezone', sqlmodel.sql.sqltypes.AutoString(length=64),
                                      server_default='UTC', nullable=False))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.alter_column('idempotency_key',
                              existing_type=sqlmodel.sql.sqltypes.AutoString(length=80),
                              type_=sqlmodel.sql.sqltypes.AutoString(length=200),
                              existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.alter_column('idempotency_key',
                              existing_type=sqlmodel.sql.sqltypes.AutoString(length=200),
                              type_=sqlmodel.sql.sqltypes.AutoString(length=80),
                              existing_nullable=True)
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_column('timezone')
