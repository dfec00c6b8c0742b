from __future__ import annotations

from html import escape
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services.games import GameOption
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO, MemberDTO
from db.repositories.rolls import Epoch
from db.repositories.schedules import ScheduleDTO
from engine import formats
from handlers.callbacks import ArchiveCancelCD, ArchiveCD, CogmRemoveCD, GameOptionCD, NewGameCD
from handlers.views import schedules as schedule_views
from handlers.views.npcs import NpcListCD
from handlers.views.safe import clip_html, clip_list

# How much of the game card each list may take (markup characters): with the header and the
# footer the card stays under Telegram's 4,096 however many players and NPCs there are.
CARD_COGMS_ROOM = 300
CARD_OWN_ROOM = 300
CARD_PLAYERS_ROOM = 1800
CARD_NPCS_ROOM = 1200

STATUS_NAMES = {
    "pending": N_("awaiting approval"),
    "active": N_("active"),
    "returned": N_("returned"),
    "retired": N_("retired"),
}


def deep_link(bot_username: str, token: str) -> str:
    return f"https://t.me/{bot_username}?start={token}"


def system_picker_text(t: Translator) -> str:
    lines = [t("Choose the rule system of the new game:")]
    for spec in SYSTEMS.values():
        lines.append(f"• <b>{t(spec.title)}</b> — {t(spec.blurb)}")
    return "\n".join(lines)


def system_picker(t: Translator, by: int) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                text=t(spec.title), callback_data=NewGameCD(system=sid, by=by).pack()
            )
        ]
        for sid, spec in SYSTEMS.items()
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def ask_title(t: Translator, system: str) -> str:
    return t(
        "System: {system}. Now send the game's title (up to 64 characters).",
        system=f"<b>{t(SYSTEMS[system].title)}</b>",
    )


def create_character_keyboard(t: Translator, link: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="🧙 " + t("Create character"), url=link)]]
    )


def game_created(t: Translator, game: GameDTO, gm_name: str, setup: str | None = None) -> str:
    """The announcement; ``setup``: what the GM must do first (a msgid), if anything."""
    return "\n".join(
        [
            t(
                "🎲 Game «{title}» is on: {system}, GM {gm}.",
                title=escape(game.title),
                system=t(SYSTEMS[game.system].title),
                gm=escape(gm_name),
            ),
            t(
                "Players: press «Create character». It opens a private chat with me; "
                "if you never talked to me, press Start there."
            ),
            *([escape(t(setup))] if setup else []),
        ]
    )


def game_card(
    t: Translator,
    game: GameDTO,
    members: list[MemberDTO],
    characters: list[CharacterDTO],
    epoch: Epoch | None,
    schedules: list[ScheduleDTO] | None = None,
) -> str:
    """``schedules``: the game's milestone schedules, described one a line."""
    names = {m.user_id: m.name for m in members}
    gm = names.get(game.gm_user_id, str(game.gm_user_id))
    cogms = [escape(m.name) for m in members if m.role == "cogm"]
    lines = [
        f"🎲 <b>{escape(game.title)}</b> — {t(SYSTEMS[game.system].title)}",
        t("GM: {name}", name=escape(gm)),
    ]

    def more(n: int) -> str:
        return t("… and {n} more", n=n)

    if cogms:
        shown_cogms = clip_list(cogms, room=CARD_COGMS_ROOM, more=more)
        lines.append(t("Co-GMs: {names}", names=shown_cogms))
    players = [m for m in members if m.role == "player"]
    lines.append(t("Players:") if players else t("No players yet."))
    player_lines = []
    for member in players:
        own = [
            f"{escape(c.name)} ({t(STATUS_NAMES[c.status])})"
            for c in characters
            if c.owner_user_id == member.user_id
        ]
        shown = clip_list(own, room=CARD_OWN_ROOM, more=more) or "—"
        player_lines.append(f"• {escape(member.name)}: {shown}")
    if player_lines:
        lines.append(clip_list(player_lines, room=CARD_PLAYERS_ROOM, more=more, separator="\n"))
    npcs = [escape(c.name) for c in characters if c.is_npc]
    if npcs:
        lines.append(t("NPCs: {names}", names=clip_list(npcs, room=CARD_NPCS_ROOM, more=more)))
    if epoch is not None:
        lines.append(
            t(
                "Dice seed epoch {n}, commitment {hash}",
                n=epoch.epoch,
                hash=f"<code>{epoch.commitment[:16]}…</code>",
            )
        )
    zone = escape(formats.zone_name(game.timezone))
    if schedules:
        lines.append(t("Time zone: {zone}. Milestone schedules:", zone=zone))
        listed = [
            f"• {schedule_views.describe(t, game.system, s)}" for s in schedules[:SCHEDULES_SHOWN]
        ]
        lines.append(clip_list(listed, room=CARD_SCHEDULES_ROOM, more=more, separator="\n"))
        if len(schedules) > SCHEDULES_SHOWN:
            lines.append(more(len(schedules) - SCHEDULES_SHOWN))
    else:
        lines.append(t("Time zone: {zone}. Milestone schedule: none yet.", zone=zone))
    return clip_html("\n".join(lines))


