"""The ``fate`` creation wizard as a flow (seed 000, SPEC §1): four aspects typed, crossings
tied to party members, skills and gear pressed through ``engine.systems.fate.allocation``,
stunts with the refresh trade, the preview."""

from __future__ import annotations

from functools import partial
from typing import Any

from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Button, Row

from bot.i18n import N_, Translator
from engine.systems.fate import (
    EQUIPMENT_SOURCES,
    MAGIC_SCHOOLS,
    Character,
    FateOptions,
    GearItem,
    Skill,
    allocation,
    column_violations,
    equipment_points,
    gear_cost,
    ladder_label,
    signed,
    validate_character,
)
from handlers.views.sheets.fate import render_sheet, skill_name, stunt_line
from handlers.wizards import fate_draft as draft
from handlers.wizards.common import (
    NAME_MAX,
    REVIEW_KEY,
    T,
    WizardStart,
    clean_name,
    esc,
    locale_of,
    violations_text,
)
from handlers.wizards.flow import Allocate, Choice, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow import own_widgets as own
from handlers.wizards.flow.custom import (
    Custom,
    Shown,
    Typed,
    remove_last_button,
    sheet_so_far,
    step_refused,
    step_said,
    typed_input,
)
from handlers.wizards.flow.custom import draft as draft_of
from handlers.wizards.flow.kinds import DotPress, Draft
from handlers.wizards.flow.wording import Wording

SKILLS_PER_PAGE = 7  # 28 skills → 4 pages; 7 rows of −/+ still fit a phone screen
MAX_CROSSINGS = 8  # enough for a large party; keeps the message short


def _level(value: int) -> str:
    """``+2``, and ``+0`` for an untouched skill (as FATE players write it)."""
    return signed(value) if value else "+0"


def _party(manager: DialogManager) -> list[str]:
    return WizardStart.of(manager).party


# --- crossings -----------------------------------------------------------------------------------


async def _pick_partner(manager: DialogManager, index: int) -> None:
    data = draft_of(manager)
    if data.get("cross_with") == index:
        own.unchanged(manager)
        return
    data["cross_with"] = index


def _crossing(typed: Typed) -> str | None:
    data, aspect = typed.draft, clean_name(typed.text)
    if aspect is None:
        return typed.said(N_("One line, 1 to {limit} characters."), limit=NAME_MAX)
    if len(data["crossings"]) >= MAX_CROSSINGS:
        return typed.said(N_("At most {limit} crossings."), limit=MAX_CROSSINGS)
    data["crossings"] = [*data["crossings"], {"text": aspect, "with": data.get("cross_with")}]
    data["cross_with"] = None
    return None


def _crossing_data(shown: Shown) -> dict[str, Any]:
    t, data, party = shown.t, draft_of(shown.manager), _party(shown.manager)
    crossings, chosen = data.get("crossings", []), data.get("cross_with")
    names = {i: esc(name) for i, name in enumerate(party)}  # a crossing's partner, by index
    crossed = {c.get("with") for c in crossings}
    listed = "\n".join(
        f"• {esc(c['text'])}" + (f" ({names[c['with']]})" if c.get("with") in names else "")
        for c in crossings
    )
    lines = [t("\nParty: {party_names}. Tap a name, then write the aspect.",
               party_names=esc(", ".join(party))) if party
             else t("\nWrite each crossing as a message.")]  # fmt: skip
    lines.append(t("\nCrossings ({crossing_count}):\n{crossings_list}",
                   crossing_count=len(crossings), crossings_list=listed or "—"))  # fmt: skip
    if chosen in names:
        lines.append(t("Now write your crossing with <b>{who}</b>.", who=names[chosen]))
    marks = [("✓ " if i in crossed else "") + ("👉 " if i == chosen else "") for i in names]
    return {
        "lines": [line.strip("\n") for line in lines],
        "min_crossings": shown.options.min_crossings,
        "party": [{"i": i, "label": marks[i] + name} for i, name in enumerate(party)],
    }


def _crossing_widgets() -> list[Any]:
    return [
        typed_input(_crossing),
        own.pick("{item[label]}", "pt", "party", own.indexed(_party, _pick_partner)),
        remove_last_button("crossings", N_("There is no crossing to remove yet.")),
    ]


# --- skills and gear: the engine decides each press (``engine.systems.fate.allocation``) ----


def _press(rated: allocation.Rated, press: DotPress) -> Draft | str:
    assert isinstance(press.sheet, Character)
    after = allocation.step_level(press.sheet, press.options, rated, press.trait, press.delta)
    if isinstance(after, list):
        return violations_text(after, press.locale)
    return {**press.draft, **draft.levels(after, rated)}


