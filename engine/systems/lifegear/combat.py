"""Rolls and fights: stat rolls with a weapon and boosts, fast combat vs a defence level,
monster specials, PvP by opposed rolls, surprise and duels.

One round of fast combat is one roll: total ≥ the monster's defence → it is defeated (one hit
suffices); otherwise the shortfall is the damage the character takes. Between characters there
is no fixed defence: the defender makes a counter-roll. In a fast round the difference is the
damage to the lower roller; in a duel the higher roll deals exactly 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pydantic import Field

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.text import msg

from .dice import DiceExpr, parse_dice, roll_expr
from .errors import LifegearRuleViolation, UnknownItemError
from .gear import (
    check_surprised,
    find_item,
    find_stat,
    reject_dead,
    replace_item,
    require_ready,
    spend_on_use,
)
from .models import Character, Item, ItemKind, Monster, SpecialTiming, UseTiming

_BOOST_KINDS = (ItemKind.ABILITY, ItemKind.HELP, ItemKind.ITEM)


@dataclass(frozen=True)
class RollPlan:
    """What a character rolls: a stat, optionally a weapon, and boosts declared before the roll
    (abilities, Help, items with parameters — each adds its dice and is spent per its rule)."""

    stat: str
    weapon: str | None = None
    boosts: tuple[str, ...] = ()


@dataclass(frozen=True)
class RollOutcome:
    """A rolled stat: canonical ``notation`` (e.g. ``1d8+1d6+3``), raw ``faces`` in the order
    drawn, the summed ``constant`` and the ``total``; ``used`` lists every boost applied."""

    character: str
    stat: str
    weapon: str | None
    used: tuple[str, ...]
    notation: str
    faces: tuple[int, ...]
    constant: int
    total: int
    expr: DiceExpr  # the parsed expression, so later boosts extend it without re-parsing


def _weapon(character: Character, weapon_id: str, stat: str, surprised: bool) -> Item:
    weapon = find_item(character, weapon_id)
    if weapon.kind is not ItemKind.WEAPON:
        raise LifegearRuleViolation(msg("lifegear.item.not_a_weapon", item=weapon.name))
    require_ready(weapon)
    folded = {s.casefold() for s in weapon.stats}
    if folded and stat.casefold() not in folded:
        stats = ", ".join(weapon.stats)
        raise LifegearRuleViolation(
            msg("lifegear.weapon.wrong_stat", item=weapon.name, stats=stats, stat=stat)
        )
    if surprised:
        check_surprised(weapon)
    return weapon


def _boost(character: Character, item_id: str, timing: UseTiming, surprised: bool) -> Item:
    item = find_item(character, item_id)
    if item.kind not in _BOOST_KINDS:
        raise LifegearRuleViolation(msg("lifegear.item.not_a_boost", item=item.name))
    require_ready(item)
    if item.timing is not timing:
        raise LifegearRuleViolation(
            msg("lifegear.item.wrong_timing", item=item.name, timing=item.timing.value)
        )
    if surprised:
        check_surprised(item)
    return item


def _item_dice(item: Item) -> DiceExpr:
    return parse_dice(item.dice) if item.dice.strip() else DiceExpr()


def roll_expression(
    character: Character, plan: RollPlan, *, surprised: bool = False
) -> tuple[DiceExpr, tuple[Item, ...]]:
    """Check ``plan`` against the sheet and build the expression: stat, weapon dice, boosts."""
    stat = find_stat(character, plan.stat)
    expr = parse_dice(stat.dice)
    if plan.weapon is not None:
        expr = expr.plus(_item_dice(_weapon(character, plan.weapon, stat.name, surprised)))
    if len(set(plan.boosts)) != len(plan.boosts):
        dup = next(b for b in plan.boosts if plan.boosts.count(b) > 1)
        raise LifegearRuleViolation(msg("lifegear.item.used_twice", item=dup))
    boosts = tuple(_boost(character, b, UseTiming.BEFORE, surprised) for b in plan.boosts)
    for boost in boosts:
        expr = expr.plus(_item_dice(boost))
    return expr, boosts


def _spend(character: Character, items: Sequence[Item]) -> Character:
    for item in items:
        character = replace_item(character, spend_on_use(item))
    return character


def roll(
    character: Character, plan: RollPlan, source: RandomSource, *, surprised: bool = False
) -> tuple[Character, RollOutcome]:
    """Roll a stat (with a weapon and boosts); the boosts are spent per their use limits.

    ``surprised`` applies the first-round surprise restrictions (only Help and a weapon in hand).
    """
    reject_dead(character)
    expr, boosts = roll_expression(character, plan, surprised=surprised)
    rolled = roll_expr(expr, source)
    outcome = RollOutcome(
        character=character.name,
        stat=find_stat(character, plan.stat).name,
        weapon=plan.weapon,
        used=tuple(b.id for b in boosts),
        notation=rolled.notation,
        faces=rolled.faces,
        constant=rolled.constant,
        total=rolled.total,
        expr=expr,
    )
    return _spend(character, boosts), outcome


def boost_after(
    character: Character,
    outcome: RollOutcome,
    item_id: str,
    source: RandomSource,
    *,
    surprised: bool = False,
) -> tuple[Character, RollOutcome]:
    """Add an item used *after* the result (its rules say so) to a finished roll.

    Its dice are drawn now and appended; the notation stays canonical (``1d8+1d6+1d4+3``).
    """
    reject_dead(character)
    if item_id in outcome.used:
        raise LifegearRuleViolation(msg("lifegear.item.used_twice", item=item_id))
    item = _boost(character, item_id, UseTiming.AFTER, surprised)
    extra = _item_dice(item)
    rolled = roll_expr(extra, source)
    combined = outcome.expr.plus(extra)
    new = RollOutcome(
        character=outcome.character,
        stat=outcome.stat,
        weapon=outcome.weapon,
        used=(*outcome.used, item.id),
        notation=combined.render(),
        faces=outcome.faces + rolled.faces,
        constant=combined.constant,
        total=outcome.total + rolled.total,
        expr=combined,
    )
    return _spend(character, (item,)), new


@dataclass(frozen=True)
class CheckOutcome:
    """A check against a difficulty the GM names (e.g. to make a rope out of shirts)."""

    difficulty: int
    roll: RollOutcome
    notation: str
    faces: tuple[int, ...]
    total: int
    success: bool


def check(
    character: Character,
    plan: RollPlan,
    source: RandomSource,
    *,
    difficulty: int,
    surprised: bool = False,
) -> tuple[Character, CheckOutcome]:
    """Roll against a difficulty; reaching it succeeds, like an attack reaching a defence.

    The seed leaves such checks to the GM («Мастер скажет какие»); this is the natural reading
    of its one roll mechanic.
    """
    character, rolled = roll(character, plan, source, surprised=surprised)
    success = rolled.total >= difficulty
    outcome = CheckOutcome(
        difficulty, rolled, rolled.notation, rolled.faces, rolled.total, success
    )
    return character, outcome


# --- fast combat ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FastCombatOutcome:
    """One round of fast combat: ``defeated`` when total ≥ defence, else ``damage`` =
    defence − total for the character (to be absorbed with ``take_damage``)."""

    defence: int
    roll: RollOutcome
    notation: str
    faces: tuple[int, ...]
    total: int
    defeated: bool
    damage: int


def judge_fast(outcome: RollOutcome, defence: int) -> FastCombatOutcome:
    """Compare a roll with a defence level (also after an after-the-roll boost)."""
    if defence < 0:
        raise LifegearRuleViolation(msg("lifegear.defence.negative", defence=defence))
    defeated = outcome.total >= defence
    damage = 0 if defeated else defence - outcome.total
    return FastCombatOutcome(
        defence, outcome, outcome.notation, outcome.faces, outcome.total, defeated, damage
    )


def fast_attack(
    character: Character,
    plan: RollPlan,
    source: RandomSource,
    *,
    defence: int,
    surprised: bool = False,
) -> tuple[Character, FastCombatOutcome]:
    """Attack a monster of defence level ``defence`` in fast combat (one roll per round)."""
    if defence < 0:
        raise LifegearRuleViolation(msg("lifegear.defence.negative", defence=defence))
    character, rolled = roll(character, plan, source, surprised=surprised)
    return character, judge_fast(rolled, defence)


def special_damage(monster: Monster, timing: SpecialTiming) -> int:
    """Extra damage the monster's specials deal at ``timing`` (the GM applies it)."""
    return sum(special.damage for special in monster.specials if special.timing is timing)


