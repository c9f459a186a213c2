"""running figures kept with each change

Issue 11: a night's figures are kept up to date in the transaction of each change instead of
being summed over the whole night in every request (:mod:`ledger.night.figures`):
``player_figures`` holds each player's ``net_minor`` (counted hands), ``paid_minor`` (counted
payments: paid less received) and ``last_hand`` (the last hand they sat at);
``game_session.counted_hands`` and ``game_session.stakes`` (``[[from_hand, stake_minor], ...]``,
where the stake changed). Existing nights upgrade with their figures worked out from their
hands and payments, as :func:`ledger.night.figures.recompute` does.

Revision ID: 0004_running_figures
Revises: 0003
Create Date: 2026-12-10
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0004_running_figures'
down_revision = '0003'
branch_labels = None
depends_on = None

nights = sa.table('game_session', sa.column('id', sa.String), sa.column('players', sa.JSON),
                  sa.column('roster', sa.JSON), sa.column('stake_minor', sa.BigInteger),
                  sa.column('last_hand_number', sa.Integer),
                  sa.column('counted_hands', sa.Integer), sa.column('stakes', sa.JSON))
hands = sa.table('hand', sa.column('id', sa.Integer), sa.column('session_id', sa.String),
                 sa.column('number', sa.Integer), sa.column('status', sa.String),
                 sa.column('players', sa.JSON), sa.column('stake_minor', sa.BigInteger))
transfers = sa.table('hand_transfer', sa.column('hand_id', sa.Integer), sa.column('payer', sa.String),
                     sa.column('payee', sa.String), sa.column('amount_minor', sa.BigInteger))
payments = sa.table('payment', sa.column('session_id', sa.String), sa.column('payer', sa.String),
                    sa.column('payee', sa.String), sa.column('amount_minor', sa.BigInteger),
                    sa.column('status', sa.String))


def upgrade() -> None:
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('counted_hands', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('stakes', sa.JSON(), server_default='[]', nullable=False))
    figures = op.create_table(
        'player_figures',
        sa.Column('session_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('net_minor', sa.BigInteger(), server_default='0', nullable=False),
        sa.Column('paid_minor', sa.BigInteger(), server_default='0', nullable=False),
        sa.Column('last_hand', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ),
        sa.PrimaryKeyConstraint('session_id', 'player'),
    )
    _fill(op.get_bind(), figures)


def _fill(connection: Any, figures: sa.Table) -> None:
    """Every existing night's figures, from its hands and payments."""
    for night_id, players, roster, stake_minor, last_number in connection.execute(
            sa.select(nights.c.id, nights.c.players, nights.c.roster, nights.c.stake_minor,
                      nights.c.last_hand_number)).all():
        rows: dict[str, dict[str, Any]] = {}

        def row(name: str) -> dict[str, Any]:
            return rows.setdefault(name, {"session_id": night_id, "player": name, "net_minor": 0,
                                          "paid_minor": 0, "last_hand": None})

        for name in list(players) + list(roster or []):
            row(name)
        stakes: list[list[int]] = []
        current = connection.execute(
            sa.select(hands.c.id, hands.c.number, hands.c.status, hands.c.players, hands.c.stake_minor)
            .where(hands.c.session_id == night_id, hands.c.status != 'superseded').order_by(hands.c.number)).all()
        for _id, number, _status, seated, stake in current:
            for name in seated or []:
                row(name)["last_hand"] = number
            if not stakes or stakes[-1][1] != stake:
                stakes.append([number if stakes else 1, int(stake)])
        if not stakes or stakes[-1][1] != stake_minor:
            stakes.append([int(last_number) + 1 if stakes else 1, int(stake_minor)])
        counted = [h[0] for h in current if h[2] == 'counted']
        if counted:
            for payer, payee, amount in connection.execute(
                    sa.select(transfers.c.payer, transfers.c.payee, transfers.c.amount_minor)
                    .where(transfers.c.hand_id.in_(counted))).all():
                row(payer)["net_minor"] -= int(amount)
                row(payee)["net_minor"] += int(amount)
        for payer, payee, amount in connection.execute(
                sa.select(payments.c.payer, payments.c.payee, payments.c.amount_minor)
                .where(payments.c.session_id == night_id, payments.c.status == 'counted')).all():
            row(payer)["paid_minor"] += int(amount)
            row(payee)["paid_minor"] -= int(amount)
        connection.execute(nights.update().where(nights.c.id == night_id)
                           .values(counted_hands=len(counted), stakes=stakes))
        if rows:
            connection.execute(figures.insert(), list(rows.values()))


def downgrade() -> None:
    op.drop_table('player_figures')
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+ too): a batch rebuild of game_session would drop
    # the table under the rows that reference it
    op.execute('ALTER TABLE game_session DROP COLUMN stakes')
    op.execute('ALTER TABLE game_session DROP COLUMN counted_hands')
