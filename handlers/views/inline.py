"""Inline rolls: the answer's placeholders (no result in them), the rolled message, errors."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from aiogram.types.inline_query_result_union import InlineQueryResultUnion

from bot.i18n import Translator
from bot.services.inline_rolls import InlineRoll, Offer
from bot.services.sheet_rolls import outcome_words
from handlers.views import dice
from handlers.views.safe import plain
from handlers.views.sheets import fit

ERROR_RESULT_ID = "error"  # an error shown as a result; it has no keyboard, so no roll
HINT_RESULT_ID = "hint"  # what to type, for an empty query (never an empty answer: see below)


class InlineRollCD(CallbackData, prefix="irl"):
    """Roll a sent inline placeholder (inline feedback off, or a press before its report);
    only the user the offer was made to may, once per message."""

    offer: str


def _what(offer: Offer) -> str:
    if offer.character is None:
        return f"<code>{plain(offer.title[:120])}</code>"
    return f"<b>{plain(offer.title[:120])}</b> — {plain(offer.character[:64])}"


def placeholder(t: Translator, offer: Offer, who: str) -> str:
    """What the chat sees until the roll is made: who rolls what, no result."""
    game = f" · {plain(offer.game_title[:64])}" if offer.game_title else ""
    return "\n".join(
        [f"🎲 <b>{plain(who[:64])}</b>: {_what(offer)}{game}", t("Rolling the dice…")]
    )


def placeholder_keyboard(t: Translator, offer_id: str) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(
        text=t("🎲 Roll it"), callback_data=InlineRollCD(offer=offer_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def results(t: Translator, offers: list[Offer], who: str) -> list[InlineQueryResultUnion]:
    """The answer to a query that reads as a roll: a placeholder per offer."""
    if not offers:
        # Not an empty list: bot/session.py leaves empty values out, and Telegram refuses an
        # answer without results.
        return hint_results(t)
    return [_article(t, offer, who) for offer in offers[:50]]


def refusal_results(t: Translator, words: str) -> list[InlineQueryResultUnion]:
    """The answer to a query that is not a roll: why, as /r would say it. No keyboard, so
    choosing it sends the words and rolls nothing."""
    return [
        InlineQueryResultArticle(
            id=ERROR_RESULT_ID,
            title=t("⚠️ Not a roll"),
            description=words[:200],
            input_message_content=InputTextMessageContent(message_text=fit(f"⚠️ {plain(words)}")),
        )
    ]


def hint_results(t: Translator) -> list[InlineQueryResultUnion]:
    words = t(
        "Type a roll after the bot's name: 4dF+2 attack, 2d6+1, or a trait of your character."
    )
    return [
        InlineQueryResultArticle(
            id=HINT_RESULT_ID,
            title=t("🎲 Type a roll"),
            description=words,
            input_message_content=InputTextMessageContent(message_text=plain(words)),
        )
    ]


def _article(t: Translator, offer: Offer, who: str) -> InlineQueryResultArticle:
    if offer.character is None:
        description = t("Rolled after you send it: nobody sees the result before.")
    else:
        game = offer.game_title or ""
        description = f"{offer.character} · {game}\n" + t(
            "Rolled after you send it: nobody sees the result before."
        )
    return InlineQueryResultArticle(
        id=offer.id,
        title=f"🎲 {offer.title[:100]}",
        description=description,
        input_message_content=InputTextMessageContent(message_text=placeholder(t, offer, who)),
        reply_markup=placeholder_keyboard(t, offer.id),
    )


def rolled(t: Translator, locale: str, rolled: InlineRoll, who: str, bot_username: str) -> str:
    """The sent message once rolled: the roll as ``/r`` shows it and its entry in the
    roller's own log."""
    if rolled.request is not None:
        body = dice.rolled_many(
            t, locale, rolled.rolls, who, is_set=rolled.request.is_set,
            short=rolled.request.short,
        )  # fmt: skip
    elif rolled.plan is not None:  # a trait's roll: its title, and its outcome before the entry
        words = outcome_words(rolled.plan, rolled.rolls[0].result, locale)
        body = f"{plain(rolled.plan.title)}\n{dice.rolled(t, locale, rolled.rolls[0], who, words)}"
    else:
        body = dice.rolled(t, locale, rolled.rolls[0], who)
    entries = [item.entry.seq for item in rolled.rolls]
    where = t(
        "📜 {name}'s own roll log: {entries} — /log and /verify in the private chat with @{bot}",
        entries=", ".join(f"#{seq}" for seq in entries),
        name=plain(who[:64]),
        bot=plain(bot_username),
    )
    opened = next((item.opened_epoch for item in rolled.rolls if item.opened_epoch), None)
    if opened is not None:  # the roller's log began with this roll: its commitment, as /r
        where = f"{where}\n{dice.epoch_opened(t, opened)}"
    return fit(f"{body}\n{where}")


def log_keyboard(t: Translator, bot_username: str) -> InlineKeyboardMarkup:
    """A link to the private chat with the bot, where the roller's log is."""
    button = InlineKeyboardButton(text=t("📜 Roll log"), url=f"https://t.me/{bot_username}")
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def refused(t: Translator, words: str) -> str:
    return fit(f"⚠️ {plain(words)}\n" + t("Nothing was rolled."))
