"""Character-creation wizard for the ``cliche`` system («Светлячок», Risus-style clichés).

Steps: name → attributes (+/−, the game's points) → clichés (``flow.records``: each asked its
name, dice and description, then shown on its card) → tools of the trade per cliché → hooks →
backstory → the flow's preview. Each step is a ``Screens`` of own windows in the wizard's
released words and widget ids; the draft is ``cliche_draft``; every rule is the engine's
(``validate_character``, ``allocation``): a press that would break one is refused with the
engine's reason, and the wizard stays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram import F, Router
from aiogram.fsm.state import State
from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.kbd import Button, Column, Keyboard, Row, SwitchTo
from aiogram_dialog.widgets.text import Format

from bot.i18n import N_, Translator
from engine.common import Violation
from engine.systems.cliche import Character, Cliche, ClicheOptions, Tool, ToolEffect
from engine.systems.cliche import allocation as rules
from engine.systems.cliche.creation import validate_character
from handlers.views.sheets import cliche as sheet_view
from handlers.views.sheets.cliche import effect_label
from handlers.wizards import cliche_draft as draft
from handlers.wizards.common import T, WizardStart, esc, locale_of, violations_text
from handlers.wizards.flow import Flow, Screens, build_dialog, flow_states, own_draft
from handlers.wizards.flow.own_widgets import (
    Act,
    Entries,
    counter,
    go,
    indexed,
    pick,
    removers,
    typed,
)
from handlers.wizards.flow.own_window import own_window
from handlers.wizards.flow.records import Records, answered, appender, refused, remover
from handlers.wizards.flow.wording import Wording

# --- the draft, the engine's rules on it ------------------------------------------------------


_draft = own_draft


def _upgrade(data: dict[str, Any], options: Any) -> draft.Draft:
    """A wizard stored before the flow kept its draft beside its state (``flow.stored``)."""
    return {key: data[key] for key in draft.KEYS if key in data}


def _options(manager: DialogManager) -> ClicheOptions:
    return ClicheOptions.model_validate(WizardStart.of(manager).options)


def _sheet(manager: DialogManager) -> Character:
    return draft.character(_draft(manager))


def _ruled(rule: Callable[..., list[Violation]]) -> Callable[..., list[Violation]]:
    """An ``allocation`` rule asked of the draft's sheet and the game's options."""
    return lambda manager, *args: rule(_sheet(manager), _options(manager), *args)


# --- attributes --------------------------------------------------------------------------------


async def _attr_step(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    # widget ids: a<index><m|p>, e.g. a0p = physical +1
    wid = button.widget_id or ""
    attr, step = draft.ATTRS[int(wid[1])], 1 if wid.endswith("p") else -1
    if not refused(manager, _ruled(rules.attribute_refusal)(manager, attr, step)):
        _draft(manager)["attrs"][attr] += step


def _next_if_fine(part: str, target: State) -> Act:
    """«Next» once the engine finds nothing blocking in this part of the sheet."""

    async def act(manager: DialogManager) -> None:
        if not refused(manager, _ruled(rules.blocking)(manager, part)):
            await manager.switch_to(target)

    return act


# --- clichés (``Records``: name, dice, description, card) and their tools ---------------------

CLICHES = Records(
    "cliches", ("cl_name", "cl_dice", "cl_desc"), lambda m: _draft(m)["cliches"],
    lambda name: rules.new_cliche(name).model_dump(mode="json"), _ruled(rules.cliche_refusal),
    card="card",
)  # fmt: skip


_dice, _desc = CLICHES.stepper("dice", _ruled(rules.dice_refusal)), CLICHES.setter("description")
_tools = CLICHES.within("tools")


def _tools_full(manager: DialogManager) -> list[Violation]:
    item = CLICHES.current(manager)
    return rules.tool_refusal(Cliche.model_validate(item)) if item else []


async def _cycle_effect(manager: DialogManager, index: int) -> None:
    tool = _tools(manager)[index]
    tool["when_missing"] = rules.next_effect(ToolEffect(tool["when_missing"])).value


async def _tools_done(manager: DialogManager) -> None:
    back = manager.dialog_data.get("tools_back") == "card" and CLICHES.current(manager) is not None
    await manager.switch_to(S.card if back else S.tools)


# --- window data ---------------------------------------------------------------------------


def _cliche_data(t: Translator, item: dict[str, Any] | None) -> dict[str, Any]:
    """The cliché at hand, for its parts' windows, its card and its tools (an empty one
    elsewhere)."""
    cliche = Cliche.model_validate(item) if item else Cliche(name="", dice=0)
    name, tools = esc(cliche.name), cliche.tools
    lines = [f"{i}. " + sheet_view.tool_line(t, tool) for i, tool in enumerate(tools, start=1)]
    return {
        "cliche": name,
        "dice": cliche.dice,
        "dice_line": t.plural(  # «1 die», not «1 dice»
            "«{cliche}»: <b>{n}</b> die", "«{cliche}»: <b>{n}</b> dice", cliche.dice, cliche=name
        ),
        "description": esc(cliche.description),
        "card": "\n".join(sheet_view.cliche_lines(t, cliche)),
        "tool_list": "\n".join(lines) if lines else t("No tools yet."),
        "tool_items": [
            {"i": i, "n": i + 1, "name": tool.name, "effect": effect_label(t, tool.when_missing)}
            for i, tool in enumerate(tools)
        ],
    }


async def _getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    manager = dialog_manager
    d, t = _draft(manager), manager.middleware_data["t"]
    options, locale = _options(manager), locale_of(manager)
    hooks, sheet = d["hooks"], draft.character(d)
    return {
        "name": esc(d.get("name") or ""),
        **options.model_dump(),  # the game's numbers, as the texts name them
        "points_left": options.attribute_points - sum(d["attrs"].values()),
        **{f"{a}_v": d["attrs"][a] for a in draft.ATTRS},
        "budget": sheet_view.budget_line(t, sheet, options),
        "cliche_list": sheet_view.cliche_summary(t, sheet),
        "tools_list": sheet_view.cliche_summary(t, sheet, with_tools=True),
        "cliche_items": [{**c, "i": i, "n": len(c["tools"])} for i, c in enumerate(d["cliches"])],
        "warnings": violations_text(rules.warnings(sheet, options, "cliches"), locale),
        **_cliche_data(t, CLICHES.current(manager)),
        "hook_list": "\n".join(f"{i}. {sheet_view.short(h)}" for i, h in enumerate(hooks, start=1))
        or t("No hooks yet."),
        "hook_items": [{"i": i, "n": i + 1} for i in range(len(hooks))],
        "backstory": esc(d.get("backstory") or ""),
    }


# --- windows ---------------------------------------------------------------------------------

NEXT, BACK = N_("Next ▶️"), N_("◀️ Back")
NAME_REFUSAL = N_("The name must be one line of 1 to {limit} characters.")
REVIEWABLE = ("name", "attrs", "cliches", "tools", "hooks")  # they offer «👁 Preview» once seen
To = State | Act


def _nav(back: To, *more: Keyboard) -> Row:
    return Row(go(BACK, "bk", back), *more)


def _skip_keep(filled: str, to: To) -> list[Keyboard]:
    """«Skip» while the step is empty, «Keep» once it holds an answer."""
    return [go(N_("Skip ▶️"), "sk", to, when=~F[filled]), go(N_("Keep ▶️"), "kp", to, filled)]


def _window(state: State) -> Window:
    """A step's window (``own_window``: the last refusal once, a message it cannot take
    answered) and, once the preview sent the player back, «👁 Preview» on the main steps, so a
    fix is one tap away from it again."""
    key = state.state.split(":")[-1]
    back = [SwitchTo(T("👁 Preview"), id="pv", state=S.preview, when="review")]
    extra = back if key in REVIEWABLE else []
    return own_window(*_widgets()[key], *extra, state=state, getter=_getter)


def _widgets() -> dict[str, tuple[Any, ...]]:
    """Each step's texts and buttons, by its key."""
    hooks: Entries = lambda m: _draft(m)["hooks"]  # noqa: E731
    to_list, to_dice = CLICHES.onward(), CLICHES.onward("cl_dice")
    open_card, open_tools = CLICHES.opener(), CLICHES.opener("tools_of", tools_back="tools")
    cycle = indexed(_tools, _cycle_effect)
    add_tool = appender(_tools, _tools_full, lambda name: Tool(name=name).model_dump(mode="json"))
    add_hook = appender(hooks, lambda m: rules.hook_refusal(_sheet(m)))
    story = answered("backstory", "preview")
    own_tools: Act = lambda m: CLICHES.open(m, CLICHES.at(m), "tools_of", tools_back="card")  # noqa: E731
    return {
        "name": (
            T("<b>New character — Firefly (clichés)</b>"),
            T("What is your character's name? Type it (up to 64 characters)."),
            T("/cancel stops the wizard at any step."),
            T("Now: <b>{name}</b>. Type another name or press Next.", when="name"),
            typed("nm", NAME_REFUSAL, answered("name", "attrs")),
            go(NEXT, "nx", S.attrs, when="name"),
        ),
        "attrs": (
            T("<b>Attributes</b>"),
            T(
                "Spread {attribute_points} points between Physical, Mental and Social, "
                "{attribute_min} to {attribute_max} each. They describe the character; the "
                "rules give them no dice."
            ),
            T("Points left: <b>{points_left}</b>"),
            counter("a0m", T("Physical: {physical_v}"), "a0", "a0p", _attr_step),
            counter("a1m", T("Mental: {mental_v}"), "a1", "a1p", _attr_step),
            counter("a2m", T("Social: {social_v}"), "a2", "a2p", _attr_step),
            _nav(S.name, go(NEXT, "nx", _next_if_fine("attributes", S.cliches))),
        ),
        "cliches": (
            T("<b>Clichés</b>"),
            T(
                "A cliché is a role or knack rolled as d6: Soldier, Hacker, Gambler. At creation "
                "each has 1 to {creation_cap} dice, at most {max_at_cap} clichés have "
                "{creation_cap}, and at least one has {novice_threshold} or more. Tap a cliché "
                "to change it."
            ),
            Format("\n{cliche_list}\n"),
            Format("{budget}"),
            Format("{warnings}", when="warnings"),
            Column(pick("{item[name]} ({item[dice]})", "cl", "cliche_items", open_card)),
            go(N_("➕ Add a cliché"), "add", CLICHES.add),  # refuses past the most
            _nav(S.attrs, go(NEXT, "nx", _next_if_fine("cliches", S.tools))),
        ),
        "cl_name": (
            T("Type the cliché's name (up to 64 characters), e.g. <i>Soldier</i>, <i>Hacker</i>."),
            T("Now: <b>{cliche}</b>.", when="cliche"),
            typed("cn", NAME_REFUSAL, CLICHES.named(_ruled(rules.name_refusal))),
            go(BACK, "bk", to_list),
        ),
        "cl_dice": (
            T("How many dice does «{cliche}» have? Use ➖ and ➕."),
            Format("{dice_line}"),
            Format("{budget}"),
            counter("dm", Format("🎲 {dice}"), "dv", "dp", _dice),
            _nav(to_list, go(NEXT, "nx", CLICHES.onward("cl_desc"))),
        ),
        "cl_desc": (
            T(
                "Describe «{cliche}» in one message: who they are, what they can do "
                "(up to 500 characters)."
            ),
            T("Now: {description}", when="description"),
            typed("cd", N_("The description must be 1 to {limit} characters."), _desc, True),
            _nav(to_dice, *_skip_keep("description", to_list)),
        ),
        "card": (
            Format("{card}"),
            Format("{budget}"),
            T("What would you like to change?"),
            Row(go(N_("✏️ Name"), "rn", S.cl_name), go(N_("🎲 Dice"), "dc", S.cl_dice)),
            Row(go(N_("📝 Description"), "de", S.cl_desc), go(N_("🔧 Tools"), "tl", own_tools)),
            Row(
                go(N_("🗑 Delete"), "del", CLICHES.delete), go(N_("◀️ To the list"), "bk", S.cliches)
            ),
        ),
        "tools": (
            T("<b>Tools of the trade</b>"),
            T(
                "Some clichés need gear: a Soldier fights worse without his vest, a Hacker "
                "cannot hack without a laptop. Tap a cliché to list its tools, or press Next."
            ),
            Format("\n{tools_list}"),
            Column(pick("{item[name]} · 🔧 {item[n]}", "ct", "cliche_items", open_tools)),
            _nav(S.cliches, go(NEXT, "nx", S.hooks)),
        ),
        "tools_of": (
            T("Tools of the trade for «{cliche}»."),
            T(
                "Type a tool's name to add it (up to 64 characters). Tap a tool to choose what "
                "happens without it (the GM has the last word); ❌ removes it."
            ),
            Format("\n{tool_list}"),
            typed(
                "tn", N_("A tool's name must be one line of 1 to {limit} characters."), add_tool
            ),
            Column(pick("{item[n]}. {item[name]}: {item[effect]}", "te", "tool_items", cycle)),
            removers("tx", "tool_items", _tools, remover(_tools)),
            go(N_("✅ Done"), "dn", _tools_done),
        ),
        "hooks": (
            T("<b>Hooks</b>"),
            T(
                "Hooks tie the character to the world: debts, enemies, promises, secrets. Type a "
                "hook to add it, one per message (up to 500 characters); ❌ removes one. The GM "
                "may grant bonus dice for good hooks."
            ),
            Format("\n{hook_list}"),
            typed("hk", N_("A hook must be 1 to {limit} characters."), add_hook, long=True),
            removers("hx", "hook_items", hooks, remover(hooks)),
            _nav(S.tools, go(NEXT, "nx", S.backstory)),
        ),
        "backstory": (
            T("<b>Backstory</b>"),
            T(
                "Where does the character come from, what do they want? Type it in one message "
                "(up to 500 characters). The GM may grant bonus dice for a strong backstory."
            ),
            T("Now: {backstory}", when="backstory"),
            typed("bs", N_("The backstory must be 1 to {limit} characters."), story, True),
            _nav(S.hooks, *_skip_keep("backstory", S.preview)),
        ),
    }


