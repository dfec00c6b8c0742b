"""``/roles``: the GM's list of a lifegear game's roles (``RolesSG``) and the flow that writes
one (``ROLE``: name, max lives, stats, gear; «Save» stores it through
``bot.services.lifegear_roles``)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final

from aiogram import Router
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Group, Select
from aiogram_dialog.widgets.text import Format

from bot.i18n import N_, Translator
from bot.services import lifegear_roles as service
from engine.systems.lifegear import SYSTEM_ID, DiceExpressionError, ItemKind, Role, validate_role
from engine.systems.lifegear import typed as role_lines
from engine.systems.lifegear.typed import MAX_GEAR
from handlers.views.sheets import fit
from handlers.views.sheets import lifegear as view
from handlers.wizards.common import esc, violations_text
from handlers.wizards.flow import Choice, Choose, Custom, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.custom import Shown, Typed, draft, step_fine, typed_input
from handlers.wizards.flow.extra import SHOWN_MAX
from handlers.wizards.flow.gm_list import GmList, ListWords, list_states
from handlers.wizards.flow.kinds import Draft
from handlers.wizards.flow.own_widgets import removers
from handlers.wizards.flow.records import remover

QUICK_LIVES: Final = (3, 4, 5, 6, 8, 10)
KIND: Final = "kind"  # dialog_data: the kind of the item the next message adds


REFUSED: Final = {
    role_lines.Problem.DUPLICATE: N_("Stat «{name}» is already listed."),
    role_lines.Problem.TOO_MANY: N_("At most {limit} stats."),
    role_lines.Problem.FORM: N_("«{line}»: write a stat as <code>Name: dice</code>."),
}


# One example per kind, in the seed's words (seed 001: a bow, «Ловкость или Стрельба + 1d6»;
# «предчувствие грядущего события»; a rope «которая поможет при спуске»).
EXAMPLES: Final[dict[ItemKind, str]] = {
    ItemKind.WEAPON: N_(
        "<code>Bow: 1d6</code>; a weapon with the role's stats: "
        "<code>Bow: Agility or Shooting + 1d6</code>"
    ),
    ItemKind.ARMOR: N_("<code>Chainmail: takes one hit</code>"),
    ItemKind.ABILITY: N_(
        "<code>Foresight: 1d4</code>; or in words: <code>Foresight: senses a coming event</code>"
    ),
    ItemKind.HELP: N_("<code>Patron's help: 1d6</code>"),
    ItemKind.ITEM: N_("<code>Rope: helps to climb down</code>"),
}


ITEM_REFUSED: Final = {
    role_lines.Problem.TOO_MANY: N_("At most {limit} gear items."),
    role_lines.Problem.FORM: N_("Write the item as <code>Name</code> or <code>Name: 1d6</code>."),
}


def refusal(refused: role_lines.RefusedLine, t: Translator, locale: str) -> str:
    """Why a typed stat line is not taken (escaped HTML)."""
    if isinstance(refused.problem, DiceExpressionError):
        return f"«{esc(refused.name)}»: {esc(refused.problem.render(locale))}"
    line, limit = esc(refused.line[:80]), role_lines.MAX_STATS
    return t(REFUSED[refused.problem], name=esc(refused.name), line=line, limit=limit)


# --- the role's steps: typed answers and lists in the draft ---------------------------------


def lives_refusal(raw: str, t: Translator, _: Sequence[str]) -> str | None:
    if role_lines.read_lives(raw) is None:
        return t("Max lives: type a whole number from 1 to {limit}.", limit=MAX_GEAR)
    return None


def _stats(typed: Typed) -> str | None:
    stats, refused = role_lines.add_stats(typed.sheet.stats, typed.text)
    typed.draft["stats"] = [s.model_dump(mode="json") for s in stats]
    return "\n".join(refusal(r, typed.t, typed.locale) for r in refused) or None


async def on_kind(_: Any, __: Any, manager: DialogManager, kind: str) -> None:
    if kind in {k.value for k in ItemKind}:
        manager.dialog_data[KIND] = kind
        step_fine(manager)


def _item(typed: Typed) -> str | None:
    """An item of the kind tapped last (a plain item by default): ``Name: dice or words``."""
    kind = ItemKind(typed.manager.dialog_data.get(KIND, ItemKind.ITEM.value))
    added = role_lines.add_item(typed.sheet, typed.text, kind)
    if isinstance(added, role_lines.Problem):
        return typed.t(ITEM_REFUSED[added], limit=MAX_GEAR)  # (its own <code>)
    typed.draft["gear"] = [item.model_dump(mode="json") for item in added.gear]
    typed.manager.dialog_data.pop(KIND, None)
    return None


def dropped(key: str, wid: str) -> Group:
    """❌ per stat or item of the draft's list ``key``: a tap takes it out."""

    def entries(manager: DialogManager) -> list[Any]:
        listed: list[Any] = draft(manager).setdefault(key, [])
        return listed

    return removers(wid, key, entries, remover(entries), text="❌ {item[name]}", width=2)


def listed(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"i": i, "name": e["name"][:30]} for i, e in enumerate(entries)]


def stats_data(shown: Shown) -> dict[str, Any]:
    t, role = shown.t, shown.sheet
    assert isinstance(role, Role)
    lines = [
        t("<code>Shooting: 1d8+3</code>\n<code>Strength: 1d6</code>"),
        t("Tap a stat below to remove it."),
        t("\nStats so far: {stats_text}", stats_text=view.stats_line(role.stats)).strip(),
    ]
    return {"lines": lines, "stats": listed(draft(shown.manager).get("stats") or [])}


