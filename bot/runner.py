"""Each update runs to an end: handled, retried through passing faults, or set aside.

An update middleware, inside the per-chat isolation lock (so a retry keeps its chat's order)
and around the unit of work:

* A passing fault (``bot/faults.py``: the database unreachable, read-only, in a deadlock; a
  Telegram 5xx) rolled the update back: it is tried again with back-off for up to
  ``RETRY_FOR`` seconds; what an earlier attempt already sent is not sent again
  (``bot/replay.py``). If the fault outlasts that, the sender is told once that the command
  will run when the database is back, and it stays in the polling inbox, which the running
  bot drains as soon as the database answers (``bot/polling.py``); in webhook mode the
  response asks Telegram to deliver it again.
* Any other failure is tried ``ATTEMPTS`` times in all, then the update is parked in
  ``update_dead_letters`` and closed in the same statement (claimed, out of the inbox): the
  apology the sender then gets is the last word on it, never followed by the effect.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import TelegramObject, Update
from aiogram_dialog.api.exceptions import OutdatedIntent, UnknownIntent, UnknownState
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import replay
from bot.delivery import topic_of_message
from bot.edge import lossless
from bot.faults import error_class, is_transient
from bot.i18n import I18n, update_locale
from bot.metrics import Metrics
from db.repositories.updates import PARK

logger = logging.getLogger(__name__)

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
Sleep = Callable[[float], Awaitable[None]]

RETRY_FOR = 30.0  # seconds of passing faults an update rides out before the sender is told
MAX_DELAY = 2.0  # the longest pause between tries: an update goes within 2 s of the fault's end
ATTEMPTS = 3  # tries of an update that fails otherwise, before it is parked
TEXT_CLEANED = "text_cleaned"  # workflow data: the update's text was cleaned (bot/edge.py)
# workflow data: this attempt follows one that failed on a passing fault (whose last
# statement may have committed without its answer reaching us: ``UnitOfWorkMiddleware``)
RETRIED = "update_retried"
_TOLD_KEPT = 10_000  # updates remembered as told "it will run later"


class Parked(Exception):
    """The update failed ``ATTEMPTS`` times and was set aside: the error handler apologises
    (and, in webhook mode, answers 200: a redelivery would only be skipped)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(repr(error))
        self.error = error


class UpdateRunner(BaseMiddleware):
    def __init__(
        self, inbox: AsyncEngine, i18n: I18n, metrics: Metrics, *,
        retry_for: float = RETRY_FOR, sleep: Sleep = asyncio.sleep,
    ) -> None:  # fmt: skip
        self._inbox = inbox
        self._i18n = i18n
        self._metrics = metrics
        self._retry_for = retry_for
        self._sleep = sleep
        self._told: OrderedDict[int, None] = OrderedDict()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        kind = event.event_type
        journal = replay.SendJournal()
        token = replay.current.set(journal)
        started = time.monotonic()
        outcome = "ok"
        try:
            result, outcome = await self._attempts(handler, event, data, journal, started)
            if outcome == "ok" and data.get(TEXT_CLEANED):
                await self._say_cleaned(event, data["bot"])
            return result
        finally:
            replay.current.reset(token)
            self._metrics.update_done(kind, outcome, time.monotonic() - started)

    async def _attempts(
        self, handler: Handler, event: Update, data: dict[str, Any],
        journal: replay.SendJournal, started: float,
    ) -> tuple[Any, str]:  # fmt: skip
        fresh = dict(data)
        failures, delay, retried = 0, 0.25, False
        while True:
            try:
                return await handler(event, data), "retried" if retried else "ok"
            except (UnknownIntent, OutdatedIntent, UnknownState):
                raise  # a stale wizard button, done with: the error handler answers it
            except Exception as error:
                self._count(error)
                if is_transient(error):
                    if time.monotonic() - started + delay > self._retry_for:
                        await self._defer(event, data, error)
                        return None, "deferred"
                    logger.warning(
                        "update %s: %s (passing: %s); retrying in %.2fs",
                        event.update_id, error_class(error), str(error)[:160], delay,
                    )  # fmt: skip
                    await self._sleep(delay)
                    delay = min(delay * 2, MAX_DELAY)
                else:
                    failures += 1
                    logger.error(
                        "update %s failed (%d of %d): %r", event.update_id, failures, ATTEMPTS,
                        error, exc_info=error,
                    )  # fmt: skip
                    if failures >= ATTEMPTS:
                        await self._park(event, data, error)  # raises Parked, or defers
                        return None, "deferred"
            retried = True
            journal.next_attempt()
            data.clear()
            data.update(fresh)
            data[RETRIED] = True

    def _count(self, error: BaseException) -> None:
        if isinstance(error, TelegramAPIError):
            code = getattr(error, "status_code", None) or 0
            self._metrics.telegram_errors.labels(str(code)).inc()
        elif not isinstance(error, Parked):
            self._metrics.db_errors.labels(error_class(error)).inc()

    async def _park(self, event: Update, data: dict[str, Any], error: BaseException) -> None:
        bot: Bot = data["bot"]
        dumped = event.model_dump(mode="json", exclude_none=True, by_alias=True)
        params = {
            "bot": bot.id, "upd": event.update_id, "payload": lossless(dumped),
            "error": f"{error_class(error)}: {error}"[:4000],
        }  # fmt: skip
        try:
            async with self._inbox.begin() as conn:
                await conn.execute(PARK, params)
        except Exception as park_error:
            if not is_transient(park_error):
                raise
            # The database went away while the update failed: it waits in the inbox.
            await self._defer(event, data, park_error)
            return
        self._metrics.parked.inc()
        logger.error("update %s parked after %d failures", event.update_id, ATTEMPTS)
        raise Parked(error) from error

    async def _defer(self, event: Update, data: dict[str, Any], error: BaseException) -> None:
        """The fault outlasted the retries: tell the sender once; the update waits."""
        logger.warning(
            "update %s: %s outlasted %ss of retries; it waits for the database",
            event.update_id, error_class(error), self._retry_for,
        )  # fmt: skip
        failure = data.get("update_failure")
        if failure is not None:  # webhook mode: Telegram delivers it again later
            failure.failed = True
        if event.update_id in self._told:
            return
        self._told[event.update_id] = None
        while len(self._told) > _TOLD_KEPT:
            self._told.popitem(last=False)
        t = self._i18n.translator(update_locale(event, self._i18n.default_locale))
        await _say(
            event, data["bot"],
            t("⏳ The database is not answering right now. Your command is saved and will run "
              "by itself as soon as it is back — no need to send it again."),
        )  # fmt: skip

    async def _say_cleaned(self, event: Update, bot: Bot) -> None:
        if event.message is None:
            return
        t = self._i18n.translator(update_locale(event, self._i18n.default_locale))
        await _say(
            event, bot,
            t("ℹ️ Your message had characters that cannot be stored (an invisible null "
              "character or half of an emoji); they were replaced with �."),
        )  # fmt: skip


async def _say(event: Update, bot: Bot, text: str) -> None:
    """A word to the sender where there is somewhere to say it; never fails the update."""
    try:
        if event.callback_query is not None:
            await event.callback_query.answer(text[:200], show_alert=True)
        elif event.message is not None:
            await bot.send_message(
                event.message.chat.id, text, parse_mode=None,
                message_thread_id=topic_of_message(event.message),
            )  # fmt: skip
    except Exception as error:
        logger.info("could not tell update %s's sender: %s", event.update_id, error)