def _skill_row(sheet: Any, options: Any, skill: str, t: Any, locale: str) -> str:
    return f"{skill_name(skill, locale)} {_level(sheet.skill(Skill(skill)))}"


def _skill_note(sheet: Any, options: Any, skill: str, locale: str) -> str:
    """A press on a skill's name says its level's ladder name (nothing changes)."""
    level = sheet.skill(Skill(skill))
    return f"{skill_name(skill, locale)}: {_level(level)} {ladder_label(level).render(locale)}"


def _column(sheet: Any, options: Any, t: Translator, locale: str) -> str:
    levels = allocation.column(sheet)
    shown = " · ".join(f"{signed(lv)}×{levels[lv]}" for lv in sorted(levels, reverse=True))
    broken = ", ".join(signed(level) for level, _count, _lower in column_violations(levels))
    verdict = (
        t("Column rule: broken at {levels}.", levels=broken) if broken else t("Column rule: fine.")
    )
    return t("\nColumn: {column}. {verdict}", column=shown or "—", verdict=verdict)[1:]


def _skill_asks(sheet: Any, options: FateOptions, t: Translator, locale: str) -> dict[str, Any]:
    return {
        "left": allocation.points_left(sheet, options),
        "total": options.skill_points,
        "cap": signed(options.max_skill_at_creation),
        "schools": ", ".join(skill_name(s.value, locale) for s in MAGIC_SCHOOLS),
    }


# --- stunts and refresh --------------------------------------------------------------------------


def _stunt(typed: Typed) -> str | None:
    stunt = allocation.parse_stunt(typed.text, NAME_MAX)
    if stunt is None:
        return typed.said(N_("Write “Name: what it does” (name up to 64 characters)."))
    if allocation.add_stunt(typed.sheet, typed.options, stunt) is None:
        return typed.said(N_("No stunt slots left: trade a refresh point for one more."))
    typed.draft["stunts"].append(stunt.model_dump(mode="json"))
    return None


async def _trade(delta: int, manager: DialogManager) -> None:
    """A refresh point traded for a stunt slot (−1), or taken back (+1)."""
    sheet, options = sheet_so_far(manager)
    after = allocation.trade_refresh(sheet, options, delta)
    if after is None:
        step_said(manager, N_("No refresh point is traded: there is none to take back."))
    elif isinstance(after, list):
        step_refused(manager, violations_text(after, locale_of(manager)))
    else:
        draft_of(manager)["refresh"] = after.refresh


def _stunt_data(shown: Shown) -> dict[str, Any]:
    sheet = shown.sheet
    assert isinstance(sheet, Character)
    return {
        "lines": ["\n".join(stunt_line(s, 120) for s in sheet.stunts) or "—"],
        "stunt_count": len(sheet.stunts),
        "allowed": allocation.stunts_allowed(sheet, shown.options),
        "refresh": sheet.refresh,
    }


def _stunt_widgets() -> list[Any]:
    # every button stays where it is whatever is typed or traded (issue 36 item 11): one that
    # cannot act now says why instead of disappearing from under the thumb
    return [
        typed_input(_stunt),
        Row(
            Button(T("−1 refresh, +1 stunt"), id="tr", on_click=own.press(partial(_trade, -1))),
            Button(T("+1 refresh, −1 stunt"), id="ut", on_click=own.press(partial(_trade, +1))),
        ),
        remove_last_button("stunts", N_("There is no stunt to remove yet.")),
    ]


# --- gear ----------------------------------------------------------------------------------------

GEAR_NAMES = {
    GearItem.MELEE.value: N_("Melee weapon"),
    GearItem.RANGED.value: N_("Ranged weapon"),
    GearItem.ARMOR.value: N_("Armor"),
}


def _gear_sources(t: Translator, locale: str) -> str:
    """Where equipment points come from, from the engine's table."""
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


def _gear_row(sheet: Any, options: Any, item: str, t: Translator, locale: str) -> str:
    return f"{t(GEAR_NAMES[item])} {getattr(sheet.equipment, item)}"


def _gear_lines(sheet: Any, options: Any, t: Translator, locale: str) -> str:
    return t("\nEquipment points come from skills (the «Skills» step): {gear_sources}.",
             gear_sources=_gear_sources(t, locale)).strip("\n")  # fmt: skip


def _gear_asks(sheet: Any, options: Any, t: Translator, locale: str) -> dict[str, Any]:
    return {"gear_cost": gear_cost(sheet.equipment), "gear_points": equipment_points(sheet)}


