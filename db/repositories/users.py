from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import User


@dataclass(frozen=True)
class TelegramUser:
    """What Telegram tells us about a user on every update."""

    id: int
    first_name: str
    last_name: str | None
    username: str | None
    language_code: str | None


@dataclass(frozen=True)
class UserDTO:
    id: int
    first_name: str
    username: str | None
    language_code: str | None
    locale: str | None
    display_name: str | None
    timezone: str | None
    started_private: bool

    @property
    def name(self) -> str:
        return self.display_name or self.first_name


def _dto(row: User) -> UserDTO:
    return UserDTO(
        id=row.id,
        first_name=row.first_name,
        username=row.username,
        language_code=row.language_code,
        locale=row.locale,
        display_name=row.display_name,
        timezone=row.timezone,
        started_private=row.started_private,
    )


def _unchanged(row: User, tg: TelegramUser, started_private: bool) -> bool:
    return (
        row.first_name == tg.first_name[:256]
        and row.last_name == tg.last_name
        and row.username == tg.username
        and row.language_code == tg.language_code
        and (row.started_private or not started_private)
    )


def _known_unchanged(
    dto: UserDTO, last_name: str | None, tg: TelegramUser, started_private: bool
) -> bool:
    return (
        dto.first_name == tg.first_name[:256]
        and last_name == tg.last_name
        and dto.username == tg.username
        and dto.language_code == tg.language_code
        and (dto.started_private or not started_private)
    )


class UserRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session
        # user id → (DTO, last name) as read with this update's claim; None = no such user.
        self._known: dict[int, tuple[UserDTO, str | None] | None] = {}
        self._sender: UserDTO | None = None

    def remember(self, user_id: int, row: Mapping[str, Any] | None) -> None:
        """Seed the memo with the sender's row read with the claim (``claim_with_context``)."""
        self._known[user_id] = None if row is None else (
            UserDTO(
                id=row["id"], first_name=row["first_name"], username=row["username"],
                language_code=row["language_code"], locale=row["locale"],
                display_name=row["display_name"], timezone=row["timezone"],
                started_private=row["started_private"],
            ),
            row["last_name"],
        )  # fmt: skip

    async def upsert(self, tg: TelegramUser, *, started_private: bool = False) -> UserDTO:
        """Insert or refresh the Telegram-side fields; keep our own settings untouched."""
        values = {
            "id": tg.id,
            "first_name": tg.first_name[:256],
            "last_name": tg.last_name,
            "username": tg.username,
            "language_code": tg.language_code,
            "started_private": started_private,
        }
        stmt = insert(User).values(**values)
        refreshed = {
            "first_name": stmt.excluded.first_name,
            "last_name": stmt.excluded.last_name,
            "username": stmt.excluded.username,
            "language_code": stmt.excluded.language_code,
            "started_private": User.started_private | stmt.excluded.started_private,  # type: ignore[operator]
            "updated_at": func.now(),
        }
        stmt = stmt.on_conflict_do_update(index_elements=["id"], set_=refreshed).returning(User)
        result = await self._session.execute(stmt, execution_options={"populate_existing": True})
        return _dto(result.scalar_one())

    async def ensure(self, tg: TelegramUser, *, started_private: bool = False) -> UserDTO:
        """Read the user; write only when new or when Telegram-side fields changed."""
        if tg.id in self._known:
            known = self._known.pop(tg.id)
            if known is not None and _known_unchanged(*known, tg, started_private):
                self._sender = known[0]
                return known[0]
            return await self.upsert(tg, started_private=started_private)
        row = await self._session.get(User, tg.id)
        if row is not None and _unchanged(row, tg, started_private):
            return _dto(row)
        return await self.upsert(tg, started_private=started_private)

    async def get(self, user_id: int) -> UserDTO | None:
        if self._sender is not None and self._sender.id == user_id:
            return self._sender  # the sender, as read with the claim and unchanged since
        row = await self._session.get(User, user_id)
        return _dto(row) if row else None

    async def set_locale(self, user_id: int, locale: str | None) -> None:
        self._sender = None
        row = await self._session.get(User, user_id)
        if row is not None:
            row.locale = locale
            self._session.add(row)

    async def set_profile(self, user_id: int, *, display_name: str, timezone: str) -> None:
        self._sender = None
        row = await self._session.get(User, user_id)
        if row is not None:
            row.display_name = display_name
            row.timezone = timezone
            self._session.add(row)

    async def has_blocked_bot(self, user_id: int) -> bool:
        stmt = select(col(User.id)).where(
            col(User.id) == user_id, col(User.blocked_at).isnot(None)
        )
        return (await self._session.exec(stmt)).first() is not None

    async def set_blocked(self, user_id: int, blocked: bool, *, brief: bool = False) -> bool:
        """Mark (or unmark) that the user blocked the bot; True only if this changed it.
        ``brief``: wait at most briefly for the row (another open transaction may hold it:
        the update whose notice was refused, ``bot/delivery.py``)."""
        self._sender = None
        if brief:
            await self._session.execute(text("SET LOCAL lock_timeout = '2s'"))
        stmt = (
            update(User)
            .where(
                col(User.id) == user_id,
                col(User.blocked_at).is_(None) if blocked else col(User.blocked_at).isnot(None),
            )
            .values(blocked_at=func.now() if blocked else None)
            .returning(col(User.id))
        )
        return (await self._session.execute(stmt)).first() is not None

    async def by_username(self, username: str) -> int | None:
        """The id of the user with this @username (case-insensitive), if they ever wrote here."""
        stmt = select(User.id).where(func.lower(User.username) == username.lower()).limit(1)
        found = (await self._session.exec(stmt)).first()
        return int(found) if found is not None else None

    async def count(self) -> int:
        result = await self._session.exec(select(func.count(col(User.id))))
        return int(result.one())
