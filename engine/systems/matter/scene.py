"""The scene: a round counter, its conditions, and advancing it one turn at a time.

``advance_turn`` moves the scene into the next round and, in this order, (1) ticks every
character's states, (2) lets Нетвёрдая почва / Скольжение cancel Ускорение, (3) rolls Наводнение's
round-start resistance, (4) rolls the per-turn chance rolls, (5) makes the standard checks of the
round. Characters are taken in the order of the mapping passed in. The report lists every event
in that order: every roll made and every state applied.

DECISIONs:
* a turn (ход) and a round (раунд) are the same step of the scene (the seed mixes the words:
  «через каждые 2 хода … на 2й раунд»);
* a standard check is an ordinary d10 pool (7+, 0-again); one success means the hazard hits;
  it is rolled for everyone not protected from the element and not immune to the state, and a
  state it inflicts is resisted as usual unless the condition says otherwise (Высокое
  напряжение);
* Нетвёрдая почва / Скольжение: the chance roll is made each turn until it succeeds once; that
  character then has found their footing for the rest of the scene (penalties lifted; on
  Скольжение Defence +1) and rolls no more;
* Наводнение: at the start of each round everyone in the water rolls Хитрость: failure slows
  them (Медлительность), success lifts the Медлительность the flood gave them earlier;
* Шторм is Сильный ливень + Сильный ветер + Наводнение and acts as those three.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.common import Change, SheetModel
from engine.dice.source import RandomSource
from engine.systems.matter.conditions import CONDITIONS, CheckKind, ConditionDef, ConditionId
from engine.systems.matter.events import Event, EventKind, RollPurpose
from engine.systems.matter.milestones import MilestoneKind, apply_milestone
from engine.systems.matter.rolls import chance_roll, roll_pool
from engine.systems.matter.sheet import Character
from engine.systems.matter.state_engine import (
    ApplyOutcome,
    apply_state,
    remove_state,
    resist,
    tick,
)
from engine.systems.matter.states import Effect, StateId

Characters = Mapping[str, Character]


class Footing(SheetModel):
    """A character who beat a ground condition's chance roll (for the rest of the scene)."""

    condition: ConditionId
    character_id: str


class Scene(SheetModel):
    """Stored scene state. ``round`` is 0 before the first turn."""

    round: int = 0
    conditions: tuple[ConditionId, ...] = ()
    out_of_water: tuple[str, ...] = ()
    footing: tuple[Footing, ...] = ()


class Distance(StrEnum):
    CLOSE = "close"
    MEDIUM = "medium"
    LONG = "long"


@dataclass(frozen=True)
class RangeRule:
    """How an attack at a distance works under the scene's conditions."""

    distance: Distance
    chance_only: bool


@dataclass(frozen=True)
class TurnReport:
    """Everything one turn did, in order."""

    round: int
    events: tuple[Event, ...]

    @property
    def rolls(self) -> tuple[Event, ...]:
        """The events that carry a roll, in the order the dice were drawn."""
        return tuple(e for e in self.events if e.roll is not None)

    @property
    def applied(self) -> tuple[Event, ...]:
        """Every state gained this turn."""
        return tuple(e for e in self.events if e.kind is EventKind.APPLIED)


def start_scene(conditions: Iterable[ConditionId] = ()) -> Scene:
    """A new scene with the given conditions, before its first turn."""
    return Scene(conditions=tuple(dict.fromkeys(conditions)))


def active_conditions(scene: Scene) -> tuple[ConditionId, ...]:
    """The scene's conditions with Шторм expanded into its parts, in table order."""
    found: set[ConditionId] = set()
    for cond in scene.conditions:
        row = CONDITIONS[cond]
        found.update(row.components or (cond,))
    return tuple(c for c in ConditionId if c in found)


