"""Quick NPCs: the created NPC, the how-to, the GM's paged list with a retire button each."""

from __future__ import annotations

from html import escape

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.npcs import NpcPage
from db.repositories.games import CharacterDTO, GameDTO
from handlers.views.safe import clip_html

NAME_SHOWN = 28  # characters of a name on a button


class NpcListCD(CallbackData, prefix="nls"):
    """The list's first page as a message of its own (from /game, /npc)."""


class NpcPageCD(CallbackData, prefix="npg"):
    """A page of the list, redrawn in place (its arrows, «Back»)."""

    page: int


class NpcRetireCD(CallbackData, prefix="nrt"):
    c: int  # the NPC
    page: int
    ok: bool  # False: ask first; True: the confirmation


def _short(name: str) -> str:
    return name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…"


def created(t: Translator, character: CharacterDTO, sheet_page: str) -> str:
    head = t("🎭 NPC {name} is in the game.", name=f"<b>{escape(character.name)}</b>")
    return clip_html(f"{head}\n\n{sheet_page}")


def how_to(t: Translator, example: str, count: int) -> str:
    lines = [
        t("<b>A quick NPC</b> in one line:"),
        f"<code>/npc {escape(example)}</code>",
        t("Without a name and a colon it is a nameless mook."),
        t("A full NPC: the button below opens the whole form in our private chat."),
    ]
    if count:
        lines.append(
            t.plural("The game has {n} active NPC.", "The game has {n} active NPCs.", count)
        )
    return "\n".join(lines)


def how_to_keyboard(t: Translator, link: str, count: int) -> InlineKeyboardMarkup:
    rows = [[InlineKeyboardButton(text="🎭 " + t("Full NPC"), url=link)]]
    if count:
        rows.append(
            [InlineKeyboardButton(text="📋 " + t("NPC list"), callback_data=NpcListCD().pack())]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def page_text(t: Translator, game: GameDTO, page: NpcPage) -> str:
    if not page.total:
        return t("«{title}» has no active NPCs. Add one: /npc", title=escape(game.title))
    lines = [
        t("🎭 NPCs of «{title}»: {n}", title=escape(game.title), n=page.total)
        + (f" · {page.page + 1}/{page.pages}" if page.pages > 1 else "")
    ]
    lines += [f"• {escape(c.name)}" for c in page.npcs]
    lines.append(t("A button retires the NPC (it asks first)."))
    return clip_html("\n".join(lines))


def page_keyboard(t: Translator, page: NpcPage) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                text="🗄 " + _short(c.name),
                callback_data=NpcRetireCD(c=c.id, page=page.page, ok=False).pack(),
            )
        ]
        for c in page.npcs
    ]
    arrows = []
    if page.page > 0:
        arrows.append(
            InlineKeyboardButton(text="◀", callback_data=NpcPageCD(page=page.page - 1).pack())
        )
    if page.page + 1 < page.pages:
        arrows.append(
            InlineKeyboardButton(text="▶", callback_data=NpcPageCD(page=page.page + 1).pack())
        )
    if arrows:
        rows.append(arrows)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def retire_question(
    t: Translator, character: CharacterDTO, page: int
) -> tuple[str, InlineKeyboardMarkup]:
    text = t(
        "Retire the NPC {name}? It leaves the NPC list; its sheet and history stay.",
        name=f"<b>{escape(character.name)}</b>",
    )
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="🗄 " + t("Retire"),
                    callback_data=NpcRetireCD(c=character.id, page=page, ok=True).pack(),
                ),
                InlineKeyboardButton(
                    text="↩️ " + t("Back"), callback_data=NpcPageCD(page=page).pack()
                ),
            ]
        ]
    )
    return text, keyboard


def retired(t: Translator, name: str) -> str:
    return t("🗄 NPC {name} is retired.", name=escape(name))
