"""Getters and callbacks of the ``matter`` wizard (the flow and its windows are in ``matter``).

The draft is the engine's ``Character`` in JSON (the flow's draft), so a restart resumes it and
a returned sheet (``WizardStart.draft``) is simply the starting value. Every rule comes from
``engine.systems.matter``: a «+» that the engine's validation refuses (over the cap, over the
budget) is not applied and its reason is shown on the same step. The game's options are
re-read from the database on each step, so a GM's /options change made while a player is in
the wizard applies at once (the submission is re-checked anyway).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from aiogram_dialog import DialogManager, ShowMode

from bot.i18n import Translator
from engine.common import errors_only
from engine.systems.matter import (
    STATES,
    Character,
    MatterAbility,
    MatterKind,
    MatterOptions,
    Skill,
    effective_trait,
    new_character,
    validate_character,
)
from handlers.views.sheets import fit
from handlers.views.sheets.matter import (
    COMBAT,
    GAUGES,
    KIND_NAMES,
    dots,
    esc,
    render_sheet,
    render_violation,
    trait_name,
    violation_lines,
)
from handlers.wizards.common import (
    NAME_MAX,
    clean_name,
    clean_text,
    finish_wizard,
    locale_of,
    tell_presser,
)
from handlers.wizards.flow import own_clear, own_draft, own_fail, own_switch
from handlers.wizards.flow.dialog import DRAFT
from handlers.wizards.flow.start import current_options, returned_sheet

logger = logging.getLogger(__name__)

PENDING: Final = "pending"  # the Matter ability being added: {"name", "kind"}
MAX_ABILITIES: Final = 6  # keeps the sheet short on a phone; the GM can add more later
NOTES_MAX: Final = 200

# --- the draft -------------------------------------------------------------------------------


def load(sheet: dict[str, Any] | None, opts: MatterOptions) -> dict[str, Any]:
    """The starting draft: a returned or edited sheet, every skill listed (0 dots if new)."""
    character = returned_sheet(Character, sheet, new_character(""))
    skills = {s: character.dots(s) for s in skill_ids(character, opts)}
    return character.model_copy(update={"skills": skills}).model_dump(mode="json")


def sheet(manager: DialogManager) -> Character:
    return Character.model_validate(own_draft(manager))


def change(manager: DialogManager, **fields: Any) -> None:
    character = sheet(manager).model_copy(update=fields)
    manager.dialog_data[DRAFT] = character.model_dump(mode="json")


def t_of(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def keep_message(manager: DialogManager) -> None:
    """Nothing visible changed: skip the re-render."""
    manager.show_mode = ShowMode.NO_UPDATE


async def options(manager: DialogManager) -> MatterOptions:
    """The game's current options (the GM may change them mid-wizard), else those at start."""
    return MatterOptions.model_validate(await current_options(manager))


def skill_ids(character: Character, opts: MatterOptions) -> list[str]:
    """Standard skills, then the GM's, then any other the draft holds (the engine flags it)."""
    ids = [s.value for s in Skill] + [s for s in opts.custom_skills if s not in set(Skill)]
    return ids + sorted(s for s in character.skills if s not in ids)


# --- getters -----------------------------------------------------------------------------------


