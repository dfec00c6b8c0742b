"""The command menu, registered with setMyCommands in both languages and both chat kinds."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.i18n import N_, I18n

PRIVATE = (
    ("start", N_("start screen")),
    ("help", N_("this help")),
    ("profile", N_("your name and time zone")),
    ("lang", N_("interface language")),
    ("roles", N_("GM: the roles of a «Lives = gear» game")),
    ("cancel", N_("cancel the current step")),
)
GROUP = (
    ("r", N_("roll dice, e.g. /r 2d6+1")),
    ("game", N_("this chat's game")),
    ("sheet", N_("a character sheet")),
    ("res", N_("your character's resources (fate points, stress, dice…)")),
    ("newgame", N_("start a game in this chat")),
    ("request", N_("GM: ask a player to roll (as a reply)")),
    ("milestone", N_("GM: a milestone for the whole table")),
    ("schedule", N_("GM: milestones on a schedule")),
    ("sroll", N_("GM: a secret roll, revealed later")),
    ("fight", N_("GM: open a fight, conflict or scene")),
    ("tracker", N_("the fight or scene in progress")),
    ("opposed", N_("GM: an opposed roll card")),
    ("extended", N_("GM: an extended roll to a target")),
    ("team", N_("GM: a team roll card")),
    ("log", N_("the roll log")),
    ("odds", N_("exact odds of a roll")),
    ("help", N_("this help")),
    ("lang", N_("interface language")),
)


async def register_commands(bot: Bot, i18n: I18n) -> None:
    for scope, commands in (
        (BotCommandScopeAllPrivateChats(), PRIVATE),
        (BotCommandScopeAllGroupChats(), GROUP),
    ):
        for locale, t in i18n.all().items():
            menu = [BotCommand(command=name, description=t(text)) for name, text in commands]
            await bot.set_my_commands(menu, scope=scope, language_code=locale)
        default = i18n.translator(i18n.default_locale)
        menu = [BotCommand(command=name, description=default(text)) for name, text in commands]
        await bot.set_my_commands(menu, scope=scope)
