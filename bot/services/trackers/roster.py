"""Newcomers and leavers (issue 24 item 2): the GM adds a character or NPC to the open fight,
conflict or scene, or takes one out, while it runs — ``/join Name``, ``/leave Name``.

Each tracker kind says how its state takes someone in or lets them go (``OPS``, by kind: the
bot never asks which system it is). In a fight that has begun a newcomer takes their place in
the initiative order among those who have not acted yet this round (never before the one
acting: the order of a round already under way stays fair); the acting character cannot be
taken out until their turn is passed. Each change is one tracker step, so the GM's «↩️ Undo»
takes it back. Nothing here commits.

DECISIONS: a cliché fight under way takes a newcomer on its side (NPCs the second, characters
the first) with its biggest cliché, appropriate; it rolls from the next round, as the rollers
of an open round are fixed when it opens. The seed leaves the fight's shape to the GM («Мастер
определяет момент начала боя») and says nothing of latecomers. A leaver goes between rolls, as
the seed lets a team disband «в любой момент между бросками», and loses nothing (it is the GM's
roster, not a defeat); an open round they are in with no roll made yet is withdrawn. Refused,
saying what to do first: while a roll they are in is half made, while they are in a team (the
team's «🚪» is the seed's way out, at zero dice), and for the last one standing on a side
(«🏁 End» ends the fight). A lifegear duel is two duellists («Дуэль — сражение между
персонажами… оба противника»): once started, a duellist's /leave is a yield that ends the duel
as «Stop» does (so, like «Stop», it is not undone from the tracker), and a /join is refused
naming what to do instead — the seed lets others present only agree to stay out or to help
(«договориться о невмешательстве остальных присутствующих. Или, наоборот, о помощи»): stop the
duel and open a /duel or a /fight. A Fate participant leaves only between actions (nothing
pending), and the free invokes they held go with them.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n import N_
from bot.services import names
from bot.services.games import is_gm
from bot.services.rolls import roll_logged
from bot.services.trackers import cliche as cliche_service
from bot.services.trackers import core
from bot.services.trackers import fate as fate_service
from bot.services.trackers import lifegear as lifegear_service
from bot.services.trackers import matter as matter_service
from bot.services.trackers import storyteller as st_service
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.dice.source import ScriptedSource
from engine.systems import fate, matter
from engine.systems import storyteller as st
from engine.systems.fate import Participant

NOTHING_OPEN: Final = N_("Nothing is going on: no fight or scene is open.")
ALREADY_IN: Final = N_("{name} is already taking part.")
NOT_IN: Final = N_("{name} is not taking part.")
ACTING: Final = N_("It is {name}'s turn: pass the turn first, then take them out.")
PENDING: Final = N_("An action is in progress: finish it first.")
NO_SUCH: Final = N_("No active character or NPC of this game is called «{name}».")
MONSTER: Final = N_(
    "«{name}» is a monster: characters fight it, it does not join a fight. To fight it: "
    "/fight {name} (one fight at a time)."
)
MONSTER_HERE: Final = N_(
    "«{name}» is this fight's monster: the characters fight it, it does not join them."
)
DUEL_STARTED: Final = N_(
    "A duel is between its two duellists: others present may only stay out or help. "
    "To fight together, stop the duel with «⏹ Stop» and open a /duel or, against a monster, "
    "a /fight."
)
DUEL_FULL: Final = N_("A duel is between two characters.")
NO_SIDES: Final = N_("Nobody takes a side here: write /join Name without «: 1» or «: 2».")
SIDE_WHEN_JOINING: Final = N_("A side is chosen when joining: /leave Name takes no side.")


class RosterRefused(core.TrackerRefused):
    """A refusal naming the character: ``params`` fill the msgid's placeholders."""

    def __init__(self, reason: str, **params: str) -> None:
        super().__init__(reason)
        self.params = params


class NameUnresolved(core.TrackerRefused):
    """The name named no active character or NPC, or several: the candidates go with it."""

    def __init__(self, result: names.NotFound | names.Ambiguous) -> None:
        super().__init__(NO_SUCH)
        self.result = result


@dataclass(frozen=True)
class Change:
    """What the GM asked: who, by whom (for a logged roll's name)."""

    game: GameDTO
    tracker: TrackerDTO
    row: CharacterDTO
    user_id: int
    user_name: str
    side: int | None = None  # the GM's choice (1 or 2) where the tracker has sides


State = dict[str, Any]
# The tracker's new state (``change`` writes the step), or the step an op took itself (a
# duellist's yield ends the duel as «Stop» does).
Op = Callable[[UnitOfWork, Change], Awaitable[State | TrackerDTO]]


