"""The ``cliche`` fight as a tracker: set-up, rounds rolled by each side, the engine's rules.

The tracker's state is plain JSON: the set-up (who is on which side with which cliché, and
whether it is appropriate), then the engine's ``FightState`` plus what the table needs around
it (whose turn it is to attack, who is choosing a target, a team being gathered, the log).
Every press is one ``core.step`` at the version its button was drawn for. Rolls go through the
verifiable log as ``trk:<tracker>:<version>:<fighter>``; the logged faces are fed back into the
engine. Dice the engine takes (a lost round, pumping, shielding, disbanding) are written to the
sheets through the ledger in one batch per step, so the GM's undo reverts them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n import N_
from bot.services import ledger
from bot.services import rolls as roll_service
from bot.services.games import is_gm
from bot.services.trackers import concurrent, core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.errors import RuleViolation
from engine.systems import cliche
from engine.systems.cliche import fight as engine
from engine.systems.cliche.fight_units import free_fighters, members, other_side, units
from engine.systems.cliche.rolls import RoundWinner
from engine.text import msg

KIND: Final = "cliche_fight"
SIDES: Final = ("1", "2")
MAX_BONUS: Final = 6  # situational bonus dice the GM may add to one roll
MAX_PENALTY: Final = 3  # the GM's −N for an inappropriate cliché cycles 0..3
LOG_KEPT: Final = 60  # log entries stored; the message shows what fits
FREE_DICE: Final = cliche.FREE_DICE

GM_ONLY: Final = N_("Only the GM can do that.")
NOT_YOURS: Final = N_("That is not your fighter.")
NOT_NOW: Final = N_("That is not possible right now.")
NO_DICE: Final = N_("That character has no cliché with dice left to fight with.")


# --- what a press asks for ----------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    character_id: int  # cycles: no side → side 1 → side 2 → no side


@dataclass(frozen=True)
class Focus:
    character_id: int  # 0: back to the list


@dataclass(frozen=True)
class PickCliche:
    character_id: int
    index: int


@dataclass(frozen=True)
class Fit:
    character_id: int  # cycles appropriate → inappropriate −0 … −3 → appropriate


@dataclass(frozen=True)
class Option:
    name: str  # "g" graded physical damage, "f" free dice


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Attack:
    unit: str


@dataclass(frozen=True)
class Target:
    unit: str


@dataclass(frozen=True)
class Roll:
    fighter: str


@dataclass(frozen=True)
class Pump:
    fighter: str


@dataclass(frozen=True)
class Switch:
    fighter: str  # before rolling: the next of the clichés the GM named for this fighter


@dataclass(frozen=True)
class Bonus:
    fighter: str  # the GM grants one situational bonus die (cover, high ground…)


@dataclass(frozen=True)
class TeamMode:
    on: bool


@dataclass(frozen=True)
class TeamToggle:
    fighter: str


@dataclass(frozen=True)
class TeamForm:
    pass


@dataclass(frozen=True)
class Disband:
    team: str


@dataclass(frozen=True)
class Leave:
    fighter: str  # leaves its team alone between rounds: its cliché drops to 0, it is out


@dataclass(frozen=True)
class Damage:
    target: str
    shield_by: str = ""


@dataclass(frozen=True)
class End:
    pass


Op = (
    Side | Focus | PickCliche | Fit | Option | Start | Attack | Target | Roll | Pump | Bonus
    | Switch | TeamMode | TeamToggle | TeamForm | Disband | Leave | Damage | End
)  # fmt: skip
SETUP_TOGGLES: Final = (Side, PickCliche, Fit, Option)  # taken at a recent version in set-up


# --- state helpers ------------------------------------------------------------------------------


def fight_state(state: dict[str, Any]) -> engine.FightState | None:
    raw = state.get("fight")
    return None if raw is None else engine.FightState.model_validate(raw)


def key_of(character_id: int) -> str:
    return f"c{character_id}"


def sheet_of(character: CharacterDTO) -> cliche.Character:
    sheet = SYSTEMS["cliche"].load(character.sheet, character.schema_version)
    assert isinstance(sheet, cliche.Character)
    return sheet


def usable(sheet: cliche.Character) -> list[cliche.Cliche]:
    """Clichés a fighter may roll (armor only absorbs)."""
    return [c for c in sheet.cliches if not c.armor]


def default_cliche(sheet: cliche.Character) -> str | None:
    """The biggest cliché with dice left: the GM's one-press default."""
    items = [c for c in usable(sheet) if cliche.effective_dice(c) > 0]
    return max(items, key=cliche.effective_dice).name if items else None


