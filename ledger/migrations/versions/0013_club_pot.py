"""a club keeps the Tong-its pot its nights carry (issue 21 item 3, TONGITS.md §4.9 ``pot_at_end: carry``)

``club`` gets ``pot_minor`` (what the club's carried nights left in the pot, waiting for its next
Tong-its night; 0 for every club before); ``club_night`` gets ``pot_carried_minor`` (what the
night's pot carried into the club's pot, 0 when nothing, back to 0 when the carry is undone);
``night_account`` gets ``opening_minor`` (the balance the account opened with: a pot the club
brought in; 0 for every night before).

Revision ID: 0013_club_pot
Revises: 0012_night_game_accounts
Create Date: 2026-12-04
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0013_club_pot'
down_revision = '0012_night_game_accounts'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN: a batch copy would drop tables other tables' foreign keys point at
    op.add_column('club', sa.Column('pot_minor', sa.BigInteger(), nullable=False, server_default='0'))
    op.add_column('club_night', sa.Column('pot_carried_minor', sa.BigInteger(), nullable=False, server_default='0'))
    op.add_column('night_account', sa.Column('opening_minor', sa.BigInteger(), nullable=False, server_default='0'))


def downgrade() -> None:
    for table, column in (('night_account', 'opening_minor'), ('club_night', 'pot_carried_minor'),
                          ('club', 'pot_minor')):
        op.drop_column(table, column)
