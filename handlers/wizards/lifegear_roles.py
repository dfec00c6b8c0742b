"""``lifegear`` roles: the GM writes them (``/roles`` in the private chat) before players create.

A role is the seed's template (name, max lives, stats as dice expressions, starting gear), kept
by ``bot.services.lifegear_roles``; the player's wizard (``handlers.wizards.lifegear``) offers
them. The role being edited lives in ``dialog_data["draft"]`` as JSON, so a restart resumes the
editor where it was.

A hand-written dialog, not a flow: it is a list of roles to open, edit, save and delete, and a
role's gear is added by kind, one item per message, beside the creation steps' shape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode, Window
from aiogram_dialog.widgets.input import TextInput
from aiogram_dialog.widgets.kbd import Back, Button, Cancel, Group, Keyboard, Row, Select
from aiogram_dialog.widgets.text import Format

from bot.i18n import Translator
from bot.services.lifegear_roles import (
    GM_ROLES,
    MAX_ROLES,
    RoleRefused,
    delete_role,
    load_roles,
    name_taken,
    put_role,
)
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.common import errors_only
from engine.systems.lifegear import SYSTEM_ID, DiceExpressionError, ItemKind, Role, validate_role
from engine.systems.lifegear import typed as role_lines
from engine.systems.lifegear.typed import MAX_GEAR, Problem, RefusedLine
from handlers.views.sheets import fit
from handlers.views.sheets.lifegear import (
    KIND_ICON,
    KIND_LABEL,
    role_details,
    role_summary,
    stats_line,
)
from handlers.wizards.common import (
    NAME_MAX,
    T,
    WizardDialog,
    clean_name,
    esc,
    locale_of,
    refuse,
    violations_text,
)
from handlers.wizards.flow.own import own_switch
from handlers.wizards.flow.own_widgets import go

QUICK_LIVES: Final = (3, 4, 5, 6, 8, 10)
SHOWN_MAX: Final = 3000  # a long list inside a window leaves room for the texts around it
EDITOR_KEYS: Final = ("draft", "edit", "review", "kind", "error")  # dialog_data of one role


class RolesSG(StatesGroup):
    game = State()
    menu = State()
    name = State()
    lives = State()
    stats = State()
    gear = State()
    item = State()
    preview = State()


# --- the GM's typed lines (read by ``engine.systems.lifegear.typed``) -------------------------


def refusal(refused: RefusedLine, t: Translator, locale: str) -> str:
    """Why a typed stat line is not taken (escaped HTML)."""
    if isinstance(refused.problem, DiceExpressionError):
        return f"«{esc(refused.name)}»: {esc(refused.problem.render(locale))}"
    if refused.problem is Problem.DUPLICATE:
        return t("Stat «{name}» is already listed.", name=esc(refused.name))
    if refused.problem is Problem.TOO_MANY:
        return t("At most {limit} stats.", limit=role_lines.MAX_STATS)
    return t("«{line}»: write a stat as <code>Name: dice</code>.", line=esc(refused.line[:80]))


# --- dialog helpers -------------------------------------------------------------------------

Handler = Callable[..., Awaitable[None]]


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def _uow(manager: DialogManager) -> UnitOfWork:
    uow: UnitOfWork = manager.middleware_data["uow"]
    return uow


def _game_id(manager: DialogManager) -> int:
    return int(manager.dialog_data["game_id"])


def _empty() -> dict[str, Any]:
    return {"name": "", "max_lives": 0, "stats": [], "gear": []}


def _draft(manager: DialogManager) -> dict[str, Any]:
    draft: dict[str, Any] = manager.dialog_data.setdefault("draft", _empty())
    return draft


def _draft_role(draft: dict[str, Any]) -> Role:
    # the name step comes first, but a placeholder keeps the preview renderable regardless
    return Role.model_validate({**draft, "name": draft.get("name") or "—"})


def _edited(manager: DialogManager) -> str:
    """The stored name of the role being edited ("" for a new one)."""
    return str(manager.dialog_data.get("edit") or "")


def _fail(manager: DialogManager, text: str) -> None:
    refuse(manager, text)
    manager.dialog_data["error"] = text


async def _clear_error(_: Any, __: Any, manager: DialogManager) -> None:
    manager.dialog_data.pop("error", None)


async def _open(manager: DialogManager, state: State, **data: Any) -> None:
    """Start editing a role (``data``: its draft, its stored name, whether to review it)."""
    manager.dialog_data.update(data)
    manager.dialog_data.pop("error", None)
    await manager.switch_to(state)


async def _closed(manager: DialogManager, notice: str) -> None:
    """Back to the list of roles, the one edited forgotten, with what was done."""
    for key in EDITOR_KEYS:
        manager.dialog_data.pop(key, None)
    manager.dialog_data["notice"] = notice
    await manager.switch_to(RolesSG.menu)


def _answer(handle: Callable[[DialogManager, str], Awaitable[None]]) -> Handler:
    """A ``TextInput`` handler from ``handle(manager, text)``."""

    async def handler(_: Message, __: Any, manager: DialogManager, text: str) -> None:
        await handle(manager, text)

    return handler


# --- /roles -------------------------------------------------------------------------------


async def roles_command(
    message: Message, dialog_manager: DialogManager, uow: UnitOfWork, user: UserDTO, t: Translator
) -> None:
    games = [g for g in await uow.games.games_of(user.id, roles=GM_ROLES) if g.system == SYSTEM_ID]
    if not games:
        await message.answer(
            t("You are not the GM of any «Lives = gear» game. Start one in a group: /newgame.")
        )
        return
    data = {"games": [[g.id, g.title] for g in games]}
    state = RolesSG.menu if len(games) == 1 else RolesSG.game
    await dialog_manager.start(state, data=data, mode=StartMode.RESET_STACK)


async def roles_in_group(message: Message, t: Translator) -> None:
    await message.answer(t("Roles are written in the private chat with me: send me /roles."))


def _games(manager: DialogManager) -> dict[int, str]:
    """The GM's lifegear games as listed when /roles was sent: id → title."""
    data = manager.start_data
    games = data.get("games", []) if isinstance(data, dict) else []
    return {int(g[0]): str(g[1]) for g in games}