async def participants(uow: UnitOfWork, game: GameDTO) -> list[CharacterDTO]:
    """The game's active characters and NPCs, in creation order."""
    return await uow.characters.for_game(game.id, statuses=("active",))


def _log(state: dict[str, Any], *entries: dict[str, Any]) -> None:
    state["log"] = [*state.get("log", []), *entries][-LOG_KEPT:]


def name_of(state: dict[str, Any], key: str) -> str:
    person = state.get("people", {}).get(key)
    return str(person["name"]) if person else key


def unit_name(state: dict[str, Any], fight: engine.FightState, unit: str) -> str:
    return " + ".join(name_of(state, k) for k in members(fight, unit))


# --- opening ------------------------------------------------------------------------------------


async def open_fight(uow: UnitOfWork, game: GameDTO, *, actor_user_id: int) -> TrackerDTO:
    """The GM's /fight: a set-up tracker listing the game's characters and NPCs."""
    if not await participants(uow, game):
        raise core.TrackerRefused(N_("No active characters in this game yet."))
    state: dict[str, Any] = {
        "phase": "setup", "sides": {}, "use": {}, "fit": {}, "graded": False, "free": False,
        "focus": None, "log": [],
    }  # fmt: skip
    return await core.open_tracker(uow, game, kind=KIND, state=state, actor_user_id=actor_user_id)


# --- the press ----------------------------------------------------------------------------------


async def press(
    uow: UnitOfWork,
    game: GameDTO,
    *,
    tracker_id: int,
    chat_id: int,
    version: int,
    user_id: int,
    user_name: str,
    op: Op,
) -> TrackerDTO:
    """One button: checks who pressed, runs the engine, writes the step (and the ledger batch).
    Raises ``core.TrackerRefused`` (a msgid) or ``EngineError``; nothing is written then."""
    tracker = await core.load(uow, tracker_id, chat_id=chat_id, kind=KIND)
    if tracker.version != version:
        # A fighter's own press in the round stands when the steps since were others' own; a
        # set-up toggle names what it toggles, so the GM's quick taps each apply.
        fighter = op.fighter if isinstance(op, Roll | Pump | Switch) else None
        if isinstance(op, SETUP_TOGGLES) and tracker.state.get("phase") == "setup":
            concurrent.recent(tracker, version)
        elif fighter is None:
            raise core.TrackerRefused(core.STALE)
        else:
            await concurrent.require_independent(uow, tracker, version, _own_slice(fighter))
    gm = await is_gm(uow, game, user_id)
    # A deep copy: the tracker's own state is the journal's ``state_before`` for undo.
    state: dict[str, Any] = copy.deepcopy(tracker.state)
    if isinstance(op, End):
        return await _end(uow, tracker, state, gm=gm, user_id=user_id)
    if state["phase"] == "setup":
        if not gm:
            raise core.TrackerRefused(GM_ONLY)
        if isinstance(op, Start):
            return await _start(uow, game, tracker, state, user_id=user_id)
        await _setup(uow, game, state, op)
        return await _step(uow, tracker, state, user_id=user_id, action=_action(op))
    fight = fight_state(state)
    assert fight is not None
    before = len(fight.losses)
    out_before = {f.key for f in fight.fighters if f.out}
    fight = await _fight_op(uow, tracker, state, fight, op, gm=gm, user_id=user_id,
                            user_name=user_name)  # fmt: skip
    losses = fight.losses[before:]
    out = [f.key for f in fight.fighters if f.out and f.key not in out_before]
    _log(state, *_loss_lines(state, losses), *_out_lines(state, out))
    fight = _advance(state, fight)
    state["fight"] = fight.model_dump(mode="json")
    batch = await _write_losses(uow, game, state, losses, actor_user_id=user_id)
    if fight.finished:
        _log(state, {"k": "end", "side": fight.winner_side})
        state["phase"] = "ended"
    return await _step(
        uow, tracker, state, user_id=user_id, action=_action(op), batch=batch, end=fight.finished
    )


