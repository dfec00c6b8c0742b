"""Everything the emulated Telegram remembers: users, chats, messages, queries, commands."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tgemu.errors import ApiError, bad_request, forbidden
from tgemu.flood import FloodControl
from tgemu.inline import InlineMessage, InlineQueryRecord
from tgemu.types import (
    ApiCall,
    CallbackAnswer,
    ChatMessage,
    Document,
    EmuChat,
    EmuEvent,
    EmuTopic,
    EmuUser,
    Fault,
)
from tgemu.updates import UpdateQueue

logger = logging.getLogger(__name__)

Listener = Callable[[EmuEvent], None]


class MessageNumbers:
    """Each chat's message ids, from 1. With a file (``keep_in``), numbering goes on after an
    earlier emulator's that kept its numbers there, as Telegram's ids never repeat in a chat:
    a restarted sandbox numbered from 1 again, and a bot that keys anything by (chat, message
    id) — a /r's roll — met the earlier run's. Ids are leased ``LEASE`` at a time (one small
    write per lease), so a process killed at any moment still never hands one out twice."""

    LEASE = 100

    def __init__(self) -> None:
        self._next: dict[int, int] = {}
        self._leased: dict[int, int] = {}  # chat id → the last id the file allows
        self._file: Path | None = None

    def keep_in(self, path: Path) -> None:
        """Number on from what ``path`` holds, and keep the numbers there from now on."""
        self._file = path
        try:
            kept = json.loads(path.read_text())
        except FileNotFoundError:
            kept = {}
        for chat, last in kept.items():
            chat_id = int(chat)
            self._leased[chat_id] = max(self._leased.get(chat_id, 0), int(last))
            self._next[chat_id] = max(self._next.get(chat_id, 1), int(last) + 1)

    def next(self, chat_id: int) -> int:
        number = self._next.get(chat_id, 1)
        self._next[chat_id] = number + 1
        if self._file is not None and number > self._leased.get(chat_id, 0):
            self._leased[chat_id] = number + self.LEASE - 1
            self._save(self._file)
        return number

    def _save(self, path: Path) -> None:
        scratch = path.with_name(path.name + ".tmp")
        scratch.write_text(json.dumps({str(c): n for c, n in sorted(self._leased.items())}))
        os.replace(scratch, path)  # whole or not at all


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    document: Document
    mime_type: str


@dataclass
class BotIdentity:
    id: int
    username: str
    first_name: str

    def to_api(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": True,
            "first_name": self.first_name,
            "username": self.username,
        }


@dataclass
class PendingQuery:
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created_at: float = field(default_factory=time.monotonic)
    inline_message_id: str | None = None  # a press on an inline message (chat_id 0)


class EmuState:
    def __init__(self, bot: BotIdentity, *, enforce_flood_limits: bool) -> None:
        self.bot = bot
        self.users: dict[int, EmuUser] = {}
        self.chats: dict[int, EmuChat] = {}
        self.messages: dict[int, dict[int, ChatMessage]] = {}
        self.calls: list[ApiCall] = []
        self.callback_answers: dict[str, CallbackAnswer] = {}
        # every answerCallbackQuery per query id, refused ones too: a second is a bot bug
        self.answer_attempts: dict[str, int] = {}
        self.pending_queries: dict[str, PendingQuery] = {}
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        # chat id (None: the bot's default) → its menu button, as setChatMenuButton set it
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        self.files: dict[str, StoredFile] = {}
        self.faults: list[Fault] = []
        self.webhook: dict[str, Any] = {"url": ""}
        self.flood = FloodControl() if enforce_flood_limits else None
        # None: queries never expire (real Telegram gives up after roughly 15 s)
        self.callback_query_ttl: float | None = None
        self.listeners: list[Listener] = []
        # inline mode (tgemu/inline.py): BotFather's /setinline and /setinlinefeedback
        self.inline_mode = True
        self.inline_feedback = True
        self.inline_query_ttl: float | None = 15.0  # a later answer is "query is too old"
        self.inline_queries: dict[str, InlineQueryRecord] = {}
        self.inline_messages: dict[str, InlineMessage] = {}
        self.in_flight = 0  # requests other than getUpdates being handled
        self.last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self.message_numbers = MessageNumbers()
        self._query_ids = itertools.count(1)
        self.queue = UpdateQueue(self.touch)

    # change notification -------------------------------------------------------------
    def touch(self) -> None:
        """Wake everything waiting in wait_for(); called on every state change."""
        self.last_activity = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def changed(self) -> asyncio.Event:
        return self._changed

    def emit(self, event: EmuEvent) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break the API
                logger.exception("emulator listener failed on %s", event.kind)

    # lookups --------------------------------------------------------------------------
    def next_message_id(self, chat_id: int) -> int:
        return self.message_numbers.next(chat_id)

    def next_query_id(self) -> str:
        return f"{next(self._query_ids)}{secrets.randbelow(10**6):06d}"

    def chat(self, chat_id: Any) -> EmuChat:
        chat = None
        if isinstance(chat_id, int):
            chat = self.chats.get(chat_id)
        elif isinstance(chat_id, str) and chat_id.startswith("@"):
            chat = next(
                (
                    c
                    for c in self.chats.values()
                    if c.user and (c.user.username or "").lower() == chat_id[1:].lower()
                ),
                None,
            )
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                parameters={"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def writable_chat(self, chat_id: Any) -> EmuChat:
        """The chat the bot may post in, or the Telegram error for why it may not."""
        chat = self.chat(chat_id)
        if chat.user is not None:
            if chat.user.blocked_bot:
                raise forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def topic(self, chat: EmuChat, thread_id: Any) -> EmuTopic:
        """The chat's open topic ``thread_id``, or Telegram's error for why a message cannot
        go there."""
        topic = chat.topics.get(int(thread_id)) if chat.is_forum else None
        if topic is None or topic.deleted:
            raise bad_request("message thread not found")
        if topic.closed:
            raise bad_request("TOPIC_CLOSED")
        return topic

    def target_thread(
        self, chat: EmuChat, params: dict[str, Any], reply_to: int | None
    ) -> int | None:
        """The topic a new message goes to: ``message_thread_id``, else the replied message's
        topic, else «General» (None). In a chat without topics the field names a reply
        thread: a message that must exist."""
        thread = params.get("message_thread_id")
        if thread is None:
            replied = self.message(chat.id, reply_to) if reply_to is not None else None
            thread = replied.thread_id if replied is not None and chat.is_forum else None
            if thread is None:
                return None
        if not chat.is_forum:
            if chat.type == "private" or self.message(chat.id, int(thread)) is None:
                raise bad_request("message thread not found")
            return None
        return self.topic(chat, thread).thread_id

    def message(self, chat_id: int, message_id: int) -> ChatMessage | None:
        return self.messages.get(chat_id, {}).get(message_id)

    def bot_messages(self, chat_id: int) -> list[ChatMessage]:
        msgs = self.messages.get(chat_id, {}).values()
        return [m for m in msgs if m.from_id == self.bot.id]

    def store_message(self, msg: ChatMessage) -> None:
        self.messages.setdefault(msg.chat_id, {})[msg.message_id] = msg

    def user_api(self, user_id: int) -> dict[str, Any]:
        if user_id == self.bot.id:
            return self.bot.to_api()
        user = self.users.get(user_id)
        if user is None:
            return {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        return user.to_api()

    def message_api(self, msg: ChatMessage, *, with_reply: bool = True) -> dict[str, Any]:
        """The Message object Telegram would return for this message."""
        chat = self.chats[msg.chat_id]
        data: dict[str, Any] = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": chat.to_api(),
            "from": self.user_api(msg.from_id),
        }
        if msg.thread_id is not None:
            data["message_thread_id"] = msg.thread_id
            if chat.is_forum:
                data["is_topic_message"] = True
        if msg.edits:
            data["edit_date"] = int(time.time())
        if msg.service is not None:
            data.update(msg.service)
        elif msg.document is not None:
            data["document"] = self._document_api(msg)
            if msg.text:
                data["caption"] = msg.text
            if msg.entities:
                data["caption_entities"] = msg.entities
        else:
            data["text"] = msg.text
            if msg.entities:
                data["entities"] = msg.entities
        if msg.has_keyboard:
            # Message.reply_markup only ever carries an inline keyboard
            data["reply_markup"] = msg.reply_markup
        if with_reply and msg.reply_to is not None:
            replied = self.message(msg.chat_id, msg.reply_to)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self.message_api(replied, with_reply=False)
        return data

    def _document_api(self, msg: ChatMessage) -> dict[str, Any]:
        assert msg.document is not None
        stored = self.files.get(msg.file_id or "")
        return {
            "file_id": msg.file_id,
            "file_unique_id": stored.file_unique_id if stored else msg.file_id,
            "file_name": msg.document.filename,
            "mime_type": msg.document_mime or "application/octet-stream",
            "file_size": len(msg.document.data),
        }


@dataclass
class RequestContext:
    """One API request as method implementations see it."""

    method: str
    params: dict[str, Any]
    files: dict[str, Any] = field(default_factory=dict)