def monster_ability(monster: Monster, ability_id: str) -> Item:
    """One of a defeated monster's abilities, marked as coming from it (so never traded)."""
    for ability in monster.abilities:
        if ability.id == ability_id:
            return ability.model_copy(
                update={"from_monster": monster.name, "kind": ItemKind.ABILITY}
            )
    raise UnknownItemError(msg("lifegear.item.unknown", item=ability_id))


# --- character against character --------------------------------------------------------------


class CombatMode(StrEnum):
    FAST = "fast"
    DUEL = "duel"


class PvpFight(SheetModel):
    """A fight between two characters, stored between the players' asynchronous rolls.

    A surprise attack's first round follows the attacker's choice (fast or duel) and those in
    ``surprised`` (the target and any surprised bystanders) are restricted in it; every other
    round, and any fight where both were ready, is a duel.
    """

    attacker: str = Field(min_length=1)
    defender: str = Field(min_length=1)
    surprise: bool = False
    first_round: CombatMode = CombatMode.DUEL
    surprised: tuple[str, ...] = ()
    # a duel may be agreed beforehand to be one-on-one («договориться о невмешательстве»)
    others_stay_out: bool = False
    round: int = Field(default=1, ge=1)
    last_winner: str = ""
    over: bool = False


def start_pvp(
    attacker: str,
    defender: str,
    *,
    surprise: bool = False,
    first_round: CombatMode = CombatMode.DUEL,
    surprised_bystanders: Sequence[str] = (),
    others_stay_out: bool = False,
) -> PvpFight:
    """Open a fight. Only a surprise attack may make the first round fast.

    DECISION: in round 1 of a surprise attack the surprised are restricted even when the
    attacker chose duel rules for it (the SPEC's surprise rule names no mode; the seed's «оба
    используют всё снаряжение» describes duels between characters who were ready).
    """
    if first_round is CombatMode.FAST and not surprise:
        raise LifegearRuleViolation(msg("lifegear.pvp.fast_needs_surprise"))
    surprised = (defender, *surprised_bystanders) if surprise else ()
    return PvpFight(
        attacker=attacker,
        defender=defender,
        surprise=surprise,
        first_round=first_round,
        surprised=surprised,
        others_stay_out=others_stay_out,
    )


