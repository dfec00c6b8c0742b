"""The ``lifegear`` ("lives = gear") creation wizard: pick a role, name the character, see the
gear (which is the lives), preview, submit to the GM.

Roles are written by the GM first (``/roles``, see ``lifegear_roles``); with none the wizard
says so and closes. The picked role is copied into ``dialog_data`` as JSON, so the preview and
the submission use exactly the role the player saw, and a restart resumes at the same step.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Bot, F, Router
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Chat, Message
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.input import ManagedTextInput, TextInput
from aiogram_dialog.widgets.kbd import Button, Cancel, Column, Row, Select, SwitchTo
from aiogram_dialog.widgets.text import Format
from pydantic import ValidationError

from bot.i18n import Translator
from engine.systems.lifegear import (
    Character,
    Role,
    character_from_role,
    new_character,
    validate_character,
)
from handlers.views.sheets import fit
from handlers.views.sheets.lifegear import item_line as gear_line
from handlers.views.sheets.lifegear import render_sheet, role_summary, stats_line
from handlers.wizards.common import (
    NAME_MAX,
    T,
    WizardDialog,
    WizardStart,
    clean_name,
    esc,
    finish_wizard,
    for_a_player,
    locale_of,
    npc_preview_head,
    refuse,
    submit_button,
    violations_text,
)
from handlers.wizards.lifegear_roles import create_roles_dialog, create_roles_router, load_roles

logger = logging.getLogger(__name__)


class LifegearSG(StatesGroup):
    role = State()
    name = State()
    gear = State()
    preview = State()


START_STATE = LifegearSG.role
SHOWN_MAX = 3000  # the sheet inside a wizard window leaves room for the texts around it


# --- state helpers ------------------------------------------------------------------------


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def _role(manager: DialogManager) -> Role | None:
    raw = manager.dialog_data.get("role")
    return Role.model_validate(raw) if raw else None


def _character(manager: DialogManager) -> Character:
    """The sheet as it would be submitted now (an empty draft until a role is picked)."""
    name = str(manager.dialog_data.get("name", ""))
    role = _role(manager)
    return character_from_role(role, name) if role is not None else new_character(name)


def _fail(manager: DialogManager, text: str) -> None:
    refuse(manager, text)
    manager.dialog_data["error"] = text


async def _advance(manager: DialogManager, state: State) -> None:
    """Go on to ``state``, or straight back to the preview once the player has seen it."""
    manager.dialog_data.pop("error", None)
    await manager.switch_to(LifegearSG.preview if manager.dialog_data.get("review") else state)


async def _clear_error(_: CallbackQuery, __: Any, manager: DialogManager) -> None:
    manager.dialog_data.pop("error", None)


# --- start ------------------------------------------------------------------------------------


async def on_start(start_data: Any, manager: DialogManager) -> None:
    t = _t(manager)
    start = WizardStart.of(manager)
    roles = await load_roles(manager.middleware_data["uow"], start.game_id)
    if not roles:
        # nothing to pick from: say so plainly and close instead of showing an empty list
        bot: Bot = manager.middleware_data["bot"]
        chat: Chat = manager.middleware_data["event_chat"]
        await bot.send_message(
            chat.id,
            t(
                "The GM has not written roles for this game yet. Ask them to send me /roles, "
                "then follow the «Create character» link again."
            ),
        )
        await manager.done()
        return
    if start.draft:
        await _resume_draft(manager, start.draft, roles)


async def _resume_draft(manager: DialogManager, draft: dict[str, Any], roles: list[Role]) -> None:
    """A sheet the GM returned: keep its name and its role (if the role still exists)."""
    try:
        returned = Character.model_validate(draft)
    except ValidationError:
        logger.warning("unreadable returned lifegear sheet; starting from scratch")
        return
    manager.dialog_data["name"] = returned.name
    role = next((r for r in roles if r.name == returned.role), None)
    if role is None:
        return  # the role is gone: the player picks again, the name is kept
    manager.dialog_data.update(role=role.model_dump(mode="json"), review=True)
    await manager.switch_to(LifegearSG.preview)


# --- steps ----------------------------------------------------------------------------------


async def roles_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    start = WizardStart.of(dialog_manager)
    roles = await load_roles(dialog_manager.middleware_data["uow"], start.game_id)
    chosen = _role(dialog_manager)
    return {
        "roles_text": fit("\n".join(f"• {role_summary(r, t)}" for r in roles), SHOWN_MAX),
        "roles": [(i, r.name[:40]) for i, r in enumerate(roles)],
        "chosen": esc(chosen.name) if chosen else "",
        "review": bool(dialog_manager.dialog_data.get("review")),
        "error": dialog_manager.dialog_data.get("error", ""),
    }


async def on_role(_: CallbackQuery, __: Any, manager: DialogManager, index: int) -> None:
    t = _t(manager)
    # read again: the index must point into the roles as they are now, not as shown earlier
    roles = await load_roles(manager.middleware_data["uow"], WizardStart.of(manager).game_id)
    if not 0 <= index < len(roles):
        _fail(manager, t("That role is gone; pick one of the list."))
        return
    manager.dialog_data["role"] = roles[index].model_dump(mode="json")
    await _advance(manager, LifegearSG.name)


async def got_name(
    message: Message, _: ManagedTextInput[str], manager: DialogManager, text: str
) -> None:
    t = _t(manager)
    name = clean_name(text)
    if name is None:
        size = len(" ".join(text.split()))
        _fail(
            manager,
            t(
                "The name must be one line of 1–{limit} characters, not a command "
                "(yours has {size}). Try again.",
                limit=NAME_MAX,
                size=size,
            ),
        )
        return
    party = {n.casefold() for n in WizardStart.of(manager).party}
    if name.casefold() in party:
        _fail(manager, t("Another character here is already called «{name}».", name=esc(name)))
        return
    manager.dialog_data["name"] = name
    await _advance(manager, LifegearSG.gear)


async def name_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    role = _role(dialog_manager)
    return {
        "role_name": esc(role.name) if role else "—",
        "name": esc(dialog_manager.dialog_data.get("name", "")),
        "review": bool(dialog_manager.dialog_data.get("review")),
        "error": dialog_manager.dialog_data.get("error", ""),
    }


async def gear_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    character = _character(dialog_manager)
    gear = "\n".join(f"  {gear_line(item, t, with_state=False)}" for item in character.gear)
    return {
        "name": esc(character.name or "—"),
        "role_name": esc(character.role or "—"),
        "lives": sum(1 for item in character.gear if item.usable),
        "max_lives": character.max_lives,
        "stats": stats_line(character.stats),
        "gear": fit(gear, SHOWN_MAX) or "  —",
        "error": dialog_manager.dialog_data.get("error", ""),
    }


async def on_gear_seen(_: CallbackQuery, __: Any, manager: DialogManager) -> None:
    manager.dialog_data["review"] = True
    await _advance(manager, LifegearSG.preview)


async def preview_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    locale = locale_of(dialog_manager)
    character = _character(dialog_manager)
    error = dialog_manager.dialog_data.get("error", "")
    return {
        "sheet": fit(render_sheet(character, t, locale), SHOWN_MAX),
        # a refused submission already lists the same problems in its error
        "problems": "" if error else violations_text(validate_character(character), locale),
        "error": error,
    }


async def on_submit(_: CallbackQuery, __: Any, manager: DialogManager) -> None:
    t = _t(manager)
    character = _character(manager)
    # the engine decides: a missing role or name comes back as violations, nothing is stored
    problems = await finish_wizard(manager, character)
    if problems:
        reasons = violations_text(problems, locale_of(manager))
        _fail(manager, t("Not sent to the GM:\n{reasons}", reasons=reasons))
        logger.info("lifegear submission refused: %d problems", len(problems))


# --- windows ------------------------------------------------------------------------------


def _error() -> Format:
    return Format("\n{error}", when=F["error"])


def _to_preview() -> SwitchTo:
    return SwitchTo(
        T("To the preview"), "2p", LifegearSG.preview, when=F["review"], on_click=_clear_error
    )


def _role_window() -> Window:
    return Window(
        T("🎭 <b>Choose your role</b>. The GM wrote these:"),
        Format("{roles_text}"),
        T("\nChosen: <b>{chosen}</b>", when=F["chosen"]),
        _error(),
        Column(
            Select(
                Format("{item[1]}"),
                "r",
                lambda x: x[0],
                "roles",
                type_factory=int,
                on_click=on_role,
            )
        ),
        _to_preview(),
        Cancel(T("Cancel")),
        getter=roles_getter,
        state=LifegearSG.role,
    )


def _name_window() -> Window:
    return Window(
        T("Role: <b>{role_name}</b>. What is your character's name? Send it as a message."),
        T("Now: <b>{name}</b>", when=F["name"]),
        _error(),
        TextInput("n", on_success=got_name),
        _to_preview(),
        SwitchTo(T("◀ Back"), "nb", LifegearSG.role, on_click=_clear_error),
        getter=name_getter,
        state=LifegearSG.name,
    )


def _gear_window() -> Window:
    return Window(
        Format("<b>{name}</b> — {role_name}"),
        T("❤️ Lives: {lives} of {max_lives}"),
        T("🎲 Stats: {stats}"),
        T("Your gear:\n{gear}"),
        T(
            "\nYour gear is your lives: each ready item is one life. When you are hurt, an item "
            "breaks or gets spent; using an ability or Help costs one too."
        ),
        _error(),
        Row(
            SwitchTo(T("◀ Back"), "gb", LifegearSG.name, on_click=_clear_error),
            Button(T("Next ▶"), "gn", on_click=on_gear_seen),
        ),
        getter=gear_getter,
        state=LifegearSG.gear,
    )


def _preview_window() -> Window:
    return Window(
        T("<b>Preview</b> — check and send it to the GM:\n", when=for_a_player),
        npc_preview_head(),
        Format("{sheet}"),
        Format("\n{problems}", when=F["problems"]),
        _error(),
        Row(
            SwitchTo(T("Role"), "pr", LifegearSG.role, on_click=_clear_error),
            SwitchTo(T("Name"), "pn", LifegearSG.name, on_click=_clear_error),
            SwitchTo(T("Gear"), "pg", LifegearSG.gear, on_click=_clear_error),
        ),
        submit_button("✅ Send to the GM", on_submit),
        Cancel(T("Cancel")),
        getter=preview_getter,
        state=LifegearSG.preview,
    )


def create_dialogs() -> list[Router]:
    """The player's wizard, the GM's role editor and the ``/roles`` command that opens it."""
    wizard = WizardDialog(  # on_start re-enters a returned sheet itself (its role may be gone)
        _role_window(), _name_window(), _gear_window(), _preview_window(), on_start=on_start,
        reentry=False,
    )  # fmt: skip
    return [create_roles_router(), wizard, create_roles_dialog()]
