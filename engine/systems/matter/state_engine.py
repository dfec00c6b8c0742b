"""The state engine: apply, resist, tick per turn, expire, cure and report states.

Pure functions on a ``Character``; each returns the new character and the events (in order).
A "turn" here is one round of the scene (the seed uses «ход» and «раунд» interchangeably):
``tick`` is called once per character at the start of every new round.

Timing DECISIONs (the seed gives durations, not a clock):
* a state's ``age`` is 1 in the round it is gained and grows by one per tick; Смертный приговор
  turns into Нокаут on the tick that makes its age 6 («после 5 раунда», counted from when it was
  received); Постепенное окаменение takes Defence −1 on the ticks from age 5 on («на 5й раунд»);
* N-turn states count ``turns_left`` down on each tick and end when it reaches 0, so they cover
  the round they were gained in and N−1 more; one-turn states end at the next tick;
* Регенерация rolls on gaining and on every tick it survives (N rolls for N turns);
* while Окаменелость holds, every other state is paused: it neither ticks nor ages nor counts
  down, and its effects are suspended; it resumes when the stone is cured.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, TypeAlias

from engine.common import Change
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.systems.matter.events import Event, EventKind, RollPurpose
from engine.systems.matter.rolls import Modifier, PoolRoll, roll_pool
from engine.systems.matter.sheet import ActiveState, Character
from engine.systems.matter.states import (
    STATES,
    DurationKind,
    Effect,
    EffectOp,
    Remedy,
    ResistTiming,
    Restriction,
    StateId,
    state_message_key,
)
from engine.systems.matter.traits import ActionKind, Skill, Trait, skill_kind, trait_message_key
from engine.text import msg, register_messages

register_messages(
    {
        "matter.state.no_resistance": {
            "ru": "От состояния «{state}» нельзя сопротивляться.",
            "en": "The state “{state}” cannot be resisted.",
        },
        "matter.damage.positive": {
            "ru": "Урон и лечение должны быть больше нуля.",
            "en": "Damage and healing must be above zero.",
        },
        "matter.heal.blocked": {
            "ru": "Отравление препятствует выздоровлению.",
            "en": "Poison prevents healing.",
        },
        "matter.crippled.not_crippled": {
            "ru": "Персонаж не тяжело ранен.",
            "en": "The character is not crippled.",
        },
        "matter.crippled.no_willpower": {
            "ru": "Не осталось ● Силы воли.",
            "en": "No Willpower dots left.",
        },
    }
)

PETRIFIED_HEALTH: Final = 5
DEATH_SENTENCE_ROUNDS: Final = 5
PETRIFICATION_FROM_AGE: Final = 5

# Pseudo-traits are pure modifiers; everything else but Health floors at 0 (dots, Defence…).
_UNFLOORED: Final = frozenset({Trait.HEALTH, Trait.RANGED_ATTACK, Trait.ACTION_POOL})
_PSEUDO: Final = frozenset({Trait.RANGED_ATTACK, Trait.ACTION_POOL})


@dataclass(frozen=True)
class ApplyOutcome:
    """Result of trying to give a character a state; ``events`` includes side effects."""

    state: StateId
    result: EventKind
    events: tuple[Event, ...]

    @property
    def resistance(self) -> PoolRoll | None:
        return next((e.roll for e in self.events if e.purpose is RollPurpose.RESISTANCE), None)

    @property
    def applied(self) -> bool:
        return self.result is EventKind.APPLIED


@dataclass(frozen=True)
class StateLine:
    """One row of a character's state report."""

    state: StateId
    name_ru: str
    name_en: str
    duration: DurationKind
    age: int
    turns_left: int | None
    paused: bool
    situational: tuple[Effect, ...]


@dataclass(frozen=True)
class StateReport:
    """What a character's states do right now: effective traits and restrictions."""

    states: tuple[StateLine, ...]
    traits: Mapping[str, int]
    restrictions: frozenset[Restriction]


# --- reading the sheet through its states ---------------------------------------------------


def is_paused(character: Character, active: ActiveState) -> bool:
    """Окаменелость pauses every other state."""
    return active.state is not StateId.PETRIFIED and character.has_state(StateId.PETRIFIED)


