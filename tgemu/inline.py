"""Inline mode as Telegram defines it: ``inline_query`` updates, ``answerInlineQuery``,
``chosen_inline_result`` updates and the inline messages a chosen result sends, edited by
``inline_message_id`` (editMessageText, editMessageReplyMarkup).

Limits kept as Telegram keeps them: a query of at most 256 characters (a client cannot type
more), at most 50 results, result ids of 1–64 bytes and unique, one answer per query within
its lifetime, ``next_offset`` of at most 64 bytes, a button's ``start_parameter`` of 1–64
characters ``A-Za-z0-9_-``. Only ``article`` results with ``input_message_content`` text are
emulated (others are refused as ``RESULT_TYPE_INVALID``). A sent inline message gets an
``inline_message_id`` only when it carries an inline keyboard, as on Telegram; so does its
``chosen_inline_result`` (sent only while inline feedback is on: BotFather /setinlinefeedback).
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from tgemu.errors import NOT_MODIFIED, QUERY_TOO_OLD, bad_request
from tgemu.validation import check_reply_markup, format_text

MAX_QUERY = 256
MAX_RESULTS = 50
MAX_ID_BYTES = 64
_START_PARAMETER = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass
class InlineQueryRecord:
    """A query a user typed, and the bot's answer to it once given."""

    id: str
    user_id: int
    query: str
    chat_type: str
    created_at: float = field(default_factory=time.monotonic)
    results: list[dict[str, Any]] | None = None  # None until answered
    cache_time: int = 300
    is_personal: bool = False
    button: dict[str, Any] | None = None


@dataclass
class InlineMessage:
    """A message sent through the bot by choosing an inline result (no chat the bot sees)."""

    inline_message_id: str | None
    user_id: int
    result_id: str
    query: str
    text: str
    html: str
    entities: list[dict[str, Any]]
    reply_markup: dict[str, Any] | None
    parse_mode: str | None = None
    edits: int = 0

    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]


def new_inline_message_id() -> str:
    """Telegram's are opaque url-safe base64 strings of 24–32 characters."""
    return secrets.token_urlsafe(21)


# answerInlineQuery ------------------------------------------------------------------------
def check_answer(
    record: InlineQueryRecord | None, ttl: float | None, params: dict[str, Any]
) -> list[dict[str, Any]]:
    """The validated results of an answer, or Telegram's refusal."""
    if record is None or record.results is not None:
        raise bad_request(QUERY_TOO_OLD)  # unknown, or answered already
    if ttl is not None and time.monotonic() - record.created_at > ttl:
        raise bad_request(QUERY_TOO_OLD)
    results = params.get("results")
    if not isinstance(results, list):
        raise bad_request("can't parse inline query results JSON object")
    if len(results) > MAX_RESULTS:
        raise bad_request("RESULTS_TOO_MUCH")
    seen: set[str] = set()
    checked = [_check_result(result, seen) for result in results]
    next_offset = str(params.get("next_offset") or "")
    if len(next_offset.encode("utf-8")) > MAX_ID_BYTES:
        raise bad_request("NEXT_OFFSET_INVALID")
    _check_button(params.get("button"))
    return checked


def _check_result(result: Any, seen: set[str]) -> dict[str, Any]:
    if not isinstance(result, dict):
        raise bad_request("can't parse inline query result JSON object")
    result_id = result.get("id")
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= MAX_ID_BYTES:
        raise bad_request("RESULT_ID_INVALID")
    if result_id in seen:
        raise bad_request("RESULT_ID_DUPLICATE")
    seen.add(result_id)
    if result.get("type") != "article":
        raise bad_request("RESULT_TYPE_INVALID")
    if not isinstance(result.get("title"), str) or not result["title"].strip():
        raise bad_request('can\'t parse InlineQueryResult: Field "title" must be of type String')
    content = result.get("input_message_content")
    if not isinstance(content, dict) or "message_text" not in content:
        raise bad_request(
            'can\'t parse InlineQueryResult: Field "input_message_content" must be of type Object'
        )
    text, entities = format_text(
        content.get("message_text"), content.get("parse_mode"), content.get("entities")
    )
    markup = check_reply_markup(result.get("reply_markup"))
    if markup is not None and "inline_keyboard" not in markup:
        raise bad_request("REPLY_MARKUP_INVALID")  # only an inline keyboard goes with a result
    return {
        **result, "_text": text, "_entities": entities, "_markup": markup,
        "_html": str(content.get("message_text")), "_parse_mode": content.get("parse_mode"),
    }  # fmt: skip


def _check_button(button: Any) -> None:
    if button is None:
        return
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request("can't parse InlineQueryResultsButton")
    start = button.get("start_parameter")
    if start is not None and not _START_PARAMETER.match(str(start)):
        raise bad_request("START_PARAM_INVALID")


def public_result(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result as the bot sent it (without what the emulator parsed)."""
    return {k: v for k, v in result.items() if not k.startswith("_")}


def message_from(result: dict[str, Any], record: InlineQueryRecord) -> InlineMessage:
    markup = result["_markup"]
    has_keyboard = bool(markup and markup.get("inline_keyboard"))
    return InlineMessage(
        inline_message_id=new_inline_message_id() if has_keyboard else None,
        user_id=record.user_id,
        result_id=result["id"],
        query=record.query,
        text=result["_text"],
        html=result["_html"],
        entities=result["_entities"],
        reply_markup=markup,
        parse_mode=result["_parse_mode"],
    )


# editing by inline_message_id -------------------------------------------------------------
def edit_text(message: InlineMessage, params: dict[str, Any]) -> None:
    raw = params.get("text")
    text, entities = format_text(raw, params.get("parse_mode"), params.get("entities"))
    markup = check_reply_markup(params.get("reply_markup"))  # none given: the keyboard goes
    if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
        raise bad_request(NOT_MODIFIED)
    message.text, message.html, message.entities = text, str(raw), entities
    message.reply_markup, message.parse_mode = markup, params.get("parse_mode")
    message.edits += 1


def edit_markup(message: InlineMessage, params: dict[str, Any]) -> None:
    markup = check_reply_markup(params.get("reply_markup"))
    if markup == message.reply_markup:
        raise bad_request(NOT_MODIFIED)
    message.reply_markup = markup
    message.edits += 1
