"""clubs and seasons

Issue 9: a club (``club``) with its members (``club_member``, one id across renames, display
names unique per club by their NFC casefolded ``name_key``), its keys (``club_key``, hashed
secrets), which nights belong to it (``club_night``, with ``carried`` once closed) and who sat
there as which member (``club_seat``), what each night carried into the running balances
(``club_carry``), payments against them (``club_payment``) and the club's history
(``club_event``). New tables only: existing nights are untouched and keep working outside clubs.

Revision ID: 0005_clubs
Revises: 0004_running_figures
Create Date: 2026-12-08
"""
from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

from ledger.storage.models import UTCDateTime


revision = '0005_clubs'
down_revision = '0004_running_figures'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('club',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('timezone', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('club_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('actor_role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_event_club_id'), ['club_id'], unique=False)

    op.create_table('club_key',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('role', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('secret_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('label', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_key_club_id'), ['club_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_club_key_secret_hash'), ['secret_hash'], unique=True)

    op.create_table('club_member',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('name_key', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('club_id', 'name_key', name='uq_club_member_name')
    )
    with op.batch_alter_table('club_member', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_member_club_id'), ['club_id'], unique=False)

    op.create_table('club_night',
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('carried', sa.Boolean(), nullable=True),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('session_id')
    )
    with op.batch_alter_table('club_night', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_night_club_id'), ['club_id'], unique=False)

    op.create_table('club_carry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.ForeignKeyConstraint(['member_id'], ['club_member.id'], ),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_carry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_carry_club_id'), ['club_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_club_carry_session_id'), ['session_id'], unique=False)

    op.create_table('club_payment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('payer_id', sa.Integer(), nullable=False),
    sa.Column('payee_id', sa.Integer(), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.Column('voided_at', UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
    sa.ForeignKeyConstraint(['payee_id'], ['club_member.id'], ),
    sa.ForeignKeyConstraint(['payer_id'], ['club_member.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('club_payment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_payment_club_id'), ['club_id'], unique=False)

    op.create_table('club_seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['club_member.id'], ),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('session_id', 'member_id', name='uq_club_seat_member')
    )
    with op.batch_alter_table('club_seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_seat_member_id'), ['member_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_club_seat_session_id'), ['session_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('club_seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_seat_session_id'))
        batch_op.drop_index(batch_op.f('ix_club_seat_member_id'))

    op.drop_table('club_seat')
    with op.batch_alter_table('club_payment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_payment_club_id'))

    op.drop_table('club_payment')
    with op.batch_alter_table('club_carry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_carry_session_id'))
        batch_op.drop_index(batch_op.f('ix_club_carry_club_id'))

    op.drop_table('club_carry')
    with op.batch_alter_table('club_night', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_night_club_id'))

    op.drop_table('club_night')
    with op.batch_alter_table('club_member', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_member_club_id'))

    op.drop_table('club_member')
    with op.batch_alter_table('club_key', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_key_secret_hash'))
        batch_op.drop_index(batch_op.f('ix_club_key_club_id'))

    op.drop_table('club_key')
    with op.batch_alter_table('club_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_event_club_id'))

    op.drop_table('club_event')
    op.drop_table('club')
