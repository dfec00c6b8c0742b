"""matter tracker (issue 10): ``/scene`` and ``/fight`` open a scene (GM), its buttons, and the
renderer registered for the kind ``matter_scene``.

The tracker message shows set-up (participants, conditions, «Start») or the running scene
(«Next turn», the GM's state and condition menus, undo, «End»). Menu buttons only redraw the
keyboard; every other button is one step of the tracker at the version it was drawn for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services.games import is_gm
from bot.services.trackers import core
from bot.services.trackers import matter as service
from db.repositories.chats import ChatDTO
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.systems import matter
from engine.systems.matter.conditions import ConditionId
from engine.systems.matter.states import StateId
from handlers.callbacks import notify
from handlers.filters import GameSystem, IsGM
from handlers.games import gm_only, no_game
from handlers.trackers import common
from handlers.trackers.common import (
    button,
    chat_translator,
    in_rows,
    open_and_post,
    step_on,
    undo_button,
)
from handlers.trackers.registry import Rendered, register
from handlers.views.edit import edit_text
from handlers.views.trackers import matter as views

CONDITION_IDS = tuple(ConditionId)
STATE_IDS = tuple(StateId)


class MatterMemberCD(CallbackData, prefix="mxp"):
    """Set-up: the GM toggles character ``cid`` in or out of the scene."""

    tracker_id: int
    v: int
    cid: int


class MatterCondCD(CallbackData, prefix="mxc"):
    """The GM toggles condition number ``c`` (in ``ConditionId`` order)."""

    tracker_id: int
    v: int
    c: int


class MatterStartCD(CallbackData, prefix="mxg"):
    tracker_id: int
    v: int


class MatterNextCD(CallbackData, prefix="mxn"):
    tracker_id: int
    v: int


class MatterMenuCD(CallbackData, prefix="mxm"):
    """The GM's menus: ``m`` is main, who (pick a participant), st (their states), cond."""

    tracker_id: int
    v: int
    m: str
    cid: int = 0


class MatterStateCD(CallbackData, prefix="mxs"):
    """The GM gives (``on``) or takes off state number ``s`` (``StateId`` order) on ``cid``."""

    tracker_id: int
    v: int
    cid: int
    s: int
    on: bool


class MatterWaterCD(CallbackData, prefix="mxw"):
    """Наводнение: the GM moves ``cid`` out of the water or back in."""

    tracker_id: int
    v: int
    cid: int


class MatterCrippledCD(CallbackData, prefix="mxk"):
    """Тяжело ранен: the GM calls for ``cid``'s check (an Упорство roll or, ``wp``, a dot of
    Willpower)."""

    tracker_id: int
    v: int
    cid: int
    wp: bool


class MatterEndCD(CallbackData, prefix="mxe"):
    """The GM's «End» (in set-up too: the scene is called off): asks first, in place."""

    tracker_id: int
    v: int


class MatterEndYesCD(CallbackData, prefix="mxy"):
    """The question's «Yes»: the GM ends the scene."""

    tracker_id: int
    v: int


# --- keyboards -------------------------------------------------------------------------------


def _condition_buttons(
    t: Translator, tracker: TrackerDTO, state: service.SceneState
) -> list[list[InlineKeyboardButton]]:
    return in_rows(
        [
            button(
                f"{'✅' if cond in state.scene.conditions else '▫️'} "
                f"{views.condition_name(t, cond)}",
                MatterCondCD(tracker_id=tracker.id, v=tracker.version, c=i),
            )
            for i, cond in enumerate(CONDITION_IDS)
        ],
        2,
    )


def setup_keyboard(
    t: Translator, tracker: TrackerDTO, state: service.SceneState, candidates: list[CharacterDTO]
) -> InlineKeyboardMarkup:
    v = tracker.version
    npc = t(" (NPC)")
    people = [
        button(
            f"{'✅' if c.id in state.members else '▫️'} {c.name}{npc if c.is_npc else ''}",
            MatterMemberCD(tracker_id=tracker.id, v=v, cid=c.id),
        )
        for c in candidates
    ]
    rows = [*in_rows(people, 2), *_condition_buttons(t, tracker, state)]
    rows.append(
        [
            button(t("▶️ Start"), MatterStartCD(tracker_id=tracker.id, v=v)),
            # «End», not «Cancel»: its question's own «Cancel» must not read as the same word
            button(t("🏁 End"), MatterEndCD(tracker_id=tracker.id, v=v)),
        ]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def main_keyboard(t: Translator, tracker: TrackerDTO) -> InlineKeyboardMarkup:
    tid, v = tracker.id, tracker.version
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [button(t("▶️ Next turn"), MatterNextCD(tracker_id=tid, v=v))],
            [
                button(t("🎭 States"), MatterMenuCD(tracker_id=tid, v=v, m="who")),
                button(t("🌦 Conditions"), MatterMenuCD(tracker_id=tid, v=v, m="cond")),
            ],
            [undo_button(t, tracker), button(t("🏁 End"), MatterEndCD(tracker_id=tid, v=v))],
        ]
    )


