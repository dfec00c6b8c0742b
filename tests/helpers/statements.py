"""What an engine's connections ran: the first words of each statement, for tests that count
an update's round trips."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


def _head(statement: str) -> str:
    return " ".join(statement.split()[:3])


@contextmanager
def orm_statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """Every statement SQLAlchemy ran on the engine meanwhile."""
    seen: list[str] = []

    def hook(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        seen.append(_head(statement))

    event.listen(engine.sync_engine, "before_cursor_execute", hook)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", hook)


@contextmanager
def driver_statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """Every statement the asyncpg connections checked out meanwhile ran (SQLAlchemy's too)."""
    seen: list[str] = []
    logged: list[Any] = []

    def log(record: Any) -> None:
        seen.append(_head(record.query))

    def on_checkout(dbapi_connection: Any, *_args: object) -> None:
        dbapi_connection.driver_connection.add_query_logger(log)
        logged.append(dbapi_connection.driver_connection)

    event.listen(engine.sync_engine, "checkout", on_checkout)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "checkout", on_checkout)
        for connection in logged:
            connection.remove_query_logger(log)