def round_mode(fight: PvpFight) -> CombatMode:
    """Fast only in round 1 of a surprise attack whose attacker chose it; a duel otherwise."""
    return fight.first_round if fight.surprise and fight.round == 1 else CombatMode.DUEL


def is_surprised(fight: PvpFight, name: str) -> bool:
    """Surprise restrictions last for round 1 only: «во втором раунде герой уже опомнился»."""
    return fight.surprise and fight.round == 1 and name in fight.surprised


@dataclass(frozen=True)
class PvpOutcome:
    """A round of opposed rolls. ``loser`` takes ``damage`` (0 and no loser on a tie); in a
    duel the winner may still choose to stop instead (``stop_fight``)."""

    round: int
    mode: CombatMode
    attacker_roll: RollOutcome
    defender_roll: RollOutcome
    notation: str  # "<attacker> vs <defender>"
    faces: tuple[int, ...]  # attacker's faces, then defender's
    winner: str | None
    loser: str | None
    damage: int


def pvp_damage(mode: CombatMode, attack_total: int, defence_total: int) -> int:
    """Fast: the whole difference; duel: exactly 1. DECISION (seed silent): a tie deals none."""
    diff = abs(attack_total - defence_total)
    if diff == 0:
        return 0
    return diff if mode is CombatMode.FAST else 1