async def named(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    return {"name": esc(sheet(dialog_manager).name)}


async def skills_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    opts = await options(dialog_manager)
    locale = locale_of(dialog_manager)
    spent = sum(max(0, d) for d in character.skills.values())
    cells: list[tuple[str, str]] = []
    table: list[str] = []
    for index, skill in enumerate(skill_ids(character, opts)):
        # The table repeats the labels: a narrow phone may cut a long label in a 3-button row.
        shown = f"{dots(character.dots(skill), opts.dot_cap)} {esc(trait_name(skill, locale))}"
        table.append(shown)
        label = f"{trait_name(skill, locale)} {dots(character.dots(skill), opts.dot_cap)}"
        cells += [(f"m{index}", "−"), (f"n{index}", label), (f"p{index}", "+")]
    return {
        "name": esc(character.name), "budget": opts.dot_budget, "cap": opts.dot_cap,
        "left": opts.dot_budget - spent, "cells": cells, "table": "\n".join(table),
    }  # fmt: skip


def _resisted_by(skill: str, locale: str) -> list[str]:
    """States whose resistance roll uses this skill (derived from the engine's state table)."""
    return [
        d.name_ru if locale == "ru" else d.name_en
        for d in STATES.values()
        if d.resist_trait == skill
    ]


def _pool(dice: int, t: Translator) -> str:
    """A pool of 0 dice is the chance roll (SPEC 5)."""
    return f"{dice}d10" if dice > 0 else t("chance roll")


async def derived_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    opts = await options(dialog_manager)
    t = t_of(dialog_manager)
    locale = locale_of(dialog_manager)
    values = [
        f"{esc(trait_name(g, locale))}: <b>{effective_trait(character, g)}"
        f"/{effective_trait(character, g + '_max')}</b>"
        for g in GAUGES
    ]
    values += [
        f"{esc(trait_name(c, locale))}: <b>{effective_trait(character, c)}</b>" for c in COMBAT
    ]
    pools = [
        f"{esc(trait_name(skill, locale))} ({_pool(effective_trait(character, skill), t)}): "
        + esc(", ".join(names))
        for skill in skill_ids(character, opts)
        if (names := _resisted_by(skill, locale))
    ]
    return {"name": esc(character.name), "values": "\n".join(values), "pools": "\n".join(pools)}


async def matter_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    t = t_of(dialog_manager)
    listed = [
        f"{i}. {esc(a.name)} <i>({esc(t(KIND_NAMES[a.kind]))})</i>"
        + (f" — {esc(a.notes)}" if a.notes else "")
        for i, a in enumerate(character.matter, 1)
    ]
    pending = dialog_manager.dialog_data.get(PENDING) or {}
    return {
        "name": esc(character.name),
        "abilities": "\n".join(listed) or t("none yet"),
        "removable": [(str(i), a.name[:24]) for i, a in enumerate(character.matter)],
        "max_abilities": MAX_ABILITIES,
        "kinds": [(k.value, t(KIND_NAMES[k])) for k in MatterKind],
        "ability": esc(pending.get("name", "")),
    }


async def preview_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    opts = await options(dialog_manager)
    locale = locale_of(dialog_manager)
    found = violation_lines(validate_character(character, opts), locale)
    # Leave room for the frame text and the problems under the sheet.
    shown = fit(render_sheet(character, t_of(dialog_manager), locale), 3000)
    return {"sheet": shown, "problems": found}


# --- callbacks -------------------------------------------------------------------------------


def name_factory(raw: str) -> str:
    name = clean_name(raw)
    if name is None:
        raise ValueError("bad name")
    return name


def notes_factory(raw: str) -> str:
    notes = clean_text(raw, NOTES_MAX)
    if notes is None:
        raise ValueError("bad notes")
    return notes


async def on_name(message: Any, widget: Any, manager: DialogManager, name: str) -> None:
    change(manager, name=name)
    await own_switch(manager, "skills", onward=True)


async def on_bad_name(message: Any, widget: Any, manager: DialogManager, error: Any) -> None:
    t = t_of(manager)
    text = t("A name is one line of 1 to {limit} characters, not starting with /.", limit=NAME_MAX)
    own_fail(manager, text)


async def on_not_text(message: Any, widget: Any, manager: DialogManager) -> None:
    own_fail(manager, t_of(manager)("Please answer with text, or /cancel."))


async def on_buttons_only(message: Any, widget: Any, manager: DialogManager) -> None:
    own_fail(manager, t_of(manager)("Please use the buttons, or /cancel."))


async def on_dot(callback: Any, widget: Any, manager: DialogManager, item_id: str) -> None:
    character = sheet(manager)
    opts = await options(manager)
    ids = skill_ids(character, opts)
    op, index = item_id[:1], int(item_id[1:])
    if index >= len(ids):
        keep_message(manager)  # a stale keyboard from before the GM changed the skills
        return
    skill, locale, t = ids[index], locale_of(manager), t_of(manager)
    if op == "n":
        names = ", ".join(_resisted_by(skill, locale)) or "—"
        text = t("{skill}: resists {states}.", skill=trait_name(skill, locale), states=names)
        tell_presser(manager, text, alert=True)
        keep_message(manager)
        return
    value = character.dots(skill) + (1 if op == "p" else -1)
    if value < 0:
        keep_message(manager)
        return
    candidate = character.model_copy(update={"skills": {**character.skills, skill: value}})
    found = errors_only(validate_character(candidate, opts)) if op == "p" else []
    refused = [v for v in found if v.field in (f"skills.{skill}", "skills")]
    if refused:  # over the cap or the budget: the engine's own words
        logger.info("matter wizard: + on %s refused by the engine", skill)
        own_fail(manager, "⛔ " + esc("\n".join(render_violation(v, locale) for v in refused)))
        return
    change(manager, skills=candidate.skills)
    own_clear(manager)


async def on_skills_done(callback: Any, button: Any, manager: DialogManager) -> None:
    found = errors_only(validate_character(sheet(manager), await options(manager)))
    problems = [v for v in found if v.field.startswith("skills")]
    if problems:
        # E.g. the GM lowered the cap after these dots were placed: stay on this step.
        own_fail(manager, violation_lines(problems, locale_of(manager)))
        return
    await own_switch(manager, "derived", onward=True)


async def on_add_ability(callback: Any, button: Any, manager: DialogManager) -> None:
    """The button stays in its place: past the most abilities it says why."""
    if len(sheet(manager).matter) >= MAX_ABILITIES:
        t = t_of(manager)
        text = t("At most {limit} abilities here; the GM can add more later.", limit=MAX_ABILITIES)
        own_fail(manager, "⛔ " + esc(text))
        return
    await own_switch(manager, "ab_name")


async def on_remove_ability(callback: Any, widget: Any, manager: DialogManager, item: str) -> None:
    character = sheet(manager)
    index = int(item)
    if index >= len(character.matter):
        keep_message(manager)  # pressed twice on a stale keyboard
        return
    change(manager, matter=character.matter[:index] + character.matter[index + 1 :])


async def on_ability_name(message: Any, widget: Any, manager: DialogManager, name: str) -> None:
    manager.dialog_data[PENDING] = {"name": name}
    await own_switch(manager, "ab_kind")


async def on_kind(callback: Any, widget: Any, manager: DialogManager, item_id: str) -> None:
    pending = manager.dialog_data.get(PENDING)
    if not pending or item_id not in {k.value for k in MatterKind}:
        await own_switch(manager, "matter")
        return
    pending["kind"] = item_id
    await own_switch(manager, "ab_notes")


async def on_bad_notes(message: Any, widget: Any, manager: DialogManager, error: Any) -> None:
    own_fail(manager, t_of(manager)("Up to {limit} characters of text, please.", limit=NOTES_MAX))


async def on_notes(message: Any, widget: Any, manager: DialogManager, notes: str) -> None:
    await _add_ability(manager, notes)


async def on_skip_notes(callback: Any, button: Any, manager: DialogManager) -> None:
    await _add_ability(manager, "")


async def _add_ability(manager: DialogManager, notes: str) -> None:
    pending = manager.dialog_data.pop(PENDING, None) or {}
    character = sheet(manager)
    if "name" in pending and "kind" in pending and len(character.matter) < MAX_ABILITIES:
        kind = MatterKind(pending["kind"])
        ability = MatterAbility(name=pending["name"], kind=kind, notes=notes)
        change(manager, matter=(*character.matter, ability))
    await own_switch(manager, "matter")


async def on_submit(callback: Any, button: Any, manager: DialogManager) -> None:
    character = sheet(manager)
    problems = await finish_wizard(manager, character)
    if problems:
        # The preview lists the same problems live (same engine, same options): say only
        # that nothing was sent, unless the refusal names something the list does not show.
        logger.info("matter wizard: submission refused (%d problems)", len(problems))
        shown = validate_character(character, await options(manager))
        lines = violation_lines([p for p in problems if p not in shown], locale_of(manager))
        note = t_of(manager)("⛔ Not sent: fix the problems above first.")
        own_fail(manager, "\n".join(x for x in (lines, note) if x))