async def on_start(start_data: Any, manager: DialogManager) -> None:
    games = _games(manager)
    if len(games) == 1:
        manager.dialog_data["game_id"] = next(iter(games))


async def on_game(_: Any, __: Any, manager: DialogManager, game_id: int) -> None:
    if game_id in _games(manager):
        manager.dialog_data["game_id"] = game_id
        await manager.switch_to(RolesSG.menu)


async def on_new_role(_: Any, __: Any, manager: DialogManager) -> None:
    await _open(manager, RolesSG.name, draft=_empty(), edit="", review=False)


async def on_pick_role(_: Any, __: Any, manager: DialogManager, index: int) -> None:
    roles = await load_roles(_uow(manager), _game_id(manager))
    if 0 <= index < len(roles):
        role = roles[index]
        draft = role.model_dump(mode="json")
        await _open(manager, RolesSG.preview, draft=draft, edit=role.name, review=True)


# --- role steps ---------------------------------------------------------------------------


async def got_name(manager: DialogManager, text: str) -> None:
    t = _t(manager)
    name = clean_name(text)
    if name is None:
        limit = NAME_MAX
        _fail(manager, t("The role name must be one line of 1–{limit} characters.", limit=limit))
        return
    if name_taken(await load_roles(_uow(manager), _game_id(manager)), _edited(manager), name):
        _fail(manager, t("There is already a role called «{name}».", name=esc(name)))
        return
    _draft(manager)["name"] = name
    await own_switch(manager, "lives", onward=True)


async def got_lives(manager: DialogManager, text: str) -> None:
    value = role_lines.read_lives(text)
    if value is None:
        t = _t(manager)
        _fail(manager, t("Max lives: type a whole number from 1 to {limit}.", limit=MAX_GEAR))
        return
    _draft(manager)["max_lives"] = value
    await own_switch(manager, "stats", onward=True)


async def on_quick_lives(_: Any, __: Any, manager: DialogManager, value: int) -> None:
    if value in QUICK_LIVES:
        await got_lives(manager, str(value))


async def got_stats(manager: DialogManager, text: str) -> None:
    t, draft = _t(manager), _draft(manager)
    stats, refused = role_lines.add_stats(_draft_role(draft).stats, text)
    draft["stats"] = [s.model_dump(mode="json") for s in stats]
    manager.dialog_data.pop("error", None)
    if refused:
        _fail(manager, "\n".join(refusal(r, t, locale_of(manager)) for r in refused))


def _drop(key: str) -> Handler:
    """Tap ❌ on a stat or an item: it is removed from the draft."""

    async def handler(_: Any, __: Any, manager: DialogManager, index: int) -> None:
        listed = _draft(manager)[key]
        if 0 <= index < len(listed):
            listed.pop(index)

    return handler


async def on_stats_done(_: Any, __: Any, manager: DialogManager) -> None:
    if not _draft(manager)["stats"]:
        _fail(manager, _t(manager)("Add at least one stat first."))
        return
    await own_switch(manager, "gear", onward=True)


