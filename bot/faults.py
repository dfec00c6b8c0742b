"""Which failures are passing ones: retried with back-off, never reported as "try again".

A database that is unreachable, restarting, read-only after a failover, or that broke a
deadlock or a serialization conflict, and a Telegram answering 5xx, 429 or nothing: each goes
away by itself, and an update that met one has changed nothing that stays (its unit of work
rolled back). Anything else is a fault of the update or of the bot.
"""

from __future__ import annotations

import asyncio

import asyncpg
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from sqlalchemy import exc as sa_exc

# SQLSTATE classes and codes that pass: connection exceptions (08), insufficient resources
# (53), operator intervention (57: admin shutdown, cannot connect now, query cancelled), and
# the transaction rollbacks (40: serialization failure, deadlock), a read-only transaction
# (25006: the server became a standby), a lock not available (55P03).
_PASSING_CLASSES = ("08", "53", "57", "40")
_PASSING_CODES = ("25006", "55P03", "55006")


def _sqlstate(error: BaseException) -> str | None:
    state = getattr(error, "sqlstate", None) or getattr(error, "pgcode", None)
    return state if isinstance(state, str) else None


def _one_is_transient(error: BaseException) -> bool:
    if isinstance(error, TelegramServerError | TelegramNetworkError | TelegramRetryAfter):
        return True
    if isinstance(error, OSError | TimeoutError | asyncio.TimeoutError | ConnectionError):
        return True
    if isinstance(error, asyncpg.InterfaceError | asyncpg.PostgresConnectionError):
        return True
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, sa_exc.TimeoutError):  # no pooled connection came in time
        return True
    state = _sqlstate(error)
    return state is not None and (state[:2] in _PASSING_CLASSES or state in _PASSING_CODES)


def is_transient(error: BaseException) -> bool:
    """Whether ``error``, or any error it was raised from, passes by itself."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _one_is_transient(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def error_class(error: BaseException) -> str:
    """A short name for metrics and logs: the SQLSTATE where there is one, else the type."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        state = _sqlstate(current)
        if state is not None:
            return state
        current = current.__cause__ or current.__context__
    return type(error).__name__
