"""The ``cliche`` sheet as compact Telegram HTML (approval card, /sheet, the wizard's preview).

Every user string is escaped; tags are opened and closed on one line, so ``fit`` may cut
between lines. When the full sheet is too long, long texts are shortened first.
"""

from __future__ import annotations

import html
import logging

from bot.i18n import Translator
from engine import formats
from engine.systems.cliche import Character, Cliche, ClicheOptions, Tool, ToolEffect
from engine.systems.cliche import allocation as rules

logger = logging.getLogger(__name__)

LIMIT = 4096
SHORT_DESCRIPTION = 120
SHORT_BACKSTORY = 600
SHORT_IN_A_LIST = 80  # a description or hook in a wizard step's list


def _esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def _cut(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def effect_label(t: Translator, effect: ToolEffect) -> str:
    labels = {
        ToolEffect.MINUS_ONE: t("−1 die"),
        ToolEffect.HALF: t("half dice"),
        ToolEffect.DISABLED: t("cannot be used"),
    }
    return labels[effect]


def tool_line(t: Translator, tool: Tool) -> str:
    missing = "" if tool.present else " ❌"
    return t("🔧 {tool}{missing} (without it: {effect})").format(
        tool=_esc(tool.name), missing=missing, effect=effect_label(t, tool.when_missing)
    )


def cliche_lines(t: Translator, item: Cliche, short: int | None = None) -> list[str]:
    dice = formats.pool(item.current, item.dice)
    mark = "🛡 " if item.armor else "• "
    head = f"{mark}<b>{_esc(item.name)}</b> ({dice})"
    if item.description:
        head += " — " + _esc(_cut(item.description, short))
    return [head, *("   " + tool_line(t, tool) for tool in item.tools)]


def attributes_line(t: Translator, character: Character) -> str:
    a = character.attributes
    return t("💪 Physical {physical} · 🧠 Mental {mental} · 🗣 Social {social}").format(
        physical=a.physical, mental=a.mental, social=a.social
    )


def _render(character: Character, t: Translator, short: int | None, story: int | None) -> str:
    bought = sum(c.dice for c in character.cliches if not c.armor)
    lines = [f"<b>{_esc(character.name or '—')}</b>"]
    a = character.attributes
    if a.physical or a.mental or a.social:  # a quick NPC has none: no «Physical 0 · …» line
        lines.append(attributes_line(t, character))
    lines.append(t.plural("🎲 Clichés ({n} die):", "🎲 Clichés ({n} dice):", bought))
    for item in character.cliches:
        lines += cliche_lines(t, item, short)
    if not character.cliches:
        lines.append("—")
    if character.gm_bonus_dice:
        lines.append(t("🎁 GM's bonus dice: {n}").format(n=character.gm_bonus_dice))
    if character.hooks:
        lines.append(t("🪝 Hooks:"))
        lines += ["• " + _esc(_cut(hook, short)) for hook in character.hooks]
    if character.backstory:
        lines.append(t("📜 Backstory:"))
        lines.append(_esc(_cut(character.backstory, story)))
    return "\n".join(lines)


def render_sheet(character: Character, t: Translator, locale: str) -> str:
    text = _render(character, t, None, None)
    if len(text) > LIMIT:
        text = _render(character, t, SHORT_DESCRIPTION, SHORT_BACKSTORY)
    return text


# --- the creation wizard's lines: its dice budget and short lists ---------------------------


def short(text: str, limit: int = SHORT_IN_A_LIST) -> str:
    return _esc(text if len(text) <= limit else text[: limit - 1] + "…")


def budget_line(t: Translator, character: Character, options: ClicheOptions) -> str:
    total = rules.budget(character, options)
    left, bonus = total - rules.dice_used(character), rules.gm_bonus(character, options)
    if left < 0:  # a sheet the GM returned with more dice than given: said, not as «−1 left»
        return t(
            "🎲 Dice: {used} of {budget}, {over} over the budget",
            used=total - left, budget=total, over=-left,
        )  # fmt: skip
    if bonus:
        return t(
            "🎲 Dice left: {left} of {budget} (incl. {bonus} bonus dice from the GM)",
            left=left, budget=total, bonus=bonus,
        )  # fmt: skip
    return t("🎲 Dice left: {left} of {budget}", left=left, budget=total)


def cliche_summary(t: Translator, character: Character, with_tools: bool = False) -> str:
    """One short line per cliché: a wizard step's message must stay far below 4,096 characters."""
    lines = []
    for item in character.cliches:
        line = f"• <b>{_esc(item.name)}</b> ({item.dice})"
        if with_tools:
            line += " 🔧 " + short(", ".join(tool.name for tool in item.tools) or "—")
        elif item.description:
            line += " — " + short(item.description)
        lines.append(line)
    return "\n".join(lines) if lines else t("No clichés yet.")
