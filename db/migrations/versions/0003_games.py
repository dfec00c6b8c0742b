"""Games, members, characters with versioned sheets, deep-link tokens

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 12:28:21.121686
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("system", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(length=128), nullable=False),
        sa.Column("gm_user_id", sa.BigInteger(), nullable=False),
        sa.Column(
            "options",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "system IN ('fate', 'lifegear', 'cliche', 'storyteller', 'matter')",
            name="games_system_check",
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "games_one_live_per_chat",
        "games",
        ["chat_id"],
        unique=True,
        postgresql_where=sa.text("archived_at IS NULL"),
    )
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("owner_user_id", sa.BigInteger(), nullable=True),
        sa.Column("is_npc", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("system", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("sheet", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("review_comment", sa.String(length=512), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('pending', 'active', 'returned', 'retired')",
            name="characters_status_check",
        ),
        sa.CheckConstraint(
            "system IN ('fate', 'lifegear', 'cliche', 'storyteller', 'matter')",
            name="characters_system_check",
        ),
        sa.CheckConstraint("version >= 1", name="characters_version_check"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "characters_one_active_per_player",
        "characters",
        ["game_id", "owner_user_id"],
        unique=True,
        postgresql_where=sa.text("status = 'active' AND NOT is_npc"),
    )
    op.create_index(op.f("ix_characters_game_id"), "characters", ["game_id"], unique=False)
    op.create_table(
        "game_members",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column(
            "joined_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint("role IN ('gm', 'cogm', 'player')", name="game_members_role_check"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_table(
        "link_tokens",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("token"),
    )
    op.create_table(
        "character_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("author_user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column(
            "diff",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("sheet", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("character_versions_character", "character_versions", ["character_id"])
    op.create_foreign_key(
        "link_tokens_character_id_fkey", "link_tokens", "characters", ["character_id"], ["id"]
    )
    op.create_table(
        "character_proposals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("author_user_id", sa.BigInteger(), nullable=False),
        sa.Column("base_version", sa.Integer(), nullable=False),
        sa.Column("sheet", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('pending', 'accepted', 'rejected')", name="character_proposals_status"
        ),
        sa.ForeignKeyConstraint(["character_id"], ["characters.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_character_proposals_character_id", "character_proposals", ["character_id"])


def downgrade() -> None:
    op.drop_table("character_proposals")
    op.drop_constraint("link_tokens_character_id_fkey", "link_tokens", type_="foreignkey")
    op.drop_table("character_versions")
    op.drop_table("link_tokens")
    op.drop_table("game_members")
    op.drop_index(op.f("ix_characters_game_id"), table_name="characters")
    op.drop_index(
        "characters_one_active_per_player",
        table_name="characters",
        postgresql_where=sa.text("status = 'active' AND NOT is_npc"),
    )
    op.drop_table("characters")
    op.drop_index(
        "games_one_live_per_chat",
        table_name="games",
        postgresql_where=sa.text("archived_at IS NULL"),
    )
    op.drop_table("games")