async def on_add_kind(_: Any, __: Any, manager: DialogManager, kind: str) -> None:
    if kind not in {k.value for k in ItemKind}:
        return
    if len(_draft(manager)["gear"]) >= MAX_GEAR:
        _fail(manager, _t(manager)("At most {limit} gear items.", limit=MAX_GEAR))
        return
    await _open(manager, RolesSG.item, kind=kind)


async def got_item(manager: DialogManager, text: str) -> None:
    gear = _draft(manager)["gear"]
    kind = ItemKind(manager.dialog_data.get("kind", ItemKind.ITEM.value))
    stats = [str(s.get("name", "")) for s in _draft(manager).get("stats", [])]
    item = role_lines.read_item(
        text, kind, role_lines.next_item_id([str(g.get("id")) for g in gear]), stats
    )
    if item is None:
        t = _t(manager)
        _fail(manager, t("Write the item as <code>Name</code> or <code>Name: 1d6</code>."))
        return
    gear.append(item.model_dump(mode="json"))
    await _open(manager, RolesSG.gear)


async def on_gear_done(_: Any, __: Any, manager: DialogManager) -> None:
    manager.dialog_data["review"] = True
    await own_switch(manager, "preview", onward=True)


async def _write(manager: DialogManager, role: Role | None) -> None:
    """Save ``role`` (None: delete the one edited) as the GM; back to the list, or refused."""
    t, user = _t(manager), manager.middleware_data["user"]
    uow, game_id, edited = _uow(manager), _game_id(manager), _edited(manager)
    try:
        if role is not None:
            await put_role(uow, game_id, user.id, role, edited)
            await _closed(manager, t("Role «{name}» saved.", name=esc(role.name)))
        elif (removed := await delete_role(uow, game_id, user.id, edited)) is not None:
            await _closed(manager, t("Role «{name}» deleted.", name=esc(removed.name)))
        else:
            await manager.switch_to(RolesSG.menu)
    except RoleRefused as refused:
        params = {k: esc(v) for k, v in refused.params.items()}
        _fail(manager, t(refused.reason, **params))


async def on_save(_: Any, __: Any, manager: DialogManager) -> None:
    draft = _draft(manager)
    role = _draft_role(draft)
    problems = errors_only(validate_role(role))
    if not draft.get("name") or problems:
        reasons = violations_text(problems, locale_of(manager))
        _fail(manager, reasons or _t(manager)("The role needs a name."))
        return
    await _write(manager, role)


async def on_delete(_: Any, __: Any, manager: DialogManager) -> None:
    await _write(manager, None)


# --- the windows' data --------------------------------------------------------------------


async def game_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    return {"games": [(i, title[:40]) for i, title in _games(dialog_manager).items()]}


async def menu_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    game_id = _game_id(dialog_manager)
    roles = await load_roles(_uow(dialog_manager), game_id)
    titles = _games(dialog_manager)
    listed = "\n".join(f"{i + 1}. {role_summary(r, t)}" for i, r in enumerate(roles))
    return {
        "title": esc(titles.get(game_id, "?")),
        "roles_text": fit(listed, SHOWN_MAX) or t("No roles yet."),
        "roles": [(i, r.name[:40]) for i, r in enumerate(roles)],
        "can_add": len(roles) < MAX_ROLES,
        "many_games": len(titles) > 1,
        "notice": dialog_manager.dialog_data.pop("notice", ""),
    }


async def draft_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    draft = _draft(dialog_manager)
    role = _draft_role(draft)
    kind = ItemKind(dialog_manager.dialog_data.get("kind", ItemKind.ITEM.value))
    return {
        "role_name": esc(draft.get("name") or "—"),
        "lives": draft.get("max_lives") or "—",
        "quick": [(n, n) for n in QUICK_LIVES],
        "stats": [(i, s["name"][:30]) for i, s in enumerate(draft["stats"])],
        "stats_text": stats_line(role.stats),
        "gear": [(i, g["name"][:30]) for i, g in enumerate(draft["gear"])],
        "kinds": [(k.value, f"➕ {KIND_ICON[k]} {t(KIND_LABEL[k])}") for k in ItemKind],
        "kind": t(KIND_LABEL[kind]),
        "details": fit(role_details(role, t), SHOWN_MAX),
        "problems": violations_text(validate_role(role), locale_of(dialog_manager)),
        "editing": bool(dialog_manager.dialog_data.get("edit")),
        "review": bool(dialog_manager.dialog_data.get("review")),
        "error": dialog_manager.dialog_data.get("error", ""),
    }


# --- windows ------------------------------------------------------------------------------


