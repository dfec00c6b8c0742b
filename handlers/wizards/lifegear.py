"""The ``lifegear`` ("lives = gear") creation wizard as a flow: one of the GM's roles (kept in
the draft as the player saw it; ``/roles`` writes them), a name, the gear that is the lives."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from aiogram import Router

from bot.i18n import N_, Translator
from bot.services.lifegear_roles import load_roles
from engine.systems.lifegear import (
    Character,
    Role,
    character_from_role,
    new_character,
    role_of,
    usable_count,
    validate_character,
)
from handlers.views.sheets import fit
from handlers.views.sheets.lifegear import item_line, render_sheet, role_summary, stats_line
from handlers.wizards.common import NAME_MAX, clean_name, esc
from handlers.wizards.flow import Choice, Choose, Flow, Info, Text, build_dialog, flow_states
from handlers.wizards.flow.extra import SHOWN_MAX
from handlers.wizards.flow.kinds import Draft, kept
from handlers.wizards.flow.start import returned_sheet
from handlers.wizards.lifegear_roles import create_roles_dialogs

ROLE_DATA = kept("role")


async def role_choices(uow: Any, game_id: int) -> tuple[Choice, ...]:
    """The GM's roles as they are now; the id is the index (``r:0``, as released)."""
    roles = await load_roles(uow, game_id)
    return tuple(
        Choice(str(i), r.name[:40], r.model_dump(mode="json")) for i, r in enumerate(roles)
    )


NO_ROLES: Final = N_(
    "The GM has not written roles for this game yet. Ask them to send me /roles, "
    "then follow the «Create character» link again."
)
WRITE_ROLES: Final = N_(
    "GM: before the players can make characters, write this game's roles — send me "
    "/roles in our private chat."
)


def _until_roles(said: str) -> Callable[[Any, int], Awaitable[str | None]]:
    """``said`` while the game has no roles yet, else None."""

    async def check(uow: Any, game_id: int) -> str | None:
        return None if await load_roles(uow, game_id) else said

    return check


SETUP = _until_roles(WRITE_ROLES)  # the GM's task (``wizards.setup_needed``)


def describe(choice: Choice, t: Translator) -> str:
    return f"• {role_summary(Role.model_validate(choice.data), t)}"


def name_refusal(raw: str, t: Translator, party: Sequence[str]) -> str | None:
    """A name that does not fit, told with the size sent."""
    if clean_name(raw) is not None:
        return None
    return t(
        "The name must be one line of 1–{limit} characters, not a command "
        "(yours has {size}). Try again.",
        limit=NAME_MAX,
        size=len(" ".join(raw.split())),
    )


def role_line(sheet: Any, options: Any, t: Translator, locale: str) -> str:
    return t("🎭 Role: <b>{name}</b>", name=esc(sheet.role or "—"))


def gear_lines(sheet: Any, options: Any, t: Translator, locale: str) -> str:
    gear = "\n".join(f"  {item_line(item, t, with_state=False)}" for item in sheet.gear)
    lives = usable_count(sheet)
    return "\n".join(
        [
            f"<b>{esc(sheet.name or '—')}</b> — {esc(sheet.role or '—')}",
            t("❤️ Lives: {lives} of {max_lives}", lives=lives, max_lives=sheet.max_lives),
            t("🎲 Stats: {stats}", stats=stats_line(sheet.stats)),
            t("Your gear:\n{gear}", gear=fit(gear, SHOWN_MAX) or "  —"),
        ]
    )


def build(draft: Draft, options: Any) -> Character:
    """The sheet as it would be submitted now (an empty draft until a role is picked)."""
    name, role = str(draft.get("name", "")), draft.get(ROLE_DATA)
    return character_from_role(Role.model_validate(role), name) if role else new_character(name)


def load(sheet: dict[str, Any] | None, options: Any) -> Draft:
    """A sheet the GM returned: its name and the role it was made of (as the player saw it)."""
    returned = returned_sheet(Character, sheet, None)
    role = role_of(returned) if returned is not None else None
    if role is None:
        return {"name": returned.name} if returned is not None else {}
    # the id is the role's name: shown as «Now», though no listed role is marked
    return {"name": returned.name, "role": role.name, ROLE_DATA: role.model_dump(mode="json")}


def upgrade(old: dict[str, Any], options: Any) -> Draft:
    """A wizard started before the flow kept ``role`` (JSON) and ``name`` in dialog_data."""
    role = old.get("role")
    draft: Draft = {"name": str(old.get("name", ""))}
    if isinstance(role, dict) and role.get("name"):
        draft.update({"role": str(role["name"]), ROLE_DATA: role})
    return draft


LIFEGEAR = Flow(
    name="lifegear",
    steps=(
        Choose(
            "role", N_("Role"), N_("🎭 <b>Choose your role</b>. The GM wrote these:"),
            required=True, page_size=10, source=role_choices, describe=describe,
        ),
        Text(
            "name", N_("Name"), N_("What is your character's name? Send it as a message."),
            limit=NAME_MAX, required=True, check=name_refusal, lines=role_line,
            taken=N_("Another character here is already called «{name}»."),
        ),
        Info(
            "gear", N_("Gear"),
            N_(
                "\nYour gear is your lives: each ready item is one life. When you are hurt, an "
                "item breaks or gets spent; using an ability or Help costs one too."
            ),
            lines=gear_lines,
        ),
    ),
    options=lambda raw: None,
    build=build,
    load=load,
    validate=validate_character,  # type: ignore[arg-type]
    render=render_sheet,  # type: ignore[arg-type]
    fields={"gear": ()},  # too much gear is the role's fault: shown at the preview, not refused
    ids={
        "role.c": "r", "role.nx": "2p", "name.nx": "2p", "name.bk": "nb", "gear.nx": "gn",
        "gear.bk": "gb", "preview.j0": "pr", "preview.j1": "pn", "preview.j2": "pg",
        "cancel": "__cancel__",
    },
    refused=N_("Not sent to the GM:\n{reasons}"),
    unavailable=_until_roles(NO_ROLES),
    upgrade=upgrade,
)  # fmt: skip

LifegearSG = flow_states(LIFEGEAR)
START_STATE = LifegearSG.role  # type: ignore[attr-defined]


def create_dialogs() -> list[Router]:
    """The player's wizard, the GM's role editor and the ``/roles`` command that opens it."""
    return [*create_roles_dialogs(), build_dialog(LIFEGEAR, LifegearSG)]
