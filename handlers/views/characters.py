from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services import milestones
from bot.services.characters import Change
from bot.services.names import Ambiguous, NotFound
from db.repositories.games import CharacterDTO
from engine import formats
from engine.common import NOTE, Severity, Violation
from handlers.callbacks import ApproveCD, ProposalCD, ReturnCD, SheetPageCD
from handlers.callbacks_nav import SheetPickCD
from handlers.views.request_builder import request_button
from handlers.views.resources import KIND_LABEL, resources_button
from handlers.views.safe import clip_html, clip_list
from handlers.views.sheet_changes import describe
from handlers.views.sheets import fit, page_title

KIND_NAMES = {
    "create": N_("created"),
    "approve": N_("approved"),
    "return": N_("returned"),
    "edit": N_("edited"),
}


def submitted_head(t: Translator, player: str) -> str:
    return t(
        "📜 {player} submitted a character for approval:",
        player=f"<b>{escape(player)}</b>",
    )


def leftovers(t: Translator, violations: list[Violation]) -> str:
    """The engine's warnings as lines for the approval card: optional points left unspent,
    and apart from them what the GM weighs (``NOTE``: more dice than given, too many clichés)."""
    warnings = [v for v in violations if v.severity is Severity.WARNING][:LEFTOVERS_SHOWN]
    unspent = [v for v in warnings if not v.field.startswith(NOTE)]
    notes = [v for v in warnings if v.field.startswith(NOTE)]
    parts = []
    for head, found in (
        (t("ℹ️ Left unspent (optional):"), unspent),
        (t("⚠️ For the GM to weigh:"), notes),
    ):
        if found:
            lines = "\n".join(f"• {escape(v.render(t.locale))}" for v in found)
            parts.append(head + "\n" + lines)
    return "\n".join(parts)


LEFTOVERS_SHOWN = 8


def not_posted(t: Translator, character: CharacterDTO) -> str:
    return t(
        "📨 {name} is saved for the GM, but I could not post it in the group (am I still "
        "there?). The GM will see it in /game.",
        name=f"<b>{escape(character.name)}</b>",
    )


def review_keyboard(t: Translator, character_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="✅ " + t("Approve"),
                    callback_data=ApproveCD(character_id=character_id).pack(),
                ),
                InlineKeyboardButton(
                    text="↩️ " + t("Return with a comment"),
                    callback_data=ReturnCD(character_id=character_id).pack(),
                ),
            ]
        ]
    )


def approved(t: Translator, character: CharacterDTO) -> str:
    return t("✅ {name} is approved and joins the game.", name=f"<b>{escape(character.name)}</b>")


def approved_for_player(t: Translator, character: CharacterDTO) -> str:
    return t(
        "✅ The GM approved {name}. See the sheet with /sheet in the group.",
        name=f"<b>{escape(character.name)}</b>",
    )


def ask_comment(t: Translator, character: CharacterDTO) -> str:
    return t(
        "Write the comment for {name} in one message; it goes to the player.",
        name=f"<b>{escape(character.name)}</b>",
    )


def returned(t: Translator, character: CharacterDTO) -> str:
    return t(
        "↩️ {name} went back to the player with the comment.",
        name=f"<b>{escape(character.name)}</b>",
    )


def returned_for_player(t: Translator, character: CharacterDTO) -> str:
    return t(
        "↩️ The GM returned {name}: {comment}\nPress «Fix the character» below: the sheet opens "
        "at its preview with your answers kept.",
        name=f"<b>{escape(character.name)}</b>",
        comment=f"<i>{escape(character.review_comment or '')}</i>",
    )


def sent_for_approval(t: Translator, character: CharacterDTO) -> str:
    return t(
        "📨 {name} is sent to the GM for approval. I will tell you the answer here.",
        name=f"<b>{escape(character.name)}</b>",
    )


def npc_saved(t: Translator, character: CharacterDTO) -> str:
    return t("🎭 NPC {name} is saved and active.", name=f"<b>{escape(character.name)}</b>")


def npc_added(t: Translator, character: CharacterDTO) -> str:
    return t("🎭 NPC {name} added by the GM.", name=f"<b>{escape(character.name)}</b>")


NAMES_ROOM = 3000  # the candidates listed after «No such character» (markup characters)


