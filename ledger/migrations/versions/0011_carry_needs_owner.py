"""a member's night carries into the club only with the owner's say (issue 20 item 5)

``club`` gets ``carry_needs_owner`` (true for every club: the safe side); ``club_night`` gets
``host_role`` (the club role that started it; nights before: null, read as the owner's),
``carry_state`` (null, ``pending``, ``carried``, ``uncarried``) and ``carried_by``;
``club_carry`` gets ``kind`` (``carry``, or ``reversal`` for an owner's undoing) and
``reverses`` (the carry row a reversal cancels). Rows stored before are carries.

Revision ID: 0011_carry_needs_owner
Revises: 0010_revocable_secrets
Create Date: 2026-12-03
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0011_carry_needs_owner'
down_revision = '0010_revocable_secrets'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD/DROP COLUMN (SQLite >= 3.35 has both): a batch copy of ``club``
    # would drop a table other tables' foreign keys point at
    op.add_column('club', sa.Column('carry_needs_owner', sa.Boolean(), nullable=False, server_default=sa.true()))
    op.add_column('club_night', sa.Column('host_role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
    op.add_column('club_night', sa.Column('carry_state', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
    op.add_column('club_night', sa.Column('carried_by', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
    op.add_column('club_carry', sa.Column('kind', sa.String(length=16), nullable=False, server_default='carry'))
    op.add_column('club_carry', sa.Column('reverses', sa.Integer(), nullable=True))


def downgrade() -> None:
    for table, column in (('club_carry', 'reverses'), ('club_carry', 'kind'), ('club_night', 'carried_by'),
                          ('club_night', 'carry_state'), ('club_night', 'host_role'), ('club', 'carry_needs_owner')):
        op.drop_column(table, column)