def _step(key: str, title: str, *more: str) -> Screens:
    """A step of the module's own windows: its own, then its ``more`` (a cliché's parts)."""
    return Screens(
        key, title, "", lambda s: [_window(getattr(s, k)) for k in (key, *more)], more=more
    )


JUMPS = ("gn", "ga", "gc", "gt", "gh", "gb")  # the preview's buttons back to each step (released)
FLOW = Flow(
    name="cliche",  # states ClicheSG:<step key>, stored with a wizard in progress: keep them
    steps=(
        _step("name", N_("✏️ Name")),
        _step("attrs", N_("💪 Attributes")),
        _step("cliches", N_("🎲 Clichés"), "cl_name", "cl_dice", "cl_desc", "card"),
        _step("tools", N_("🔧 Tools"), "tools_of"),
        _step("hooks", N_("🪝 Hooks")),
        _step("backstory", N_("📜 Backstory")),
    ),
    options=ClicheOptions.model_validate,
    build=lambda d, options: draft.character(d),
    load=draft.from_sheet,
    validate=validate_character,
    render=sheet_view.render_sheet,
    upgrade=_upgrade,
    # the standard preview in the wizard's released words and ids
    wording=Wording(
        own_heads=True,
        preview_head=N_(
            "<b>Preview</b>: check the character, go back to any step, or send it to the GM."
        ),
        jump="{title}",
        buttons_only=N_("Please use the buttons, or /cancel."),
    ),
    ids={f"preview.j{i}": wid for i, wid in enumerate(JUMPS)},
)
S = ClicheSG = flow_states(FLOW)
START_STATE = S.name


def create_dialogs() -> list[Router]:
    return [build_dialog(FLOW, ClicheSG)]
