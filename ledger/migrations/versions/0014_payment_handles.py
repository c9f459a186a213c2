"""players and club members keep payment handles (issue 22)

``player_figures.handles`` (a night player's) and ``club_member.handles`` (a club member's, for
every club night): JSON, null for none (every row before).

Revision ID: 0014_payment_handles
Revises: 0013_club_pot
Create Date: 2026-12-04
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0014_payment_handles'
down_revision = '0013_club_pot'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (nullable, no default): no batch copy of tables other tables point at
    op.add_column('player_figures', sa.Column('handles', sa.JSON(), nullable=True))
    op.add_column('club_member', sa.Column('handles', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('club_member') as batch:
        batch.drop_column('handles')
    with op.batch_alter_table('player_figures') as batch:
        batch.drop_column('handles')
