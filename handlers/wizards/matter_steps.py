"""Getters and callbacks of the ``matter`` wizard (the flow and its windows are in ``matter``).

The draft is the engine's ``Character`` in JSON. Every rule is the engine's
(``engine.systems.matter.creation``): a dot it refuses (over the cap, over the budget) is not
applied and its reason is shown on the same step. The game's options are re-read at each step,
so a GM's /options change made mid-wizard applies at once (the submission is re-checked anyway).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final

from aiogram_dialog import DialogManager

from bot.i18n import N_, Translator
from engine.common import Violation
from engine.systems.matter import (
    Character,
    MatterAbility,
    MatterKind,
    MatterOptions,
    new_character,
    validate_character,
)
from engine.systems.matter import creation as rules
from engine.systems.matter.states import StateDef
from handlers.views.sheets.matter import (
    KIND_NAMES,
    dots,
    esc,
    render_violation,
    trait_name,
    violation_lines,
)
from handlers.wizards.common import finish_wizard, locale_of, tell_presser
from handlers.wizards.flow import own_clear, own_draft, own_fail
from handlers.wizards.flow.custom import Shown
from handlers.wizards.flow.dialog import DRAFT
from handlers.wizards.flow.own_widgets import unchanged
from handlers.wizards.flow.records import Records, refused, taken
from handlers.wizards.flow.start import current_options, returned_sheet

logger = logging.getLogger(__name__)


def load(sheet: dict[str, Any] | None, opts: MatterOptions) -> dict[str, Any]:
    """The starting draft: a returned or edited sheet, every skill listed (0 dots if new)."""
    character = returned_sheet(Character, sheet, new_character(""))
    return rules.starting_sheet(character, opts).model_dump(mode="json")


def sheet(manager: DialogManager) -> Character:
    return Character.model_validate(own_draft(manager))


def change(manager: DialogManager, character: Character) -> None:
    manager.dialog_data[DRAFT] = character.model_dump(mode="json")


def t_of(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


async def options(manager: DialogManager) -> MatterOptions:
    """The game's current options (the GM may change them mid-wizard), else those at start."""
    return MatterOptions.model_validate(await current_options(manager))


def _names(states: Sequence[StateDef], locale: str) -> str:
    return ", ".join(d.name_ru if locale == "ru" else d.name_en for d in states)


# Matter abilities, asked name → kind → notes (``flow.records``), listed on the step «matter».
ABILITIES: Final = Records(
    "matter", ("ab_name", "ab_kind", "ab_notes"), lambda m: own_draft(m)["matter"],
    lambda name: MatterAbility(name=name).model_dump(mode="json"),
    lambda m: rules.ability_refusal(sheet(m)), explain=render_violation,
)  # fmt: skip
on_kind = taken(ABILITIES.setter("kind", "ab_notes", {k.value for k in MatterKind}.__contains__))


# --- getters -----------------------------------------------------------------------------------


SKILLS: Final = N_(
    "Step 2 of 4. <b>Skills</b> of {name}: spend {budget} dots, at most {cap} per skill.\n"
    "{table}\nDots left: <b>{left}</b>. Tap a skill's name to see what it resists."
)
DERIVED: Final = N_(
    "Step 3 of 4. <b>Derived values</b> of {name} (the GM may adjust the starting "
    "gauges after approval):\n{values}"
)
RESISTANCE: Final = N_("\n<b>Resistance</b> (the skill rolled against a state):\n{pools}")


def skills_data(shown: Shown) -> dict[str, Any]:
    """The skills step: its text, and three buttons a skill (−, its name, +) as ``cells``."""
    character, opts, t, locale = shown.sheet, shown.options, shown.t, shown.locale
    cells: list[tuple[str, str]] = []
    table: list[str] = []
    for index, skill in enumerate(rules.skill_ids(character, opts)):
        # The table repeats the labels: a narrow phone may cut a long label in a 3-button row.
        bar, name = dots(character.dots(skill), opts.dot_cap), trait_name(skill, locale)
        table.append(f"{bar} {esc(name)}")
        cells += [(f"m{index}", "−"), (f"n{index}", f"{name} {bar}"), (f"p{index}", "+")]
    text = t(SKILLS, name=esc(character.name), budget=opts.dot_budget, cap=opts.dot_cap,
             left=rules.dots_left(character, opts), table="\n".join(table))  # fmt: skip
    return {"lines": [text], "cells": cells}