def _pick(
    text: str, wid: str, items: str, on_click: Handler, width: int = 1, factory: type = int
) -> Group:
    """One button per listed ``(id, label)`` of the window data's ``items``."""
    select = Select(
        Format(text), wid, lambda x: x[0], items, type_factory=factory, on_click=on_click
    )
    return Group(select, width=width)


def _step(state: State, *widgets: Any, typed: Handler | None = None, wid: str = "") -> Window:
    """A step of the role: its texts and buttons (a window sorts them), the last refusal after
    the texts, the typed answer it takes (``typed``, the input's id ``wid``)."""
    error = Format("\n{error}", when=F["error"])
    taken = [TextInput(wid, on_success=typed)] if typed is not None else []
    return Window(*widgets, error, *taken, getter=draft_getter, state=state)


def _to_preview() -> Keyboard:
    return go("To the role preview", "2p", RolesSG.preview, when=F["review"])


def _windows() -> list[Window]:
    problems = Format("\n{problems}", when=F["problems"])
    return [
        Window(
            T("Which game's roles?"), _pick("{item[1]}", "g", "games", on_game),
            Cancel(T("Close")), getter=game_getter, state=RolesSG.game,
        ),
        Window(
            Format("{notice}\n", when=F["notice"]), T("🎭 Roles of «{title}»"),
            Format("{roles_text}"),
            T("\nPlayers pick one of these roles in the creation wizard. Tap a role to edit it."),
            _pick("✏️ {item[1]}", "r", "roles", on_pick_role),
            Button(T("➕ New role"), "new", on_click=on_new_role, when=F["can_add"]),
            go("Another game", "og", RolesSG.game, when=F["many_games"]),
            Cancel(T("Close")), getter=menu_getter, state=RolesSG.menu,
        ),
        _step(
            RolesSG.name, T("Role name? (one line, up to 64 characters)"), _to_preview(),
            go("◀ Roles", "bk", RolesSG.menu), typed=_answer(got_name), wid="n",
        ),
        _step(
            RolesSG.lives,
            T("Role «{role_name}»: max lives? Type a number from 1 to 50 or pick one."),
            T("Now: {lives}"), _pick("{item[1]}", "q", "quick", on_quick_lives, width=6),
            _to_preview(), Back(T("◀ Back")), typed=_answer(got_lives), wid="l",
        ),
        _step(
            RolesSG.stats,
            T("Role «{role_name}»: stats, rolled as dice. Send them one per line:"),
            T("<code>Shooting: 1d8+3</code>\n<code>Strength: 1d6</code>"),
            T("Tap a stat below to remove it."), T("\nStats so far: {stats_text}"),
            _pick("❌ {item[1]}", "sd", "stats", _drop("stats"), width=2),
            Row(Back(T("◀ Back")), Button(T("Next ▶"), "sn", on_click=on_stats_done)),
            typed=_answer(got_stats), wid="s",
        ),
        _step(
            RolesSG.gear, Format("{details}"),
            T("\nAdd starting gear by kind. Each ready item is one life. Tap ❌ to remove one."),
            problems, _pick("{item[1]}", "k", "kinds", on_add_kind, 2, str),
            _pick("❌ {item[1]}", "gd", "gear", _drop("gear"), width=2),
            Row(
                Back(T("◀ Back"), on_click=_clear_error),
                Button(T("Next ▶"), "gn", on_click=on_gear_done),
            ),
        ),
        _step(
            RolesSG.item,
            T("New {kind}: send its name, optionally with dice or a description after a colon:"),
            T(
                "<code>Bow: 1d6</code>; a weapon with the role's stats: "
                "<code>Bow: Agility or Shooting + 1d6</code>\n"
                "<code>Chainmail: takes one hit</code>"
            ),
            go("◀ Back", "ib", RolesSG.gear), typed=_answer(got_item), wid="i",
        ),
        _step(
            RolesSG.preview, Format("{details}"), problems,
            Row(go("Role name", "pn", RolesSG.name), go("Lives", "pl", RolesSG.lives)),
            Row(go("Stats", "ps", RolesSG.stats), go("Gear", "pg", RolesSG.gear)),
            Button(T("💾 Save role"), "save", on_click=on_save),
            Button(T("🗑 Delete role"), "del", on_click=on_delete, when=F["editing"]),
            go("◀ Roles (discard changes)", "pm", RolesSG.menu),
        ),
    ]  # fmt: skip


def create_roles_dialog() -> WizardDialog:
    return WizardDialog(*_windows(), on_start=on_start)


def create_roles_router() -> Router:
    """``/roles``: private chat opens the editor; in a group it points to the private chat."""
    router = Router(name=__name__)
    router.message.register(roles_command, Command("roles"), F.chat.type == "private")
    router.message.register(roles_in_group, Command("roles"))
    return router
