"""Cliché rolls: pools, checks against target numbers, quick contests, round damage.

A cliché roll is ``Nd6`` summed; every outcome keeps its ``notation`` and the raw ``faces`` in
the order drawn, for the roll log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from engine.dice.source import RandomSource, roll_dice
from engine.errors import RuleViolation
from engine.systems.cliche.sheet import Character, effective_dice, lose_dice
from engine.text import Msg, msg

#: The GM's free dice for everyone when a participant has no suitable cliché (seed: «две
#: свободных кости»).
FREE_DICE = 2


class TargetNumber(IntEnum):
    """The seed's target-number scale («Целевое число следует такой шкале»)."""

    TRIVIAL = 5
    PROFESSIONAL = 10
    HEROIC = 15
    MASTER = 20
    JOKING = 30

    @property
    def label(self) -> Msg:
        """The scale's name for this step, e.g. «Героический вызов»."""
        return msg(f"cliche.target.{self.name.lower()}")


def target_label(target: int) -> Msg | None:
    """The scale's name of ``target`` when it is one of 5/10/15/20/30, else ``None``."""
    try:
        return TargetNumber(target).label
    except ValueError:
        return None


@dataclass(frozen=True)
class PoolSpec:
    """What one participant rolls.

    ``cliche_dice`` is the cliché's effective dice (0 when a quick-contest participant has no
    cliché at all and rolls only the GM's free dice). ``penalty`` is the −N of an inappropriate
    cliché, ``pump`` the pumped dice, ``bonus`` the situational bonus dice, ``free`` the GM's
    free dice, ``double`` the team leader's doubled roll.

    DECISION (seed silent): the double roll doubles the cliché part (cliché − penalty + pump);
    bonus and free dice stand for circumstances, not for the avenger's fury, and are added once.
    """

    cliche_dice: int
    penalty: int = 0
    pump: int = 0
    bonus: int = 0
    free: int = 0
    double: bool = False

    def __post_init__(self) -> None:
        for name in ("cliche_dice", "penalty", "pump", "bonus", "free"):
            value = getattr(self, name)
            if value < 0:
                raise RuleViolation(msg("cliche.roll.negative", what=name, value=value))

    @property
    def size(self) -> int:
        """Dice in the pool."""
        own = max(0, self.cliche_dice - self.penalty) + self.pump
        if self.double:
            own *= 2
        return own + self.bonus + self.free


@dataclass(frozen=True)
class ClicheRoll:
    """One roll of ``Nd6``: its notation, raw faces and sum."""

    notation: str
    faces: tuple[int, ...]
    total: int


def roll_pool(source: RandomSource, dice: int) -> ClicheRoll:
    """Roll ``dice`` d6 and sum them; ``RuleViolation`` for an empty pool."""
    if dice < 1:
        raise RuleViolation(msg("cliche.roll.no_dice"))
    faces = roll_dice(source, dice, 6)
    return ClicheRoll(notation=f"{dice}d6", faces=faces, total=sum(faces))


@dataclass(frozen=True)
class CheckOutcome:
    """An unopposed roll against a target number; ``pump_lost`` dice were paid for pumping."""

    cliche: str
    notation: str
    faces: tuple[int, ...]
    total: int
    target: int
    success: bool
    pump_lost: int


def roll_check(
    character: Character,
    cliche_name: str,
    target: int,
    source: RandomSource,
    *,
    bonus: int = 0,
    pump: int = 0,
) -> tuple[Character, CheckOutcome]:
    """Roll a cliché against a target number: sum ≥ target succeeds.

    Pumping adds ``pump`` dice to this one roll and then costs that many dice of the cliché as
    ordinary damage («теряет число костей, равное накачке»). The GM's free dice never apply
    here (seed: only for contests, «а не при попытках преодолеть некую фиксированную планку»).
    """
    cliche = character.cliche(cliche_name)
    if cliche.armor:
        raise RuleViolation(msg("cliche.roll.armor_cannot_roll", name=cliche.name))
    dice = effective_dice(cliche)
    if dice < 1:
        raise RuleViolation(msg("cliche.roll.cliche_unusable", name=cliche.name))
    roll = roll_pool(source, PoolSpec(dice, pump=pump, bonus=bonus).size)
    paid, lost = lose_dice(cliche, pump)
    outcome = CheckOutcome(
        cliche=cliche.name,
        notation=roll.notation,
        faces=roll.faces,
        total=roll.total,
        target=target,
        success=roll.total >= target,
        pump_lost=lost,
    )
    return character.replace_cliche(paid), outcome


@dataclass(frozen=True)
class QuickContestOutcome:
    """A non-fight conflict: one roll each, the highest total wins, nobody loses dice.

    ``winner`` is the index of the winning pool, ``None`` on a tie for the best total (DECISION
    as for fights: the tied leaders roll again).
    """

    rolls: tuple[ClicheRoll, ...]
    winner: int | None
    notation: str
    faces: tuple[int, ...]