def gear_data(shown: Shown) -> dict[str, Any]:
    t, role = shown.t, shown.sheet
    kind = ItemKind(shown.manager.dialog_data.get(KIND, ItemKind.ITEM.value))
    assert isinstance(role, Role)
    ask = N_("New {kind}: send its name, optionally with dice or a description after a colon:")
    lines = [
        fit(view.role_details(role, t), SHOWN_MAX),
        violations_text(validate_role(role), shown.locale),
        t(ask, kind=t(view.KIND_LABEL[kind])),
        t(EXAMPLES[kind]),
    ]
    kinds = [
        (k.value, f"{'✓' if k is kind else '➕'} {view.KIND_ICON[k]} {t(view.KIND_LABEL[k])}")
        for k in ItemKind
    ]
    return {
        "lines": lines,
        "kinds": kinds,
        "gear": listed(draft(shown.manager).get("gear") or []),
    }


def gear_widgets() -> list[Any]:
    kinds = Select(Format("{item[1]}"), "k", itemgetter(0), "kinds", on_click=on_kind)
    return [
        Group(kinds, width=2),
        dropped("gear", "gd"),
        typed_input(_item, "i"),
    ]


# --- the role as the flow's sheet -----------------------------------------------------------


def build(role: Draft, options: Any) -> Role:
    # the name step comes first, but a placeholder keeps every step's sheet renderable
    return Role.model_validate({
        "name": role.get("role_name") or "—", "max_lives": int(role.get("lives") or 0),
        "stats": role.get("stats") or [], "gear": role.get("gear") or [],
        "description": role.get("description", ""),
    })  # fmt: skip


def load(stored: dict[str, Any] | None, options: Any) -> Draft:
    """A stored role to edit, as saved; a new one is empty."""
    if not stored:
        return {}
    role = Role.model_validate(stored).model_dump(mode="json")
    return {"role_name": role.pop("name"), "lives": str(role.pop("max_lives")), **role}


ROLE = Flow(
    name="role",
    steps=(
        Text(
            "role_name", N_("Role name"), N_("Role name? (one line, up to 64 characters)"),
            required=True, unfit=N_("The role name must be one line of 1–{limit} characters."),
            taken=service.TAKEN,  # another role's, when the editor opened (the save checks again)
        ),
        Choose(
            "lives", N_("Lives"),
            N_("Role «{role_name}»: max lives? Type a number from 1 to 50 or pick one."),
            tuple(Choice(str(n), str(n)) for n in QUICK_LIVES), required=True, typed=True,
            select_id="q", columns=6, check=lives_refusal,
        ),
        Custom(
            "stats", N_("Stats"),
            N_("Role «{role_name}»: stats, rolled as dice. Send them one per line:"),
            widgets=lambda: [typed_input(_stats, "s"), dropped("stats", "sd")],
            data=stats_data, needs=N_("Add at least one stat first."),
        ),
        Custom(
            "gear", N_("Gear"),
            N_("\nAdd starting gear by kind. Each ready item is one life. Tap ❌ to remove one."),
            widgets=gear_widgets, data=gear_data,
        ),
    ),
    options=lambda raw: None,
    build=build,
    load=load,
    validate=lambda role, options: validate_role(role),  # type: ignore[arg-type]
    render=lambda role, t, locale: view.role_details(role, t),  # type: ignore[arg-type]
    fields={"gear": ()},  # too much gear is shown at the preview and refused at «Save»
    submit_label=N_("💾 Save role"),
    finish=lambda manager, role: ROLES.save(manager, role),
    ids={
        "stats.nx": "sn", "gear.nx": "gn", "preview.j0": "pn", "preview.j1": "pl",
        "preview.j2": "ps", "preview.j3": "pg", "preview.ok": "save",
    },
    preview_widgets=lambda: [ROLES.delete_button(N_("🗑 Delete role"))],
)  # fmt: skip
RoleSG = flow_states(ROLE)


# --- /roles: the list of roles --------------------------------------------------------------

RolesSG = list_states("Roles")  # RolesSG:game, RolesSG:menu, as released
ROLES = GmList(
    "roles", SYSTEM_ID, RolesSG, RoleSG.role_name,  # type: ignore[attr-defined]
    records=service.load_roles, line=view.role_summary, gm_roles=service.GM_ROLES,
    cap=service.MAX_ROLES,
    words=ListWords(
        elsewhere=N_("Roles are written in the private chat with me: send me /roles."),
        no_games=N_(
            "You are not the GM of any «Lives = gear» game. Start one in a group: /newgame."
        ),
        which_game=N_("Which game's roles?"), head=N_("🎭 Roles of «{title}»"),
        empty=N_("No roles yet."),
        hint=N_(
            "\nPlayers pick one of these roles in the creation wizard. Tap a role to edit it."
        ),
        new=N_("➕ New role"), saved=N_("Role «{name}» saved."),
        deleted=N_("Role «{name}» deleted."),
    ),
    put=service.put_role, delete=service.delete_role, refused=service.RoleRefused,
    check=validate_role,
)  # fmt: skip


def create_roles_dialogs() -> list[Router]:
    """``/roles`` (in a group it points to the private chat), the list of roles, a role."""
    return [*ROLES.dialogs(), build_dialog(ROLE, RoleSG)]
