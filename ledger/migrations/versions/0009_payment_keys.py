"""payments keep the phone's submission key: a double tap or a retried request records one payment

``payment`` and ``club_payment`` get ``idempotency_key`` (nullable, up to 200 printable ASCII
characters), unique per night (``uq_payment_session_idempotency``) and per club
(``uq_club_payment_idempotency``), as hands have had since the first revision. Payments stored
before have no key.

Revision ID: 0009_payment_keys
Revises: 0008_audit_event_indexes
Create Date: 2026-12-02
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0009_payment_keys'
down_revision = '0008_audit_event_indexes'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.create_unique_constraint('uq_payment_session_idempotency', ['session_id', 'idempotency_key'])
    with op.batch_alter_table('club_payment', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.create_unique_constraint('uq_club_payment_idempotency', ['club_id', 'idempotency_key'])


def downgrade() -> None:
    with op.batch_alter_table('club_payment', schema=None) as batch_op:
        batch_op.drop_constraint('uq_club_payment_idempotency', type_='unique')
        batch_op.drop_column('idempotency_key')
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_constraint('uq_payment_session_idempotency', type_='unique')
        batch_op.drop_column('idempotency_key')
