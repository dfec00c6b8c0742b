"""State, getters and callbacks of the ``matter`` wizard (the windows are in ``matter``).

The whole draft lives in ``dialog_data["sheet"]`` as the engine's ``Character`` in JSON, so a
restart resumes it and a returned sheet (``WizardStart.draft``) is simply the starting value.
Every rule comes from ``engine.systems.matter``: a «+» that the engine's validation refuses
(over the cap, over the budget) is not applied and its reason is shown on the same step.
The game's options are re-read from the database on each step, so a GM's /options change made
while a player is in the wizard applies at once (the submission is re-checked anyway).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import DialogManager, ShowMode
from aiogram_dialog.widgets.input import ManagedTextInput
from aiogram_dialog.widgets.kbd import Button, Select
from pydantic import ValidationError

from bot.i18n import Translator
from bot.systems import SYSTEMS
from db.uow import UnitOfWork
from engine.common import Violation, errors_only
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
    WizardStart,
    clean_name,
    clean_text,
    finish_wizard,
    locale_of,
    refuse,
    tell_presser,
)

logger = logging.getLogger(__name__)

SHEET: Final = "sheet"
ERROR: Final = "error"  # {"state": state name, "text": escaped HTML} shown on that step only
REVIEW: Final = "review"  # the preview was reached once: every step offers a way back to it
PENDING: Final = "pending"  # the Matter ability being added: {"name", "kind"}
MAX_ABILITIES: Final = 6  # keeps the sheet short on a phone; the GM can add more later
NOTES_MAX: Final = 200


class MatterSG(StatesGroup):
    name = State()
    skills = State()
    derived = State()
    matter = State()
    ab_name = State()
    ab_kind = State()
    ab_notes = State()
    preview = State()


# --- the draft -------------------------------------------------------------------------------


def sheet(manager: DialogManager) -> Character:
    return Character.model_validate(manager.dialog_data[SHEET])


def store(manager: DialogManager, character: Character) -> None:
    manager.dialog_data[SHEET] = character.model_dump(mode="json")


def t_of(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


async def options(manager: DialogManager) -> MatterOptions:
    """The game's current options (the GM may change them mid-wizard), else those at start."""
    start = WizardStart.of(manager)
    uow: UnitOfWork | None = manager.middleware_data.get("uow")
    game = await uow.games.get(start.game_id) if uow is not None else None
    raw = game.options if game is not None else start.options
    found = SYSTEMS["matter"].options(raw)
    assert isinstance(found, MatterOptions)
    return found


def skill_ids(character: Character, opts: MatterOptions) -> list[str]:
    """Standard skills, then the GM's, then any other the draft holds (the engine flags it)."""
    ids = [s.value for s in Skill] + [s for s in opts.custom_skills if s not in set(Skill)]
    return ids + sorted(s for s in character.skills if s not in ids)


def set_error(manager: DialogManager, text: str | None) -> None:
    """Show ``text`` on the current step (None clears it). A button refused twice the same way
    re-renders nothing: Telegram refuses an edit to identical content. (A wrong typed answer
    always gets the question again, as a new message.)"""
    if text:
        refuse(manager, text)
    if text and text == error_of(manager) and isinstance(manager.event, CallbackQuery):
        keep_message(manager)
        return
    state = manager.current_context().state
    manager.dialog_data[ERROR] = {"state": state.state, "text": text} if text else None


def keep_message(manager: DialogManager) -> None:
    """Nothing visible changed: skip the re-render (see ``set_error``)."""
    manager.show_mode = ShowMode.NO_UPDATE


def error_of(manager: DialogManager) -> str:
    found = manager.dialog_data.get(ERROR)
    if not found or found.get("state") != manager.current_context().state.state:
        return ""
    return str(found["text"])


