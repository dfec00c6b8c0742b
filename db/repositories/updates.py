from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import asyncpg
from sqlalchemy import delete, text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import ProcessedUpdate, utcnow
from db.repositories.rolls import Driver


@dataclass(frozen=True)
class Prefetched:
    """The rows read with an update's claim, as plain column mappings (None where absent)."""

    user: Mapping[str, Any] | None
    chat: Mapping[str, Any] | None
    game: Mapping[str, Any] | None
    role: str | None
    fsm: list[tuple[str, str | None, dict[str, Any]]]  # (key, state, data) of the keys asked
    # the chat's log head, locked (``roll_log_head`` rows), when the claim was told the update
    # will roll (``claim_with_context``); None otherwise
    log_head: list[Mapping[str, Any]] | None = None
    # which versions of those rows these are (``roll_context_stamp``, migration 0014): read by
    # a peek only, for the append to check (``RollRepo.append``)
    stamp: str | None = None


# The claim and, in the same round trip, the rows nearly every update reads next. Literal SQL:
# building this as an ORM statement and loading four entities per update was the largest CPU
# cost on the update path.
# A claim older than Telegram's redelivery window (24 hours) was an earlier update that
# carried the same id (Telegram picks a random id after a week without updates; a restarted
# sandbox numbered from 1 again): it is taken over, never swallows the new one. The same
# window in ``roll_append_claimed`` (migration 0016) and wherever a claim is looked up.
CLAIM_WINDOW = "interval '26 hours'"
_LIVE_CLAIM = f"p.processed_at > now() - {CLAIM_WINDOW}"
_CLAIM_CTE = (
    "WITH claim AS (INSERT INTO processed_updates (bot_id, update_id) VALUES (:bot, :upd) "
    "ON CONFLICT (bot_id, update_id) DO UPDATE SET processed_at = now() "
    f"WHERE processed_updates.processed_at < now() - {CLAIM_WINDOW} RETURNING update_id), "
    # out of the inbox with the same commit as its effects (see bot/polling.py)
    "unboxed AS (DELETE FROM update_inbox WHERE bot_id = :bot AND update_id = :upd) "
)
_CLAIM = text(_CLAIM_CTE + "SELECT update_id FROM claim")
_USER_COLUMNS = (
    "id", "first_name", "last_name", "username", "language_code", "locale", "display_name",
    "timezone", "started_private",
)  # fmt: skip
_CHAT_COLUMNS = ("id", "type", "title", "locale")
_GAME_COLUMNS = (
    "id", "chat_id", "system", "title", "gm_user_id", "options", "timezone", "thread_id", "held",
)  # fmt: skip
_HEAD_COLUMNS = (
    "log_id", "e_epoch", "seed", "commitment", "seq", "roll_id", "epoch", "actor", "subject",
    "expression", "faces", "result", "outcome", "created_at", "prev_hash", "hash", "label",
    "actor_user_id",
)  # fmt: skip
# Where each part starts in a row (the select list below, in this order): a part is a slice.
_USER_AT = 0
_CHAT_AT = _USER_AT + len(_USER_COLUMNS)
_GAME_AT = _CHAT_AT + len(_CHAT_COLUMNS)
_ROLE_AT = _GAME_AT + len(_GAME_COLUMNS)
_HEAD_AT = _ROLE_AT + 2  # after the role and the FSM rows


def _columns(alias: str, names: tuple[str, ...]) -> str:
    return ", ".join(f"{alias}.{name}" for name in names)


