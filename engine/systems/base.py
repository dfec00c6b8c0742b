"""What every rule system tells the bot about one roll: the exact chances of each step of its
outcome ladder, and the reading of rolled dice in its own words.

The bot shows both on request cards, on the rolled card, after a Fate invoke or reroll and in
``/odds``; it never re-derives a system's rules. Each system implements ``RollRules`` once
(``engine.systems.<system>.outcomes.RULES``); ``PLAIN`` reads rolls made outside any system
(a sum against a target: success is total ≥ target).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final, Protocol

from engine.common import Change, SheetModel
from engine.dice.ast import Chance as ChanceDie
from engine.dice.ast import Cmp, Dice
from engine.dice.odds import MAX_WORK, Distribution, distribution, matter_pool, storyteller_pool
from engine.dice.parser import parse
from engine.dice.results import RollResult
from engine.dice.source import RandomSource
from engine.errors import EngineError
from engine.systems.sheet_rolls import SheetRoll
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "outcome.success": {"ru": "успех", "en": "success"},
        "outcome.failure": {"ru": "неудача", "en": "failure"},
        "outcome.botch": {"ru": "провал (единиц больше, чем успехов)", "en": "botch"},
        "outcome.at_least": {"ru": "успехов: {n} и больше", "en": "successes: {n} or more"},
        "outcome.critical_failure": {"ru": "критический провал", "en": "critical failure"},
        "outcome.plain.success": {
            "ru": "✅ Успех ({total} против {target})",
            "en": "✅ Success ({total} vs {target})",
        },
        "outcome.plain.failure": {
            "ru": "❌ Неудача ({total} против {target})",
            "en": "❌ Failure ({total} vs {target})",
        },
    }
)


@dataclass(frozen=True, slots=True)
class Ask:
    """One roll as a system reads it.

    ``expression`` is the stored dice notation; ``target`` the difficulty, target number,
    defence or opposition (None: none given); ``bonus`` is added to the total after the roll
    (Fate invokes, +2 each); ``willpower``: a Storyteller Willpower point bought one automatic
    success.
    """

    expression: str
    target: int | None = None
    bonus: int = 0
    willpower: bool = False
    # the most work an exact sum may take (None: ``engine.dice.odds.MAX_WORK``); a card drawn
    # on the bot's event loop asks for less than ``/odds`` in its worker process
    max_work: int | None = None


@dataclass(frozen=True, slots=True)
class Chance:
    """One step of the ladder and its exact probability. ``success``: the seed's success.
    ``within``: a part of the step before it (a success with style among the successes)."""

    name: Msg
    p: Fraction
    success: bool = False
    within: bool = False


@dataclass(frozen=True, slots=True)
class Chances:
    """The ladder's steps (``within`` rows aside, they partition certainty), best first."""

    rows: tuple[Chance, ...]

    @property
    def success(self) -> Fraction:
        """P(the seed's success)."""
        return sum((r.p for r in self.rows if r.success and not r.within), Fraction(0))


@dataclass(frozen=True, slots=True)
class Reading:
    """Rolled dice read by a system: the ladder step (``outcome``, a short key such as
    ``tie`` or ``botch``), whether it is the seed's success (None: nothing to succeed
    against), and the words shown to players."""

    outcome: str
    success: bool | None
    words: Msg


class RollRules(Protocol):
    """A rule system's outcome ladder for one roll."""

    def chances(self, ask: Ask) -> Chances | None:
        """The exact chances of each outcome; None where the roll has none (no target, or
        no exact odds for the expression)."""
        ...

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        """The outcome of ``result`` (rolled from ``ask.expression``); None: nothing to say
        beyond the dice."""
        ...

    def takes_willpower(self, expression: str) -> bool:
        """Whether a Willpower point can buy this roll an automatic success (``Ask``)."""
        ...