def unresolved(t: Translator, result: NotFound | Ambiguous) -> str:
    """A name that named nobody («не найден») or several («подходят несколько»), with the names
    to choose from: the one answer of every command that takes a character's name."""
    shown = clip_list(
        [escape(name) for name in result.names],
        room=NAMES_ROOM,
        more=lambda n: t("… and {n} more", n=n),
    )
    query = escape(result.query)
    if isinstance(result, Ambiguous):
        return t("Several characters match «{name}»: {names}. Write more of the name.",
                 name=query, names=shown)  # fmt: skip
    if not result.names:
        return t("Character «{name}» not found: this game has no characters yet.", name=query)
    return t("Character «{name}» not found. To choose from: {names}", name=query, names=shown)


def history_usage(t: Translator, names: list[str]) -> str:
    """/history without a name from someone with no character of their own here."""
    if not names:
        return t("/history name: a character's changes. This game has no characters yet.")
    shown = clip_list(
        [escape(name) for name in names], room=NAMES_ROOM, more=lambda n: t("… and {n} more", n=n)
    )
    return t("/history name: a character's changes. To choose from: {names}", names=shown)


HISTORY_ROOM = 3600


HISTORY_DIFF_SHOWN = 4  # changed fields listed under one change


def history(t: Translator, character: CharacterDTO, changes: list[Change], zone: str) -> str:
    """Every change, newest first: when (in the game's time zone), what, who asked and who
    granted, and the fields it changed in the system's words; a long history is clipped with
    a count of the older ones."""
    head = t("<b>History</b> of {name}:", name=escape(character.name))
    lines = [_change_lines(t, character.system, change, zone) for change in changes]
    listed = clip_list(
        lines, room=HISTORY_ROOM, more=lambda n: t("… and {n} more", n=n), separator="\n"
    )
    return "\n".join([head, listed]) if listed else head


def _milestone(t: Translator, system: str, kind: str) -> str:
    """«milestone: Full rest» — which one, as /milestone named it (a kind this bot no longer
    has, from an imported game, stays «milestone»)."""
    if kind not in milestones.kinds(system):
        return t("milestone")
    return t("milestone: {title}", title=t(milestones.kind_title(system, kind)))


def _change_lines(t: Translator, system: str, change: Change, zone: str) -> str:
    if not change.from_ledger:
        what = t(KIND_NAMES.get(change.kind, change.kind))
    elif change.kind == "undo":
        what = t("undo")
    elif change.kind.startswith("milestone."):
        what = _milestone(t, system, change.kind.removeprefix("milestone."))
    else:
        label = KIND_LABEL.get(change.kind)
        what = t(label) if label else t("sheet changed")
    who = escape(change.actor)
    if change.asked_by is not None:
        who = t("asked by {asker}, granted by {granter}", asker=escape(change.asked_by),
                granter=who)  # fmt: skip
    line = f"v{change.version} · {_local(change.at, zone)} · {escape(what)} · {who}"
    if change.undone:
        line += " · " + t("undone")
    fields = describe(t, t.locale, system, change.diff)
    shown = [f"  {escape(f)}" for f in fields[:HISTORY_DIFF_SHOWN]]
    if len(fields) > HISTORY_DIFF_SHOWN:
        shown.append("  " + t("… and {n} more", n=len(fields) - HISTORY_DIFF_SHOWN))
    return "\n".join([line, *shown])


def _local(moment: datetime, zone: str) -> str:
    return formats.moment(moment, zone)


