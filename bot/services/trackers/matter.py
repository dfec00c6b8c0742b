"""The ``matter`` scene (issue 10) as a tracker: round counter, initiative, states with their
remaining turns, scene conditions; «next turn» runs the engine's condition checks and ticks.

Set-up: the GM toggles who takes part and the scene's conditions, then starts the scene: the
engine moves it into round 1 (``advance_turn``: ticks, Наводнение, the per-turn chance rolls) and
the initiative order is taken (``initiative_order``: no roll in seed 004, the Initiative trait
with Ускорение first and Медлительность/Оглушен last). «Next turn» passes the turn along that
order; after the last one the engine advances the scene into the next round and the order is
taken again. The GM gives or takes states (a state given is resisted by the rules, through
``scene_apply_state``) and toggles conditions; «End» expires the scene-bound states
(``end_scene``).

Every roll the engine makes is logged through the verifiable roll log under
``trk:<tracker>:<version>:<slot>`` and its logged faces are fed back into the engine
(``run_logged``); every sheet change goes through the ledger with the step's batch, so the GM's
undo reverts the sheets together with the tracker. Nothing here commits.

DECISIONs: the order is fixed for a round once taken (a state gained mid-round counts from the
next round); a participant who leaves the game (retired, deleted) drops out of the scene at the
next step; a character under Стоп has no turn (the engine's order leaves them out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final, TypeAlias, TypeVar

from pydantic import BaseModel, Field

from bot.i18n import N_
from bot.services import ledger
from bot.services.games import is_gm
from bot.services.rolls import roll_logged
from bot.services.trackers import concurrent, core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.dice.source import RandomSource
from engine.systems import matter
from engine.systems.matter.conditions import CONDITIONS, ConditionId
from engine.systems.matter.events import Event, EventKind
from engine.systems.matter.logged import Done, run_logged
from engine.systems.matter.states import STATES, StateId

KIND: Final = "matter_scene"
LOG_KEEP: Final = 80  # log entries kept in the tracker's state (the message clips further)
GM_ONLY: Final = N_("Only the GM can do that.")
NOT_YOURS: Final = N_("It is not your turn: the acting character's player or the GM moves on.")

R = TypeVar("R")
_Advanced: TypeAlias = tuple[matter.Scene, dict[str, matter.Character], matter.TurnReport]


class Phase(StrEnum):
    SETUP = "setup"
    RUNNING = "running"
    ENDED = "ended"


class Entry(BaseModel):
    """One log line, kept as data (rendered in the chat's language).

    ``k`` is an engine ``EventKind`` or one of the tracker's own: ``start``, ``round``,
    ``cond_on``/``cond_off``, ``water_in``/``water_out``, ``end``. A state the GM gives
    or takes is logged by the engine's own events (gained, resisted, removed…). Passing the
    turn is not logged: the head shows whose turn it is, and the log keeps room for rolls.
    """

    k: str
    r: int = 0
    c: int = 0
    s: str = ""
    o: str = ""
    h: str = ""
    n: str = ""
    f: list[int] = Field(default_factory=list)
    ok: int = 0
    crit: bool = False
    p: str = ""  # the roll's purpose (``RollPurpose``)


class SceneState(BaseModel):
    phase: Phase = Phase.SETUP
    members: list[int] = Field(default_factory=list)
    scene: matter.Scene = Field(default_factory=matter.Scene)
    order: list[int] = Field(default_factory=list)
    turn: int = 0
    log: list[Entry] = Field(default_factory=list)

    def acting(self) -> int | None:
        return self.order[self.turn] if 0 <= self.turn < len(self.order) else None


def parse(tracker: TrackerDTO) -> SceneState:
    return SceneState.model_validate(tracker.state)


def _dump(state: SceneState) -> dict[str, object]:
    state.log = state.log[-LOG_KEEP:]
    return state.model_dump(mode="json")


# --- reading the table ------------------------------------------------------------------------


async def candidates(uow: UnitOfWork, game: GameDTO) -> list[CharacterDTO]:
    """The game's active characters and NPCs, in creation order."""
    found = await uow.characters.for_game(game.id, statuses=("active",))
    return [c for c in found if c.system == matter.SYSTEM_ID]


def sheet_of(row: CharacterDTO) -> matter.Character:
    sheet = SYSTEMS[matter.SYSTEM_ID].load(row.sheet, row.schema_version)
    assert isinstance(sheet, matter.Character)
    return sheet


async def members(uow: UnitOfWork, game: GameDTO, state: SceneState) -> dict[int, CharacterDTO]:
    """The participants still in the game, in the order they were chosen."""
    rows = {c.id: c for c in await candidates(uow, game)}
    return {cid: rows[cid] for cid in state.members if cid in rows}


# --- the steps --------------------------------------------------------------------------------


async def open_scene(uow: UnitOfWork, game: GameDTO, *, actor_user_id: int) -> TrackerDTO:
    """The GM opens a scene in set-up; the players' characters are chosen already."""
    if not await is_gm(uow, game, actor_user_id):
        raise core.TrackerRefused(GM_ONLY)
    chosen = [c.id for c in await candidates(uow, game) if not c.is_npc]
    state = SceneState(members=chosen)
    return await core.open_tracker(
        uow, game, kind=KIND, state=_dump(state), actor_user_id=actor_user_id
    )


async def _load(
    uow: UnitOfWork,
    game: GameDTO,
    tracker_id: int,
    v: int,
    *,
    gm: bool,
    actor_user_id: int,
    toggle: bool = False,
) -> tuple[TrackerDTO, SceneState]:
    """The tracker at version ``v``; a set-up ``toggle`` also at a recent older version
    (``concurrent.recent``: the GM's quick taps each apply)."""
    tracker = await core.load(uow, tracker_id, chat_id=game.chat_id, kind=KIND)
    if toggle and parse(tracker).phase is Phase.SETUP:
        concurrent.recent(tracker, v)
    elif tracker.version != v:
        raise core.TrackerRefused(core.STALE)
    if gm and not await is_gm(uow, game, actor_user_id):
        raise core.TrackerRefused(GM_ONLY)
    return tracker, parse(tracker)


async def toggle_member(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int, cid: int
) -> TrackerDTO:
    tracker, state = await _load(
        uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id, toggle=True
    )
    if state.phase is not Phase.SETUP or cid not in {c.id for c in await candidates(uow, game)}:
        raise core.TrackerRefused(N_("This button is no longer active."))
    if cid in state.members:
        state.members.remove(cid)
    else:
        state.members.append(cid)
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=actor_user_id,
        action="member", state=_dump(state),
    )  # fmt: skip


