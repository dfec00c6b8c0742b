"""The update queue behind getUpdates: offsets, long polling, allowed_updates, redelivery."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tgemu.errors import ApiError

logger = logging.getLogger(__name__)

# Telegram leaves these out unless a bot asks for them explicitly.
OPT_IN_TYPES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)


def update_type(update: dict[str, Any]) -> str:
    return next((key for key in update if key != "update_id"), "")


@dataclass
class _Queued:
    update: dict[str, Any]
    update_id: int
    forced: bool = False  # a redelivery: served even though its id is below the offset
    delivered: bool = False
    pushing: bool = False  # webhook mode: a POST of it is under way


class UpdateQueue:
    def __init__(self, on_change: Callable[[], None], first_update_id: int = 1) -> None:
        self._items: list[_Queued] = []
        self._history: dict[int, dict[str, Any]] = {}
        self._next_id = first_update_id
        self._on_change = on_change
        self._arrived = asyncio.Event()
        self._poll_generation = 0
        self.allowed_updates: list[str] | None = None
        self._closed = False

    def __len__(self) -> int:
        return len(self._items)

    def continue_after(self, update_id: int) -> None:
        """Number the next update after ``update_id`` (a sandbox restarted on its database)."""
        self._next_id = max(self._next_id, update_id + 1)

    def put(self, update: dict[str, Any]) -> int:
        if "update_id" not in update:
            update = {"update_id": self._next_id, **update}
        update_id = int(update["update_id"])
        self._next_id = max(self._next_id, update_id + 1)
        self._history[update_id] = update
        self._items.append(_Queued(update=update, update_id=update_id))
        self._wake()
        return update_id

    def redeliver(self, update_id: int) -> None:
        if update_id not in self._history:
            raise KeyError(f"update {update_id} was never enqueued")
        update = copy.deepcopy(self._history[update_id])
        self._items.append(_Queued(update=update, update_id=update_id, forced=True))
        self._wake()

    # webhook mode (tgemu/webhook.py) -------------------------------------------------
    @property
    def arrival(self) -> asyncio.Event:
        """Set at the next change; take it before looking, so no change is missed."""
        return self._arrived

    def push_next(self) -> tuple[int, dict[str, Any]] | None:
        """The oldest update not being POSTed, marked as being POSTed."""
        for item in self._items:
            if not item.pushing and self._allowed(item):
                item.pushing = True
                return item.update_id, copy.deepcopy(item.update)
        return None

    def pushed(self, update_id: int, *, ok: bool) -> None:
        """A POST ended: a 2xx answer takes the update off the queue; anything else leaves
        it to be POSTed again."""
        for item in self._items:
            if item.update_id == update_id and item.pushing:
                if ok:
                    self._items.remove(item)
                else:
                    item.pushing = False
                break
        self._wake()

    def shutdown(self) -> None:
        """Release long polls so the server can stop without waiting for their timeout."""
        self._closed = True
        self._wake()

    def reopen(self) -> None:
        self._closed = False

    def notify(self) -> None:
        """Wake whoever waits for the queue (a change outside it, such as a new webhook)."""
        self._wake()

    def clear(self) -> None:
        self._items.clear()
        self._on_change()

    def _wake(self) -> None:
        self._arrived.set()
        self._arrived = asyncio.Event()
        self._on_change()

    def _allowed(self, item: _Queued) -> bool:
        kind = update_type(item.update)
        if self.allowed_updates:
            return kind in self.allowed_updates
        return kind not in OPT_IN_TYPES

    def confirm(self, offset: int | None) -> None:
        """Forget what the offset confirms, as Telegram does."""
        if not offset:
            return
        before = len(self._items)
        if offset < 0:
            self._items = self._items[offset:]
        else:
            self._items = [
                it
                for it in self._items
                if it.update_id >= offset or (it.forced and not it.delivered)
            ]
        if len(self._items) != before:
            self._on_change()

    def _take(self, offset: int | None, limit: int) -> list[dict[str, Any]]:
        dropped = [it for it in self._items if not self._allowed(it)]
        if dropped:
            # Telegram never stores updates of types the bot did not ask for
            self._items = [it for it in self._items if self._allowed(it)]
            self._on_change()
        batch: list[dict[str, Any]] = []
        for item in self._items:
            if len(batch) >= limit:
                break
            if item.forced or not offset or offset < 0 or item.update_id >= offset:
                item.delivered = True
                batch.append(copy.deepcopy(item.update))
        return batch

    async def get_updates(
        self,
        offset: int | None,
        limit: int,
        timeout: float,
        allowed_updates: list[str] | None,
    ) -> list[dict[str, Any]]:
        self._poll_generation += 1
        generation = self._poll_generation
        self._arrived.set()  # an older long poll (if any) wakes up and yields to this one
        self._arrived = asyncio.Event()
        if allowed_updates is not None:
            self.allowed_updates = list(allowed_updates)
        self.confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout, 0)
        while True:
            if generation != self._poll_generation:
                logger.warning("getUpdates superseded by a newer getUpdates request")
                raise ApiError(409, CONFLICT)
            batch = self._take(offset, limit)
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self._closed:
                return batch
            arrived = self._arrived
            try:
                await asyncio.wait_for(arrived.wait(), remaining)
            except TimeoutError:
                pass
