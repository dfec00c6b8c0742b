"""Character-creation wizard for the ``cliche`` system («Светлячок», Risus-style clichés).

Steps: name → attributes (+/−, the game's points) → clichés (each: name typed, dice with +/−,
description typed; several) → tools of the trade per cliché → hooks → backstory → preview
(jump back to any step, submit to the GM). The draft is JSON in ``dialog_data`` (see
``cliche_draft``), so a restart resumes at the same step; every rule is the engine's
``validate_character``: a button that would break a rule is refused with the engine's reason
shown in the window, and the wizard stays where it is.
"""

from __future__ import annotations

import logging
from operator import itemgetter
from typing import Any

from aiogram import Router
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import DialogManager, ShowMode, Window
from aiogram_dialog.widgets.input import ManagedTextInput, TextInput
from aiogram_dialog.widgets.kbd import Button, Column, Group, Row, Select, SwitchTo
from aiogram_dialog.widgets.text import Const, Format

from bot.i18n import Translator
from engine.common import Severity, Violation
from engine.systems.cliche import Cliche, ClicheOptions, Tool, ToolEffect
from handlers.views.sheets import cliche as sheet_view
from handlers.views.sheets import fit
from handlers.wizards import cliche_draft as draft
from handlers.wizards.common import (
    NAME_MAX,
    TEXT_MAX,
    T,
    WizardDialog,
    WizardStart,
    clean_name,
    clean_text,
    esc,
    finish_wizard,
    for_a_player,
    locale_of,
    npc_preview_head,
    refuse,
    submit_button,
    violations_text,
)

logger = logging.getLogger(__name__)

SHORT = 80  # a description or hook in a step's list (the sheet shows them in full)
SHEET_MAX = 3300  # the preview's sheet, leaving room for the header and the problems


class ClicheSG(StatesGroup):
    name = State()
    attrs = State()
    cliches = State()
    cl_name = State()
    cl_dice = State()
    cl_desc = State()
    card = State()
    tools = State()
    tools_of = State()
    hooks = State()
    backstory = State()
    preview = State()


START_STATE = ClicheSG.name


# --- helpers ------------------------------------------------------------------------------------


def _options(manager: DialogManager) -> ClicheOptions:
    return ClicheOptions.model_validate(WizardStart.of(manager).options)


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def _say(manager: DialogManager, text: str) -> None:
    """Show ``text`` (escaped HTML) once, under the current step's question.

    A button pressed again while the window already shows exactly this text re-renders nothing:
    the identical edit would be «message is not modified», which the outbound layer turns into
    ``True`` and aiogram-dialog cannot take instead of a message. (A typed answer always gets a
    new message that repeats the question.)
    """
    refuse(manager, text)
    pressed = isinstance(manager.event, CallbackQuery)
    if pressed and text == manager.dialog_data.get("shown"):
        _unchanged(manager)
        return
    manager.dialog_data["problem"] = text


def _unchanged(manager: DialogManager) -> None:
    """Nothing changed: keep the message as it is (see ``_say``)."""
    manager.show_mode = ShowMode.NO_UPDATE