async def toggle_condition(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int,
    condition: ConditionId,
) -> TrackerDTO:  # fmt: skip
    """Set-up or running: the GM adds or lifts a scene condition."""
    tracker, state = await _load(
        uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id, toggle=True
    )
    conds = list(state.scene.conditions)
    on = condition not in conds
    conds = [*conds, condition] if on else [c for c in conds if c is not condition]
    state.scene = state.scene.model_copy(update={"conditions": tuple(conds)})
    if state.phase is Phase.RUNNING:
        state.log.append(
            Entry(k="cond_on" if on else "cond_off", r=state.scene.round, o=condition)
        )
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=actor_user_id,
        action="condition", state=_dump(state),
    )  # fmt: skip


def flooded(state: SceneState) -> bool:
    """Наводнение is on (by itself or as part of Шторм)."""
    return ConditionId.DELUGE in matter.active_conditions(state.scene)


async def toggle_water(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int, cid: int
) -> TrackerDTO:
    """Наводнение: the GM marks who got out of the water (everyone is in it by default)."""
    tracker, state = await _load(uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id)
    rows = await members(uow, game, state)
    if state.phase is not Phase.RUNNING or cid not in rows or not flooded(state):
        raise core.TrackerRefused(N_("This button is no longer active."))
    out = str(cid) in state.scene.out_of_water
    state.scene = matter.set_in_water(state.scene, str(cid), in_water=out)
    state.log.append(Entry(k="water_in" if out else "water_out", r=state.scene.round, c=cid))
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id, action="water",
        state=_dump(state),
    )  # fmt: skip


class _Run:
    """One step's rolling context: where its rolls go in the log and who made them."""

    def __init__(
        self, uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, actor_user_id: int,
        actor_name: str, names: dict[int, str], locale: str,
    ) -> None:  # fmt: skip
        self.uow = uow
        self.game = game
        self.tracker = tracker
        self.actor_user_id = actor_user_id
        self.actor_name = actor_name
        self.names = names
        self.locale = locale
        self.slot = 0

    def _subject(self, event: Event) -> str:
        name = self.names.get(int(event.character_id or 0), "?")
        what = event.origin or (event.state.value if event.state else "")
        if what in CONDITIONS:
            row = CONDITIONS[ConditionId(what)]
            what = row.name_ru if self.locale == "ru" else row.name_en
        elif what in STATES:
            srow = STATES[StateId(what)]
            what = srow.name_ru if self.locale == "ru" else srow.name_en
        return f"{name}: {what}" if what else name

    async def rolled(
        self, operation: Callable[[RandomSource], R], rolls_of: Callable[[R], Sequence[Event]]
    ) -> R:
        """Run ``operation`` with every roll it needs logged first (see ``run_logged``)."""
        faces: list[tuple[int, ...]] = []
        while True:
            found = run_logged(operation, rolls_of, faces)
            if isinstance(found, Done):
                return found.result
            logged = await roll_logged(
                self.uow, chat_id=self.game.chat_id,
                roll_id=f"trk:{self.tracker.id}:{self.tracker.version}:{self.slot}",
                text=found.notation, actor=self.actor_name, subject=self._subject(found.event),
                actor_user_id=self.actor_user_id, commit=False,
            )  # fmt: skip
            self.slot += 1
            faces.append(tuple(logged.result.faces))