def _own_slice(key: str) -> Callable[[dict[str, Any]], Any]:
    """What a fighter's press in the open round depends on: the round and its pairing, the
    damage step, the fighter itself and whether it still has to roll."""

    def own(state: dict[str, Any]) -> Any:
        fight = fight_state(state)
        if fight is None or state.get("phase") != "fight":
            return (state.get("phase"),)
        exchange = fight.exchange
        pairing = (exchange.attacker, exchange.defender, exchange.rerolls) if exchange else None
        fighter = next((f for f in fight.fighters if f.key == key), None)
        return (
            fight.round, pairing, fight.pending is not None, fight.finished,
            key in engine.waiting_for(fight), fighter, state.get("people", {}).get(key),
            state.get("turn"), state.get("team"),
        )  # fmt: skip

    return own


def _action(op: Op) -> str:
    return type(op).__name__.lower()


async def _step(
    uow: UnitOfWork, tracker: TrackerDTO, state: dict[str, Any], *, user_id: int, action: str,
    batch: str | None = None, end: bool = False,
) -> TrackerDTO:  # fmt: skip
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id, action=action,
        state=state, batch=batch, end=end,
    )  # fmt: skip


async def _end(
    uow: UnitOfWork, tracker: TrackerDTO, state: dict[str, Any], *, gm: bool, user_id: int
) -> TrackerDTO:
    if not gm:
        raise core.TrackerRefused(GM_ONLY)
    fight = fight_state(state)
    if fight is not None:
        state["fight"] = engine.end_fight(fight).model_dump(mode="json")
    _log(state, {"k": "stopped"})
    state["phase"] = "ended"
    return await _step(uow, tracker, state, user_id=user_id, action="end", end=True)


# --- set-up -------------------------------------------------------------------------------------


async def _character(uow: UnitOfWork, game: GameDTO, character_id: int) -> CharacterDTO:
    found = await uow.characters.get(character_id)
    if found is None or found.game_id != game.id or found.status != "active":
        raise core.TrackerRefused(N_("No such character."))
    return found


async def _setup(uow: UnitOfWork, game: GameDTO, state: dict[str, Any], op: Op) -> None:
    sides: dict[str, str] = state["sides"]
    if isinstance(op, Side):
        character = await _character(uow, game, op.character_id)
        cid = str(character.id)
        now = sides.get(cid)
        following = {None: "1", "1": "2", "2": None}[now]
        if following is None:
            sides.pop(cid, None)
            state["use"].pop(cid, None)
            state["fit"].pop(cid, None)
        else:
            sides[cid] = following
            if cid not in state["use"]:
                chosen = default_cliche(sheet_of(character))
                if chosen is None:
                    raise core.TrackerRefused(NO_DICE)
                state["use"][cid] = [chosen]
        state["focus"] = None
    elif isinstance(op, Focus):
        if op.character_id and str(op.character_id) not in sides:
            raise core.TrackerRefused(NOT_NOW)
        state["focus"] = op.character_id or None
    elif isinstance(op, PickCliche):
        character = await _character(uow, game, op.character_id)
        items = usable(sheet_of(character))
        if str(character.id) not in sides or not 0 <= op.index < len(items):
            raise core.TrackerRefused(NOT_NOW)
        if cliche.effective_dice(items[op.index]) < 1:
            raise RuleViolation(msg("cliche.roll.cliche_unusable", name=items[op.index].name))
        # The GM's clichés for this fighter, in the order named; the first starts the fight.
        names: list[str] = state["use"].setdefault(str(character.id), [])
        name = items[op.index].name
        if name in names and len(names) == 1:
            raise core.TrackerRefused(N_("Keep at least one cliché."))
        state["use"][str(character.id)] = (
            [n for n in names if n != name] if name in names else [*names, name]
        )
    elif isinstance(op, Fit):
        cid = str(op.character_id)
        if cid not in state["use"]:
            raise core.TrackerRefused(NOT_NOW)
        now = state["fit"].get(cid)
        if now is None:
            state["fit"][cid] = 0
        elif now >= MAX_PENALTY:
            state["fit"].pop(cid)
        else:
            state["fit"][cid] = now + 1
    elif isinstance(op, Option):
        field = {"g": "graded", "f": "free"}.get(op.name)
        if field is None:
            raise core.TrackerRefused(NOT_NOW)
        state[field] = not state[field]
    else:
        raise core.TrackerRefused(NOT_NOW)


