"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('game_session',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('stake_minor', sa.BigInteger(), nullable=False),
    sa.Column('ruleset', sa.JSON(), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('first_dealer', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('last_hand_number', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('access_key',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('secret_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('label', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('access_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_access_key_secret_hash'), ['secret_hash'], unique=True)
        batch_op.create_index(batch_op.f('ix_access_key_session_id'), ['session_id'], unique=False)

    op.create_table('audit_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('actor_role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('access_key_id', sa.Integer(), nullable=True),
    sa.Column('device', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=True),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_event_session_id'), ['session_id'], unique=False)

    op.create_table('hand',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('dealer', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('entry', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('redeal', sa.Boolean(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('idempotency_key', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('session_id', 'idempotency_key', name='uq_hand_session_idempotency'),
    sa.UniqueConstraint('session_id', 'number', 'version', name='uq_hand_session_number_version')
    )
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_session_id'), ['session_id'], unique=False)

    op.create_table('payment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('payer', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('payee', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payment_session_id'), ['session_id'], unique=False)

    op.create_table('hand_transfer',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('payer', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('payee', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hand.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('hand_transfer', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_transfer_hand_id'), ['hand_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('hand_transfer', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_transfer_hand_id'))

    op.drop_table('hand_transfer')
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_session_id'))

    op.drop_table('payment')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_session_id'))

    op.drop_table('hand')
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_event_session_id'))

    op.drop_table('audit_event')
    with op.batch_alter_table('access_key', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_access_key_session_id'))
        batch_op.drop_index(batch_op.f('ix_access_key_secret_hash'))

    op.drop_table('access_key')
    op.drop_table('game_session')
