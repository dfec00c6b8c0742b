"""An asynchronous fight (поединок) as stored state plus pure step functions.

Flow: ``start_fight`` → (``form_team``)* → per round ``open_round(attacker, defender)`` →
every roller ``declare``s a cliché and then ``roll_for``s (in any order, at any time) → the last
roll resolves the round (a tie clears the rolls: roll again) → when a team lost, the GM calls
``assign_damage`` → next round … until one side is left standing (``finished``). Afterwards
``apply_to_character`` copies the lost dice back to each sheet; ``recover`` returns them later.

A fighter is out as soon as any cliché it used in this fight reaches 0 dice («падение любого
из клише до нуля это проигрыш»). Armor clichés (a vest, a vehicle's hull) only absorb damage,
first; reaching 0 armor dice does not take anybody out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from pydantic import Field

from engine.common import Change, SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.systems.cliche.rolls import (
    LossKind,
    PoolSpec,
    RoundDamage,
    RoundWinner,
    roll_pool,
    round_damage,
)
from engine.systems.cliche.sheet import Character, Cliche, effective_dice, lose_dice
from engine.systems.cliche.teams import (
    DISBAND_LOSS,
    TeamCandidate,
    choose_leader,
    member_contribution,
    member_notation,
    shielded_loss,
)
from engine.text import msg

FIGHT_SCHEMA_VERSION: Final = 1


class FighterKind(StrEnum):
    CHARACTER = "character"
    NPC = "npc"
    VEHICLE = "vehicle"  # never rolls; its armor cliché absorbs its crew's damage first


class FightCliche(SheetModel):
    """A cliché as it stands in this fight; ``used`` once it has been rolled."""

    cliche: Cliche
    appropriate: bool = True
    used: bool = False


class VehicleWeapon(SheetModel):
    """A vehicle's weapon system and the bonus dice its gunner adds («оружейные Бонусные Кости
    за каждую боевую систему»)."""

    name: str
    bonus_dice: int = Field(ge=0)


class Fighter(SheetModel):
    """One participant. ``avenger``: its team's leader fell shielding someone, so the next team
    it forms gets the leader's double roll («новый лидер получает свой двойной бросок»).
    ``weapons``: a vehicle's weapon systems."""

    key: str
    name: str
    side: str
    kind: FighterKind = FighterKind.CHARACTER
    cliches: tuple[FightCliche, ...]
    weapons: tuple[VehicleWeapon, ...] = ()
    out: bool = False
    avenger: bool = False

    def get(self, name: str) -> FightCliche:
        for item in self.cliches:
            if item.cliche.name == name:
                return item
        raise RuleViolation(msg("cliche.roll.unknown_cliche", who=self.name, name=name))


class TeamMember(SheetModel):
    """A member and the cliché it fights with while in the team (a vehicle: its hull)."""

    fighter: str
    cliche: str


class Team(SheetModel):
    """A team acts as one unit; ``double_next``: the leader rolls double on the next attack."""

    key: str
    side: str
    leader: str
    members: tuple[TeamMember, ...]
    double_next: bool = False

    def member(self, key: str) -> TeamMember:
        for item in self.members:
            if item.fighter == key:
                return item
        raise RuleViolation(msg("cliche.fight.not_team_member", unit=key, team=self.key))


class Declaration(SheetModel):
    """What a roller will roll this round."""

    fighter: str
    cliche: str
    pump: int = Field(default=0, ge=0)
    bonus: int = Field(default=0, ge=0)
    penalty: int = Field(default=0, ge=0)
    double: bool = False
    appropriate: bool = True


class RollRecord(SheetModel):
    """A roll made this round; ``counted`` is what it adds to its unit's total."""

    fighter: str
    notation: str
    faces: tuple[int, ...]
    counted: int


