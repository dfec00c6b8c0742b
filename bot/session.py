"""The bot's HTTP session: aiogram's aiohttp session, made cheaper per call.

Each change below was a measured share of the CPU of a ``/r`` burst (``make bench``):

* aiogram validates every response as ``Response[method.__returning__]``; pydantic keeps such
  parametrised classes only weakly, so between calls they were collected and built again — a
  pydantic model class per Bot API call (~4%). Each one is now held once.
* aiogram sends every call as an url-encoded form: each value is quoted in pure Python, and
  nested objects (reply parameters, keyboards) are JSON strings inside the form. A call
  without files now goes as one JSON body, which the Bot API accepts for every method.
* A sent message comes back with what Telegram made of it: the message it replied to (a
  second full ``Message``) and the entities parsed from our own HTML (each validated as an
  object: a formatted roll is half again the cost of a plain text). Nothing here reads
  either — handlers keep the id, aiogram-dialog compares the plain ``text`` — so both are
  dropped before validation. Updates (polled or pushed) keep theirs.
* A polled batch is kept as Telegram's text (``polled``): the polling inbox stores it as it
  came, instead of dumping the parsed updates back to JSON (``bot/polling.py``).
"""

from __future__ import annotations

import json
from typing import Any, cast

from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import GetUpdates, Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import TelegramObject
from aiohttp import ClientError

from bot.edge import clean_response

_JSON = {"Content-Type": "application/json"}


class BotSession(AiohttpSession):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("json_loads", _loads)
        super().__init__(**kwargs)
        self._response_types: dict[Any, type[Any]] = {}
        # The text of the getUpdates response last received, for the polling inbox: its
        # loop clears it before each call, so a value here is always that call's.
        self.polled: str | None = None
        # The ids of the polled updates whose text was cleaned (``bot/edge.py``).
        self.cleaned: set[int] = set()

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        body = self.json_body(bot, method)
        if body is None:  # files to upload: aiogram's multipart form
            return await super().make_request(bot, method, timeout)
        # As aiogram's own make_request (same errors, same response check), with the body.
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url, data=body, headers=_JSON, timeout=self.timeout if timeout is None else timeout
            ) as resp:
                raw_result = await resp.text()
                if isinstance(method, GetUpdates):
                    # Text the database cannot hold is cleaned here, before anything parses
                    # or stores it: a regex scan when there is none.
                    raw_result, self.cleaned = clean_response(raw_result)
                    self.polled = raw_result
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        response = self.check_response(
            bot=bot, method=method, status_code=resp.status, content=raw_result
        )
        return cast(TelegramType, response.result)

    def json_body(self, bot: Bot, method: TelegramMethod[TelegramType]) -> str | None:
        """The call as a JSON object, or None when it uploads files. Values are prepared as
        for aiogram's form (defaults resolved, falsy values left out, as the form does), but
        nested objects stay objects instead of JSON strings. The call's fields are read as
        they are (not dumped whole first), and a nested object is dumped without its unset
        fields: dumping every field, then preparing each, was most of a reply's cost here."""
        files: dict[str, Any] = {}
        payload: dict[str, Any] = {}
        for key, value in method:
            if value is None:
                continue
            if isinstance(value, Default):
                value = bot.default[value.name]
            if isinstance(value, TelegramObject):
                value = value.model_dump(warnings=False, exclude_none=True)
            prepared = self._prepare(value, bot, files)
            if prepared:
                payload[key] = prepared
        return None if files else self.json_dumps(payload)

    def _prepare(self, value: Any, bot: Bot, files: dict[str, Any]) -> Any:
        """aiogram's ``prepare_value`` without its JSON strings, plain values first: a
        reply's ids, texts and flags pass through no chain of type checks (the most of the
        body's cost); anything else (defaults, files, dates, models) is aiogram's."""
        if value is None or isinstance(value, (str, int, float)):
            return value
        if isinstance(value, dict):
            return {
                key: prepared
                for key, item in value.items()
                if (prepared := self._prepare(item, bot, files)) is not None
            }
        if isinstance(value, list):
            return [
                prepared
                for item in value
                if (prepared := self._prepare(item, bot, files)) is not None
            ]
        return self.prepare_value(value, bot=bot, files=files, _dumps_json=False)

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in self._response_types:
            self._response_types[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)


_UNREAD = ("reply_to_message", "entities")  # of a message the bot sent (see the module doc)


def _loads(content: str | bytes) -> Any:
    """``json.loads`` for the session, minus what nobody reads of a message the bot sent (see
    the module doc). Only a message as a call's whole result is touched: updates (from
    getUpdates or a webhook) keep everything, handlers read them."""
    data = json.loads(content)
    if isinstance(data, dict):
        result = data.get("result")
        if isinstance(result, dict) and "message_id" in result:
            for key in _UNREAD:
                result.pop(key, None)
    return data
