"""Bot API method implementations over :class:`EmuState`."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from tgemu import inline
from tgemu.errors import NOT_MODIFIED, QUERY_TOO_OLD, ApiError, bad_request
from tgemu.params import UploadedFile, resolve_attachment
from tgemu.state import EmuState, RequestContext, StoredFile
from tgemu.types import CallbackAnswer, ChatMessage, Document, EmuChat, EmuEvent, EmuTopic
from tgemu.validation import (
    check_commands,
    check_reply_markup,
    format_text,
    int_param,
    require,
)

logger = logging.getLogger(__name__)

Handler = Callable[[EmuState, RequestContext], Awaitable[Any]]
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
MAX_ANSWER_TEXT = 200
MAX_DOWNLOAD = 20 * 1024 * 1024  # Telegram's limit for files bots download (getFile)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)


# sending ------------------------------------------------------------------------------
def _check_flood(state: EmuState, chat: EmuChat) -> None:
    if state.flood is None:
        return
    retry_after = state.flood.check(chat.id, chat.type != "private")
    if retry_after is not None:
        raise ApiError(
            429,
            f"Too Many Requests: retry after {retry_after}",
            parameters={"retry_after": retry_after},
        )


def _reply_target(state: EmuState, chat: EmuChat, params: dict[str, Any]) -> int | None:
    reply = params.get("reply_parameters")
    allow_missing = bool(params.get("allow_sending_without_reply"))
    target = params.get("reply_to_message_id")
    if isinstance(reply, dict):
        target = reply.get("message_id")
        allow_missing = bool(reply.get("allow_sending_without_reply", allow_missing))
    if target is None:
        return None
    replied = state.message(chat.id, int(target))
    if replied is None or replied.deleted:
        if allow_missing:
            return None
        raise bad_request("message to be replied not found")
    return int(target)


def _new_message(
    state: EmuState, chat: EmuChat, text: str, html: str, entities: list[dict[str, Any]]
) -> ChatMessage:
    return ChatMessage(
        message_id=state.next_message_id(chat.id),
        chat_id=chat.id,
        text=text,
        html=html,
        entities=entities,
        reply_markup=None,
        from_id=state.bot.id,
        date=int(time.time()),
    )


def _publish(
    state: EmuState, msg: ChatMessage, kind: Literal["new", "edit"] = "new"
) -> dict[str, Any]:
    if kind == "new":
        state.store_message(msg)
        state.emit(EmuEvent("new", message=msg))
    else:
        state.emit(EmuEvent("edit", message=msg))
    state.touch()
    return state.message_api(msg)


async def send_message(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    chat = state.writable_chat(require(p, "chat_id"))
    raw = p.get("text")
    text, entities = format_text(raw, p.get("parse_mode"), p.get("entities"))
    markup = check_reply_markup(p.get("reply_markup"))
    reply_to = _reply_target(state, chat, p)
    thread = state.target_thread(chat, p, reply_to)
    _check_flood(state, chat)
    msg = _new_message(state, chat, text, str(raw), entities)
    msg.reply_markup, msg.reply_to, msg.thread_id = markup, reply_to, thread
    msg.parse_mode = p.get("parse_mode")
    return _publish(state, msg)


def _store_upload(state: EmuState, upload: UploadedFile) -> StoredFile:
    file_id = "BQAC" + secrets.token_urlsafe(24)
    stored = StoredFile(
        file_id=file_id,
        file_unique_id="AgAD" + secrets.token_urlsafe(8),
        document=Document(upload.filename, upload.data),
        mime_type=upload.content_type or "application/octet-stream",
    )
    state.files[file_id] = stored
    return stored


async def send_document(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    chat = state.writable_chat(require(p, "chat_id"))
    source = resolve_attachment(p.get("document"), ctx.files, "document")
    if isinstance(source, UploadedFile):
        stored = _store_upload(state, source)
    elif isinstance(source, str) and source in state.files:
        stored = state.files[source]  # re-sending by file_id
    else:
        raise bad_request("wrong file identifier/HTTP URL specified")
    raw = p.get("caption")
    caption, entities = format_text(
        raw, p.get("parse_mode"), p.get("caption_entities"), caption=True
    )
    markup = check_reply_markup(p.get("reply_markup"))
    reply_to = _reply_target(state, chat, p)
    thread = state.target_thread(chat, p, reply_to)
    _check_flood(state, chat)
    msg = _new_message(state, chat, caption, "" if raw is None else str(raw), entities)
    msg.reply_markup, msg.reply_to, msg.thread_id = markup, reply_to, thread
    msg.document, msg.document_mime, msg.file_id = (
        stored.document,
        stored.mime_type,
        stored.file_id,
    )
    return _publish(state, msg)


# editing and deleting ---------------------------------------------------------------------
def _inline_message(state: EmuState, p: dict[str, Any]) -> inline.InlineMessage | None:
    """The inline message an edit names by ``inline_message_id`` (None: it names a chat's)."""
    message_id = p.get("inline_message_id")
    if not message_id:
        return None
    message = state.inline_messages.get(str(message_id))
    if message is None:
        raise bad_request("MESSAGE_ID_INVALID")
    return message


def _inline_edited(state: EmuState) -> bool:
    state.touch()
    return True  # Telegram answers an inline message's edit with True, not a Message


def _editable(state: EmuState, p: dict[str, Any]) -> ChatMessage:
    chat = state.writable_chat(require(p, "chat_id"))
    msg = state.message(chat.id, int_param(p, "message_id"))
    if msg is None or msg.deleted:
        raise bad_request("message to edit not found")
    if msg.from_id != state.bot.id:
        raise bad_request("message can't be edited")
    return msg


def _apply_edit(state: EmuState, msg: ChatMessage) -> dict[str, Any]:
    msg.edits += 1
    msg.edited_at = time.monotonic()
    return _publish(state, msg, kind="edit")


async def edit_message_text(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    sent_inline = _inline_message(state, p)
    if sent_inline is not None:
        inline.edit_text(sent_inline, p)
        return _inline_edited(state)
    msg = _editable(state, p)
    if msg.document is not None:
        raise bad_request("there is no text in the message to edit")
    raw = p.get("text")
    text, entities = format_text(raw, p.get("parse_mode"), p.get("entities"))
    # Telegram drops the inline keyboard when an edit does not repeat it
    markup = check_reply_markup(p.get("reply_markup"))
    if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
        raise bad_request(NOT_MODIFIED)
    msg.text, msg.html, msg.entities, msg.reply_markup = text, str(raw), entities, markup
    msg.parse_mode = p.get("parse_mode")
    return _apply_edit(state, msg)


async def edit_message_caption(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    if _inline_message(state, p) is not None:  # only text inline messages are emulated
        raise bad_request("there is no caption in the message to edit")
    msg = _editable(state, p)
    if msg.document is None:
        raise bad_request("there is no caption in the message to edit")
    raw = p.get("caption")
    text, entities = format_text(raw, p.get("parse_mode"), p.get("caption_entities"), caption=True)
    markup = check_reply_markup(p.get("reply_markup"))
    if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
        raise bad_request(NOT_MODIFIED)
    msg.text, msg.html, msg.entities, msg.reply_markup = text, str(raw or ""), entities, markup
    return _apply_edit(state, msg)


async def edit_message_reply_markup(state: EmuState, ctx: RequestContext) -> Any:
    sent_inline = _inline_message(state, ctx.params)
    if sent_inline is not None:
        inline.edit_markup(sent_inline, ctx.params)
        return _inline_edited(state)
    msg = _editable(state, ctx.params)
    markup = check_reply_markup(ctx.params.get("reply_markup"))
    if markup == msg.reply_markup:
        raise bad_request(NOT_MODIFIED)
    msg.reply_markup = markup
    return _apply_edit(state, msg)


async def delete_message(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    chat = state.chat(require(p, "chat_id"))
    msg = state.message(chat.id, int_param(p, "message_id"))
    if msg is None or msg.deleted:
        raise bad_request("message to delete not found")
    msg.deleted = True
    state.emit(EmuEvent("delete", message=msg))
    state.touch()
    return True


# callback queries -------------------------------------------------------------------------
async def answer_callback_query(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    query_id = str(p.get("callback_query_id") or "")
    state.answer_attempts[query_id] = state.answer_attempts.get(query_id, 0) + 1
    # Answered (or never pressed, or expired): Telegram refuses every further answer alike.
    pending = state.pending_queries.get(query_id)
    ttl = state.callback_query_ttl
    if pending is None or (ttl is not None and time.monotonic() - pending.created_at > ttl):
        raise bad_request(QUERY_TOO_OLD)
    if len(str(p.get("text") or "")) > MAX_ANSWER_TEXT:
        raise bad_request("MESSAGE_TOO_LONG")
    del state.pending_queries[query_id]
    answer = CallbackAnswer(
        callback_query_id=query_id,
        text=p.get("text"),
        show_alert=bool(p.get("show_alert")),
        answered_at=time.monotonic(),
        url=p.get("url"),
        cache_time=int(p.get("cache_time") or 0),
        user_id=pending.user_id,
        chat_id=pending.chat_id,
        message_id=pending.message_id,
    )
    state.callback_answers[query_id] = answer
    state.emit(EmuEvent("callback_answer", answer=answer))
    state.touch()
    return True


# inline mode ------------------------------------------------------------------------------
async def answer_inline_query(state: EmuState, ctx: RequestContext) -> Any:
    p = ctx.params
    record = state.inline_queries.get(str(p.get("inline_query_id") or ""))
    results = inline.check_answer(record, state.inline_query_ttl, p)
    assert record is not None
    record.results = results
    cache_time = p.get("cache_time")
    record.cache_time = 300 if cache_time is None else int(cache_time)  # Telegram's default
    record.is_personal = bool(p.get("is_personal"))
    record.button = p.get("button")
    state.touch()
    return True


# commands, webhook, misc ------------------------------------------------------------------
def _commands_key(p: dict[str, Any]) -> tuple[str, str]:
    scope = p.get("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True), str(p.get("language_code") or "")


async def set_my_commands(state: EmuState, ctx: RequestContext) -> Any:
    commands = check_commands(require(ctx.params, "commands"))
    state.commands[_commands_key(ctx.params)] = commands
    state.touch()
    return True


async def get_my_commands(state: EmuState, ctx: RequestContext) -> Any:
    return list(state.commands.get(_commands_key(ctx.params), []))


async def delete_my_commands(state: EmuState, ctx: RequestContext) -> Any:
    state.commands.pop(_commands_key(ctx.params), None)
    state.touch()
    return True


def _menu_button(raw: Any) -> dict[str, Any]:
    button = json.loads(raw) if isinstance(raw, str) else raw
    kinds = ("commands", "web_app", "default")
    if not isinstance(button, dict) or button.get("type") not in kinds:
        raise ApiError(400, "Bad Request: invalid menu button")
    if button["type"] == "web_app":
        url = (button.get("web_app") or {}).get("url", "")
        if not button.get("text") or not isinstance(url, str) or not url:
            raise ApiError(400, "Bad Request: invalid menu button")
    return button


async def set_chat_menu_button(state: EmuState, ctx: RequestContext) -> Any:
    chat_id = ctx.params.get("chat_id")
    button = _menu_button(ctx.params.get("menu_button") or {"type": "default"})
    state.menu_buttons[int(chat_id) if chat_id is not None else None] = button
    state.touch()
    return True


async def get_chat_menu_button(state: EmuState, ctx: RequestContext) -> Any:
    chat_id = ctx.params.get("chat_id")
    key = int(chat_id) if chat_id is not None else None
    return state.menu_buttons.get(key) or state.menu_buttons.get(None) or {"type": "commands"}


async def get_updates(state: EmuState, ctx: RequestContext) -> Any:
    if state.webhook.get("url"):
        raise ApiError(409, WEBHOOK_CONFLICT)
    p = ctx.params
    limit = min(max(int(p.get("limit") or 100), 1), 100)
    offset = int(p["offset"]) if p.get("offset") is not None else None
    allowed = p.get("allowed_updates")
    return await state.queue.get_updates(
        offset, limit, float(p.get("timeout") or 0), allowed if isinstance(allowed, list) else None
    )


async def set_webhook(state: EmuState, ctx: RequestContext) -> Any:
    state.webhook = {k: v for k, v in ctx.params.items() if k != "certificate"}
    state.webhook.setdefault("url", "")
    allowed = ctx.params.get("allowed_updates")
    if isinstance(allowed, list):
        state.queue.allowed_updates = list(allowed)
    if ctx.params.get("drop_pending_updates"):
        state.queue.clear()
    state.queue.notify()  # the webhook pusher starts POSTing
    return True


async def delete_webhook(state: EmuState, ctx: RequestContext) -> Any:
    state.webhook = {"url": ""}
    if ctx.params.get("drop_pending_updates"):
        state.queue.clear()
    return True


async def get_webhook_info(state: EmuState, ctx: RequestContext) -> Any:
    return {
        "url": state.webhook.get("url", ""),
        "has_custom_certificate": False,
        "pending_update_count": len(state.queue),
    }


async def send_chat_action(state: EmuState, ctx: RequestContext) -> Any:
    state.writable_chat(require(ctx.params, "chat_id"))
    if ctx.params.get("action") not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    return True


async def get_me(state: EmuState, ctx: RequestContext) -> Any:
    return {
        **state.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": state.inline_mode,
    }


async def trivially_true(state: EmuState, ctx: RequestContext) -> Any:
    return True


# chats and members ------------------------------------------------------------------------
async def get_chat(state: EmuState, ctx: RequestContext) -> Any:
    chat = state.chat(require(ctx.params, "chat_id"))
    info = chat.to_api()
    info.update(
        accent_color_id=0,
        max_reaction_count=11,
        accepted_gift_types={
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    )
    return info


def member_api(state: EmuState, chat: EmuChat, user_id: int) -> dict[str, Any]:
    user = state.user_api(user_id)
    if chat.type == "private":
        status = "member" if user_id in (chat.id, state.bot.id) else "left"
        return {"status": status, "user": user}
    if user_id == chat.creator:
        return {"status": "creator", "user": user, "is_anonymous": False}
    if user_id in chat.admins:
        return _admin_api(user)
    if user_id in chat.members or user_id == state.bot.id:
        return {"status": "member", "user": user}
    return {"status": "left", "user": user}


def _admin_api(user: dict[str, Any]) -> dict[str, Any]:
    rights = (
        "can_manage_chat can_delete_messages can_manage_video_chats can_restrict_members "
        "can_change_info can_invite_users can_post_stories can_edit_stories "
        "can_delete_stories can_pin_messages"
    ).split()
    data: dict[str, Any] = {"status": "administrator", "user": user, "is_anonymous": False}
    data.update(dict.fromkeys(rights, True))
    data.update(can_be_edited=False, can_promote_members=False, can_send_welcome_messages=False)
    return data


async def get_chat_member(state: EmuState, ctx: RequestContext) -> Any:
    chat = state.chat(require(ctx.params, "chat_id"))
    user_id = int_param(ctx.params, "user_id")
    if user_id not in state.users and user_id != state.bot.id:
        raise bad_request("user not found")
    return member_api(state, chat, user_id)


# forum topics --------------------------------------------------------------------------
def _forum(state: EmuState, p: dict[str, Any]) -> EmuChat:
    chat = state.writable_chat(require(p, "chat_id"))
    if not chat.is_forum:
        raise bad_request("the chat is not a forum")
    return chat


def _forum_topic(state: EmuState, p: dict[str, Any]) -> tuple[EmuChat, EmuTopic]:
    chat = _forum(state, p)
    topic = chat.topics.get(int_param(p, "message_thread_id"))
    if topic is None or topic.deleted:
        raise bad_request("TOPIC_ID_INVALID")
    return chat, topic


def _service_message(
    state: EmuState, chat: EmuChat, thread_id: int, service: dict[str, Any], from_id: int
) -> ChatMessage:
    """A forum service message (``forum_topic_created``, …) in the topic, by ``from_id``."""
    msg = ChatMessage(
        message_id=state.next_message_id(chat.id), chat_id=chat.id, text="", html="",
        entities=[], reply_markup=None, from_id=from_id, date=int(time.time()),
        thread_id=thread_id, service=service,
    )  # fmt: skip
    state.store_message(msg)
    state.touch()
    return msg


def open_topic(state: EmuState, chat: EmuChat, name: str, from_id: int) -> ChatMessage:
    """A new topic and its ``forum_topic_created`` message (whose id is the thread's)."""
    thread_id = state.next_message_id(chat.id)
    topic = EmuTopic(thread_id, name)
    chat.topics[thread_id] = topic
    msg = ChatMessage(
        message_id=thread_id, chat_id=chat.id, text="", html="", entities=[],
        reply_markup=None, from_id=from_id, date=int(time.time()), thread_id=thread_id,
        service={"forum_topic_created": {"name": name, "icon_color": topic.icon_color}},
    )  # fmt: skip
    state.store_message(msg)
    state.touch()
    return msg


def set_topic_closed(
    state: EmuState, chat: EmuChat, topic: EmuTopic, closed: bool, from_id: int
) -> ChatMessage:
    if topic.closed == closed:
        raise bad_request("TOPIC_NOT_MODIFIED")
    topic.closed = closed
    kind = "forum_topic_closed" if closed else "forum_topic_reopened"
    return _service_message(state, chat, topic.thread_id, {kind: {}}, from_id)


async def create_forum_topic(state: EmuState, ctx: RequestContext) -> Any:
    chat = _forum(state, ctx.params)
    name = str(require(ctx.params, "name"))
    if not 1 <= len(name) <= 128:
        raise bad_request("TOPIC_TITLE_EMPTY" if not name else "TOPIC_TITLE_TOO_LONG")
    msg = open_topic(state, chat, name, state.bot.id)
    return chat.topics[msg.message_id].to_api()


async def close_forum_topic(state: EmuState, ctx: RequestContext) -> Any:
    chat, topic = _forum_topic(state, ctx.params)
    set_topic_closed(state, chat, topic, True, state.bot.id)
    return True


async def reopen_forum_topic(state: EmuState, ctx: RequestContext) -> Any:
    chat, topic = _forum_topic(state, ctx.params)
    set_topic_closed(state, chat, topic, False, state.bot.id)
    return True


async def delete_forum_topic(state: EmuState, ctx: RequestContext) -> Any:
    _, topic = _forum_topic(state, ctx.params)
    topic.deleted = True
    state.touch()
    return True


async def get_chat_administrators(state: EmuState, ctx: RequestContext) -> Any:
    chat = state.chat(require(ctx.params, "chat_id"))
    if chat.type == "private":
        raise bad_request("there are no administrators in the private chat")
    ids = [chat.creator] if chat.creator is not None else []
    ids += [uid for uid in chat.admins if uid != chat.creator]
    return [member_api(state, chat, uid) for uid in ids]


async def get_file(state: EmuState, ctx: RequestContext) -> Any:
    file_id = str(require(ctx.params, "file_id"))
    stored = state.files.get(file_id)
    if stored is None:
        raise bad_request("wrong file_id or the file is temporarily unavailable")
    if len(stored.document.data) > MAX_DOWNLOAD:
        raise bad_request("file is too big")  # bots may download files up to 20 MB
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.document.data),
        "file_path": f"documents/{stored.file_id}",
    }


METHODS: dict[str, Handler] = {
    "getMe": get_me,
    "getUpdates": get_updates,
    "sendMessage": send_message,
    "sendDocument": send_document,
    "getFile": get_file,
    "editMessageText": edit_message_text,
    "editMessageCaption": edit_message_caption,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "answerCallbackQuery": answer_callback_query,
    "answerInlineQuery": answer_inline_query,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "setChatMenuButton": set_chat_menu_button,
    "getChatMenuButton": get_chat_menu_button,
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
    "sendChatAction": send_chat_action,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "createForumTopic": create_forum_topic,
    "closeForumTopic": close_forum_topic,
    "reopenForumTopic": reopen_forum_topic,
    "deleteForumTopic": delete_forum_topic,
    "close": trivially_true,
    "logOut": trivially_true,
}
# Telegram matches method names case-insensitively
METHODS_BY_LOWER = {name.lower(): (name, handler) for name, handler in METHODS.items()}
