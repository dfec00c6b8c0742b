"""Dice of ``matter``: d10 pools, 7+ succeeds, 0-again chained, chance rolls, grades, contests.

Faces are kept raw and in the order drawn. A die showing 10 (the seed's «0») adds one more die,
which may explode again (DECISION in SPEC: chained). Whether the extra dice are drawn right
after their die (as here) or in waves after all the initial dice (as the dice core evaluates
``Nd10>=7!``), the drawn sequence is the same: drawing stops at the first point where
draws = initial dice + tens seen, so ``faces`` replays exactly as ``Nd10>=7!`` from the same
source. For the same reason a top-up (доброс) that appends dice replays as ``(N+k)d10>=7!``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.dice.source import RandomSource, roll_die
from engine.errors import EngineError, RuleViolation
from engine.text import msg, register_messages

register_messages(
    {
        "matter.roll.too_many_dice": {
            "ru": "Слишком много кубиков: {count} (предел {limit}).",
            "en": "Too many dice: {count} (the limit is {limit}).",
        },
        "matter.roll.top_up_positive": {
            "ru": "Добросить можно только положительное число кубиков.",
            "en": "A top-up adds a positive number of dice.",
        },
        "matter.roll.no_auto_success_pvp": {
            "ru": "В бою игрока против игрока успех без броска не засчитывается.",
            "en": "No success without a roll in player-versus-player combat.",
        },
    }
)

SUCCESS_FACE: Final = 7
AGAIN_FACE: Final = 10
CHANCE_FACE: Final = 10
MAX_DICE: Final = 1000
"""Dice cap per roll, explosions included (the dice core's limit)."""


class Modifier(StrEnum):
    """The four named pool modifiers of the seed."""

    ADVANTAGE = "advantage"  # преимущество: +1d10
    OVERWHELMING = "overwhelming"  # ошеломительное преимущество / хороший план: +3d10
    COMPLICATION = "complication"  # заметные осложнения: −1d10
    ALL_AGAINST = "all_against"  # всё против вас: −3d10


MODIFIER_DICE: Final[dict[Modifier, int]] = {
    Modifier.ADVANTAGE: 1,
    Modifier.OVERWHELMING: 3,
    Modifier.COMPLICATION: -1,
    Modifier.ALL_AGAINST: -3,
}


class Grade(StrEnum):
    """How well a roll went (seed: 1 — кое-как, 2 — хорошо, 3 — экстра-успех)."""

    CRITICAL_FAILURE = "critical_failure"
    FAILURE = "failure"
    ROUGH = "rough"
    GOOD = "good"
    EXCEPTIONAL = "exceptional"


class Ruling(StrEnum):
    """The GM's right to skip the dice."""

    AUTO_SUCCESS = "auto_success"
    IMPOSSIBLE = "impossible"


@dataclass(frozen=True)
class PoolRoll:
    """One logged d10 roll.

    ``pool`` is dots + modifiers + bonus as counted (may be ≤ 0); ``base_dice`` the dice
    actually thrown before explosions (1 for a chance roll); ``faces`` every face in draw order.
    """

    dots: int
    modifiers: tuple[Modifier, ...]
    bonus: int
    pool: int
    base_dice: int
    chance: bool
    faces: tuple[int, ...]
    successes: int
    critical_failure: bool
    notation: str
    topped_up: int = 0

    @property
    def grade(self) -> Grade:
        return grade_of(self.successes, critical_failure=self.critical_failure)

    @property
    def succeeded(self) -> bool:
        return self.successes > 0


@dataclass(frozen=True)
class RulingOutcome:
    """A result the GM declared without dice (no faces, nothing to log but the ruling)."""

    ruling: Ruling
    succeeded: bool


class ContestWinner(StrEnum):
    FIRST = "first"
    SECOND = "second"
    STALEMATE = "stalemate"


@dataclass(frozen=True)
class ContestOutcome:
    """A contested roll: more successes wins; DECISION (SPEC): a tie is a stalemate."""

    first: PoolRoll
    second: PoolRoll
    winner: ContestWinner
    margin: int


def modifier_total(modifiers: Iterable[Modifier]) -> int:
    return sum(MODIFIER_DICE[m] for m in modifiers)


def grade_of(successes: int, *, critical_failure: bool = False) -> Grade:
    """Grade by successes: 0 fail, 1 rough, 2 good, 3+ exceptional."""
    if critical_failure:
        return Grade.CRITICAL_FAILURE
    if successes <= 0:
        return Grade.FAILURE
    if successes == 1:
        return Grade.ROUGH
    if successes == 2:
        return Grade.GOOD
    return Grade.EXCEPTIONAL


def pool_notation(dice: int) -> str:
    """Roll-log notation of a regular pool with 10-again, e.g. ``5d10>=7!``."""
    return f"{dice}d10>=7!"


CHANCE_NOTATION: Final = "chance"
"""Roll-log notation of the chance die (only a 10 succeeds, a 10 adds a die like any 10;
the dice core reads ``chance`` exactly so); see ``chance_roll``."""


def _check_size(count: int) -> None:
    if count > MAX_DICE:
        raise EngineError(msg("matter.roll.too_many_dice", count=count, limit=MAX_DICE))


def _throw(source: RandomSource, dice: int, already: int = 0) -> tuple[int, ...]:
    """Throw ``dice`` d10, each followed at once by its 0-again chain."""
    faces: list[int] = []
    for _ in range(dice):
        face = roll_die(source, 10)
        faces.append(face)
        while face == AGAIN_FACE:
            _check_size(already + len(faces) + 1)
            face = roll_die(source, 10)
            faces.append(face)
    return tuple(faces)


def _regular_successes(faces: tuple[int, ...]) -> int:
    return sum(1 for f in faces if f >= SUCCESS_FACE)


def _chance_successes(faces: tuple[int, ...]) -> int:
    # Only a 10 on the chance die counts; the dice its 0-again adds count 7+ as usual.
    if not faces or faces[0] != CHANCE_FACE:
        return 0
    return 1 + _regular_successes(faces[1:])


def roll_pool(
    source: RandomSource,
    dots: int,
    modifiers: Iterable[Modifier] = (),
    *,
    bonus: int = 0,
    chance: bool = False,
    fixed_dice: int | None = None,
) -> PoolRoll:
    """Roll dots ± the named modifiers (+ ``bonus``) as d10, 7+ succeeds, 10-again chained.

    A pool ≤ 0, or ``chance=True`` (the GM orders it), makes a chance roll instead.
    ``fixed_dice`` replaces the whole pool (Мини/Жаба: «броски = 1d10», modifiers ignored).
    A pool of exactly one die showing 1 is a critical failure (seed: «Если кубик один и
    выпадает 1 — критический провал»).
    """
    mods = tuple(modifiers)
    pool = fixed_dice if fixed_dice is not None else dots + modifier_total(mods) + bonus
    if chance or pool <= 0:
        return _chance(source, dots, mods, bonus, pool)
    _check_size(pool)
    faces = _throw(source, pool)
    return PoolRoll(
        dots=dots,
        modifiers=mods,
        bonus=bonus,
        pool=pool,
        base_dice=pool,
        chance=False,
        faces=faces,
        successes=_regular_successes(faces),
        critical_failure=pool == 1 and faces[0] == 1,
        notation=pool_notation(pool),
    )


def _chance(
    source: RandomSource, dots: int, mods: tuple[Modifier, ...], bonus: int, pool: int
) -> PoolRoll:
    faces = _throw(source, 1)
    return PoolRoll(
        dots=dots,
        modifiers=mods,
        bonus=bonus,
        pool=pool,
        base_dice=1,
        chance=True,
        faces=faces,
        successes=_chance_successes(faces),
        # DECISION (SPEC, derived from the one-die rule): a chance die showing 1 is a critical
        # failure too.
        critical_failure=faces[0] == 1,
        notation=CHANCE_NOTATION,
    )


def chance_roll(source: RandomSource) -> PoolRoll:
    """The chance roll (шанс-бросок): 1d10, only a 10 succeeds, its 0-again dice count 7+.

    Notation ``1d10>=10`` names the chance die; when it shows 10 the extra dice that follow in
    ``faces`` are the 0-again chain, counted 7+.
    """
    return _chance(source, 0, (), 0, 0)


def top_up(roll: PoolRoll, extra: int, source: RandomSource) -> PoolRoll:
    """Add ``extra`` miscounted dice to the same logged roll (доброс): nothing is rerolled.

    The thrown faces stay; new dice are appended (with their own 0-again chains). A topped-up
    chance roll becomes the regular pool it should have been (DECISION: the chance die is the
    first die of that pool and now counts 7+, as the seed keeps «первые выпавшие результаты»).
    """
    if extra <= 0:
        raise RuleViolation(msg("matter.roll.top_up_positive"))
    base = roll.base_dice + extra
    _check_size(len(roll.faces) + extra)
    faces = roll.faces + _throw(source, extra, already=len(roll.faces))
    return PoolRoll(
        dots=roll.dots,
        modifiers=roll.modifiers,
        bonus=roll.bonus,
        pool=base,
        base_dice=base,
        chance=False,
        faces=faces,
        successes=_regular_successes(faces),
        critical_failure=False,  # the pool is now at least two dice
        notation=pool_notation(base),
        topped_up=roll.topped_up + extra,
    )


def compare(first: PoolRoll, second: PoolRoll) -> ContestOutcome:
    """Compare two rolls of a contest: more successes wins, a tie is a stalemate."""
    diff = first.successes - second.successes
    if diff > 0:
        winner = ContestWinner.FIRST
    elif diff < 0:
        winner = ContestWinner.SECOND
    else:
        winner = ContestWinner.STALEMATE
    return ContestOutcome(first=first, second=second, winner=winner, margin=abs(diff))


def contested_roll(
    source: RandomSource,
    first_dots: int,
    second_dots: int,
    first_modifiers: Iterable[Modifier] = (),
    second_modifiers: Iterable[Modifier] = (),
) -> ContestOutcome:
    """Each side rolls its pool (first side first); compare successes."""
    first = roll_pool(source, first_dots, first_modifiers)
    second = roll_pool(source, second_dots, second_modifiers)
    return compare(first, second)


def gm_ruling(ruling: Ruling, *, pvp_combat: bool = False) -> RulingOutcome:
    """The GM declares success without a roll or rules it impossible.

    Raises ``RuleViolation`` for an automatic success in player-versus-player combat (seed:
    «разве что исключая те боевые сцены, когда игрок против игрока»).
    """
    if ruling is Ruling.AUTO_SUCCESS and pvp_combat:
        raise RuleViolation(msg("matter.roll.no_auto_success_pvp"))
    return RulingOutcome(ruling=ruling, succeeded=ruling is Ruling.AUTO_SUCCESS)