async def on_start(start_data: Any, manager: DialogManager) -> None:
    start = WizardStart.of(manager)
    character = new_character("")
    if start.draft:
        try:
            character = Character.model_validate(start.draft)
        except ValidationError:
            logger.warning("returned matter sheet of game %s does not load", start.game_id)
    opts = await options(manager)
    skills = {s: character.dots(s) for s in skill_ids(character, opts)}
    store(manager, character.model_copy(update={"skills": skills}))


# --- getters -----------------------------------------------------------------------------------


async def common_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    return {
        "name": esc(character.name),
        "error": error_of(dialog_manager),
        "review": bool(dialog_manager.dialog_data.get(REVIEW)),
        "editing": WizardStart.of(dialog_manager).character_id is not None,
    }


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
        "budget": opts.dot_budget, "cap": opts.dot_cap, "left": opts.dot_budget - spent,
        "cells": cells, "table": "\n".join(table),
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
    return {"values": "\n".join(values), "pools": "\n".join(pools)}


async def matter_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    character = sheet(dialog_manager)
    t = t_of(dialog_manager)
    listed = [
        f"{i}. {esc(a.name)} <i>({esc(t(KIND_NAMES[a.kind]))})</i>"
        + (f" — {esc(a.notes)}" if a.notes else "")
        for i, a in enumerate(character.matter, 1)
    ]
    return {
        "abilities": "\n".join(listed) or t("none yet"),
        "removable": [(str(i), a.name[:24]) for i, a in enumerate(character.matter)],
        "can_add": len(character.matter) < MAX_ABILITIES,
        "max_abilities": MAX_ABILITIES,
    }


async def kind_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = t_of(dialog_manager)
    pending = dialog_manager.dialog_data.get(PENDING) or {}
    return {
        "kinds": [(k.value, t(KIND_NAMES[k])) for k in MatterKind],
        "ability": esc(pending.get("name", "")),
    }


async def preview_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    dialog_manager.dialog_data[REVIEW] = True
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


async def on_name(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, name: str
) -> None:
    store(manager, sheet(manager).model_copy(update={"name": name}))
    set_error(manager, None)
    await manager.switch_to(_after(manager, "skills"))


async def on_bad_name(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, error: ValueError
) -> None:
    t = t_of(manager)
    set_error(
        manager,
        t("A name is one line of 1 to {limit} characters, not starting with /.", limit=NAME_MAX),
    )


async def on_not_text(message: Message, widget: Any, manager: DialogManager) -> None:
    t = t_of(manager)
    set_error(manager, t("Please answer with text, or /cancel."))


async def on_buttons_only(message: Message, widget: Any, manager: DialogManager) -> None:
    t = t_of(manager)
    set_error(manager, t("Please use the buttons, or /cancel."))


def _after(manager: DialogManager, step: str) -> State:
    """The next step, or straight back to the preview when editing from there."""
    if manager.dialog_data.get(REVIEW):
        return MatterSG.preview
    found: State = getattr(MatterSG, step)
    return found


def _skill_refusals(candidate: Character, opts: MatterOptions, skill: str) -> list[Violation]:
    """Blocking problems the engine finds with this skill or with the whole budget."""
    found = errors_only(validate_character(candidate, opts))
    return [v for v in found if v.field in (f"skills.{skill}", "skills")]


async def on_dot(
    callback: CallbackQuery, widget: Any, manager: DialogManager, item_id: str
) -> None:
    character = sheet(manager)
    opts = await options(manager)
    ids = skill_ids(character, opts)
    op, index = item_id[:1], int(item_id[1:])
    if index >= len(ids):
        keep_message(manager)  # a stale keyboard from before the GM changed the skills
        return
    skill = ids[index]
    locale = locale_of(manager)
    t = t_of(manager)
    if op == "n":
        names = ", ".join(_resisted_by(skill, locale)) or "—"
        tell_presser(
            manager,
            t("{skill}: resists {states}.", skill=trait_name(skill, locale), states=names),
            alert=True,
        )
        keep_message(manager)
        return
    value = character.dots(skill) + (1 if op == "p" else -1)
    if value < 0:
        keep_message(manager)
        return
    candidate = character.model_copy(update={"skills": {**character.skills, skill: value}})
    refused = _skill_refusals(candidate, opts, skill) if op == "p" else []
    if refused:
        reason = "\n".join(render_violation(v, locale) for v in refused)
        logger.info("matter wizard: + on %s refused by the engine", skill)
        set_error(manager, "⛔ " + esc(reason))
        return
    store(manager, candidate)
    set_error(manager, None)