def live_states(character: Character) -> tuple[ActiveState, ...]:
    return tuple(s for s in character.states if not is_paused(character, s))


def state_effects(character: Character) -> tuple[Effect, ...]:
    """Unconditional effects of the live states, Petrification's Defence loss included."""
    found: list[Effect] = []
    for active in live_states(character):
        found.extend(e for e in STATES[active.state].effects if e.when is None)
        if active.state is StateId.PETRIFICATION and active.counter:
            found.append(Effect(Trait.DEFENCE, EffectOp.ADD, -active.counter))
    return tuple(found)


def _base(character: Character, trait: str) -> int:
    if trait in _PSEUDO:
        return 0
    if trait in Trait.__members__.values():
        value: int = getattr(character, trait)
        return value
    return character.dots(trait)


def effective_trait(character: Character, trait: str, extra: Iterable[Effect] = ()) -> int:
    """A trait (or skill) after state effects and ``extra`` (scene-condition) effects.

    Additions are summed, then a «= N» effect overrides (the last one wins). DECISIONs: Health
    never exceeds the effective max Health (Мини shrinks it to 2 while it lasts); the stone of
    Окаменелость has 5 Health minus the damage it took.
    """
    effects = [e for e in (*state_effects(character), *extra) if e.trait == trait and not e.when]
    value = _base(character, trait) + sum(e.value for e in effects if e.op is EffectOp.ADD)
    sets = [e.value for e in effects if e.op is EffectOp.SET]
    if sets:
        value = sets[-1]
    if trait == Trait.HEALTH:
        stone = character.find_state(StateId.PETRIFIED)
        if stone is not None:
            return PETRIFIED_HEALTH - stone.counter
        value = min(value, effective_trait(character, Trait.HEALTH_MAX, extra))
    if trait not in _UNFLOORED:
        value = max(0, value)
    return value


def restrictions(character: Character) -> frozenset[Restriction]:
    found: set[Restriction] = set()
    for active in live_states(character):
        found |= STATES[active.state].restrictions
    return frozenset(found)


def one_die(character: Character, kind: ActionKind) -> bool:
    """Мини/Жаба: «броски … = 1d10» for the kinds of action they name."""
    rules = restrictions(character)
    if kind is ActionKind.PHYSICAL:
        return Restriction.PHYSICAL_ONE_DIE in rules
    if kind is ActionKind.MATTER:
        return Restriction.MATTER_ONE_DIE in rules
    return Restriction.MENTAL_SOCIAL_ONE_DIE in rules


def one_die_state(character: Character, kind: ActionKind) -> StateId | None:
    """The live state (first in the sheet's order) that makes rolls of ``kind`` exactly 1d10."""
    if not one_die(character, kind):
        return None
    rule = {
        ActionKind.PHYSICAL: Restriction.PHYSICAL_ONE_DIE,
        ActionKind.MATTER: Restriction.MATTER_ONE_DIE,
    }.get(kind, Restriction.MENTAL_SOCIAL_ONE_DIE)
    return next(a.state for a in live_states(character) if rule in STATES[a.state].restrictions)


@dataclass(frozen=True)
class ActionDice:
    """What a skill roll of the character throws now, before any die is cast.

    ``dots`` are the skill's effective dots (states and ``extra`` effects applied), ``dice`` the
    pool as ``roll_action`` throws it (≤ 0: a chance roll); ``one_die_by`` names the state that
    fixed the pool at 1d10 (Мини, Жаба), modifiers then ignored.
    """

    skill: str
    dots: int
    modifier: int
    dice: int
    one_die_by: StateId | None

    @property
    def chance(self) -> bool:
        return self.dice <= 0


def action_dice(
    character: Character,
    skill: str,
    *,
    modifier: int = 0,
    kind: ActionKind | None = None,
    extra: Iterable[Effect] = (),
) -> ActionDice:
    """The pool ``roll_action`` would throw for ``skill`` ± ``modifier`` dice (same rules)."""
    dots = effective_trait(character, skill, tuple(extra))
    by = one_die_state(character, kind or skill_kind(skill))
    dice = 1 if by is not None else dots + modifier
    return ActionDice(skill=skill, dots=dots, modifier=modifier, dice=dice, one_die_by=by)


