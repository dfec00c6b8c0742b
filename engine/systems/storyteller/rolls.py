"""Dice pools: attribute + at most one ability ± modifiers, rolled against a difficulty.

Counting (seed 003): every die ≥ difficulty is a success, every 1 cancels one success; more 1s
than successes is a botch (провал), net 0 is a failure (неудача), net ≥ 1 a success whose
degree grows with the net count. Notation for the roll log: ``Nd10>=Df1`` — the dice only;
a Willpower success is recorded by the ``willpower`` flag, not as ``+1``, because the notation's
arithmetic would let the 1s cancel it (``1,1,6`` + 1 = 0) while the rule says they cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.common import Change, SheetModel
from engine.dice.source import RandomSource, roll_dice
from engine.errors import RuleViolation
from engine.text import Msg, msg, register_messages

from .health import wound_penalty
from .sheet import Character, spend_willpower
from .traits import Attribute

MIN_DIFFICULTY: Final = 2
MAX_DIFFICULTY: Final = 10
DEFAULT_DIFFICULTY: Final = 6
MAX_POOL: Final = 50
"""A sanity cap on dice in one roll (a WoD pool rarely passes 15); protects the bot."""

register_messages(
    {
        "storyteller.roll.bad_difficulty": {
            "ru": "Сложность должна быть от 2 до 10, а не {difficulty}.",
            "en": "The difficulty must be between 2 and 10, not {difficulty}.",
        },
        "storyteller.roll.too_many_dice": {
            "ru": "Слишком много кубиков: {dice} (не больше {limit}).",
            "en": "Too many dice: {dice} (at most {limit}).",
        },
        "storyteller.roll.no_automatic_success": {
            "ru": "Автоматический успех возможен, только если кубиков ({dice}) больше "
            "сложности ({difficulty}).",
            "en": "An automatic success needs more dice ({dice}) than the difficulty "
            "({difficulty}).",
        },
        "storyteller.roll.bad_attempt": {
            "ru": "Номер попытки должен быть не меньше 1, а не {attempt}.",
            "en": "The attempt number must be at least 1, not {attempt}.",
        },
        "storyteller.result.botch": {"ru": "Провал", "en": "Botch"},
        "storyteller.result.failure": {"ru": "Неудача", "en": "Failure"},
        "storyteller.result.success": {"ru": "Успех", "en": "Success"},
        "storyteller.degree.marginal": {"ru": "Минимальный успех", "en": "Marginal"},
        "storyteller.degree.moderate": {"ru": "Умеренный успех", "en": "Moderate"},
        "storyteller.degree.complete": {"ru": "Полный успех", "en": "Complete"},
        "storyteller.degree.exceptional": {"ru": "Исключительный успех", "en": "Exceptional"},
        "storyteller.degree.phenomenal": {"ru": "Феноменальный успех", "en": "Phenomenal"},
        "storyteller.difficulty.2": {"ru": "исключительно простая", "en": "Trivial"},
        "storyteller.difficulty.3": {"ru": "лёгкая", "en": "Easy"},
        "storyteller.difficulty.4": {"ru": "рутинная", "en": "Routine"},
        "storyteller.difficulty.5": {"ru": "простая", "en": "Straightforward"},
        "storyteller.difficulty.6": {"ru": "стандартная", "en": "Standard"},
        "storyteller.difficulty.7": {"ru": "проблематичная", "en": "Challenging"},
        "storyteller.difficulty.8": {"ru": "сложная", "en": "Difficult"},
        "storyteller.difficulty.9": {"ru": "очень сложная", "en": "Very difficult"},
        "storyteller.difficulty.10": {"ru": "практически невыполнимая", "en": "Nearly impossible"},
    }
)


class RollResult(StrEnum):
    BOTCH = "botch"
    FAILURE = "failure"
    SUCCESS = "success"

    @property
    def name_msg(self) -> Msg:
        return msg(f"storyteller.result.{self.value}")


class Degree(StrEnum):
    """Degree of success by net successes: 1, 3 and 5+ are the seed's; 2 and 4 classic WoD."""

    MARGINAL = "marginal"
    MODERATE = "moderate"
    COMPLETE = "complete"
    EXCEPTIONAL = "exceptional"
    PHENOMENAL = "phenomenal"

    @property
    def name_msg(self) -> Msg:
        return msg(f"storyteller.degree.{self.value}")


