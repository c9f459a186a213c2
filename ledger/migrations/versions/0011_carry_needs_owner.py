"""a member's night carries into the club only with the owner's say (issue 20 item 5)

``club`` gets ``carry_needs_owner`` (true for every club: the safe side); ``club_night`` gets
``host_role`` (the club role that started it; nights before: null, read as the owner's),
``carry_state`` (null, ``pending``, ``carried``, ``uncarried``) and ``carried_by``;
``club_carry`` gets ``kind`` (``carry``, or ``reversal`` for an owner's undoing) and
``reverses`` (the carry row a reversal cancels). Rows stored before are carries.

Revision ID: 0011_carry_needs_owner
Revises: 0009_payment_keys
Create Date: 2026-12-03
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0011_carry_needs_owner'
down_revision = '0009_payment_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(sa.Column('carry_needs_owner', sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table('club_night', schema=None) as batch_op:
        batch_op.add_column(sa.Column('host_role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
        batch_op.add_column(sa.Column('carry_state', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
        batch_op.add_column(sa.Column('carried_by', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
    with op.batch_alter_table('club_carry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=16), nullable=False, server_default='carry'))
        batch_op.add_column(sa.Column('reverses', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('club_carry', schema=None) as batch_op:
        batch_op.drop_column('reverses')
        batch_op.drop_column('kind')
    with op.batch_alter_table('club_night', schema=None) as batch_op:
        batch_op.drop_column('carried_by')
        batch_op.drop_column('carry_state')
        batch_op.drop_column('host_role')
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('carry_needs_owner')