# The rows nearly every update reads, after ``source`` (the claim, or nothing for a peek), with
# the log head from ``head`` for an update that will roll ($6 its chat, $7 the roll id); the
# game is the one of the update's forum topic ($8; NULL: the group itself or «General»).
def _context(source: str, head: str, extra: str = "") -> str:
    return (
        f"SELECT {_columns('u', _USER_COLUMNS)}, {_columns('c', _CHAT_COLUMNS)}, "
        f"{_columns('g', _GAME_COLUMNS)}, m.role, "
        # the FSM rows of the update's chat and user (bot/fsm_storage.py): no round trip of
        # their own
        "(SELECT coalesce(jsonb_agg(jsonb_build_array(f.key, f.state, f.data)), '[]'::jsonb) "
        f"FROM fsm_states f WHERE f.key = ANY($5::text[])) AS fsm, "
        f"{_columns('h', _HEAD_COLUMNS)}{extra} "
        f"FROM {source} LEFT JOIN users u ON u.id = $3 LEFT JOIN chats c ON c.id = $4 "
        "LEFT JOIN games g ON g.chat_id = $4 "
        "AND coalesce(g.thread_id, 0) = coalesce($8::bigint, 0) AND g.archived_at IS NULL "
        "LEFT JOIN game_members m ON m.game_id = g.id AND m.user_id = $3 "
        # Up to two rows (the entry under the roll id, the head); for any other update the
        # function returns nothing, whether or not the plan calls it (migration 0012).
        f"LEFT JOIN LATERAL (SELECT * FROM {head}($6, $7) WHERE $6::bigint IS NOT NULL) h "
        "ON true"
    )


# On the driver connection of the unit of work (``UnitOfWork.driver``), with positional
# parameters: through SQLAlchemy this statement cost twice the driver's own CPU. An update
# that will roll locks the chat's log and reads its head here, after the claim (a claimed
# update only): one round trip less per roll.
_CLAIM_CTE_DRIVER = _CLAIM_CTE.replace(":bot", "$1").replace(":upd", "$2")
_CLAIM_WITH_CONTEXT = _CLAIM_CTE_DRIVER + _context("claim", "roll_log_head")
# Which versions of the sender's, chat's, game's, membership's and FSM rows there are now.
_STAMP = "roll_context_stamp($3::bigint, $4::bigint, $5::text[])"
# The same rows read without claiming or locking anything, their stamp, and whether the update
# was already processed: the first of a /r's two round trips while this process does not
# remember its rows (``UnitOfWork.peek_update``; then ``bot/express.py``).
_PEEK_WITH_CONTEXT = _context(
    "(SELECT EXISTS (SELECT 1 FROM processed_updates p WHERE p.bot_id = $1 "
    f"AND p.update_id = $2 AND {_LIVE_CLAIM}) AS done) one",
    "roll_log_peek",
    f", one.done, {_STAMP} AS stamp",
)
_CLAIM_ON_DRIVER = _CLAIM_CTE_DRIVER + "SELECT update_id FROM claim"
# The claim of an update handled with remembered rows, and the stamp of those rows now.
_CLAIM_STAMPED = _CLAIM_CTE_DRIVER + f"SELECT update_id, {_STAMP} FROM claim"


