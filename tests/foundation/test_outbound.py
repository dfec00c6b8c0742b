"""Traffic shaping on a virtual clock: bursts queue to Telegram's limits instead of failing."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.outbound import Limits, OutboundLimiter


class VirtualTime:
    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


async def _send_times(limiter: OutboundLimiter, vt: VirtualTime, chat: int, n: int) -> list[float]:
    times = []
    for _ in range(n):
        async with limiter.chat(chat).lock:
            await limiter.acquire(chat, new_message=True)
        times.append(vt.now)
    return times


async def test_private_chat_bursts_three_then_one_per_second() -> None:
    vt = VirtualTime()
    limiter = OutboundLimiter(Limits(), clock=vt.clock, sleep=vt.sleep)
    times = await _send_times(limiter, vt, 42, 6)
    assert times[:3] == [0.0, 0.0, 0.0]
    gaps = [b - a for a, b in itertools.pairwise(times[2:])]
    assert all(abs(gap - 1.0) < 1e-9 for gap in gaps)


async def test_group_never_exceeds_twenty_new_messages_a_minute() -> None:
    vt = VirtualTime()
    limiter = OutboundLimiter(Limits(chat_burst=100, chat_per_second=100.0), vt.clock, vt.sleep)
    times = await _send_times(limiter, vt, -100500, 45)
    for start in times:
        window = [t for t in times if start <= t < start + 60.0]
        assert len(window) <= 20
    assert times[19] < 60.0 <= times[20]


async def test_edits_do_not_count_towards_the_group_window() -> None:
    vt = VirtualTime()
    limiter = OutboundLimiter(Limits(chat_burst=100, chat_per_second=100.0), vt.clock, vt.sleep)
    for _ in range(30):
        async with limiter.chat(-1).lock:
            await limiter.acquire(-1, new_message=False)
    assert vt.now < 1.0


async def test_global_limit_thirty_per_second_across_chats() -> None:
    vt = VirtualTime()
    limiter = OutboundLimiter(Limits(), vt.clock, vt.sleep)
    for chat in range(1, 61):
        async with limiter.chat(chat).lock:
            await limiter.acquire(chat, new_message=True)
    assert vt.now >= 1.0


async def test_global_window_counts_a_request_until_its_answer() -> None:
    vt = VirtualTime()
    limiter = OutboundLimiter(Limits(), vt.clock, vt.sleep)
    # Thirty requests leave at once and are answered only 0.8 s later (a busy event loop, a
    # slow network): Telegram may have seen them arrive just before the answers.
    sends = [
        await limiter.acquire(chat, new_message=True, in_flight=True) for chat in range(1, 31)
    ]
    vt.now = 0.8
    for send in sends:
        limiter.sent(send)
    # The thirty-first waits a second from those answers, not from when the others left.
    await limiter.acquire(31, new_message=True, in_flight=True)
    assert vt.now >= 1.8


async def test_an_edit_does_not_wait_behind_a_message_waiting_for_the_groups_minute() -> None:
    from aiogram.methods import EditMessageText, SendMessage

    from bot.outbound import ResilienceMiddleware
    from tests.callbacks.helpers import ManualClock

    clock = ManualClock()
    limiter = OutboundLimiter(
        Limits(chat_burst=10, chat_per_second=10.0, group_per_minute=2), clock.clock, clock.sleep
    )
    outbound = ResilienceMiddleware(limiter)
    made: list[str] = []

    async def make_request(bot: object, method: object) -> object:
        made.append(type(method).__name__)
        return True

    def call(method: object) -> asyncio.Task[object]:
        return asyncio.ensure_future(outbound(make_request, None, method))  # type: ignore[arg-type]

    sends = [call(SendMessage(chat_id=-7, text=str(i))) for i in range(3)]
    edit = call(EditMessageText(chat_id=-7, message_id=1, text="edited"))
    for _ in range(20):
        await asyncio.sleep(0)
    # The third message waits for the minute, holding the sends' turn; the edit went.
    assert made == ["SendMessage", "SendMessage", "EditMessageText"]
    assert edit.done() and not sends[2].done()
    clock.advance(60.0)
    await asyncio.gather(*sends)
    assert made[-1] == "SendMessage"


# --- edits of one message coalesce (bot/edits.py) ----------------------------------------


def _edit_layer(limits: Limits) -> tuple[object, list[tuple[str, object, object]], object]:
    """The outbound middleware on a manual clock, its requests recorded (name, text, markup)."""
    from bot.outbound import ResilienceMiddleware
    from tests.callbacks.helpers import ManualClock

    clock = ManualClock()
    outbound = ResilienceMiddleware(OutboundLimiter(limits, clock.clock, clock.sleep))
    made: list[tuple[str, object, object]] = []
    return outbound, made, clock


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_keyboard_edit_joins_the_waiting_text_edit_and_a_reply_comes_after() -> None:
    from aiogram import Bot
    from aiogram.methods import EditMessageReplyMarkup, EditMessageText, SendMessage
    from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

    outbound, made, clock = _edit_layer(
        Limits(chat_burst=1, chat_per_second=1.0, global_per_second=10**6)
    )
    bot = Bot("1:x")
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="+", callback_data="p")]]
    )

    async def make_request(_bot: object, method: object) -> object:
        made.append(
            (type(method).__name__, getattr(method, "text", None), method.reply_markup)  # type: ignore[attr-defined]
        )
        return True

    def call(method: object) -> asyncio.Task[object]:
        return asyncio.ensure_future(outbound(make_request, bot, method))  # type: ignore[operator]

    first = call(EditMessageText(chat_id=7, message_id=1, text="a"))
    await _settle()
    second = call(EditMessageText(chat_id=7, message_id=1, text="b"))
    third = call(EditMessageReplyMarkup(chat_id=7, message_id=1, reply_markup=keyboard))
    await _settle()
    # The chat's token went to the first edit; the others wait as one edit, and their callers
    # have the message as it will be.
    assert first.done() and second.done() and third.done()
    shown = second.result()
    assert isinstance(shown, Message) and (shown.message_id, shown.text) == (1, "b")
    reply = call(SendMessage(chat_id=7, text="reply"))
    await _settle()
    assert not reply.done()  # behind the edit parked before it
    clock.advance(1.0)
    await _settle()
    clock.advance(1.0)
    await reply
    assert made == [
        ("EditMessageText", "a", None),
        ("EditMessageText", "b", keyboard),
        ("SendMessage", "reply", None),
    ]
    assert outbound.idle  # type: ignore[attr-defined]


async def test_inline_edits_go_one_at_a_time_and_not_modified_stays_with_its_caller() -> None:
    """An inline message's edits are not paced, but one waits for the one on its way; the
    edits waiting meanwhile coalesce. The newest state changing nothing is its own caller's
    error: the caller it replaced gets the message as shown."""
    from aiogram import Bot
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.methods import EditMessageText

    outbound, made, _clock = _edit_layer(Limits())
    bot = Bot("1:x")
    first_out = asyncio.Event()

    async def make_request(_bot: object, method: EditMessageText) -> object:
        made.append((type(method).__name__, method.text, None))
        if method.text == "a":
            await first_out.wait()
            return True
        raise TelegramBadRequest(method=method, message="Bad Request: message is not modified")

    def edit(text: str) -> asyncio.Task[object]:
        method = EditMessageText(inline_message_id="im", text=text)
        return asyncio.ensure_future(outbound(make_request, bot, method))  # type: ignore[operator]

    first = edit("a")
    await _settle()
    second, third = edit("b"), edit("c")
    await _settle()
    assert [t.done() for t in (first, second, third)] == [False, False, False]
    first_out.set()
    assert await first is True
    assert await second is True
    with pytest.raises(TelegramBadRequest):
        await third
    assert made == [("EditMessageText", "a", None), ("EditMessageText", "c", None)]
