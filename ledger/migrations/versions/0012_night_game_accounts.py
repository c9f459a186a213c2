"""a night has a game, the state its next hand is scored from, and accounts (issue 21 item 3)

``game_session`` gets ``game`` (every night before is Tonk: server default ``'tonk'``) and
``game_state`` (JSON, null for a game without state: every night before); ``night_account`` holds
one row per account per night of a game with accounts (Tong-its' ``"pot"``), its balance in minor
units.

Revision ID: 0012_night_game_accounts
Revises: 0011_carry_needs_owner
Create Date: 2026-12-04
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0012_night_game_accounts'
down_revision = '0011_carry_needs_owner'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN: a batch copy of ``game_session`` would drop a table other
    # tables' foreign keys point at
    op.add_column('game_session', sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False,
                                            server_default='tonk'))
    op.add_column('game_session', sa.Column('game_state', sa.JSON(), nullable=True))
    op.create_table(
        'night_account',
        sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('account', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('balance_minor', sa.BigInteger(), nullable=False, server_default='0'),
        sa.ForeignKeyConstraint(['session_id'], ['game_session.id']),
        sa.PrimaryKeyConstraint('session_id', 'account'),
    )


def downgrade() -> None:
    op.drop_table('night_account')
    op.drop_column('game_session', 'game_state')
    op.drop_column('game_session', 'game')
