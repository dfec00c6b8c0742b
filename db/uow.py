"""Unit of work: one connection and transaction per update (or per scheduled job).

Repositories hang off it and never commit; the use case (or the middleware, when the handler
returns normally) commits exactly once.

The unit checks out one pooled connection and keeps it to the end. Its ORM session is made on
first use, bound to that connection: the hot path (the claim, a roll) runs on the driver
connection and never needs one. Opening a session and letting it check out its own connection
cost about 200 µs of CPU per update, more than the update's statements (``make bench``).

A /r's unit claims its update late (``peek_update``, or ``handle_remembered`` without even a
read first): with the roll's append, in one statement, or with the first other statement, or
at commit — always with its effects. Rows remembered from an earlier update are checked at
that claim (their stamp, migration 0014); if they changed, nothing is written
(``StaleContext``) and the update is handled again from a fresh read.
"""

from __future__ import annotations

import inspect
from collections.abc import Coroutine, Sequence
from types import TracebackType
from typing import Any, cast

import asyncpg
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from db.repositories.chats import ChatRepo
from db.repositories.games import CharacterRepo, GameRepo
from db.repositories.grants import GrantRepo
from db.repositories.inline import InlineRepo
from db.repositories.ledger import LedgerRepo
from db.repositories.panels import PanelRepo
from db.repositories.requests import RequestRepo
from db.repositories.rolls import AlreadyProcessed, LogHead, RollRepo, StaleContext, Stamp
from db.repositories.trackers import TrackerRepo
from db.repositories.updates import Prefetched, ProcessedUpdateRepo
from db.repositories.users import UserRepo

__all__ = ["AlreadyProcessed", "StaleConnection", "StaleContext", "UnitOfWork"]


class StaleConnection(Exception):
    """The pooled connection a unit began on was dropped by the server (a restart, a
    failover) before anything happened; it is invalidated, and the work can start again."""