def _back(t: Translator, tracker: TrackerDTO, to: str = "main") -> list[InlineKeyboardButton]:
    return [button(t("⬅️ Back"), MatterMenuCD(tracker_id=tracker.id, v=tracker.version, m=to))]


def who_keyboard(
    t: Translator, tracker: TrackerDTO, rows: dict[int, CharacterDTO]
) -> InlineKeyboardMarkup:
    people = [
        button(r.name, MatterMenuCD(tracker_id=tracker.id, v=tracker.version, m="st", cid=cid))
        for cid, r in rows.items()
    ]
    return InlineKeyboardMarkup(inline_keyboard=[*in_rows(people, 2), _back(t, tracker)])


def states_keyboard(
    t: Translator, tracker: TrackerDTO, cid: int, sheet: matter.Character,
    water: bool | None = None,
) -> InlineKeyboardMarkup:  # fmt: skip
    """The 23 states (✅ = on: press to take it off); under Наводнение, in or out of the
    water (``water``: in it now; None: no flood)."""
    buttons = []
    for i, state in enumerate(STATE_IDS):
        on = sheet.has_state(state)
        buttons.append(
            button(
                f"{'✅' if on else '▫️'} {views.state_name(t, state)}",
                MatterStateCD(tracker_id=tracker.id, v=tracker.version, cid=cid, s=i, on=not on),
            )
        )
    rows = in_rows(buttons, 3)
    if water is not None:
        label = t("🌊 In the water")
        label = f"{'✅' if water else '▫️'} {label}"
        rows.append(
            [button(label, MatterWaterCD(tracker_id=tracker.id, v=tracker.version, cid=cid))]
        )
    if sheet.has_state(StateId.CRIPPLED):
        tid, v = tracker.id, tracker.version
        rows.append(
            [
                button(
                    t("🩸 Roll Tenacity"), MatterCrippledCD(tracker_id=tid, v=v, cid=cid, wp=False)
                ),
                button(
                    t("🩸 Spend Willpower"),
                    MatterCrippledCD(tracker_id=tid, v=v, cid=cid, wp=True),
                ),
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=[*rows, _back(t, tracker, "who")])


def conditions_keyboard(
    t: Translator, tracker: TrackerDTO, state: service.SceneState
) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[*_condition_buttons(t, tracker, state), _back(t, tracker)]
    )


# --- rendering -------------------------------------------------------------------------------


async def _game(uow: UnitOfWork, tracker: TrackerDTO) -> GameDTO:
    game = await uow.games.get(tracker.game_id)
    assert game is not None
    return game


async def render(
    uow: UnitOfWork, t: Translator, tracker: TrackerDTO, menu: str = "main", cid: int = 0
) -> Rendered:
    game = await _game(uow, tracker)
    state = service.parse(tracker)
    if state.phase is service.Phase.SETUP:
        candidates = await service.candidates(uow, game)
        text = views.setup_text(t, state, candidates)
        keyboard = setup_keyboard(t, tracker, state, candidates) if tracker.is_open else None
        return text, keyboard
    rows = await service.members(uow, game, state)
    sheets = {c: service.sheet_of(r) for c, r in rows.items()}
    if not tracker.is_open:
        return views.scene_text(t, state, rows, sheets), None
    if menu == "st" and cid not in rows:
        menu = "main"
    name = rows[cid].name if menu == "st" else ""
    text = views.scene_text(t, state, rows, sheets, views.menu_hint(t, menu, name))
    if menu == "who":
        return text, who_keyboard(t, tracker, rows)
    if menu == "st":
        water = str(cid) not in state.scene.out_of_water if service.flooded(state) else None
        return text, states_keyboard(t, tracker, cid, sheets[cid], water)
    if menu == "cond":
        return text, conditions_keyboard(t, tracker, state)
    return text, main_keyboard(t, tracker)


