"""log lines as messages

The log's lines were stored as English text; the engines now write messages (an id and
its parameters) that each screen renders in its own language. Every started table's lines
are made again by replaying its log through its game's rules, so the history reads as
before in English and now in every language. A log that does not replay (a game this
server no longer has, a damaged row) keeps its English lines, which still read as before.

Revision ID: 5a1e0c3d9b72
Revises: e3fd26843148
Create Date: 2026-12-03 09:00:00.000000

"""
from types import SimpleNamespace

from alembic import op
import sqlalchemy as sa

from companion.games import GAMES
from companion.games.engine import Note
from companion.table.notes import rebuilt


# revision identifiers, used by Alembic.
revision = '5a1e0c3d9b72'
down_revision = 'e3fd26843148'
branch_labels = None
depends_on = None

tables = sa.table('tables', sa.column('id', sa.Integer), sa.column('game', sa.String),
                  sa.column('options', sa.JSON), sa.column('seed', sa.BigInteger),
                  sa.column('first_player', sa.Integer))
players = sa.table('players', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                   sa.column('seat', sa.Integer), sa.column('local', sa.Boolean))
events = sa.table('events', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                  sa.column('seq', sa.Integer), sa.column('kind', sa.String),
                  sa.column('actor', sa.Integer), sa.column('action', sa.JSON),
                  sa.column('notes', sa.JSON), sa.column('undoes', sa.Integer))


def upgrade():
    connection = op.get_bind()
    started = connection.execute(
        sa.select(tables).where(tables.c.seed.is_not(None))).mappings().all()
    for table in started:
        if table['game'] not in GAMES:
            continue
        seats = connection.execute(
            sa.select(players.c.id, players.c.local).where(players.c.table_id == table['id'])
            .order_by(players.c.seat)).all()
        log = [SimpleNamespace(**row) for row in connection.execute(
            sa.select(events).where(events.c.table_id == table['id'])
            .order_by(events.c.seq)).mappings()]
        try:
            lines = rebuilt(table['game'], [seat.id for seat in seats], table['first_player'],
                            table['options'], table['seed'], log,
                            {seat.id: bool(seat.local) for seat in seats})
        except Exception:  # a log the rules refuse: its English lines stay
            continue
        for event in log:
            if lines[event.seq] != event.notes:
                connection.execute(events.update().where(events.c.id == event.id)
                                   .values(notes=lines[event.seq]))


def downgrade():
    """Each message back to its English text with `{name:ID}` placeholders, as the
    previous revision stored a line."""
    connection = op.get_bind()
    for event in connection.execute(sa.select(events.c.id, events.c.notes)).all():
        notes = [Note.from_json(note) for note in event.notes or []]
        english = [{"text": str(note.text),
                    "private": {str(k): str(v) for k, v in note.private.items()},
                    "reveal": note.reveal} for note in notes]
        if english != event.notes:
            connection.execute(events.update().where(events.c.id == event.id)
                               .values(notes=english))
