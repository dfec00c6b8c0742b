"""BotAPIEmulator: the HTTP Bot API double plus the API tests and the sandbox drive it with."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from tgemu import methods
from tgemu.flood import FloodControl
from tgemu.inline import MAX_QUERY, InlineMessage, InlineQueryRecord, message_from
from tgemu.inline import public_result as _public_result
from tgemu.server import ApiServer
from tgemu.spec import Deviation
from tgemu.state import BotIdentity, EmuState, Listener, PendingQuery, StoredFile
from tgemu.types import (
    ApiCall,
    Asked,
    CallbackAnswer,
    ChatMessage,
    Chosen,
    Document,
    EmuChat,
    EmuUser,
    Fault,
    Pressed,
    Sent,
)
from tgemu.webhook import WebhookPusher

logger = logging.getLogger(__name__)

T = TypeVar("T")


class BotAPIEmulator:
    """An in-process Telegram: run it, point aiogram at ``base_url``, act as users."""

    def __init__(
        self,
        token: str = "123456:TEST-TOKEN",
        *,
        bot_id: int = 123456,
        bot_username: str = "tabletop_test_bot",
        bot_first_name: str = "Tabletop",
        enforce_flood_limits: bool = False,
    ) -> None:
        self.token = token
        self.bot_id = bot_id
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        identity = BotIdentity(bot_id, bot_username, bot_first_name)
        self._state = EmuState(identity, enforce_flood_limits=enforce_flood_limits)
        self._server = ApiServer(self._state, token)
        # webhook mode: POSTs the queued updates while a webhook is set (tgemu/webhook.py)
        self.webhook_pusher = WebhookPusher(self._state)

    def continue_numbering(self, last_update_id: int) -> None:
        """Number updates after ``last_update_id``, as Telegram numbers them after the bot's
        last update (a sandbox started again on its earlier database)."""
        self._state.queue.continue_after(last_update_id)

    def keep_message_numbers(self, path: Path) -> None:
        """Number each chat's messages after those of an earlier emulator that kept its
        numbers in ``path`` (the sandbox's data folder), and keep them there: message ids
        never repeat in a chat, across restarts too."""
        self._state.message_numbers.keep_in(path)

    # lifecycle ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self._server.base_url

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self.webhook_pusher.start()
        return await self._server.start(host, port)

    async def stop(self) -> None:
        await self.webhook_pusher.stop()
        await self._server.stop()

    async def __aenter__(self) -> BotAPIEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # world set-up -----------------------------------------------------------------------
    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "ru",
        last_name: str | None = None,
    ) -> EmuUser:
        user = EmuUser(user_id, first_name, username, language_code, last_name)
        self._state.users[user_id] = user
        self._state.chats[user_id] = EmuChat(id=user_id, type="private", user=user)
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        members: Iterable[int] = (),
        creator: int | None = None,
        supergroup: bool = False,
        forum: bool = False,
    ) -> EmuChat:
        """A group; ``forum``: a supergroup with topics on (create them with
        ``create_topic``; «General» is there from the start)."""
        member_ids = list(members)
        if creator is not None and creator not in member_ids:
            member_ids.insert(0, creator)
        chat = EmuChat(
            id=chat_id,
            type="supergroup" if supergroup or forum else "group",
            title=title,
            members=member_ids,
            creator=creator,
            is_forum=forum,
        )
        self._state.chats[chat_id] = chat
        return chat

    def add_member(self, chat_id: int, user_id: int, *, admin: bool = False) -> None:
        chat = self._state.chats[chat_id]
        if user_id not in chat.members:
            chat.members.append(user_id)
        if admin and user_id not in chat.admins:
            chat.admins.append(user_id)

    def set_language(self, user_id: int, language_code: str | None) -> None:
        self._state.users[user_id].language_code = language_code

    def block_bot(self, user_id: int, blocked: bool = True, *, notify: bool = False) -> None:
        """The user blocks (unblocks) the bot: sends to them fail with 403 like Telegram's.
        ``notify``: the ``my_chat_member`` update Telegram sends for it (private chat, the bot
        "kicked", or a "member" again) is queued too."""
        user = self._state.users[user_id]
        was, user.blocked_bot = user.blocked_bot, blocked
        if notify and was != blocked:
            chat = self._state.chats[user_id]
            self._my_chat_member(chat, user_id, *(("member", "kicked")[:: 1 if blocked else -1]))

    def remove_bot(self, chat_id: int, by: int, *, kicked: bool = True) -> int:
        """A group's admin removes the bot (``kicked``: bans it) — posts there fail with 403
        and a ``my_chat_member`` update is queued; its update id."""
        chat = self._state.chats[chat_id]
        old, chat.bot_status = chat.bot_status, "kicked" if kicked else "left"
        return self._my_chat_member(chat, by, old, chat.bot_status)

    def add_bot(self, chat_id: int, by: int) -> int:
        """The bot is added to the group again; the ``my_chat_member`` update's id."""
        chat = self._state.chats[chat_id]
        old, chat.bot_status = chat.bot_status, "member"
        return self._my_chat_member(chat, by, old, "member")

    def _my_chat_member(self, chat: EmuChat, by: int, old: str, new: str) -> int:
        state = self._state

        def member(status: str) -> dict[str, Any]:
            data: dict[str, Any] = {"status": status, "user": state.bot.to_api()}
            if status == "kicked":
                data["until_date"] = 0
            return data

        update = {
            "chat": chat.to_api(), "from": state.user_api(by), "date": int(time.time()),
            "old_chat_member": member(old), "new_chat_member": member(new),
        }  # fmt: skip
        return state.queue.put({"my_chat_member": update})

    # forum topics (a user's actions; the bot's are createForumTopic & co.) ------------------
    def create_topic(self, user_id: int, chat_id: int, name: str) -> Sent:
        """The user opens a topic: its ``forum_topic_created`` message is an update; the
        topic's ``message_thread_id`` is that message's id (``Sent.message_id``)."""
        chat = self._acting_chat(user_id, chat_id)
        if not chat.is_forum:
            raise ValueError(f"chat {chat_id} is not a forum")
        msg = methods.open_topic(self._state, chat, name, user_id)
        return Sent(self._state.queue.put({"message": self._state.message_api(msg)}),
                    msg.message_id)  # fmt: skip

    def close_topic(self, user_id: int, chat_id: int, thread_id: int, closed: bool = True) -> Sent:
        """The user closes (reopens) a topic: a ``forum_topic_closed`` (``…_reopened``)
        service message in it, as an update."""
        chat = self._acting_chat(user_id, chat_id)
        topic = chat.topics[thread_id]
        msg = methods.set_topic_closed(self._state, chat, topic, closed, user_id)
        return Sent(self._state.queue.put({"message": self._state.message_api(msg)}),
                    msg.message_id)  # fmt: skip

    def delete_topic(self, chat_id: int, thread_id: int) -> None:
        """A topic is deleted with its messages: Telegram tells bots nothing."""
        self._state.chats[chat_id].topics[thread_id].deleted = True

    def user(self, user_id: int) -> EmuUser:
        return self._state.users[user_id]

    def chat(self, chat_id: int) -> EmuChat:
        return self._state.chats[chat_id]

    @property
    def callback_query_ttl(self) -> float | None:
        """Seconds after which answerCallbackQuery fails as "too old" (None: never)."""
        return self._state.callback_query_ttl

    @callback_query_ttl.setter
    def callback_query_ttl(self, seconds: float | None) -> None:
        self._state.callback_query_ttl = seconds

    @property
    def flood(self) -> FloodControl | None:
        """The flood-control windows (tunable) when enforce_flood_limits=True."""
        return self._state.flood

    @property
    def users(self) -> dict[int, EmuUser]:
        return self._state.users

    # user actions -------------------------------------------------------------------------
    def _acting_chat(self, user_id: int, chat_id: int) -> EmuChat:
        if user_id not in self._state.users:
            raise KeyError(f"unknown user {user_id}; call add_user() first")
        chat = self._state.chats.get(chat_id)
        if chat is None:
            raise KeyError(f"unknown chat {chat_id}")
        if chat.migrated_to is not None:
            raise ValueError(f"chat {chat_id} migrated to {chat.migrated_to}")
        if chat.type != "private" and user_id not in chat.members:
            raise ValueError(f"user {user_id} is not a member of chat {chat_id}")
        if chat.type == "private" and chat_id != user_id:
            raise ValueError("in a private chat chat_id must equal user_id")
        return chat

    def send_text(
        self, user_id: int, chat_id: int, text: str, *, reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> Sent:  # fmt: skip
        """The user writes to the chat (``thread_id``: into that forum topic; None is
        «General», or a reply's own topic)."""
        chat = self._acting_chat(user_id, chat_id)
        state = self._state
        if thread_id is None and reply_to is not None and chat.is_forum:
            replied = state.message(chat_id, reply_to)
            thread_id = replied.thread_id if replied is not None else None
        if thread_id is not None:
            topic = chat.topics.get(thread_id) if chat.is_forum else None
            if topic is None or topic.deleted:
                raise ValueError(f"no topic {thread_id} in chat {chat_id}")
            if topic.closed and user_id != chat.creator and user_id not in chat.admins:
                raise ValueError(f"topic {thread_id} is closed")
        entities = _command_entities(text)
        msg = ChatMessage(
            message_id=state.next_message_id(chat_id),
            chat_id=chat_id,
            text=text,
            html=text,
            entities=entities,
            reply_markup=None,
            from_id=user_id,
            date=int(time.time()),
            reply_to=reply_to,
            thread_id=thread_id,
        )
        state.store_message(msg)
        if chat.type == "private":
            state.users[user_id].started = True
        update_id = state.queue.put({"message": state.message_api(msg)})
        return Sent(update_id, msg.message_id)

    def send_document(
        self,
        user_id: int,
        chat_id: int,
        filename: str,
        data: bytes,
        *,
        caption: str | None = None,
        reply_to: int | None = None,
        mime_type: str = "application/json",
    ) -> Sent:
        """The user uploads a file (with an optional caption, e.g. a command) to the chat."""
        chat = self._acting_chat(user_id, chat_id)
        state = self._state
        file_id = "BQAC" + secrets.token_urlsafe(12)
        state.files[file_id] = StoredFile(
            file_id, "AgAD" + secrets.token_urlsafe(8), Document(filename, data), mime_type
        )
        msg = ChatMessage(
            message_id=state.next_message_id(chat_id),
            chat_id=chat_id,
            text=caption or "",
            html=caption or "",
            entities=_command_entities(caption or ""),
            reply_markup=None,
            from_id=user_id,
            date=int(time.time()),
            reply_to=reply_to,
        )
        msg.document, msg.document_mime, msg.file_id = Document(filename, data), mime_type, file_id
        state.store_message(msg)
        if chat.type == "private":
            state.users[user_id].started = True
        update_id = state.queue.put({"message": state.message_api(msg)})
        return Sent(update_id, msg.message_id)

    def press(self, user_id: int, chat_id: int, message_id: int, callback_data: str) -> Pressed:
        self._acting_chat(user_id, chat_id)
        state = self._state
        msg = state.message(chat_id, message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"no message {message_id} in chat {chat_id} to press on")
        query_id = state.next_query_id()
        state.pending_queries[query_id] = PendingQuery(user_id, chat_id, message_id, callback_data)
        query = {
            "id": query_id,
            "from": state.user_api(user_id),
            "message": state.message_api(msg),
            "chat_instance": str(abs(chat_id) * 7919 + self.bot_id),
            "data": callback_data,
        }
        update_id = state.queue.put({"callback_query": query})
        return Pressed(update_id, query_id)

    def press_button(self, user_id: int, chat_id: int, message_id: int, index: int) -> Pressed:
        msg = self._state.message(chat_id, message_id)
        buttons = msg.buttons() if msg else []
        if not 0 <= index < len(buttons):
            raise IndexError(f"message {message_id} has {len(buttons)} buttons, no #{index}")
        button = buttons[index]
        if "callback_data" not in button:
            kind = "url" if "url" in button else "non-callback"
            raise ValueError(f"button {index} ({button.get('text')!r}) is a {kind} button")
        return self.press(user_id, chat_id, message_id, button["callback_data"])

    def button_labels(self, chat_id: int, message_id: int) -> list[str]:
        msg = self._state.message(chat_id, message_id)
        return [str(b.get("text", "")) for b in (msg.buttons() if msg else [])]

    # inline mode (tgemu/inline.py) -------------------------------------------------------
    @property
    def inline_mode(self) -> bool:
        """BotFather's /setinline: off, a user typing ``@bot …`` reaches nothing."""
        return self._state.inline_mode

    @inline_mode.setter
    def inline_mode(self, on: bool) -> None:
        self._state.inline_mode = on

    @property
    def inline_feedback(self) -> bool:
        """BotFather's /setinlinefeedback (100% when on): off, choosing a result sends no
        ``chosen_inline_result`` update."""
        return self._state.inline_feedback

    @inline_feedback.setter
    def inline_feedback(self, on: bool) -> None:
        self._state.inline_feedback = on

    @property
    def inline_query_ttl(self) -> float | None:
        """Seconds an inline query can be answered in (None: forever)."""
        return self._state.inline_query_ttl

    @inline_query_ttl.setter
    def inline_query_ttl(self, seconds: float | None) -> None:
        self._state.inline_query_ttl = seconds

    def inline_query(
        self, user_id: int, query: str, *, chat_type: str = "sender", offset: str = ""
    ) -> Asked:
        """The user types ``@bot <query>`` in a chat of ``chat_type`` (sender: their chat
        with the bot; private, group, supergroup, channel)."""
        if user_id not in self._state.users:
            raise KeyError(f"unknown user {user_id}; call add_user() first")
        if not self._state.inline_mode:
            raise ValueError("inline mode is off for this bot (BotFather /setinline)")
        if len(query) > MAX_QUERY:
            raise ValueError(f"an inline query holds at most {MAX_QUERY} characters")
        state = self._state
        query_id = state.next_query_id()
        state.inline_queries[query_id] = InlineQueryRecord(query_id, user_id, query, chat_type)
        update = {
            "id": query_id, "from": state.user_api(user_id), "query": query, "offset": offset,
            "chat_type": chat_type,
        }  # fmt: skip
        return Asked(state.queue.put({"inline_query": update}), query_id)

    def inline_answer(self, inline_query_id: str) -> list[dict[str, Any]] | None:
        """The results the bot answered the query with, as sent; None until it answered."""
        record = self._state.inline_queries[inline_query_id]
        if record.results is None:
            return None
        return [_public_result(result) for result in record.results]

    def inline_query_record(self, inline_query_id: str) -> InlineQueryRecord:
        return self._state.inline_queries[inline_query_id]

    async def wait_inline_answer(
        self, inline_query_id: str, timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        record = self._state.inline_queries[inline_query_id]
        await self.wait_for(lambda: record.results is not None, timeout)
        return self.inline_answer(inline_query_id) or []

    def choose_inline_result(self, user_id: int, inline_query_id: str, result_id: str) -> Chosen:
        """The user taps a result of the answered query: its message is sent (through the
        bot, to whatever chat they typed in) and, with inline feedback on, the bot gets a
        ``chosen_inline_result``. The same result may be chosen again (a client keeps the
        answer): each choice is a message of its own."""
        state = self._state
        record = state.inline_queries.get(inline_query_id)
        if record is None or record.user_id != user_id:
            raise LookupError(f"user {user_id} typed no inline query {inline_query_id}")
        if record.results is None:
            raise LookupError(f"inline query {inline_query_id} has no answer to choose from")
        result = next((r for r in record.results if r["id"] == result_id), None)
        if result is None:
            raise LookupError(f"the answer to {inline_query_id} has no result {result_id!r}")
        sent = message_from(result, record)
        key = sent.inline_message_id or f"~{len(state.inline_messages)}"
        state.inline_messages[key] = sent
        state.touch()
        if not state.inline_feedback:
            return Chosen(None, sent.inline_message_id)
        chosen: dict[str, Any] = {
            "result_id": result_id, "from": state.user_api(user_id), "query": record.query,
        }  # fmt: skip
        if sent.inline_message_id is not None:
            chosen["inline_message_id"] = sent.inline_message_id
        return Chosen(state.queue.put({"chosen_inline_result": chosen}), sent.inline_message_id)

    def inline_message(self, inline_message_id: str) -> InlineMessage:
        """A message sent by choosing an inline result, as it is now (edits included)."""
        return self._state.inline_messages[inline_message_id]

    async def wait_inline_message(
        self, inline_message_id: str, *, contains: str | None = None, edits: int = 1,
        timeout: float = 5.0,
    ) -> InlineMessage:  # fmt: skip
        """The inline message once edited at least ``edits`` times (and holding ``contains``)."""
        message = self.inline_message(inline_message_id)

        def done() -> InlineMessage | None:
            if message.edits >= edits and (contains is None or contains in message.text):
                return message
            return None

        return await self.wait_for(done, timeout)

    def press_inline(self, user_id: int, inline_message_id: str, index: int) -> Pressed:
        """A user (anyone in the chat it was sent to) presses button ``index`` of an inline
        message: the callback query carries ``inline_message_id`` and no message."""
        state = self._state
        if user_id not in state.users:
            raise KeyError(f"unknown user {user_id}; call add_user() first")
        buttons = self.inline_message(inline_message_id).buttons()
        if not 0 <= index < len(buttons):
            raise IndexError(f"inline message has {len(buttons)} buttons, no #{index}")
        data = buttons[index].get("callback_data")
        if data is None:
            raise ValueError(f"button {index} is not a callback button")
        return self.press_inline_data(user_id, inline_message_id, data)

    def press_inline_data(self, user_id: int, inline_message_id: str, data: str) -> Pressed:
        """A press with ``data`` on an inline message: a button it no longer shows (a client
        that had not yet seen an edit) or a forged one."""
        state = self._state
        if inline_message_id not in state.inline_messages:
            raise LookupError(f"no inline message {inline_message_id}")
        query_id = state.next_query_id()
        state.pending_queries[query_id] = PendingQuery(
            user_id, 0, 0, data, inline_message_id=inline_message_id
        )
        query = {
            "id": query_id, "from": state.user_api(user_id),
            "inline_message_id": inline_message_id,
            "chat_instance": str(zlib.crc32(inline_message_id.encode())), "data": data,
        }  # fmt: skip
        return Pressed(state.queue.put({"callback_query": query}), query_id)

    def inject_update(self, update: dict[str, Any]) -> int:
        return self._state.queue.put(update)

    def redeliver(self, update_id: int) -> None:
        self._state.queue.redeliver(update_id)

    def migrate_to_supergroup(self, chat_id: int) -> int:
        state = self._state
        old = state.chats[chat_id]
        if old.type != "group" or old.migrated_to is not None:
            raise ValueError(f"chat {chat_id} is not a basic group")
        new_id = int(f"-100{abs(chat_id)}")
        new = EmuChat(
            id=new_id,
            type="supergroup",
            title=old.title,
            members=list(old.members),
            creator=old.creator,
            admins=list(old.admins),
        )
        state.chats[new_id] = new
        actor = old.creator if old.creator is not None else (old.members or [self.bot_id])[0]
        now = int(time.time())
        to_msg = {
            "message_id": state.next_message_id(chat_id),
            "date": now,
            "chat": old.to_api(),
            "from": state.user_api(actor),
            "migrate_to_chat_id": new_id,
        }
        from_msg = {
            "message_id": state.next_message_id(new_id),
            "date": now,
            "chat": new.to_api(),
            "from": state.user_api(actor),
            "migrate_from_chat_id": chat_id,
        }
        old.migrated_to = new_id
        state.queue.put({"message": to_msg})
        state.queue.put({"message": from_msg})
        return new_id

    # observation ---------------------------------------------------------------------------
    @property
    def calls(self) -> list[ApiCall]:
        return self._state.calls

    @property
    def deviations(self) -> list[Deviation]:
        """Calls the pinned Bot API specification does not allow (``tgemu/spec.py``), each
        refused as Telegram refuses it. The test suite fails on any left untaken."""
        return list(self._server.deviations.items)

    def take_deviations(self) -> list[Deviation]:
        """The deviations so far, forgotten: a test that provokes one on purpose takes it."""
        return self._server.deviations.take()

    def calls_to(self, method: str) -> list[ApiCall]:
        return [c for c in self._state.calls if c.method.lower() == method.lower()]

    @property
    def callback_answers(self) -> dict[str, CallbackAnswer]:
        return self._state.callback_answers

    def answer_attempts(self, callback_query_id: str) -> int:
        """How many times the bot called answerCallbackQuery for this press, refused calls
        included: exactly one is right (Telegram refuses a second as "query is too old")."""
        return self._state.answer_attempts.get(callback_query_id, 0)

    def bot_messages(self, chat_id: int) -> list[ChatMessage]:
        return self._state.bot_messages(chat_id)

    def chat_messages(self, chat_id: int) -> list[ChatMessage]:
        """Every message in the chat (users' and the bot's), in order."""
        return list(self._state.messages.get(chat_id, {}).values())

    def last_bot_message(self, chat_id: int) -> ChatMessage | None:
        msgs = self._state.bot_messages(chat_id)
        return msgs[-1] if msgs else None

    def commands_for(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        key = (json.dumps(scope or {"type": "default"}, sort_keys=True), language_code)
        return list(self._state.commands.get(key, []))

    @property
    def webhook(self) -> dict[str, Any]:
        return dict(self._state.webhook)

    def pending_updates(self) -> int:
        return len(self._state.queue)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` on every bot message (new/edit/delete) and callback answer."""
        self._state.listeners.append(listener)
        return lambda: self._state.listeners.remove(listener)

    # waiting ---------------------------------------------------------------------------------
    async def wait_for(self, predicate: Callable[[], T | bool | None], timeout: float = 5.0) -> T:
        """Return the predicate's first truthy value, re-checked on every state change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._state.changed  # taken before evaluating, so no change is missed
            result = predicate()
            if result:
                return result  # type: ignore[return-value]
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(self._timeout_message(timeout))
            try:
                # a periodic re-check covers predicates that depend on time
                await asyncio.wait_for(changed.wait(), min(remaining, 0.5))
            except TimeoutError:
                pass

    def _timeout_message(self, timeout: float) -> str:
        recent = self._state.calls[-6:]
        lines = [f"  {_describe_call(c)}" for c in recent] or ["  (no API calls yet)"]
        return (
            f"condition not met within {timeout}s; pending updates: "
            f"{self.pending_updates()}; last API calls:\n" + "\n".join(lines)
        )

    async def wait_bot_message(
        self,
        chat_id: int,
        *,
        contains: str | None = None,
        after: int = 0,
        timeout: float = 5.0,
    ) -> ChatMessage:
        def found() -> ChatMessage | None:
            for msg in self._state.bot_messages(chat_id):
                if msg.message_id > after and (contains is None or contains in msg.text):
                    return msg
            return None

        return await self.wait_for(found, timeout)

    async def wait_callback_answer(
        self, callback_query_id: str, timeout: float = 5.0
    ) -> CallbackAnswer:
        return await self.wait_for(
            lambda: self._state.callback_answers.get(callback_query_id), timeout
        )

    async def wait_idle(self, timeout: float = 5.0, *, quiet: float = 0.05) -> None:
        """Wait until every update is confirmed and no request has come for ``quiet`` s."""
        state = self._state

        def idle() -> bool:
            calm = time.monotonic() - state.last_activity >= quiet
            return len(state.queue) == 0 and state.in_flight == 0 and calm

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not idle():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("emulator not idle: " + self._timeout_message(timeout))
            await asyncio.sleep(min(quiet / 2, remaining))

    # faults ---------------------------------------------------------------------------------
    def add_fault(
        self,
        method: str | None = None,
        *,
        status: int = 429,
        retry_after: int | None = None,
        times: int = 1,
        chat_id: int | None = None,
        delay: float = 0.0,
        description: str | None = None,
    ) -> Fault:
        fault = Fault(method, status, retry_after, times, chat_id, delay, description)
        self._state.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self._state.faults.clear()


_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}")


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _command_entities(text: str) -> list[dict[str, Any]]:
    """The entities Telegram marks in plain text: a leading command and @username mentions."""
    entities: list[dict[str, Any]] = []
    if text.startswith("/") and len(text) > 1:
        command = text.split(maxsplit=1)[0]
        entities.append({"type": "bot_command", "offset": 0, "length": _utf16(command)})
    for found in _MENTION.finditer(text):
        entities.append(
            {"type": "mention", "offset": _utf16(text[: found.start()]),
             "length": _utf16(found.group())}
        )  # fmt: skip
    return entities


def _describe_call(call: ApiCall) -> str:
    outcome = "ok" if call.ok else f"{call.error_code} {call.description}"
    where = f" chat={call.chat_id}" if call.chat_id is not None else ""
    return f"{call.method}{where} -> {outcome}"
