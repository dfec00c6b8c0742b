"""Outbound resilience: a bot-session middleware that paces and retries Bot API calls.

* Pacing: every chat has a small token bucket (bursts of 3, then 1 message/s), groups also a
  sliding window of 20 new messages a minute, and all chats share 30 requests/s (a request
  counts in that window until a second after its answer). A call that would exceed a limit
  waits its turn, so bursts queue instead of failing.
* Order: new messages to one chat are serialised, and so are its edits and deletions, apart:
  an edit does not wait behind a message waiting for the group's minute (edits do not count
  towards it). A chat waiting out a 429 does not hold up others.
* Retry: 429 waits ``retry_after`` and tries again; 5xx and network errors back off
  exponentially up to 5 s, about 30 s in all. getUpdates is left to the polling loop, which
  has its own back-off. An answer to a press Telegram no longer takes ("query is too old":
  the bot was down, or a crashed process answered it) is logged, not raised.
* Edits coalesce (``bot/edits.py``): while an edit of a message waits for its turn, a newer
  edit of the same message replaces it, and an edit that has to wait is parked (its caller
  answered with a stand-in, the edit sent in the background) so a burst of presses on one
  message sends its latest state, not an edit per press. A new message to a chat waits for
  the chat's parked edits made before it, so an update's edit still comes before its reply.
  Parked edits are sent before the bot stops (``drain``).
* An edit that changes nothing ("message is not modified") is left to the caller: aiogram-dialog
  handles it itself, and our handlers edit through ``handlers.views.edit.edit_text``. A parked
  edit's failure has no caller left: it is logged.
* Presses first: answerCallbackQuery is never paced (Telegram does not limit it per chat), and
  a press's update answers its press before its first paced call (``bot/answers.py``), so the
  button stops spinning even while the chat's budget is spent. Reads (getChat…) are not paced
  either: they post nothing, and a filter asking ``getChatMember`` must not queue behind sends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, GetUpdates, TelegramMethod
from aiogram.methods.base import Response, TelegramType

from bot.answers import answer_before_pacing, note_answer, pacing_stall
from bot.edits import SUPERSEDED, Edit, EditKey, PendingEdit, edit_key, merged
from bot.metrics import Metrics

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Stall = Callable[[], None]


@dataclass
class Limits:
    chat_burst: int = 3
    chat_per_second: float = 1.0
    group_per_minute: int = 20
    global_per_second: int = 30
    # 5xx and network errors: 0.5, 1, 2, 4, then every 5 s — about 30 s in all, and a call
    # goes out within 5 s of Telegram's return (``bot/runner.py`` rides out what is left)
    max_retries: int = 9
    backoff_base: float = 0.5
    backoff_cap: float = 5.0


@dataclass
class _Lane:
    """One queue of calls to a chat: ``congested`` is set while the call at its head sleeps
    for its turn (whoever queues behind then waits for pacing too)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    congested: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class _ChatState:
    """A chat's pacing. New messages queue in ``sends``; edits and deletions in ``edits``,
    so that they do not wait behind a message waiting for the group's minute (they do not
    count towards it); both take the chat's tokens."""

    sends: _Lane = field(default_factory=_Lane)
    edits: _Lane = field(default_factory=_Lane)
    tokens: float = 0.0
    refreshed: float = 0.0
    recent_sends: deque[float] = field(default_factory=deque)

    @property
    def lock(self) -> asyncio.Lock:
        """The new messages' turn (``acquire(new_message=True)`` is called holding it)."""
        return self.sends.lock

    def lane(self, new_message: bool) -> _Lane:
        return self.sends if new_message else self.edits


@dataclass
class _Send:
    """A request in the global window: counted from ``at``; while ``in_flight`` (sent, not
    answered yet) it never leaves the window."""

    at: float
    in_flight: bool = False