class _DeferredSession:
    """What the repositories hold: the unit's session, made when first used. While the unit's
    update is unclaimed (``peek_update``), its first statement claims the update first."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __getattr__(self, name: str) -> Any:
        uow = self._uow
        attribute = getattr(uow.session, name)
        if uow.express_claim() is None or not callable(attribute):
            return attribute

        # Told apart by what a call returns, not by the method: SQLModel wraps ``execute``
        # (deprecation) in a plain function that returns the coroutine, which a check of the
        # method took for a plain call — its statements then ran before the claim. Only a
        # coroutine waits for the claim: what else a call returns (``begin_nested``'s context
        # manager) is handed back as it is, and the statements run in it claim first.
        def claimed_first(*args: Any, **kwargs: Any) -> Any:
            result = attribute(*args, **kwargs)
            return _after_claim(uow, result) if inspect.iscoroutine(result) else result

        return claimed_first


async def _after_claim(uow: UnitOfWork, statement: Coroutine[Any, Any, Any]) -> Any:
    try:
        await uow.driver()  # begins the transaction and claims the update in it
    except BaseException:
        statement.close()  # never to run: the claim refused the unit
        raise
    return await statement


class UnitOfWork:
    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._factory = session_factory
        self._connection: AsyncConnection | None = None
        self._session: AsyncSession | None = None
        self._claimed: tuple[int, int] | None = None  # (bot_id, update_id) this unit handles
        # (bot_id, update_id) read by a peek and not claimed yet (``peek_update``)
        self._unclaimed: tuple[int, int] | None = None
        self._raw: asyncpg.Connection | None = None  # the driver connection, in a transaction
        # while unclaimed: the rows the update is handled with, checked when it is claimed
        self._stamp: Stamp | None = None

    @property
    def session_factory(self) -> async_sessionmaker[AsyncSession]:
        """What this unit opens its sessions with (for a unit of work of one's own)."""
        return self._factory

    @property
    def connection(self) -> AsyncConnection:
        if self._connection is None:
            raise RuntimeError("unit of work is not open")
        return self._connection

    @property
    def open(self) -> bool:
        """Whether the unit still holds its connection (between enter and exit)."""
        return self._connection is not None

    @property
    def session(self) -> AsyncSession:
        if self._session is None:
            # Bound to the unit's connection: it joins a transaction the driver began (and
            # then leaves committing it to the unit), or begins one there itself.
            self._session = self._factory(bind=self.connection)
        return self._session

    async def __aenter__(self) -> UnitOfWork:
        engine = self._factory.kw["bind"]
        assert isinstance(engine, AsyncEngine)
        self._connection = await engine.connect()
        session = cast(AsyncSession, _DeferredSession(self))
        self.users = UserRepo(session)
        self.chats = ChatRepo(session)
        self.updates = ProcessedUpdateRepo(session, self.driver)
        self.rolls = RollRepo(session, self.driver, self)
        self.games = GameRepo(session)
        self.characters = CharacterRepo(session)
        self.requests = RequestRepo(session, self.driver)
        self.ledger = LedgerRepo(session)
        self.trackers = TrackerRepo(session)
        self.grants = GrantRepo(session)
        self.panels = PanelRepo(session)
        self.inline = InlineRepo(self.driver)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc_type is not None:
                # A connection the server dropped is not pooled again: the next unit would
                # meet it dead (a /r with remembered rows runs no statement before its
                # append, so no first-statement check would catch it).
                if self._connection is not None and not self._connection.closed:
                    try:
                        await self._drop_if_closed()
                    except Exception:  # checking a broken connection may itself fail
                        await self.connection.invalidate()
                await self._roll_back()
        finally:
            try:
                if self._session is not None:
                    await self._session.close()
            finally:
                # Back to the pool; a transaction still open is rolled back on the way.
                await self.connection.close()
                self._connection = self._session = self._raw = self._unclaimed = None
                self._stamp = None

    async def claim_update(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str] = (), roll: tuple[int, str] | None = None,
        thread_id: int | None = None,
    ) -> Prefetched | None:  # fmt: skip
        """Claim the update this unit handles (``ProcessedUpdateRepo.claim_with_context``);
        with ``roll`` (chat id, roll id), the log's head is read and kept for that append.
        Its first statement: a connection found dead here raises ``StaleConnection``."""
        try:
            prefetched = await self.updates.claim_with_context(
                bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys,
                roll=roll, thread_id=thread_id,
            )  # fmt: skip
        except Exception as error:
            if await self._drop_if_closed():
                raise StaleConnection(str(error)) from error
            raise
        if prefetched is not None:
            self._claimed = (bot_id, update_id)
            if roll is not None and prefetched.log_head:
                self.rolls.remember_head(*roll, prefetched.log_head)
        return prefetched

    async def peek_update(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str], roll: tuple[int, str], thread_id: int | None = None,
    ) -> Prefetched | None:  # fmt: skip
        """For an update that will roll: read what ``claim_update`` reads, without a
        transaction, claim or lock; the roll then claims the update with its append in one
        statement (``RollRepo.append``) — two round trips for a /r instead of four. Until
        then the update is unclaimed: the unit's first other statement claims it first (in
        the transaction it begins), and so does ``commit`` if nothing did. When the head
        cannot take the roll that way (no log or epoch yet, the roll id already logged) the
        update is claimed here, as ``claim_update`` does. None if already processed."""
        try:
            prefetched = await self.updates.peek_with_context(
                await self.bare(), bot_id, update_id, user_id=user_id, chat_id=chat_id,
                fsm_keys=fsm_keys, roll=roll, thread_id=thread_id,
            )  # fmt: skip
        except Exception as error:
            if await self._drop_if_closed():
                raise StaleConnection(str(error)) from error
            raise
        if prefetched is None:
            return None
        if not self.rolls.remember_peeked(*roll, prefetched.log_head or []):
            return await self.claim_update(
                bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys,
                roll=roll, thread_id=thread_id,
            )  # fmt: skip
        self._unclaimed = (bot_id, update_id)
        return prefetched

    def handle_remembered(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str], roll: tuple[int, str], prefetched: Prefetched, head: LogHead,
    ) -> Prefetched:  # fmt: skip
        """``peek_update`` without its read: the rows an earlier update of the same sender and
        chat read (``prefetched``, with their stamp) and the log's head after this process's
        last append in the chat — a /r in one round trip, its append (``RollRepo.append``)
        checking both. Whatever changed since, the append writes nothing: a moved head takes
        the locked path, changed rows raise ``StaleContext`` (as does the claim of a unit that
        writes anything first)."""
        assert prefetched.stamp is not None
        # a head remembered after an append always has its epoch (``RollRepo._chained``)
        taken = self.rolls.remember_unlocked(*roll, head)
        assert taken
        self._unclaimed = (bot_id, update_id)
        self._stamp = Stamp(user_id, chat_id, fsm_keys, prefetched.stamp)
        return prefetched

    def express_claim(self) -> tuple[int, int] | None:
        """(bot id, update id) while the update read by ``peek_update`` (or handled with
        remembered rows) is unclaimed."""
        return self._unclaimed

    def stamp(self) -> Stamp | None:
        """The rows the unclaimed update is handled with and their stamp, if known."""
        return self._stamp if self._unclaimed is not None else None

    def take_over(self, bot_id: int, update_id: int) -> None:
        """Handle an update this process already claimed in an earlier attempt whose answer a
        fault lost (``UnitOfWorkMiddleware``): no claim, its statements run as its own."""
        self._claimed, self._unclaimed, self._stamp = (bot_id, update_id), None, None

    def claimed_by_append(self) -> None:
        self._claimed, self._unclaimed = self._unclaimed, None

    async def bare(self) -> asyncpg.Connection:
        """The driver connection outside any transaction: each statement commits itself."""
        adapted = await self._adapted()
        raw = adapted.driver_connection
        assert isinstance(raw, asyncpg.Connection)
        return raw

    async def _claim_unclaimed(self) -> None:
        """Claim the update a peek read, first thing in the transaction just begun; another
        delivery that claimed it meanwhile makes this one done (``AlreadyProcessed``)."""
        key, self._unclaimed = self._unclaimed, None
        stamp, self._stamp = self._stamp, None
        assert key is not None
        self.rolls.forget_head()  # read without the lock: not for a locked append
        if stamp is None:
            if not await self.updates.claim_on_driver(*key):
                raise AlreadyProcessed(f"update {key[1]}")
        else:
            now = await self.updates.claim_stamped(
                *key, user_id=stamp.user_id, chat_id=stamp.chat_id, fsm_keys=stamp.fsm_keys
            )
            if now is None:
                raise AlreadyProcessed(f"update {key[1]}")
            if now != stamp.value:  # the unit is about to write after rows that changed
                raise StaleContext(f"update {key[1]}")
        self._claimed = key

    async def driver(self) -> asyncpg.Connection:
        """The asyncpg connection under this unit, inside its transaction, for the hot path's
        literal SQL (the claim, the roll log): through SQLAlchemy a statement costs about
        twice the driver's own CPU, and these run on every update (``make bench``).
        Statements run here belong to the unit's transaction: they commit and roll back with
        it. Held until the transaction ends: asking SQLAlchemy costs more than a statement."""
        if self._raw is not None:
            return self._raw
        adapted = await self._adapted()
        if adapted._transaction is None:
            # The transaction lives in SQLAlchemy's asyncpg adapter, begun its own way, so an
            # ORM session made later runs in it (the adapter sends no second BEGIN) and its
            # commit ends it; a unit that never makes one commits it here, without going
            # through SQLAlchemy (see ``commit``). Private to SQLAlchemy, hence
            # tests/foundation/test_uow.py, which fails if this stops holding.
            await adapted._start_transaction()
        raw = adapted.driver_connection
        assert isinstance(raw, asyncpg.Connection)
        self._raw = raw
        if self._unclaimed is not None:
            await self._claim_unclaimed()
        return raw

    async def _adapted(self) -> Any:
        """SQLAlchemy's asyncpg adapter of the unit's connection. Read off the connection
        while it holds one (as right after checkout): asking SQLAlchemy for it spawns a
        greenlet, about a tenth of a claim's CPU."""
        sync = self.connection.sync_connection
        if sync is not None and not sync.closed and not sync.invalidated:
            return sync.connection.dbapi_connection
        return (await self.connection.get_raw_connection()).dbapi_connection

    async def _drop_if_closed(self) -> bool:
        """Invalidate the unit's connection if the server closed it (it is not pooled
        again); False if it is alive. The pools do not ping on checkout (three round trips
        each), so a dead connection shows on its first statement."""
        fairy = await self.connection.get_raw_connection()
        raw = fairy.driver_connection
        if not (isinstance(raw, asyncpg.Connection) and raw.is_closed()):
            return False
        self._raw = None
        await self.connection.invalidate()
        return True

    async def commit(self) -> None:
        if self._unclaimed is not None:
            # Nothing claimed the update a peek read (the roll went another way): claim it
            # now, with whatever the unit's session holds. Its rows are checked only if it
            # holds writes: a unit that writes nothing keeps what it did (what it sent cannot
            # be taken back by handling the update again).
            session = self._session
            if session is None or not (session.new or session.dirty or session.deleted):
                self._stamp = None
            await self.driver()
        self._raw = None
        if self._session is not None:
            await self._session.commit()  # flushes; commits too if the session began
        if self.connection.in_transaction():
            await self.connection.commit()
        await self._end_driver_transaction("commit")
        self.rolls.transaction_ended(committed=True)

    async def _roll_back(self) -> None:
        self._raw = None
        self.rolls.transaction_ended(committed=False)
        self.ledger.changed.clear()  # nothing changed after all: no panel to redraw
        if self._session is not None:
            await self._session.rollback()
        if self.connection.in_transaction():
            await self.connection.rollback()
        await self._end_driver_transaction("rollback")

    async def _end_driver_transaction(self, how: str) -> None:
        """End a transaction only the driver used (``driver``): straight on asyncpg, as the
        adapter would, without SQLAlchemy's commit path (a greenlet and its bookkeeping for
        a transaction it never saw)."""
        sync = self.connection.sync_connection
        if sync is None or sync.invalidated or sync.closed:
            return
        adapted = sync.connection.dbapi_connection
        transaction = adapted._transaction
        if transaction is None:
            return
        adapted._transaction = None  # as the adapter does: tried once, then done with
        try:
            await getattr(transaction, how)()
        except Exception:
            await self._drop_if_closed()  # a connection lost here is not pooled again
            raise

    async def rollback(self) -> None:
        """Undo what this unit wrote, except the claim of its update: a refusal is how that
        update was handled, so a redelivery must still be skipped and the polling inbox row
        still cleared (without this a refused press stayed in the inbox and was replayed on
        the next start). Re-claiming costs nothing on the path that commits normally."""
        await self._roll_back()
        if self._unclaimed is not None:
            self._stamp = None  # a refusal: nothing written, nothing to check
            await self.driver()  # the claim, alone in the transaction the unit commits
        elif self._claimed is not None:
            await self.updates.claim(*self._claimed)
