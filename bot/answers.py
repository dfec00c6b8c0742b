"""One answer per button press, sent before anything the press's update waits for pacing.

Telegram takes one ``answerCallbackQuery`` per press (it refuses a second as "query is too
old"), and the button spins until it comes. A handler typically edits the pressed message;
edits and sends are paced (``bot/outbound.py``), and in a group whose 20 messages a minute
are spent they queue for up to a minute. An answer sent once the handler returned waited with
them, though answering itself is not limited per chat.

So every press gets one ``PressAnswer`` (``PressAnswerMiddleware``, an outer update
middleware), handed to handlers as ``callback_answer`` and known to the update's task through
a context variable. It is sent by whichever comes first:

* the update's first paced call: the outbound middleware sends the answer before it
  (``answer_before_pacing``), with whatever text the handler has set by then
  (``handlers.callbacks.notify``) — so handlers set their text before they edit or send;
* a wait behind another update of the same user in the same chat (aiogram's isolation) that
  itself waits for pacing (``PressFirstIsolation``): the press stops waiting and runs beside
  it, so its answer carries its handler's text — a refusal's reason above all (issue 36).
  What the holder waits for is its send: its unit of work has committed (use cases commit
  before they render), and what two presses decide together the database decides, as for
  two users' presses, which never waited for each other. A wizard's press (aiogram-dialog
  keeps its state per user) still waits, and is answered meanwhile without text;
* the end of the update. aiogram-dialog's answer after redrawing a wizard is this same answer
  (``PressMessageManager``), and a direct ``query.answer(...)`` marks it sent (the outbound
  middleware calls ``note_answer``), so nothing answers a press twice.

``notify`` after the answer went cannot reach the user any more; it is dropped with a warning
(a handler setting its text after an edit is a bug to fix, not a reason to post a message).
When the handler raises, the press is left for the error handler's apology (``press_for``),
unless it was answered already.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, defaultdict
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.fsm.storage.base import StorageKey
from aiogram.fsm.storage.memory import SimpleEventIsolation
from aiogram.types import CallbackQuery, TelegramObject, Update
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram_dialog.manager.message_manager import MessageManager
from aiogram_dialog.utils import CB_SEP

logger = logging.getLogger(__name__)

MAX_TEXT = 200  # characters of a press's answer Telegram accepts
_TOO_OLD = "query is too old"


class PressAnswer(CallbackAnswer):
    """The one answer of a press. Handlers set its text with ``handlers.callbacks.notify``."""

    def __init__(self, query_id: str, bot: Bot) -> None:
        super().__init__(answered=False)
        self.query_id = query_id
        self._bot = bot
        self._lock = asyncio.Lock()
        # May run beside an earlier update of its sender that waits for pacing
        # (``PressFirstIsolation``); a wizard's press may not: its dialog state is per user.
        self.may_overtake = True

    async def send(self) -> None:
        """Answer now with what is set so far; nothing if the press was answered already."""
        async with self._lock:  # a second caller returns once the first answer is out
            if self.answered or self.disabled:
                return
            self._answered = True
            text = self.text
            if text is not None and len(text) > MAX_TEXT:
                text = text[: MAX_TEXT - 1] + "…"
            try:
                await self._bot.answer_callback_query(
                    self.query_id,
                    text=text,
                    show_alert=self.show_alert,
                    url=self.url,
                    cache_time=self.cache_time,
                )
            except TelegramBadRequest as error:
                # Expired, or answered by a delivery of this update before a restart.
                if _TOO_OLD not in error.message.lower():
                    raise
                logger.warning("press %s not answered: %s", self.query_id, error.message)

    def note_answered(self) -> None:
        self._answered = True


class _Flow:
    """One update on its way through the dispatcher. ``stalled`` are the events of the
    isolation keys it holds (``PressFirstIsolation``: aiogram's, then aiogram-dialog's stack
    key), set when one of its calls waits for pacing."""

    __slots__ = ("stalled",)

    def __init__(self) -> None:
        self.stalled: list[asyncio.Event] = []

    def waiting_for_pacing(self) -> None:
        for event in self.stalled:
            event.set()


_press: ContextVar[PressAnswer | None] = ContextVar("press_answer", default=None)
_flow: ContextVar[_Flow | None] = ContextVar("update_flow", default=None)


def press_for(query_id: str) -> PressAnswer | None:
    """Press ``query_id``'s answer when this task handles that press (answered or not) — also
    after its handler raised, for the error handler's apology."""
    press = _press.get()
    return press if press is not None and press.query_id == query_id else None


# Presses answered by the polling loop while they waited for their turn (``bot.polling``):
# their update must not answer them again. Bounded: a press is handled within the inbox's
# replay window or never.
_ANSWERED_WHILE_QUEUED: OrderedDict[str, None] = OrderedDict()
_QUEUED_KEPT = 10_000


async def answer_while_queued(bot: Bot, query_id: str) -> None:
    """Answer a press that still waits for its turn (without text: its handler has not run),
    so its button stops spinning; its update will not answer it again."""
    _ANSWERED_WHILE_QUEUED[query_id] = None
    while len(_ANSWERED_WHILE_QUEUED) > _QUEUED_KEPT:
        _ANSWERED_WHILE_QUEUED.popitem(last=False)
    try:
        await bot.answer_callback_query(query_id)
    except TelegramBadRequest as error:
        logger.info("a queued press could not be answered: %s", error.message)


