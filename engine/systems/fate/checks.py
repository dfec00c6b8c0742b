"""Checks and the four actions: roll 4dF + skill + modifiers against an opposition.

A check is rolled once (``roll``), may be changed by invokes (``add_bonus``/``reroll``, see
``invokes``), and is then read against its opposition (``resolve``). Weapon and armor never
enter a check: they only change the harm of a successful attack (``attack_harm``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.systems.fate.ladder import (
    FATE_DICE,
    fate_notation,
    fate_symbols,
    fate_total,
    ladder_label,
    roll_fate_faces,
)
from engine.text import Msg, msg, register_messages

FULL_DEFENCE_BONUS: Final = 2
STYLE_SHIFTS: Final = 3


class Action(StrEnum):
    """The four actions; creating an advantage splits into a new or an existing aspect."""

    OVERCOME = "overcome"
    ADVANTAGE_NEW = "advantage_new"
    ADVANTAGE_EXISTING = "advantage_existing"
    ATTACK = "attack"
    DEFEND = "defend"


class Outcome(StrEnum):
    """Провал, Ничья, Успех, Крит (success with style)."""

    FAIL = "fail"
    TIE = "tie"
    SUCCESS = "success"
    STYLE = "style"


_OUTCOME_TEXTS: Final[dict[str, tuple[str, str]]] = {
    "overcome.fail": (
        "Провал: цель не достигнута или достигнута далеко не полностью и значимой ценой.",
        "Fail: the goal is not reached, or reached only in part and at a serious cost.",
    ),
    "overcome.tie": (
        "Ничья: цель достигнута с минимальными потерями, или достигнута близкая к "
        "заявленной цель.",
        "Tie: the goal is reached at a minor cost, or a goal close to it is reached.",
    ),
    "overcome.success": ("Успех: цель достигнута.", "Success: the goal is reached."),
    "overcome.style": (
        "Крит: цель достигнута, и вы получаете усиление.",
        "Success with style: the goal is reached and you get a boost.",
    ),
    "advantage_new.fail": (
        "Провал: создаётся преимущество для противника, если это возможно, иначе ничего не "
        "происходит.",
        "Fail: the opponent gets an advantage if possible; otherwise nothing happens.",
    ),
    "advantage_new.tie": (
        "Ничья: вместо полноценного преимущества вы получаете усиление.",
        "Tie: instead of a full advantage you get a boost.",
    ),
    "advantage_new.success": (
        "Успех: создаётся ситуационный аспект с одним бесплатным вызовом для вас.",
        "Success: a situation aspect with one free invoke for you is created.",
    ),
    "advantage_new.style": (
        "Крит: создаётся ситуационный аспект с двумя бесплатными вызовами для вас.",
        "Success with style: a situation aspect with two free invokes for you is created.",
    ),
    "advantage_existing.fail": (
        "Провал: преимущество получает противник.",
        "Fail: the opponent gets the advantage.",
    ),
    "advantage_existing.tie": (
        "Ничья: вы получаете бесплатный вызов аспекта.",
        "Tie: you get a free invoke on the aspect.",
    ),
    "advantage_existing.success": (
        "Успех: вы получаете бесплатный вызов аспекта.",
        "Success: you get a free invoke on the aspect.",
    ),
    "advantage_existing.style": (
        "Крит: вы получаете два бесплатных вызова аспекта.",
        "Success with style: you get two free invokes on the aspect.",
    ),
    "attack.fail": (
        "Провал: нанести вред не удалось, противник преуспел в защите.",
        "Fail: no harm; the defender succeeded.",
    ),
    "attack.tie": (
        "Ничья: вред нанести не удалось, но вы получаете усиление.",
        "Tie: no harm, but you get a boost.",
    ),
    "attack.success": (
        "Успех: вы наносите цели урон, равный числу сдвигов.",
        "Success: you deal harm equal to your shifts.",
    ),
    "attack.style": (
        "Крит: урон, равный числу сдвигов; можно обменять один сдвиг на усиление.",
        "Success with style: harm equal to your shifts; you may trade one shift for a boost.",
    ),
    "defend.fail": (
        "Провал: атаку или создание преимущества предотвратить не удалось.",
        "Fail: the attack or advantage goes through.",
    ),
    "defend.tie": (
        "Ничья: оппонент получает усиление, а вы избегаете урона или преимущества против вас.",
        "Tie: the opponent gets a boost; you avoid the harm or the lasting advantage.",
    ),
    "defend.success": (
        "Успех: урон или создание преимущества предотвращены.",
        "Success: the harm or the advantage is prevented.",
    ),
    "defend.style": (
        "Крит: урон или преимущество предотвращены, и вы получаете усиление.",
        "Success with style: prevented, and you get a boost.",
    ),
}

register_messages(
    {
        **{f"fate.outcome.{k}": {"ru": ru, "en": en} for k, (ru, en) in _OUTCOME_TEXTS.items()},
        "fate.check.full_defence_only_defend": {
            "ru": "Бонус глухой обороны действует только на защиту.",
            "en": "The full-defence bonus applies only to defence rolls.",
        },
        "fate.check.split_no_means": {
            "ru": "Чтобы разделить атаку, нужно, чем атаковать несколько целей.",
            "en": "Splitting an attack needs the means to hit several targets.",
        },
        "fate.check.split_targets": {
            "ru": "Разделить атаку можно хотя бы на две цели.",
            "en": "A split attack needs at least two targets.",
        },
        "fate.check.split_sum": {
            "ru": "Доли ({shares}) должны в сумме давать результат броска ({total}), без "
            "отрицательных.",
            "en": "Shares ({shares}) must add up to the roll ({total}), none negative.",
        },
        "fate.check.trade_needs_style": {
            "ru": "Обменять сдвиг на усиление можно только при крите.",
            "en": "Only a success with style may trade a shift for a boost.",
        },
        "fate.check.no_team": {"ru": "Некому действовать.", "en": "Nobody acts."},
    }
)


@dataclass(frozen=True)
class FateRoll:
    """One fate roll, possibly rerolled and raised by invokes.

    ``faces`` are all d6 faces drawn, in order (four per roll, rerolls appended); the last four
    count. ``paid_aspects`` are the aspects already invoked for a fate point on this roll (one
    paid invoke per aspect per check). ``modifier`` holds situational bonuses (teamwork,
    full defence, magic schools, …), ``invoke_bonus`` the +2s from invokes. ``notation`` is
    the log's dice notation (``4dF+3``).
    """

    faces: tuple[int, ...]
    skill: int
    modifier: int = 0
    invoke_bonus: int = 0
    rerolls: int = 0
    paid_aspects: tuple[str, ...] = ()

    @property
    def notation(self) -> str:
        return fate_notation(self.skill + self.modifier)

    @property
    def dice(self) -> tuple[int, ...]:
        return self.faces[-FATE_DICE:]

    @property
    def symbols(self) -> str:
        return fate_symbols(self.dice)

    @property
    def dice_total(self) -> int:
        return fate_total(self.dice)

    @property
    def total(self) -> int:
        return self.dice_total + self.skill + self.modifier + self.invoke_bonus


def outcome_of(shifts: int) -> Outcome:
    """< 0 fail, 0 tie, 1–2 success, ≥ 3 success with style."""
    if shifts < 0:
        return Outcome.FAIL
    if shifts == 0:
        return Outcome.TIE
    if shifts < STYLE_SHIFTS:
        return Outcome.SUCCESS
    return Outcome.STYLE


def outcome_text(action: Action, outcome: Outcome) -> Msg:
    """The seed's text for an action's outcome."""
    return msg(f"fate.outcome.{action.value}.{outcome.value}")


def roll(
    source: RandomSource, *, skill: int, modifier: int = 0, full_defence: bool = False
) -> FateRoll:
    """Roll 4dF for a skill; ``full_defence`` adds +2 (use it only for defence rolls)."""
    bonus = FULL_DEFENCE_BONUS if full_defence else 0
    return FateRoll(roll_fate_faces(source), skill, modifier + bonus)


def reroll(fate_roll: FateRoll, source: RandomSource) -> FateRoll:
    """Reroll all four dice; the new dice stand (the old faces stay in ``faces`` for the log)."""
    return replace(
        fate_roll, faces=fate_roll.faces + roll_fate_faces(source), rerolls=fate_roll.rerolls + 1
    )


def add_bonus(fate_roll: FateRoll, bonus: int) -> FateRoll:
    """Raise a roll by an invoke bonus (kept apart from the situational modifier)."""
    return replace(fate_roll, invoke_bonus=fate_roll.invoke_bonus + bonus)


@dataclass(frozen=True)
class CheckResult:
    """A roll read against its opposition (a difficulty or the other side's total).

    ``opposing_roll`` is the other side's roll in an active opposed check (for the log).
    """

    action: Action
    roll: FateRoll
    opposition: int
    shifts: int
    outcome: Outcome
    text: Msg
    opposing_roll: FateRoll | None = None

    @property
    def total(self) -> int:
        return self.roll.total

    @property
    def ladder(self) -> Msg:
        """The ladder name of the result (``Хорошо`` for +3)."""
        return ladder_label(self.total)

    @property
    def notation(self) -> str:
        return self.roll.notation

    @property
    def faces(self) -> tuple[int, ...]:
        return self.roll.faces

    @property
    def succeeded(self) -> bool:
        return self.outcome in (Outcome.SUCCESS, Outcome.STYLE)


def resolve(action: Action, fate_roll: FateRoll, opposition: int) -> CheckResult:
    """Shifts = total − opposition; the outcome and the seed's text for the action."""
    shifts = fate_roll.total - opposition
    outcome = outcome_of(shifts)
    return CheckResult(
        action, fate_roll, opposition, shifts, outcome, outcome_text(action, outcome)
    )


def opposed(action: Action, fate_roll: FateRoll, opposing: FateRoll) -> CheckResult:
    """An active opposed check read from the side of ``fate_roll`` (e.g. ``DEFEND`` for the
    defender's roll against the attack roll, or ``ATTACK`` the other way round)."""
    return replace(resolve(action, fate_roll, opposing.total), opposing_roll=opposing)


class Beneficiary(StrEnum):
    """Who receives an outcome's boost or free invokes."""

    NOBODY = "nobody"
    ACTOR = "actor"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class Gain:
    """What an outcome hands out besides harm: a boost, or free invokes on an aspect.

    ``free_invokes`` are on the created (or existing) aspect; ``boost`` is a one-use boost.
    """

    beneficiary: Beneficiary
    boost: bool = False
    free_invokes: int = 0


_NOTHING: Final = Gain(Beneficiary.NOBODY)
_GAINS: Final[dict[tuple[Action, Outcome], Gain]] = {
    (Action.OVERCOME, Outcome.STYLE): Gain(Beneficiary.ACTOR, boost=True),
    # DECISION (Fate Core): "an advantage for the opponent" = one free invoke for them
    (Action.ADVANTAGE_NEW, Outcome.FAIL): Gain(Beneficiary.OPPONENT, free_invokes=1),
    (Action.ADVANTAGE_NEW, Outcome.TIE): Gain(Beneficiary.ACTOR, boost=True),
    (Action.ADVANTAGE_NEW, Outcome.SUCCESS): Gain(Beneficiary.ACTOR, free_invokes=1),
    (Action.ADVANTAGE_NEW, Outcome.STYLE): Gain(Beneficiary.ACTOR, free_invokes=2),
    (Action.ADVANTAGE_EXISTING, Outcome.FAIL): Gain(Beneficiary.OPPONENT, free_invokes=1),
    (Action.ADVANTAGE_EXISTING, Outcome.TIE): Gain(Beneficiary.ACTOR, free_invokes=1),
    (Action.ADVANTAGE_EXISTING, Outcome.SUCCESS): Gain(Beneficiary.ACTOR, free_invokes=1),
    (Action.ADVANTAGE_EXISTING, Outcome.STYLE): Gain(Beneficiary.ACTOR, free_invokes=2),
    (Action.ATTACK, Outcome.TIE): Gain(Beneficiary.ACTOR, boost=True),
    (Action.DEFEND, Outcome.TIE): Gain(Beneficiary.OPPONENT, boost=True),
    (Action.DEFEND, Outcome.STYLE): Gain(Beneficiary.ACTOR, boost=True),
}


def gain_of(result: CheckResult) -> Gain:
    """The boost / free invokes the seed's outcome table grants (an attack with style may
    also trade a shift for a boost: see ``attack_harm``)."""
    return _GAINS.get((result.action, result.outcome), _NOTHING)


def check(
    source: RandomSource,
    action: Action,
    *,
    skill: int,
    opposition: int,
    modifier: int = 0,
    full_defence: bool = False,
) -> CheckResult:
    """Roll and resolve in one step. ``full_defence`` is only legal on a defence roll."""
    if full_defence and action is not Action.DEFEND:
        raise RuleViolation(msg("fate.check.full_defence_only_defend"))
    return resolve(
        action, roll(source, skill=skill, modifier=modifier, full_defence=full_defence), opposition
    )


def attack_harm(
    attack: CheckResult, *, weapon: int = 0, armor: int = 0, trade_for_boost: bool = False
) -> int:
    """Harm of an attack: shifts + weapon − armor, at least 0, and only on a success.

    Weapon and armor never turn a miss into a hit nor change the outcome. With style the
    attacker may trade one shift for a boost (``trade_for_boost``), taken off the shifts
    before weapon and armor apply (DECISION: the boost costs a shift of the roll).
    """
    if trade_for_boost and attack.outcome is not Outcome.STYLE:
        raise RuleViolation(msg("fate.check.trade_needs_style"))
    if not attack.succeeded:
        return 0
    shifts = attack.shifts - (1 if trade_for_boost else 0)
    return max(0, shifts + weapon - armor)


@dataclass(frozen=True)
class Teamwork:
    """Who rolls and the bonus: +1 per helper whose skill is at least +1."""

    lead: str
    lead_skill: int
    helpers: tuple[str, ...]
    bonus: int


def teamwork(skills: Mapping[str, int]) -> Teamwork:
    """The highest-skilled participant leads (ties: the first named, DECISION); every other
    participant with the skill at +1 or more adds +1. Helpers' advantages reach the lead as
    free invokes (hand them over with ``conflict.transfer_free_invokes``)."""
    if not skills:
        raise RuleViolation(msg("fate.check.no_team"))
    lead = max(skills, key=lambda k: skills[k])
    helpers = tuple(k for k in skills if k != lead)
    bonus = sum(1 for k in helpers if skills[k] >= 1)
    return Teamwork(lead, skills[lead], helpers, bonus)


def split_attack(total: int, shares: Mapping[str, int], *, has_means: bool) -> dict[str, int]:
    """Divide an attack (or advantage) roll between targets; each defends against its share.

    Needs the means to hit several targets (the GM confirms: ``has_means``), at least two
    targets, and non-negative shares adding up to the total (seed: dice +2 and Бой +4 = 6 to
    split). DECISION: a total below 0 has nothing to divide, so each target faces the total.
    """
    if not has_means:
        raise RuleViolation(msg("fate.check.split_no_means"))
    if len(shares) < 2:
        raise RuleViolation(msg("fate.check.split_targets"))
    if total < 0:
        return {t: total for t in shares}
    values = list(shares.values())
    if sum(values) != total or min(values) < 0:
        raise RuleViolation(
            msg("fate.check.split_sum", shares=", ".join(map(str, values)), total=total)
        )
    return dict(shares)


def zone_attack(total: int, in_zone: Sequence[str]) -> dict[str, int]:
    """A zone attack: everyone in the zone, allies included, defends against the whole roll."""
    return {t: total for t in in_zone}
