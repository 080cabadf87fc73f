"""a first game taught at the table

Revision ID: e81c5a7d2b94
Revises: d4a9e61b3f20
Create Date: 2026-12-06 12:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e81c5a7d2b94'
down_revision = 'd4a9e61b3f20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('teaching', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('teaching')