def judge_pvp(
    round_number: int, mode: CombatMode, attacker_roll: RollOutcome, defender_roll: RollOutcome
) -> PvpOutcome:
    """Compare an attack with its counter-roll: the lower roller takes the damage."""
    damage = pvp_damage(mode, attacker_roll.total, defender_roll.total)
    winner: str | None = None
    loser: str | None = None
    if damage:
        rolls = (attacker_roll, defender_roll)
        high, low = rolls if attacker_roll.total > defender_roll.total else rolls[::-1]
        winner, loser = high.character, low.character
    return PvpOutcome(
        round=round_number,
        mode=mode,
        attacker_roll=attacker_roll,
        defender_roll=defender_roll,
        notation=f"{attacker_roll.notation} vs {defender_roll.notation}",
        faces=attacker_roll.faces + defender_roll.faces,
        winner=winner,
        loser=loser,
        damage=damage,
    )


def pvp_round(
    fight: PvpFight,
    attacker: Character,
    defender: Character,
    attack: RollPlan,
    counter: RollPlan,
    source: RandomSource,
) -> tuple[PvpFight, Character, Character, PvpOutcome]:
    """Roll the attack and the counter-roll (in that order) and move to the next round."""
    _check_fight(fight, attacker, defender)
    attacker, a_roll = roll(attacker, attack, source, surprised=is_surprised(fight, attacker.name))
    defender, d_roll = roll(
        defender, counter, source, surprised=is_surprised(fight, defender.name)
    )
    outcome = judge_pvp(fight.round, round_mode(fight), a_roll, d_roll)
    fight = fight.model_copy(
        update={"round": fight.round + 1, "last_winner": outcome.winner or ""}
    )
    return fight, attacker, defender, outcome


def rejudge_pvp(
    fight: PvpFight,
    previous: PvpOutcome,
    *,
    attacker_roll: RollOutcome | None = None,
    defender_roll: RollOutcome | None = None,
) -> tuple[PvpFight, PvpOutcome]:
    """Judge the last round again after an after-the-result boost (see ``boost_after``)."""
    if fight.over:
        raise LifegearRuleViolation(msg("lifegear.duel.over"))
    outcome = judge_pvp(
        previous.round,
        previous.mode,
        attacker_roll or previous.attacker_roll,
        defender_roll or previous.defender_roll,
    )
    return fight.model_copy(update={"last_winner": outcome.winner or ""}), outcome


def _check_fight(fight: PvpFight, attacker: Character, defender: Character) -> None:
    if fight.over:
        raise LifegearRuleViolation(msg("lifegear.duel.over"))
    for name, expected in ((attacker.name, fight.attacker), (defender.name, fight.defender)):
        if name != expected:
            raise LifegearRuleViolation(msg("lifegear.duel.not_participant", name=name))


def stop_fight(fight: PvpFight, *, by: str) -> PvpFight:
    """The last round's winner stops the fight (sparing the loser that round's damage).

    «так как они контролируют наносимый урон, они могут остановиться раньше, чем убьют».
    """
    if fight.over:
        raise LifegearRuleViolation(msg("lifegear.duel.over"))
    if not fight.last_winner or by != fight.last_winner:
        raise LifegearRuleViolation(msg("lifegear.duel.not_winner"))
    return fight.model_copy(update={"over": True})
