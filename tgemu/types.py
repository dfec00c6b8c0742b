"""Plain data records the emulator keeps and hands to tests and the sandbox."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple


class Sent(NamedTuple):
    """Ids of a user message enqueued by :meth:`BotAPIEmulator.send_text`."""

    update_id: int
    message_id: int


class Pressed(NamedTuple):
    """Ids of a button press enqueued by :meth:`BotAPIEmulator.press`."""

    update_id: int
    callback_query_id: str


class Asked(NamedTuple):
    """Ids of an inline query enqueued by :meth:`BotAPIEmulator.inline_query`."""

    update_id: int
    inline_query_id: str


class Chosen(NamedTuple):
    """A chosen inline result: the ``chosen_inline_result`` update (None while inline
    feedback is off) and the sent message's id (None when it has no inline keyboard)."""

    update_id: int | None
    inline_message_id: str | None


class Document(NamedTuple):
    """An uploaded file: unpacks as ``(filename, data)``."""

    filename: str
    data: bytes


@dataclass
class EmuUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "ru"
    last_name: str | None = None
    started: bool = False  # wrote to the bot privately at least once
    blocked_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass
class EmuTopic:
    """A forum topic: its ``message_thread_id`` is the id of the ``forum_topic_created``
    service message that opened it."""

    thread_id: int
    name: str
    icon_color: int = 0x6FB9F0
    closed: bool = False
    deleted: bool = False

    def to_api(self) -> dict[str, Any]:
        return {"message_thread_id": self.thread_id, "name": self.name,
                "icon_color": self.icon_color}  # fmt: skip


@dataclass
class EmuChat:
    id: int
    type: Literal["private", "group", "supergroup"]
    title: str | None = None
    members: list[int] = field(default_factory=list)
    creator: int | None = None
    admins: list[int] = field(default_factory=list)
    migrated_to: int | None = None
    # private chats mirror their user; kept here so to_api needs no lookups
    user: EmuUser | None = None
    # a forum supergroup (topics on): its topics by thread id; «General» has none
    is_forum: bool = False
    topics: dict[int, EmuTopic] = field(default_factory=dict)
    # the bot's own membership of a group: "member", "left" or "kicked"
    bot_status: str = "member"

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.is_forum:
            data["is_forum"] = True
        if self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title or ""
        return data


@dataclass
class ChatMessage:
    """A message in a chat as the emulator currently sees it (bot or user authored)."""

    message_id: int
    chat_id: int
    text: str
    html: str
    entities: list[dict[str, Any]]
    reply_markup: dict[str, Any] | None
    from_id: int
    date: int
    edits: int = 0
    deleted: bool = False
    sent_at: float = field(default_factory=time.monotonic)
    edited_at: float | None = None
    document: Document | None = None
    document_mime: str | None = None
    file_id: str | None = None
    reply_to: int | None = None
    parse_mode: str | None = None
    # the forum topic it is in (None: «General», or a chat without topics)
    thread_id: int | None = None
    # a service message's own field(s) instead of text (``forum_topic_created``, …)
    service: dict[str, Any] | None = None

    @property
    def has_keyboard(self) -> bool:
        return bool(self.reply_markup and self.reply_markup.get("inline_keyboard"))

    def buttons(self) -> list[dict[str, Any]]:
        """Inline keyboard buttons, flattened row by row."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or []
        return [button for row in rows for button in row]


@dataclass
class CallbackAnswer:
    callback_query_id: str
    text: str | None
    show_alert: bool
    answered_at: float
    url: str | None = None
    cache_time: int = 0
    user_id: int | None = None
    chat_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class ApiCall:
    """One HTTP request the bot made; appended when its response is sent."""

    method: str
    params: dict[str, Any]
    ok: bool
    error_code: int | None
    description: str | None
    at: float  # time.monotonic() when the request arrived
    chat_id: int | str | None = None
    finished_at: float = 0.0
    result: Any = None


@dataclass
class Fault:
    """A scripted failure for the next ``times`` matching requests."""

    method: str | None
    status: int = 429
    retry_after: int | None = None
    times: int = 1
    chat_id: int | None = None
    delay: float = 0.0
    description: str | None = None
    hits: int = 0

    @property
    def exhausted(self) -> bool:
        return self.hits >= self.times

    def matches(self, method: str, chat_id: int | str | None) -> bool:
        if self.exhausted:
            return False
        if self.method is None:
            # a catch-all fault must not be swallowed by the idle long poll
            if method.lower() == "getupdates":
                return False
        elif self.method.lower() != method.lower():
            return False
        return self.chat_id is None or str(self.chat_id) == str(chat_id)


EventKind = Literal["new", "edit", "delete", "callback_answer", "api_error"]


@dataclass(frozen=True)
class EmuEvent:
    """What listeners (the sandbox) are told about bot-visible changes."""

    kind: EventKind
    message: ChatMessage | None = None
    answer: CallbackAnswer | None = None
    call: ApiCall | None = None  # for "api_error": a request the emulator refused