def _entries(events: Sequence[Event], round_no: int) -> list[Entry]:
    out: list[Entry] = []
    for e in events:
        roll = e.roll
        out.append(
            Entry(
                k=e.kind.value,
                r=round_no,
                c=int(e.character_id or 0),
                s=e.state.value if e.state else "",
                o=e.origin,
                h=e.hazard.value if e.hazard else "",
                n=roll.notation if roll else "",
                f=list(roll.faces) if roll else [],
                ok=roll.successes if roll else 0,
                crit=bool(roll and roll.critical_failure),
                p=e.purpose.value if e.purpose else "",
            )
        )
    return out


def _becomes(sheet: matter.Character) -> ledger.Mutation:
    """The ledger's operation: the sheet computed on the locked row."""
    return lambda _locked: sheet


async def _write(
    uow: UnitOfWork, game: GameDTO, actor_user_id: int, kind: str,
    before: dict[int, matter.Character], after: dict[int, matter.Character],
) -> str | None:  # fmt: skip
    """The changed sheets through the ledger as one batch (None when nothing changed)."""
    changes = {cid: _becomes(sheet) for cid, sheet in after.items() if sheet != before[cid]}
    if not changes:
        return None
    batch = ledger.new_batch()
    try:
        await ledger.change_sheets(
            uow, game=game, actor_user_id=actor_user_id, kind=kind, changes=changes, batch=batch
        )
    except ledger.LedgerError as error:
        raise core.TrackerRefused(error.reason) from error
    return batch


async def _locked_sheets(
    uow: UnitOfWork, rows: dict[int, CharacterDTO]
) -> dict[int, matter.Character]:
    """The participants' sheets, locked for this step (the ledger writes them after)."""
    locked = {r.id: r for r in await uow.characters.lock_many(sorted(rows))}
    return {cid: sheet_of(locked[cid]) for cid in rows if cid in locked}


async def _advance(run: _Run, state: SceneState, rows: dict[int, CharacterDTO]) -> str | None:
    """The scene moves into its next round: the engine's ticks and checks with logged rolls,
    then the initiative order of the new round."""
    sheets = await _locked_sheets(run.uow, rows)
    chars = {str(cid): sheets[cid] for cid in rows}
    scene = state.scene

    def operation(source: RandomSource) -> _Advanced:
        return matter.advance_turn(scene, chars, source)

    new_scene, new_chars, report = await run.rolled(operation, lambda r: r[2].rolls)
    after = {int(cid): sheet for cid, sheet in new_chars.items()}
    state.scene = new_scene
    state.log.append(Entry(k="round", r=new_scene.round))
    state.log.extend(_entries(report.events, new_scene.round))
    state.order = [int(cid) for cid in matter.initiative_order(new_chars)]
    state.turn = 0
    return await _write(run.uow, run.game, run.actor_user_id, "matter.scene.turn", sheets, after)


async def start(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int,
    actor_name: str, locale: str,
) -> TrackerDTO:  # fmt: skip
    tracker, state = await _load(uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id)
    if state.phase is not Phase.SETUP:
        raise core.TrackerRefused(N_("This button is no longer active."))
    rows = await members(uow, game, state)
    if not rows:
        raise core.TrackerRefused(N_("Choose at least one participant first."))
    state.members = list(rows)
    state.phase = Phase.RUNNING
    state.scene = matter.start_scene(state.scene.conditions)
    state.log.append(Entry(k="start"))
    names = {cid: r.name for cid, r in rows.items()}
    run = _Run(uow, game, tracker, actor_user_id, actor_name, names, locale)
    batch = await _advance(run, state, rows)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id, action="start",
        state=_dump(state), batch=batch,
    )  # fmt: skip


