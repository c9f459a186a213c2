"""audit events indexed for the polls: a night's newest events, a page of hands, the voids

A phone's poll read the night's version and its newest events, the history page the events of
its fifty hands, and the table the voids newest first. With only ``session_id`` indexed, the last
two walked every event of the night on SQLite, and PostgreSQL walked them for all of them (its
index entries of one night are not in ``id`` order). This revision replaces that index by
``(session_id, id)`` and adds ``(session_id, hand_number)`` and ``(session_id, action, id)``.

Revision ID: 0008_audit_event_indexes
Revises: 0007_dotted_i_name_keys
Create Date: 2026-12-01
"""
from __future__ import annotations

from alembic import op


revision = '0008_audit_event_indexes'
down_revision = '0007_dotted_i_name_keys'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.create_index('ix_audit_event_session_id_id', ['session_id', 'id'], unique=False)
        batch_op.create_index('ix_audit_event_session_hand', ['session_id', 'hand_number'], unique=False)
        batch_op.create_index('ix_audit_event_session_action', ['session_id', 'action', 'id'], unique=False)
        batch_op.drop_index('ix_audit_event_session_id')


def downgrade() -> None:
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.create_index('ix_audit_event_session_id', ['session_id'], unique=False)
        batch_op.drop_index('ix_audit_event_session_action')
        batch_op.drop_index('ix_audit_event_session_hand')
        batch_op.drop_index('ix_audit_event_session_id_id')