async def _start(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, state: dict[str, Any], *, user_id: int
) -> TrackerDTO:
    chosen = {int(cid): side for cid, side in state["sides"].items()}
    by_id = {c.id: c for c in await participants(uow, game)}
    fighters: list[engine.Fighter] = []
    people: dict[str, dict[str, Any]] = {}
    for cid, side in sorted(chosen.items()):
        character = by_id.get(cid)
        if character is None:
            continue
        names = state["use"].get(str(cid))
        if not names:
            raise core.TrackerRefused(NO_DICE)
        fit = state["fit"].get(str(cid))
        fighter = engine.fighter_from_character(
            sheet_of(character), key=key_of(cid), side=side,
            appropriate=() if fit is not None else names,
            kind=engine.FighterKind.NPC if character.is_npc else engine.FighterKind.CHARACTER,
        )  # fmt: skip
        fighters.append(fighter.model_copy(update={"name": character.name}))
        people[key_of(cid)] = {
            "id": cid, "name": character.name, "owner": character.owner_user_id,
            "npc": character.is_npc, "use": names, "cur": names[0], "penalty": fit,
        }  # fmt: skip
    if {f.side for f in fighters} != set(SIDES):
        raise core.TrackerRefused(N_("Put someone on each side first."))
    fight = engine.start_fight(fighters, free_dice=FREE_DICE if state["free"] else 0)
    state.update(
        phase="fight", people=people, turn=SIDES[0], attacker=None, team=None, next_team=1,
        focus=None,
    )  # fmt: skip
    _log(state, {"k": "start"})
    fight = _advance(state, fight)
    state["fight"] = fight.model_dump(mode="json")
    return await _step(uow, tracker, state, user_id=user_id, action="start")


# --- newcomers and leavers (issue 24 item 2; the GM's /join and /leave) -------------------------

IN_ROUND: Final = N_("{name} is rolling in the open round: finish its rolls first.")
IN_TEAM: Final = N_("{name} fights in a team: press «🚪 {name}» to leave it first.")
LAST_ONE: Final = N_("{name} is the last one standing on their side: «🏁 End» ends the fight.")


class Refused(core.TrackerRefused):
    """A refusal naming the fighter: ``params`` fill the msgid's placeholders."""

    def __init__(self, reason: str, **params: str) -> None:
        super().__init__(reason)
        self.params = params


def in_fight(state: dict[str, Any], character_id: int) -> bool:
    fight = fight_state(state)
    key = key_of(character_id)
    return fight is not None and any(f.key == key for f in fight.fighters)