def roll_action(
    character: Character,
    skill: str,
    source: RandomSource,
    modifiers: Iterable[Modifier] = (),
    *,
    kind: ActionKind | None = None,
    extra: Iterable[Effect] = (),
    bonus: int = 0,
    chance: bool = False,
) -> PoolRoll:
    """Roll a skill of the character as a pool: effective dots ± modifiers.

    ``kind`` defaults to the skill's kind (Материя rolls pass ``ActionKind.MATTER``); Мини and
    Жаба make the pool exactly 1d10. ``extra`` are scene-condition effects (Скольжение…).
    """
    effects = tuple(extra)
    dots = effective_trait(character, skill, effects)
    fixed = 1 if one_die(character, kind or skill_kind(skill)) else None
    return roll_pool(source, dots, modifiers, bonus=bonus, chance=chance, fixed_dice=fixed)


def resist(
    character: Character, state: StateId, source: RandomSource, extra: Iterable[Effect] = ()
) -> PoolRoll:
    """Roll the state's resistance trait; one success resists (a critical failure does not)."""
    trait = STATES[state].resist_trait
    if trait is None:
        raise RuleViolation(msg("matter.state.no_resistance", state=state.value))
    return roll_action(character, trait, source, extra=extra)


_resist_roll = resist  # ``apply_state`` has a keyword named ``resist``


# --- changing states ----------------------------------------------------------------------


def _with_states(character: Character, states: Iterable[ActiveState]) -> Character:
    return character.model_copy(update={"states": tuple(states)})


def _replace_state(character: Character, new: ActiveState) -> Character:
    return _with_states(character, (new if s.state is new.state else s for s in character.states))


def _set_trait(character: Character, trait: Trait, value: int) -> tuple[Character, Change]:
    before: int = getattr(character, trait)
    change = Change(trait.value, msg(trait_message_key(trait)), before, value)
    return character.model_copy(update={trait.value: value}), change


def _state_change(state: StateId, *, on: bool) -> Change:
    return Change(f"states.{state}", msg(state_message_key(state)), not on, on)


def _duration(character: Character, state: StateId, turns: int | None) -> int | None:
    row = STATES[state]
    if row.duration is DurationKind.ONE_TURN:
        return 1
    if row.duration is not DurationKind.TURNS:
        return None
    if turns is not None:
        return max(1, turns)
    assert row.duration_trait is not None
    # DECISION: at least one turn even when the trait is 0 (a state that never acts is a no-op).
    return max(1, effective_trait(character, row.duration_trait))


def remove_state(
    character: Character, state: StateId, *, kind: EventKind = EventKind.REMOVED
) -> tuple[Character, tuple[Event, ...]]:
    """Take a state off (no-op when absent). Leaving Берсерк costs one dot of current Гнев."""
    if not character.has_state(state):
        return character, ()
    character = _with_states(character, (s for s in character.states if s.state is not state))
    changes = [_state_change(state, on=False)]
    if state is StateId.BERSERK and character.anger > 0:
        # DECISION (SPEC): «снимает 1 ● Гнева» is read as current Anger.
        character, change = _set_trait(character, Trait.ANGER, character.anger - 1)
        changes.append(change)
    return character, (Event(kind, state, changes=tuple(changes)),)


def _add_state(
    character: Character, state: StateId, origin: str | None, turns: int | None
) -> Character:
    active = ActiveState(state=state, turns_left=_duration(character, state, turns), origin=origin)
    return _with_states(character, (*character.states, active))


def _resists_on_gain(state: StateId) -> bool:
    return STATES[state].resist_timing in (
        ResistTiming.ON_GAIN,
        ResistTiming.ON_GAIN_AND_EACH_TURN,
    )