def sheet_keyboard(
    t: Translator, character_id: int, pages: list[str], current: int, edit_url: str | None,
    *, active: bool = True, gm: bool = False, in_group: bool = True,
) -> InlineKeyboardMarkup | None:  # fmt: skip
    """Section pages of a long sheet as buttons (the current one marked), then an active
    character's resources (in the group) and roll request (for the GM and co-GMs), and «Edit»
    (``edit_url``: for those who may edit it)."""
    rows: list[list[InlineKeyboardButton]] = []
    if len(pages) > 1:
        buttons = [
            InlineKeyboardButton(
                text=("• " if i == current else "") + page_title(page),
                callback_data=SheetPageCD(character_id=character_id, page=i).pack(),
            )
            for i, page in enumerate(pages)
        ]
        rows += [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    if active and in_group:
        rows.append([resources_button(t, character_id)])
    if active and gm:
        rows.append([request_button(t, character_id)])  # the GM's roll request
    if edit_url:
        rows.append([InlineKeyboardButton(text="✏️ " + t("Edit"), url=edit_url)])
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


_STATUS_MARKS = {"active": "", "pending": "⏳ ", "returned": "↩️ ", "retired": "🗄 "}
_STATUS_NAMES = {
    "active": N_("in play"),
    "pending": N_("waiting for the GM's approval"),
    "returned": N_("the GM sent it back for changes"),
}


ARCHIVED_MARK = "🗄 "


def archived_mark(t: Translator) -> str:
    """Over each sheet page of an archived character: readable, changeable by no one."""
    return ARCHIVED_MARK + "<i>" + escape(t("Archived: read only.")) + "</i>"


def pick_keyboard(
    characters: list[CharacterDTO], *, archived: set[int] | frozenset[int] = frozenset()
) -> InlineKeyboardMarkup:
    """One button per character (a pending one marked ⏳, an archived one 🗄), two to a row."""
    buttons = [
        InlineKeyboardButton(
            text=(ARCHIVED_MARK if c.id in archived else _STATUS_MARKS.get(c.status, ""))
            + c.name[:40],
            callback_data=SheetPickCD(character_id=c.id).pack(),
        )
        for c in characters[:20]
    ]
    return InlineKeyboardMarkup(
        inline_keyboard=[buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    )


def no_own_character(t: Translator, names: Sequence[str]) -> str:
    text = t("You have no character in this game yet: press «Create character» on the /game card.")
    if names:
        shown = clip_list(
            [escape(name) for name in names],
            room=NAMES_ROOM,
            more=lambda n: t("… and {n} more", n=n),
        )
        text += "\n" + t(
            "Another character's sheet: /sheet name. Characters of this game: {names}",
            names=shown,
        )
    return text


def own_pending(t: Translator) -> str:
    return t("⏳ Your character is waiting for the GM's approval. The sheet as sent:")


def no_characters_anywhere(t: Translator) -> str:
    return t(
        "You have no characters yet. In the game's group, press «Create character» on the "
        "/game card."
    )


def own_list(t: Translator, owned: list[tuple[str, CharacterDTO, bool]]) -> str:
    """The user's characters, game by game, with where each one stands (an archived one — its
    game archived, or retired — marked so)."""
    lines = [f"<b>{escape(t('Your characters'))}</b>"]
    for title, character, archived in owned:
        status = t("archived") if archived else t(_STATUS_NAMES.get(character.status, "?"))
        lines.append(f"• <b>{escape(character.name)}</b> — {escape(title)} ({escape(status)})")
    lines += ["", escape(t("Press a name to see the sheet. Resources: /res."))]
    return clip_html("\n".join(lines))


def link_keyboard(text: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text, url=url)]])


def gm_edited(t: Translator, character: CharacterDTO, gm: str) -> str:
    return t(
        "✏️ {gm} edited {name} (version {version}). /history shows what changed.",
        gm=escape(gm),
        name=f"<b>{escape(character.name)}</b>",
        version=character.version,
    )


def edit_saved(t: Translator, character: CharacterDTO) -> str:
    return t(
        "✏️ Saved: {name}, version {version}.",
        name=f"<b>{escape(character.name)}</b>",
        version=character.version,
    )


def proposal_card(
    t: Translator, character: CharacterDTO, player: str, changes: list[dict[str, object]]
) -> str:
    head = t(
        "✏️ {player} proposes changes to {name}:",
        player=f"<b>{escape(player)}</b>",
        name=f"<b>{escape(character.name)}</b>",
    )
    described = describe(t, t.locale, character.system, changes)
    lines = [f"• {escape(line)}" for line in described[:15]]
    if len(described) > 15:
        lines.append(t("…and {n} more.", n=len(described) - 15))
    return fit("\n".join([head, *(lines or [t("(no changes)")])]))


def proposal_keyboard(t: Translator, proposal_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="✅ " + t("Accept"),
                    callback_data=ProposalCD(proposal_id=proposal_id, accept=True).pack(),
                ),
                InlineKeyboardButton(
                    text="✖️ " + t("Reject"),
                    callback_data=ProposalCD(proposal_id=proposal_id, accept=False).pack(),
                ),
            ]
        ]
    )


def proposal_sent(t: Translator, character: CharacterDTO) -> str:
    return t(
        "📨 Your changes to {name} are sent to the GM.", name=f"<b>{escape(character.name)}</b>"
    )


def change_accepted(t: Translator, character: CharacterDTO) -> str:
    return t(
        "✅ The changes to {name} are accepted (version {version}).",
        name=f"<b>{escape(character.name)}</b>",
        version=character.version,
    )


def change_rejected(t: Translator, character: CharacterDTO) -> str:
    return t(
        "✖️ The proposed changes to {name} are rejected.", name=f"<b>{escape(character.name)}</b>"
    )