class Exchange(SheetModel):
    """The open round: attacker and defender units (a fighter key or a team key)."""

    attacker: str
    defender: str
    graded: bool = False
    double_for: str | None = None  # the team leader who rolls double dice this round
    declarations: tuple[Declaration, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    rerolls: int = 0


class LossReason(StrEnum):
    ROUND = "round"
    PUMP = "pump"
    SHIELD = "shield"
    DISBAND = "disband"
    LEADER_LOST = "leader_lost"
    LEFT_TEAM = "left_team"


class LossRecord(SheetModel):
    """Who lost how many dice of which cliché, when and why (armor losses included)."""

    round: int
    fighter: str
    cliche: str
    dice: int
    reason: LossReason


class PumpCost(SheetModel):
    """Dice a pumped cliché still owes («теряет число костей, равное накачке»)."""

    fighter: str
    cliche: str
    dice: int


class PendingDamage(SheetModel):
    """A team lost a round: the GM picks the member who takes ``dice``; ``suggested`` is the
    default (a vehicle's hull or another armor absorbs first). The team's own pump costs are
    paid after the damage (``pumps``), so the team still stands while the GM chooses."""

    team: str
    dice: int
    kind: LossKind
    suggested: str | None = None
    pumps: tuple[PumpCost, ...] = ()


class FightState(SheetModel):
    """The whole stored fight."""

    schema_version: int = FIGHT_SCHEMA_VERSION
    round: int = 0
    free_dice: int = Field(default=0, ge=0)
    fighters: tuple[Fighter, ...]
    teams: tuple[Team, ...] = ()
    exchange: Exchange | None = None
    pending: PendingDamage | None = None
    losses: tuple[LossRecord, ...] = ()
    finished: bool = False
    winner_side: str | None = None

    def fighter(self, key: str) -> Fighter:
        for item in self.fighters:
            if item.key == key:
                return item
        raise RuleViolation(msg("cliche.fight.unknown_fighter", unit=key))

    def team(self, key: str) -> Team | None:
        return next((t for t in self.teams if t.key == key), None)

    def team_of(self, fighter: str) -> Team | None:
        return next((t for t in self.teams if any(m.fighter == fighter for m in t.members)), None)


# ---------------------------------------------------------------------------------------------
# outcomes


@dataclass(frozen=True)
class TeamFormed:
    team: str
    leader: str
    double_next: bool


@dataclass(frozen=True)
class TeamBroken:
    """A team disbanded, lost its leader, or lost a member who left alone."""

    team: str
    losses: tuple[LossRecord, ...]
    dissolved: bool
    out: tuple[str, ...]


@dataclass(frozen=True)
class RoundResolution:
    """A decided (or tied) round."""

    attacker_total: int
    defender_total: int
    damage: RoundDamage
    losses: tuple[LossRecord, ...]
    out: tuple[str, ...]
    pending_team: str | None
    dissolved_teams: tuple[str, ...]
    finished: bool
    winner_side: str | None


@dataclass(frozen=True)
class RollOutcome:
    """One fighter's roll; ``resolution`` is set when it was the round's last roll."""

    fighter: str
    notation: str
    faces: tuple[int, ...]
    counted: int
    resolution: RoundResolution | None


@dataclass(frozen=True)
class DamageAssigned:
    target: str
    losses: tuple[LossRecord, ...]
    remaining: int
    out: tuple[str, ...]
    dissolved_teams: tuple[str, ...]
    finished: bool
    winner_side: str | None


# ---------------------------------------------------------------------------------------------
# setting up


def fighter_from_character(
    character: Character,
    *,
    key: str,
    side: str,
    appropriate: Collection[str],
    kind: FighterKind = FighterKind.CHARACTER,
) -> Fighter:
    """A fighter built from a sheet; ``appropriate`` names the clichés the GM allows in this
    fight («Мастер перед началом поединка определяет, какие типы клише приемлемы»). Dice
    already lost before the fight stay lost."""
    items = tuple(
        FightCliche(cliche=c, appropriate=c.armor or c.name in appropriate)
        for c in character.cliches
    )
    return Fighter(key=key, name=character.name, side=side, kind=kind, cliches=items)


def vehicle_fighter(
    *,
    key: str,
    name: str,
    side: str,
    armor_dice: int,
    weapons: Sequence[tuple[str, int]] = (),
    armor_name: str = "Броня",
) -> Fighter:
    """A vehicle (or a bunker): an armor cliché of ``armor_dice`` and its weapon systems
    (name, bonus dice). It joins its crew's team and never rolls; a gunner in that team fires a
    weapon with ``declare(..., weapon=name)``."""
    hull = Cliche(name=armor_name, dice=armor_dice, armor=True)
    return Fighter(
        key=key,
        name=name,
        side=side,
        kind=FighterKind.VEHICLE,
        cliches=(FightCliche(cliche=hull),),
        weapons=tuple(VehicleWeapon(name=n, bonus_dice=b) for n, b in weapons),
    )


def start_fight(fighters: Sequence[Fighter], *, free_dice: int = 0) -> FightState:
    """A new fight. ``free_dice`` is the GM's gift to every participant when someone has no
    suitable cliché (2 in the seed)."""
    keys = [f.key for f in fighters]
    for key in keys:
        if keys.count(key) > 1:
            raise RuleViolation(msg("cliche.fight.duplicate_key", unit=key))
    if len({f.side for f in fighters}) < 2:
        raise RuleViolation(msg("cliche.fight.too_few_sides"))
    return FightState(fighters=tuple(fighters), free_dice=free_dice)


def waiting_for(state: FightState) -> tuple[str, ...]:
    """Fighters who still have to declare or roll in the open round (for reminders)."""
    if state.exchange is None:
        return ()
    rolled = {r.fighter for r in state.exchange.rolls}
    return tuple(k for k in _rollers(state, state.exchange) if k not in rolled)


# ---------------------------------------------------------------------------------------------
# teams


def form_team(
    state: FightState,
    key: str,
    members: Sequence[tuple[str, str]],
    *,
    leader: str | None = None,
) -> tuple[FightState, TeamFormed]:
    """Form a team of ``(fighter, cliché)`` pairs on one side, between rounds.

    The leader is the member with the highest cliché (``leader`` breaks a tie). A vehicle joins
    with its armor cliché and never leads. If a member is an avenger (its last leader fell
    shielding), the new leader gets the double roll.
    """
    _require_between_rounds(state)
    if key in {f.key for f in state.fighters} | {t.key for t in state.teams}:
        raise RuleViolation(msg("cliche.fight.duplicate_key", unit=key))
    keys = [fighter for fighter, _ in members]
    for fighter in keys:
        if keys.count(fighter) > 1:
            raise RuleViolation(msg("cliche.fight.duplicate_key", unit=fighter))
    candidates = [_candidate(state, fighter, cliche) for fighter, cliche in members]
    sides = {state.fighter(fighter).side for fighter, _ in members}
    if len(sides) > 1:
        raise RuleViolation(msg("cliche.team.mixed_sides"))
    chosen = choose_leader(candidates, preferred=leader)
    avenger = any(state.fighter(f).avenger for f, _ in members)
    team = Team(
        key=key,
        side=sides.pop(),
        leader=chosen,
        members=tuple(TeamMember(fighter=f, cliche=c) for f, c in members),
        double_next=avenger,
    )
    fighters = tuple(
        f.model_copy(update={"avenger": False}) if any(f.key == m for m, _ in members) else f
        for f in state.fighters
    )
    new = state.model_copy(update={"teams": (*state.teams, team), "fighters": fighters})
    return new, TeamFormed(team=key, leader=chosen, double_next=avenger)


def _candidate(state: FightState, key: str, cliche: str) -> TeamCandidate:
    fighter = _active(state, key)
    if state.team_of(key) is not None:
        raise RuleViolation(msg("cliche.fight.in_team", unit=key, team=_team_key(state, key)))
    item = fighter.get(cliche)
    vehicle = fighter.kind is FighterKind.VEHICLE
    if not vehicle and item.cliche.armor:
        raise RuleViolation(msg("cliche.roll.armor_cannot_roll", name=cliche))
    if not vehicle and effective_dice(item.cliche) < 1:
        raise RuleViolation(msg("cliche.roll.cliche_unusable", name=cliche))
    return TeamCandidate(
        key=key,
        dice=effective_dice(item.cliche),
        appropriate=item.appropriate,
        can_lead=not vehicle,
    )


def disband_team(state: FightState, team_key: str) -> tuple[FightState, TeamBroken]:
    """Disband between rolls: every member's team cliché loses one die («одномоментно
    понижает их клише на одну кость»). DECISION: a vehicle's hull loses nothing."""
    _require_between_rounds(state)
    team = _get_team(state, team_key)
    return _break_team(state, team, LossReason.DISBAND, leaver=None)


def leave_team(state: FightState, team_key: str, fighter: str) -> tuple[FightState, TeamBroken]:
    """One member leaves alone: its cliché drops to 0 dice and it is out («моментально
    приводит их в состояние нуля костей»). If it was the leader, the rest lose one die each
    and are free; DECISION: a team left with one member dissolves with no further loss."""
    _require_between_rounds(state)
    team = _get_team(state, team_key)
    member = team.member(fighter)
    state, record = _take(state, fighter, member.cliche, 10**6, LossReason.LEFT_TEAM)
    state, out = _update_out(state)
    if fighter == team.leader:
        state, broken = _break_team(state, team, LossReason.LEADER_LOST, leaver=fighter)
        return state, TeamBroken(team.key, (record, *broken.losses), True, out + broken.out)
    state, dissolved = _drop_members(state, team, {fighter})
    state = _check_finished(state)
    return state, TeamBroken(team.key, (record,), dissolved, out)


def _break_team(
    state: FightState, team: Team, reason: LossReason, *, leaver: str | None
) -> tuple[FightState, TeamBroken]:
    losses: list[LossRecord] = []
    for member in team.members:
        fighter = state.fighter(member.fighter)
        if member.fighter == leaver or fighter.out or fighter.kind is FighterKind.VEHICLE:
            continue
        state, record = _take(state, member.fighter, member.cliche, DISBAND_LOSS, reason)
        losses.append(record)
    state = state.model_copy(update={"teams": tuple(t for t in state.teams if t.key != team.key)})
    state, out = _update_out(state)
    state = _check_finished(state)
    return state, TeamBroken(team.key, tuple(losses), True, out)


# ---------------------------------------------------------------------------------------------
# rounds


def open_round(
    state: FightState, attacker: str, defender: str, *, graded: bool = False
) -> FightState:
    """Open the next round: ``attacker`` attacks ``defender`` (fighter or team keys).

    ``graded`` marks a physical attack (shooting, stones, fists): a hit at ≥ 2 × defence costs
    1d6 dice. Team members are declared with their team clichés at once (appropriate ones
    without penalty); a team with ``double_next`` spends its double roll when it attacks.
    """
    _require_between_rounds(state)
    units = (_unit_side(state, attacker), _unit_side(state, defender))
    if units[0] == units[1]:
        raise RuleViolation(msg("cliche.fight.same_side", attacker=attacker, defender=defender))
    declarations: list[Declaration] = []
    teams = list(state.teams)
    double_for = None
    for unit in (attacker, defender):
        team = state.team(unit)
        if team is None:
            continue
        if team.double_next and unit == attacker:
            double_for = team.leader
            teams = [
                t.model_copy(update={"double_next": False}) if t is team else t for t in teams
            ]
        declarations += _team_declarations(state, team, double_for=double_for)
    exchange = Exchange(
        attacker=attacker,
        defender=defender,
        graded=graded,
        double_for=double_for,
        declarations=tuple(declarations),
    )
    return state.model_copy(
        update={"round": state.round + 1, "exchange": exchange, "teams": tuple(teams)}
    )


def _team_declarations(
    state: FightState, team: Team, *, double_for: str | None
) -> list[Declaration]:
    found = []
    for member in team.members:
        fighter = state.fighter(member.fighter)
        if fighter.kind is FighterKind.VEHICLE or fighter.out:
            continue
        if fighter.get(member.cliche).appropriate:
            found.append(
                Declaration(
                    fighter=member.fighter,
                    cliche=member.cliche,
                    double=member.fighter == double_for,
                )
            )
    return found


def declare(
    state: FightState,
    fighter: str,
    cliche: str,
    *,
    pump: int = 0,
    bonus: int = 0,
    gm_penalty: int | None = None,
    weapon: str | None = None,
) -> FightState:
    """Choose (or change, before rolling) the cliché a fighter rolls this round.

    ``pump`` adds dice for this round and costs as many dice afterwards; ``bonus`` is the
    situational bonus dice the GM grants (cover, height, a moving target). An inappropriate
    cliché needs the GM's approval, given as ``gm_penalty`` (the −N, possibly 0). Team members
    keep their team cliché. ``weapon`` fires a weapon system of a vehicle in the fighter's team
    and adds its bonus dice («плюс Бонусные Кости, непосредственно за само используемое
    оружие»). After a tie the declarations stand (a pump is paid once, when the
    round is decided), but may still be changed before rolling again.
    """
    exchange = _open_exchange(state)
    if fighter not in _rollers(state, exchange):
        raise RuleViolation(msg("cliche.fight.not_in_round", unit=fighter))
    if any(r.fighter == fighter for r in exchange.rolls):
        raise RuleViolation(msg("cliche.fight.already_rolled", unit=fighter))
    team = state.team_of(fighter)
    if team is not None and team.member(fighter).cliche != cliche:
        fixed = team.member(fighter).cliche
        raise RuleViolation(msg("cliche.fight.team_cliche_fixed", unit=fighter, name=fixed))
    item = state.fighter(fighter).get(cliche)
    if item.cliche.armor:
        raise RuleViolation(msg("cliche.roll.armor_cannot_roll", name=cliche))
    if not item.appropriate and gm_penalty is None:
        raise RuleViolation(msg("cliche.fight.needs_gm_approval", name=cliche))
    if item.appropriate and gm_penalty:
        raise ValueError("a penalty applies only to an inappropriate cliché")
    for what, value in (("pump", pump), ("bonus", bonus), ("gm_penalty", gm_penalty or 0)):
        if value < 0:
            raise RuleViolation(msg("cliche.roll.negative", what=what, value=value))
    if weapon is not None:
        bonus += _weapon_bonus(state, team, fighter, weapon)
    declaration = Declaration(
        fighter=fighter,
        cliche=cliche,
        pump=pump,
        bonus=bonus,
        penalty=gm_penalty or 0,
        double=exchange.double_for == fighter,
        appropriate=item.appropriate,
    )
    _pool(state, declaration)  # fail now, not at roll time, if the pool is empty
    kept = tuple(d for d in exchange.declarations if d.fighter != fighter)
    exchange = exchange.model_copy(update={"declarations": (*kept, declaration)})
    return state.model_copy(update={"exchange": exchange})


def declared_pool(state: FightState, fighter: str) -> PoolSpec:
    """The pool ``fighter`` will roll in the open round (what its roll button shows)."""
    exchange = _open_exchange(state)
    declaration = _declaration(exchange, fighter)
    if declaration is None:
        raise RuleViolation(msg("cliche.fight.not_declared", unit=fighter))
    return _pool(state, declaration)


def declaration_of(state: FightState, fighter: str) -> Declaration | None:
    """What ``fighter`` declared in the open round, if anything."""
    return None if state.exchange is None else _declaration(state.exchange, fighter)


def _weapon_bonus(state: FightState, team: Team | None, fighter: str, weapon: str) -> int:
    for member in team.members if team is not None else ():
        for system in state.fighter(member.fighter).weapons:
            if system.name == weapon:
                return system.bonus_dice
    raise RuleViolation(msg("cliche.fight.no_weapon", unit=fighter, weapon=weapon))


def roll_for(
    state: FightState, fighter: str, source: RandomSource
) -> tuple[FightState, RollOutcome]:
    """Roll a fighter's declared pool; the round's last roll resolves it.

    A graded hit's 1d6 is drawn from the same ``source`` right after the last pool; it is in
    ``resolution.damage`` (``notation`` "1d6" and its ``faces``).
    """
    exchange = _open_exchange(state)
    if fighter not in _rollers(state, exchange):
        raise RuleViolation(msg("cliche.fight.not_in_round", unit=fighter))
    if any(r.fighter == fighter for r in exchange.rolls):
        raise RuleViolation(msg("cliche.fight.already_rolled", unit=fighter))
    declaration = _declaration(exchange, fighter)
    if declaration is None:
        raise RuleViolation(msg("cliche.fight.not_declared", unit=fighter))
    dice = _pool(state, declaration).size
    result = roll_pool(source, dice)
    record = _record(state, fighter, result.faces, dice)
    exchange = exchange.model_copy(update={"rolls": (*exchange.rolls, record)})
    state = _mark_used(state, fighter, declaration.cliche)
    state = state.model_copy(update={"exchange": exchange})
    resolution = None
    if not waiting_for(state):
        state, resolution = _resolve(state, exchange, source)
    outcome = RollOutcome(fighter, record.notation, record.faces, record.counted, resolution)
    return state, outcome


def _record(state: FightState, fighter: str, faces: tuple[int, ...], dice: int) -> RollRecord:
    team = state.team_of(fighter)
    if team is None or team.leader == fighter:
        return RollRecord(fighter=fighter, notation=f"{dice}d6", faces=faces, counted=sum(faces))
    notation = member_notation(dice)
    return RollRecord(
        fighter=fighter, notation=notation, faces=faces, counted=member_contribution(faces)
    )


def _resolve(
    state: FightState, exchange: Exchange, source: RandomSource
) -> tuple[FightState, RoundResolution]:
    attack = _unit_total(exchange, state, exchange.attacker)
    defence = _unit_total(exchange, state, exchange.defender)
    damage = round_damage(
        attack,
        defence,
        source,
        graded=exchange.graded,
        attacker_appropriate=_unit_appropriate(state, exchange, exchange.attacker),
        defender_appropriate=_unit_appropriate(state, exchange, exchange.defender),
    )
    if damage.winner is RoundWinner.TIE:
        # Nobody loses; the same declarations (pumps included) roll again.
        tied = exchange.model_copy(update={"rolls": (), "rerolls": exchange.rerolls + 1})
        state = state.model_copy(update={"exchange": tied})
        return state, RoundResolution(attack, defence, damage, (), (), None, (), False, None)
    state, losses, pending_team = _apply_round(state, exchange, damage)
    state, out, dissolved = _after_losses(state)
    resolution = RoundResolution(
        attack,
        defence,
        damage,
        tuple(losses),
        out,
        pending_team,
        dissolved,
        state.finished,
        state.winner_side,
    )
    return state, resolution


def _apply_round(
    state: FightState, exchange: Exchange, damage: RoundDamage
) -> tuple[FightState, list[LossRecord], str | None]:
    """Pay the pumps and the loser's damage; a losing team waits for the GM's choice (and pays
    its own pumps after it). Returns the key of a team whose damage is pending."""
    loser = exchange.defender if damage.winner is RoundWinner.ATTACKER else exchange.attacker
    team = state.team(loser)
    deferred = set(_unit_rollers(state, loser)) if team is not None else set()
    pumps = [
        PumpCost(fighter=d.fighter, cliche=d.cliche, dice=d.pump)
        for d in exchange.declarations
        if d.pump
    ]
    state, losses = _pay_pumps(state, [p for p in pumps if p.fighter not in deferred])
    state = state.model_copy(update={"exchange": None})
    pending_team = None
    if team is None:
        cliche = _declaration_cliche(exchange, loser)
        state, taken = _absorb(state, loser, cliche, damage.dice, LossReason.ROUND)
        losses += taken
    else:
        pending = PendingDamage(
            team=team.key,
            dice=damage.dice,
            kind=damage.kind,
            suggested=_suggest(state, team),
            pumps=tuple(p for p in pumps if p.fighter in deferred),
        )
        state = state.model_copy(update={"pending": pending})
        pending_team = team.key
    return state, losses, pending_team


def _pay_pumps(
    state: FightState, pumps: Iterable[PumpCost]
) -> tuple[FightState, list[LossRecord]]:
    """Pumping is paid as ordinary damage to the pumped cliché itself (armor does not help:
    DECISION, the strain is the fighter's own)."""
    records: list[LossRecord] = []
    for pump in pumps:
        state, record = _take(state, pump.fighter, pump.cliche, pump.dice, LossReason.PUMP)
        records.append(record)
    return state, records


def _settle(
    state: FightState, pending: PendingDamage, rest: PendingDamage | None
) -> tuple[FightState, list[LossRecord]]:
    """Store what is still pending; once nothing is, the losing team pays its pumps."""
    state = state.model_copy(update={"pending": rest})
    if rest is not None:
        return state, []
    return _pay_pumps(state, pending.pumps)


def assign_damage(
    state: FightState, target: str, *, shield_by: str | None = None
) -> tuple[FightState, DamageAssigned]:
    """The GM gives the losing team's damage to ``target``.

    With ``shield_by`` another member shields the target and takes double («в двойном
    объеме»); the team's leader then rolls double on its next attack. A vehicle's hull (or the
    member's own armor) absorbs first; what a vehicle hull cannot take stays pending for the GM
    to assign to a crew member («когда они иссякнут … повреждения получает уже сам персонаж»).
    """
    pending = state.pending
    if pending is None:
        raise RuleViolation(msg("cliche.fight.no_damage_pending"))
    team = _get_team(state, pending.team)
    member = team.member(target)
    if shield_by is not None:
        return _shield(state, team, pending, target, shield_by)
    fighter = state.fighter(target)
    if fighter.kind is FighterKind.VEHICLE:
        return _hit_vehicle(state, pending, fighter, member.cliche)
    state, losses = _absorb(state, target, member.cliche, pending.dice, LossReason.ROUND)
    state, paid = _settle(state, pending, None)
    return _assigned(state, target, losses + paid, 0)


def _shield(
    state: FightState, team: Team, pending: PendingDamage, target: str, shield_by: str
) -> tuple[FightState, DamageAssigned]:
    if shield_by == target:
        raise RuleViolation(msg("cliche.fight.shield_self"))
    member = team.member(shield_by)
    if state.fighter(shield_by).kind is FighterKind.VEHICLE:
        # A hull already absorbs first by default; shielding is a person's sacrifice.
        raise RuleViolation(msg("cliche.fight.vehicle_cannot_shield", unit=shield_by))
    dice = shielded_loss(pending.dice)
    state, losses = _absorb(state, shield_by, member.cliche, dice, LossReason.SHIELD)
    teams = tuple(
        t.model_copy(update={"double_next": True}) if t.key == team.key else t for t in state.teams
    )
    state = state.model_copy(update={"teams": teams})
    state, paid = _settle(state, pending, None)
    losses += paid
    if shield_by == team.leader and _is_out_after(state, shield_by):
        # «Если старый лидер был устранен … пожертвовав собой»: the survivors avenge him.
        fighters = tuple(
            f.model_copy(update={"avenger": True})
            if any(m.fighter == f.key for m in team.members) and f.key != shield_by
            else f
            for f in state.fighters
        )
        state = state.model_copy(update={"fighters": fighters})
    return _assigned(state, shield_by, losses, 0)


def _hit_vehicle(
    state: FightState, pending: PendingDamage, vehicle: Fighter, cliche: str
) -> tuple[FightState, DamageAssigned]:
    if vehicle.get(cliche).cliche.current == 0:
        raise RuleViolation(msg("cliche.fight.no_armor_left", unit=vehicle.key))
    state, record = _take(state, vehicle.key, cliche, pending.dice, LossReason.ROUND)
    remaining = pending.dice - record.dice
    rest = None
    if remaining:
        team = _get_team(state, pending.team)
        rest = pending.model_copy(update={"dice": remaining, "suggested": _suggest(state, team)})
    state, paid = _settle(state, pending, rest)
    return _assigned(state, vehicle.key, [record, *paid], remaining)


def _assigned(
    state: FightState, target: str, losses: list[LossRecord], remaining: int
) -> tuple[FightState, DamageAssigned]:
    state, out, dissolved = _after_losses(state)
    outcome = DamageAssigned(
        target, tuple(losses), remaining, out, dissolved, state.finished, state.winner_side
    )
    return state, outcome


def cancel_round(state: FightState) -> FightState:
    """The GM withdraws the open round (a player who never answers, a change of plans): nobody
    loses anything and the round number is given back."""
    _open_exchange(state)
    return state.model_copy(update={"exchange": None, "round": state.round - 1})


def join_fight(state: FightState, fighter: Fighter) -> FightState:
    """A newcomer takes a side of a fight under way. The rollers of an open round are fixed
    when it opens, so the newcomer takes part from the next round. The seed leaves the fight's
    shape to the GM («Мастер определяет момент начала боя») and says nothing of latecomers;
    DECISION: the GM may add one at any time before the fight is over."""
    if state.finished:
        raise RuleViolation(msg("cliche.fight.finished"))
    if fighter.key in {f.key for f in state.fighters} | {t.key for t in state.teams}:
        raise RuleViolation(msg("cliche.fight.duplicate_key", unit=fighter.key))
    return state.model_copy(update={"fighters": (*state.fighters, fighter)})


def withdraw(state: FightState, key: str) -> FightState:
    """A fighter leaves the fight between rolls («в любой момент между бросками», as the seed
    lets a team disband) and loses nothing: the GM's roster change, not a defeat. A team member
    leaves its team first (``leave_team``: the seed's zero dice). If the fighter rolls in the
    open round and nobody has rolled yet, that round is withdrawn (``cancel_round``); once a
    roll is made the round must be finished first. A side left with nobody standing loses."""
    if state.finished:
        raise RuleViolation(msg("cliche.fight.finished"))
    fighter = state.fighter(key)
    team = state.team_of(key)
    if team is not None:
        raise RuleViolation(msg("cliche.fight.in_team", unit=fighter.name, team=team.key))
    exchange = state.exchange
    if exchange is not None and key in _rollers(state, exchange):
        if exchange.rolls:
            raise RuleViolation(msg("cliche.fight.round_open"))
        state = cancel_round(state)
    state = state.model_copy(update={"fighters": tuple(f for f in state.fighters if f.key != key)})
    return _check_finished(state)


def end_fight(state: FightState, *, winner_side: str | None = None) -> FightState:
    """The GM ends the fight (a side fled or surrendered)."""
    return state.model_copy(
        update={"finished": True, "winner_side": winner_side, "exchange": None, "pending": None}
    )


def apply_to_character(character: Character, fighter: Fighter) -> tuple[Character, list[Change]]:
    """Copy the dice a fighter lost in the fight back to its sheet (recovered later)."""
    changes: list[Change] = []
    for item in fighter.cliches:
        name = item.cliche.name
        before = character.cliche(name).lost
        if before != item.cliche.lost:
            what = msg("cliche.change.cliche_lost", name=name)
            changes.append(Change(f"cliches.{name}.lost", what, before, item.cliche.lost))
            updated = character.cliche(name).model_copy(update={"lost": item.cliche.lost})
            character = character.replace_cliche(updated)
    return character, changes


# ---------------------------------------------------------------------------------------------
# helpers


def _require_between_rounds(state: FightState) -> None:
    if state.finished:
        raise RuleViolation(msg("cliche.fight.finished"))
    if state.exchange is not None:
        raise RuleViolation(msg("cliche.fight.round_open"))
    if state.pending is not None:
        raise RuleViolation(msg("cliche.fight.damage_pending", team=state.pending.team))


def _open_exchange(state: FightState) -> Exchange:
    if state.finished:
        raise RuleViolation(msg("cliche.fight.finished"))
    if state.exchange is None:
        raise RuleViolation(msg("cliche.fight.no_round"))
    return state.exchange


def _get_team(state: FightState, key: str) -> Team:
    team = state.team(key)
    if team is None:
        raise RuleViolation(msg("cliche.fight.unknown_unit", unit=key))
    return team


def _team_key(state: FightState, fighter: str) -> str:
    team = state.team_of(fighter)
    return "" if team is None else team.key


def _active(state: FightState, key: str) -> Fighter:
    fighter = state.fighter(key)
    if fighter.out:
        raise RuleViolation(msg("cliche.fight.fighter_out", unit=key))
    return fighter


def _unit_side(state: FightState, unit: str) -> str:
    team = state.team(unit)
    if team is not None:
        return team.side
    if unit not in {f.key for f in state.fighters}:
        raise RuleViolation(msg("cliche.fight.unknown_unit", unit=unit))
    fighter = _active(state, unit)
    if state.team_of(unit) is not None:
        raise RuleViolation(msg("cliche.fight.in_team", unit=unit, team=_team_key(state, unit)))
    if fighter.kind is FighterKind.VEHICLE:
        raise RuleViolation(msg("cliche.fight.vehicle_cannot_roll", unit=unit))
    return fighter.side


def _unit_rollers(state: FightState, unit: str) -> list[str]:
    team = state.team(unit)
    if team is None:
        return [unit]
    return [
        m.fighter
        for m in team.members
        if state.fighter(m.fighter).kind is not FighterKind.VEHICLE
        and not state.fighter(m.fighter).out
    ]


def _rollers(state: FightState, exchange: Exchange) -> list[str]:
    return _unit_rollers(state, exchange.attacker) + _unit_rollers(state, exchange.defender)


def _declaration(exchange: Exchange, fighter: str) -> Declaration | None:
    return next((d for d in exchange.declarations if d.fighter == fighter), None)


def _declaration_cliche(exchange: Exchange, fighter: str) -> str:
    declaration = _declaration(exchange, fighter)
    assert declaration is not None  # every roller declared before the round resolved
    return declaration.cliche


def _pool(state: FightState, declaration: Declaration) -> PoolSpec:
    item = state.fighter(declaration.fighter).get(declaration.cliche)
    dice = effective_dice(item.cliche)
    if dice < 1:
        raise RuleViolation(msg("cliche.roll.cliche_unusable", name=declaration.cliche))
    pool = PoolSpec(
        cliche_dice=dice,
        penalty=declaration.penalty,
        pump=declaration.pump,
        bonus=declaration.bonus,
        free=state.free_dice,
        double=declaration.double,
    )
    if pool.size < 1:
        raise RuleViolation(msg("cliche.roll.no_dice"))
    return pool


def _unit_total(exchange: Exchange, state: FightState, unit: str) -> int:
    rollers = set(_unit_rollers(state, unit))
    return sum(r.counted for r in exchange.rolls if r.fighter in rollers)


def _unit_appropriate(state: FightState, exchange: Exchange, unit: str) -> bool:
    """A unit fights inappropriately when its (leader's) cliché is inappropriate."""
    team = state.team(unit)
    key = unit if team is None else team.leader
    declaration = _declaration(exchange, key)
    return declaration is None or declaration.appropriate


def _mark_used(state: FightState, fighter: str, cliche: str) -> FightState:
    return _replace_cliche(
        state, fighter, cliche, lambda item: item.model_copy(update={"used": True})
    )


def _replace_cliche(
    state: FightState, fighter: str, cliche: str, change: Callable[[FightCliche], FightCliche]
) -> FightState:
    current = state.fighter(fighter)
    items = tuple(change(c) if c.cliche.name == cliche else c for c in current.cliches)
    updated = current.model_copy(update={"cliches": items})
    fighters = tuple(updated if f.key == fighter else f for f in state.fighters)
    return state.model_copy(update={"fighters": fighters})


def _take(
    state: FightState, fighter: str, cliche: str, dice: int, reason: LossReason
) -> tuple[FightState, LossRecord]:
    """Remove up to ``dice`` from one cliché (never below 0) and log it."""
    item = state.fighter(fighter).get(cliche)
    reduced, taken = lose_dice(item.cliche, dice)
    # A cliché that loses dice is one the fighter fights with (a team cliché, a pumped one),
    # so it counts as used: at 0 it takes the fighter out.
    used = item.used or not reduced.armor
    state = _replace_cliche(
        state, fighter, cliche, lambda c: c.model_copy(update={"cliche": reduced, "used": used})
    )
    record = LossRecord(
        round=state.round, fighter=fighter, cliche=cliche, dice=taken, reason=reason
    )
    return state.model_copy(update={"losses": (*state.losses, record)}), record


def _absorb(
    state: FightState, fighter: str, cliche: str, dice: int, reason: LossReason
) -> tuple[FightState, list[LossRecord]]:
    """Damage to a fighter: its armor clichés absorb first, in sheet order, then the cliché.

    DECISION: what one hit leaves over after the armor runs out carries on to the fighter in
    the same hit («Сначала броня получает повреждения … затем урон будет получать … персонаж»).
    """
    records: list[LossRecord] = []
    for item in state.fighter(fighter).cliches:
        if dice <= 0:
            break
        if item.cliche.armor and item.cliche.current > 0:
            state, record = _take(state, fighter, item.cliche.name, dice, reason)
            records.append(record)
            dice -= record.dice
    if dice > 0:
        state, record = _take(state, fighter, cliche, dice, reason)
        records.append(record)
    return state, records


def _suggest(state: FightState, team: Team) -> str | None:
    """The default target of a team's damage: a vehicle with hull dice left absorbs first."""
    for member in team.members:
        fighter = state.fighter(member.fighter)
        if fighter.kind is FighterKind.VEHICLE and fighter.get(member.cliche).cliche.current:
            return fighter.key
    return None


def _is_out_after(state: FightState, key: str) -> bool:
    fighter = state.fighter(key)
    return any(c.used and not c.cliche.armor and c.cliche.current == 0 for c in fighter.cliches)


def _update_out(state: FightState) -> tuple[FightState, tuple[str, ...]]:
    """Mark newly out fighters: any used, non-armor cliché at 0 dice."""
    newly = tuple(
        f.key
        for f in state.fighters
        if not f.out and f.kind is not FighterKind.VEHICLE and _is_out_after(state, f.key)
    )
    fighters = tuple(
        f.model_copy(update={"out": True}) if f.key in newly else f for f in state.fighters
    )
    return state.model_copy(update={"fighters": fighters}), newly


def _after_losses(state: FightState) -> tuple[FightState, tuple[str, ...], tuple[str, ...]]:
    """Mark who is out, break teams that lost their leader or shrank, check the end."""
    state, out = _update_out(state)
    dissolved: list[str] = []
    for team in state.teams:
        gone = {m.fighter for m in team.members if state.fighter(m.fighter).out}
        if not gone:
            continue
        dissolved.append(team.key)
        if team.leader in gone:
            state, broken = _break_team(state, team, LossReason.LEADER_LOST, leaver=team.leader)
            out += broken.out
        else:
            state, still = _drop_members(state, team, gone)
            if not still:
                dissolved.pop()
    return _check_finished(state), out, tuple(dissolved)


def _drop_members(state: FightState, team: Team, gone: Iterable[str]) -> tuple[FightState, bool]:
    """Remove members; a team left with fewer than two dissolves. Returns ``dissolved``."""
    members = tuple(m for m in team.members if m.fighter not in set(gone))
    if len(members) < 2 or all(
        state.fighter(m.fighter).kind is FighterKind.VEHICLE for m in members
    ):
        teams = tuple(t for t in state.teams if t.key != team.key)
        return state.model_copy(update={"teams": teams}), True
    kept = team.model_copy(update={"members": members})
    teams = tuple(kept if t.key == team.key else t for t in state.teams)
    return state.model_copy(update={"teams": teams}), False


def _check_finished(state: FightState) -> FightState:
    standing = {f.side for f in state.fighters if not f.out and f.kind is not FighterKind.VEHICLE}
    if len(standing) > 1 or state.finished:
        return state
    if state.pending is not None:
        # The fight ends with a team's damage unassigned; its pumps are still paid.
        state, _ = _pay_pumps(state, state.pending.pumps)
        state, _ = _update_out(state)
    winner = standing.pop() if standing else None
    return state.model_copy(
        update={"finished": True, "winner_side": winner, "exchange": None, "pending": None}
    )
