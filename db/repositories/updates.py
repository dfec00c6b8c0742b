from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, delete, false, select
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Chat, Game, GameMember, ProcessedUpdate, User, utcnow


@dataclass(frozen=True)
class Prefetched:
    """The rows read with an update's claim (None where absent)."""

    user: User | None
    chat: Chat | None
    game: Game | None
    membership: GameMember | None


class ProcessedUpdateRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def claim(self, bot_id: int, update_id: int) -> bool:
        """Record the update inside the current transaction; False if it was already processed.

        A concurrent redelivery blocks on the primary key until the first transaction ends,
        then sees the conflict — so two deliveries can never both take effect.
        """
        stmt = (
            insert(ProcessedUpdate)
            .values(bot_id=bot_id, update_id=update_id)
            .on_conflict_do_nothing(index_elements=["bot_id", "update_id"])
            .returning(ProcessedUpdate.update_id)  # type: ignore[arg-type]
        )
        result = await self._session.execute(stmt)
        return result.scalar_one_or_none() is not None

    async def claim_with_context(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None
    ) -> Prefetched | None:
        """``claim`` plus, in the same round trip, the rows nearly every update reads next: the
        sender, the chat, the chat's live game and the sender's membership in it. They land in
        the session's identity map (so ``users.ensure``, ``chats.ensure`` and ``games.role``
        find them without a query) — as long as something holds them, since the identity map
        only keeps weak references: the caller keeps the returned ``Prefetched``.
        An update already processed returns no row at all: None."""
        claim = (
            insert(ProcessedUpdate)
            .values(bot_id=bot_id, update_id=update_id)
            .on_conflict_do_nothing(index_elements=["bot_id", "update_id"])
            .returning(col(ProcessedUpdate.update_id))
            .cte("claim")
        )
        no_user = user_id is None
        no_chat = chat_id is None
        stmt = (
            select(claim.c.update_id, User, Chat, Game, GameMember)
            .select_from(claim)
            .outerjoin(User, false() if no_user else col(User.id) == user_id)
            .outerjoin(Chat, false() if no_chat else col(Chat.id) == chat_id)
            .outerjoin(
                Game,
                false()
                if no_chat
                else and_(col(Game.chat_id) == chat_id, col(Game.archived_at).is_(None)),
            )
            .outerjoin(
                GameMember,
                false()
                if no_user
                else and_(
                    col(GameMember.game_id) == col(Game.id), col(GameMember.user_id) == user_id
                ),
            )
        )
        row = (await self._session.execute(stmt)).first()
        return Prefetched(row[1], row[2], row[3], row[4]) if row is not None else None

    async def prune(self, older_than: timedelta) -> int:
        """Forget claims older than Telegram ever redelivers (it keeps updates for 24 hours)."""
        stmt = delete(ProcessedUpdate).where(
            col(ProcessedUpdate.processed_at) < utcnow() - older_than
        )
        result = await self._session.execute(stmt)
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
