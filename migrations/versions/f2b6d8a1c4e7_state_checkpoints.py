"""a table's state kept as a checkpoint of its log

The state column held the state after the table's last event; it now holds a checkpoint,
the state after event `state_seq`, which the actions logged after it bring on. Until now
every event wrote the state, so each table's checkpoint is after its last event. Going
back, each state is brought on to the last event again, through its game's rules.

Revision ID: f2b6d8a1c4e7
Revises: e81c5a7d2b94
Create Date: 2026-12-07 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa

from companion.games import GAMES
from companion.games.replay import advanced


# revision identifiers, used by Alembic.
revision = 'f2b6d8a1c4e7'
down_revision = 'e81c5a7d2b94'
branch_labels = None
depends_on = None

tables = sa.table('tables', sa.column('id', sa.Integer), sa.column('game', sa.String),
                  sa.column('seed', sa.BigInteger), sa.column('moves', sa.Integer),
                  sa.column('state', sa.JSON), sa.column('state_seq', sa.Integer))
events = sa.table('events', sa.column('table_id', sa.Integer), sa.column('seq', sa.Integer),
                  sa.column('kind', sa.String), sa.column('actor', sa.Integer),
                  sa.column('action', sa.JSON))


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('state_seq', sa.Integer(), nullable=True))
    op.execute(tables.update().where(tables.c.state.is_not(None)).values(
        state_seq=sa.select(sa.func.coalesce(sa.func.max(events.c.seq), 0))
        .where(events.c.table_id == tables.c.id).scalar_subquery()))


def downgrade():
    connection = op.get_bind()
    for table in connection.execute(sa.select(tables).where(
            tables.c.state.is_not(None))).mappings().all():
        actions = connection.execute(
            sa.select(events.c.actor, events.c.action).where(
                events.c.table_id == table['id'], events.c.kind == 'action',
                events.c.seq > (table['state_seq'] or 0)).order_by(events.c.seq)).all()
        if actions and table['game'] in GAMES:
            state = advanced(GAMES[table['game']], table['state'], table['seed'],
                             table['moves'] - len(actions),
                             [(action.actor, action.action) for action in actions])
            connection.execute(tables.update().where(tables.c.id == table['id'])
                               .values(state=state))
    # Not a batch (which copies the table, refused while the log's rows refer to it):
    # SQLite drops a plain column in place.
    op.drop_column('tables', 'state_seq')
