"""Imported export files: one row per (game, content hash), the key that makes a second import
of the same file create nothing (migration 0020)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
)
from sqlmodel import Field, SQLModel


class ImportRecord(SQLModel, table=True):
    __tablename__ = "imports"
    __table_args__ = (
        UniqueConstraint("game_id", "content_hash", name="imports_once_per_game"),
        CheckConstraint("kind IN ('character', 'game')", name="imports_kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=Column(Integer, ForeignKey("games.id"), nullable=False))
    content_hash: str = Field(sa_column=Column(String(64), nullable=False))
    kind: str = Field(sa_column=Column(String(16), nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = Field(
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now())
    )
