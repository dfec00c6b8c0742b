"""What /export and /import answer: captions of the files, the pickers, the refusals with every
problem the engine found, and what a game import brought."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import glossary
from bot.i18n import Translator
from bot.services.own_characters import Owned
from bot.services.transfer import GameImported, Refusal
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from engine.common import Severity, Violation
from engine.text import Msg
from handlers.views.safe import clip_list, clip_plain, plain

PROBLEMS_SHOWN = 15
BUTTONS_SHOWN = 20


class ExportPickCD(CallbackData, prefix="xpk"):
    """Export this one of the presser's own characters (checked again on the press)."""

    character_id: int


class ImportToCD(CallbackData, prefix="ipt"):
    """Import the file waiting in the presser's private chat into this game (checked again:
    the presser must be a member and the game live and of the file's system)."""

    game_id: int


def character_caption(t: Translator, character: CharacterDTO) -> str:
    return t(
        "📦 {name}: the character's file. To bring it into another game of the same system, "
        "send it to me here with the caption /import.",
        name=plain(character.name),
    )


def game_caption(t: Translator, game: GameDTO) -> str:
    return t(
        "📦 «{title}»: the whole game as a file. To bring it back, send it with the caption "
        "/import in a group without a game. Its roll log can be checked with {command}.",
        title=plain(game.title),
        command="<code>python -m engine.verify</code>",
    )


def _clip(label: str, limit: int = 60) -> str:
    """A button's words: the end of a long label (the group's title) stays readable."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


def pick_character(t: Translator, owned: list[Owned]) -> tuple[str, InlineKeyboardMarkup]:
    rows = [
        [
            InlineKeyboardButton(
                text=("🗄 " if o.archived else "") + f"{o.character.name} · {o.game.title}"[:60],
                callback_data=ExportPickCD(character_id=o.character.id).pack(),
            )
        ]
        for o in owned[:BUTTONS_SHOWN]
    ]
    return t("Which character to export?"), InlineKeyboardMarkup(inline_keyboard=rows)


def pick_game(
    t: Translator, games: list[GameDTO], labels: dict[int, str]
) -> tuple[str, InlineKeyboardMarkup]:
    """``labels``: what tells the games apart (``bot.services.game_labels``)."""
    rows = [
        [
            InlineKeyboardButton(
                text=_clip(labels.get(g.id, g.title)),
                callback_data=ImportToCD(game_id=g.id).pack(),
            )
        ]
        for g in games[:BUTTONS_SHOWN]
    ]
    return t("Into which game should the character go?"), InlineKeyboardMarkup(
        inline_keyboard=rows
    )


def _named_field(t: Translator, system: str, problem: Msg | Violation) -> Msg | Violation:
    """A sheet field a file got wrong, named in the system's words (the engine knows only the
    field's path, and the glossary is the bot's)."""
    if not isinstance(problem, Msg) or problem.key != "transfer.sheet_field":
        return problem
    where = str(problem.params.get("where", ""))
    label = SYSTEMS[system].field_label(where) if system in SYSTEMS else glossary.OTHER_FIELD
    return Msg(problem.key, {**problem.params, "where": t(label)})


def refused(t: Translator, locale: str, refusal: Refusal) -> str:
    """The refusal, then every problem (the first ones, and how many more), escaped."""
    params = {k: t(v) for k, v in refusal.params.items()}
    lines = [plain(t(refusal.reason, **params))]
    for problem in refusal.problems[:PROBLEMS_SHOWN]:
        warning = isinstance(problem, Violation) and problem.severity is Severity.WARNING
        text = _named_field(t, refusal.system, problem).render(locale)
        lines.append(("⚠️ " if warning else "⛔ ") + plain(clip_plain(text, 300)))
    hidden = len(refusal.problems) - PROBLEMS_SHOWN
    if hidden > 0:
        lines.append(t.plural("… and {n} more problem.", "… and {n} more problems.", hidden))
    lines.append(t("Nothing was imported."))
    return "\n".join(lines)


def game_imported(t: Translator, done: GameImported) -> str:
    lines = [
        t("✅ The game «{title}» is imported; you are its GM here.", title=plain(done.game.title)),
        t("System: {system}.", system=t(SYSTEMS[done.game.system].title)),
        t.plural("{n} character", "{n} characters", done.characters)
        + ", "
        + t.plural("{n} NPC", "{n} NPCs", done.npcs)
        + ", "
        + t.plural("{n} schedule", "{n} schedules", done.schedules)
        + ", "
        + t.plural("{n} ledger entry", "{n} ledger entries", done.ledger)
        + ".",
    ]
    if done.rolls:
        lines.append(
            t.plural(
                "The old roll log ({n} roll) is kept with the game; new rolls start a new log.",
                "The old roll log ({n} rolls) is kept with the game; new rolls start a new log.",
                done.rolls,
            )
        )
    if done.skipped:
        kinds = clip_list(
            [plain(k) for k in done.skipped], room=300,
            more=lambda n: t("… and {n} more", n=n),
        )  # fmt: skip
        lines.append(t("Schedules of milestones this system lacks were left out: {kinds}.",
                       kinds=kinds))  # fmt: skip
    return "\n".join(lines)


def send_file(t: Translator) -> str:
    return t("Send the export file now (a .json document), or /cancel.")


def file_too_large(t: Translator, limit: int) -> str:
    return t("The file is larger than {size} MB: I cannot import it.", size=limit // 2**20)


def no_file(t: Translator) -> str:
    return t("That is not a file. Send the export file as a document, or /cancel.")


def no_characters(t: Translator) -> str:
    return t("You have no characters to export yet.")


def no_game_of_system(t: Translator, system: str) -> str:
    return t(
        "You are in no game of «{system}» yet. Send the file with the caption /import in "
        "the game's group.",
        system=t(SYSTEMS[system].title),
    )


def game_file_in_private(t: Translator) -> str:
    return t("This file holds a whole game: send it with /import in a group without a game.")


def no_game_here(t: Translator) -> str:
    return t("This chat has no game yet: a character can only join a game.")


def export_in_group(t: Translator) -> str:
    return t(
        "Here the GM can save the whole game: /export game. Your own character: /export in "
        "our private chat."
    )
