from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Chat


@dataclass(frozen=True)
class ChatDTO:
    id: int
    type: str
    title: str | None
    locale: str | None

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


class ChatRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session
        self._known: dict[int, ChatDTO | None] = {}  # read with this update's claim

    def remember(self, chat_id: int, row: Mapping[str, Any] | None) -> None:
        self._known[chat_id] = (
            None
            if row is None
            else ChatDTO(id=row["id"], type=row["type"], title=row["title"], locale=row["locale"])
        )

    async def upsert(self, chat_id: int, chat_type: str, title: str | None) -> ChatDTO:
        stmt = insert(Chat).values(id=chat_id, type=chat_type, title=title)
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"],
            set_={
                "type": stmt.excluded.type,
                "title": stmt.excluded.title,
                "updated_at": func.now(),
            },
        ).returning(Chat)
        result = await self._session.execute(stmt, execution_options={"populate_existing": True})
        row = result.scalar_one()
        return ChatDTO(id=row.id, type=row.type, title=row.title, locale=row.locale)

    async def ensure(self, chat_id: int, chat_type: str, title: str | None) -> ChatDTO:
        """Read the chat; write only when new or renamed."""
        if chat_id in self._known:
            known = self._known.pop(chat_id)
            if known is not None and known.type == chat_type and known.title == title:
                return known
            return await self.upsert(chat_id, chat_type, title)
        row = await self._session.get(Chat, chat_id)
        if row is not None and row.type == chat_type and row.title == title:
            return ChatDTO(id=row.id, type=row.type, title=row.title, locale=row.locale)
        return await self.upsert(chat_id, chat_type, title)

    async def get(self, chat_id: int) -> ChatDTO | None:
        row = await self._session.get(Chat, chat_id)
        return (
            ChatDTO(id=row.id, type=row.type, title=row.title, locale=row.locale) if row else None
        )

    async def set_locale(self, chat_id: int, locale: str | None) -> None:
        row = await self._session.get(Chat, chat_id)
        if row is not None:
            row.locale = locale
            self._session.add(row)

    async def adopt_locale(self, chat_id: int, locale: str) -> bool:
        """Set the chat's language only when it has none; whether it did (one statement: two
        games begun at once in two topics cannot both set it)."""
        stmt = (
            update(Chat)
            .where(col(Chat.id) == chat_id, col(Chat.locale).is_(None))
            .values(locale=locale, updated_at=func.now())
            .returning(col(Chat.id))
        )
        return (await self._session.execute(stmt)).first() is not None

    async def mark_migrated(self, old_id: int, new_id: int) -> None:
        """Group → supergroup: the new chat inherits the old one's settings."""
        old = await self._session.get(Chat, old_id)
        if old is None:
            return
        old.migrated_to = new_id
        self._session.add(old)
        stmt = insert(Chat).values(
            id=new_id, type="supergroup", title=old.title, locale=old.locale
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"], set_={"locale": stmt.excluded.locale, "type": "supergroup"}
        )
        await self._session.execute(stmt)