def _levels(key: str, title: str, prompt: str, rated: allocation.Rated, **hooks: Any) -> Allocate:
    """A page of − / + rows whose every press the engine decides."""
    ids = [*(s.value for s in Skill)] if rated == "skills" else list(GEAR_NAMES)
    traits = tuple(Choice(i, GEAR_NAMES.get(i, i)) for i in ids)
    return Allocate(
        key, title, prompt, traits, budget=lambda o: 0, cap=lambda o: 0, label_first=True,
        rule=partial(_press, rated), **hooks,
    )  # fmt: skip


# --- the flow ------------------------------------------------------------------------------------


async def _started(manager: DialogManager) -> None:
    """An approved sheet being edited opens whole, at the preview, keeping its fate points."""
    if WizardStart.of(manager).character_id is not None:
        draft_of(manager)["editing"] = True
        manager.dialog_data[REVIEW_KEY] = True
        await manager.switch_to(STATES.__states__[-1])  # the preview


def _aspect(key: str, title: str, prompt: str) -> Text:
    return Text(key, title, prompt, required=True, unfit=N_("One line, 1 to {limit} characters."))


FLOW = Flow(
    name="fate",  # states FateSG:<step key>, as the hand-written wizard stored them
    steps=(
        _aspect("name", N_("✏️ Name"),
                N_("<b>New FATE character</b>\n\nStep 1 of 8. What is the character's name?")),
        _aspect("concept", N_("✏️ Concept"), N_(
            "Step 2 of 8. <b>Concept</b>: one aspect that says who {name} is "
            "(e.g. “Disgraced court alchemist”)."
        )),
        _aspect("trouble", N_("✏️ Trouble"), N_(
            "Step 3 of 8. <b>Trouble</b>: the aspect that keeps getting {name} into trouble."
        )),
        _aspect("phase", N_("✏️ Own adventure"), N_(
            "Step 4 of 8. <b>Own adventure</b>: an aspect from the story of {name}'s own "
            "adventure."
        )),
        Custom("crossings", N_("✏️ Crossings"), N_(
            "Step 5 of 8. <b>Crossings</b>: aspects from adventures shared with other heroes, "
            "at least {min_crossings}. Preferably one per party member; with a small party, a "
            "tie to the world works too."
        ), _crossing_widgets, _crossing_data),
        _levels("skills", N_("✏️ Skills"), N_(
            "Step 6 of 8. <b>Skills</b>: {left} of {total} points left. "
            "One point raises a skill one step, up to {cap}. "
            "Each level must hold fewer skills than the level below it."
            "\nMagic schools: {schools}."
        ), "skills", page_size=SKILLS_PER_PAGE, row=_skill_row, note=_skill_note,
           counters=_column, asks=_skill_asks),
        Custom("stunts", N_("✏️ Stunts"), N_(
            "Step 7 of 8. <b>Stunts</b>: {stunt_count} of {allowed}. "
            "Write one as “Name: what it does”."
            "\nRefresh {refresh} (starting fate points = refresh): "
            "each refresh point traded "
            "gives one more stunt."
        ), _stunt_widgets, _stunt_data),
        _levels("gear", N_("✏️ Gear"), N_(
            "Step 8 of 8. <b>Gear</b>: {gear_cost} of {gear_points} equipment points spent. "
            "Melee weapon 1 point per level (up to 3), ranged 1 per level (up to 2), armor 2 "
            "per level (up to 3)."
        ), "equipment", row=_gear_row, counters=_gear_lines, asks=_gear_asks),
    ),
    options=FateOptions.model_validate,
    build=draft.build,
    load=draft.load,
    validate=validate_character,
    render=render_sheet,
    fields={
        "crossings": ("aspects.crossing",),
        "stunts": ("stunts", "refresh"),
        "gear": ("equipment",),
    },
    wording=Wording(
        nav=(N_("◀️ Back"), N_("Next ▶️"), N_("Next ▶️")),  # no step is optional
        now=N_("\nNow: <i>{current}</i>"),
        not_text=N_("Please answer with text, or /cancel."),
        buttons_only=N_("Use the buttons under this message, or /cancel."),
        jump="{title}", own_heads=True,
        preview_head=N_(
            "<b>Preview</b>. Check the sheet, change any step, then send it to the GM.\n"
        ),
    ),
    ids={"skills.d": "sk", "gear.d": "gr"},  # the − / + rows' ids, as released
    started=_started,
    upgrade=draft.upgrade,
)  # fmt: skip
STATES = flow_states(FLOW)
START_STATE = STATES.__states__[0]


def create_dialogs() -> list[Any]:
    return [build_dialog(FLOW, STATES)]
