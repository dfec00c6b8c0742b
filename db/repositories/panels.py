"""Live resource panels (migration 0022): the last /res panel of a character in each chat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import text
from sqlmodel.ext.asyncio.session import AsyncSession


@dataclass(frozen=True)
class PanelDTO:
    character_id: int
    chat_id: int
    message_id: int
    locale: str


class PanelRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def remember(
        self, character_id: int, chat_id: int, message_id: int, locale: str
    ) -> None:
        """This message is now the character's panel in that chat (a newer one replaces it)."""
        await self._session.execute(
            text(
                "INSERT INTO res_panels (character_id, chat_id, message_id, locale) "
                "VALUES (:c, :chat, :m, :l) ON CONFLICT (character_id, chat_id) DO UPDATE "
                "SET message_id = EXCLUDED.message_id, locale = EXCLUDED.locale, "
                "opened_at = now()"
            ),
            {"c": character_id, "chat": chat_id, "m": message_id, "l": locale[:8]},
        )

    async def relabel(self, chat_id: int, locale: str) -> None:
        """The chat's language changed: its open panels are redrawn in the new one (they kept
        the language they were opened in, so a grant redrew an English table's panel in
        Russian)."""
        await self._session.execute(
            text("UPDATE res_panels SET locale = :l WHERE chat_id = :chat"),
            {"chat": chat_id, "l": locale[:8]},
        )

    async def of(self, character_ids: Iterable[int]) -> list[PanelDTO]:
        ids = sorted(set(character_ids))
        if not ids:
            return []
        rows = await self._session.execute(
            text(
                "SELECT character_id, chat_id, message_id, locale FROM res_panels "
                "WHERE character_id = ANY(:ids) ORDER BY character_id, chat_id"
            ),
            {"ids": ids},
        )
        return [PanelDTO(r[0], r[1], r[2], r[3]) for r in rows]

    async def forget(self, character_id: int, chat_id: int, message_id: int) -> None:
        """That panel is gone (deleted, too old to edit): no more redraws of it."""
        await self._session.execute(
            text(
                "DELETE FROM res_panels WHERE character_id = :c AND chat_id = :chat "
                "AND message_id = :m"
            ),
            {"c": character_id, "chat": chat_id, "m": message_id},
        )
