"""Unit of work: one session and transaction per update (or per scheduled job).

Repositories hang off it and never commit; the use case (or the middleware, when the handler
returns normally) commits exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from db.repositories.chats import ChatRepo
from db.repositories.games import CharacterRepo, GameRepo
from db.repositories.ledger import LedgerRepo
from db.repositories.requests import RequestRepo
from db.repositories.rolls import RollRepo
from db.repositories.trackers import TrackerRepo
from db.repositories.updates import Prefetched, ProcessedUpdateRepo
from db.repositories.users import UserRepo


class UnitOfWork:
    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._factory = session_factory
        self._session: AsyncSession | None = None
        self._claimed: tuple[int, int] | None = None  # (bot_id, update_id) this unit handles

    @property
    def session(self) -> AsyncSession:
        if self._session is None:
            raise RuntimeError("unit of work is not open")
        return self._session

    async def __aenter__(self) -> UnitOfWork:
        self._session = self._factory()
        self.users = UserRepo(self._session)
        self.chats = ChatRepo(self._session)
        self.updates = ProcessedUpdateRepo(self._session)
        self.rolls = RollRepo(self._session, self.driver)
        self.games = GameRepo(self._session)
        self.characters = CharacterRepo(self._session)
        self.requests = RequestRepo(self._session)
        self.ledger = LedgerRepo(self._session)
        self.trackers = TrackerRepo(self._session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session = self.session
        try:
            if exc_type is not None:
                await session.rollback()
        finally:
            await session.close()
            self._session = None

    async def claim_update(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str] = (),
    ) -> Prefetched | None:  # fmt: skip
        """Claim the update this unit handles (``ProcessedUpdateRepo.claim_with_context``)."""
        prefetched = await self.updates.claim_with_context(
            bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys
        )
        if prefetched is not None:
            self._claimed = (bot_id, update_id)
        return prefetched

    async def driver(self) -> asyncpg.Connection:
        """The asyncpg connection under this unit's session, inside its transaction, for the
        roll path's literal SQL: through SQLAlchemy a statement costs about twice the
        driver's own CPU, and rolls are the bot's hottest path (``make bench``). Statements
        run here belong to the unit's transaction: they commit and roll back with it."""
        connection = await self.session.connection()
        raw = (await connection.get_raw_connection()).driver_connection
        assert isinstance(raw, asyncpg.Connection)
        if not raw.is_in_transaction():
            # SQLAlchemy begins on its first statement; a unit that has run none yet (a job)
            # makes it begin here, or the driver's statements would each commit alone.
            await self.session.execute(text("SELECT 1"))
        return raw

    async def commit(self) -> None:
        await self.session.commit()

    async def rollback(self) -> None:
        """Undo what this unit wrote, except the claim of its update: a refusal is how that
        update was handled, so a redelivery must still be skipped and the polling inbox row
        still cleared (without this a refused press stayed in the inbox and was replayed on
        the next start). Re-claiming costs nothing on the path that commits normally."""
        await self.session.rollback()
        if self._claimed is not None:
            await self.updates.claim(*self._claimed)
