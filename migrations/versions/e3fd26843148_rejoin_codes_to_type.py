"""rejoin codes to type

Revision ID: e3fd26843148
Revises: c8f777f71851
Create Date: 2026-12-01 18:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e3fd26843148'
down_revision = 'c8f777f71851'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rejoin_code_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('rejoin_code_until', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('rejoin_code_until')
        batch_op.drop_column('rejoin_code_hash')
