"""Telegram's limits on outgoing content, rejected with Telegram's wording."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from tgemu.errors import ApiError, bad_request
from tgemu.html import HtmlParseError, parse_html, strip_text

logger = logging.getLogger(__name__)

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_COMMANDS = 100
# Inline keyboards: Telegram refuses more than 100 buttons (or a markup over about 10 KB)
# with "reply markup is too long"; the Bot API documents neither, bots meet both.
MAX_INLINE_BUTTONS = 100
MAX_MARKUP_BYTES = 10_000
_COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_URL_PREFIXES = ("http://", "https://", "tg://")
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


def format_text(
    raw: Any, parse_mode: Any, entities: Any, *, caption: bool = False
) -> tuple[str, list[dict[str, Any]]]:
    """Parse ``raw`` the way Telegram does and enforce the length limit."""
    text = "" if raw is None else str(raw)
    mode = str(parse_mode).lower() if parse_mode else ""
    if mode == "html":
        try:
            text, parsed = parse_html(text)
        except HtmlParseError as exc:
            raise bad_request(f"can't parse entities: {exc}") from None
    else:
        if mode:
            # MarkdownV2/Markdown are not emulated: the text is kept verbatim
            logger.warning("parse_mode %r is not emulated; text kept as is", parse_mode)
        parsed = list(entities) if isinstance(entities, list) else []
    text, parsed = strip_text(text, parsed)
    _check_length(text, caption=caption)
    return text, parsed


def _check_length(text: str, *, caption: bool) -> None:
    if caption:
        if len(text) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        return
    if not text:
        raise bad_request("message text is empty")
    if len(text) > MAX_TEXT:
        raise bad_request("message is too long")


def check_reply_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None or markup == "":
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup  # reply keyboards / remove / force_reply are stored as sent
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    for row in rows:
        for button in row:
            _check_button(button)
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS or (
        len(json.dumps(markup, ensure_ascii=False).encode("utf-8")) > MAX_MARKUP_BYTES
    ):
        raise bad_request("reply markup is too long")
    return markup


def _check_button(button: Any) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request("can't parse inline keyboard button: Text must be a String")
    if not any(key in button for key in _BUTTON_ACTIONS):
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if "callback_data" in button:
        data = button["callback_data"]
        size = len(str(data).encode("utf-8"))
        if not isinstance(data, str) or not 1 <= size <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button and not str(button["url"]).startswith(_URL_PREFIXES):
        raise bad_request("BUTTON_URL_INVALID")


def check_commands(commands: Any) -> list[dict[str, Any]]:
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > MAX_COMMANDS:
        raise bad_request("too many commands specified")
    result: list[dict[str, Any]] = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("can't parse BotCommand")
        command = str(item.get("command", "")).lstrip("/")
        description = str(item.get("description", ""))
        if not _COMMAND_RE.match(command):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        result.append({"command": command, "description": description})
    return result


def require(params: dict[str, Any], name: str) -> Any:
    if params.get(name) in (None, ""):
        raise bad_request(f"{name} is empty" if name != "chat_id" else "chat_id is empty")
    return params[name]


def int_param(params: dict[str, Any], name: str) -> int:
    value = require(params, name)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError(400, f"Bad Request: invalid {name} specified") from None