class OutboundLimiter:
    """Waits until a call to a chat fits Telegram's documented limits."""

    def __init__(
        self, limits: Limits, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.limits = limits
        self._clock = clock
        self._sleep = sleep
        self._chats: dict[int | str, _ChatState] = {}
        # The global window: requests still in flight (counted until answered), and the
        # moments of those answered within the last second. Moments are appended as they
        # happen, so the deque stays in order and leaves from the left: O(1) per request
        # however many the window holds (a list rebuilt per send grew with a /r burst).
        self._flying = 0
        self._answered: deque[float] = deque()
        self._global_lock = asyncio.Lock()

    async def sleep(self, seconds: float) -> None:
        """Wait on the limiter's clock (a 429's ``retry_after``: tests move that clock)."""
        await self._sleep(seconds)

    def chat(self, chat_id: int | str) -> _ChatState:
        state = self._chats.get(chat_id)
        if state is None:
            state = _ChatState(tokens=float(self.limits.chat_burst), refreshed=self._clock())
            self._chats[chat_id] = state
        return state

    async def acquire(
        self, chat_id: int | str, *, new_message: bool, stall: Stall | None = None,
        in_flight: bool = False,
    ) -> _Send:  # fmt: skip
        """Call holding the lock of the chat's lane for this call (``_ChatState.lane``).
        ``stall`` is called before the first sleep. ``in_flight``: the send counts in the
        global window until ``sent`` is called with what this returns (then from that moment
        on)."""
        state = self.chat(chat_id)
        lane = state.lane(new_message)
        pause = _Pause(self._sleep, lane, stall)
        try:
            await self._take_chat_token(state, pause)
            if new_message and isinstance(chat_id, int) and chat_id < 0:
                await self._fit_window(
                    state.recent_sends, self.limits.group_per_minute, 60.0, pause
                )
            async with self._global_lock:
                return await self._fit_global(in_flight, pause)
        finally:
            lane.congested.clear()

    def sent(self, send: _Send) -> None:
        """The request was answered. Telegram counts it when it arrives, which may be later
        than it left (a busy event loop, the network): counting it from its answer keeps any
        thirty-one arrivals more than a second apart however uneven the delays, so a burst
        of notices never earns a 429."""
        if not send.in_flight:
            return  # counted from its start already
        send.at = self._clock()
        send.in_flight = False
        self._flying -= 1
        self._answered.append(send.at)

    async def _fit_global(self, in_flight: bool, pause: _Pause) -> _Send:
        size = self.limits.global_per_second
        answered = self._answered
        while True:
            now = self._clock()
            while answered and now - answered[0] >= 1.0:
                answered.popleft()
            if self._flying + len(answered) < size:
                send = _Send(now, in_flight)
                if in_flight:
                    self._flying += 1
                else:
                    answered.append(now)
                return send
            # all in flight: look again shortly (only when thirty requests are outstanding)
            await pause(1.0 - (now - answered[0]) if answered else 0.01)

    async def _take_chat_token(self, state: _ChatState, pause: _Pause) -> None:
        limits = self.limits
        while True:
            now = self._clock()
            state.tokens = min(
                float(limits.chat_burst),
                state.tokens + (now - state.refreshed) * limits.chat_per_second,
            )
            state.refreshed = now
            if state.tokens >= 1.0:
                state.tokens -= 1.0
                return
            await pause((1.0 - state.tokens) / limits.chat_per_second)

    async def _fit_window(
        self, window: deque[float], size: int, span: float, pause: _Pause
    ) -> None:
        while True:
            now = self._clock()
            while window and now - window[0] >= span:
                window.popleft()
            if len(window) < size:
                window.append(now)
                return
            await pause(span - (now - window[0]))


class _Pause:
    """The limiter's sleep for one call: marks its lane congested and tells the caller's
    update (``stall``) before the first one."""

    def __init__(self, sleep: Sleep, lane: _Lane, stall: Stall | None) -> None:
        self._sleep = sleep
        self._lane = lane
        self._stall = stall

    async def __call__(self, seconds: float) -> None:
        self._lane.congested.set()
        if self._stall is not None:
            self._stall()
            self._stall = None
        await self._sleep(seconds)


def _chat_of(method: TelegramMethod[Any]) -> int | str | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int | str) else None


_LATE_ANSWER = ("query is too old", "query ID is invalid")