def join_fight(state: dict[str, Any], character: CharacterDTO, *, side: str | None = None) -> None:
    """A newcomer on ``side`` (by default NPCs the second, characters the first) with its
    biggest cliché, appropriate; it rolls from the next round (``engine.join_fight``). Changes
    ``state``."""
    fight = fight_state(state)
    assert fight is not None
    chosen = default_cliche(sheet_of(character))
    if chosen is None:
        raise core.TrackerRefused(NO_DICE)
    key = key_of(character.id)
    side = side or SIDES[1 if character.is_npc else 0]
    fighter = engine.fighter_from_character(
        sheet_of(character), key=key, side=side, appropriate=(chosen,),
        kind=engine.FighterKind.NPC if character.is_npc else engine.FighterKind.CHARACTER,
    )  # fmt: skip
    fight = engine.join_fight(fight, fighter.model_copy(update={"name": character.name}))
    state["people"][key] = {
        "id": character.id, "name": character.name, "owner": character.owner_user_id,
        "npc": character.is_npc, "use": [chosen], "cur": chosen, "penalty": None,
    }  # fmt: skip
    state["sides"] = {**state["sides"], str(character.id): side}
    _log(state, {"k": "joined", "who": character.name, "side": side})
    state["fight"] = _advance(state, fight).model_dump(mode="json")


def leave_fight(state: dict[str, Any], character: CharacterDTO) -> None:
    """The fighter leaves between rolls, losing nothing (``engine.withdraw``); refused with
    what to finish first while its roll is half made, its team holds it, or it is the last
    one standing on its side. Changes ``state``."""
    fight = fight_state(state)
    assert fight is not None
    key, name = key_of(character.id), character.name
    if fight.team_of(key) is not None:
        raise Refused(IN_TEAM, name=name)
    exchange = fight.exchange
    if (
        exchange is not None
        and exchange.rolls
        and key in engine.waiting_for(fight) + tuple(r.fighter for r in exchange.rolls)
    ):
        raise Refused(IN_ROUND, name=name)
    me = fight.fighter(key)
    if not me.out and not [
        f for f in fight.fighters if f.side == me.side and not f.out and f.key != key
        and f.kind is not engine.FighterKind.VEHICLE
    ]:  # fmt: skip
        raise Refused(LAST_ONE, name=name)
    fight = engine.withdraw(fight, key)
    if state.get("attacker") == key:
        state["attacker"] = None
    if state.get("team"):
        state["team"] = [k for k in state["team"] if k != key]
    state["sides"] = {k: v for k, v in state["sides"].items() if k != str(character.id)}
    _log(state, {"k": "gone", "who": name})
    state["fight"] = _advance(state, fight).model_dump(mode="json")


# --- the fight ----------------------------------------------------------------------------------


def _owns(state: dict[str, Any], key: str, user_id: int) -> bool:
    person = state["people"].get(key)
    return bool(person) and not person["npc"] and person["owner"] == user_id


def _may_act(state: dict[str, Any], fight: engine.FightState, unit: str, user_id: int) -> bool:
    """A unit is driven by its (leader's) player; the GM drives NPCs and may stand in."""
    return _owns(state, members(fight, unit)[0], user_id)


