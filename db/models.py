"""SQLModel tables. Telegram ids are BIGINT; timestamps are timezone-aware.

Rows never leave ``db/``: repositories return these only to use cases in ``db``/``bot``
services, and handlers see DTOs or engine models.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
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
    # the user blocked the bot (403): their private notices are skipped (``bot/delivery.py``)
    blocked_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))


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


class UpdateInbox(SQLModel, table=True):
    """Updates received by long polling and not finished yet: written before their batch is
    confirmed to Telegram, deleted by the update's claim; what a killed process leaves here
    is handled on the next start."""

    __tablename__ = "update_inbox"

    bot_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    update_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    payload: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    received_at: datetime = _created()


class UpdateDeadLetter(SQLModel, table=True):
    """An update set aside: it could not be stored, or its handling failed three times. The
    payload is the update's JSON text, ASCII-escaped (lossless: ``text`` holds what ``jsonb``
    refuses); ``python -m bot.dead_letters`` lists and replays them."""

    __tablename__ = "update_dead_letters"

    bot_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    update_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    payload: str = Field(sa_column=Column(Text, nullable=False))
    error: str = Field(sa_column=Column(Text, nullable=False))
    attempts: int = Field(default=1)
    failed_at: datetime = _created()
    replayed_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


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


class RollLog(SQLModel, table=True):
    """One verifiable roll log per chat (a game's chat). The id is stable across a group →
    supergroup migration: only ``chat_id`` moves, the append-only rows keep their ``log_id``."""

    __tablename__ = "roll_logs"

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False, unique=True))
    created_at: datetime = _created()


class SeedEpoch(SQLModel, table=True):
    """A commit–reveal seed epoch. The seed stays secret until ``revealed_at`` is set."""

    __tablename__ = "seed_epochs"
    __table_args__ = (
        UniqueConstraint("log_id", "epoch", name="seed_epochs_log_epoch_key"),
        Index(
            "seed_epochs_one_open_per_log",
            "log_id",
            unique=True,
            postgresql_where=text("revealed_at IS NULL"),
        ),
        CheckConstraint("epoch >= 1", name="seed_epochs_epoch_check"),
    )

    id: int | None = Field(default=None, primary_key=True)
    log_id: int = Field(foreign_key="roll_logs.id", nullable=False)
    epoch: int = Field(nullable=False)
    seed: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    commitment: str = Field(sa_column=Column(String(64), nullable=False))
    opened_at: datetime = _created()
    revealed_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))


class Roll(SQLModel, table=True):
    """An append-only, hash-chained roll log entry (the database refuses UPDATE and DELETE).

    The columns are exactly the fields of ``engine.dice.log.LogEntry``; ``created_at`` is kept
    as the ISO string that was hashed.
    """

    __tablename__ = "rolls"
    __table_args__ = (
        UniqueConstraint("log_id", "seq", name="rolls_log_seq_key"),
        UniqueConstraint("log_id", "roll_id", name="rolls_log_roll_id_key"),
        CheckConstraint("seq >= 1", name="rolls_seq_check"),
    )

    id: int | None = Field(default=None, primary_key=True)
    log_id: int = Field(foreign_key="roll_logs.id", nullable=False)
    seq: int = Field(nullable=False)
    roll_id: str = Field(sa_column=Column(String(128), nullable=False))
    epoch: int = Field(nullable=False)
    actor: str = Field(sa_column=Column(String(128), nullable=False))
    subject: str = Field(sa_column=Column(String(128), nullable=False))
    expression: str = Field(sa_column=Column(String(640), nullable=False))
    faces: list[int] = Field(sa_column=Column(ARRAY(Integer), nullable=False))
    result: int = Field(nullable=False)
    outcome: str | None = Field(default=None, sa_column=Column(String(256)))
    created_at: str = Field(sa_column=Column(String(40), nullable=False))
    prev_hash: str = Field(sa_column=Column(String(64), nullable=False))
    hash: str = Field(sa_column=Column(String(64), nullable=False))
    actor_user_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    label: str | None = Field(default=None, sa_column=Column(String(256)))


SYSTEMS_CHECK = "system IN ('fate', 'lifegear', 'cliche', 'storyteller', 'matter')"


class Game(SQLModel, table=True):
    """A game run in one group chat, or in one topic of a forum group (``thread_id``; NULL:
    the group itself or its «General»). One live game per (chat, topic); archived games stay
    readable."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(SYSTEMS_CHECK, name="games_system_check"),
        CheckConstraint(
            "held IN ('topic_closed', 'topic_gone', 'removed')", name="games_held_check"
        ),
        Index(
            "games_one_live_per_topic",
            "chat_id",
            text("coalesce(thread_id, 0)"),
            unique=True,
            postgresql_where=text("archived_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    system: str = Field(sa_column=Column(String(16), nullable=False))
    title: str = Field(sa_column=Column(String(128), nullable=False))
    gm_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    options: dict[str, Any] = Field(
        default_factory=dict,
        sa_column=Column(JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    )
    timezone: str = Field(default="Europe/Moscow", sa_column=Column(String(64), nullable=False))
    created_at: datetime = _created()
    archived_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    # why the bot cannot post for the game now (``bot/delivery.py``); NULL while it can
    held: str | None = Field(default=None, sa_column=Column(String(16)))


class GameMember(SQLModel, table=True):
    __tablename__ = "game_members"
    __table_args__ = (
        CheckConstraint("role IN ('gm', 'cogm', 'player')", name="game_members_role_check"),
    )

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    role: str = Field(sa_column=Column(String(8), nullable=False))
    joined_at: datetime = _created()


ACTIVE_NAME_INDEX = "characters_active_name"


class Character(SQLModel, table=True):
    """A character sheet: JSONB validated by the system's engine model, versioned."""

    __tablename__ = "characters"
    __table_args__ = (
        CheckConstraint(SYSTEMS_CHECK, name="characters_system_check"),
        CheckConstraint(
            "status IN ('pending', 'active', 'returned', 'retired')",
            name="characters_status_check",
        ),
        CheckConstraint("version >= 1", name="characters_version_check"),
        CheckConstraint(
            "system <> 'fate' OR COALESCE((sheet->>'fate_points')::int, 0) >= 0",
            name="characters_fate_points_nonnegative",
        ),
        Index(
            "characters_one_active_per_player",
            "game_id",
            "owner_user_id",
            unique=True,
            postgresql_where=text("status = 'active' AND NOT is_npc"),
        ),
        # /sheet, /r and the trackers reach a character by name: two active ones of one name
        # (NPCs or not) would leave one out of reach (migration 0023)
        Index(
            ACTIVE_NAME_INDEX,
            "game_id",
            "name_key",
            unique=True,
            postgresql_where=text("status = 'active'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", nullable=False, index=True)
    owner_user_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    is_npc: bool = Field(default=False, sa_column_kwargs={"server_default": "false"})
    system: str = Field(sa_column=Column(String(16), nullable=False))
    name: str = Field(sa_column=Column(String(64), nullable=False))
    # ``engine.common.name_key(name)``, written with every name (``CharacterRepo``)
    name_key: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))
    sheet: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    schema_version: int = Field(default=1, nullable=False)
    version: int = Field(default=1, nullable=False)
    review_comment: str | None = Field(default=None, sa_column=Column(String(512)))
    created_at: datetime = _created()
    updated_at: datetime = _created()


class CharacterVersion(SQLModel, table=True):
    """Every change to a sheet: who, when, what (a field diff), and the sheet after."""

    __tablename__ = "character_versions"
    # Several entries may share a sheet version (approve and return do not change the sheet).
    __table_args__ = (Index("character_versions_character", "character_id"),)

    id: int | None = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="characters.id", nullable=False)
    version: int = Field(nullable=False)
    author_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: str = Field(sa_column=Column(String(16), nullable=False))
    diff: list[Any] = Field(
        default_factory=list,
        sa_column=Column(JSONB, nullable=False, server_default=text("'[]'::jsonb")),
    )
    sheet: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    created_at: datetime = _created()


class LinkToken(SQLModel, table=True):
    """An opaque token carried by a deep link (never a raw id): what it opens, for whom."""

    __tablename__ = "link_tokens"

    token: str = Field(sa_column=Column(String(32), primary_key=True))
    purpose: str = Field(sa_column=Column(String(16), nullable=False))
    game_id: int = Field(foreign_key="games.id", nullable=False)
    character_id: int | None = Field(default=None, foreign_key="characters.id")
    created_at: datetime = _created()


class CharacterProposal(SQLModel, table=True):
    """An owner's proposed change to an approved sheet, waiting for the GM."""

    __tablename__ = "character_proposals"
    __table_args__ = (
        CheckConstraint(
            "status IN ('pending', 'accepted', 'rejected')", name="character_proposals_status"
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="characters.id", nullable=False, index=True)
    author_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    base_version: int = Field(nullable=False)
    sheet: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    status: str = Field(default="pending", sa_column=Column(String(16), nullable=False))
    created_at: datetime = _created()


class GameData(SQLModel, table=True):
    """Named JSON documents a rule system keeps per game (e.g. ``lifegear.roles``)."""

    __tablename__ = "game_data"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    key: str = Field(sa_column=Column(String(64), primary_key=True))
    value: Any = Field(sa_column=Column(JSONB, nullable=False))
    updated_at: datetime = _created()


class RollRequest(SQLModel, table=True):
    """A GM's request that a player roll: rolled exactly once, by the named player or a GM."""

    __tablename__ = "roll_requests"
    __table_args__ = (
        CheckConstraint(
            "status IN ('pending', 'rolled', 'cancelled')", name="roll_requests_status_check"
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", nullable=False, index=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    requested_by: int = Field(sa_column=Column(BigInteger, nullable=False))
    target_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    expression: str = Field(sa_column=Column(String(640), nullable=False))
    target_number: int | None = Field(default=None)
    note: str | None = Field(default=None, sa_column=Column(String(256)))
    status: str = Field(default="pending", sa_column=Column(String(16), nullable=False))
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    roll_seq: int | None = Field(default=None)
    # Fate invokes after the roll: +2 each (``bonus``), or a reroll (``rerolls`` counts them;
    # the latest roll is ``req:<id>:re<rerolls>`` in the log); ``invokes`` lists them.
    bonus: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    rerolls: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    invokes: list[Any] = Field(
        default_factory=list,
        sa_column=Column(JSONB, nullable=False, server_default=text("'[]'::jsonb")),
    )
    # Requested by a trait of the player's character ("Атлетика"): its title, for outcome words.
    trait: str | None = Field(default=None, sa_column=Column(String(128)))
    # Chosen on the card before the roll (bot/services/request_options.py): a cliché pump, the
    # GM's matter modifiers, a lifegear weapon and stat; ``expression`` already includes them.
    options: dict[str, Any] = Field(
        default_factory=dict,
        sa_column=Column(JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    )
    deadline: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    nudged_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    overdue_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    created_at: datetime = _created()
    rolled_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))


class LedgerEntry(SQLModel, table=True):
    """Every change to a character's resources: who, what (diff), why, before/after sheets.

    Entries of one action (a milestone for the whole table) share a ``batch``; the GM's undo
    restores a whole batch, and only while no later change touched those sheets.
    """

    __tablename__ = "ledger"
    __table_args__ = (Index("ledger_game_recent", "game_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", nullable=False)
    character_id: int = Field(foreign_key="characters.id", nullable=False)
    actor_user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: str = Field(sa_column=Column(String(32), nullable=False))
    reason: str | None = Field(default=None, sa_column=Column(String(256)))
    batch: str = Field(sa_column=Column(String(64), nullable=False))
    diff: list[Any] = Field(sa_column=Column(JSONB, nullable=False))
    sheet_before: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    sheet_after: dict[str, Any] = Field(sa_column=Column(JSONB, nullable=False))
    version_before: int = Field(nullable=False)
    version_after: int = Field(nullable=False)
    created_at: datetime = _created()
    undone_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    # a change the GM granted on a player's request: who asked (``actor_user_id`` granted it)
    asked_by_user_id: int | None = Field(default=None, sa_column=Column(BigInteger))