class ResilienceMiddleware(BaseRequestMiddleware):
    def __init__(self, limiter: OutboundLimiter, metrics: Metrics | None = None) -> None:
        self.limiter = limiter
        self._metrics = metrics
        self._edits: dict[EditKey, PendingEdit] = {}  # the newest edit of each message
        self._parked: dict[int | str, set[PendingEdit]] = {}  # per chat
        self._deliveries: set[asyncio.Task[None]] = set()

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if isinstance(method, GetUpdates):
            return await make_request(bot, method)
        if isinstance(method, AnswerCallbackQuery):
            note_answer(method.callback_query_id)  # the press's one answer, whoever sent it
            return await self._answer(make_request, bot, method)
        chat_id = _chat_of(method)
        key = edit_key(method)
        if key is not None and chat_id is None:  # an inline message's: not paced
            return await self._edit(make_request, bot, method, key, None)  # type: ignore[arg-type, no-any-return]
        if chat_id is None or type(method).__name__.startswith("Get"):
            return await self._with_retries(make_request, bot, method)
        await answer_before_pacing()
        if key is not None:
            return await self._edit(make_request, bot, method, key, chat_id)  # type: ignore[arg-type, no-any-return]
        stall = pacing_stall()
        new_message = type(method).__name__.startswith("Send")
        if new_message:
            await self._after_parked_edits(chat_id, stall)
        lane = self.limiter.chat(chat_id).lane(new_message)
        await _take_turn(lane, stall)
        try:
            send = await self.limiter.acquire(
                chat_id, new_message=new_message, stall=stall, in_flight=True
            )
            try:
                return await self._with_retries(make_request, bot, method, lane, stall)
            finally:
                self.limiter.sent(send)
        finally:
            lane.lock.release()

    @property
    def idle(self) -> bool:
        """No edit is on its way or parked."""
        return not self._deliveries

    async def drain(self, timeout: float) -> bool:
        """Wait until every parked edit went out (or failed): before the bot stops, and in
        tests. False if some still wait after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._deliveries:
            left = deadline - loop.time()
            if left <= 0:
                logger.warning("%d edits not sent before stopping", len(self._deliveries))
                return False
            await asyncio.wait(list(self._deliveries), timeout=left)
        return True

    async def _after_parked_edits(self, chat_id: int | str, stall: Stall | None) -> None:
        """A new message goes after the chat's edits parked before it (the update that made
        an edit no longer waits for it: its reply must not overtake it)."""
        parked = self._parked.get(chat_id)
        if not parked:
            return
        if stall is not None:
            stall()
        await asyncio.gather(*(edit.finished.wait() for edit in list(parked)))

    async def _edit(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: Edit,
        key: EditKey,
        chat_id: int | str | None,
    ) -> Any:
        """An edit joins the pending edit of its message, or starts one (``bot/edits.py``)."""
        pending = self._edits.get(key)
        if pending is not None and pending.open:
            combined = merged(pending.method, method)
            if combined is not None:
                joined = pending.join(combined)
                return await joined if isinstance(joined, asyncio.Future) else joined
        edit = PendingEdit(key, chat_id, method, bot, self._edits, previous=pending)
        self._edits[key] = edit
        waiter = edit.wait()
        task = asyncio.ensure_future(self._deliver(make_request, bot, edit))
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)
        return await waiter

    async def _deliver(
        self, make_request: NextRequestMiddlewareType[Any], bot: Bot, edit: PendingEdit
    ) -> None:
        """Send ``edit`` in its turn: the chat's edits lane and pacing (parking it when it has
        to wait), or after the edit of the same inline message on its way."""

        def park() -> None:
            if edit.park() and edit.chat_id is not None:
                self._parked.setdefault(edit.chat_id, set()).add(edit)

        try:
            if edit.chat_id is None:
                if edit.previous is not None:
                    await edit.previous.finished.wait()
                result = await self._with_retries(
                    make_request, bot, edit.method, edit=edit, park=park
                )
            else:
                lane = self.limiter.chat(edit.chat_id).edits
                await _take_turn(lane, park)
                try:
                    send = await self.limiter.acquire(
                        edit.chat_id, new_message=False, stall=park, in_flight=True
                    )
                    try:
                        result = await self._with_retries(
                            make_request, bot, edit.method, lane, edit=edit, park=park
                        )
                    finally:
                        self.limiter.sent(send)
                finally:
                    lane.lock.release()
        except Exception as error:
            if not edit.fail(error):
                _log_lost(edit.method, error)
        else:
            if result is not SUPERSEDED:
                edit.succeed(result)
        finally:
            edit.abandon()
            if self._edits.get(edit.key) is edit:
                del self._edits[edit.key]
            edit.previous = None
            edit.finished.set()
            if edit.chat_id is not None:
                parked = self._parked.get(edit.chat_id)
                if parked is not None:
                    parked.discard(edit)
                    if not parked:
                        del self._parked[edit.chat_id]

    async def _answer(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        """An answer Telegram no longer takes (the press is over ~15 s old: the bot was down,
        or a crashed process answered it before its update was handled again) only costs the
        spinner: the press still takes effect."""
        try:
            return await self._with_retries(make_request, bot, method)
        except TelegramBadRequest as error:
            if not any(late in error.message for late in _LATE_ANSWER):
                raise
            logger.info("a press answered too late: %s", error.message)
            return Response[bool](ok=True, result=True)  # type: ignore[return-value]

    async def _with_retries(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        lane: _Lane | None = None,
        stall: Stall | None = None,
        *,
        edit: PendingEdit | None = None,
        park: Stall | None = None,
    ) -> Response[TelegramType]:
        """A 429 on a chat's call congests its ``lane`` while it waits. An ``edit`` sends its
        newest state at each attempt (``SUPERSEDED`` when a newer edit of its message took
        over meanwhile), is open to newer edits while it waits, and ``park``s on a 429."""
        limits = self.limiter.limits
        for attempt in range(limits.max_retries + 1):
            if edit is not None:
                newest = edit.take()
                if newest is None:
                    return SUPERSEDED  # type: ignore[no-any-return]
                method = newest  # type: ignore[assignment]
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                if self._metrics is not None:
                    self._metrics.telegram_errors.labels("429").inc()
                    self._metrics.telegram_waits.inc(error.retry_after)
                if attempt == limits.max_retries:
                    raise
                logger.warning("429 on %s: waiting %ss", type(method).__name__, error.retry_after)
                if edit is not None:
                    edit.reopen()
                if park is not None:
                    park()
                if lane is not None:
                    lane.congested.set()
                if stall is not None:
                    stall()
                try:
                    await self.limiter.sleep(error.retry_after)
                finally:
                    if lane is not None:
                        lane.congested.clear()
            except (TelegramServerError, TelegramNetworkError) as error:
                if self._metrics is not None:
                    code = "0" if isinstance(error, TelegramNetworkError) else "5xx"
                    self._metrics.telegram_errors.labels(code).inc()
                if attempt == limits.max_retries:
                    raise
                delay = min(limits.backoff_cap, limits.backoff_base * 2**attempt)
                logger.warning("%s on %s: retry in %.1fs", error, type(method).__name__, delay)
                if edit is not None:
                    edit.reopen()
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")


def outbound_of(bot: Bot) -> ResilienceMiddleware | None:
    """The bot session's outbound layer (``bot/factory.py`` installs it)."""
    return next((m for m in bot.session.middleware if isinstance(m, ResilienceMiddleware)), None)


def _log_lost(method: TelegramMethod[Any], error: Exception) -> None:
    """A parked edit failed with no caller left to tell."""
    if isinstance(error, TelegramBadRequest) and "message is not modified" in error.message:
        logger.debug("a parked %s changed nothing", type(method).__name__)
        return
    logger.warning("a parked %s failed: %s", type(method).__name__, error)


async def _take_turn(lane: _Lane, stall: Stall | None) -> None:
    """Take the lane's lock in turn; should a call ahead sleep for pacing meanwhile, this
    update waits for pacing too (``stall``)."""
    if stall is None or not lane.lock.locked():
        await lane.lock.acquire()
        return
    watch = asyncio.ensure_future(lane.congested.wait())
    watch.add_done_callback(lambda done: None if done.cancelled() else stall())
    try:
        await lane.lock.acquire()
    finally:
        watch.cancel()
