"""options saved under a name (a score sheet's game name)

Revision ID: b7d41e9a2c05
Revises: 5a1e0c3d9b72
Create Date: 2026-12-03 11:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d41e9a2c05'
down_revision = '5a1e0c3d9b72'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('saved_options',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=40), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('uses', sa.Integer(), nullable=False),
    sa.Column('saved_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game', 'name_key')
    )


def downgrade():
    op.drop_table('saved_options')
