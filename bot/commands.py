"""Every chat command in one list: /help, the command menus (setMyCommands, both languages and
both chat kinds), the "where to use it" replies and the typo suggestions all read it, and a test
holds it equal to the commands the routers register and to the README."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from aiogram import Bot
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.i18n import N_, I18n


class Role(StrEnum):
    """Who may use a command (README, "Who may do what")."""

    ANYONE = "anyone"
    GM = "gm"  # the GM and co-GMs
    MAIN_GM = "main_gm"  # the GM alone
    ADMIN = "admin"  # chat admins, the GM and co-GMs


class Where(StrEnum):
    ANY = "any"
    GROUP = "group"  # the game's group
    PRIVATE = "private"  # the private chat with the bot


@dataclass(frozen=True)
class ChatCommand:
    name: str
    usage: str  # how /help shows it: an example, a msgid where it has words to translate
    text: str  # msgid: what it does
    role: Role = Role.ANYONE
    where: Where = Where.ANY
    systems: tuple[str, ...] = ()  # ids in bot.systems.SYSTEMS; empty: every system
    aliases: tuple[str, ...] = ()
    # It answers the wrong kind of chat itself (the common "use it there" reply stays away).
    own_redirect: bool = False
    menu: str = ""  # msgid: the menu's short description (default: ``text``)

    @property
    def menu_text(self) -> str:
        return self.menu or self.text


COMMANDS: tuple[ChatCommand, ...] = (
    # anyone, anywhere
    ChatCommand("start", "/start", N_("start screen")),
    ChatCommand("help", "/help", N_("all commands")),
    ChatCommand(
        "r",
        N_("/r 2d6+1"),
        N_("roll dice, or a trait of your character: /r Athletics vs 2"),
        aliases=("roll",),
        menu=N_("roll dice, e.g. /r 2d6+1"),
    ),
    ChatCommand("odds", "/odds 4dF+2 vs 3", N_("exact odds of a roll")),
    ChatCommand("log", "/log", N_("the roll log; /log export saves it as a file")),
    ChatCommand("verify", "/verify", N_("check the roll log (this chat's, or an uploaded file)")),
    ChatCommand(
        "sheet",
        N_("/sheet [name]"),
        N_("a character sheet; in our private chat, your characters in every game"),
        menu=N_("a character sheet"),
    ),
    ChatCommand(
        "res",
        N_("/res [name]"),
        N_(
            "a character's resources (fate points, stress, dice…); in our private chat, "
            "your characters' resources in every game"
        ),
        menu=N_("your character's resources (fate points, stress, dice…)"),
    ),
    ChatCommand(
        "lang",
        "/lang",
        N_("interface language (in a group: the chat's, for admins)"),
        menu=N_("interface language"),
    ),
    ChatCommand("cancel", "/cancel", N_("cancel the current step")),
    ChatCommand(
        "export",
        N_("/export [name] · /export game"),
        N_("save your character (our private chat) or, GM, the whole game (group) as a file"),
        menu=N_("save a character or the game as a file"),
    ),
    ChatCommand(
        "import",
        "/import",
        N_("bring in an exported file: a character into a game, a game into a group"),
        menu=N_("bring in an exported character or game"),
    ),
    # anyone, in the group or in private
    ChatCommand("profile", "/profile", N_("your name and time zone"), where=Where.PRIVATE),
    ChatCommand(
        "newgame",
        N_("/newgame [title]"),
        N_("start a game in this chat (you become its GM)"),
        where=Where.GROUP,
        menu=N_("start a game in this chat"),
    ),
    ChatCommand(
        "game",
        "/game",
        N_("this chat's game: players, characters, «Create character»"),
        where=Where.GROUP,
        menu=N_("this chat's game"),
    ),
    ChatCommand(
        "history",
        N_("/history name"),
        N_("every change of a character's sheet"),
        where=Where.GROUP,
    ),
    ChatCommand(
        "tracker",
        "/tracker",
        N_("the fight or scene in progress, posted anew"),
        where=Where.GROUP,
        menu=N_("the fight or scene in progress"),
    ),
    # the GM and co-GMs
    ChatCommand(
        "request",
        "/request",
        N_("ask a player to roll (as a reply to the player)"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: ask a player to roll (as a reply)"),
    ),
    ChatCommand(
        "milestone",
        "/milestone",
        N_("a milestone for the whole table"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: a milestone for the whole table"),
    ),
    ChatCommand(
        "schedule",
        "/schedule",
        N_("milestones on a schedule"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: milestones on a schedule"),
    ),
    ChatCommand(
        "sroll",
        N_("/sroll 2d6"),
        N_("a secret roll, revealed later"),
        role=Role.GM,
        where=Where.GROUP,
        own_redirect=True,
        menu=N_("GM: a secret roll, revealed later"),
    ),
    ChatCommand(
        "npc",
        "/npc",
        N_("an NPC in one line: /npc Name: Trait 3"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: create a non-player character"),
    ),
    ChatCommand(
        "fight",
        "/fight",
        N_("open a fight (in every system)"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: open a fight, conflict or scene"),
    ),
    ChatCommand(
        "join",
        N_("/join Name"),
        N_("a character or NPC joins the open fight or scene"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: add someone to the fight"),
    ),
    ChatCommand(
        "leave",
        N_("/leave Name"),
        N_("a character or NPC leaves the open fight or scene"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: take someone out of the fight"),
    ),
    ChatCommand(
        "opposed",
        N_("/opposed Alice: Athletics | Bob: Fight"),
        N_("an opposed roll card"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: an opposed roll card"),
    ),
    ChatCommand(
        "extended",
        N_("/extended Alice: Dexterity+Athletics 7 to 10"),
        N_("an extended roll to a target"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: an extended roll to a target"),
    ),
    ChatCommand(
        "team",
        N_("/team Leader: Athletics | Helper: Athletics"),
        N_("a team roll card"),
        role=Role.GM,
        where=Where.GROUP,
        menu=N_("GM: a team roll card"),
    ),
    # one system's
    ChatCommand(
        "conflict",
        N_("/conflict Warehouse: Dark, Crates | Roof: Slippery"),
        N_("a conflict with zones and aspects"),
        role=Role.GM,
        where=Where.GROUP,
        systems=("fate",),
        menu=N_("GM: a conflict (FATE)"),
    ),
    ChatCommand(
        "duel",
        "/duel",
        N_("a duel"),
        role=Role.GM,
        where=Where.GROUP,
        systems=("lifegear",),
        menu=N_("GM: a duel («Lives = gear»)"),
    ),
    ChatCommand(
        "scene",
        "/scene",
        N_("a scene: turns, health or states, conditions"),
        role=Role.GM,
        where=Where.GROUP,
        systems=("storyteller", "matter"),
        menu=N_("GM: a scene (Storyteller, Matter)"),
    ),
    ChatCommand(
        "roles",
        "/roles",
        N_("the roles of the game"),
        role=Role.GM,
        where=Where.PRIVATE,
        systems=("lifegear",),
        own_redirect=True,
        menu=N_("GM: the roles of a «Lives = gear» game"),
    ),
    # the GM alone
    ChatCommand(
        "options",
        "/options",
        N_("the game's options"),
        role=Role.MAIN_GM,
        where=Where.GROUP,
        menu=N_("GM: the game's options"),
    ),
    ChatCommand(
        "cogm",
        "/cogm",
        N_("make someone a co-GM (as a reply to that person)"),
        role=Role.MAIN_GM,
        where=Where.GROUP,
        menu=N_("GM: make a co-GM (as a reply)"),
    ),
    ChatCommand(
        "uncogm",
        "/uncogm",
        N_("take co-GM powers back (as a reply to that person)"),
        role=Role.MAIN_GM,
        where=Where.GROUP,
        menu=N_("GM: take co-GM powers back (as a reply)"),
    ),
    ChatCommand(
        "timezone",
        "/timezone +3",
        N_("the game's time zone"),
        role=Role.MAIN_GM,
        where=Where.GROUP,
        menu=N_("GM: the game's time zone"),
    ),
    # chat admins
    ChatCommand(
        "reveal",
        "/reveal",
        N_("publish the dice seed and start a new one"),
        role=Role.ADMIN,
        menu=N_("admins: publish the dice seed"),
    ),
)

BY_NAME: dict[str, ChatCommand] = {
    word: command for command in COMMANDS for word in (command.name, *command.aliases)
}


def menu(where: Where) -> list[ChatCommand]:
    """The menu of one chat kind: its own commands and those that work anywhere."""
    return [c for c in COMMANDS if c.where in (where, Where.ANY)]


async def register_commands(bot: Bot, i18n: I18n) -> None:
    for scope, where in (
        (BotCommandScopeAllPrivateChats(), Where.PRIVATE),
        (BotCommandScopeAllGroupChats(), Where.GROUP),
    ):
        commands = menu(where)
        for locale, t in i18n.all().items():
            entries = [BotCommand(command=c.name, description=t(c.menu_text)) for c in commands]
            await bot.set_my_commands(entries, scope=scope, language_code=locale)
        default = i18n.translator(i18n.default_locale)
        entries = [BotCommand(command=c.name, description=default(c.menu_text)) for c in commands]
        await bot.set_my_commands(entries, scope=scope)