async def on_skills_done(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    character = sheet(manager)
    opts = await options(manager)
    problems = [
        v for v in errors_only(validate_character(character, opts)) if v.field.startswith("skills")
    ]
    if problems:
        # E.g. the GM lowered the cap after these dots were placed: stay on this step.
        set_error(manager, violation_lines(problems, locale_of(manager)))
        return
    set_error(manager, None)
    await manager.switch_to(_after(manager, "derived"))


async def on_add_ability(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    """The button stays in its place: past the most abilities it says why."""
    if len(sheet(manager).matter) >= MAX_ABILITIES:
        t = t_of(manager)
        set_error(
            manager,
            "⛔ "
            + esc(
                t(
                    "At most {limit} abilities here; the GM can add more later.",
                    limit=MAX_ABILITIES,
                )
            ),
        )
        return
    set_error(manager, None)
    await manager.switch_to(MatterSG.ab_name)


async def on_remove_ability(
    callback: CallbackQuery, widget: Select[str], manager: DialogManager, item_id: str
) -> None:
    character = sheet(manager)
    index = int(item_id)
    if index >= len(character.matter):
        keep_message(manager)  # pressed twice on a stale keyboard
        return
    kept = character.matter[:index] + character.matter[index + 1 :]
    store(manager, character.model_copy(update={"matter": kept}))


async def on_ability_name(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, name: str
) -> None:
    manager.dialog_data[PENDING] = {"name": name}
    set_error(manager, None)
    await manager.switch_to(MatterSG.ab_kind)


async def on_kind(
    callback: CallbackQuery, widget: Select[str], manager: DialogManager, item_id: str
) -> None:
    pending = manager.dialog_data.get(PENDING)
    if not pending or item_id not in {k.value for k in MatterKind}:
        await manager.switch_to(MatterSG.matter)
        return
    pending["kind"] = item_id
    await manager.switch_to(MatterSG.ab_notes)


def notes_factory(raw: str) -> str:
    notes = clean_text(raw, NOTES_MAX)
    if notes is None:
        raise ValueError("bad notes")
    return notes


async def on_notes(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, notes: str
) -> None:
    await _add_ability(manager, notes)


async def on_bad_notes(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, error: ValueError
) -> None:
    t = t_of(manager)
    set_error(manager, t("Up to {limit} characters of text, please.", limit=NOTES_MAX))


async def on_skip_notes(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    await _add_ability(manager, "")


async def _add_ability(manager: DialogManager, notes: str) -> None:
    pending = manager.dialog_data.pop(PENDING, None) or {}
    character = sheet(manager)
    if "name" in pending and "kind" in pending and len(character.matter) < MAX_ABILITIES:
        ability = MatterAbility(
            name=pending["name"], kind=MatterKind(pending["kind"]), notes=notes
        )
        store(manager, character.model_copy(update={"matter": (*character.matter, ability)}))
    set_error(manager, None)
    await manager.switch_to(MatterSG.matter)


async def on_submit(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    character = sheet(manager)
    problems = await finish_wizard(manager, character)
    if problems:
        # The preview lists the same problems live (same engine, same options): say only
        # that nothing was sent, unless the refusal names something the list does not show.
        logger.info("matter wizard: submission refused (%d problems)", len(problems))
        shown = validate_character(character, await options(manager))
        extra = [p for p in problems if p not in shown]
        lines = violation_lines(extra, locale_of(manager))
        t = t_of(manager)
        note = t("⛔ Not sent: fix the problems above first.")
        set_error(manager, "\n".join(x for x in (lines, note) if x))