_DEGREES: Final = (
    Degree.MARGINAL,
    Degree.MODERATE,
    Degree.COMPLETE,
    Degree.EXCEPTIONAL,
    Degree.PHENOMENAL,
)


def degree_of(net: int) -> Degree | None:
    """Degree for a net success count; ``None`` when there is no success."""
    if net < 1:
        return None
    return _DEGREES[min(net, len(_DEGREES)) - 1]


def result_of(net: int) -> RollResult:
    if net < 0:
        return RollResult.BOTCH
    return RollResult.SUCCESS if net > 0 else RollResult.FAILURE


def difficulty_name(difficulty: int) -> Msg:
    """The seed's name for a difficulty («стандартная» for 6 …). The seed's table names the
    action («Стандартное» действие); the bot says «Сложность 6 (стандартная)», so the words agree
    with «сложность» (DECISION)."""
    check_difficulty(difficulty)
    return msg(f"storyteller.difficulty.{difficulty}")


def check_difficulty(difficulty: int) -> None:
    """Difficulty 2..10 (the seed's main rule; «между 1 и 10» elsewhere is loose)."""
    if not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise RuleViolation(msg("storyteller.roll.bad_difficulty", difficulty=difficulty))


def pool_notation(dice: int, difficulty: int) -> str:
    """``7d10>=6f1`` for the dice rolled; empty when nothing is rolled."""
    if dice <= 0:
        return ""
    return f"{dice}d10>={difficulty}f1"


@dataclass(frozen=True)
class PoolRoll:
    """One pool roll (or a decision without dice), with the raw faces in the order drawn.

    ``net`` is successes − ones, negative on a botch; with ``willpower`` it is
    max(0, successes − ones) + 1 (``notation`` covers the dice only);
    ``achieved`` is what counts towards targets (never below 0).
    """

    dice: int
    difficulty: int
    faces: tuple[int, ...]
    notation: str
    successes: int
    ones: int
    willpower: bool
    automatic: bool
    net: int
    result: RollResult
    degree: Degree | None

    @property
    def achieved(self) -> int:
        return max(0, self.net)

    @property
    def botch(self) -> bool:
        return self.result is RollResult.BOTCH

    def record(self) -> RollRecord:
        """The storable form (faces + settings) for action states."""
        return RollRecord(
            dice=self.dice,
            difficulty=self.difficulty,
            faces=self.faces,
            willpower=self.willpower,
            automatic=self.automatic,
        )


class RollRecord(SheetModel):
    """A roll as stored inside action states; ``outcome()`` recounts it from the faces."""

    dice: int
    difficulty: int
    faces: tuple[int, ...] = ()
    willpower: bool = False
    automatic: bool = False

    def outcome(self) -> PoolRoll:
        if self.automatic:
            return automatic_success(self.dice, self.difficulty)
        return evaluate(self.faces, self.difficulty, willpower=self.willpower, dice=self.dice)


def evaluate(
    faces: Sequence[int], difficulty: int, *, willpower: bool = False, dice: int | None = None
) -> PoolRoll:
    """Count faces already rolled.

    Willpower (DECISION, classic WoD): its success is added after the 1s cancel and cannot be
    cancelled, so a roll with Willpower spent never botches.
    """
    check_difficulty(difficulty)
    faces = tuple(faces)
    successes = sum(1 for face in faces if face >= difficulty)
    ones = sum(1 for face in faces if face == 1)
    net = successes - ones
    if willpower:
        net = max(0, net) + 1
    count = len(faces) if dice is None else dice
    return PoolRoll(
        dice=count,
        difficulty=difficulty,
        faces=faces,
        notation=pool_notation(count, difficulty),
        successes=successes,
        ones=ones,
        willpower=willpower,
        automatic=False,
        net=net,
        result=result_of(net),
        degree=degree_of(net),
    )