def quick_contest(pools: Sequence[PoolSpec], source: RandomSource) -> QuickContestOutcome:
    """Roll each pool once, in order; the single highest total wins (a pistol duel, a chili
    cook-off). Pumping costs are the caller's to apply (see ``pay_pump``)."""
    rolls = tuple(roll_pool(source, pool.size) for pool in pools)
    best = max(r.total for r in rolls)
    leaders = [i for i, r in enumerate(rolls) if r.total == best]
    return QuickContestOutcome(
        rolls=rolls,
        winner=leaders[0] if len(leaders) == 1 else None,
        notation=" vs ".join(r.notation for r in rolls),
        faces=tuple(face for r in rolls for face in r.faces),
    )


def pay_pump(character: Character, cliche_name: str, pump: int) -> tuple[Character, int]:
    """After a pumped roll or round, the cliché loses ``pump`` dice (capped at what is left)."""
    paid, lost = lose_dice(character.cliche(cliche_name), pump)
    return character.replace_cliche(paid), lost


class RoundWinner(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    TIE = "tie"


class LossKind(StrEnum):
    """Why the loser of a round loses the dice it does."""

    NONE = "none"  # a tie: nobody loses, roll again
    ONE = "one"  # the ordinary loss of one die
    GRADED = "graded"  # physical attack ≥ 2 × defence: 1d6 dice
    INAPPROPRIATE = "inappropriate"  # beaten by an inappropriate cliché: 3 dice
    INAPPROPRIATE_GRADED = "inappropriate_graded"  # both: max(3, 1d6)


@dataclass(frozen=True)
class RoundDamage:
    """Who lost a round and how many cliché dice it costs them (before shielding/armor).

    ``notation``/``faces`` record the 1d6 of a graded hit (empty when no die was rolled).
    """

    winner: RoundWinner
    dice: int
    kind: LossKind
    notation: str
    faces: tuple[int, ...]


def round_damage(
    attack: int,
    defence: int,
    source: RandomSource,
    *,
    graded: bool = False,
    attacker_appropriate: bool = True,
    defender_appropriate: bool = True,
) -> RoundDamage:
    """Decide a fight round from the two totals.

    * Equal totals: nobody loses, roll again (SPEC DECISION).
    * The lower total loses 1 die. With ``graded`` (physical attacks: shooting, stones, fists)
      an attack ≥ 2 × defence costs the defender 1d6 dice instead.
    * An inappropriate cliché beating an appropriate one costs the loser 3 dice; combined with
      a graded 1d6 the loss is the larger of 3 and the roll (SPEC DECISION).
    * When the defence wins a graded round, the attacker loses 1 die (SPEC DECISION).
    """
    if attack == defence:
        return RoundDamage(RoundWinner.TIE, 0, LossKind.NONE, "", ())
    attacker_won = attack > defence
    winner = RoundWinner.ATTACKER if attacker_won else RoundWinner.DEFENDER
    winner_odd = not (attacker_appropriate if attacker_won else defender_appropriate)
    loser_fit = defender_appropriate if attacker_won else attacker_appropriate
    big = winner_odd and loser_fit
    if attacker_won and graded and attack >= 2 * defence:
        face = roll_dice(source, 1, 6)
        if big:
            return RoundDamage(winner, max(3, face[0]), LossKind.INAPPROPRIATE_GRADED, "1d6", face)
        return RoundDamage(winner, face[0], LossKind.GRADED, "1d6", face)
    if big:
        return RoundDamage(winner, 3, LossKind.INAPPROPRIATE, "", ())
    return RoundDamage(winner, 1, LossKind.ONE, "", ())


@dataclass(frozen=True)
class OpposedOutcome:
    """One stand-alone fight round: both rolls (attacker first) and what the loser loses.

    ``notation``/``faces`` cover both pools and, after them, a graded hit's 1d6.
    """

    attack: ClicheRoll
    defence: ClicheRoll
    damage: RoundDamage
    notation: str
    faces: tuple[int, ...]


def opposed_round(
    attacker: PoolSpec,
    defender: PoolSpec,
    source: RandomSource,
    *,
    graded: bool = False,
    attacker_appropriate: bool = True,
    defender_appropriate: bool = True,
) -> OpposedOutcome:
    """Roll both pools (attacker first) and decide the round with ``round_damage``; for the
    full bookkeeping of a fight (teams, armor, pumping costs, who is out) use the fight state
    machine."""
    attack = roll_pool(source, attacker.size)
    defence = roll_pool(source, defender.size)
    damage = round_damage(
        attack.total,
        defence.total,
        source,
        graded=graded,
        attacker_appropriate=attacker_appropriate,
        defender_appropriate=defender_appropriate,
    )
    notation = " vs ".join((attack.notation, defence.notation))
    if damage.notation:
        notation = f"{notation}; {damage.notation}"
    return OpposedOutcome(
        attack, defence, damage, notation, attack.faces + defence.faces + damage.faces
    )
