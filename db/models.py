"""SQLModel tables. Telegram ids are BIGINT; timestamps are timezone-aware.

Rows never leave ``db/``: repositories return these only to use cases in ``db``/``bot``
services, and handlers see DTOs or engine models.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Column, DateTime, String, func, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

LOCALE_CHECK = "locale IS NULL OR locale IN ('ru', 'en')"


def utcnow() -> datetime:
    return datetime.now(UTC)


def _created() -> Any:
    return Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()),
    )


class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint(LOCALE_CHECK, name="users_locale_check"),)

    id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    first_name: str = Field(sa_column=Column(String(256), nullable=False))
    last_name: str | None = Field(default=None, sa_column=Column(String(256)))
    username: str | None = Field(default=None, sa_column=Column(String(64)))
    language_code: str | None = Field(default=None, sa_column=Column(String(16)))
    locale: str | None = Field(default=None, sa_column=Column(String(8)))
    display_name: str | None = Field(default=None, sa_column=Column(String(64)))
    timezone: str | None = Field(default=None, sa_column=Column(String(64)))
    started_private: bool = Field(default=False, sa_column_kwargs={"server_default": "false"})
    created_at: datetime = _created()
    updated_at: datetime = _created()


class Chat(SQLModel, table=True):
    __tablename__ = "chats"
    __table_args__ = (CheckConstraint(LOCALE_CHECK, name="chats_locale_check"),)

    id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    type: str = Field(sa_column=Column(String(16), nullable=False))
    title: str | None = Field(default=None, sa_column=Column(String(256)))
    locale: str | None = Field(default=None, sa_column=Column(String(8)))
    migrated_to: int | None = Field(default=None, sa_column=Column(BigInteger))
    created_at: datetime = _created()
    updated_at: datetime = _created()


class ProcessedUpdate(SQLModel, table=True):
    """One row per update whose effects were committed; a redelivered update_id is skipped."""

    __tablename__ = "processed_updates"

    bot_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    update_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    processed_at: datetime = _created()


class FsmRecord(SQLModel, table=True):
    """aiogram FSM state and data for one storage key (bot, chat, user, thread, destiny)."""

    __tablename__ = "fsm_states"

    key: str = Field(sa_column=Column(String(255), primary_key=True))
    state: str | None = Field(default=None, sa_column=Column(String(255)))
    data: dict[str, Any] = Field(
        default_factory=dict,
        sa_column=Column(JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    )
    updated_at: datetime = _created()
