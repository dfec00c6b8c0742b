"""Character-creation wizard for the ``fate`` system (seed 000, SPEC §1 "Character creation").

Steps, in the seed's order: name → concept → trouble → own adventure (phase) → crossings →
skills (30 points, pages of 7 with −/+) → stunts (and the refresh trade) → gear → preview.
The preview jumps back to any step; after such an edit the wizard returns to the preview.
Every rule comes from ``engine.systems.fate``: a press that the engine refuses leaves the draft
unchanged and the window shows the engine's reason; leaving a step checks that step's rules.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Router
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import DialogManager, ShowMode, Window
from aiogram_dialog.widgets.input import MessageInput, TextInput
from aiogram_dialog.widgets.kbd import (
    Button,
    Cancel,
    ListGroup,
    NextPage,
    PrevPage,
    Row,
    Select,
    SwitchTo,
)
from aiogram_dialog.widgets.text import Const, Format

from bot.i18n import Translator
from engine.common import Violation
from engine.systems.fate import (
    EQUIPMENT_SOURCES,
    MAGIC_SCHOOLS,
    FateOptions,
    GearItem,
    Skill,
    column_violations,
    equipment_points,
    gear_cost,
    ladder_label,
    signed,
    validate_character,
)
from handlers.views.sheets import fit
from handlers.views.sheets.fate import render_sheet, short, skill_name
from handlers.wizards import fate_draft as draft
from handlers.wizards.common import (
    NAME_MAX,
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
    tell_presser,
    violations_text,
)

logger = logging.getLogger(__name__)

OnPress = Callable[[CallbackQuery, Any, DialogManager], Awaitable[None]]

PREVIEW_ROOM = 3500  # of Telegram's 4,096: the rest is the header and a refusal
SKILLS_PER_PAGE = 7  # 28 skills → 4 pages; 7 rows of −/+ still fit a phone screen


class FateSG(StatesGroup):
    name = State()
    concept = State()
    trouble = State()
    phase = State()
    crossings = State()
    skills = State()
    stunts = State()
    gear = State()
    preview = State()


START_STATE = FateSG.name
# the draft key a free-text step fills, by state
_TEXT_KEYS = {
    FateSG.name.state: "name",
    FateSG.concept.state: "concept",
    FateSG.trouble.state: "trouble",
    FateSG.phase.state: "phase",
}


def _level(value: int) -> str:
    """``+2``, and ``+0`` for an untouched skill (as FATE players write it)."""
    return signed(value) if value else "+0"


# --- state helpers -------------------------------------------------------------------------------


def _snapshot(manager: DialogManager) -> str:
    return _here(manager) + json.dumps(manager.dialog_data, sort_keys=True, default=str)


def quiet(handler: OnPress) -> OnPress:
    """Skip the re-render when a press changed nothing (a repeated refusal, − at +0).

    Why: the outbound middleware turns Telegram's "message is not modified" into ``True``,
    and aiogram-dialog then fails reading that ``True`` as the edited message.
    """

    @functools.wraps(handler)
    async def wrapped(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        before = _snapshot(manager)
        await handler(callback, widget, manager)
        if manager.has_context() and _snapshot(manager) == before:
            manager.show_mode = ShowMode.NO_UPDATE

    return wrapped


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def _options(manager: DialogManager) -> FateOptions:
    return draft.options_of(WizardStart.of(manager).options)


def _here(manager: DialogManager) -> str:
    state = manager.current_context().state
    return str(state.state)


def _fail(manager: DialogManager, text: str) -> None:
    """Show ``text`` (already escaped) on the current step until the next good answer."""
    refuse(manager, text)
    manager.dialog_data.update(error=text, error_at=_here(manager))


def _refuse(manager: DialogManager, violations: list[Violation]) -> None:
    _fail(manager, violations_text(violations, locale_of(manager)))


def _ok(manager: DialogManager) -> None:
    manager.dialog_data["error"] = ""


async def _advance(manager: DialogManager) -> None:
    """The next step; straight back to the preview when the player came from there."""
    _ok(manager)
    if manager.dialog_data.get("review"):
        await manager.switch_to(FateSG.preview)
    else:
        await manager.next()
    if _here(manager) == FateSG.preview.state:
        manager.dialog_data["review"] = True


async def on_start(start_data: Any, manager: DialogManager) -> None:
    start = WizardStart.of(manager)
    editing = start.character_id is not None
    options = draft.options_of(start.options)
    draft.init_data(manager.dialog_data, options, start.draft, editing=editing)
    if start.draft:
        # a returned or edited sheet: show it whole; the player jumps to what should change
        manager.dialog_data["review"] = True
        await manager.switch_to(FateSG.preview)


# --- free-text steps -----------------------------------------------------------------------------


def _bad_line(manager: DialogManager) -> None:
    t = _t(manager)
    _fail(manager, esc(t("One line, 1 to {limit} characters.").format(limit=NAME_MAX)))


def _line_handler(key: str) -> Any:  # TextInput's on_success (generic over its type)
    """Name and the three single aspects: one line each (``clean_name``)."""

    async def got(message: Message, widget: Any, manager: DialogManager, text: str) -> None:
        line = clean_name(text)
        if line is None:
            _bad_line(manager)
            return
        manager.dialog_data[key] = line
        await _advance(manager)

    return got


@quiet
async def keep(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    await _advance(manager)


async def not_text(message: Message, widget: Any, manager: DialogManager) -> None:
    t = _t(manager)
    _fail(manager, esc(t("Please answer with text, or /cancel.")))


async def use_buttons(message: Message, widget: Any, manager: DialogManager) -> None:
    t = _t(manager)
    _fail(manager, esc(t("Use the buttons under this message, or /cancel.")))


# --- crossings -----------------------------------------------------------------------------------


async def pick_partner(
    callback: CallbackQuery, widget: Any, manager: DialogManager, item_id: str
) -> None:
    party = WizardStart.of(manager).party
    index = int(item_id)
    if not 0 <= index < len(party) or manager.dialog_data.get("cross_with") == index:
        manager.show_mode = ShowMode.NO_UPDATE  # nothing to change (see ``quiet``)
        return
    manager.dialog_data["cross_with"] = index
    _ok(manager)


async def got_crossing(message: Message, widget: Any, manager: DialogManager, text: str) -> None:
    data = manager.dialog_data
    aspect = clean_name(text)
    if aspect is None:
        _bad_line(manager)
        return
    if len(data["crossings"]) >= draft.MAX_CROSSINGS:
        limit, t = draft.MAX_CROSSINGS, _t(manager)
        _fail(manager, esc(t("At most {limit} crossings.").format(limit=limit)))
        return
    data["crossings"] = [*data["crossings"], {"text": aspect, "with": data.get("cross_with")}]
    data["cross_with"] = None
    _ok(manager)


@quiet
async def drop_crossing(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    if not manager.dialog_data["crossings"]:
        _fail(manager, esc(_t(manager)("There is no crossing to remove yet.")))
        return
    manager.dialog_data["crossings"] = manager.dialog_data["crossings"][:-1]
    _ok(manager)


@quiet
async def crossings_done(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    found = draft.problems(manager.dialog_data, _options(manager), ("aspects.crossing",))
    if found:
        _refuse(manager, found)
        return
    await _advance(manager)


# --- skills --------------------------------------------------------------------------------------


def _skill_step(delta: int) -> OnPress:
    @quiet
    async def step(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        skill = Skill(manager.item_id)  # type: ignore[attr-defined]  # a ListGroup row
        refused = draft.step_skill(manager.dialog_data, _options(manager), skill, delta)
        if refused:
            _refuse(manager, refused)
        else:
            _ok(manager)

    return step


@quiet
async def skill_info(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    """The row's name button: say the level's ladder name (a toast; nothing changes)."""
    skill = Skill(manager.item_id)  # type: ignore[attr-defined]
    level = int(manager.dialog_data["skills"].get(skill.value, 0))
    locale = locale_of(manager)
    tell_presser(
        manager,
        f"{skill_name(skill.value, locale)}: {_level(level)} {ladder_label(level).render(locale)}",
    )


@quiet
async def skills_done(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    found = draft.problems(manager.dialog_data, _options(manager), ("skills",))
    if found:
        _refuse(manager, found)
        return
    await _advance(manager)


# --- stunts and refresh --------------------------------------------------------------------------


def _split_stunt(text: str) -> tuple[str, str] | None:
    """``Name: what it does`` (or just a name) → (name, description)."""
    head, sep, tail = text.partition(":")
    name = clean_name(head)
    if name is None:
        return None
    if not sep:
        return name, ""
    description = clean_text(tail) if tail.strip() else ""
    return None if description is None else (name, description)


async def got_stunt(message: Message, widget: Any, manager: DialogManager, text: str) -> None:
    data, t = manager.dialog_data, _t(manager)
    parsed = _split_stunt(text)
    if parsed is None:
        _fail(manager, esc(t("Write “Name: what it does” (name up to 64 characters).")))
        return
    if len(data["stunts"]) >= min(draft.MAX_STUNTS, draft.stunts_allowed(data, _options(manager))):
        _fail(manager, esc(t("No stunt slots left: trade a refresh point for one more.")))
        return
    data["stunts"] = [*data["stunts"], {"name": parsed[0], "description": parsed[1]}]
    _ok(manager)


@quiet
async def drop_stunt(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    if not manager.dialog_data["stunts"]:
        _fail(manager, esc(_t(manager)("There is no stunt to remove yet.")))
        return
    manager.dialog_data["stunts"] = manager.dialog_data["stunts"][:-1]
    _ok(manager)


@quiet
async def trade_refresh(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    """−1 refresh, +1 stunt slot (down to the game's minimum refresh)."""
    data, options = manager.dialog_data, _options(manager)
    if int(data["refresh"]) > options.min_refresh:
        data["refresh"] = int(data["refresh"]) - 1
        _ok(manager)
    else:
        candidate = {**data, "refresh": int(data["refresh"]) - 1}
        _refuse(manager, draft.problems(candidate, options, ("refresh",)))


@quiet
async def untrade_refresh(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    """+1 refresh back, if the stunts still fit the smaller allowance."""
    data, options = manager.dialog_data, _options(manager)
    if int(data["refresh"]) >= options.base_refresh:
        _fail(manager, esc(_t(manager)("No refresh point is traded: there is none to take back.")))
        return
    candidate = {**data, "refresh": int(data["refresh"]) + 1}
    found = draft.problems(candidate, options, ("stunts", "refresh"))
    if found:
        _refuse(manager, found)
        return
    data["refresh"] = candidate["refresh"]
    _ok(manager)


@quiet
async def stunts_done(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    found = draft.problems(manager.dialog_data, _options(manager), ("stunts", "refresh"))
    if found:
        _refuse(manager, found)
        return
    await _advance(manager)


# --- gear ----------------------------------------------------------------------------------------


def _gear_step(delta: int) -> OnPress:
    @quiet
    async def step(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        item = GearItem(manager.item_id)  # type: ignore[attr-defined]
        refused = draft.step_gear(manager.dialog_data, _options(manager), item, delta)
        if refused:
            _refuse(manager, refused)
        else:
            _ok(manager)

    return step


async def _nothing(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    """A label button: pressing it changes nothing."""


@quiet
async def gear_done(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    found = draft.problems(manager.dialog_data, _options(manager), ("equipment",))
    if found:
        _refuse(manager, found)
        return
    await _advance(manager)


# --- preview -------------------------------------------------------------------------------------


@quiet
async def submit(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    character = draft.build(manager.dialog_data)
    game_id = WizardStart.of(manager).game_id
    problems = await finish_wizard(manager, character)  # closes the dialog when accepted
    if problems:
        _refuse(manager, problems)
        return
    logger.info("fate character submitted for game %s", game_id)


# --- window data ---------------------------------------------------------------------------------


async def getter(dialog_manager: DialogManager, **kwargs: Any) -> dict[str, Any]:
    manager = dialog_manager
    data, options, t = manager.dialog_data, _options(manager), _t(manager)
    locale = locale_of(manager)
    error = data.get("error") if data.get("error_at") == _here(manager) else ""
    return {
        "name": esc(data.get("name", "")),
        "concept": esc(data.get("concept", "")),
        "trouble": esc(data.get("trouble", "")),
        "phase": esc(data.get("phase", "")),
        "current": esc(data.get(_TEXT_KEYS.get(_here(manager), ""), "")),
        "error": f"\n\n{error}" if error else "",
        **_crossing_data(manager, t),
        **_skill_data(data, options, t, locale),
        **(await _page_data(manager)),
        **_stunt_data(data, options),
        **_gear_data(data, t, locale),
        **(
            _preview_data(data, options, t, locale)
            if _here(manager) == FateSG.preview.state
            else {}
        ),
    }


def _crossing_data(manager: DialogManager, t: Translator) -> dict[str, Any]:
    data, party = manager.dialog_data, WizardStart.of(manager).party
    crossings = data.get("crossings", [])
    crossed = {c["with"] for c in crossings if c.get("with") is not None}
    chosen = data.get("cross_with")

    def mark(i: int) -> str:
        return ("✓ " if i in crossed else "") + ("👉 " if i == chosen else "")

    lines = []
    for c in crossings:
        who = c.get("with")
        suffix = f" ({esc(party[who])})" if who is not None and who < len(party) else ""
        lines.append(f"• {esc(c['text'])}{suffix}")
    target = esc(party[chosen]) if chosen is not None and chosen < len(party) else ""
    return {
        "crossings_list": "\n".join(lines) or "—",
        "crossing_count": len(crossings),
        "has_crossings": bool(crossings),
        "min_crossings": _options(manager).min_crossings,
        "party": [{"i": str(i), "label": mark(i) + name} for i, name in enumerate(party)],
        "has_party": bool(party),
        "party_names": esc(", ".join(party)) or "—",
        "target": (
            t("Now write your crossing with <b>{who}</b>.").format(who=target) if target else ""
        ),
    }


async def _page_data(manager: DialogManager) -> dict[str, Any]:
    """The skills page shown between the arrows."""
    scroll = manager.find("sk") if _here(manager) == FateSG.skills.state else None
    page = await scroll.get_page() if scroll is not None else 0
    return {"page": page + 1, "pages": -(-len(Skill) // SKILLS_PER_PAGE)}


# a pager's ``when`` sees the pager's own data; the arrows hide at the ends, where a press
# would change nothing (see ``quiet``)
def _not_first(data: dict[str, Any], widget: Any, manager: DialogManager) -> bool:
    return bool(data["current_page"] > 0)


def _not_last(data: dict[str, Any], widget: Any, manager: DialogManager) -> bool:
    return bool(data["current_page"] < data["pages"] - 1)


def _skill_data(
    data: dict[str, Any], options: FateOptions, t: Translator, locale: str
) -> dict[str, Any]:
    skills = data.get("skills", {})
    rows = [
        {"id": s.value, "label": f"{skill_name(s.value, locale)} {_level(skills.get(s.value, 0))}"}
        for s in Skill
    ]
    levels = draft.column(data)
    shown = " · ".join(f"{signed(lv)}×{levels[lv]}" for lv in sorted(levels, reverse=True))
    broken = column_violations(levels)
    verdict = (
        t("Column rule: broken at {levels}.").format(
            levels=", ".join(signed(level) for level, _count, _lower in broken)
        )
        if broken
        else t("Column rule: fine.")
    )
    return {
        "skill_rows": rows,
        "left": draft.points_left(data, options),
        "total": options.skill_points,
        "cap": signed(options.max_skill_at_creation),
        "column": shown or "—",
        "verdict": verdict,
        "schools": ", ".join(skill_name(s.value, locale) for s in MAGIC_SCHOOLS),
    }


def _stunt_data(data: dict[str, Any], options: FateOptions) -> dict[str, Any]:
    stunts = data.get("stunts", [])
    lines = [
        f"• <b>{esc(s['name'])}</b>"
        + (f" — {esc(short(s['description'], 120))}" if s["description"] else "")
        for s in stunts
    ]
    refresh = int(data.get("refresh", options.base_refresh))
    return {
        "stunts_list": "\n".join(lines) or "—",
        "stunt_count": len(stunts),
        "allowed": draft.stunts_allowed(data, options),
        "refresh": refresh,
        "has_stunts": bool(stunts),
        "can_trade": refresh > options.min_refresh,
        "can_untrade": refresh < options.base_refresh,
    }


def _gear_sources(t: Translator, locale: str) -> str:
    """Where equipment points come from, from the engine's table (issue 36 item 11)."""
    parts = []
    for per, skills in EQUIPMENT_SOURCES:
        names = ", ".join(skill_name(s.value, locale) for s in skills)
        if per == 1:
            parts.append(t("{skills}: 1 per level", skills=names))
        else:
            parts.append(
                t.plural("{skills}: 1 per {n} level", "{skills}: 1 per {n} levels", per,
                         skills=names)
            )  # fmt: skip
    return "; ".join(parts)


def _gear_data(data: dict[str, Any], t: Translator, locale: str) -> dict[str, Any]:
    gear = data.get("gear", {})
    names = {
        GearItem.MELEE: t("Melee weapon"),
        GearItem.RANGED: t("Ranged weapon"),
        GearItem.ARMOR: t("Armor"),
    }
    character = draft.build(data)
    return {
        "gear_rows": [
            {"id": g.value, "label": f"{names[g]} {gear.get(g.value, 0)}"} for g in draft.GEAR
        ],
        "gear_cost": gear_cost(character.equipment),
        "gear_points": equipment_points(character),
        "gear_sources": _gear_sources(t, locale),
    }


def _preview_data(
    data: dict[str, Any], options: FateOptions, t: Translator, locale: str
) -> dict[str, Any]:
    character = draft.build(data)
    violations = validate_character(character, options)
    sheet = render_sheet(character, t, locale)
    notes = violations_text(violations, locale)
    # the problems must stay visible: a very long sheet is cut instead
    room = PREVIEW_ROOM - len(notes)
    return {"sheet": fit(sheet, room) + ("\n\n" + notes if notes else "")}


# --- windows -------------------------------------------------------------------------------------


def _nav(back: State | None, ok_when: str | None = None, on_next: Any = keep) -> Row:
    buttons: list[Any] = []
    if back is not None:
        buttons.append(SwitchTo(T("◀️ Back"), id="bk", state=back))
    buttons.append(Button(T("Next ▶️"), id="nx", on_click=on_next, when=ok_when))
    return Row(*buttons)


def _text_window(state: State, prompt: T, back: State | None, key: str) -> Window:
    return Window(
        prompt,
        T("\nNow: <i>{current}</i>", when="current"),
        Format("{error}"),
        TextInput(id="in", on_success=_line_handler(key)),
        MessageInput(not_text),
        _nav(back, ok_when="current"),
        Cancel(T("✖️ Cancel")),
        state=state,
    )


def _windows() -> list[Window]:
    return [
        _text_window(
            FateSG.name,
            T("<b>New FATE character</b>\n\nStep 1 of 8. What is the character's name?"),
            None, "name",
        ),
        _text_window(
            FateSG.concept,
            T(
                "Step 2 of 8. <b>Concept</b>: one aspect that says who {name} is "
                "(e.g. “Disgraced court alchemist”)."
            ),
            FateSG.name, "concept",
        ),
        _text_window(
            FateSG.trouble,
            T("Step 3 of 8. <b>Trouble</b>: the aspect that keeps getting {name} into trouble."),
            FateSG.concept, "trouble",
        ),
        _text_window(
            FateSG.phase,
            T(
                "Step 4 of 8. <b>Own adventure</b>: an aspect from the story of {name}'s own "
                "adventure."
            ),
            FateSG.trouble, "phase",
        ),
        _crossings_window(),
        _skills_window(),
        _stunts_window(),
        _gear_window(),
        _preview_window(),
    ]  # fmt: skip


def _crossings_window() -> Window:
    return Window(
        T(
            "Step 5 of 8. <b>Crossings</b>: aspects from adventures shared with other heroes, "
            "at least {min_crossings}. Preferably one per party member; with a small party, a "
            "tie to the world works too."
        ),
        T("\nParty: {party_names}. Tap a name, then write the aspect.", when="has_party"),
        T("\nCrossings ({crossing_count}):\n{crossings_list}"),
        Format("{target}"),
        Format("{error}"),
        TextInput(id="in", on_success=got_crossing),
        MessageInput(not_text),
        Select(
            Format("{item[label]}"), id="pt", item_id_getter=lambda x: x["i"], items="party",
            on_click=pick_partner,
        ),
        Button(T("↩️ Remove last"), id="rm", on_click=drop_crossing),  # put, whatever is typed
        _nav(FateSG.phase, on_next=crossings_done),
        Cancel(T("✖️ Cancel")),
        state=FateSG.crossings,
    )  # fmt: skip


def _skills_window() -> Window:
    return Window(
        T(
            "Step 6 of 8. <b>Skills</b>: {left} of {total} points left. One point raises a "
            "skill one step, up to {cap}. Each level must hold fewer skills than the level "
            "below it.\nMagic schools: {schools}."
        ),
        T("\nColumn: {column}. {verdict}"),
        Format("{error}"),
        ListGroup(
            Row(
                Button(Format("{item[label]}"), id="n", on_click=skill_info),
                Button(Format("−"), id="m", on_click=_skill_step(-1)),
                Button(Format("+"), id="p", on_click=_skill_step(+1)),
            ),
            id="sk", item_id_getter=lambda x: x["id"], items="skill_rows",
            page_size=SKILLS_PER_PAGE,
        ),
        Row(
            PrevPage(scroll="sk", text=Const("⬅️"), when=_not_first),
            Button(Format("{page}/{pages}"), id="pg", on_click=quiet(_nothing)),
            NextPage(scroll="sk", text=Const("➡️"), when=_not_last),
        ),
        MessageInput(use_buttons),
        _nav(FateSG.crossings, on_next=skills_done),
        Cancel(T("✖️ Cancel")),
        state=FateSG.skills,
    )  # fmt: skip


def _stunts_window() -> Window:
    return Window(
        T(
            "Step 7 of 8. <b>Stunts</b>: {stunt_count} of {allowed}. Write one as "
            "“Name: what it does”.\nRefresh {refresh} (starting fate points = refresh): each "
            "refresh point traded gives one more stunt."
        ),
        Format("\n{stunts_list}"),
        Format("{error}"),
        TextInput(id="in", on_success=got_stunt),
        MessageInput(not_text),
        # every button stays where it is whatever is typed or traded (issue 36 item 11): one
        # that cannot act now says why instead of disappearing from under the thumb
        Row(
            Button(T("−1 refresh, +1 stunt"), id="tr", on_click=trade_refresh),
            Button(T("+1 refresh, −1 stunt"), id="ut", on_click=untrade_refresh),
        ),
        Button(T("↩️ Remove last"), id="rm", on_click=drop_stunt),
        _nav(FateSG.skills, on_next=stunts_done),
        Cancel(T("✖️ Cancel")),
        state=FateSG.stunts,
    )  # fmt: skip


def _gear_window() -> Window:
    return Window(
        T(
            "Step 8 of 8. <b>Gear</b>: {gear_cost} of {gear_points} equipment points spent. "
            "Melee weapon 1 point per level (up to 3), ranged 1 per level (up to 2), armor 2 "
            "per level (up to 3)."
        ),
        T("\nEquipment points come from skills (the «Skills» step): {gear_sources}."),
        Format("{error}"),
        ListGroup(
            Row(
                Button(Format("{item[label]}"), id="n", on_click=quiet(_nothing)),
                Button(Format("−"), id="m", on_click=_gear_step(-1)),
                Button(Format("+"), id="p", on_click=_gear_step(+1)),
            ),
            id="gr", item_id_getter=lambda x: x["id"], items="gear_rows",
        ),
        MessageInput(use_buttons),
        _nav(FateSG.stunts, on_next=gear_done),
        Cancel(T("✖️ Cancel")),
        state=FateSG.gear,
    )  # fmt: skip


def _preview_window() -> Window:
    jumps = [
        (T("✏️ Name"), FateSG.name),
        (T("✏️ Concept"), FateSG.concept),
        (T("✏️ Trouble"), FateSG.trouble),
        (T("✏️ Own adventure"), FateSG.phase),
        (T("✏️ Crossings"), FateSG.crossings),
        (T("✏️ Skills"), FateSG.skills),
        (T("✏️ Stunts"), FateSG.stunts),
        (T("✏️ Gear"), FateSG.gear),
    ]
    buttons = [SwitchTo(label, id=f"j{i}", state=state) for i, (label, state) in enumerate(jumps)]
    return Window(
        T(
            "<b>Preview</b>. Check the sheet, change any step, then send it to the GM.\n",
            when=for_a_player,
        ),
        npc_preview_head(),
        Format("{sheet}"),
        Format("{error}"),
        MessageInput(use_buttons),
        *(Row(*buttons[i : i + 2]) for i in range(0, len(buttons), 2)),  # phone-width rows
        submit_button("✅ Send to the GM", submit),
        Cancel(T("✖️ Cancel")),
        state=FateSG.preview,
    )


def create_dialogs() -> list[Router]:
    return [WizardDialog(*_windows(), on_start=on_start, getter=getter)]
