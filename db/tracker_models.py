"""Live trackers (a fight, a conflict, a scene, a multi-roll card): one edited message each.

``trackers`` holds the current state (JSONB, owned by the system's service) and a version that
every action bumps with a conditional update; ``tracker_steps`` journals each action with the
state before it and the ledger batch it wrote, unique per (tracker, version) — two concurrent
presses cannot both produce the same next version, and the GM's undo walks the journal back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel


def _stamp() -> Any:
    return Field(
        default=None,
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()),
    )


class Tracker(SQLModel, table=True):
    __tablename__ = "trackers"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'ended')", name="trackers_status"),
        CheckConstraint("version >= 1", name="trackers_version"),
        # One fight/conflict/scene at a time per game; multi-roll cards are not exclusive.
        Index(
            "trackers_one_open_per_game",
            "game_id",
            unique=True,
            postgresql_where=text("status = 'open' AND exclusive"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(
        sa_column=Column(Integer, ForeignKey("games.id"), nullable=False, index=True)
    )
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: str = Field(sa_column=Column(String(32), nullable=False))
    exclusive: bool = Field(sa_column=Column(Boolean, nullable=False))
    status: str = Field(
        default="open", sa_column=Column(String(16), nullable=False, server_default="open")
    )
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    state: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    version: int = Field(default=1, sa_column=Column(Integer, nullable=False, server_default="1"))
    created_by: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime | None = _stamp()
    updated_at: datetime | None = _stamp()


class TrackerStep(SQLModel, table=True):
    __tablename__ = "tracker_steps"
    __table_args__ = (UniqueConstraint("tracker_id", "version", name="tracker_steps_once"),)

    id: int | None = Field(default=None, primary_key=True)
    tracker_id: int = Field(
        sa_column=Column(Integer, ForeignKey("trackers.id", ondelete="CASCADE"), nullable=False)
    )
    version: int = Field(sa_column=Column(Integer, nullable=False))  # the version it produced
    actor_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    action: str = Field(sa_column=Column(String(64), nullable=False))
    state_before: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    batch: str | None = Field(default=None, sa_column=Column(String(64)))
    undone: bool = Field(
        default=False, sa_column=Column(Boolean, nullable=False, server_default="false")
    )
    created_at: datetime | None = _stamp()
