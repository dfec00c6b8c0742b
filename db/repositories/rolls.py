"""The per-chat roll log: seed epochs and append-only, hash-chained entries."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import asyncpg
from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Roll, RollLog, SeedEpoch, utcnow
from engine.dice.log import EpochRecord, LogEntry, RollLogExport


@dataclass(frozen=True)
class Epoch:
    log_id: int
    epoch: int
    seed: bytes
    commitment: str
    revealed_at: datetime | None


@dataclass(frozen=True)
class StoredRoll:
    entry: LogEntry
    label: str | None
    actor_user_id: int | None


def _entry(row: Roll) -> LogEntry:
    return LogEntry(
        seq=row.seq,
        roll_id=row.roll_id,
        epoch=row.epoch,
        actor=row.actor,
        subject=row.subject,
        expression=row.expression,
        faces=tuple(row.faces),
        result=row.result,
        outcome=row.outcome,
        created_at=row.created_at,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def _epoch(row: SeedEpoch) -> Epoch:
    return Epoch(row.log_id, row.epoch, bytes(row.seed), row.commitment, row.revealed_at)


@dataclass(frozen=True)
class LogHead:
    """What an append needs, read with the log locked: its id, the open epoch, the entry
    already logged under the roll id (if any) and the newest entry (the chain's head)."""

    log_id: int
    epoch: Epoch | None
    existing: StoredRoll | None
    last: LogEntry | None


# The roll path's statements, run on the driver connection of the unit of work (``driver``):
# ORM statements, then SQLAlchemy's execution of literal SQL, were the largest shares of the
# bot's CPU per /r (see make bench).
#
# Lock the chat's log (creating it), then read the open epoch, the entry under the roll id and
# the chain's head: two statements in one round trip (migration 0011 says why they are two).
_HEAD = "SELECT * FROM roll_log_head($1, $2)"
_APPEND = (
    "INSERT INTO rolls (log_id, seq, roll_id, epoch, actor, subject, expression, faces, "
    "result, outcome, created_at, prev_hash, hash, actor_user_id, label) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
)

# The rest of a /r as one autocommitted statement (migrations 0013, 0014): check the rows it
# was handled with, lock, check the head the roll was chained to, claim the update, append.
_APPEND_STAMPED = (
    "SELECT roll_append_stamped($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
    "$15, $16, $17, $18, $19, $20, $21)"
)

Driver = Callable[[], Awaitable[asyncpg.Connection]]

# The export file (``engine.dice.log``, format rollog/1) built by the server: the same values
# as ``RollRepo.export`` then ``RollLogExport.dumps`` (keys sorted, seeds of revealed epochs
# only), one entry per line instead of one value per line.
_EXPORT_TEXT = """
SELECT json_build_object(
  'entries', COALESCE((
    SELECT json_agg(json_build_object(
      'actor', r.actor, 'created_at', r.created_at, 'epoch', r.epoch,
      'expression', r.expression, 'faces', r.faces, 'hash', r.hash, 'outcome', r.outcome,
      'prev_hash', r.prev_hash, 'result', r.result, 'roll_id', r.roll_id, 'seq', r.seq,
      'subject', r.subject) ORDER BY r.seq)
    FROM rolls r WHERE r.log_id = :log_id), '[]'::json),
  'epochs', COALESCE((
    SELECT json_agg(json_build_object(
      'commitment', e.commitment, 'epoch', e.epoch,
      'seed', CASE WHEN e.revealed_at IS NULL THEN NULL ELSE encode(e.seed, 'hex') END)
      ORDER BY e.epoch)
    FROM seed_epochs e WHERE e.log_id = :log_id), '[]'::json),
  'format', 'rollog/1',
  'game', CAST(:game AS text))::text
"""


class Express(Protocol):
    """A unit of work whose update is not claimed yet (``UnitOfWork.peek_update``): the roll
    it was read for can claim it with its append, on a connection outside any transaction."""

    def express_claim(self) -> tuple[int, int] | None:
        """(bot id, update id) while the update is still unclaimed, else None."""

    async def bare(self) -> asyncpg.Connection:
        """The unit's driver connection, outside any transaction."""

    def claimed_by_append(self) -> None:
        """The append claimed the update and committed."""

    def stamp(self) -> Stamp | None:
        """The rows the update is handled with, and the stamp they had when read."""


@dataclass(frozen=True)
class Stamp:
    """Which rows an unclaimed update was handled with (the sender, the chat and the FSM
    keys it read) and ``roll_context_stamp`` of them when they were read (migration 0014)."""

    user_id: int | None
    chat_id: int | None
    fsm_keys: Sequence[str]
    value: str


class AlreadyProcessed(Exception):
    """The update this unit handles was claimed by another delivery meanwhile: it is done."""


class StaleContext(Exception):
    """The rows an unclaimed update was handled with, remembered from an earlier update
    (``UnitOfWork.handle_remembered``), changed before its claim: nothing was written, and the
    update is to be handled again from a fresh read (``UnitOfWorkMiddleware``)."""


def _log_head(rows: Sequence[Mapping[str, Any]], roll_id: str) -> LogHead:
    """``roll_log_head``'s rows as a ``LogHead`` (never no row: a new log still has its id)."""
    log_id = int(rows[0]["log_id"])
    epoch: Epoch | None = None
    existing: StoredRoll | None = None
    last: LogEntry | None = None
    for row in rows:
        if row["e_epoch"] is not None:
            epoch = Epoch(log_id, row["e_epoch"], bytes(row["seed"]), row["commitment"], None)
        if row["seq"] is None:
            continue
        entry = LogEntry(
            seq=row["seq"], roll_id=row["roll_id"], epoch=row["epoch"], actor=row["actor"],
            subject=row["subject"], expression=row["expression"], faces=tuple(row["faces"]),
            result=row["result"], outcome=row["outcome"], created_at=row["created_at"],
            prev_hash=row["prev_hash"], hash=row["hash"],
        )  # fmt: skip
        if row["roll_id"] == roll_id:
            existing = StoredRoll(entry, row["label"], row["actor_user_id"])
        if last is None or entry.seq > last.seq:
            last = entry
    return LogHead(log_id, epoch, existing, last)


class RollRepo:
    def __init__(
        self, session: AsyncSession, driver: Driver, express: Express | None = None
    ) -> None:
        self._session = session
        self._driver = driver
        self._express = express
        # (chat id, roll id) -> the head read with the update's claim, the log locked since
        # (``remember_head``); good until the transaction ends (``forget_head``). Unlocked:
        # read by a peek (``remember_peeked``), for an append that checks it (``append``).
        self._prefetched: tuple[tuple[int, str], LogHead, bool] | None = None
        # (chat id, head, read without the lock) handed out for the append that comes next
        self._handed: tuple[int, LogHead, bool] | None = None
        # (chat id, the log's head after this unit's append, whether it is committed)
        self._appended: tuple[int, LogHead, bool] | None = None

    def remember_head(self, chat_id: int, roll_id: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Keep the head the claim read (``ProcessedUpdateRepo.claim_with_context``) for
        the append it was read for."""
        self._prefetched = ((chat_id, roll_id), _log_head(rows, roll_id), True)

    def remember_peeked(
        self, chat_id: int, roll_id: str, rows: Sequence[Mapping[str, Any]]
    ) -> bool:
        """Keep the head a peek read, unlocked, if a roll can be chained to it and checked at
        its append: the log exists, an epoch is open, the roll id is not logged. False if
        not (the usual path then reads it under the lock)."""
        if not rows:
            return False
        return self.remember_unlocked(chat_id, roll_id, _log_head(rows, roll_id))

    def remember_unlocked(self, chat_id: int, roll_id: str, head: LogHead) -> bool:
        """``remember_peeked`` for a head read earlier (a peek's, or one remembered after an
        append: ``appended``)."""
        if head.epoch is None or head.existing is not None:
            return False
        self._prefetched = ((chat_id, roll_id), head, False)
        return True

    def forget_head(self) -> None:
        """The transaction ended: its lock, and the head read under it, are gone."""
        self._prefetched = self._handed = None

    def transaction_ended(self, *, committed: bool) -> None:
        """``forget_head``, and the head an append in the transaction made is the log's head
        once committed, or none of it when rolled back."""
        self.forget_head()
        if self._appended is not None and not self._appended[2]:
            chat_id, head, _ = self._appended
            self._appended = (chat_id, head, True) if committed else None

    def appended(self) -> tuple[int, LogHead] | None:
        """(chat id, the log's head) after this unit's last committed append, when it is
        known: the next roll in that chat can be chained to it unread (its append checks)."""
        if self._appended is None or not self._appended[2]:
            return None
        return self._appended[0], self._appended[1]

    async def head_for_append(self, chat_id: int, roll_id: str) -> LogHead:
        """Lock the chat's log (creating it), then read the open epoch, the entry under
        ``roll_id`` and the chain's head — one call, two statements (``roll_log_head``): the
        read comes after the lock, so it sees everything the previous append (or a /reveal)
        committed. Read with the update's claim if it was told of this roll (then no
        statement here); once: the append comes next. A /r's head read by its peek, without
        the lock, is handed out while the update is unclaimed: ``append`` then checks it."""
        prefetched, self._prefetched = self._prefetched, None
        if prefetched is not None and prefetched[0] == (chat_id, roll_id):
            _, head, locked = prefetched
            if locked:
                return self._hand(chat_id, head)
            if self._express is not None and self._express.express_claim() is not None:
                return self._hand(chat_id, head, unlocked=True)
        conn = await self._driver()
        return self._hand(chat_id, _log_head(await conn.fetch(_HEAD, chat_id, roll_id), roll_id))

    def _hand(self, chat_id: int, head: LogHead, *, unlocked: bool = False) -> LogHead:
        self._handed = (chat_id, head, unlocked)
        return head

    async def log_id(self, chat_id: int) -> int:
        """The chat's log, created on first use."""
        stmt = (
            insert(RollLog)
            .values(chat_id=chat_id)
            .on_conflict_do_update(index_elements=["chat_id"], set_={"chat_id": chat_id})
            .returning(col(RollLog.id))
        )
        return int((await self._session.execute(stmt)).scalar_one())

    async def existing_log_id(self, chat_id: int) -> int | None:
        stmt = select(RollLog.id).where(col(RollLog.chat_id) == chat_id)
        value = (await self._session.execute(stmt)).scalar_one_or_none()
        return int(value) if value is not None else None

    async def lock(self, log_id: int) -> None:
        """Serialise appends to one log until the transaction ends."""
        stmt = select(RollLog.id).where(col(RollLog.id) == log_id).with_for_update()
        await self._session.execute(stmt)

    async def open_epoch(self, log_id: int) -> Epoch | None:
        stmt = select(SeedEpoch).where(
            col(SeedEpoch.log_id) == log_id, col(SeedEpoch.revealed_at).is_(None)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _epoch(row) if row else None

    async def epoch(self, log_id: int, number: int) -> Epoch | None:
        stmt = select(SeedEpoch).where(
            col(SeedEpoch.log_id) == log_id, col(SeedEpoch.epoch) == number
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _epoch(row) if row else None

    async def add_epoch(self, log_id: int, seed: bytes, commitment: str) -> Epoch:
        latest = select(func.coalesce(func.max(SeedEpoch.epoch), 0)).where(
            col(SeedEpoch.log_id) == log_id
        )
        number = int((await self._session.execute(latest)).scalar_one()) + 1
        row = SeedEpoch(log_id=log_id, epoch=number, seed=seed, commitment=commitment)
        self._session.add(row)
        await self._session.flush()
        return _epoch(row)

    async def reveal(self, log_id: int, number: int) -> None:
        stmt = (
            update(SeedEpoch)
            .where(col(SeedEpoch.log_id) == log_id, col(SeedEpoch.epoch) == number)
            .values(revealed_at=utcnow())
        )
        await self._session.execute(stmt)

    async def newest_seqs(self, chat_ids: Sequence[int]) -> dict[int, int]:
        """Each chat's newest roll number (a chat without rolls is left out), in one read:
        what a page listing rolls of several logs is versioned by."""
        stmt = (
            select(col(RollLog.chat_id), func.max(col(Roll.seq)))
            .join(Roll, col(Roll.log_id) == col(RollLog.id))
            .where(col(RollLog.chat_id).in_(list(chat_ids)))
            .group_by(col(RollLog.chat_id))
        )
        rows = (await self._session.execute(stmt)).all()
        return {int(chat): int(seq) for chat, seq in rows}

    async def last(self, log_id: int) -> LogEntry | None:
        stmt = (
            select(Roll).where(col(Roll.log_id) == log_id).order_by(col(Roll.seq).desc()).limit(1)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _entry(row) if row else None

    async def by_roll_id(self, log_id: int, roll_id: str) -> StoredRoll | None:
        stmt = select(Roll).where(col(Roll.log_id) == log_id, col(Roll.roll_id) == roll_id)
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return StoredRoll(_entry(row), row.label, row.actor_user_id) if row else None

    async def append(
        self, log_id: int, entry: LogEntry, *, actor_user_id: int | None, label: str | None
    ) -> bool:
        """Append ``entry`` after the head ``head_for_append`` returned. True when appended;
        False when that head was read without the lock (a /r's peek) and has moved since:
        nothing was written, and the next ``head_for_append`` reads it under the lock."""
        handed, self._handed = self._handed, None
        if handed is not None and handed[2]:
            claim = self._express.express_claim() if self._express is not None else None
            if claim is None:  # claimed since the unlocked read: read again, under the lock
                return False
            return await self._append_claimed(claim, handed[:2], entry, actor_user_id, label)
        conn = await self._driver()
        await conn.execute(
            _APPEND, log_id, entry.seq, entry.roll_id, entry.epoch, entry.actor, entry.subject,
            entry.expression, list(entry.faces), entry.result, entry.outcome, entry.created_at,
            entry.prev_hash, entry.hash, actor_user_id, label,
        )  # fmt: skip
        if handed is not None and handed[1].log_id == log_id:
            self._chained(handed[0], handed[1], entry, committed=False)
        return True

    def _chained(self, chat_id: int, head: LogHead, entry: LogEntry, *, committed: bool) -> None:
        """Remember the log's head after ``entry``, appended to ``head`` — unless the roll
        opened its epoch (the head read had none, and an ``Epoch`` is more than its number)."""
        if head.epoch is not None and head.epoch.epoch == entry.epoch:
            self._appended = (chat_id, LogHead(head.log_id, head.epoch, None, entry), committed)
        else:
            self._appended = None

    async def _append_claimed(
        self, claim: tuple[int, int], unlocked: tuple[int, LogHead], entry: LogEntry,
        actor_user_id: int | None, label: str | None,
    ) -> bool:  # fmt: skip
        """The append, the head check and the update's claim in one autocommitted statement
        (``roll_append_claimed``): all or nothing."""
        assert self._express is not None
        chat_id, head = unlocked
        prev_seq = head.last.seq if head.last is not None else None
        stamp = self._express.stamp()
        assert stamp is None or stamp.chat_id == chat_id  # a /r's rows are its own chat's
        checked = (
            (stamp.user_id, list(stamp.fsm_keys), stamp.value) if stamp else (None, None, None)
        )
        conn = await self._express.bare()
        status = await conn.fetchval(
            _APPEND_STAMPED, *checked, *claim, chat_id, prev_seq, entry.seq, entry.roll_id,
            entry.epoch, entry.actor, entry.subject, entry.expression, list(entry.faces),
            entry.result, entry.outcome, entry.created_at, entry.prev_hash, entry.hash,
            actor_user_id, label,
        )  # fmt: skip
        if status == "context":
            raise StaleContext(f"update {claim[1]}")
        if status == "done":
            raise AlreadyProcessed(f"update {claim[1]}")
        if status == "ok":
            self._express.claimed_by_append()
            self._chained(chat_id, head, entry, committed=True)
            return True
        return False

    async def recent(self, log_id: int, *, offset: int, limit: int) -> list[StoredRoll]:
        stmt = (
            select(Roll)
            .where(col(Roll.log_id) == log_id)
            .order_by(col(Roll.seq).desc())
            .offset(offset)
            .limit(limit)
        )
        rows = (await self._session.execute(stmt)).scalars().all()
        return [StoredRoll(_entry(r), r.label, r.actor_user_id) for r in rows]

    async def count(self, log_id: int) -> int:
        stmt = select(func.count()).select_from(Roll).where(col(Roll.log_id) == log_id)
        return int((await self._session.execute(stmt)).scalar_one())

    async def export(self, log_id: int, game: str) -> RollLogExport:
        """Every entry and epoch; a seed appears only once its epoch is revealed."""
        epochs = (
            (
                await self._session.execute(
                    select(SeedEpoch)
                    .where(col(SeedEpoch.log_id) == log_id)
                    .order_by(col(SeedEpoch.epoch))
                )
            )
            .scalars()
            .all()
        )
        rows = (
            (
                await self._session.execute(
                    select(Roll).where(col(Roll.log_id) == log_id).order_by(col(Roll.seq))
                )
            )
            .scalars()
            .all()
        )
        return RollLogExport(
            game=game,
            epochs=tuple(
                EpochRecord(e.epoch, e.commitment, bytes(e.seed).hex() if e.revealed_at else None)
                for e in epochs
            ),
            entries=tuple(_entry(r) for r in rows),
        )

    async def export_text(self, log_id: int, game: str) -> str:
        """``export`` as the file's text, built by the server (``_EXPORT_TEXT``): a large log
        costs the bot's event loop one string, not a Python object per field."""
        stmt = text(_EXPORT_TEXT).bindparams(log_id=log_id, game=game)
        return str((await self._session.execute(stmt)).scalar_one())

    async def hashes(self, log_id: int, *, upto: int) -> tuple[str, ...]:
        """The hashes of entries 1…``upto`` (fewer if the log is shorter), in order."""
        stmt = (
            select(Roll.hash)
            .where(col(Roll.log_id) == log_id, col(Roll.seq) <= upto)
            .order_by(col(Roll.seq))
        )
        return tuple((await self._session.execute(stmt)).scalars().all())

    async def commitments(self, log_id: int) -> dict[int, str]:
        """Every epoch's commitment by its number (published ones: they need no reveal)."""
        stmt = select(SeedEpoch.epoch, SeedEpoch.commitment).where(col(SeedEpoch.log_id) == log_id)
        return {int(e): str(c) for e, c in (await self._session.execute(stmt)).all()}

    async def revealed_epochs(self, log_id: int) -> frozenset[int]:
        """The numbers of the epochs whose seed is published."""
        stmt = select(SeedEpoch.epoch).where(
            col(SeedEpoch.log_id) == log_id, col(SeedEpoch.revealed_at).is_not(None)
        )
        return frozenset(int(e) for e in (await self._session.execute(stmt)).scalars().all())

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Group → supergroup: the log follows the chat (entries keep their log id)."""
        stmt = (
            update(RollLog).where(col(RollLog.chat_id) == old_chat_id).values(chat_id=new_chat_id)
        )
        await self._session.execute(stmt)