async def _fight_op(
    uow: UnitOfWork, tracker: TrackerDTO, state: dict[str, Any], fight: engine.FightState,
    op: Op, *, gm: bool, user_id: int, user_name: str,
) -> engine.FightState:  # fmt: skip
    if fight.finished:
        raise core.TrackerRefused(NOT_NOW)
    if isinstance(op, Roll | Pump | Bonus | Switch):
        if op.fighter not in engine.waiting_for(fight):
            raise core.TrackerRefused(NOT_NOW)
        if isinstance(op, Bonus):
            if not gm:
                raise core.TrackerRefused(GM_ONLY)
            return _redeclare(fight, op.fighter, bonus=1)
        if not gm and not _owns(state, op.fighter, user_id):
            raise core.TrackerRefused(NOT_YOURS)
        if isinstance(op, Pump):
            return _redeclare(fight, op.fighter, pump=1)
        if isinstance(op, Switch):
            return _switch(state, fight, op.fighter)
        return await _roll(uow, tracker, state, fight, op.fighter, user_id, user_name)
    if isinstance(op, Attack):
        turn = state["turn"]
        if state.get("team") is not None or fight.exchange or fight.pending:
            raise core.TrackerRefused(NOT_NOW)
        if op.unit not in units(fight, turn):
            raise core.TrackerRefused(NOT_NOW)
        if not gm and not _may_act(state, fight, op.unit, user_id):
            raise core.TrackerRefused(NOT_YOURS)
        state["attacker"] = op.unit
        targets = units(fight, other_side(fight, turn) or "")
        # One unit to attack: the choice is made, the round opens.
        return _open(state, fight, op.unit, targets[0]) if len(targets) == 1 else fight
    if isinstance(op, Target):
        attacker = state.get("attacker")
        defending = other_side(fight, state["turn"]) or ""
        if attacker is None or fight.exchange or op.unit not in units(fight, defending):
            raise core.TrackerRefused(NOT_NOW)
        if not gm and not _may_act(state, fight, attacker, user_id):
            raise core.TrackerRefused(NOT_YOURS)
        return _open(state, fight, attacker, op.unit)
    if isinstance(op, Damage):
        pending = fight.pending
        if pending is None:
            raise core.TrackerRefused(NOT_NOW)
        if not gm and not (op.shield_by and _owns(state, op.shield_by, user_id)):
            raise core.TrackerRefused(GM_ONLY)
        fight, _done = engine.assign_damage(fight, op.target, shield_by=op.shield_by or None)
        who = op.shield_by or op.target
        if op.shield_by:
            _log(state, {"k": "shield", "who": name_of(state, who),
                         "for": name_of(state, op.target)})  # fmt: skip
        return fight
    if isinstance(op, Leave):
        team = fight.team_of(op.fighter)
        if team is None or fight.exchange or fight.pending:
            raise core.TrackerRefused(NOT_NOW)
        if not gm and not _owns(state, op.fighter, user_id):
            raise core.TrackerRefused(NOT_YOURS)
        fight, _broken = engine.leave_team(fight, team.key, op.fighter)
        state["attacker"] = None
        _log(state, {"k": "left", "who": name_of(state, op.fighter)})
        return fight
    if not gm:
        raise core.TrackerRefused(GM_ONLY)
    return _team_op(state, fight, op)


def _team_op(state: dict[str, Any], fight: engine.FightState, op: Op) -> engine.FightState:
    between = not fight.exchange and not fight.pending
    if isinstance(op, TeamMode) and between:
        state["team"] = [] if op.on else None
        state["attacker"] = None
        return fight
    if isinstance(op, TeamToggle) and between and state.get("team") is not None:
        picked: list[str] = state["team"]
        side = fight.fighter(op.fighter).side
        if op.fighter not in free_fighters(fight, side):
            raise core.TrackerRefused(NOT_NOW)
        if picked and fight.fighter(picked[0]).side != side:
            raise core.TrackerRefused(N_("A team is formed on one side."))
        state["team"] = (
            [k for k in picked if k != op.fighter]
            if op.fighter in picked
            else [*picked, op.fighter]
        )
        return fight
    if isinstance(op, TeamForm) and between and state.get("team") is not None:
        picked = state["team"]
        key = f"t{state['next_team']}"
        pairs = [(k, state["people"][k]["cur"]) for k in picked]
        fight, formed = engine.form_team(fight, key, pairs)
        state.update(team=None, next_team=state["next_team"] + 1)
        _log(state, {"k": "team", "team": unit_name(state, fight, key),
                     "leader": name_of(state, formed.leader)})  # fmt: skip
        return fight
    if isinstance(op, Disband) and between and fight.team(op.team) is not None:
        name = unit_name(state, fight, op.team)
        fight, _broken = engine.disband_team(fight, op.team)
        state["attacker"] = None
        _log(state, {"k": "disband", "team": name})
        return fight
    raise core.TrackerRefused(NOT_NOW)


def _declare(
    state: dict[str, Any], fight: engine.FightState, key: str, *, pump: int = 0
) -> engine.FightState:
    person = state["people"][key]
    team = fight.team_of(key)
    name = team.member(key).cliche if team is not None else person["cur"]
    penalty = person["penalty"]
    return engine.declare(fight, key, name, pump=pump, gm_penalty=penalty)


