"""The last line of defence: log the failure with its update id, apologise in plain words."""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent, Update
from aiogram_dialog import DialogManager
from aiogram_dialog.api.exceptions import OutdatedIntent, UnknownIntent, UnknownState

from bot.answers import finish_failed_press, press_for
from bot.delivery import topic_of_message
from bot.i18n import I18n, update_locale
from bot.runner import Parked
from bot.webhook import UpdateFailure

logger = logging.getLogger(__name__)


async def on_error(
    event: ErrorEvent,
    bot: Bot,
    i18n: I18n,
    update_failure: UpdateFailure | None = None,
    dialog_manager: DialogManager | None = None,
) -> bool:
    try:
        if isinstance(event.exception, UnknownState) and dialog_manager is not None:
            await _forget_unknown_wizard(event.update, bot, i18n, dialog_manager)
        return await _handle(event, bot, i18n, update_failure)
    finally:
        finish_failed_press()


async def _forget_unknown_wizard(
    update: Update, bot: Bot, i18n: I18n, dialog_manager: DialogManager
) -> None:
    """The sender's wizard is in a state this release no longer has (a step renamed or gone):
    aiogram-dialog would refuse every later update of the chat with it, commands included, and
    the chat would go silent for good. The stale wizard is closed, and a message told so."""
    logger.info("update %s: a wizard in an unknown state, closed", update.update_id)
    try:
        await dialog_manager.reset_stack(remove_keyboard=False)
    except Exception:  # the chat stays as it was; the next update tries again
        logger.exception("update %s: could not close the unknown wizard", update.update_id)
        return
    message = update.message
    if message is None:
        return  # a press: answered as any stale button (``_answer_stale``)
    t = i18n.translator(update_locale(update, i18n.default_locale))
    said = t("That menu is out of date and now closed. Send your command again.")
    try:
        await bot.send_message(message.chat.id, said, message_thread_id=topic_of_message(message))
    except TelegramAPIError:
        logger.info("could not say that update %s's menu closed", update.update_id)


async def _handle(
    event: ErrorEvent, bot: Bot, i18n: I18n, update_failure: UpdateFailure | None
) -> bool:
    update = event.update
    if isinstance(event.exception, UnknownIntent | OutdatedIntent | UnknownState):
        # A wizard button the dialog no longer knows (it ended or was reset, e.g. after a
        # restart): its claim is committed (``bot.middlewares.STALE_DIALOG``), so this
        # answer is its only one.
        logger.info("update %s: stale or foreign wizard button", update.update_id)
        await _answer_stale(update, i18n)
        return True
    parked = isinstance(event.exception, Parked)  # logged by the runner when it parked it
    if not parked:
        logger.error(
            "update %s failed: %r", update.update_id, event.exception, exc_info=event.exception
        )
    if update_failure is not None and not parked:
        # Webhook mode: answer 500 so Telegram delivers the update again (nothing was kept).
        update_failure.failed = True
        return True
    t = i18n.translator(update_locale(update, i18n.default_locale))
    text = t("Sorry, something went wrong. Please try again; if it keeps happening, tell the GM.")
    try:
        if update.callback_query is not None:
            await _answer(update, text)
        elif update.message is not None:
            await bot.send_message(
                update.message.chat.id, text, message_thread_id=topic_of_message(update.message)
            )
    except TelegramAPIError:
        logger.warning("could not apologise for update %s", update.update_id)
    return True


async def _answer_stale(update: Update, i18n: I18n) -> None:
    if update.callback_query is None:
        return
    t = i18n.translator(update_locale(update, i18n.default_locale))
    try:
        await _answer(update, t("This menu is out of date: open it again if you need it."))
    except TelegramAPIError:
        logger.info("could not answer a stale button in update %s", update.update_id)


async def _answer(update: Update, text: str) -> None:
    """The failed press's one answer, unless it went before the failure (then the apology
    cannot reach the presser any more)."""
    query = update.callback_query
    assert query is not None
    press = press_for(query.id)
    if press is None:  # a dispatcher without bot.answers (a test's own)
        await query.answer(text, show_alert=True)
    elif press.answered:
        logger.info("update %s: its press was answered before it failed", update.update_id)
    else:
        press.text, press.show_alert = text, True
        await press.send()


def create_router() -> Router:
    router = Router(name=__name__)
    router.errors.register(on_error)
    return router