def _part(row: Sequence[Any], at: int, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The columns ``names`` from position ``at`` as a mapping; None for a missing row (its
    id, the first of them, is NULL)."""
    if row[at] is None:
        return None
    return dict(zip(names, row[at : at + len(names)], strict=True))


def _prefetched(
    rows: Sequence[asyncpg.Record], with_head: bool, stamp: str | None = None
) -> Prefetched:
    """A claim's or a peek's rows as plain column mappings (the head's only when asked)."""
    row = rows[0]
    # jsonb arrives decoded: SQLAlchemy sets a codec on every connection it opens
    fsm = [(key, state, data) for key, state, data in row[_ROLE_AT + 1]]
    head = None
    if with_head:
        head = [
            dict(zip(_HEAD_COLUMNS, r[_HEAD_AT : _HEAD_AT + len(_HEAD_COLUMNS)], strict=True))
            for r in rows
            if r[_HEAD_AT] is not None
        ]
    return Prefetched(
        _part(row, _USER_AT, _USER_COLUMNS), _part(row, _CHAT_AT, _CHAT_COLUMNS),
        _part(row, _GAME_AT, _GAME_COLUMNS), row[_ROLE_AT], fsm, head, stamp,
    )  # fmt: skip


class ProcessedUpdateRepo:
    def __init__(self, session: AsyncSession, driver: Driver) -> None:
        self._session = session
        self._driver = driver

    async def claim(self, bot_id: int, update_id: int) -> bool:
        """Record the update inside the current transaction (and take it out of the polling
        inbox); False if it was already processed.

        A concurrent redelivery blocks on the primary key until the first transaction ends,
        then sees the conflict — so two deliveries can never both take effect.
        """
        params = {"bot": bot_id, "upd": update_id}
        return (await self._session.execute(_CLAIM, params)).first() is not None

    async def claim_on_driver(self, bot_id: int, update_id: int) -> bool:
        """``claim`` on the driver connection, in the transaction it begins there."""
        conn = await self._driver()
        return await conn.fetchval(_CLAIM_ON_DRIVER, bot_id, update_id) is not None

    async def claim_stamped(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str],
    ) -> str | None:  # fmt: skip
        """``claim_on_driver`` for an update handled with remembered rows: the stamp of those
        rows now (``roll_context_stamp``), or None if the update was already processed."""
        conn = await self._driver()
        row = await conn.fetchrow(
            _CLAIM_STAMPED, bot_id, update_id, user_id, chat_id, list(fsm_keys)
        )
        return None if row is None else str(row[1])

    async def claim_with_context(
        self, bot_id: int, update_id: int, *, user_id: int | None, chat_id: int | None,
        fsm_keys: Sequence[str] = (), roll: tuple[int, str] | None = None,
        thread_id: int | None = None,
    ) -> Prefetched | None:  # fmt: skip
        """``claim`` plus, in the same round trip, the sender, the chat, the chat's live game,
        the sender's role in it and the FSM rows under ``fsm_keys`` (for the per-update memos);
        for an update that will roll, ``roll`` = (chat id, roll id): the log's head too, the
        log locked as ``RollRepo.head_for_append`` locks it. An update already processed
        returns no row at all: None (and locks nothing)."""
        conn = await self._driver()
        log_chat, roll_id = roll if roll is not None else (None, None)
        rows = await conn.fetch(
            _CLAIM_WITH_CONTEXT, bot_id, update_id, user_id, chat_id, list(fsm_keys),
            log_chat, roll_id, thread_id,
        )  # fmt: skip
        return _prefetched(rows, roll is not None) if rows else None

    async def peek_with_context(
        self, conn: asyncpg.Connection, bot_id: int, update_id: int, *, user_id: int | None,
        chat_id: int | None, fsm_keys: Sequence[str], roll: tuple[int, str],
        thread_id: int | None = None,
    ) -> Prefetched | None:  # fmt: skip
        """What ``claim_with_context`` reads for a roll, on ``conn`` outside any transaction:
        nothing claimed, nothing locked (the log's head as it is now). None if the update
        was already processed."""
        rows = await conn.fetch(
            _PEEK_WITH_CONTEXT, bot_id, update_id, user_id, chat_id, list(fsm_keys), *roll,
            thread_id,
        )  # fmt: skip
        return None if rows[0]["done"] else _prefetched(rows, True, rows[0]["stamp"])

    async def prune(self, older_than: timedelta) -> int:
        """Forget claims older than Telegram ever redelivers (it keeps updates for 24 hours)."""
        stmt = delete(ProcessedUpdate).where(
            col(ProcessedUpdate.processed_at) < utcnow() - older_than
        )
        result = await self._session.execute(stmt)
        return int(result.rowcount or 0)  # type: ignore[attr-defined]


# --- the long-polling inbox (bot/polling.py) and the dead letters ----------------------------
# Plain SQL on the small autocommit engine, outside any unit of work: the inbox is written
# before Telegram is told the batch arrived; each statement below stands alone (what must
# happen together is one statement).

_STASH = (
    "INSERT INTO update_inbox (bot_id, update_id, payload) "
    "SELECT :bot, (u->>'update_id')::bigint, u FROM jsonb_array_elements({}) u "
    "ON CONFLICT (bot_id, update_id) DO NOTHING"
)
STASH = text(_STASH.format("CAST(:batch AS jsonb)"))  # a JSON array of updates
# the text of a getUpdates response ({"ok": true, "result": [updates]}), as Telegram sent it
STASH_POLLED = text(_STASH.format("CAST(:response AS jsonb) -> 'result'"))
_LIVE = (
    "EXISTS (SELECT 1 FROM processed_updates p WHERE p.bot_id = i.bot_id "
    f"AND p.update_id = i.update_id AND {_LIVE_CLAIM})"
)
# Updates waiting in the inbox, oldest first, but for those this process is handling now.
WAITING = text(
    "SELECT payload FROM update_inbox i WHERE bot_id = :bot "
    f"AND NOT {_LIVE} AND NOT (update_id = ANY(CAST(:busy AS bigint[]))) "
    "AND received_at <= now() - make_interval(secs => :min_age) "
    "ORDER BY update_id LIMIT :limit"
)
DROP_DONE = text(f"DELETE FROM update_inbox i WHERE bot_id = :bot AND {_LIVE}")
# Nothing leaves the inbox unsaid: what waited past the replay window is parked, not dropped.
EXPIRE = text(
    "WITH gone AS (DELETE FROM update_inbox i WHERE bot_id = :bot AND received_at <= now() - "
    f"make_interval(secs => :max_age) AND NOT {_LIVE} RETURNING bot_id, update_id, payload) "
    "INSERT INTO update_dead_letters (bot_id, update_id, payload, error) "
    "SELECT bot_id, update_id, payload::text, :error FROM gone "
    "ON CONFLICT (bot_id, update_id) DO NOTHING"
)
DEPTH = text(
    "SELECT count(*), coalesce(extract(epoch FROM now() - min(received_at)), 0) "
    "FROM update_inbox WHERE bot_id = :bot"
)
# Set an update aside, closed: its claim (a redelivery is skipped; an old claim of the same id
# is taken over) and out of the inbox, in the one statement that parks it.
PARK = text(
    "WITH dead AS (INSERT INTO update_dead_letters (bot_id, update_id, payload, error) "
    "VALUES (:bot, :upd, :payload, :error) ON CONFLICT (bot_id, update_id) DO UPDATE SET "
    "payload = excluded.payload, error = excluded.error, "
    "attempts = update_dead_letters.attempts + 1, failed_at = now(), replayed_at = NULL "
    "RETURNING 1), "
    "claim AS (INSERT INTO processed_updates (bot_id, update_id) VALUES (:bot, :upd) "
    "ON CONFLICT (bot_id, update_id) DO UPDATE SET processed_at = now() RETURNING 1), "
    "unboxed AS (DELETE FROM update_inbox WHERE bot_id = :bot AND update_id = :upd "
    "RETURNING 1) "
    "SELECT (SELECT count(*) FROM dead) + (SELECT count(*) FROM claim) "
    "+ (SELECT count(*) FROM unboxed)"
)
DEAD_LETTERS = text(
    "SELECT update_id, attempts, failed_at, replayed_at, error, length(payload) AS size "
    "FROM update_dead_letters WHERE bot_id = :bot "
    "AND (replayed_at IS NULL OR :all) ORDER BY failed_at DESC LIMIT :limit"
)
DEAD_LETTER_COUNT = text(
    "SELECT count(*) FROM update_dead_letters WHERE bot_id = :bot AND replayed_at IS NULL"
)
DEAD_LETTER = text(
    "SELECT payload FROM update_dead_letters WHERE bot_id = :bot AND update_id = :upd "
    "AND replayed_at IS NULL FOR UPDATE"
)
# A replay: the update goes back to the inbox (a running bot handles it within seconds), its
# claim is forgotten, the letter is marked. Run in one transaction with DEAD_LETTER.
REPLAY = text(
    "WITH marked AS (UPDATE update_dead_letters SET replayed_at = now() "
    "WHERE bot_id = :bot AND update_id = :upd RETURNING 1), "
    "unclaimed AS (DELETE FROM processed_updates WHERE bot_id = :bot AND update_id = :upd "
    "RETURNING 1) "
    "INSERT INTO update_inbox (bot_id, update_id, payload) "
    "VALUES (:bot, :upd, CAST(:payload AS jsonb)) "
    "ON CONFLICT (bot_id, update_id) DO UPDATE SET payload = excluded.payload, "
    "received_at = now()"
)

_LAST_ID = text(
    "SELECT greatest((SELECT max(update_id) FROM processed_updates WHERE bot_id = :bot), "
    "(SELECT max(update_id) FROM update_inbox WHERE bot_id = :bot), "
    "(SELECT max(update_id) FROM update_dead_letters WHERE bot_id = :bot))"
)


async def last_update_id(engine: AsyncEngine, bot_id: int) -> int:
    """The highest update id the bot has seen (0 for none)."""
    async with engine.connect() as conn:
        value = (await conn.execute(_LAST_ID, {"bot": bot_id})).scalar_one()
    return int(value or 0)
