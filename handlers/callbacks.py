"""Callback data: one class per action, short prefixes, ids and enum values only (≤ 64 bytes)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from aiogram import BaseMiddleware
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, TelegramObject
from aiogram.utils.callback_answer import CallbackAnswer

from bot.answers import PressAnswer

logger = logging.getLogger(__name__)


class Screen(StrEnum):
    HOME = "home"
    HELP = "help"
    LANG = "lang"


class ScreenCD(CallbackData, prefix="scr"):
    """Switch the start message between its screens (edits the message in place)."""

    screen: Screen


class LangCD(CallbackData, prefix="lang"):
    """Choose the interface language; in a group it sets the chat's language."""

    locale: str


class LogPageCD(CallbackData, prefix="log"):
    """Page through this chat's roll log (0 = newest)."""

    page: int


class NewGameCD(CallbackData, prefix="ng"):
    """Pick the system of a new game; only the user who typed /newgame (``by``) may."""

    system: str
    by: int


class GameOptionCD(CallbackData, prefix="go"):
    """Change one numeric game option by ``delta`` (GM only)."""

    field: str
    delta: int


class ArchiveCD(CallbackData, prefix="arc"):
    """Archive the chat's game (GM only); ``confirm`` false shows the question."""

    game_id: int
    confirm: bool


class ArchiveCancelCD(CallbackData, prefix="arx"):
    """The GM keeps the game: the archive question is closed, nothing changes."""

    game_id: int


class CogmRemoveCD(CallbackData, prefix="cgr"):
    """The GM takes co-GM powers back from ``user_id`` (the button on the /game card)."""

    game_id: int
    user_id: int


class ApproveCD(CallbackData, prefix="apv"):
    """The GM approves a submitted character."""

    character_id: int


class ReturnCD(CallbackData, prefix="ret"):
    """The GM returns a submitted character to its player with a comment."""

    character_id: int


def out_of_range(data: CallbackData) -> bool:
    """A number no button of ours carries: ids in callback data become SQL parameters, and a
    forged one beyond its column (INTEGER ids; Telegram's user and chat ids are BIGINT and fit
    in 53 bits) would fail inside the database driver instead of being refused."""
    for name, value in data:
        if isinstance(value, int) and not isinstance(value, bool):
            telegram_id = name == "by" or name.endswith(("user_id", "chat_id"))
            limit = 2**53 if telegram_id else 2**31
            if not -limit <= value < limit:
                return True
    return False


class AnswerOnSuccess(BaseMiddleware):
    """Per router, inner: forged data with a number out of range (``out_of_range``) is refused
    before any handler runs. The press itself is answered once, by ``bot.answers`` (the
    dispatcher's ``PressAnswerMiddleware``): before the handler's first paced call, or when the
    update is done; when the handler raised, the error handler's apology is the answer. A
    router used without that middleware (a test's own dispatcher) gets the same answer here."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, CallbackQuery):
            return await handler(event, data)
        answer = data.get("callback_answer")
        own = None
        if not isinstance(answer, PressAnswer):
            own = answer = data["callback_answer"] = PressAnswer(event.id, data["bot"])
        forged = data.get("callback_data")
        if isinstance(forged, CallbackData) and out_of_range(forged):
            notify(answer, data["t"]("This button is no longer active."), alert=True)
            result = None
        else:
            result = await handler(event, data)
        if own is not None:
            await own.send()
        return result


def notify(answer: CallbackAnswer, text: str, *, alert: bool = False) -> None:
    """Set the press's answer text. It goes out once, before the handler's first paced send or
    edit (``bot.answers``): set it before editing. Set later, it cannot reach the user any
    more and is dropped with a warning (calling ``query.answer`` as well would answer twice,
    which Telegram refuses)."""
    if answer.answered:
        logger.warning("press answered before its text was set; dropped: %r", text)
        return
    answer.text = text
    answer.show_alert = alert


class ProposalCD(CallbackData, prefix="prp"):
    """The GM accepts or rejects a player's proposed change to an approved sheet."""

    proposal_id: int
    accept: bool


class RollRequestCD(CallbackData, prefix="rq"):
    """Press the 🎲 of a roll request (only its player or a GM; checked on the server)."""

    request_id: int


class SheetPageCD(CallbackData, prefix="shp"):
    """Show page ``page`` of a long character sheet (read-only; anyone in the game's chat)."""

    character_id: int
    page: int


class InvokeMenuCD(CallbackData, prefix="ivm"):
    """Show the aspects the player of a rolled fate request can invoke."""

    request_id: int


class InvokeBackCD(CallbackData, prefix="ivb"):
    """Close the aspect menu of a rolled fate request without invoking (back to its button)."""

    request_id: int


class InvokeCD(CallbackData, prefix="iv"):
    """Invoke aspect ``aspect`` (an index into the character's aspects) on a rolled request:
    ``mode`` is ``bonus`` (+2) or ``reroll``; paid with a fate point."""

    request_id: int
    aspect: int
    mode: str


class WillpowerCD(CallbackData, prefix="wp"):
    """Storyteller: spend a Willpower point before rolling a request (+1 automatic success)."""

    request_id: int


class RollForCD(CallbackData, prefix="rqf"):
    """A GM confirms (``go``) or drops rolling request ``request_id`` for its player; pressed
    on the confirmation the GM's 🎲 on the player's card brought up."""

    request_id: int
    go: bool


class CardForCD(CallbackData, prefix="cdf"):
    """A GM confirms (``go``) or drops rolling slot ``slot`` of multi-roll card ``tracker_id``
    (drawn when the slot had ``n`` rolls) for its player."""

    tracker_id: int
    slot: int
    n: int
    go: bool


class GoneTopicArchiveCD(CallbackData, prefix="gta"):
    """The GM archives a game whose forum topic was deleted, from another topic (the game's
    own cannot be written in any more): ``step`` "ask" shows the question, "yes" archives,
    "no" keeps it."""

    game_id: int
    step: str
