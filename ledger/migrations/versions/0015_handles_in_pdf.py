"""a player may show their payment handles in their statement PDF (issue 22)

``player_figures.handles_in_pdf``: the player's own opt-in, false for every row before (a
player's handles are never in a PDF unless they ticked it); ``player_figures.handles_key_id``: the
access key (phone) that last set the handles, null before, so that a phone which only said "This is
me" cannot replace handles another phone set.

Revision ID: 0015_handles_in_pdf
Revises: 0014_payment_handles
Create Date: 2026-12-04
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0015_handles_in_pdf'
down_revision = '0014_payment_handles'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN with a constant default: no batch copy of a table other tables point at
    op.add_column('player_figures', sa.Column('handles_in_pdf', sa.Boolean(), nullable=False,
                                              server_default=sa.false()))
    op.add_column('player_figures', sa.Column('handles_key_id', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('player_figures') as batch:
        batch.drop_column('handles_key_id')
        batch.drop_column('handles_in_pdf')
