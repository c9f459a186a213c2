"""seating and stake per hand, the night's roster, cash-out payments

Issue 13: players sit in and leave, the stake changes, seats get fixed during a night.
``hand.players`` (JSON list, seat order) and ``hand.stake_minor`` keep the seating and stake each
hand was played at; ``game_session.roster`` lists everyone who ever sat at the night;
``payment.kind`` tells a settle-up payment (``payment``) from a leaver's ``cash_out``.
Existing nights upgrade with every hand at the night's seating and stake, and a roster equal to
the seating.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added NOT NULL with a server default, then filled: no table is rebuilt, so SQLite keeps the
    # rows that reference these tables (a batch rebuild would drop game_session under its hands).
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('roster', sa.JSON(), server_default='[]', nullable=False))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('players', sa.JSON(), server_default='[]', nullable=False))
        batch_op.add_column(sa.Column('stake_minor', sa.BigInteger(), server_default='0', nullable=False))
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16),
                                      server_default='payment', nullable=False))

    op.execute("UPDATE game_session SET roster = players")
    op.execute(
        "UPDATE hand SET players = (SELECT game_session.players FROM game_session "
        "WHERE game_session.id = hand.session_id), stake_minor = (SELECT game_session.stake_minor "
        "FROM game_session WHERE game_session.id = hand.session_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_column('kind')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('stake_minor')
        batch_op.drop_column('players')
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_column('roster')
