"""when a game started

Revision ID: d4a9c2e7f150
Revises: b7d41e9a2c05
Create Date: 2026-12-06 07:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4a9c2e7f150'
down_revision = 'b7d41e9a2c05'
branch_labels = None
depends_on = None


def upgrade():
    # A game started before this column existed has none: its table's creation stands in.
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('started_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('started_at')
