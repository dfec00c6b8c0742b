"""Edits of one message coalesce while they wait: only the latest state goes out.

Telegram lets a bot edit a chat's messages only so fast (``bot/outbound.py`` paces them), and
a burst of presses on one message — «+» pressed fifteen times, six players on one tracker —
asked for an edit each: the message showed each press a second after the one before. Now an
edit of a message (``editMessageText``, ``editMessageReplyMarkup``, ``editMessageCaption``,
by chat and message id or by ``inline_message_id``) is one ``PendingEdit`` until it goes out;
a newer edit of the same message replaces it (``merged``), so what goes out is the newest
state, once.

The caller of an edit that goes out at once gets Telegram's answer, as before. An edit that
has to wait for pacing or a 429 is *parked*: its callers are answered at once with a stand-in
of the edited message (``stand_in``), and the edit goes out in the background. So the update
that made it ends instead of holding its sender's next press back, and the presses of a burst
become edits of one pending state. Callers whose edit was replaced by a newer one get the
result of the newer one when it succeeds, and the stand-in when it fails: "message is not
modified" (or any error) of the newer state is its own caller's alone.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from aiogram import Bot
from aiogram.enums import ChatType
from aiogram.methods import (
    EditMessageCaption,
    EditMessageReplyMarkup,
    EditMessageText,
    TelegramMethod,
)
from aiogram.types import Chat, Message

EDITS = (EditMessageText, EditMessageReplyMarkup, EditMessageCaption)
Edit = EditMessageText | EditMessageReplyMarkup | EditMessageCaption
EditKey = tuple[Any, ...]

# An edit that waited behind a newer edit of its message, which took its callers over.
SUPERSEDED: Any = object()


def edit_key(method: TelegramMethod[Any]) -> EditKey | None:
    """Which message ``method`` edits, or None when it is not an edit that coalesces."""
    if not isinstance(method, EDITS):
        return None
    business = method.business_connection_id
    if method.inline_message_id:
        return ("inline", method.inline_message_id, business)
    if method.chat_id is None or method.message_id is None:
        return None
    return (method.chat_id, method.message_id, business)


def merged(pending: Edit, newer: Edit) -> Edit | None:
    """One edit that leaves the message as ``pending`` then ``newer`` would, or None when they
    do not combine (a text edit and a caption edit: one of them fails anyway, each in turn).
    A text or caption edit sets the message's keyboard too (none when it has no
    ``reply_markup``), so it replaces a keyboard edit; a keyboard edit changes a pending text
    or caption edit's keyboard only."""
    if type(newer) is type(pending):
        return newer
    if isinstance(newer, EditMessageReplyMarkup):
        return pending.model_copy(update={"reply_markup": newer.reply_markup})
    if isinstance(pending, EditMessageReplyMarkup):
        return newer
    return None


def stand_in(method: Edit, bot: Bot) -> Message | bool | None:
    """What a parked edit's caller gets: the message as the edit will leave it (its id, chat,
    text or caption as sent, keyboard), or ``True`` for an inline message (as Telegram
    answers). aiogram-dialog keeps the message's id and compares the text with its next
    window's. None for a chat named by username (no id to show)."""
    if method.inline_message_id:
        return True
    chat_id = method.chat_id
    if not isinstance(chat_id, int) or method.message_id is None:
        return None
    if chat_id > 0:
        kind = ChatType.PRIVATE
    else:
        kind = ChatType.SUPERGROUP if str(chat_id).startswith("-100") else ChatType.GROUP
    now = datetime.now(UTC)
    fields: dict[str, Any] = {
        "message_id": method.message_id,
        "date": now,
        "edit_date": int(now.timestamp()),
        "chat": Chat(id=chat_id, type=kind),
        "reply_markup": method.reply_markup,
        "business_connection_id": method.business_connection_id,
    }
    if isinstance(method, EditMessageText):
        fields["text"] = method.text
    elif isinstance(method, EditMessageCaption):
        fields["caption"] = method.caption
    return Message(**fields).as_(bot)


