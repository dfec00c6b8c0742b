"""Outer update middlewares, in the order an update meets them:

1. ``InFlightMiddleware`` — counts updates being handled, so shutdown can wait for them.
2. ``IsolationMiddleware`` — one update at a time per chat and user, inside the FSM memo scope.
3. ``UnitOfWorkMiddleware`` — opens the update's unit of work and claims its update_id, reading
   the sender, chat, game and FSM rows with it; an update already processed is dropped here.
   A /r is only read here and claimed with its roll (``UnitOfWork.peek_update``), or not even
   read when this process remembers those rows (``bot/express.py``). Commits once when the
   handler returns normally; an exception rolls everything back (including the claim, so a
   redelivery is handled again) — but a stale wizard button, which is done with once refused
   (``STALE_DIALOG``). The FSM's and aiogram-dialog's reads and writes run in the same
   transaction (``bot.fsm_storage.in_unit``): a wizard step's state commits with the claim.
4. aiogram's ``FSMContextMiddleware`` (without a lock of its own) — the state, from the memo.
5. ``ContextMiddleware`` — resolves the user, the chat and the locale (``t`` translator).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.fsm.middleware import FSMContextMiddleware
from aiogram.types import Chat as TgChat
from aiogram.types import TelegramObject, Update
from aiogram.types import User as TgUser
from aiogram_dialog.api.exceptions import OutdatedIntent, UnknownIntent, UnknownState
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.delivery import topic_of
from bot.express import ExpressCache, context_key
from bot.fsm_storage import PostgresStorage, in_unit, update_scope
from bot.i18n import I18n, resolve_locale
from bot.panels import PanelRedraw
from bot.runner import RETRIED
from bot.services.panels import LivePanel
from db.repositories.updates import Prefetched
from db.repositories.users import TelegramUser
from db.uow import AlreadyProcessed, StaleConnection, StaleContext, UnitOfWork

logger = logging.getLogger(__name__)

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]

# A wizard button the dialog no longer knows (its dialog ended, was reset, or its state group is
# gone): refused, and answered by the error handler (``handlers/errors.py``).
STALE_DIALOG = (UnknownIntent, OutdatedIntent, UnknownState)


class InFlightMiddleware(BaseMiddleware):
    def __init__(self) -> None:
        self._count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self._count += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self._count -= 1
            if self._count == 0:
                self._idle.set()

    @property
    def count(self) -> int:
        """Updates being handled now."""
        return self._count

    async def wait_idle(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            logger.warning("shutdown: %d updates still in flight after %ss", self._count, timeout)
            return False
        return True


FSM_KEY = "fsm_key"  # workflow data: the update's FSM StorageKey, for the claim's prefetch


class IsolationMiddleware(BaseMiddleware):
    """aiogram's event isolation (one update at a time per chat and user) and the FSM memo
    scope (``update_scope``), taken before the unit of work: its claim reads the FSM rows,
    which must come after the previous update of the same user has written them. aiogram's
    FSM middleware runs later without a lock of its own (``create_dispatcher``)."""

    def __init__(self, fsm: FSMContextMiddleware) -> None:
        self._fsm = fsm

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        context = self._fsm.resolve_event_context(data["bot"], data)
        with update_scope():
            if context is None:
                return await handler(event, data)
            data[FSM_KEY] = context.key
            async with self._fsm.events_isolation.lock(key=context.key):
                return await handler(event, data)


# For an update that will append to a chat's roll log, told by the update alone: (chat id,
# roll id), so that its claim locks the log and reads the head (handlers/dice.py).
RollHint = Callable[[Update], tuple[int, str] | None]


class _Unfinished(Exception):
    """A /r found processed on a retry, unanswered: handle it again as its owner."""


class UnitOfWorkMiddleware(BaseMiddleware):
    def __init__(
        self, session_factory: async_sessionmaker[AsyncSession], storage: PostgresStorage,
        roll_hint: RollHint | None = None, express: ExpressCache | None = None,
        panels: PanelRedraw | None = None,
    ) -> None:  # fmt: skip
        self._factory = session_factory
        self._panels = panels
        self._storage = storage
        self._roll_hint = roll_hint
        self._express = express

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        remembered, reconnected, finishing = self._express is not None, False, False
        fresh = dict(data)  # a second attempt starts from what this one was given
        while True:
            try:
                return await self._handle(
                    handler, event, data, remembered=remembered, finishing=finishing
                )
            except _Unfinished:
                # A /r's append claims the update and commits in one statement, before its
                # reply is sent: when a fault cut the answer to that statement, the retry
                # finds the update processed with nobody told. It is finished instead: the
                # handler runs as the update's owner, finds its roll in the log (the same
                # roll id) and replies with it; the send journal keeps a reply that did go
                # out from going twice.
                logger.warning(
                    "update %s: its roll was logged unanswered; replying", event.update_id
                )
                finishing, remembered = True, False
            except StaleConnection:
                # A pooled connection the server dropped (a restart, a failover): nothing
                # has happened yet, so the update simply starts again on a fresh one.
                if reconnected:
                    raise
                reconnected = True
                logger.warning("update %s: stale connection, retrying", event.update_id)
                # a /r's first statement is its append, which commits by itself: it may
                # have, with the answer lost (``_unanswered_roll``)
                fresh[RETRIED] = True
            except StaleContext:
                # A /r handled with remembered rows that changed meanwhile: nothing written
                # or sent yet (its first statement is its claim), so it starts again from a
                # read, as a /r whose rows are not remembered (which checks no stamp).
                if not remembered:
                    raise
                remembered = False
                logger.info("update %s: its rows changed since remembered", event.update_id)
            data = dict(fresh)

    async def _handle(
        self, handler: Handler, event: Update, data: dict[str, Any], *, remembered: bool,
        finishing: bool = False,
    ) -> Any:  # fmt: skip
        async with UnitOfWork(self._factory) as uow:
            if finishing:
                uow.take_over(data["bot"].id, event.update_id)
            else:
                prefetched = await self._claim(uow, event, data, remembered=remembered)
                if prefetched is None:
                    if self._unanswered_roll(event, data):
                        raise _Unfinished
                    logger.info("update %s already processed: skipped", event.update_id)
                    return None
            data["uow"] = uow
            try:
                with in_unit(uow):
                    result = await handler(event, data)
                await uow.commit()
            except STALE_DIALOG:
                # Refused, and that is how it was handled: the claim commits (so the update
                # leaves the inbox and a redelivery is skipped), nothing else; the error
                # handler answers the press once. Without this the polling inbox handed it
                # back every few seconds, for ever.
                await uow.rollback()
                await uow.commit()
                raise
            except AlreadyProcessed:
                if self._unanswered_roll(event, data):
                    raise _Unfinished from None
                # A /r read before its claim (``UnitOfWork.peek_update``), claimed by
                # another delivery meanwhile: that one handled it.
                logger.info("update %s processed meanwhile: skipped", event.update_id)
                return None
            appended = uow.rolls.appended()
            if appended is not None and self._express is not None:
                self._express.keep_head(*appended)
            live = await self._live_panels(uow, event)
        if live:  # committed: the open panels of the characters it changed show it
            assert self._panels is not None
            await self._panels.send(data["bot"], live)
        return result

    async def _live_panels(self, uow: UnitOfWork, event: Update) -> list[LivePanel]:
        """The open panels of what the update changed, read on its own connection after
        its commit (none read at all for an update that changed no character)."""
        changed = set(uow.ledger.changed)
        if not changed or self._panels is None:
            return []
        try:
            return await self._panels.read(uow, changed, _pressed(event))
        except Exception:  # the change is made and told; a stale panel is no reason to fail
            logger.exception("live panels of %s: not read", sorted(changed))
            return []

    def _unanswered_roll(self, event: Update, data: dict[str, Any]) -> bool:
        """A /r found processed on a retry: its own earlier attempt logged it (the append
        claims and commits at once) and the fault took the answer. DECISION: in webhook mode
        a redelivery handled by another worker at that very moment would be answered twice;
        a lost reply is the worse of the two."""
        return (
            bool(data.get(RETRIED))
            and self._roll_hint is not None
            and (self._roll_hint(event) is not None)
        )

    async def _claim(
        self, uow: UnitOfWork, event: Update, data: dict[str, Any], *, remembered: bool
    ) -> Prefetched | None:
        """Claim the update and read the sender, chat, live game, membership and FSM rows
        with it (and the log's head, for an update that will roll)."""
        tg_user: TgUser | None = data.get("event_from_user")
        tg_chat: TgChat | None = data.get("event_chat")
        user_id = tg_user.id if tg_user else None
        fsm_key = data.get(FSM_KEY)
        storage = self._storage
        fsm_keys = storage.prefetch_keys(fsm_key) if fsm_key is not None else []
        chat_id = tg_chat.id if tg_chat else None
        # the update's forum topic: the chat's game is that topic's (``GameRepo.in_topic``)
        thread_id = topic_of(event)
        roll = self._roll_hint(event) if self._roll_hint is not None else None
        bot_id = data["bot"].id
        if roll is not None:  # read now (or remembered), claimed with the roll's append
            prefetched = await self._read_roll(
                uow, bot_id, event.update_id, user_id=user_id, chat_id=chat_id,
                fsm_keys=fsm_keys, roll=roll, remembered=remembered, thread_id=thread_id,
            )  # fmt: skip
        else:
            prefetched = await uow.claim_update(
                bot_id, event.update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys,
                thread_id=thread_id,
            )  # fmt: skip
        if prefetched is None:
            return None
        storage.prefetched(fsm_keys, prefetched.fsm)
        if user_id is not None:
            uow.users.remember(user_id, prefetched.user)
        if tg_chat is not None:
            uow.chats.remember(tg_chat.id, prefetched.chat)
            uow.games.in_topic(tg_chat.id, thread_id)
            uow.games.remember_live(
                tg_chat.id, prefetched.game, user_id=user_id, role=prefetched.role
            )
        return prefetched

    async def _read_roll(
        self, uow: UnitOfWork, bot_id: int, update_id: int, *, user_id: int | None,
        chat_id: int | None, fsm_keys: list[str], roll: tuple[int, str], remembered: bool,
        thread_id: int | None,
    ) -> Prefetched | None:  # fmt: skip
        """A /r's rows: remembered (``bot/express.py``) when this process knows them and the
        log's head, else read by a peek (and remembered for the next one)."""
        express = self._express
        if express is None:
            return await uow.peek_update(
                bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys,
                roll=roll, thread_id=thread_id,
            )  # fmt: skip
        key = context_key(bot_id, user_id, chat_id, fsm_keys, thread_id)
        known = express.lookup(key, roll[0]) if remembered else None
        if known is not None:
            return uow.handle_remembered(
                bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys,
                roll=roll, prefetched=known[0], head=known[1],
            )  # fmt: skip
        if not remembered:
            express.forget(key)  # changed: whatever the read below finds, not these
        prefetched = await uow.peek_update(
            bot_id, update_id, user_id=user_id, chat_id=chat_id, fsm_keys=fsm_keys, roll=roll,
            thread_id=thread_id,
        )  # fmt: skip
        if prefetched is not None:
            express.keep_context(key, prefetched)
        return prefetched


def _pressed(event: Update) -> tuple[int, int] | None:
    """The message a press was on (chat, message id): its handler redrew it already."""
    query = event.callback_query
    message = query.message if query is not None else None
    return (message.chat.id, message.message_id) if message is not None else None


def _telegram_user(user: TgUser) -> TelegramUser:
    return TelegramUser(
        id=user.id,
        first_name=user.first_name,
        last_name=user.last_name,
        username=user.username,
        language_code=user.language_code,
    )


class ContextMiddleware(BaseMiddleware):
    def __init__(self, i18n: I18n) -> None:
        self._i18n = i18n

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        uow: UnitOfWork = data["uow"]
        tg_user: TgUser | None = data.get("event_from_user")
        tg_chat: TgChat | None = data.get("event_chat")
        if tg_user is not None and tg_user.is_bot:
            # Other bots and anonymous group admins cannot play; ignore them quietly.
            return None
        user = None
        if tg_user is not None:
            started = tg_chat is not None and tg_chat.type == "private"
            user = await uow.users.ensure(_telegram_user(tg_user), started_private=started)
        chat = None
        if tg_chat is not None:
            chat = await uow.chats.ensure(tg_chat.id, tg_chat.type, tg_chat.title)
        locale = resolve_locale(
            chat_locale=chat.locale if chat else None,
            user_locale=user.locale if user else None,
            language_code=tg_user.language_code if tg_user else None,
            default=self._i18n.default_locale,
            is_group=bool(chat and chat.is_group),
        )
        data["user"] = user
        data["chat_info"] = chat
        data["locale"] = locale
        data["t"] = self._i18n.translator(locale)
        return await handler(event, data)