async def next_turn(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int,
    actor_name: str, locale: str,
) -> TrackerDTO:  # fmt: skip
    """The acting character's player (or the GM) ends the turn; after the last turn of the
    round the scene advances into the next round."""
    tracker, state = await _load(uow, game, tracker_id, v, gm=False, actor_user_id=actor_user_id)
    if state.phase is not Phase.RUNNING:
        raise core.TrackerRefused(N_("This button is no longer active."))
    rows = await members(uow, game, state)
    acting = state.acting()
    owner = rows[acting].owner_user_id if acting in rows else None
    if owner != actor_user_id and not await is_gm(uow, game, actor_user_id):
        raise core.TrackerRefused(NOT_YOURS)
    state.members = list(rows)
    state.turn += 1
    while state.acting() is not None and state.acting() not in rows:
        state.turn += 1  # someone who left the game meanwhile
    batch = None
    if state.acting() is None:
        names = {cid: r.name for cid, r in rows.items()}
        run = _Run(uow, game, tracker, actor_user_id, actor_name, names, locale)
        batch = await _advance(run, state, rows)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id, action="next",
        state=_dump(state), batch=batch,
    )  # fmt: skip


async def set_state(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int,
    actor_name: str, locale: str, cid: int, state_id: StateId, on: bool,
) -> TrackerDTO:  # fmt: skip
    """The GM gives a state (its resistance rolled by the rules, the scene's ground
    conditions counting) or takes one off."""
    tracker, state = await _load(uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id)
    rows = await members(uow, game, state)
    if state.phase is not Phase.RUNNING or cid not in rows:
        raise core.TrackerRefused(N_("This button is no longer active."))
    sheets = await _locked_sheets(uow, {cid: rows[cid]})
    sheet = sheets[cid]
    round_no = state.scene.round
    if on:
        run = _Run(uow, game, tracker, actor_user_id, actor_name, {cid: rows[cid].name}, locale)
        scene = state.scene

        def operation(source: RandomSource) -> tuple[matter.Character, matter.ApplyOutcome]:
            return matter.scene_apply_state(scene, str(cid), sheet, state_id, source)

        after, outcome = await run.rolled(operation, lambda r: r[1].events)
        events = outcome.events
    else:
        after, events = matter.remove_state(sheet, state_id)
    state.log.extend(_entries([_with_character(e, cid) for e in events], round_no))
    kind = "matter.state.apply" if on else "matter.state.remove"
    batch = await _write(uow, game, actor_user_id, kind, sheets, {cid: after})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id,
        action="state_on" if on else "state_off", state=_dump(state), batch=batch,
    )  # fmt: skip


async def crippled_check(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int,
    actor_name: str, locale: str, cid: int, willpower: bool,
) -> TrackerDTO:  # fmt: skip
    """Тяжело ранен, when the GM calls for it («раз в условный период»): an Упорство roll
    (failure costs 1 Health) or a dot of Willpower spent to hold on."""
    tracker, state = await _load(uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id)
    rows = await members(uow, game, state)
    if state.phase is not Phase.RUNNING or cid not in rows:
        raise core.TrackerRefused(N_("This button is no longer active."))
    sheets = await _locked_sheets(uow, {cid: rows[cid]})
    sheet = sheets[cid]
    run = _Run(uow, game, tracker, actor_user_id, actor_name, {cid: rows[cid].name}, locale)

    def operation(source: RandomSource) -> tuple[matter.Character, tuple[Event, ...]]:
        return matter.crippled_check(sheet, source, spend_willpower=willpower)

    after, events = await run.rolled(operation, lambda r: r[1])
    state.log.extend(_entries([_with_character(e, cid) for e in events], state.scene.round))
    batch = await _write(uow, game, actor_user_id, "matter.crippled", sheets, {cid: after})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id, action="crippled",
        state=_dump(state), batch=batch,
    )  # fmt: skip


def _with_character(event: Event, cid: int) -> Event:
    return dataclasses.replace(event, character_id=str(cid))


async def end(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, v: int, actor_user_id: int
) -> TrackerDTO:
    """The GM ends the scene: the scene-bound states end on everyone (until-cured ones stay).
    Ending in set-up just closes it."""
    tracker, state = await _load(uow, game, tracker_id, v, gm=True, actor_user_id=actor_user_id)
    batch = None
    if state.phase is Phase.RUNNING:
        rows = await members(uow, game, state)
        sheets = await _locked_sheets(uow, rows)
        chars = {str(cid): s for cid, s in sheets.items()}
        _scene, ended, _changed = matter.end_scene(state.scene, chars)
        after = {int(cid): s for cid, s in ended.items()}
        for cid, sheet in sheets.items():
            gone = [a.state for a in sheet.states if not after[cid].has_state(a.state)]
            state.log.extend(
                Entry(k=EventKind.EXPIRED.value, r=state.scene.round, c=cid, s=s) for s in gone
            )
        batch = await _write(uow, game, actor_user_id, "matter.scene.end", sheets, after)
    state.log.append(Entry(k="end", r=state.scene.round))
    state.phase = Phase.ENDED
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=actor_user_id, action="end",
        state=_dump(state), batch=batch, end=True,
    )  # fmt: skip
