"""a club member's language

Issue 10: ``club_member.language`` is the catalogue code (``"lo"``, ``"ml"``, …) a member's
season statements are written in; NULL (every existing member) follows whoever reads them.

Revision ID: 0006_member_language
Revises: 0005_clubs
Create Date: 2026-12-09
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0006_member_language'
down_revision = '0005_clubs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a nullable column: added in place (no table rebuild on SQLite, the club's rows stay put)
    with op.batch_alter_table('club_member', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('club_member', schema=None) as batch_op:
        batch_op.drop_column('language')