def apply_state(
    character: Character,
    state: StateId,
    source: RandomSource,
    *,
    resist: bool = True,
    origin: str | None = None,
    turns: int | None = None,
    extra: Iterable[Effect] = (),
) -> tuple[Character, ApplyOutcome]:
    """Try to give ``state`` to the character.

    Order: immunity → Нокаут on a Тяжело ранен character (replaced: unconscious at once, no
    resistance) → already active (Постепенное окаменение counts as active on a stone) → the
    resistance roll on gaining (``resist=False`` skips it, e.g. Высокое напряжение, or
    Окаменелость from the countdown) → the state and its side
    effects (Нокаут sets Health 0; Тяжело ранен removes Нокаут; Ускорение removes Стоп;
    Окаменелость ends Постепенное окаменение; Регенерация rolls at once).
    ``turns`` overrides N for N-turn states; ``extra`` are condition effects on the roll.
    """
    if state in character.immune_states:
        return character, _outcome(state, Event(EventKind.IMMUNE, state))
    if state is StateId.KO and character.has_state(StateId.CRIPPLED):
        return character, _outcome(state, Event(EventKind.REPLACED, state))
    if character.has_state(state):
        return character, _outcome(state, Event(EventKind.ALREADY_ACTIVE, state))
    if state is StateId.PETRIFICATION and character.has_state(StateId.PETRIFIED):
        # Already stone: a countdown towards stone has nothing left to do.
        return character, _outcome(state, Event(EventKind.ALREADY_ACTIVE, StateId.PETRIFIED))
    roll = None
    if resist and _resists_on_gain(state):
        roll = _resist_roll(character, state, source, extra)
        if roll.succeeded:
            return character, _outcome(
                state, Event(EventKind.RESISTED, state, roll, RollPurpose.RESISTANCE)
            )
    character, side = _side_effects_before(character, state)
    character = _add_state(character, state, origin, turns)
    applied = Event(
        EventKind.APPLIED,
        state,
        roll,
        RollPurpose.RESISTANCE if roll is not None else None,
        (_state_change(state, on=True), *side[0]),
    )
    events = (applied, *side[1])
    if state is StateId.REGENERATION:
        character, regen = _regenerate(character, source)
        events = (*events, *regen)
    return character, ApplyOutcome(state, EventKind.APPLIED, events)


def _outcome(state: StateId, event: Event) -> ApplyOutcome:
    return ApplyOutcome(state, event.kind, (event,))


def _side_effects_before(
    character: Character, state: StateId
) -> tuple[Character, tuple[tuple[Change, ...], tuple[Event, ...]]]:
    """Changes that go with gaining a state, and the states it removes."""
    changes: tuple[Change, ...] = ()
    if state is StateId.KO and character.health > 0:
        character, change = _set_trait(character, Trait.HEALTH, 0)
        changes = (change,)
    removes = {
        StateId.CRIPPLED: StateId.KO,  # «заменяет Нокаут»
        StateId.SPEEDUP: StateId.STOP,  # «снимается Ускорением»
        StateId.PETRIFIED: StateId.PETRIFICATION,  # the countdown is over
    }.get(state)
    events: tuple[Event, ...] = ()
    if removes is not None:
        character, events = remove_state(character, removes)
    return character, (changes, events)


def cure(character: Character, remedy: Remedy) -> tuple[Character, tuple[Event, ...]]:
    """Use a remedy: removes every state it cures (medical help also lifts Health to 1).

    DECISION: urgent medical help stabilises a Тяжело ранен character at 1 Health.
    """
    events: list[Event] = []
    for active in character.states:
        if remedy in STATES[active.state].removed_by:
            character, removed = remove_state(character, active.state)
            events.extend(removed)
    if remedy is Remedy.MEDICAL_HELP and events and character.health < 1:
        character, change = _set_trait(character, Trait.HEALTH, 1)
        events.append(Event(EventKind.HEALTH_CHANGED, changes=(change,)))
    return character, tuple(events)


# --- the per-turn tick ----------------------------------------------------------------------