class SheetRolls(Protocol):
    """A rule system's ``/r`` shorthands: a trait named on the player's sheet → the roll."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        """What ``/r <text>`` rolls for ``character`` (a sheet of this system; ValueError
        otherwise). Raises ``EngineError`` with a message fit for the player."""
        ...

    def prefers_sheet_roll(self, text: str) -> bool:
        """Text that is valid dice notation yet means a sheet roll here (Matter's ``/r 5``
        is a pool of five, not the constant 5)."""
        ...


@dataclass(frozen=True, slots=True)
class MilestoneRoll:
    """A roll a milestone makes when it is applied (a cliché's advancement roll).

    ``key`` names what it is rolled for, unique within one character (the cliché's name:
    the roll log's id is built from it); ``plan`` is the preview's line saying what the roll
    does — the dice are not rolled before the GM confirms."""

    key: str
    notation: str
    plan: Msg


@dataclass(frozen=True, slots=True)
class RolledMilestone:
    """A milestone roll made: its faces and the outcome in the system's words."""

    key: str
    notation: str
    faces: tuple[int, ...]
    words: Msg


class Milestones(Protocol):
    """A rule system's milestones (a rest, the end of a scene, advancement)."""

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds a GM may apply, smallest first (the order of the buttons)."""
        ...

    @property
    def rolled_kind(self) -> str | None:
        """The kind whose effect rolls dice when applied (cliché advancement: every cliché
        rolled through the roll log); ``apply`` does not take it. None: no such kind."""
        ...

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        """``kind`` (one of ``kinds``, not ``rolled_kind``) applied to one character."""
        ...

    def planned_rolls(self, character: SheetModel) -> tuple[MilestoneRoll, ...]:
        """The rolls ``rolled_kind`` makes for ``character`` (none: nothing happens to it)."""
        ...

    def apply_rolled(
        self, character: SheetModel, rolls: Sequence[MilestoneRoll], source: RandomSource
    ) -> tuple[SheetModel, list[Change], list[RolledMilestone]]:
        """``rolled_kind`` applied to ``character``: ``rolls`` (its ``planned_rolls``) made in
        order from ``source`` (the bot feeds the logged faces back through a
        ``ScriptedSource``)."""
        ...


class NoRolledMilestone:
    """For a system none of whose milestones rolls dice (``rolled_kind`` None)."""

    rolled_kind: Final = None

    def planned_rolls(self, character: SheetModel) -> tuple[MilestoneRoll, ...]:
        return ()

    def apply_rolled(
        self, character: SheetModel, rolls: Sequence[MilestoneRoll], source: RandomSource
    ) -> tuple[SheetModel, list[Change], list[RolledMilestone]]:
        raise ValueError("no milestone of this system rolls dice")


class RequestOption(StrEnum):
    """Choices a pending request card offers before the roll."""

    PUMP = "pump"  # the player adds dice to this roll, paid from the trait after it
    POOL_MODIFIERS = "pool_modifiers"  # the GM's named pool modifiers
    GEAR = "gear"  # the player picks a weapon, its stat and boosts from the sheet


def _plain_sheet_text(trait: str, ability: str | None, level: int | None) -> str:
    return trait if level is None else f"{trait} vs {level}"


def _no_levels(locale: str) -> list[tuple[int, str]]:
    return []


@dataclass(frozen=True, slots=True)
class RequestRules:
    """A rule system's roll requests: the GM's level buttons, the shorthand a request built
    with buttons reads, and the options the card offers."""

    # the difficulty / opposition buttons in the system's own words ([]: none)
    levels: Callable[[str], list[tuple[int, str]]] = _no_levels
    # every roll has a difficulty (a default one when none is given): no «no difficulty»
    level_required: bool = False
    # (trait, ability, level) → the sheet shorthand (``Атлетика vs 3``, ``Ловкость+Атлетизм 7``)
    sheet_text: Callable[[str, str | None, int | None], str] = _plain_sheet_text
    # the request option naming the rolled trait (a trait request's ``Name (dice)``)
    trait_option: str | None = None
    offers: frozenset[RequestOption] = field(default_factory=frozenset)


# --- helpers shared by the systems ---------------------------------------------------------------


def sum_chances(ask: Ask) -> Chances | None:
    """A sum against a target at or above which it succeeds (a cliché's target number, a
    lifegear defence); anything else as a roll outside a system."""
    if ask.target is None or success_pool(ask.expression) is not None:
        return PLAIN.chances(ask)
    dist = sum_distribution(ask.expression, ask.max_work)
    return None if dist is None else at_least(dist, ask.target - ask.bonus)


def chances_of(rules: RollRules, ask: Ask) -> Chances | None:
    """``rules.chances(ask)`` as a module-level function: the form the bot's worker process
    runs (``bot.cpu``), the rules object travelling with the job."""
    return rules.chances(ask)


def success_pool(expression: str) -> Dice | None:
    """The dice term of a success-counting pool (``7d10>=6f1``, ``5d10>=7!``), else None."""
    try:
        root = parse(expression, stored=True).root
    except EngineError:
        return None
    if isinstance(root, Dice) and root.success is not None:
        return root
    return None


def pool_threshold(dice: Dice) -> int | None:
    """The face a d10 pool succeeds on (``>=6`` → 6, ``>5`` → 6); None for other pools."""
    success = dice.success
    if success is None or dice.sides != 10 or success.condition.cmp not in (Cmp.GE, Cmp.GT):
        return None
    return success.condition.number + (1 if success.condition.cmp is Cmp.GT else 0)


def sum_distribution(expression: str, max_work: int | None = None) -> Distribution | None:
    """The exact distribution of a sum of dice and numbers; None when it has none (or it
    would take more than ``max_work``)."""
    try:
        return distribution(expression, max_work=max_work or MAX_WORK)
    except EngineError:
        return None


def at_least(dist: Distribution, target: int) -> Chances:
    """Success = total ≥ target (a cliché target number, a lifegear defence, a plain roll)."""
    p = dist.p_at_least(target)
    return Chances(
        (Chance(msg("outcome.success"), p, success=True), Chance(msg("outcome.failure"), 1 - p))
    )


def is_chance_die(expression: str) -> bool:
    """``chance``: the dice core's chance die (1d10, only a 10 succeeds, 10 again)."""
    try:
        return isinstance(parse(expression, stored=True).root, ChanceDie)
    except EngineError:
        return False


def _at_least_successes(dice: int) -> Chances:
    m = matter_pool(dice)
    return Chances(
        (
            Chance(msg("outcome.at_least", n=1), m.at_least_1, success=True),
            Chance(msg("outcome.at_least", n=2), m.at_least_2, within=True),
            Chance(msg("outcome.at_least", n=3), m.at_least_3, within=True),
            Chance(msg("outcome.failure"), 1 - m.at_least_1),
        )
    )


class PlainRules:
    """Rolls outside a system: a sum succeeds at total ≥ target. A success pool reads by the
    dice core's own flags: ``f1`` pools botch when the 1s outnumber the successes, a one-die
    pool showing 1 (or the chance die) is a critical failure; success is one net success."""

    def chances(self, ask: Ask) -> Chances | None:
        if is_chance_die(ask.expression):
            return _at_least_successes(0)
        pool = success_pool(ask.expression)
        if pool is not None:
            return self._pool(pool)
        if ask.target is None:
            return None
        dist = sum_distribution(ask.expression, ask.max_work)
        return None if dist is None else at_least(dist, ask.target - ask.bonus)

    def _pool(self, pool: Dice) -> Chances | None:
        threshold = pool_threshold(pool)
        assert pool.success is not None
        if threshold is None:
            return None
        try:
            if pool.success.cancel is not None and pool.explode is None:
                st = storyteller_pool(pool.count, threshold)
                return Chances(
                    (
                        Chance(msg("outcome.success"), st.success, success=True),
                        Chance(msg("outcome.failure"), st.failure),
                        Chance(msg("outcome.botch"), st.botch),
                    )
                )
            if threshold == 7 and pool.explode is not None and pool.success.cancel is None:
                return _at_least_successes(pool.count)
        except EngineError:
            return None
        return None

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        if ask.target is None or result.counts_successes:
            return None
        total = result.total + ask.bonus
        success = total >= ask.target
        words = msg(
            "outcome.plain.success" if success else "outcome.plain.failure",
            total=total,
            target=ask.target,
        )
        return Reading("success" if success else "failure", success, words)

    def takes_willpower(self, expression: str) -> bool:
        return False


PLAIN: Final = PlainRules()