def note_answer(query_id: str) -> None:
    """The outbound middleware saw an ``answerCallbackQuery`` for ``query_id`` go out."""
    press = _press.get()
    if press is not None and press.query_id == query_id:
        press.note_answered()


async def answer_before_pacing() -> None:
    """The outbound middleware calls this before every paced call: the press goes first."""
    press = _press.get()
    if press is not None and not press.answered:
        await press.send()


def pacing_stall() -> Callable[[], None] | None:
    """What the outbound middleware calls when a call of this update has to wait its turn
    (None outside an update)."""
    flow = _flow.get()
    return flow.waiting_for_pacing if flow is not None else None


class PressAnswerMiddleware(BaseMiddleware):
    """Outer update middleware, before aiogram's isolation lock: a press gets its answer (as
    ``callback_answer``), sent when the update is done unless something sent it first."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        flow = _flow.set(_Flow())
        query = event.callback_query if isinstance(event, Update) else None
        if query is None:
            try:
                return await handler(event, data)
            finally:
                _flow.reset(flow)
        press = PressAnswer(query.id, data["bot"])
        press.may_overtake = CB_SEP not in (query.data or "")
        if query.id in _ANSWERED_WHILE_QUEUED:
            _ANSWERED_WHILE_QUEUED.pop(query.id)
            press.note_answered()  # the polling queue answered it while it waited its turn
        data["callback_answer"] = press
        current = _press.set(press)
        # Should the handler raise, both stay set: the error handler runs in this task after
        # the exception has left every middleware, answers with its apology, and clears them
        # (``finish_failed_press``).
        result = await handler(event, data)
        try:
            await press.send()
        finally:
            _press.reset(current)
            _flow.reset(flow)
        return result


def finish_failed_press() -> None:
    """The error handler is done with a failed update: forget its press."""
    _press.set(None)
    _flow.set(None)


class PressFirstIsolation(SimpleEventIsolation):
    """aiogram's one update at a time per chat and user, except that a press queued behind an
    update that waits for pacing does not spin until that update's turn comes (up to a minute
    in a busy group): it runs at once beside it, without the lock, and its answer has its
    handler's text; a wizard's press is answered at once without text and waits its turn."""

    def __init__(self) -> None:
        super().__init__()
        self._stalled: defaultdict[StorageKey, asyncio.Event] = defaultdict(asyncio.Event)

    @asynccontextmanager
    async def lock(self, key: StorageKey) -> AsyncGenerator[None, None]:
        lock = self._locks[key]
        stalled = self._stalled[key]
        press = _press.get()
        if press is not None and lock.locked():
            if press.may_overtake:
                if not await _acquire_or_overtake(lock, stalled):
                    yield  # runs beside the holder, which waits for pacing
                    return
            else:
                await _acquire_answering(lock, stalled, press)
        else:
            await lock.acquire()
        stalled.clear()  # the new holder has waited for nothing yet
        flow = _flow.get()
        if flow is not None:
            flow.stalled.append(stalled)
        try:
            yield
        finally:
            if flow is not None:
                flow.stalled.remove(stalled)
            stalled.clear()
            lock.release()

    async def close(self) -> None:
        await super().close()
        self._stalled.clear()


async def _acquire_or_overtake(lock: asyncio.Lock, stalled: asyncio.Event) -> bool:
    """``lock.acquire()`` in its queue order (True: acquired), unless the holder waits for
    pacing first (False: not acquired, the press runs now)."""
    acquiring = asyncio.ensure_future(lock.acquire())
    watch = asyncio.ensure_future(stalled.wait())
    try:
        await asyncio.wait((acquiring, watch), return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        watch.cancel()
        if not acquiring.cancel() and not acquiring.cancelled() and acquiring.exception() is None:
            lock.release()
        raise
    watch.cancel()
    if acquiring.done():
        return True
    acquiring.cancel()
    try:
        await acquiring  # a cancel that came too late leaves it acquired: give it back
    except asyncio.CancelledError:
        return False
    lock.release()
    return False


async def _acquire_answering(
    lock: asyncio.Lock, stalled: asyncio.Event, press: PressAnswer
) -> None:
    """``lock.acquire()`` in its queue order; should the holder wait for pacing meanwhile,
    the press is answered while this waits on."""
    sending: asyncio.Future[None] | None = None

    def answer(done: asyncio.Future[Any]) -> None:
        nonlocal sending
        if not done.cancelled():
            sending = asyncio.ensure_future(press.send())

    watch = asyncio.ensure_future(stalled.wait())
    watch.add_done_callback(answer)
    try:
        await lock.acquire()
    finally:
        watch.cancel()
        if sending is not None:
            await sending  # out by now, or its error is this update's


class PressMessageManager(MessageManager):
    """aiogram-dialog answers a wizard's press after redrawing the wizard: that is the press's
    one answer, with the text the wizard's handler set (sent already if the redraw was paced)."""

    async def answer_callback(self, bot: Bot, callback_query: CallbackQuery) -> None:
        press = _press.get()
        if press is not None and press.query_id == callback_query.id:
            await press.send()
            return
        await super().answer_callback(bot, callback_query)
