"""Results of a roll: frozen dataclasses with every die and what happened to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Bits of ``Die.flags`` (one int keeps building a die cheap; read them through the properties).
REROLLED: Final = 1
EXPLODED: Final = 2
EXTRA: Final = 4
DROPPED: Final = 8
SUCCESS: Final = 16
CANCEL: Final = 32
STOPPED: Final = 64  # still matched its endless reroll when the reroll limit stopped it


@dataclass(frozen=True, slots=True)
class Die:
    """One die as drawn. ``face`` is the raw face (a d6 face for Fate dice); ``value`` is what
    it is worth (−1/0/+1 for Fate dice, else the face).

    Flags (properties over the ``flags`` bits): ``rerolled`` — replaced by the next die of the
    group, not counted; ``dropped`` — removed by keep/drop; ``exploded`` — this die added an
    extra die; ``extra`` — this die is such an extra die; ``success`` — met the success
    target; ``cancel`` — cancels a success (``f1``). ``kept``: the die counts toward the result.
    """

    face: int
    value: int
    sides: int
    fate: bool = False
    flags: int = 0

    @property
    def rerolled(self) -> bool:
        return bool(self.flags & REROLLED)

    @property
    def exploded(self) -> bool:
        return bool(self.flags & EXPLODED)

    @property
    def extra(self) -> bool:
        return bool(self.flags & EXTRA)

    @property
    def dropped(self) -> bool:
        return bool(self.flags & DROPPED)

    @property
    def success(self) -> bool:
        return bool(self.flags & SUCCESS)

    @property
    def cancel(self) -> bool:
        return bool(self.flags & CANCEL)

    @property
    def reroll_stopped(self) -> bool:
        """Kept although it still matches its reroll condition: ``rr`` stopped at the limit
        (``evaluator.MAX_REROLLS``), and the answer says so."""
        return bool(self.flags & STOPPED)

    @property
    def kept(self) -> bool:
        return not self.flags & (REROLLED | DROPPED)

    @property
    def symbol(self) -> str:
        """How a Fate die shows: ``+``, ``0`` or ``-``; other dice show their face."""
        if not self.fate:
            return str(self.face)
        return "+" if self.value > 0 else "-" if self.value < 0 else "0"


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """One dice term of the expression (``7d10>=6f1``) with its dice and value.

    ``value`` is the sum of the kept dice, or for a success pool the net successes
    (``successes − cancels``; negative means more ones than successes).
    """

    notation: str
    dice: tuple[Die, ...]
    value: int
    counts_successes: bool = False
    successes: int = 0
    cancels: int = 0
    botches: int = 0  # Dice Maiden's b1: dice counted as botches, shown, not subtracted
    botch: bool = False
    critical_failure: bool = False


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of a roll request.

    ``total`` is the arithmetic result; when the expression counts successes it is the net
    number of successes. ``faces`` are the raw faces in the order drawn (what the roll log
    stores and the verifier recomputes). ``botch``: a ``f1`` pool rolled more cancelling dice
    than successes (seed 003). ``critical_failure``: a one-die success pool without ``f1`` or
    a chance die showed a 1 (seed 004).
    """

    expression: str
    label: str
    total: int
    groups: tuple[DiceGroup, ...]
    faces: tuple[int, ...]
    counts_successes: bool
    botch: bool
    critical_failure: bool
    # (tag, sum) of each tagged term, in order ("3d6[fire]+1d4[piercing]"); empty without tags.
    tags: tuple[tuple[str, int], ...] = ()
    # A comparison of totals ("1d20+5>10"): (left, cmp, right); ``total`` is then 1 or 0.
    comparison: tuple[int, str, int] | None = None

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(d for g in self.groups for d in g.dice)