def tick(character: Character, source: RandomSource) -> tuple[Character, tuple[Event, ...]]:
    """Advance the character's states by one turn (call at the start of each new round).

    Each event's ``origin`` is the state whose tick caused it (Смертный приговор for its Нокаут).
    A Нокаут gained in this tick makes its first Упорство roll on the next tick.
    """
    events: list[Event] = []
    for state in [s.state for s in character.states]:
        active = character.find_state(state)
        if active is None or is_paused(character, active):
            continue  # removed earlier in this tick, or paused by Окаменелость
        character, happened = _tick_one(character, active, source)
        events.extend(dataclasses.replace(e, origin=e.origin or state.value) for e in happened)
    return character, tuple(events)


def _tick_one(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    turns_left = None if active.turns_left is None else active.turns_left - 1
    aged = active.model_copy(update={"age": active.age + 1, "turns_left": turns_left})
    character = _replace_state(character, aged)
    if turns_left is not None and turns_left <= 0:
        return remove_state(character, active.state, kind=EventKind.EXPIRED)
    handler = _TICKERS.get(active.state)
    if handler is None:
        return character, ()
    return handler(character, aged, source)


def _turn_resistance(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    """Берсерк, Замешательство, Сон: resist again each turn; success ends the state."""
    if active.stays or active.resist_per_scene:
        return character, ()
    roll = resist(character, active.state, source)
    if roll.succeeded:
        character, removed = remove_state(character, active.state, kind=EventKind.SHAKEN_OFF)
        shaken = removed[0]
        event = Event(
            EventKind.SHAKEN_OFF, active.state, roll, RollPurpose.TURN_RESISTANCE, shaken.changes
        )
        return character, (event,)
    return character, (Event(EventKind.HOLDS, active.state, roll, RollPurpose.TURN_RESISTANCE),)


def _ko_turn(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    """Нокаут: Упорство each turn — success gives one action, failure stays unconscious."""
    roll = resist(character, active.state, source)
    kind = EventKind.ACTS if roll.succeeded else EventKind.UNCONSCIOUS
    return character, (Event(kind, active.state, roll, RollPurpose.KO_ACTION),)


def _death_sentence_turn(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    if active.age <= DEATH_SENTENCE_ROUNDS:
        return character, ()
    character, ended = remove_state(character, active.state, kind=EventKind.EXPIRED)
    if character.immune_instant_death:
        return character, (*ended, Event(EventKind.IMMUNE, StateId.KO))
    character, outcome = apply_state(character, StateId.KO, source, resist=False)
    return character, (*ended, *outcome.events)


def _petrification_turn(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    if active.age < PETRIFICATION_FROM_AGE:
        return character, ()
    events: list[Event] = []
    before = effective_trait(character, Trait.DEFENCE)
    if before > 0:
        character = _replace_state(
            character, active.model_copy(update={"counter": active.counter + 1})
        )
        after = effective_trait(character, Trait.DEFENCE)
        change = Change(Trait.DEFENCE.value, msg(trait_message_key(Trait.DEFENCE)), before, after)
        events.append(Event(EventKind.PETRIFICATION_STEP, active.state, changes=(change,)))
    if effective_trait(character, Trait.DEFENCE) > 0:
        return character, tuple(events)
    if StateId.PETRIFIED in character.immune_states:
        # DECISION: an immune character's countdown ends harmlessly at Defence 0.
        character, ended = remove_state(character, active.state, kind=EventKind.EXPIRED)
        return character, (*events, *ended, Event(EventKind.IMMUNE, StateId.PETRIFIED))
    # «безусловно наступает Состояние Окаменелость»: no resistance roll.
    character, outcome = apply_state(character, StateId.PETRIFIED, source, resist=False)
    return character, (*events, *outcome.events)


def _regeneration_turn(
    character: Character, active: ActiveState, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    return _regenerate(character, source)


def _regenerate(character: Character, source: RandomSource) -> tuple[Character, tuple[Event, ...]]:
    """Roll (max Health − Health) dice; a success heals 1 (Отравлен blocks it).

    DECISION (SPEC): at full Health the pool is 0 and nothing is rolled (no chance roll).
    """
    missing = effective_trait(character, Trait.HEALTH_MAX) - character.health
    if missing <= 0:
        return character, ()
    roll = roll_pool(source, missing)
    state = StateId.REGENERATION
    if not roll.succeeded or Restriction.NO_HEALING in restrictions(character):
        return character, (Event(EventKind.NO_EFFECT, state, roll, RollPurpose.REGENERATION),)
    character, change = _set_trait(character, Trait.HEALTH, character.health + 1)
    return character, (
        Event(EventKind.REGENERATED, state, roll, RollPurpose.REGENERATION, (change,)),
    )


_Ticker: TypeAlias = Callable[
    [Character, ActiveState, RandomSource], tuple[Character, tuple[Event, ...]]
]
_TICKERS: Final[Mapping[StateId, _Ticker]] = MappingProxyType(
    {
        StateId.BERSERK: _turn_resistance,
        StateId.CONFUSION: _turn_resistance,
        StateId.SLEEP: _turn_resistance,
        StateId.KO: _ko_turn,
        StateId.DEATH_SENTENCE: _death_sentence_turn,
        StateId.PETRIFICATION: _petrification_turn,
        StateId.REGENERATION: _regeneration_turn,
    }
)


def expire_scene(character: Character) -> tuple[Character, tuple[Event, ...]]:
    """End of scene: every state but the until-cured ones ends (Нокаут wakes up)."""
    events: list[Event] = []
    for active in character.states:
        if STATES[active.state].duration is not DurationKind.UNTIL_CURED:
            character, ended = remove_state(character, active.state, kind=EventKind.EXPIRED)
            events.extend(ended)
    return character, tuple(events)


# --- Health, Willpower, Anger --------------------------------------------------------------


def apply_damage(
    character: Character, amount: int, source: RandomSource
) -> tuple[Character, tuple[Event, ...]]:
    """Take ``amount`` Health; at Health ≤ 0 the character becomes Тяжело ранен.

    Неуязвимость ignores damage; the stone of Окаменелость takes it on its own 5 Health and the
    character beneath is not hurt (DECISION). Damage counts from the Health the states leave
    (DECISION: under Мини a hero of 5 Health has 2, and one point of damage leaves 1 — the
    excess over the shrunk max is not a cushion; it stays lost when Мини is cured).
    """
    if amount <= 0:
        raise RuleViolation(msg("matter.damage.positive"))
    if Restriction.INVULNERABLE in restrictions(character):
        return character, (Event(EventKind.NO_EFFECT, StateId.INVULNERABILITY),)
    stone = character.find_state(StateId.PETRIFIED)
    if stone is not None:
        new = stone.model_copy(update={"counter": min(PETRIFIED_HEALTH, stone.counter + amount)})
        return _replace_state(character, new), (Event(EventKind.NO_EFFECT, StateId.PETRIFIED),)
    before = effective_trait(character, Trait.HEALTH)
    character, change = _set_trait(character, Trait.HEALTH, before - amount)
    change = dataclasses.replace(change, before=before)
    events: tuple[Event, ...] = (Event(EventKind.HEALTH_CHANGED, changes=(change,)),)
    if character.health <= 0:
        character, outcome = apply_state(character, StateId.CRIPPLED, source, resist=False)
        events = (*events, *outcome.events)
    return character, events


def heal(character: Character, amount: int) -> tuple[Character, tuple[Event, ...]]:
    """Restore Health up to the effective max; Отравлен blocks it (``RuleViolation``).

    DECISION: healing above 0 ends Тяжело ранен (it is defined as «Здоровье = 0 и меньше»).
    """
    if amount <= 0:
        raise RuleViolation(msg("matter.damage.positive"))
    if Restriction.NO_HEALING in restrictions(character):
        raise RuleViolation(msg("matter.heal.blocked"))
    top = effective_trait(character, Trait.HEALTH_MAX)
    value = max(character.health, min(top, character.health + amount))
    character, change = _set_trait(character, Trait.HEALTH, value)
    events: tuple[Event, ...] = (Event(EventKind.HEALTH_CHANGED, changes=(change,)),)
    if character.health > 0:
        character, removed = remove_state(character, StateId.CRIPPLED)
        events = (*events, *removed)
    return character, events


def crippled_check(
    character: Character, source: RandomSource, *, spend_willpower: bool = False
) -> tuple[Character, tuple[Event, ...]]:
    """Тяжело ранен, once per GM-set period: Упорство or a dot of Willpower holds on.

    DECISION (the seed only says «теряет Здоровье»): a failed roll costs 1 Health.
    """
    if not character.has_state(StateId.CRIPPLED):
        raise RuleViolation(msg("matter.crippled.not_crippled"))
    state = StateId.CRIPPLED
    if spend_willpower:
        if character.willpower <= 0:
            raise RuleViolation(msg("matter.crippled.no_willpower"))
        character, change = _set_trait(character, Trait.WILLPOWER, character.willpower - 1)
        return character, (Event(EventKind.WILLPOWER_SPENT, state, changes=(change,)),)
    roll = roll_action(character, Skill.TENACITY, source)
    if roll.succeeded:
        return character, (Event(EventKind.HOLDS, state, roll, RollPurpose.CRIPPLED),)
    character, change = _set_trait(character, Trait.HEALTH, character.health - 1)
    return character, (
        Event(EventKind.HEALTH_CHANGED, state, roll, RollPurpose.CRIPPLED, (change,)),
    )


def gain_anger(character: Character, amount: int) -> tuple[Character, tuple[Event, ...]]:
    """Anger grows up to its effective max; Печаль freezes it («Гнев не растёт»)."""
    if Restriction.ANGER_FROZEN in restrictions(character):
        return character, (Event(EventKind.NO_EFFECT, StateId.SADNESS),)
    top = effective_trait(character, Trait.ANGER_MAX)
    value = max(character.anger, min(top, character.anger + amount))
    character, change = _set_trait(character, Trait.ANGER, value)
    return character, (Event(EventKind.ANGER_CHANGED, changes=(change,)),)


# --- reports -------------------------------------------------------------------------------


def report(character: Character, extra: Iterable[Effect] = ()) -> StateReport:
    """States with their timers, every effective trait and skill, and the restrictions."""
    effects = tuple(extra)
    lines = tuple(
        StateLine(
            state=a.state,
            name_ru=STATES[a.state].name_ru,
            name_en=STATES[a.state].name_en,
            duration=STATES[a.state].duration,
            age=a.age,
            turns_left=a.turns_left,
            paused=is_paused(character, a),
            situational=tuple(e for e in STATES[a.state].effects if e.when),
        )
        for a in character.states
    )
    names = [t.value for t in Trait if t not in _PSEUDO] + sorted(
        {*character.skills, *(s.value for s in Skill)}
    )
    traits = MappingProxyType({n: effective_trait(character, n, effects) for n in names})
    return StateReport(states=lines, traits=traits, restrictions=restrictions(character))


def initiative_order(characters: Mapping[str, Character]) -> list[str]:
    """Turn order: sped-up first, then by effective initiative, then the slowed and stunned.

    Among sped-up (or slowed) characters the one who got the state later acts after the others
    («действует после других ускоренных»). DECISION: Стоп skips its turns, so it is left out.
    Ties keep the mapping's order.
    """
    fast: list[tuple[int, str]] = []
    normal: list[tuple[int, str]] = []
    slow: list[tuple[int, str]] = []
    for cid, ch in characters.items():
        rules = restrictions(ch)
        if Restriction.SKIPS_TURNS in rules:
            continue
        if Restriction.ACTS_FIRST in rules and Restriction.ACTS_LAST not in rules:
            fast.append((-_age_of(ch, Restriction.ACTS_FIRST), cid))
        elif Restriction.ACTS_LAST in rules:
            slow.append((-_age_of(ch, Restriction.ACTS_LAST), cid))
        else:
            normal.append((-effective_trait(ch, Trait.INITIATIVE), cid))
    ordered = [sorted(group, key=lambda pair: pair[0]) for group in (fast, normal, slow)]
    return [cid for group in ordered for _, cid in group]


def _age_of(character: Character, rule: Restriction) -> int:
    return max(a.age for a in live_states(character) if rule in STATES[a.state].restrictions)