SCHEDULES_SHOWN = 5  # the rest are on /schedule
CARD_SCHEDULES_ROOM = 600


NAME_SHOWN = 24  # characters of a name on a button


def game_keyboard(
    t: Translator, link: str, game: GameDTO, members: list[MemberDTO], viewer: int
) -> InlineKeyboardMarkup:
    """«Create character» for everyone; the NPC list for the GM and co-GMs; the GM's own
    buttons (archive, and one per co-GM to take the powers back) for the GM. Drawn for whoever
    asked for the card — a player's copy has no buttons that would only refuse them — and every
    press is checked again."""
    rows = [[InlineKeyboardButton(text="🧙 " + t("Create character"), url=link)]]
    is_gm = viewer == game.gm_user_id
    if not is_gm and not any(m.user_id == viewer and m.role == "cogm" for m in members):
        return InlineKeyboardMarkup(inline_keyboard=rows)
    for member in members if is_gm else ():
        if member.role == "cogm":
            name = member.name if len(member.name) <= NAME_SHOWN else member.name[:23] + "…"
            data = CogmRemoveCD(game_id=game.id, user_id=member.user_id)
            text = "➖ " + t("Remove co-GM: {name}", name=name)
            rows.append([InlineKeyboardButton(text=text, callback_data=data.pack())])
    npcs = NpcListCD().pack()
    rows.append([InlineKeyboardButton(text="🎭 " + t("NPC list"), callback_data=npcs)])
    if is_gm:
        archive = ArchiveCD(game_id=game.id, confirm=False)
        rows.append([InlineKeyboardButton(text="🗄 " + t("Archive"), callback_data=archive.pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def archive_question(
    t: Translator, game: GameDTO, *, open_scene: bool = False
) -> tuple[str, InlineKeyboardMarkup]:
    text = t(
        "Archive «{title}»? Characters and the roll log stay readable.", title=escape(game.title)
    )
    if open_scene:
        text += "\n" + t("⚠️ A fight or scene is still open: archiving ends it where it stands.")
    text += "\n" + t("Open character wizards of this game stop.")
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="✅ " + t("Archive"),
                    callback_data=ArchiveCD(game_id=game.id, confirm=True).pack(),
                ),
                InlineKeyboardButton(
                    text=t("✖️ Cancel"), callback_data=ArchiveCancelCD(game_id=game.id).pack()
                ),
            ]
        ]
    )
    return text, keyboard


def options_text(
    t: Translator, game: GameDTO, fields: tuple[GameOption, ...], values: dict[str, Any]
) -> str:
    if not fields:
        return t("This system has no options to change.")
    lines = [t("<b>Options</b> of «{title}»:", title=escape(game.title))]
    lines += [f"{t(f.label)}: <b>{values.get(f.field)}</b>" for f in fields]
    return "\n".join(lines)


def options_keyboard(t: Translator, fields: tuple[GameOption, ...]) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                text=f"− {t(f.label)}", callback_data=GameOptionCD(field=f.field, delta=-1).pack()
            ),
            InlineKeyboardButton(
                text=f"+ {t(f.label)}", callback_data=GameOptionCD(field=f.field, delta=1).pack()
            ),
        ]
        for f in fields
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)
