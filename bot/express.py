"""What a process remembers of its /r, so that a chat member's next /r reads nothing first.

A /r is read (``UnitOfWork.peek_update``: the sender, the chat, its game, the sender's role,
their FSM rows and the log's head), then claimed with its append in one statement. Players
roll again and again in the same chat, and between two of their rolls those rows rarely
change: so the rows a /r read, with their stamp (migration 0014), and the log's head after
this process's last append in each chat are kept here, and the next /r of the same member is
handled with them — one round trip. Its append checks both, so nothing is ever decided on rows
that changed meanwhile, in this process or another: a moved head takes the locked path, changed
rows make the update start again from a fresh read (``UnitOfWorkMiddleware``).

Bounded (least recently used out first); a process that restarts simply reads again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeVar

from db.repositories.rolls import LogHead
from db.repositories.updates import Prefetched

# (bot id, sender, chat, FSM keys read, forum topic: its game is another one)
ContextKey = tuple[int, int | None, int | None, tuple[str, ...], int | None]
K = TypeVar("K")
V = TypeVar("V")


def context_key(
    bot_id: int, user_id: int | None, chat_id: int | None, fsm_keys: Sequence[str],
    thread_id: int | None = None,
) -> ContextKey:  # fmt: skip
    return bot_id, user_id, chat_id, tuple(fsm_keys), thread_id


class ExpressCache:
    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._contexts: OrderedDict[ContextKey, Prefetched] = OrderedDict()
        self._heads: OrderedDict[int, LogHead] = OrderedDict()  # by chat id

    def lookup(self, key: ContextKey, chat_id: int) -> tuple[Prefetched, LogHead] | None:
        """The rows and the head to handle a /r of ``key`` in ``chat_id`` with, if both are
        known."""
        prefetched = self._contexts.get(key)
        head = self._heads.get(chat_id)
        if prefetched is None or head is None:
            return None
        self._contexts.move_to_end(key)
        self._heads.move_to_end(chat_id)
        return prefetched, head

    def keep_context(self, key: ContextKey, prefetched: Prefetched) -> None:
        """Remember rows a /r read (only with their stamp: the check needs it)."""
        if prefetched.stamp is not None:
            _put(self._contexts, key, prefetched, self._size)

    def keep_head(self, chat_id: int, head: LogHead) -> None:
        _put(self._heads, chat_id, head, self._size)

    def forget(self, key: ContextKey) -> None:
        self._contexts.pop(key, None)


def _put(entries: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    entries[key] = value
    entries.move_to_end(key)
    while len(entries) > size:
        entries.popitem(last=False)