def roll_pool(
    source: RandomSource,
    dice: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    *,
    willpower: bool = False,
) -> PoolRoll:
    """Roll ``dice`` d10 against ``difficulty``.

    A pool of 0 or less rolls nothing and fails (DECISION, classic WoD; the seed is silent) —
    unless Willpower is spent, whose automatic success still stands.
    """
    check_difficulty(difficulty)
    if dice > MAX_POOL:
        raise RuleViolation(msg("storyteller.roll.too_many_dice", dice=dice, limit=MAX_POOL))
    faces = roll_dice(source, dice, 10) if dice > 0 else ()
    return evaluate(faces, difficulty, willpower=willpower, dice=max(0, dice))


def can_succeed_automatically(dice: int, difficulty: int) -> bool:
    """The seed allows skipping the roll when the pool exceeds the difficulty."""
    return dice > difficulty


def automatic_success(dice: int, difficulty: int) -> PoolRoll:
    """The Storyteller's automatic success: exactly one success, no dice (the seed's rule).

    Whether to allow it (never for attacks or unpredictable actions) is the Storyteller's call;
    this only checks the arithmetic condition.
    """
    check_difficulty(difficulty)
    if not can_succeed_automatically(dice, difficulty):
        raise RuleViolation(
            msg("storyteller.roll.no_automatic_success", dice=dice, difficulty=difficulty)
        )
    return PoolRoll(
        dice=dice,
        difficulty=difficulty,
        faces=(),
        notation="",
        successes=1,
        ones=0,
        willpower=False,
        automatic=True,
        net=1,
        result=RollResult.SUCCESS,
        degree=Degree.MARGINAL,
    )


def retry_difficulty(difficulty: int, attempt: int) -> int:
    """Difficulty of the ``attempt``-th try (1 = first) with the seed's +1 per retry, max 10.

    DECISION: the seed sets no cap; difficulty cannot exceed 10, so it stays at 10.
    """
    check_difficulty(difficulty)
    if attempt < 1:
        raise RuleViolation(msg("storyteller.roll.bad_attempt", attempt=attempt))
    return min(MAX_DIFFICULTY, difficulty + attempt - 1)


@dataclass(frozen=True)
class PoolSpec:
    """How a pool was built from the sheet: ``total`` dice (may be ≤ 0 → automatic failure)."""

    attribute: Attribute
    attribute_dots: int
    ability: str | None
    ability_dots: int
    modifier: int
    wound_penalty: int

    @property
    def total(self) -> int:
        return self.attribute_dots + self.ability_dots + self.modifier + self.wound_penalty


def build_pool(
    character: Character,
    attribute: Attribute,
    ability: str | None = None,
    *,
    modifier: int = 0,
    wounds: bool = True,
) -> PoolSpec:
    """One attribute + at most one ability (the seed forbids two of either) ± modifier.

    Wound penalties apply unless ``wounds=False`` (e.g. a Storyteller's exception); an
    incapacitated character cannot build a pool at all (raises ``RuleViolation``).
    """
    penalty = wound_penalty(character.health) if wounds else 0
    return PoolSpec(
        attribute=attribute,
        attribute_dots=character.attributes.get(attribute),
        ability=ability,
        ability_dots=character.ability(ability) if ability else 0,
        modifier=modifier,
        wound_penalty=penalty,
    )


@dataclass(frozen=True)
class CharacterRoll:
    """A roll made from a sheet: how the pool was built, the roll, and what the sheet lost."""

    spec: PoolSpec
    roll: PoolRoll
    changes: tuple[Change, ...]


def roll_character(
    character: Character,
    attribute: Attribute,
    ability: str | None = None,
    *,
    source: RandomSource,
    difficulty: int = DEFAULT_DIFFICULTY,
    modifier: int = 0,
    willpower: bool = False,
    wounds: bool = True,
) -> tuple[Character, CharacterRoll]:
    """Build the pool from the sheet, spend Willpower if asked, and roll.

    Nothing is spent or rolled when a rule refuses the roll (bad difficulty, no Willpower left,
    incapacitated), so a failed call leaves no half-done state.
    """
    check_difficulty(difficulty)
    spec = build_pool(character, attribute, ability, modifier=modifier, wounds=wounds)
    changes: tuple[Change, ...] = ()
    if willpower:
        character, change = spend_willpower(character)
        changes = (change,)
    roll = roll_pool(source, spec.total, difficulty, willpower=willpower)
    return character, CharacterRoll(spec, roll, changes)