def _open(
    state: dict[str, Any], fight: engine.FightState, attacker: str, defender: str
) -> engine.FightState:
    fight = engine.open_round(fight, attacker, defender, graded=bool(state["graded"]))
    for key in engine.waiting_for(fight):
        if engine.declaration_of(fight, key) is None:
            fight = _declare(state, fight, key)
    state["attacker"] = None
    _log(state, {"k": "round", "n": fight.round, "a": unit_name(state, fight, attacker),
                 "d": unit_name(state, fight, defender)})  # fmt: skip
    return fight


def _advance(state: dict[str, Any], fight: engine.FightState) -> engine.FightState:
    """Between rounds, take the choices that are no choice: a lone attacker attacks, and when
    each side is one fighter with no team possible, the next round opens by itself."""
    if fight.finished or fight.exchange or fight.pending or state.get("team") is not None:
        return fight
    turn = state["turn"]
    attackers = units(fight, turn)
    defenders = units(fight, other_side(fight, turn) or "")
    if not attackers or not defenders:
        return fight
    if state.get("attacker") not in attackers:
        state["attacker"] = attackers[0] if len(attackers) == 1 else None
    solo = not fight.teams and len(attackers) == 1 and len(defenders) == 1
    if solo and state["attacker"] is not None:
        return _open(state, fight, state["attacker"], defenders[0])
    return fight


def _redeclare(
    fight: engine.FightState, key: str, *, pump: int = 0, bonus: int = 0
) -> engine.FightState:
    """One more pumped die (the player's, paid afterwards) or bonus die (the GM's gift)."""
    declared = engine.declaration_of(fight, key)
    assert declared is not None
    item = fight.fighter(key).get(declared.cliche)
    if pump and declared.pump >= item.cliche.current:
        raise core.TrackerRefused(N_("No more dice to pump with."))
    if bonus and declared.bonus >= MAX_BONUS:
        raise core.TrackerRefused(NOT_NOW)
    return engine.declare(
        fight, key, declared.cliche, pump=declared.pump + pump, bonus=declared.bonus + bonus,
        gm_penalty=None if declared.appropriate else declared.penalty,
    )  # fmt: skip


def next_cliche(state: dict[str, Any], fight: engine.FightState, key: str) -> str | None:
    """The cliché a solo fighter switches to (the GM's next named one with dice), if any."""
    if fight.team_of(key) is not None:
        return None
    person = state["people"][key]
    names: list[str] = person["use"]
    fighter = fight.fighter(key)
    start = names.index(person["cur"]) if person["cur"] in names else -1
    for step in range(1, len(names)):
        name = names[(start + step) % len(names)]
        if cliche.effective_dice(fighter.get(name).cliche) > 0:
            return name
    return None


def _switch(state: dict[str, Any], fight: engine.FightState, key: str) -> engine.FightState:
    """«A side may use a different cliché each round»: a new pool, its pump starts again."""
    name = next_cliche(state, fight, key)
    declared = engine.declaration_of(fight, key)
    if name is None or declared is None:
        raise core.TrackerRefused(NOT_NOW)
    state["people"][key]["cur"] = name
    penalty = state["people"][key]["penalty"]
    return engine.declare(fight, key, name, bonus=declared.bonus, gm_penalty=penalty)


class _NeedMore(Exception):
    pass


