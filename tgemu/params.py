"""Decoding Bot API request parameters from form, JSON or query-string bodies."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from multidict import MultiDictProxy

logger = logging.getLogger(__name__)

# Fields that clients send as JSON strings inside form bodies.
JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "allowed_updates",
        "commands",
        "scope",
        "link_preview_options",
        "reply_parameters",
        "media",
        "results",
        "button",
    }
)
INT_FIELDS = frozenset(
    {
        "message_id",
        "offset",
        "limit",
        "timeout",
        "user_id",
        "cache_time",
        "reply_to_message_id",
        "message_thread_id",
        "max_connections",
    }
)
BOOL_FIELDS = frozenset(
    {
        "show_alert",
        "disable_notification",
        "protect_content",
        "drop_pending_updates",
        "allow_sending_without_reply",
        "disable_web_page_preview",
        "disable_content_type_detection",
        "is_personal",
    }
)


@dataclass(frozen=True)
class UploadedFile:
    filename: str
    data: bytes
    content_type: str


def _coerce(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key in JSON_FIELDS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    if key in INT_FIELDS or key == "chat_id":
        try:
            return int(value)
        except ValueError:
            return value  # "@channelusername" stays a string
    if key in BOOL_FIELDS:
        return value.lower() in ("true", "1")
    return value


async def read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, UploadedFile]]:
    """Merge query string and body into one typed dict; file parts are returned separately."""
    params: dict[str, Any] = {k: _coerce(k, v) for k, v in request.query.items()}
    files: dict[str, UploadedFile] = {}
    if not request.can_read_body:
        return params, files
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            params.update({k: _coerce(k, v) for k, v in body.items()})
        return params, files
    form: MultiDictProxy[Any] = await request.post()
    for key, value in form.items():
        if isinstance(value, web.FileField):
            files[key] = UploadedFile(
                filename=value.filename or key,
                data=value.file.read(),
                content_type=value.content_type,
            )
        else:
            params[key] = _coerce(key, value)
    return params, files


def resolve_attachment(
    value: Any, files: dict[str, UploadedFile], field_name: str
) -> UploadedFile | str | None:
    """An ``attach://name`` reference or a direct file part → the upload; else the raw string."""
    if isinstance(value, str) and value.startswith("attach://"):
        return files.get(value[len("attach://") :])
    if value is None:
        return files.get(field_name)
    return str(value)
