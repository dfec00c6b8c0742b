"""Roll log: per-chat logs, commit–reveal seed epochs, append-only hash-chained rolls

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:20:06.673359
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# The log is append-only: the database itself refuses to change or remove an entry.
APPEND_ONLY_FUNCTION = """
CREATE FUNCTION rolls_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the roll log is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$
"""
APPEND_ONLY_TRIGGER = """
CREATE TRIGGER rolls_append_only BEFORE UPDATE OR DELETE ON rolls
FOR EACH ROW EXECUTE FUNCTION rolls_refuse_change()
"""


def upgrade() -> None:
    op.create_table(
        "roll_logs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("chat_id"),
    )
    op.create_table(
        "rolls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("log_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("roll_id", sa.String(length=128), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("subject", sa.String(length=128), nullable=False),
        sa.Column("expression", sa.String(length=640), nullable=False),
        sa.Column("faces", postgresql.ARRAY(sa.Integer()), nullable=False),
        sa.Column("result", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=256), nullable=True),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("actor_user_id", sa.BigInteger(), nullable=True),
        sa.Column("label", sa.String(length=256), nullable=True),
        sa.CheckConstraint("seq >= 1", name="rolls_seq_check"),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["roll_logs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("log_id", "roll_id", name="rolls_log_roll_id_key"),
        sa.UniqueConstraint("log_id", "seq", name="rolls_log_seq_key"),
    )
    op.create_table(
        "seed_epochs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("log_id", sa.Integer(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("seed", sa.LargeBinary(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column(
            "opened_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("epoch >= 1", name="seed_epochs_epoch_check"),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["roll_logs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("log_id", "epoch", name="seed_epochs_log_epoch_key"),
    )
    op.create_index(
        "seed_epochs_one_open_per_log",
        "seed_epochs",
        ["log_id"],
        unique=True,
        postgresql_where=sa.text("revealed_at IS NULL"),
    )

    op.execute(APPEND_ONLY_FUNCTION)
    op.execute(APPEND_ONLY_TRIGGER)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS rolls_append_only ON rolls")
    op.execute("DROP FUNCTION IF EXISTS rolls_refuse_change()")
    op.drop_index(
        "seed_epochs_one_open_per_log",
        table_name="seed_epochs",
        postgresql_where=sa.text("revealed_at IS NULL"),
    )
    op.drop_table("seed_epochs")
    op.drop_table("rolls")
    op.drop_table("roll_logs")