async def _registered(uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> Rendered:
    return await render(uow, t, tracker)


register(service.KIND, _registered)


# --- handlers --------------------------------------------------------------------------------


async def open_scene(
    message: Message, game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n,
    chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await open_and_post(
        message,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: service.open_scene(uow, game, actor_user_id=user.id),
    )


async def _step(
    query: CallbackQuery, callback_answer: CallbackAnswer, uow: UnitOfWork, i18n: I18n,
    chat_info: ChatDTO | None, t: Translator, action: Callable[[], Awaitable[TrackerDTO]],
    menu: str = "main", cid: int = 0,
) -> None:  # fmt: skip
    """Run one step; a refusal is an alert and nothing is written (not even a roll)."""
    message = query.message
    if not isinstance(message, Message):
        return
    tracker = await step_on(message, callback_answer, uow, t, action)
    if tracker is None:
        return
    text, keyboard = await render(uow, chat_translator(i18n, chat_info), tracker, menu, cid)
    await edit_text(message, text, keyboard)


def _who(user: UserDTO) -> str:
    return user.name


async def press_member(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterMemberCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d = callback_data
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.toggle_member(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, cid=d.cid))  # fmt: skip


async def press_condition(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterCondCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d = callback_data
    if not 0 <= d.c < len(CONDITION_IDS):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.toggle_condition(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, condition=CONDITION_IDS[d.c],
    ), menu="cond")  # fmt: skip


async def press_start(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterStartCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d, locale = callback_data, chat_translator(i18n, chat_info).locale
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.start(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, actor_name=_who(user),
        locale=locale))  # fmt: skip


async def press_next(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterNextCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d, locale = callback_data, chat_translator(i18n, chat_info).locale
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.next_turn(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, actor_name=_who(user),
        locale=locale))  # fmt: skip


async def press_state(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterStateCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d, locale = callback_data, chat_translator(i18n, chat_info).locale
    if not 0 <= d.s < len(STATE_IDS):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.set_state(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, actor_name=_who(user),
        locale=locale, cid=d.cid, state_id=STATE_IDS[d.s], on=d.on,
    ), menu="st", cid=d.cid)  # fmt: skip


async def press_water(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterWaterCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d = callback_data
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.toggle_water(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, cid=d.cid,
    ), menu="st", cid=d.cid)  # fmt: skip


async def press_crippled(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterCrippledCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d, locale = callback_data, chat_translator(i18n, chat_info).locale
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.crippled_check(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id, actor_name=_who(user),
        locale=locale, cid=d.cid, willpower=d.wp,
    ), menu="st", cid=d.cid)  # fmt: skip


async def ask_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterEndCD,
    game: GameDTO, uow: UnitOfWork, t: Translator,
) -> None:  # fmt: skip
    """«End» asks first: its keyboard turns into «Yes, end it» / «Cancel» in place."""
    d = callback_data
    yes = button(t("🏁 Yes, end it"), MatterEndYesCD(tracker_id=d.tracker_id, v=d.v))
    await common.ask_end(
        query, callback_answer, uow, t, game, tracker_id=d.tracker_id, kind=service.KIND,
        shown=d.v, yes=yes,
    )  # fmt: skip


async def press_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterEndYesCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    d = callback_data
    await _step(query, callback_answer, uow, i18n, chat_info, t, lambda: service.end(
        uow, game, d.tracker_id, v=d.v, actor_user_id=user.id))  # fmt: skip


async def press_menu(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterMenuCD,
    game: GameDTO, user: UserDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    """Only the keyboard changes (no step): the GM walks to a menu at the same version."""
    message = query.message
    if not isinstance(message, Message):
        return
    d = callback_data
    try:
        tracker = await core.load(
            uow, d.tracker_id, chat_id=message.chat.id, kind=service.KIND,
            message_id=message.message_id,
        )  # fmt: skip
        if tracker.version != d.v:
            raise core.TrackerRefused(core.STALE)
        if not await is_gm(uow, game, user.id):
            raise core.TrackerRefused(service.GM_ONLY)
    except core.TrackerRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    text, keyboard = await render(uow, chat_translator(i18n, chat_info), tracker, d.m, d.cid)
    await edit_text(message, text, keyboard)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    commands = Command("scene", "fight")
    router.message.register(open_scene, commands, GameSystem("matter"), IsGM())
    router.message.register(gm_only, commands, GameSystem("matter"))
    router.message.register(no_game, commands, _no_game)
    mine = GameSystem("matter")
    router.callback_query.register(press_member, MatterMemberCD.filter(), mine)
    router.callback_query.register(press_condition, MatterCondCD.filter(), mine)
    router.callback_query.register(press_start, MatterStartCD.filter(), mine)
    router.callback_query.register(press_next, MatterNextCD.filter(), mine)
    router.callback_query.register(press_state, MatterStateCD.filter(), mine)
    router.callback_query.register(press_water, MatterWaterCD.filter(), mine)
    router.callback_query.register(press_crippled, MatterCrippledCD.filter(), mine)
    router.callback_query.register(ask_end, MatterEndCD.filter(), mine)
    router.callback_query.register(press_end, MatterEndYesCD.filter(), mine)
    router.callback_query.register(press_menu, MatterMenuCD.filter(), mine)
    return router


async def _no_game(message: Message, uow: UnitOfWork) -> bool:
    """No live game in this chat (a game of another system answers in its own router)."""
    return await uow.games.live_for_chat(message.chat.id) is None
