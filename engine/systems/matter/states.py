"""The 23 states (Состояния) of seed 004 as data.

Each row: names (ru/en), effects as modifiers on named traits, restrictions (what the character
cannot or must do), duration kind (+ the trait that gives N for «N ходов»), resistance trait and
when it is rolled, and what removes the state. The state engine (``state_engine``) reads only
this table plus a few special rules named there.

Duration DECISIONs (the seed: «Большинство Состояний заканчивают своё действие в конце сцены,
если не сказано обратного»): Стоп lasts until removed (stated). States whose text names a cure
(an item, rest or medical help) and no scene limit persist until cured — Отравлен, Тяжело ранен,
Ярость, Печаль, Мини, Жаба, Ослеплён, Окаменелость — as in the Final Fantasy statuses they are
modelled on (Poison, Mini, Toad, Blind, Stone survive the battle; the cure item is the point).
Молчание names a cure but also «до конца сцены», so it is scene-bound. One-turn states
(Оглушен, Парализован, Сбит с ног) pass at the start of the character's next turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from engine.systems.matter.traits import Skill, Trait
from engine.text import register_messages


class StateId(StrEnum):
    POISON = "poison"
    BERSERK = "berserk"
    CONFUSION = "confusion"
    SLEEP = "sleep"
    SILENCE = "silence"
    DEATH_SENTENCE = "death_sentence"
    PETRIFICATION = "petrification"
    KO = "ko"
    CRIPPLED = "crippled"
    FURY = "fury"
    SADNESS = "sadness"
    MINI = "mini"
    FROG = "frog"
    BLINDED = "blinded"
    STUN = "stun"
    PRONE = "prone"
    PARALYZED = "paralyzed"
    PETRIFIED = "petrified"
    DECELERATION = "deceleration"
    STOP = "stop"
    SPEEDUP = "speedup"
    INVULNERABILITY = "invulnerability"
    REGENERATION = "regeneration"


class DurationKind(StrEnum):
    SCENE = "scene"  # ends at the end of the scene
    TURNS = "turns"  # N turns, N from a trait (and never past the scene)
    ONE_TURN = "one_turn"  # passes by itself after a turn
    UNTIL_CURED = "until_cured"  # survives the scene; only a remedy removes it


class ResistTiming(StrEnum):
    NONE = "none"
    ON_GAIN = "on_gain"  # once, when the state would be gained
    ON_GAIN_AND_EACH_TURN = "on_gain_and_each_turn"  # also every following turn, ends on success
    EACH_TURN_TO_ACT = "each_turn_to_act"  # Нокаут: success = one action this turn
    PERIODIC = "periodic"  # Тяжело ранен: once per GM-set period, not automatic


class EffectOp(StrEnum):
    ADD = "add"
    SET = "set"


class Restriction(StrEnum):
    NO_ACTIONS = "no_actions"
    NO_MOVE = "no_move"
    NO_ATTACK = "no_attack"
    NO_MATTER = "no_matter"
    NO_MAGIC_MATTER = "no_magic_matter"  # Магическая и Призывающая Материи
    NO_POTIONS = "no_potions"
    NO_HEALING = "no_healing"
    UNCONSCIOUS = "unconscious"
    LOSES_CONTROL = "loses_control"
    ATTACKS_ALLIES = "attacks_allies"
    ACTIVE_PHYSICAL_HURTS = "active_physical_hurts"
    ANGER_FROZEN = "anger_frozen"
    PHYSICAL_ONE_DIE = "physical_one_die"
    MENTAL_SOCIAL_ONE_DIE = "mental_social_one_die"
    MATTER_ONE_DIE = "matter_one_die"
    REFLEX_ONLY = "reflex_only"
    ACTS_FIRST = "acts_first"
    ACTS_LAST = "acts_last"
    SKIPS_TURNS = "skips_turns"
    CRAWLS = "crawls"
    NEEDS_DEXTERITY_TO_ACT = "needs_dexterity_to_act"
    INVULNERABLE = "invulnerable"
    PAUSES_OTHER_STATES = "pauses_other_states"
    KEEPS_LOSING_HEALTH = "keeps_losing_health"
    TWO_ATTACKS_OPTION = "two_attacks_option"


class Remedy(StrEnum):
    """What can remove a state (besides its duration running out)."""

    ANTIDOTE = "antidote"  # противоядие
    ECHO = "echo"  # зелье Эхо
    CORNUCOPIA = "cornucopia"  # зелье Изобилия
    MAIDENS_KISS = "maidens_kiss"  # зелье Поцелуй Девы
    EYE_DROPS = "eye_drops"  # глазные капли
    SOFT = "soft"  # зелье Растворения
    TRANQUILIZER = "tranquilizer"  # транквилизатор
    HYPERACTIVITY = "hyperactivity"  # зелье гиперактивности
    REST = "rest"  # отдых
    MEDICAL_HELP = "medical_help"  # срочная медицинская помощь
    SPEEDUP = "speedup"  # the state Ускорение
    PHYSICAL_ATTACK = "physical_attack"  # a physical attack against the character
    WAKE_NEXT_SCENE = "wake_next_scene"  # Нокаут: «приходит в себя в следующей сцене»


@dataclass(frozen=True)
class Effect:
    """A modifier on a named trait; ``when`` set means situational (reported, not applied)."""

    trait: str
    op: EffectOp
    value: int
    when: str | None = None


@dataclass(frozen=True)
class StateDef:
    id: StateId
    name_ru: str
    name_en: str
    duration: DurationKind
    effects: tuple[Effect, ...] = ()
    restrictions: frozenset[Restriction] = field(default_factory=frozenset)
    duration_trait: str | None = None
    resist_trait: str | None = None
    resist_timing: ResistTiming = ResistTiming.NONE
    removed_by: tuple[Remedy, ...] = ()
    beneficial: bool = False


def _add(trait: str, value: int, when: str | None = None) -> Effect:
    return Effect(trait, EffectOp.ADD, value, when)


def _set(trait: str, value: int) -> Effect:
    return Effect(trait, EffectOp.SET, value)


R = Restriction
T = Trait
S = Skill
D = DurationKind
RT = ResistTiming

_ROWS: Final[tuple[StateDef, ...]] = (
    StateDef(
        StateId.POISON, "Отравлен", "Poison", D.UNTIL_CURED,
        restrictions=frozenset({R.ACTIVE_PHYSICAL_HURTS, R.NO_HEALING}),
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN, removed_by=(Remedy.ANTIDOTE,),
    ),
    StateDef(
        StateId.BERSERK, "Берсерк", "Berserk", D.TURNS,
        effects=(_add(T.ATTACK, 1),),
        restrictions=frozenset({R.LOSES_CONTROL, R.ATTACKS_ALLIES, R.TWO_ATTACKS_OPTION}),
        duration_trait=T.ANGER_MAX, resist_trait=S.COMMUNICATION,
        resist_timing=RT.ON_GAIN_AND_EACH_TURN,
    ),
    StateDef(
        StateId.CONFUSION, "Замешательство", "Confusion", D.SCENE,
        restrictions=frozenset({R.ATTACKS_ALLIES}),
        resist_trait=S.CUNNING, resist_timing=RT.ON_GAIN_AND_EACH_TURN,
        removed_by=(Remedy.PHYSICAL_ATTACK,),
    ),
    StateDef(
        StateId.SLEEP, "Сон", "Sleep", D.SCENE,
        restrictions=frozenset({R.NO_ACTIONS}),
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN_AND_EACH_TURN,
    ),
    StateDef(
        StateId.SILENCE, "Молчание", "Silence", D.SCENE,
        restrictions=frozenset({R.NO_MAGIC_MATTER}),
        resist_trait=S.INTELLECT, resist_timing=RT.ON_GAIN, removed_by=(Remedy.ECHO,),
    ),
    StateDef(
        StateId.DEATH_SENTENCE, "Смертный приговор", "Death Sentence", D.SCENE,
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN,
    ),
    StateDef(StateId.PETRIFICATION, "Постепенное окаменение", "Petrification", D.SCENE),
    StateDef(
        StateId.KO, "Нокаут", "KO", D.SCENE,
        effects=(_add(T.ATTACK, -2),),
        restrictions=frozenset({R.UNCONSCIOUS}),
        resist_trait=S.TENACITY, resist_timing=RT.EACH_TURN_TO_ACT,
        removed_by=(Remedy.WAKE_NEXT_SCENE,),
    ),
    StateDef(
        StateId.CRIPPLED, "Тяжело ранен", "Crippled", D.UNTIL_CURED,
        restrictions=frozenset(
            {R.NO_MOVE, R.NO_MATTER, R.NO_POTIONS, R.KEEPS_LOSING_HEALTH}
        ),
        resist_trait=S.TENACITY, resist_timing=RT.PERIODIC,
        removed_by=(Remedy.MEDICAL_HELP,),
    ),
    StateDef(
        StateId.FURY, "Ярость", "Fury", D.UNTIL_CURED,
        effects=(_add(T.ANGER_MAX, -1),),
        removed_by=(Remedy.REST, Remedy.TRANQUILIZER),
    ),
    StateDef(
        StateId.SADNESS, "Печаль", "Sadness", D.UNTIL_CURED,
        effects=(_add(T.DEFENCE, -1),),
        restrictions=frozenset({R.ANGER_FROZEN}),
        resist_trait=S.INTIMIDATION, resist_timing=RT.ON_GAIN,
        removed_by=(Remedy.REST, Remedy.HYPERACTIVITY),
    ),
    StateDef(
        StateId.MINI, "Мини", "Mini", D.UNTIL_CURED,
        effects=(_set(T.HEALTH_MAX, 2),),
        restrictions=frozenset({R.PHYSICAL_ONE_DIE, R.MATTER_ONE_DIE}),
        resist_trait=S.BRUTALITY, resist_timing=RT.ON_GAIN, removed_by=(Remedy.CORNUCOPIA,),
    ),
    StateDef(
        StateId.FROG, "Жаба", "Frog-minded", D.UNTIL_CURED,
        restrictions=frozenset({R.MENTAL_SOCIAL_ONE_DIE, R.MATTER_ONE_DIE}),
        resist_trait=S.INTELLECT, resist_timing=RT.ON_GAIN, removed_by=(Remedy.MAIDENS_KISS,),
    ),
    StateDef(
        StateId.BLINDED, "Ослеплён", "Blinded", D.UNTIL_CURED,
        effects=(_add(T.ATTACK, -2, when="target_moved"),),
        resist_trait=S.INVESTIGATION, resist_timing=RT.ON_GAIN,
        removed_by=(Remedy.EYE_DROPS,),
    ),
    StateDef(
        StateId.STUN, "Оглушен", "Stun", D.ONE_TURN,
        effects=(_set(T.DEFENCE, 0),),
        restrictions=frozenset({R.NO_ATTACK, R.NO_MATTER, R.REFLEX_ONLY, R.ACTS_LAST}),
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN,
    ),
    StateDef(
        StateId.PRONE, "Сбит с ног", "Knocked prone", D.ONE_TURN,
        effects=(
            _add(T.DEFENCE, -1, when="gm_situation_minus"),
            _add(T.DEFENCE, 1, when="gm_situation_plus"),
            _add(T.RANGED_ATTACK, 1),
            _add(T.ACTION_POOL, -1, when="acting_same_turn"),
        ),
        restrictions=frozenset({R.NEEDS_DEXTERITY_TO_ACT, R.CRAWLS}),
        resist_trait=S.BRUTALITY, resist_timing=RT.ON_GAIN,
    ),
    StateDef(
        StateId.PARALYZED, "Парализован", "Paralyzed", D.ONE_TURN,
        effects=(_set(T.DEFENCE, 0),),
        restrictions=frozenset({R.NO_MOVE, R.NO_ATTACK}),
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN,
    ),
    StateDef(
        StateId.PETRIFIED, "Окаменелость", "Petrified", D.UNTIL_CURED,
        effects=(_set(T.HEALTH, 5), _set(T.ARMOR, 5), _set(T.DEFENCE, 0)),
        restrictions=frozenset({R.UNCONSCIOUS, R.PAUSES_OTHER_STATES}),
        resist_trait=S.DEXTERITY, resist_timing=RT.ON_GAIN, removed_by=(Remedy.SOFT,),
    ),
    StateDef(
        StateId.DECELERATION, "Медлительность", "Deceleration", D.SCENE,
        effects=(_add(T.DEFENCE, -1), _add(T.ATTACK, -1)),
        restrictions=frozenset({R.ACTS_LAST}),
        resist_trait=S.CUNNING, resist_timing=RT.ON_GAIN,
    ),
    StateDef(
        StateId.STOP, "Стоп", "Stop", D.UNTIL_CURED,
        restrictions=frozenset({R.SKIPS_TURNS, R.NO_ACTIONS}),
        resist_trait=S.TENACITY, resist_timing=RT.ON_GAIN, removed_by=(Remedy.SPEEDUP,),
    ),
    StateDef(
        StateId.SPEEDUP, "Ускорение", "Speedup", D.TURNS,
        effects=(_add(T.DEFENCE, 1),),
        restrictions=frozenset({R.ACTS_FIRST}),
        duration_trait=S.CUNNING, beneficial=True,
    ),
    StateDef(
        StateId.INVULNERABILITY, "Неуязвимость", "Invulnerability", D.TURNS,
        restrictions=frozenset({R.INVULNERABLE}),
        duration_trait=T.WILLPOWER_MAX, beneficial=True,
    ),
    StateDef(
        StateId.REGENERATION, "Регенерация", "Regeneration", D.TURNS,
        duration_trait=T.HEALTH_MAX, beneficial=True,
    ),
)  # fmt: skip

STATES: Final[Mapping[StateId, StateDef]] = MappingProxyType({row.id: row for row in _ROWS})
"""Every state by id, in the seed's order."""

register_messages(
    {f"matter.state.{row.id}": {"ru": row.name_ru, "en": row.name_en} for row in _ROWS}
)


def state_message_key(state: StateId) -> str:
    return f"matter.state.{state}"