def standard_check_dice(round_no: int) -> int:
    """Dice of the standard check in a round: 1 on 2, 2 on 4, 3 on 6, 8, 10 …; else 0."""
    if round_no < 2 or round_no % 2:
        return 0
    return min(3, round_no // 2)


def _protected(character: Character, row: ConditionDef) -> bool:
    if row.element is not None and row.element in character.protections:
        return True
    return row.check is CheckKind.STANDARD and row.inflicts in character.immune_states


def _has_footing(scene: Scene, cond: ConditionId, cid: str) -> bool:
    return Footing(condition=cond, character_id=cid) in scene.footing


def condition_effects(scene: Scene, character_id: str, character: Character) -> tuple[Effect, ...]:
    """Trait modifiers the scene's ground conditions put on one character right now."""
    effects: list[Effect] = []
    for cond in active_conditions(scene):
        row = CONDITIONS[cond]
        if _protected(character, row):
            continue
        if _has_footing(scene, cond, character_id):
            effects.extend(row.footing_effects)
        else:
            effects.extend(row.penalties)
    return tuple(effects)


def range_rule(scene: Scene, distance: Distance) -> RangeRule:
    """Туман / Сильный ливень: long range only by a chance roll, medium counts as long."""
    blocked = any(CONDITIONS[c].blocks_long_range for c in active_conditions(scene))
    if not blocked or distance is Distance.CLOSE:
        return RangeRule(distance, chance_only=False)
    return RangeRule(Distance.LONG, chance_only=True)


def set_in_water(scene: Scene, character_id: str, *, in_water: bool) -> Scene:
    """Mark who stays in the water (everyone does by default)."""
    out = [c for c in scene.out_of_water if c != character_id]
    if not in_water:
        out.append(character_id)
    return scene.model_copy(update={"out_of_water": tuple(out)})


def _tag(events: Iterable[Event], cid: str, origin: str) -> list[Event]:
    return [dataclasses.replace(e, character_id=cid, origin=e.origin or origin) for e in events]


class _Turn:
    """Mutable working state of one ``advance_turn`` call (never escapes it)."""

    def __init__(self, scene: Scene, characters: Characters, source: RandomSource) -> None:
        self.scene = scene
        self.chars = dict(characters)
        self.source = source
        self.events: list[Event] = []

    def emit(self, cid: str, origin: str, events: Iterable[Event]) -> None:
        self.events.extend(_tag(events, cid, origin))

    def ticks(self) -> None:
        for cid, ch in self.chars.items():
            self.chars[cid], happened = tick(ch, self.source)
            self.emit(cid, "", happened)  # ``tick`` names the causing state as the origin

    def cancel_speedup(self, conds: tuple[ConditionId, ...]) -> None:
        cancelling = [c for c in conds if CONDITIONS[c].cancels_speedup]
        if not cancelling:
            return
        for cid, ch in self.chars.items():
            self.chars[cid], removed = remove_state(ch, StateId.SPEEDUP)
            self.emit(cid, cancelling[0], removed)

    def deluge(self) -> None:
        for cid, ch in self.chars.items():
            if cid in self.scene.out_of_water:
                continue
            self.chars[cid], happened = _deluge_one(ch, self.source)
            self.emit(cid, ConditionId.DELUGE, happened)

    def chance_checks(self, row: ConditionDef) -> None:
        for cid, ch in self.chars.items():
            if _protected(ch, row) or _has_footing(self.scene, row.id, cid):
                continue
            roll = chance_roll(self.source)
            self.emit(
                cid, row.id, [Event(EventKind.CHECK, roll=roll, purpose=RollPurpose.CHANCE_CHECK)]
            )
            if roll.succeeded:
                footing = (*self.scene.footing, Footing(condition=row.id, character_id=cid))
                self.scene = self.scene.model_copy(update={"footing": footing})
                self.emit(cid, row.id, [Event(EventKind.FOOTING)])
            else:
                self._inflict(cid, row)

    def standard_checks(self, row: ConditionDef, dice: int) -> None:
        for cid, ch in self.chars.items():
            if _protected(ch, row):
                self.emit(cid, row.id, [Event(EventKind.PROTECTED, row.inflicts)])
                continue
            roll = roll_pool(self.source, dice)
            event = Event(EventKind.CHECK, row.inflicts, roll, RollPurpose.STANDARD_CHECK)
            self.emit(cid, row.id, [event])
            if not roll.succeeded:
                continue
            if row.hazard is not None:
                self.emit(cid, row.id, [Event(EventKind.HAZARD_HIT, hazard=row.hazard)])
            else:
                self._inflict(cid, row)

    def _inflict(self, cid: str, row: ConditionDef) -> None:
        assert row.inflicts is not None
        ch = self.chars[cid]
        extra = condition_effects(self.scene, cid, ch)
        self.chars[cid], outcome = apply_state(
            ch, row.inflicts, self.source, resist=row.resistible, origin=row.id, extra=extra
        )
        self.emit(cid, row.id, outcome.events)


def scene_apply_state(
    scene: Scene,
    character_id: str,
    character: Character,
    state: StateId,
    source: RandomSource,
    *,
    resist: bool = True,
) -> tuple[Character, ApplyOutcome]:
    """``apply_state`` inside a scene: the ground conditions' modifiers count on the resistance
    roll, and Ускорение cannot take hold while Нетвёрдая почва / Скольжение cancel it.
    """
    cancelling = [c for c in active_conditions(scene) if CONDITIONS[c].cancels_speedup]
    if state is StateId.SPEEDUP and cancelling:
        event = Event(EventKind.NO_EFFECT, state, character_id=character_id, origin=cancelling[0])
        return character, ApplyOutcome(state, EventKind.NO_EFFECT, (event,))
    extra = condition_effects(scene, character_id, character)
    character, outcome = apply_state(character, state, source, resist=resist, extra=extra)
    events = tuple(dataclasses.replace(e, character_id=character_id) for e in outcome.events)
    return character, dataclasses.replace(outcome, events=events)


def _deluge_one(character: Character, source: RandomSource) -> tuple[Character, tuple[Event, ...]]:
    state = StateId.DECELERATION
    active = character.find_state(state)
    if active is None:
        character, outcome = apply_state(character, state, source, origin=ConditionId.DELUGE)
        return character, outcome.events
    roll = resist(character, state, source)
    if not roll.succeeded:
        return character, (Event(EventKind.HOLDS, state, roll, RollPurpose.TURN_RESISTANCE),)
    if active.origin != ConditionId.DELUGE:
        return character, (Event(EventKind.NO_EFFECT, state, roll, RollPurpose.TURN_RESISTANCE),)
    character, removed = remove_state(character, state, kind=EventKind.SHAKEN_OFF)
    event = Event(
        EventKind.SHAKEN_OFF, state, roll, RollPurpose.TURN_RESISTANCE, removed[0].changes
    )
    return character, (event,)


def advance_turn(
    scene: Scene, characters: Characters, source: RandomSource
) -> tuple[Scene, dict[str, Character], TurnReport]:
    """Move the scene into its next round; return the new scene, characters and the report."""
    scene = scene.model_copy(update={"round": scene.round + 1})
    turn = _Turn(scene, characters, source)
    conds = active_conditions(scene)
    turn.ticks()
    turn.cancel_speedup(conds)
    if ConditionId.DELUGE in conds:
        turn.deluge()
    for cond in conds:
        if CONDITIONS[cond].check is CheckKind.CHANCE_EACH_TURN:
            turn.chance_checks(CONDITIONS[cond])
    dice = standard_check_dice(scene.round)
    if dice:
        for cond in conds:
            if CONDITIONS[cond].check is CheckKind.STANDARD:
                turn.standard_checks(CONDITIONS[cond], dice)
    return turn.scene, turn.chars, TurnReport(scene.round, tuple(turn.events))


def end_scene(
    scene: Scene, characters: Characters
) -> tuple[Scene, dict[str, Character], dict[str, list[Change]]]:
    """End the scene: scene-bound states expire on everyone; a fresh scene (no conditions)."""
    changed: dict[str, list[Change]] = {}
    result: dict[str, Character] = {}
    for cid, ch in characters.items():
        result[cid], changed[cid] = apply_milestone(ch, MilestoneKind.SCENE_END)
    return Scene(), result, changed
