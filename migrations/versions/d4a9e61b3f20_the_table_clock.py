"""the table clock: its setting, who each event leaves awaited

Revision ID: d4a9e61b3f20
Revises: d4a9c2e7f150
Create Date: 2026-12-06 07:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4a9e61b3f20'
down_revision = 'd4a9c2e7f150'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock', sa.JSON(), nullable=True))
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('awaiting', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('awaiting')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('clock')