class PendingEdit:
    """The newest state of one message's edit, from its first request until it went out.

    ``open``: a newer edit of the message may still replace ``method`` (not while a request
    carrying it is on its way: a newer edit then waits behind it as an edit of its own).
    ``latest`` is the future of the caller whose edit ``method`` ends with; ``earlier`` those
    of the callers it replaced. ``parked``: every caller was answered with the stand-in."""

    def __init__(
        self, key: EditKey, chat_id: int | str | None, method: Edit, bot: Bot,
        registry: dict[EditKey, PendingEdit], previous: PendingEdit | None,
    ) -> None:  # fmt: skip
        self.key = key
        self.chat_id = chat_id
        self.method = method
        self.bot = bot
        self._registry = registry
        self.previous = previous  # an edit of the same message on its way: this goes after
        self.flying = False
        self.parked = False
        self.latest: asyncio.Future[Any] | None = None
        self.earlier: list[asyncio.Future[Any]] = []
        self.finished = asyncio.Event()

    @property
    def open(self) -> bool:
        return not self.flying and self._registry.get(self.key) is self

    def join(self, method: Edit) -> asyncio.Future[Any] | Message | bool | None:
        """Take a newer edit of the message (``merged`` with this one already): the caller's
        future, or at once the stand-in when this edit is parked."""
        self.method = method
        if self.parked:
            return stand_in(method, self.bot)
        return self.wait()

    def wait(self) -> asyncio.Future[Any]:
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.latest is not None:
            self.earlier.append(self.latest)
        self.latest = waiter
        return waiter

    def take(self) -> Edit | None:
        """The state to send now, or None when a newer edit of the message, made while this
        one was on its way and then had to wait, took it over (this state folded into the
        newer one, this edit's callers with it)."""
        newer = self._registry.get(self.key)
        if newer is not self and newer is not None:
            combined = merged(self.method, newer.method)
            if combined is not None:
                newer.method = combined
                newer.adopt([*self.earlier, *([self.latest] if self.latest else [])])
                self.latest, self.earlier = None, []
                return None
        self.flying = True
        return self.method

    def reopen(self) -> None:
        """The request failed and will be tried again: newer edits may replace it meanwhile."""
        self.flying = False

    def adopt(self, waiters: list[asyncio.Future[Any]]) -> None:
        if self.parked:
            self._release(waiters)
        else:
            self.earlier = [*waiters, *self.earlier]

    def park(self) -> bool:
        """Answer every caller with the stand-in (the edit waits for its turn). False, and
        nothing answered, when there is no stand-in to give."""
        if self.parked:
            return True
        if stand_in(self.method, self.bot) is None:
            return False
        self.parked = True
        self._release([*self.earlier, *([self.latest] if self.latest else [])])
        self.latest, self.earlier = None, []
        return True

    def succeed(self, result: Any) -> None:
        for waiter in [*self.earlier, *([self.latest] if self.latest else [])]:
            if not waiter.done():
                waiter.set_result(result)

    def fail(self, error: BaseException) -> bool:
        """The latest caller gets ``error``; those it replaced the stand-in (or the error too
        when there is none). True when a caller got the error (else it is the outbound
        layer's to log)."""
        result = stand_in(self.method, self.bot)
        told = False
        for waiter in [*self.earlier, *([self.latest] if self.latest else [])]:
            if waiter.done():
                continue
            if waiter is self.latest or result is None:
                waiter.set_exception(error)
                told = True
            else:
                waiter.set_result(result)
        return told

    def abandon(self) -> None:
        """The delivery ended without an outcome (cancelled at shutdown): no caller waits on."""
        for waiter in [*self.earlier, *([self.latest] if self.latest else [])]:
            waiter.cancel()
        self.latest, self.earlier = None, []

    def _release(self, waiters: list[asyncio.Future[Any]]) -> None:
        if not waiters:
            return
        result = stand_in(self.method, self.bot)
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(result)