@dataclass(frozen=True)
class RosterOps:
    join: Op
    leave: Op
    sides: bool = False  # a newcomer takes side 1 or 2 (by default: NPCs the second)


def side_of(c: Change) -> int:
    """The newcomer's side: the GM's choice, else characters the first and NPCs the second
    (an allied NPC needs ``/join Name: 1``)."""
    return c.side or (2 if c.row.is_npc else 1)


# --- the order of a round under way ------------------------------------------------------------


def insert_in_order(
    order: Sequence[str], turn: int, new: str, rank: Callable[[str], float]
) -> tuple[list[str], int]:
    """``new`` placed after the one acting (index ``turn``), before the first of those still to
    act this round whom it outranks (lower ``rank`` acts earlier). The turn index is unchanged:
    the newcomer never comes before the acting one."""
    out = list(order)
    pos = len(out)
    for i in range(turn + 1, len(out)):
        if rank(out[i]) > rank(new):
            pos = i
            break
    out.insert(pos, new)
    return out, turn


def remove_from_order(order: Sequence[str], turn: int, gone: str) -> tuple[list[str], int]:
    """``gone`` out of the order (not the one acting): the turn index follows the actor."""
    index = list(order).index(gone)
    out = [x for x in order if x != gone]
    return out, turn - 1 if index < turn else turn


# --- fate ---------------------------------------------------------------------------------------


def _fate_conflict(state: State) -> fate.ConflictState | None:
    return fate_service.conflict_of(state) if state.get("phase") == "play" else None