def derived_lines(character: Any, opts: MatterOptions, t: Translator, locale: str) -> str:
    """The values the engine derives, and which skill resists which state (with its pool)."""
    values = [f"{esc(trait_name(k, locale))}: <b>{v}</b>" for k, v in rules.derived(character)]
    pools = [_resists(r, t, locale) for r in rules.resistances(character, opts)]
    text = t(DERIVED, name=esc(character.name), values="\n".join(values))
    return text + ("\n" + t(RESISTANCE, pools="\n".join(pools)) if pools else "")


def _resists(found: rules.Resistance, t: Translator, locale: str) -> str:
    pool = f"{found.dice}d10" if found.dice > 0 else t("chance roll")  # 0 dice: SPEC 5
    return f"{esc(trait_name(found.skill, locale))} ({pool}): " + esc(_names(found.states, locale))


async def window_data(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    """What the own windows (the name's, the abilities') show."""
    character, t = sheet(dialog_manager), t_of(dialog_manager)
    listed = [
        f"{i}. {esc(a.name)} <i>({esc(t(KIND_NAMES[a.kind]))})</i>"
        + (f" — {esc(a.notes)}" if a.notes else "")
        for i, a in enumerate(character.matter, 1)
    ]
    ability = ABILITIES.current(dialog_manager) or {}
    return {
        "name": esc(character.name),
        "abilities": "\n".join(listed) or t("none yet"),
        "removable": [{"i": i, "name": a.name[:24]} for i, a in enumerate(character.matter)],
        "max_abilities": rules.MAX_ABILITIES,
        "kinds": [(k.value, t(KIND_NAMES[k])) for k in MatterKind],
        "ability": esc(ability.get("name", "")),
    }


# --- callbacks -------------------------------------------------------------------------------


async def on_dot(callback: Any, widget: Any, manager: DialogManager, item_id: str) -> None:
    character, opts = sheet(manager), await options(manager)
    ids = rules.skill_ids(character, opts)
    op, index = item_id[:1], int(item_id[1:])
    if index >= len(ids):
        return unchanged(manager)  # a stale keyboard from before the GM changed the skills
    skill, locale = ids[index], locale_of(manager)
    if op == "n":
        states = _names(rules.resisted_by(skill), locale) or "—"
        text = t_of(manager)("{skill}: resists {states}.", skill=trait_name(skill, locale),
                             states=states)  # fmt: skip
        tell_presser(manager, text, alert=True)
        return unchanged(manager)
    result = rules.press_dot(character, opts, skill, 1 if op == "p" else -1)
    if result is None:  # below zero: said in the press's answer, the window stays
        said = t_of(manager)(
            "“{skill}” has no dots to take back.", skill=trait_name(skill, locale)
        )
        tell_presser(manager, said)
        return unchanged(manager)
    if isinstance(result, list):  # over the cap or the budget: the engine's own words
        logger.info("matter wizard: + on %s refused by the engine", skill)
        refused(manager, result, render_violation)
        return
    change(manager, result)
    own_clear(manager)


async def finish(manager: DialogManager, character: Character) -> list[Violation]:
    """``Flow.finish``: submitted, or refused here in matter's words (then nothing is left
    for the flow to say)."""
    problems = await finish_wizard(manager, character)
    if problems:
        # The preview lists the same problems live (same engine, same options): say only
        # that nothing was sent, unless the refusal names something the list does not show.
        logger.info("matter wizard: submission refused (%d problems)", len(problems))
        shown = validate_character(character, await options(manager))
        lines = violation_lines([p for p in problems if p not in shown], locale_of(manager))
        note = t_of(manager)("⛔ Not sent: fix the problems above first.")
        own_fail(manager, "\n".join(x for x in (lines, note) if x))
    return []