async def _noop(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    _unchanged(manager)


def _refuse(manager: DialogManager, problems: list[Violation]) -> None:
    _say(manager, violations_text(problems, locale_of(manager)))


def _current(manager: DialogManager) -> dict[str, Any] | None:
    """The cliché being edited, or None when the index is stale."""
    data = manager.dialog_data
    index = int(data.get("cur", -1))
    items: list[dict[str, Any]] = data["cliches"]
    return items[index] if 0 <= index < len(items) else None


# --- start --------------------------------------------------------------------------------------


async def _on_start(_: Any, manager: DialogManager) -> None:
    start = WizardStart.of(manager)
    manager.dialog_data.update(draft.from_sheet(start.draft, _options(manager)))


# --- name ---------------------------------------------------------------------------------------


async def _got_name(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    name = clean_name(value)
    if name is None:
        t = _t(manager)
        text = t("The name must be one line of 1 to {limit} characters.").format(limit=NAME_MAX)
        _say(manager, "⛔ " + text)
        return
    manager.dialog_data["name"] = name
    await manager.switch_to(ClicheSG.attrs)


# --- attributes ---------------------------------------------------------------------------------


async def _attr_step(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    # widget ids: a<index><m|p>, e.g. a0p = physical +1
    wid = button.widget_id or ""
    attr = draft.ATTRS[int(wid[1])]
    step = 1 if wid.endswith("p") else -1
    refusal = draft.attribute_refusal(manager.dialog_data, _options(manager), attr, step)
    if refusal:
        _refuse(manager, refusal)
        return
    manager.dialog_data["attrs"][attr] += step


async def _attrs_next(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    problems = draft.blocking(manager.dialog_data, _options(manager), "attributes")
    if problems:
        _refuse(manager, problems)
        return
    await manager.switch_to(ClicheSG.cliches)


# --- clichés: list, name, dice, description, card ---------------------------------------


async def _add_cliche(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    data = manager.dialog_data
    if len(data["cliches"]) >= draft.MAX_CLICHES:
        t = _t(manager)
        _say(manager, "⛔ " + t("That is enough clichés for one character."))
        return
    if draft.no_dice_left(data, _options(manager)):
        t = _t(manager)
        text = t(
            "All {budget} dice are spent: take a die from a cliché first (the GM may grant "
            "bonus dice)."
        ).format(budget=draft.budget(data, _options(manager)))
        _say(manager, "⛔ " + text)
        return
    data["cur"] = -1
    data["adding"] = True
    await manager.switch_to(ClicheSG.cl_name)


async def _open_card(
    callback: CallbackQuery, _: Select[int], manager: DialogManager, index: int
) -> None:
    if 0 <= index < len(manager.dialog_data["cliches"]):
        manager.dialog_data["cur"] = index
        manager.dialog_data["adding"] = False
        await manager.switch_to(ClicheSG.card)
    else:
        _unchanged(manager)


async def _cliches_next(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    problems = draft.blocking(manager.dialog_data, _options(manager), "cliches")
    if problems:
        _refuse(manager, problems)
        return
    await manager.switch_to(ClicheSG.tools)


async def _got_cliche_name(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    data = manager.dialog_data
    name = clean_name(value)
    if name is None:
        t = _t(manager)
        text = t("The name must be one line of 1 to {limit} characters.").format(limit=NAME_MAX)
        _say(manager, "⛔ " + text)
        return
    index = int(data.get("cur", -1))
    duplicate = draft.name_refusal(data, _options(manager), index, name)
    if duplicate:
        _refuse(manager, duplicate)
        return
    if index < 0:
        data["cliches"].append(draft.new_cliche(name))
        data["cur"] = len(data["cliches"]) - 1
        await manager.switch_to(ClicheSG.cl_dice)
        return
    if _current(manager) is None:
        await manager.switch_to(ClicheSG.cliches)
        return
    data["cliches"][index]["name"] = name
    await manager.switch_to(ClicheSG.card)


async def _dice_step(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    item = _current(manager)
    if item is None:
        await manager.switch_to(ClicheSG.cliches)
        return
    step = 1 if button.widget_id == "dp" else -1
    index = int(manager.dialog_data["cur"])
    refusal = draft.dice_refusal(manager.dialog_data, _options(manager), index, step)
    if refusal:
        _refuse(manager, refusal)
        return
    item["dice"] = int(item["dice"]) + step


async def _dice_done(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    adding = bool(manager.dialog_data.get("adding"))
    await manager.switch_to(ClicheSG.cl_desc if adding else ClicheSG.card)


async def _got_description(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    text = clean_text(value)
    item = _current(manager)
    if text is None:
        t = _t(manager)
        text = t("The description must be 1 to {limit} characters.").format(limit=TEXT_MAX)
        _say(manager, "⛔ " + text)
        return
    if item is not None:
        item["description"] = text
    await _description_done(message, None, manager)


async def _description_done(_: object, __: object, manager: DialogManager) -> None:
    data = manager.dialog_data
    if data.get("adding") or _current(manager) is None:
        data["adding"] = False
        await manager.switch_to(ClicheSG.cliches)
        return
    await manager.switch_to(ClicheSG.card)


async def _cliche_back(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    """Back from a cliché step: the previous step while adding, else the cliché's card."""
    data = manager.dialog_data
    state = manager.current_context().state
    if not data.get("adding") or _current(manager) is None:
        data["adding"] = False
        target = ClicheSG.card if _current(manager) is not None else ClicheSG.cliches
    else:
        target = ClicheSG.cl_dice if state == ClicheSG.cl_desc else ClicheSG.cliches
    await manager.switch_to(target)


async def _delete_cliche(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    data = manager.dialog_data
    if _current(manager) is not None:
        data["cliches"].pop(int(data["cur"]))
    data["cur"] = -1
    await manager.switch_to(ClicheSG.cliches)


async def _to_list(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    manager.dialog_data["adding"] = False
    await manager.switch_to(ClicheSG.cliches)


# --- tools of the trade -------------------------------------------------------------------------


async def _open_tools(
    callback: CallbackQuery, _: Select[int], manager: DialogManager, index: int
) -> None:
    if 0 <= index < len(manager.dialog_data["cliches"]):
        manager.dialog_data["cur"] = index
        manager.dialog_data["tools_back"] = "tools"
        await manager.switch_to(ClicheSG.tools_of)
    else:
        _unchanged(manager)


async def _card_tools(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    manager.dialog_data["tools_back"] = "card"
    await manager.switch_to(ClicheSG.tools_of)


async def _got_tool(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    item = _current(manager)
    if item is None:
        await manager.switch_to(ClicheSG.tools)
        return
    t = _t(manager)
    name = clean_name(value)
    if name is None:
        text = t("A tool's name must be one line of 1 to {limit} characters.").format(
            limit=NAME_MAX
        )
        _say(manager, "⛔ " + text)
        return
    if len(item["tools"]) >= draft.MAX_TOOLS:
        _say(manager, "⛔ " + t("That is enough tools for one cliché."))
        return
    item["tools"].append(
        {"name": name, "present": True, "when_missing": ToolEffect.MINUS_ONE.value}
    )


async def _cycle_effect(
    callback: CallbackQuery, _: Select[int], manager: DialogManager, index: int
) -> None:
    item = _current(manager)
    if item is not None and 0 <= index < len(item["tools"]):
        tool = item["tools"][index]
        tool["when_missing"] = draft.next_effect(str(tool["when_missing"]))
    else:
        _unchanged(manager)


async def _remove_tool(
    callback: CallbackQuery, _: Select[int], manager: DialogManager, index: int
) -> None:
    item = _current(manager)
    if item is not None and 0 <= index < len(item["tools"]):
        item["tools"].pop(index)
    else:
        _unchanged(manager)


async def _tools_done(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    back = manager.dialog_data.get("tools_back") == "card" and _current(manager) is not None
    await manager.switch_to(ClicheSG.card if back else ClicheSG.tools)


# --- hooks and backstory ------------------------------------------------------------------------


async def _got_hook(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    t = _t(manager)
    hook = clean_text(value)
    if hook is None:
        _say(manager, "⛔ " + t("A hook must be 1 to {limit} characters.").format(limit=TEXT_MAX))
        return
    hooks: list[str] = manager.dialog_data["hooks"]
    if len(hooks) >= draft.MAX_HOOKS:
        _say(manager, "⛔ " + t("That is enough hooks; remove one first."))
        return
    hooks.append(hook)


async def _remove_hook(
    callback: CallbackQuery, _: Select[int], manager: DialogManager, index: int
) -> None:
    hooks: list[str] = manager.dialog_data["hooks"]
    if 0 <= index < len(hooks):
        hooks.pop(index)
    else:
        _unchanged(manager)


async def _got_backstory(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, value: str
) -> None:
    story = clean_text(value)
    if story is None:
        t = _t(manager)
        text = t("The backstory must be 1 to {limit} characters.").format(limit=TEXT_MAX)
        _say(manager, "⛔ " + text)
        return
    manager.dialog_data["backstory"] = story
    await manager.switch_to(ClicheSG.preview)


# --- preview ------------------------------------------------------------------------------------


async def _submit(callback: CallbackQuery, _: Button, manager: DialogManager) -> None:
    character = draft.character(manager.dialog_data)
    problems = await finish_wizard(manager, character)
    if problems:
        logger.info("cliche character refused by the engine: %d problems", len(problems))
        _refuse(manager, problems)


# --- window data ------------------------------------------------------------------------


def _budget_line(t: Translator, data: draft.Draft, options: ClicheOptions) -> str:
    total = draft.budget(data, options)
    left = total - draft.dice_used(data)
    bonus = draft.gm_bonus(data, options)
    if left < 0:  # a sheet the GM returned with more dice than given: said, not as «−1 left»
        return t("🎲 Dice: {used} of {budget}, {over} over the budget").format(
            used=total - left, budget=total, over=-left
        )
    if bonus:
        return t("🎲 Dice left: {left} of {budget} (incl. {bonus} bonus dice from the GM)").format(
            left=left, budget=total, bonus=bonus
        )
    return t("🎲 Dice left: {left} of {budget}").format(left=left, budget=total)


def _short(text: str, limit: int = SHORT) -> str:
    return esc(text if len(text) <= limit else text[: limit - 1] + "…")


def _cliche_list(t: Translator, data: draft.Draft, with_tools: bool = False) -> str:
    """One short line per cliché: the step's message must stay far below 4,096 characters."""
    lines = []
    for item in data["cliches"]:
        line = f"• <b>{esc(item['name'])}</b> ({item['dice']})"
        if with_tools:
            names = ", ".join(tool["name"] for tool in item["tools"]) or "—"
            line += " 🔧 " + _short(names)
        elif item["description"]:
            line += " — " + _short(item["description"])
        lines.append(line)
    return "\n".join(lines) if lines else t("No clichés yet.")


def _cliche_items(data: draft.Draft) -> list[dict[str, Any]]:
    return [
        {
            "i": i,
            "label": f"{c['name']} ({c['dice']})",
            "tools": f"{c['name']} · 🔧 {len(c['tools'])}",
        }
        for i, c in enumerate(data["cliches"])
    ]


def _tool_items(t: Translator, item: dict[str, Any] | None) -> list[dict[str, Any]]:
    tools = item["tools"] if item else []
    return [
        {
            "i": i,
            "n": i + 1,
            "label": f"{i + 1}. {tool['name']}: "
            + sheet_view.effect_label(t, ToolEffect(tool["when_missing"])),
        }
        for i, tool in enumerate(tools)
    ]


def _tool_list(t: Translator, item: dict[str, Any] | None) -> str:
    tools = item["tools"] if item else []
    lines = [
        f"{i}. " + sheet_view.tool_line(t, Tool.model_validate(tool))
        for i, tool in enumerate(tools, start=1)
    ]
    return "\n".join(lines) if lines else t("No tools yet.")


def _warnings(data: draft.Draft, options: ClicheOptions, locale: str) -> str:
    found = [
        v
        for v in draft.violations(data, options)
        if v.severity is Severity.WARNING and v.field.startswith("cliches")
    ]
    return violations_text(found, locale)


async def _getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    manager = dialog_manager
    data = manager.dialog_data
    t, options, locale = _t(manager), _options(manager), locale_of(manager)
    item = _current(manager)
    hooks: list[str] = data["hooks"]
    if manager.current_context().state == ClicheSG.preview:
        data["reviewed"] = True
    problem = data.pop("problem", "")
    data["shown"] = problem
    return {
        "problem": problem,
        "reviewed": bool(data.get("reviewed")),
        "name": esc(data.get("name") or ""),
        "has_name": bool(data.get("name")),
        "points": options.attribute_points,
        "low": options.attribute_min,
        "high": options.attribute_max,
        "points_left": options.attribute_points - sum(data["attrs"].values()),
        **{f"{a}_v": data["attrs"][a] for a in draft.ATTRS},
        "cap": options.creation_cap,
        "at_cap": options.max_at_cap,
        "novice": options.novice_threshold,
        "budget": _budget_line(t, data, options),
        "cliche_list": _cliche_list(t, data),
        "tools_list": _cliche_list(t, data, with_tools=True),
        "cliche_items": _cliche_items(data),
        "can_add": len(data["cliches"]) < draft.MAX_CLICHES,
        "warnings": _warnings(data, options, locale),
        "cliche": esc(item["name"]) if item else "",
        "dice": int(item["dice"]) if item else 0,
        "has_desc": bool(item and item["description"]),
        "description": esc(item["description"]) if item else "",
        "card": "\n".join(sheet_view.cliche_lines(t, Cliche.model_validate(item))) if item else "",
        "tool_list": _tool_list(t, item),
        "tool_items": _tool_items(t, item),
        "hook_list": "\n".join(f"{i}. {_short(h)}" for i, h in enumerate(hooks, start=1))
        or t("No hooks yet."),
        "hook_items": [{"i": i, "n": i + 1} for i in range(len(hooks))],
        "has_story": bool(data.get("backstory")),
        "backstory": esc(data.get("backstory") or ""),
        "sheet": fit(sheet_view.render_sheet(draft.character(data), t, locale), SHEET_MAX),
        "issues": violations_text(draft.violations(data, options), locale),
    }


# --- windows ------------------------------------------------------------------------------------

NEXT = T("Next ▶️")
BACK = T("◀️ Back")


def _problem() -> Format:
    return Format("\n{problem}", when="problem")


def _to_preview() -> SwitchTo:
    # shown once the player has seen the preview, so a fix is one tap away from it again
    return SwitchTo(T("👁 Preview"), id="pv", state=ClicheSG.preview, when="reviewed")


def _name_window() -> Window:
    return Window(
        T("<b>New character — Firefly (clichés)</b>"),
        T("What is your character's name? Type it (up to 64 characters)."),
        T("/cancel stops the wizard at any step."),
        T("Now: <b>{name}</b>. Type another name or press Next.", when="has_name"),
        _problem(),
        TextInput(id="nm", on_success=_got_name),
        SwitchTo(NEXT, id="nx", state=ClicheSG.attrs, when="has_name"),
        _to_preview(),
        state=ClicheSG.name,
    )


def _attr_row(index: int, label: T) -> Row:
    return Row(
        Button(Const("➖"), id=f"a{index}m", on_click=_attr_step),
        Button(label, id=f"a{index}", on_click=_noop),
        Button(Const("➕"), id=f"a{index}p", on_click=_attr_step),
    )


def _attrs_window() -> Window:
    return Window(
        T("<b>Attributes</b>"),
        T(
            "Spread {points} points between Physical, Mental and Social, {low} to {high} each. "
            "They describe the character; the rules give them no dice."
        ),
        T("Points left: <b>{points_left}</b>"),
        _problem(),
        _attr_row(0, T("Physical: {physical_v}")),
        _attr_row(1, T("Mental: {mental_v}")),
        _attr_row(2, T("Social: {social_v}")),
        Row(
            SwitchTo(BACK, id="bk", state=ClicheSG.name),
            Button(NEXT, id="nx", on_click=_attrs_next),
        ),
        _to_preview(),
        state=ClicheSG.attrs,
    )


def _cliches_window() -> Window:
    return Window(
        T("<b>Clichés</b>"),
        T(
            "A cliché is a role or knack rolled as d6: Soldier, Hacker, Gambler. At creation each "
            "has 1 to {cap} dice, at most {at_cap} clichés have {cap}, and at least one has "
            "{novice} or more. Tap a cliché to change it."
        ),
        Format("\n{cliche_list}\n"),
        Format("{budget}"),
        Format("{warnings}", when="warnings"),
        _problem(),
        Column(
            Select(
                Format("{item[label]}"),
                id="cl",
                item_id_getter=itemgetter("i"),
                items="cliche_items",
                type_factory=int,
                on_click=_open_card,
            )
        ),
        Button(T("➕ Add a cliché"), id="add", on_click=_add_cliche),  # refuses past the most
        Row(
            SwitchTo(BACK, id="bk", state=ClicheSG.attrs),
            Button(NEXT, id="nx", on_click=_cliches_next),
        ),
        _to_preview(),
        state=ClicheSG.cliches,
    )


def _cl_name_window() -> Window:
    return Window(
        T("Type the cliché's name (up to 64 characters), e.g. <i>Soldier</i>, <i>Hacker</i>."),
        T("Now: <b>{cliche}</b>.", when="cliche"),
        _problem(),
        TextInput(id="cn", on_success=_got_cliche_name),
        Button(BACK, id="bk", on_click=_cliche_back),
        state=ClicheSG.cl_name,
    )


def _cl_dice_window() -> Window:
    return Window(
        T("How many dice does «{cliche}» have? Use ➖ and ➕."),
        T("«{cliche}»: <b>{dice}</b> dice"),
        Format("{budget}"),
        _problem(),
        Row(
            Button(Const("➖"), id="dm", on_click=_dice_step),
            Button(Format("🎲 {dice}"), id="dv", on_click=_noop),
            Button(Const("➕"), id="dp", on_click=_dice_step),
        ),
        Row(
            Button(BACK, id="bk", on_click=_cliche_back),
            Button(NEXT, id="nx", on_click=_dice_done),
        ),
        state=ClicheSG.cl_dice,
    )


def _cl_desc_window() -> Window:
    return Window(
        T(
            "Describe «{cliche}» in one message: who they are, what they can do "
            "(up to 500 characters)."
        ),
        T("Now: {description}", when="has_desc"),
        _problem(),
        TextInput(id="cd", on_success=_got_description),
        Row(
            Button(BACK, id="bk", on_click=_cliche_back),
            Button(
                T("Skip ▶️"),
                id="sk",
                on_click=_description_done,
                when=lambda d, w, m: not d["has_desc"],
            ),
            Button(T("Keep ▶️"), id="kp", on_click=_description_done, when="has_desc"),
        ),
        state=ClicheSG.cl_desc,
    )


def _card_window() -> Window:
    return Window(
        Format("{card}"),
        Format("{budget}"),
        T("What would you like to change?"),
        _problem(),
        Row(
            SwitchTo(T("✏️ Name"), id="rn", state=ClicheSG.cl_name),
            SwitchTo(T("🎲 Dice"), id="dc", state=ClicheSG.cl_dice),
        ),
        Row(
            SwitchTo(T("📝 Description"), id="de", state=ClicheSG.cl_desc),
            Button(T("🔧 Tools"), id="tl", on_click=_card_tools),
        ),
        Row(
            Button(T("🗑 Delete"), id="del", on_click=_delete_cliche),
            Button(T("◀️ To the list"), id="bk", on_click=_to_list),
        ),
        state=ClicheSG.card,
    )


def _tools_window() -> Window:
    return Window(
        T("<b>Tools of the trade</b>"),
        T(
            "Some clichés need gear: a Soldier fights worse without his vest, a Hacker cannot "
            "hack without a laptop. Tap a cliché to list its tools, or press Next."
        ),
        Format("\n{tools_list}"),
        _problem(),
        Column(
            Select(
                Format("{item[tools]}"),
                id="ct",
                item_id_getter=itemgetter("i"),
                items="cliche_items",
                type_factory=int,
                on_click=_open_tools,
            )
        ),
        Row(
            SwitchTo(BACK, id="bk", state=ClicheSG.cliches),
            SwitchTo(NEXT, id="nx", state=ClicheSG.hooks),
        ),
        _to_preview(),
        state=ClicheSG.tools,
    )


def _tools_of_window() -> Window:
    return Window(
        T("Tools of the trade for «{cliche}»."),
        T(
            "Type a tool's name to add it (up to 64 characters). Tap a tool to choose what "
            "happens without it (the GM has the last word); ❌ removes it."
        ),
        Format("\n{tool_list}"),
        _problem(),
        TextInput(id="tn", on_success=_got_tool),
        Column(
            Select(
                Format("{item[label]}"),
                id="te",
                item_id_getter=itemgetter("i"),
                items="tool_items",
                type_factory=int,
                on_click=_cycle_effect,
            )
        ),
        Group(
            Select(
                Format("❌ {item[n]}"),
                id="tx",
                item_id_getter=itemgetter("i"),
                items="tool_items",
                type_factory=int,
                on_click=_remove_tool,
            ),
            width=5,
        ),
        Button(T("✅ Done"), id="dn", on_click=_tools_done),
        state=ClicheSG.tools_of,
    )


def _hooks_window() -> Window:
    return Window(
        T("<b>Hooks</b>"),
        T(
            "Hooks tie the character to the world: debts, enemies, promises, secrets. Type a "
            "hook to add it, one per message (up to 500 characters); ❌ removes one. The GM may "
            "grant bonus dice for good hooks."
        ),
        Format("\n{hook_list}"),
        _problem(),
        TextInput(id="hk", on_success=_got_hook),
        Group(
            Select(
                Format("❌ {item[n]}"),
                id="hx",
                item_id_getter=itemgetter("i"),
                items="hook_items",
                type_factory=int,
                on_click=_remove_hook,
            ),
            width=5,
        ),
        Row(
            SwitchTo(BACK, id="bk", state=ClicheSG.tools),
            SwitchTo(NEXT, id="nx", state=ClicheSG.backstory),
        ),
        _to_preview(),
        state=ClicheSG.hooks,
    )


def _backstory_window() -> Window:
    return Window(
        T("<b>Backstory</b>"),
        T(
            "Where does the character come from, what do they want? Type it in one message "
            "(up to 500 characters). The GM may grant bonus dice for a strong backstory."
        ),
        T("Now: {backstory}", when="has_story"),
        _problem(),
        TextInput(id="bs", on_success=_got_backstory),
        Row(
            SwitchTo(BACK, id="bk", state=ClicheSG.hooks),
            SwitchTo(
                T("Skip ▶️"),
                id="sk",
                state=ClicheSG.preview,
                when=lambda d, w, m: not d["has_story"],
            ),
            SwitchTo(T("Keep ▶️"), id="kp", state=ClicheSG.preview, when="has_story"),
        ),
        state=ClicheSG.backstory,
    )


def _preview_window() -> Window:
    return Window(
        T(
            "<b>Preview</b>: check the character, go back to any step, or send it to the GM.",
            when=for_a_player,
        ),
        npc_preview_head(),
        Format("\n{sheet}\n"),
        Format("{issues}", when="issues"),
        _problem(),
        Row(
            SwitchTo(T("✏️ Name"), id="gn", state=ClicheSG.name),
            SwitchTo(T("💪 Attributes"), id="ga", state=ClicheSG.attrs),
        ),
        Row(
            SwitchTo(T("🎲 Clichés"), id="gc", state=ClicheSG.cliches),
            SwitchTo(T("🔧 Tools"), id="gt", state=ClicheSG.tools),
        ),
        Row(
            SwitchTo(T("🪝 Hooks"), id="gh", state=ClicheSG.hooks),
            SwitchTo(T("📜 Backstory"), id="gb", state=ClicheSG.backstory),
        ),
        submit_button("✅ Send to the GM", _submit),
        state=ClicheSG.preview,
    )


def create_dialogs() -> list[Router]:
    return [
        WizardDialog(
            _name_window(),
            _attrs_window(),
            _cliches_window(),
            _cl_name_window(),
            _cl_dice_window(),
            _cl_desc_window(),
            _card_window(),
            _tools_window(),
            _tools_of_window(),
            _hooks_window(),
            _backstory_window(),
            _preview_window(),
            on_start=_on_start,
            getter=_getter,
        )
    ]