async def _fate_join(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    key = str(c.row.id)
    if all(str(e["id"]) != key for e in state["roster"]):
        state["roster"] = [*state["roster"], fate_service._entry(c.row)]
    side = side_of(c)
    conflict = _fate_conflict(state)
    if conflict is None:  # the set-up: put them on their side
        if int(state["sides"].get(key, 0)):
            raise RosterRefused(ALREADY_IN, name=c.row.name)
        state["sides"] = {**state["sides"], key: side}
        return state
    if any(p.id == key for p in conflict.participants):
        raise RosterRefused(ALREADY_IN, name=c.row.name)
    sheet = await fate_service._sheet(uow, c.game, key)
    newcomer = Participant(
        id=key, name=c.row.name, side=fate_service.SIDES[side - 1],
        initiative=fate.initiative(sheet),
    )  # fmt: skip
    initiative = {p.id: p.initiative for p in (*conflict.participants, newcomer)}
    order, turn = insert_in_order(conflict.order, conflict.turn, key, lambda p: -initiative[p])
    conflict = conflict.model_copy(
        update={
            "participants": (*conflict.participants, newcomer),
            "order": tuple(order),
            "turn": turn,
        }
    )
    fate_service._put(state, conflict)
    state["sides"] = {**state["sides"], key: side}
    return state


def _without_holder(aspect: fate.SceneAspect, holder: str) -> fate.SceneAspect:
    invokes = {h: n for h, n in aspect.free_invokes.items() if h != holder}
    return aspect.model_copy(update={"free_invokes": invokes})


async def _fate_leave(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    key = str(c.row.id)
    conflict = _fate_conflict(state)
    if conflict is None:
        if not int(state["sides"].get(key, 0)):
            raise RosterRefused(NOT_IN, name=c.row.name)
        state["sides"] = {**state["sides"], key: 0}
        return state
    if all(p.id != key for p in conflict.participants):
        raise RosterRefused(NOT_IN, name=c.row.name)
    if conflict.current == key:
        raise RosterRefused(ACTING, name=c.row.name)
    if state.get("pending"):
        raise core.TrackerRefused(PENDING)
    order, turn = remove_from_order(conflict.order, conflict.turn, key)
    zones = tuple(
        zone.model_copy(update={"aspects": tuple(_without_holder(a, key) for a in zone.aspects)})
        for zone in conflict.zones
    )
    conflict = conflict.model_copy(
        update={
            "participants": tuple(p for p in conflict.participants if p.id != key),
            "order": tuple(order),
            "turn": turn,
            "zones": zones,
        }
    )
    fate_service._put(state, conflict)
    state["sides"] = {**state["sides"], key: 0}
    return state


# --- storyteller --------------------------------------------------------------------------------


async def _st_join(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    cid, key = c.row.id, str(c.row.id)
    state["names"] = {**state["names"], key: c.row.name}
    if c.row.is_npc and cid not in state["npc"]:
        state["npc"] = [*state["npc"], cid]
    if cid not in state["pool"]:
        state["pool"] = [*state["pool"], cid]
    if state["phase"] == "setup":
        if cid in state["chosen"]:
            raise RosterRefused(ALREADY_IN, name=c.row.name)
        state["chosen"] = [x for x in state["pool"] if x in state["chosen"] or x == cid]
        return state
    if cid in state["order"]:
        raise RosterRefused(ALREADY_IN, name=c.row.name)
    sheet = st_service.load_sheet(c.row)
    rating = st.initiative_rating(sheet)
    faces: tuple[int, ...] = ()
    if rating is not None:  # their initiative roll, logged like the others'
        logged = await roll_logged(
            uow, chat_id=c.game.chat_id, roll_id=f"trk:{c.tracker.id}:{c.tracker.version}:j",
            text=st.initiative_notation(rating), actor=c.user_name, subject=c.row.name,
            actor_user_id=c.user_id, commit=False,
        )  # fmt: skip
        faces = logged.result.faces
    rolled = st.roll_initiative(sheet, ScriptedSource(faces))
    init = {**state["init"], key: [rolled.rating, rolled.die, rolled.total]}
    order, turn = insert_in_order(
        [str(x) for x in state["order"]], int(state["turn"]), key, lambda x: -init[x][2]
    )
    state.update(
        order=[int(x) for x in order], turn=turn, init=init, chosen=[*state["chosen"], cid]
    )
    return state


async def _st_leave(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    cid = c.row.id
    if state["phase"] == "setup":
        if cid not in state["chosen"]:
            raise RosterRefused(NOT_IN, name=c.row.name)
        state["chosen"] = [x for x in state["chosen"] if x != cid]
        return state
    if cid not in state["order"]:
        raise RosterRefused(NOT_IN, name=c.row.name)
    if st_service.actor_id(state) == cid:
        raise RosterRefused(ACTING, name=c.row.name)
    order, turn = remove_from_order(
        [str(x) for x in state["order"]], int(state["turn"]) % len(state["order"]), str(cid)
    )
    state.update(
        order=[int(x) for x in order], turn=turn,
        chosen=[x for x in state["chosen"] if x != cid],
        ext={k: v for k, v in state.get("ext", {}).items() if k != str(cid)},
    )  # fmt: skip
    return state


# --- matter -------------------------------------------------------------------------------------


async def _matter_join(uow: UnitOfWork, c: Change) -> State:
    state = matter_service.parse(c.tracker)
    cid = c.row.id
    if cid in state.members:
        raise RosterRefused(ALREADY_IN, name=c.row.name)
    state.members.append(cid)
    if state.phase is matter_service.Phase.RUNNING:
        rows = await matter_service.members(uow, c.game, state)
        sheets = {str(x): matter_service.sheet_of(r) for x, r in rows.items()}
        ranked = {x: i for i, x in enumerate(matter.initiative_order(sheets))}
        order, turn = insert_in_order(
            [str(x) for x in state.order], state.turn, str(cid),
            lambda x: ranked.get(x, len(ranked)),
        )  # fmt: skip
        state.order, state.turn = [int(x) for x in order], turn
    return matter_service._dump(state)


async def _matter_leave(uow: UnitOfWork, c: Change) -> State:
    state = matter_service.parse(c.tracker)
    cid = c.row.id
    if cid not in state.members:
        raise RosterRefused(NOT_IN, name=c.row.name)
    if state.phase is matter_service.Phase.RUNNING and state.acting() == cid:
        raise RosterRefused(ACTING, name=c.row.name)
    state.members.remove(cid)
    if cid in state.order:
        order, turn = remove_from_order([str(x) for x in state.order], state.turn, str(cid))
        state.order, state.turn = [int(x) for x in order], turn
    return matter_service._dump(state)


# --- lifegear -----------------------------------------------------------------------------------


async def _lifegear_join(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    cid = c.row.id
    if cid not in await lifegear_service.fighters(uow, c.game.id):
        if c.row.is_npc and await lifegear_service.monster_npc(uow, c.game, c.row.name):
            fought = (state.get("monster") or {}).get("name")
            here = names.fold(str(fought or "")) == names.fold(c.row.name)
            raise RosterRefused(MONSTER_HERE if here else MONSTER, name=c.row.name)
        raise RosterRefused(NO_SUCH, name=c.row.name)
    chosen = lifegear_service.ids(state)
    if cid in chosen:
        raise RosterRefused(ALREADY_IN, name=c.row.name)
    duel = c.tracker.kind == lifegear_service.DUEL
    if duel and state.get("phase") != "setup":
        raise core.TrackerRefused(DUEL_STARTED)
    if duel and len(chosen) >= 2:
        raise core.TrackerRefused(DUEL_FULL)
    state["ids"] = [*chosen, cid]  # in a fast combat under way they roll this round too
    return state


async def _lifegear_leave(uow: UnitOfWork, c: Change) -> State | TrackerDTO:
    state = copy.deepcopy(c.tracker.state)
    cid = c.row.id
    chosen = lifegear_service.ids(state)
    if cid not in chosen:
        raise RosterRefused(NOT_IN, name=c.row.name)
    if state.get("phase") != "setup":
        if c.tracker.kind == lifegear_service.DUEL:  # the one who leaves yields
            return await lifegear_service.yield_duel(
                uow, c.game, c.tracker, cid, user_id=c.user_id
            )
        if lifegear_service.pending_of(state, cid) is not None:
            raise core.TrackerRefused(PENDING)
        state["rolled"] = [x for x in state.get("rolled", []) if int(x) != cid]
        state["choosing"] = [x for x in state.get("choosing", []) if int(x) != cid]
    state["ids"] = [x for x in chosen if x != cid]
    return state


# --- cliché -------------------------------------------------------------------------------------


async def _cliche_join(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    key = str(c.row.id)
    if state.get("phase") == "fight":  # under way: a side, from the next round
        if cliche_service.in_fight(state, c.row.id):
            raise RosterRefused(ALREADY_IN, name=c.row.name)
        cliche_service.join_fight(state, c.row, side=cliche_service.SIDES[side_of(c) - 1])
        return state
    if key in state["sides"]:
        raise RosterRefused(ALREADY_IN, name=c.row.name)
    chosen = cliche_service.default_cliche(cliche_service.sheet_of(c.row))
    if chosen is None:
        raise core.TrackerRefused(cliche_service.NO_DICE)
    state["sides"][key] = cliche_service.SIDES[side_of(c) - 1]
    state["use"].setdefault(key, [chosen])
    return state


async def _cliche_leave(uow: UnitOfWork, c: Change) -> State:
    state = copy.deepcopy(c.tracker.state)
    key = str(c.row.id)
    if state.get("phase") == "fight":
        if not cliche_service.in_fight(state, c.row.id):
            raise RosterRefused(NOT_IN, name=c.row.name)
        try:
            cliche_service.leave_fight(state, c.row)
        except cliche_service.Refused as refused:
            raise RosterRefused(refused.reason, **refused.params) from None
        return state
    if key not in state["sides"]:
        raise RosterRefused(NOT_IN, name=c.row.name)
    for field in ("sides", "use", "fit"):
        state[field].pop(key, None)
    state["focus"] = None
    return state


OPS: Final[dict[str, RosterOps]] = {
    fate_service.KIND: RosterOps(_fate_join, _fate_leave, sides=True),
    st_service.KIND: RosterOps(_st_join, _st_leave),
    matter_service.KIND: RosterOps(_matter_join, _matter_leave),
    lifegear_service.COMBAT: RosterOps(_lifegear_join, _lifegear_leave),
    lifegear_service.DUEL: RosterOps(_lifegear_join, _lifegear_leave),
    cliche_service.KIND: RosterOps(_cliche_join, _cliche_leave, sides=True),
}


# --- the use case -------------------------------------------------------------------------------


async def change(
    uow: UnitOfWork, game: GameDTO, *, user_id: int, user_name: str, name: str, joining: bool,
    side: int | None = None,
) -> tuple[TrackerDTO, CharacterDTO]:  # fmt: skip
    """The GM adds (``joining``, on ``side`` where the tracker has sides) or takes out the
    character called ``name``: one step of the game's open tracker. Raises
    ``core.TrackerRefused`` (``RosterRefused`` with the name)."""
    if side is not None and not joining:
        raise core.TrackerRefused(SIDE_WHEN_JOINING)
    if not await is_gm(uow, game, user_id):
        raise core.TrackerRefused(N_("Only the GM can do that."))
    found = await core.current(uow, game)
    if found is None:
        raise core.TrackerRefused(NOTHING_OPEN)
    tracker = await core.load(uow, found.id, chat_id=game.chat_id)
    rows = [
        r for r in await uow.characters.for_game(game.id, statuses=("active",))
        if r.system == game.system
    ]  # fmt: skip
    result = names.resolve(rows, name)
    if not isinstance(result, names.Found):
        raise NameUnresolved(result)
    row = result.character
    ops = OPS.get(tracker.kind)
    if ops is None:
        raise core.TrackerRefused(NOTHING_OPEN)
    if side is not None and not ops.sides:
        raise core.TrackerRefused(NO_SIDES)
    state = await (ops.join if joining else ops.leave)(
        uow, Change(game, tracker, row, user_id, user_name, side)
    )
    if isinstance(state, TrackerDTO):
        return state, row
    moved = await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id,
        action="join" if joining else "leave", state=state,
    )  # fmt: skip
    return moved, row