class _Faces:
    """The logged faces, in order, as the engine's dice source."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        if not self._faces:
            raise _NeedMore
        return self._faces.pop(0)


async def _roll(
    uow: UnitOfWork, tracker: TrackerDTO, state: dict[str, Any], fight: engine.FightState,
    key: str, user_id: int, user_name: str,
) -> engine.FightState:  # fmt: skip
    pool = engine.declared_pool(fight, key)
    declared = engine.declaration_of(fight, key)
    assert declared is not None
    who = name_of(state, key)
    roll_id = f"trk:{tracker.id}:{tracker.version}:{key}"
    logged = await roll_service.roll_logged(
        uow, chat_id=tracker.chat_id, roll_id=roll_id, text=f"{pool.size}d6", actor=user_name,
        subject=f"{who}: {declared.cliche}", actor_user_id=user_id, commit=False,
    )  # fmt: skip
    faces = list(logged.result.faces)
    try:
        fight, outcome = engine.roll_for(fight, key, _Faces(faces))
        extra: list[int] = []
    except _NeedMore:
        # A graded hit's 1d6 (the round's last roll): one more logged die.
        graded = await roll_service.roll_logged(
            uow, chat_id=tracker.chat_id, roll_id=f"{roll_id}:g", text="1d6", actor=user_name,
            subject=f"{who}: 1d6", actor_user_id=user_id, commit=False,
        )  # fmt: skip
        extra = list(graded.result.faces)
        fight, outcome = engine.roll_for(fight, key, _Faces(faces + extra))
    _log(state, {"k": "roll", "who": who, "n": outcome.notation, "faces": list(outcome.faces),
                 "sum": outcome.counted, "member": outcome.notation != f"{pool.size}d6",
                 "pump": declared.pump, "bonus": declared.bonus})  # fmt: skip
    resolution = outcome.resolution
    if resolution is None:
        return fight
    damage = resolution.damage
    if damage.winner is RoundWinner.TIE:
        _log(state, {"k": "tie", "a": resolution.attacker_total, "d": resolution.defender_total})
        return fight
    exchange = _last_exchange(state)
    winner = exchange["a"] if damage.winner is RoundWinner.ATTACKER else exchange["d"]
    _log(state, {"k": "won", "who": winner, "a": resolution.attacker_total,
                 "d": resolution.defender_total, "dice": damage.dice, "kind": str(damage.kind),
                 "faces": list(damage.faces)})  # fmt: skip
    if resolution.pending_team:
        _log(state, {"k": "pending", "team": unit_name(state, fight, resolution.pending_team),
                     "dice": damage.dice})  # fmt: skip
    state["turn"] = other_side(fight, state["turn"]) or state["turn"]
    return fight


def _last_exchange(state: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in reversed(state["log"]) if e["k"] == "round")


def _loss_lines(
    state: dict[str, Any], losses: Sequence[engine.LossRecord]
) -> list[dict[str, Any]]:
    return [
        {
            "k": "loss",
            "who": name_of(state, r.fighter),
            "c": r.cliche,
            "dice": r.dice,
            "why": str(r.reason),
        }
        for r in losses
        if r.dice
    ]


def _out_lines(state: dict[str, Any], out: Sequence[str]) -> list[dict[str, Any]]:
    return [{"k": "out", "who": name_of(state, key)} for key in out]


async def _write_losses(
    uow: UnitOfWork, game: GameDTO, state: dict[str, Any],
    losses: Sequence[engine.LossRecord], *, actor_user_id: int,
) -> str | None:  # fmt: skip
    """The dice the engine just took, onto the sheets: one ledger batch for the whole step."""
    per: dict[int, list[tuple[str, int]]] = {}
    for record in losses:
        person = state["people"].get(record.fighter)
        if person and record.dice:
            per.setdefault(int(person["id"]), []).append((record.cliche, record.dice))
    if not per:
        return None

    def change(items: list[tuple[str, int]]) -> ledger.Mutation:
        def apply(sheet: Any) -> Any:
            assert isinstance(sheet, cliche.Character)
            names = {c.name for c in sheet.cliches}
            for name, dice in items:
                if name in names:  # a cliché renamed on the sheet mid-fight loses nothing
                    sheet = sheet.replace_cliche(cliche.lose_dice(sheet.cliche(name), dice)[0])
            return sheet

        return apply

    batch = ledger.new_batch()
    await ledger.change_sheets(
        uow, game=game, actor_user_id=actor_user_id, kind="cliche.dice.lose",
        changes={cid: change(items) for cid, items in per.items()}, reason="fight", batch=batch,
    )  # fmt: skip
    return batch
