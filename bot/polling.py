"""Long polling that loses no update, lets no update block another, and drains its inbox.

* **Nothing lost.** aiogram's polling confirms a batch (``getUpdates`` with the next offset)
  as soon as it has handed the updates to tasks, so updates still running when the process
  dies would never be served again. Here each batch is first written to ``update_inbox`` (one
  statement, the response's own text when the session kept it) and only then confirmed; an
  update's claim deletes its inbox row in the same commit as its effects
  (``db/repositories/updates.py``). If the inbox cannot be written because the database is
  away, the batch is not confirmed and Telegram serves it again.
* **No poison.** Text the database cannot hold was cleaned when the response arrived
  (``bot/edge.py``). If a batch still cannot be stored for a reason of its own, each update is
  stored alone and the one refused is parked in ``update_dead_letters`` (closed, its sender
  told), and polling goes on at once.
* **Fair.** Updates wait in one queue per chat and user (``FairQueues``); a queue runs one
  update at a time, a chat at most ``PER_CHAT`` at once, and all together ``concurrency``. A
  user flooding a group holds one slot, a busy group a few; every other chat keeps the rest.
* **Drained while running.** What a handling left in the inbox (the database went away for
  longer than the retries, ``bot/runner.py``) or a previous process left there is picked up
  every ``DRAIN_EVERY`` seconds once the database answers, in update order, and handled
  exactly once (the claim). Updates older than the replay window are parked, not dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Hashable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import GetUpdates
from aiogram.types import Update
from aiogram.utils.backoff import Backoff, BackoffConfig
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.answers import answer_while_queued
from bot.delivery import topic_of_message
from bot.edge import lossless
from bot.faults import is_transient
from bot.i18n import I18n, update_locale
from bot.metrics import Metrics
from bot.runner import TEXT_CLEANED
from bot.session import BotSession
from db.repositories.updates import (
    DEAD_LETTER_COUNT,
    DEPTH,
    DROP_DONE,
    EXPIRE,
    PARK,
    STASH,
    STASH_POLLED,
    WAITING,
)

logger = logging.getLogger(__name__)

# getUpdates or the inbox failing: tried again within 2 s, so polling resumes soon after a fault
DEFAULT_BACKOFF = BackoffConfig(min_delay=0.5, max_delay=2.0, factor=1.3, jitter=0.1)
REPLAY_WINDOW_SECONDS = 24 * 3600  # Telegram's own; older inbox rows are parked
INBOX_ENGINE = "inbox_engine"  # workflow-data key: an autocommit engine (see build_runtime)
METRICS = "metrics"  # workflow-data key: the runtime's ``Metrics``
QUEUES = "update_queues"  # workflow-data key: the polling loop's ``FairQueues``
PER_CHAT = 4  # updates of one chat handled at once
DRAIN_EVERY = 2.0  # seconds between looks at the inbox
DRAIN_BATCH = 500
# What the drain leaves to polling: a row stored this recently is being handed over by the
# polling loop itself (read between the stash and the hand-over, it was taken twice, and a
# burst logged hundreds of "waiting" updates that were not waiting).
DRAIN_MIN_AGE = 3.0
MAX_QUEUED = 5_000  # updates received and not started: polling waits beyond this
# Seconds a queued press may spin before it is answered without text (its handler not run, so
# a refusal's reason is lost): a last resort for a sender's flood of presses, well inside the
# time Telegram takes an answer. A press never waits for another update's pacing any more
# (``bot.answers.PressFirstIsolation``), so this is a wait for work, seconds at most.
PRESS_PATIENCE = 5.0
PRESSES_AT_ONCE = 4  # presses of one sender in one chat handled at once (their lock orders them)
EXPIRED = "expired: not handled within the replay window (the database was away too long)"

Key = tuple[Hashable, Hashable]  # (chat, user), or (chat, ("press", user)) for presses


def fair_key(update: Update) -> Key:
    """(chat, user) of an update: its queue. Updates with neither get a queue each."""
    event = update.event
    chat = getattr(event, "chat", None)
    message = getattr(event, "message", None)
    if chat is None and message is not None:
        chat = getattr(message, "chat", None)
    user = getattr(event, "from_user", None)
    chat_id = chat.id if chat is not None else None
    user_id = user.id if user is not None else None
    if chat_id is None and user_id is None:
        return ("update", update.update_id)
    chat_key = chat_id if chat_id is not None else ("user", user_id)
    if update.callback_query is not None:
        # Presses have a queue of their own beside their sender's messages (a few run at
        # once): they reach the isolation lock behind those, which answers them while those
        # wait for pacing (``bot.answers.PressFirstIsolation``) and runs them in turn.
        return (chat_key, ("press", user_id))
    return (chat_key, user_id)


def _is_press(key: Key) -> bool:
    user = key[1]
    return isinstance(user, tuple) and user[:1] == ("press",)


class FairQueues:
    """Updates queued per (chat, user); started round-robin over the queues, at most one per
    queue, ``per_chat`` per chat and ``concurrency`` in all. A slot is taken only when an
    update starts, never while it waits behind its own chat."""

    def __init__(
        self, run: Callable[[Update], Coroutine[Any, Any, Any]], *, concurrency: int,
        per_chat: int = PER_CHAT,
        press_waits: Callable[[Update], Coroutine[Any, Any, Any]] | None = None,
    ) -> None:  # fmt: skip
        self._run = run
        # called for a press still queued ``PRESS_PATIENCE`` seconds after it came (behind
        # its sender's earlier press, or with every slot taken): answer it meanwhile
        self._press_waits = press_waits
        self._started: set[int] = set()
        self._concurrency = concurrency
        self._per_chat = max(1, min(per_chat, concurrency))
        self._queues: dict[Key, deque[Update]] = {}
        self._ready: deque[Key] = deque()  # queues with work and room to run it
        self._in_ready: set[Key] = set()
        self._key_running: dict[Key, int] = {}
        self._busy_chats: dict[Hashable, int] = {}
        self._running = 0
        self.tasks: set[asyncio.Task[Any]] = set()
        self.pending: set[int] = set()  # update ids queued or running here
        self._room = asyncio.Event()
        self._room.set()

    async def cancel_running(self) -> None:
        """At shutdown, after the grace: stop what still runs (its unit of work rolls back,
        its inbox row stays for the next start) and start nothing more."""
        self._concurrency = 0
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=5.0)

    @property
    def queued(self) -> int:
        return len(self.pending) - self._running

    def submit(self, update: Update) -> None:
        if update.update_id in self.pending:
            return  # already here (the inbox drain met an update polling handed over)
        self.pending.add(update.update_id)
        key = fair_key(update)
        self._queues.setdefault(key, deque()).append(update)
        self._offer(key)
        if self.queued >= MAX_QUEUED:
            self._room.clear()
        self._pump()
        if update.callback_query is not None and self._press_waits is not None:
            if update.update_id not in self._started:
                asyncio.get_running_loop().call_later(PRESS_PATIENCE, self._impatient, update)

    def _offer(self, key: Key) -> None:
        """Put ``key`` in line (at the back) if it has work and room to run more."""
        cap = PRESSES_AT_ONCE if _is_press(key) else 1
        if (
            key not in self._in_ready
            and self._queues.get(key)
            and self._key_running.get(key, 0) < cap
        ):
            self._ready.append(key)
            self._in_ready.add(key)

    def _impatient(self, update: Update) -> None:
        if update.update_id in self.pending and update.update_id not in self._started:
            assert self._press_waits is not None
            task = asyncio.create_task(self._press_waits(update))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def room(self) -> None:
        """Wait until the queues can take more (polling then fetches the next batch)."""
        await self._room.wait()

    def _pump(self) -> None:
        skipped: list[Key] = []
        while self._ready and self._running < self._concurrency:
            key = self._ready.popleft()
            chat = key[0]
            # A press is never held back by its chat's share: it is answered as soon as it
            # starts, even while the chat's other updates wait for pacing (a few presses at a
            # time per sender, so a chat has no more of them running than its pressers allow).
            if self._busy_chats.get(chat, 0) >= self._per_chat and not _is_press(key):
                skipped.append(key)
                continue
            self._in_ready.discard(key)
            self._start(key, chat)
            self._offer(key)  # a press key may run a few at once: back in line
        self._ready.extendleft(reversed(skipped))

    def _start(self, key: Key, chat: Hashable) -> None:
        update = self._queues[key].popleft()
        self._started.add(update.update_id)
        self._running += 1
        self._key_running[key] = self._key_running.get(key, 0) + 1
        self._busy_chats[chat] = self._busy_chats.get(chat, 0) + 1
        task = asyncio.create_task(self._run(update))
        self.tasks.add(task)

        def finished(done: asyncio.Task[Any]) -> None:
            self.tasks.discard(done)
            self.pending.discard(update.update_id)
            self._started.discard(update.update_id)
            self._running -= 1
            running = self._key_running[key] - 1
            if running:
                self._key_running[key] = running
            else:
                del self._key_running[key]
            left = self._busy_chats[chat] - 1
            if left:
                self._busy_chats[chat] = left
            else:
                del self._busy_chats[chat]
            if self._queues[key]:
                self._offer(key)  # to the back: the other queues go first
            elif not running:
                del self._queues[key]
            if self.queued < MAX_QUEUED:
                self._room.set()
            self._pump()

        task.add_done_callback(finished)


# Telegram's update types: the fields of an Update other than its id. A router may observe
# more (aiogram-dialog's ``aiogd_update`` is its own internal event, fed by no update).
TELEGRAM_UPDATE_TYPES = frozenset(Update.model_fields) - {"update_id"}


class InboxDispatcher(Dispatcher):
    def resolve_used_update_types(self, skip_events: set[str] | None = None) -> list[str]:
        """The update types handled, Telegram's only: what polling (``start_polling``) and
        the webhook (``setWebhook``) ask for as ``allowed_updates``."""
        used = super().resolve_used_update_types(skip_events)
        return [kind for kind in used if kind in TELEGRAM_UPDATE_TYPES]

    async def _polling(
        self,
        bot: Bot,
        polling_timeout: int = 30,
        handle_as_tasks: bool = True,
        backoff_config: BackoffConfig = DEFAULT_BACKOFF,
        allowed_updates: list[str] | None = None,
        tasks_concurrency_limit: int | None = None,
        **kwargs: Any,
    ) -> None:
        engine: AsyncEngine = self[INBOX_ENGINE]
        session = bot.session if isinstance(bot.session, BotSession) else None
        cleaned: set[int] = set()

        async def run(update: Update) -> Any:
            extra = {TEXT_CLEANED: True} if update.update_id in cleaned else {}
            try:
                return await self._process_update(bot=bot, update=update, **kwargs, **extra)
            finally:
                cleaned.discard(update.update_id)

        async def press_waits(update: Update) -> None:
            assert update.callback_query is not None
            await answer_while_queued(bot, update.callback_query.id)

        queues = FairQueues(
            run, concurrency=tasks_concurrency_limit or 64, press_waits=press_waits
        )
        self[QUEUES] = queues
        metrics: Metrics | None = self.get(METRICS)
        try:  # what the last run left goes first, ahead of anything new of its chat
            for update in await _waiting(engine, bot, queues.pending, metrics, min_age=0.0):
                queues.submit(update)
        except Exception as error:
            logger.warning("inbox: cannot read it at start (%s); will look again", error)
        drain = asyncio.create_task(self._drain(engine, bot, queues))
        try:
            await self._poll(bot, engine, session, queues, cleaned, polling_timeout,
                             backoff_config, allowed_updates)  # fmt: skip
        finally:
            drain.cancel()

    async def _poll(
        self, bot: Bot, engine: AsyncEngine, session: BotSession | None, queues: FairQueues,
        cleaned: set[int], polling_timeout: int, backoff_config: BackoffConfig,
        allowed_updates: list[str] | None,
    ) -> None:  # fmt: skip
        backoff = Backoff(config=backoff_config)
        timeout = {"request_timeout": int((bot.session.timeout or 60) + polling_timeout)}
        offset: int | None = None
        while True:
            await queues.room()
            request = GetUpdates(
                offset=offset, timeout=polling_timeout, allowed_updates=allowed_updates
            )
            if session is not None:
                session.polled = None
                session.cleaned = set()
            try:
                updates = await bot(request, **timeout)
                if updates:
                    polled = session.polled if session is not None else None
                    refused = await _stash(engine, bot, updates, polled, self["i18n"])
                else:
                    refused = set()
            except Exception as error:
                logger.error("polling: %s: %s; retrying", type(error).__name__, error)
                await backoff.asleep()
                continue
            backoff.reset()
            if session is not None:
                cleaned |= session.cleaned
            for update in updates:
                offset = update.update_id + 1
                if update.update_id not in refused:
                    queues.submit(update)

    async def serve_inbox(self, bot: Bot, *, concurrency: int) -> None:
        """Webhook mode: no polling, but the inbox still gets what an operator replays
        (``python -m bot.dead_letters``); several workers may drain it at once (each update
        takes effect once: its claim)."""
        queues = FairQueues(
            lambda update: self._process_update(bot=bot, update=update),
            concurrency=concurrency,
        )  # fmt: skip
        self[QUEUES] = queues
        await self._drain(self[INBOX_ENGINE], bot, queues)

    async def _drain(self, engine: AsyncEngine, bot: Bot, queues: FairQueues) -> None:
        """Hand the inbox's waiting updates to the queues, now and every ``DRAIN_EVERY``
        seconds; quietly wait while the database is away."""
        metrics: Metrics | None = self.get(METRICS)
        away = False
        while True:
            await asyncio.sleep(DRAIN_EVERY)
            try:
                updates = await _waiting(engine, bot, queues.pending, metrics)
                if away:
                    logger.warning("inbox: the database answers again")
                away = False
            except Exception as error:
                if not away:
                    logger.warning("inbox: cannot read it (%s); will look again", error)
                away = True
                updates = []
            if updates:
                logger.warning("inbox: handling %d waiting update(s)", len(updates))
            for update in updates:
                queues.submit(update)


async def _stash(
    engine: AsyncEngine, bot: Bot, updates: list[Update], polled: str | None, i18n: I18n
) -> set[int]:
    """Write the batch to the inbox: ``polled``, the getUpdates response's text the updates
    were parsed from, goes as it is (dumping the parsed updates back to JSON was about 2% of
    a ``/r`` burst's CPU); without it (another session) the updates are dumped. A batch the
    database refuses for a reason of its own (not a passing fault, which is raised: the batch
    is then fetched again) is stored update by update; those refused alone are parked, and
    their ids returned: they are not to be handled."""
    try:
        async with engine.begin() as conn:
            if polled is not None:
                await conn.execute(STASH_POLLED, {"bot": bot.id, "response": polled})
            else:
                await conn.execute(STASH, {"bot": bot.id, "batch": json.dumps(_dumped(updates))})
        return set()
    except Exception as error:
        if is_transient(error):
            raise
        logger.error("polling: the batch could not be stored (%s); storing one by one", error)
    refused: set[int] = set()
    for update in updates:
        dumped = _dumped([update])
        try:
            async with engine.begin() as conn:
                await conn.execute(STASH, {"bot": bot.id, "batch": json.dumps(dumped)})
        except Exception as error:
            if is_transient(error):
                raise
            await _park_refused(engine, bot, update, dumped[0], error, i18n)
            refused.add(update.update_id)
    return refused


def _dumped(updates: list[Update]) -> list[dict[str, Any]]:
    return [u.model_dump(mode="json", exclude_none=True, by_alias=True) for u in updates]


async def _park_refused(
    engine: AsyncEngine, bot: Bot, update: Update, dumped: dict[str, Any],
    error: BaseException, i18n: I18n,
) -> None:  # fmt: skip
    logger.error("update %s cannot be stored: parked (%s)", update.update_id, error)
    params = {
        "bot": bot.id, "upd": update.update_id, "payload": lossless(dumped),
        "error": f"not storable: {error}"[:4000],
    }  # fmt: skip
    async with engine.begin() as conn:
        await conn.execute(PARK, params)
    t = i18n.translator(update_locale(update, i18n.default_locale))
    try:
        if update.callback_query is not None:
            await bot.answer_callback_query(
                update.callback_query.id, t("⚠️ This press could not be handled."),
                show_alert=True,
            )  # fmt: skip
        elif update.message is not None:
            text = t("⚠️ This message could not be handled; it was set aside for the bot's "
                     "operators. Nothing was changed.")  # fmt: skip
            await bot.send_message(
                update.message.chat.id, text, parse_mode=None,
                message_thread_id=topic_of_message(update.message),
            )  # fmt: skip
    except Exception as say_error:
        logger.info("could not tell update %s's sender: %s", update.update_id, say_error)


async def _waiting(
    engine: AsyncEngine,
    bot: Bot,
    busy: set[int],
    metrics: Metrics | None,
    *,
    min_age: float = DRAIN_MIN_AGE,
) -> list[Update]:
    """The inbox's waiting updates (those handled meanwhile dropped, expired ones parked)."""
    params = {"bot": bot.id, "max_age": REPLAY_WINDOW_SECONDS, "error": EXPIRED}
    async with engine.begin() as conn:
        await conn.execute(DROP_DONE, params)
        await conn.execute(EXPIRE, params)
        rows = (
            (
                await conn.execute(
                    WAITING,
                    {"bot": bot.id, "busy": list(busy), "limit": DRAIN_BATCH, "min_age": min_age},
                )
            )
            .scalars()
            .all()
        )
        if metrics is not None:
            depth, oldest = (await conn.execute(DEPTH, params)).one()
            metrics.inbox_depth.set(depth)
            metrics.inbox_oldest.set(float(oldest))
            dead = (await conn.execute(DEAD_LETTER_COUNT, params)).scalar_one()
            metrics.dead_letters.set(dead)
    return [Update.model_validate(row, context={"bot": bot}) for row in rows]
