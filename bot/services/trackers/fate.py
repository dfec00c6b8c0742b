"""The fate conflict tracker (issue 10): set-up, turns, attacks, advantages, the end.

The tracker's state is JSON the service owns: the set-up (zones from the GM's command text, the
game's characters and NPCs, each out or on side A or B), then the engine's ``ConflictState``
(sides, zones and their aspects with free invokes, initiative by Внимательность, turns, full
defence, taken out, conceded) plus the action in progress (``pending``) and a log of message
ids with parameters (rendered in the chat's language by the view). Every use case checks who
pressed, applies the engine's rule, logs its dice through the verifiable log (roll ids
``trk:<tracker>:<version>:<slot>``), writes sheets through the ledger and takes one tracker
step with that ledger batch, so the GM's undo reverts the sheets too. Nothing here commits.

DECISIONS where the issue is silent:
* Set-up: player characters start on side A, NPCs on side B (a press cycles out → A → B).
* Attacks use Бой (melee) or Стрельба (shooting); defence uses Атлетика, Бой or
  Внимательность (SPEC: visible physical threats, melee, unseen). Harm goes to the physical
  track; weapon (melee for Бой, ranged for Стрельба) and armor levels change the harm only.
* Free invokes (+2 or a reroll) are spent after both rolls, before the attack is read.
* A consequence is named after the attack («Рана: Бой (Ворг)»); an extreme consequence
  (it replaces an aspect) is not offered on the tracker.
* Conceding is taken as successful (+1 FP, +1 per consequence taken here); the GM may undo it.
* Creating an advantage is rolled against a passive opposition the GM sets (Неплохо (+2)
  unless changed; the line names it); its name is the reply the actor sent to the tracker,
  else «Преимущество <name>». A failure creates nothing; a tie's boost is named in the log.
* Or against an active defender (the seed: «Когда это действие используется против
  противника, способного защищаться, то действие разрешается противопоставленной активной
  проверкой против защитного действия противника»): the GM, or a participant's owner for their
  own character, names the defender among the other sides' standing participants; the actor
  rolls, then the defender rolls 4dF + a skill of their choice (+2 in full defence) and the
  engine reads the actor's roll against it (``fate.opposed``). A failure then gives the
  defender the advantage («Провал: создается преимущество для противника, если это
  возможно»): an aspect with their free invoke; a defence with style adds the defender's
  boost. No invokes are offered between the two rolls (the attack's invoke step is not
  repeated here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, Final

from bot.i18n import N_, Translator
from bot.services import invokes as invoke_service
from bot.services import ledger
from bot.services import rolls as roll_service
from bot.services.games import is_gm
from bot.services.invokes import BONUS, REROLL, Invoked
from bot.services.requests import RequestRefused, on_card
from bot.services.trackers import concurrent, core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems import fate
from engine.systems.fate import (
    AbsorbOption,
    Action,
    AspectKind,
    ConflictState,
    FateRoll,
    Participant,
    SceneAspect,
    Skill,
    SlotId,
    TrackKind,
    Zone,
)
from engine.text import msg

KIND: Final = "fate_conflict"
SIDES: Final = ("A", "B")
ATTACK_SKILLS: Final = (Skill.FIGHT, Skill.SHOOT)
DEFENCE_SKILLS: Final = (Skill.ATHLETICS, Skill.FIGHT, Skill.NOTICE)
ADVANTAGE_DIFFICULTY: Final = 2
MIN_DIFFICULTY: Final = 0  # the GM's passive opposition for an advantage: Посредственно…
MAX_DIFFICULTY: Final = 8  # …Легендарно
ADVANTAGE_SKILLS: Final = 6  # the actor's best skills offered for an advantage
MAX_ZONES: Final = 6
MAX_ASPECTS: Final = 6
NAME_MAX: Final = 60
LOG_KEEP: Final = 200  # the view shows what fits; older entries are dropped from the state
SLOT_CODES: Final[dict[SlotId, str]] = {
    SlotId.MILD: "m",
    SlotId.MODERATE: "o",
    SlotId.SEVERE: "s",
    SlotId.MILD_PHYSICAL: "p",
    SlotId.MILD_MENTAL: "n",
    SlotId.EXTREME: "x",
}
CODE_SLOTS: Final = {v: k for k, v in SLOT_CODES.items()}
TAKEN_OUT_CODE: Final = "out"
CONCEDE_CODE: Final = "give"

ONLY_GM = N_("Only the GM can do that.")
NOT_YOURS = N_("That is not your character's move.")
INACTIVE = N_("This button is no longer active.")
DECIDED = N_("One side is left standing: the GM may end the conflict.")


# --- the state -------------------------------------------------------------------------------


def parse_zones(text: str | None) -> list[dict[str, Any]]:
    """``Склад: Темно, Ящики повсюду | Крыша: Скользко`` → zones with situation aspects.
    No text: one unnamed zone. A part without a colon is a zone name alone."""
    zones: list[dict[str, Any]] = []
    for part in (text or "").split("|")[:MAX_ZONES]:
        name, colon, rest = part.partition(":")
        aspects = [a.strip()[:NAME_MAX] for a in rest.split(",") if a.strip()] if colon else []
        if name.strip() or aspects:
            zones.append({"name": name.strip()[:NAME_MAX], "aspects": aspects[:MAX_ASPECTS]})
    return zones or [{"name": "", "aspects": []}]


def _log(state: dict[str, Any], msgid: str, **params: Any) -> None:
    state["log"] = [*state.get("log", []), {"m": msgid, "p": params}][-LOG_KEEP:]


def conflict_of(state: dict[str, Any]) -> ConflictState | None:
    raw = state.get("conflict")
    return ConflictState.model_validate(raw) if raw else None


def _put(state: dict[str, Any], conflict: ConflictState) -> None:
    state["conflict"] = conflict.model_dump(mode="json")


def roster_entry(state: dict[str, Any], pid: str) -> dict[str, Any]:
    for entry in state["roster"]:
        if str(entry["id"]) == pid:
            return dict(entry)
    raise core.TrackerRefused(INACTIVE)


def roll_to_json(roll: FateRoll) -> dict[str, Any]:
    return asdict(roll)


def roll_from_json(data: dict[str, Any]) -> FateRoll:
    return FateRoll(
        faces=tuple(data["faces"]), skill=int(data["skill"]), modifier=int(data["modifier"]),
        invoke_bonus=int(data["invoke_bonus"]), rerolls=int(data["rerolls"]),
        paid_aspects=tuple(data.get("paid_aspects", ())),
    )  # fmt: skip


def free_invokes_of(conflict: ConflictState, holder: str) -> list[tuple[int, int, str, int]]:
    """(zone, aspect index, name, count) of every aspect on which ``holder`` has free invokes."""
    found = []
    for zi, zone in enumerate(conflict.zones):
        for ai, aspect in enumerate(zone.aspects):
            n = aspect.free_invokes.get(holder, 0)
            if n > 0:
                found.append((zi, ai, aspect.name, n))
    return found


def absorb_code(option: AbsorbOption) -> str:
    """A short id for an absorb option in callback data: ``2`` box 2, ``2m`` box 2 + mild…"""
    if option.taken_out:
        return TAKEN_OUT_CODE
    return f"{option.box or ''}{''.join(SLOT_CODES[s] for s in option.slots)}"


def offered_options(character: fate.Character, hit: int) -> list[AbsorbOption]:
    """The engine's legal ways to take the hit (the extreme consequence left out)."""
    options = fate.absorb_options(character, hit, TrackKind.PHYSICAL)
    return [o for o in options if SlotId.EXTREME not in o.slots]


# --- access ----------------------------------------------------------------------------------


async def _require_gm(uow: UnitOfWork, game: GameDTO, user_id: int) -> None:
    if not await is_gm(uow, game, user_id):
        raise core.TrackerRefused(ONLY_GM)


async def _require_owner(
    uow: UnitOfWork, game: GameDTO, state: dict[str, Any], pid: str, user_id: int
) -> None:
    """The character's owner (an NPC's: the GM) or a GM may press for it."""
    entry = roster_entry(state, pid)
    if not entry["npc"] and entry["owner"] == user_id:
        return
    if not await is_gm(uow, game, user_id):
        raise core.TrackerRefused(NOT_YOURS)


def _check(tracker: TrackerDTO, v: int, phase: str, *, toggle: bool = False) -> dict[str, Any]:
    """A copy of the state at version ``v`` in ``phase``; a set-up ``toggle`` also at a recent
    older version (``concurrent.recent``: the GM's quick taps each apply)."""
    if toggle:
        concurrent.recent(tracker, v)
    elif tracker.version != v:
        raise core.TrackerRefused(core.STALE)
    state = dict(tracker.state)
    if state.get("phase") != phase:
        raise core.TrackerRefused(INACTIVE)
    return state


def _playing(tracker: TrackerDTO, v: int) -> tuple[dict[str, Any], ConflictState]:
    state = _check(tracker, v, "play")
    conflict = conflict_of(state)
    assert conflict is not None
    if fate.is_over(conflict):
        raise core.TrackerRefused(DECIDED)
    return state, conflict


def _attack_at(
    tracker: TrackerDTO, v: int, stage: str
) -> tuple[dict[str, Any], ConflictState, dict[str, Any]]:
    """The running conflict at version ``v`` with an attack pending at ``stage`` (target,
    defend, invoke, absorb): its state, the conflict and the pending attack."""
    state, conflict = _playing(tracker, v)
    pending = state.get("pending") or {}
    if pending.get("kind") != ATTACK or pending.get("stage") != stage:
        raise core.TrackerRefused(INACTIVE)
    return state, conflict, pending


async def _sheet(uow: UnitOfWork, game: GameDTO, pid: str) -> fate.Character:
    found = await uow.characters.get(int(pid))
    if found is None or found.game_id != game.id or found.status != "active":
        raise core.TrackerRefused(INACTIVE)
    sheet = SYSTEMS[fate.SYSTEM_ID].load(found.sheet, found.schema_version)
    assert isinstance(sheet, fate.Character)
    return sheet


async def _step(
    uow: UnitOfWork, tracker: TrackerDTO, state: dict[str, Any], user_id: int, action: str,
    *, batch: str | None = None, end: bool = False,
) -> TrackerDTO:  # fmt: skip
    if action != "advantage":  # an advantage is named right after it is made, or keeps its name
        state["unnamed"] = None
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id, action=action,
        state=state, batch=batch, end=end,
    )  # fmt: skip


# --- opening and set-up ----------------------------------------------------------------------


async def open_conflict(
    uow: UnitOfWork, game: GameDTO, *, user_id: int, text: str | None
) -> TrackerDTO:
    """The GM opens the set-up: every active character and NPC listed, PCs on side A, NPCs
    on side B (DECISION). Refused while another fight or scene is open."""
    await _require_gm(uow, game, user_id)
    characters = await uow.characters.for_game(game.id, statuses=("active",))
    roster = [_entry(c) for c in characters if c.system == fate.SYSTEM_ID]
    state: dict[str, Any] = {
        "phase": "setup",
        "zones": parse_zones(text),
        "roster": roster,
        "sides": {str(e["id"]): (2 if e["npc"] else 1) for e in roster},
        "conflict": None,
        "pending": None,
        "log": [],
    }
    return await core.open_tracker(uow, game, kind=KIND, state=state, actor_user_id=user_id)


def _entry(character: CharacterDTO) -> dict[str, Any]:
    return {
        "id": character.id,
        "name": character.name,
        "owner": character.owner_user_id,
        "npc": character.is_npc,
    }


async def toggle(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, pid: int
) -> TrackerDTO:
    """Cycle one character: out → side A → side B → out."""
    await _require_gm(uow, game, user_id)
    state = _check(tracker, v, "setup", toggle=True)
    key = str(pid)
    roster_entry(state, key)
    sides = dict(state["sides"])
    sides[key] = (int(sides.get(key, 0)) + 1) % 3
    state["sides"] = sides
    return await _step(uow, tracker, state, user_id, "toggle")


async def start(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int
) -> TrackerDTO:
    """Initiative by Внимательность (the engine's order); the first exchange begins."""
    await _require_gm(uow, game, user_id)
    state = _check(tracker, v, "setup")
    zones = [
        Zone(name=z["name"], aspects=tuple(SceneAspect(name=a) for a in z["aspects"]))
        for z in state["zones"]
    ]
    participants = []
    for entry in state["roster"]:
        side = int(state["sides"].get(str(entry["id"]), 0))
        if side == 0:
            continue
        sheet = await _sheet(uow, game, str(entry["id"]))
        participants.append(
            Participant(
                id=str(entry["id"]), name=entry["name"], side=SIDES[side - 1],
                initiative=fate.initiative(sheet),
            )
        )  # fmt: skip
    conflict = fate.start_conflict(str(tracker.id), zones, participants)
    state["phase"] = "play"
    _put(state, conflict)
    _log(state, N_("The conflict begins."))
    return await _step(uow, tracker, state, user_id, "start")


# --- the acting character's choice -----------------------------------------------------------


ATTACK = "attack"
DEFEND = "defend"
ADVANTAGE = "advantage"
PASS = "pass"
CANCEL = "cancel"
CONCEDE = "concede"
CHOICES: Final = (ATTACK, DEFEND, ADVANTAGE, PASS, CANCEL, CONCEDE)


async def choose(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, choice: str
) -> TrackerDTO:
    """The acting character picks its action; «cancel» backs out of a choice not rolled yet."""
    state, conflict = _playing(tracker, v)
    actor = conflict.current
    if actor is None or choice not in CHOICES:
        raise core.TrackerRefused(INACTIVE)
    await _require_owner(uow, game, state, actor, user_id)
    pending = state.get("pending")
    name = conflict.participant(actor).name
    if choice == CANCEL:
        if not pending or pending.get("stage") not in ("target", "skill"):
            raise core.TrackerRefused(INACTIVE)
        state["pending"] = None
    elif pending:
        raise core.TrackerRefused(INACTIVE)
    elif choice == ATTACK:
        state["pending"] = {"kind": ATTACK, "actor": actor, "stage": "target"}
    elif choice == ADVANTAGE:
        state["pending"] = {
            "kind": ADVANTAGE, "actor": actor, "stage": "skill", "name": None,
            "diff": ADVANTAGE_DIFFICULTY,
        }  # fmt: skip
    elif choice == DEFEND:
        _put(state, fate.full_defence(conflict, actor))
        _log(state, N_("🛡 {name} goes into full defence."), name=name)
    elif choice == CONCEDE:  # the seed sets no timing: on one's own turn too
        who = conflict.participant(actor)
        batch = await _write_sheets(
            uow, game, user_id, "fate.conflict.concede", {actor: _conceder(who)}
        )
        _put(state, fate.concede_conflict(conflict, actor))
        _log(state, N_("🏳 {name} concedes."), name=name)
        return await _step(uow, tracker, state, user_id, choice, batch=batch)
    else:
        _put(state, fate.act(conflict, actor))
        _log(state, N_("⏭ {name} passes."), name=name)
    return await _step(uow, tracker, state, user_id, choice)


async def move(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, zone: int
) -> TrackerDTO:
    """The acting character moves to another zone before acting: no roll, once a turn (an
    obstacle would need an overcome, which the GM rules outside the tracker)."""
    state, conflict = _playing(tracker, v)
    actor = conflict.current
    if actor is None or state.get("pending"):
        raise core.TrackerRefused(INACTIVE)
    await _require_owner(uow, game, state, actor, user_id)
    turn = f"{conflict.exchange}:{conflict.turn}"
    if state.get("moved") == turn or conflict.participant(actor).zone == zone:
        raise core.TrackerRefused(INACTIVE)
    conflict = fate.move(conflict, actor, zone)
    state["moved"] = turn
    _put(state, conflict)
    _log(
        state, N_("🚶 {name} moves to {zone}."), name=conflict.participant(actor).name,
        zone=conflict.zones[zone].name or str(zone + 1),
    )  # fmt: skip
    return await _step(uow, tracker, state, user_id, "move")


async def _roll(
    uow: UnitOfWork, tracker: TrackerDTO, *, slot: str, skill: int, modifier: int,
    actor: str, subject: str, user_id: int,
) -> FateRoll:  # fmt: skip
    """4dF + skill + modifier through the verifiable log; the logged faces are the roll."""
    logged = await roll_service.roll_logged(
        uow, chat_id=tracker.chat_id, roll_id=f"trk:{tracker.id}:{tracker.version}:{slot}",
        text=fate.fate_notation(skill + modifier), actor=actor, subject=subject,
        actor_user_id=user_id, commit=False,
    )  # fmt: skip
    return FateRoll(tuple(logged.result.faces), skill, modifier)


async def attack_roll(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    user_name: str, target: int, skill: Skill,
) -> TrackerDTO:  # fmt: skip
    """The attacker rolls at a target on the other side with Бой or Стрельба."""
    state, conflict, pending = _attack_at(tracker, v, "target")
    actor = pending["actor"]
    await _require_owner(uow, game, state, actor, user_id)
    tid = str(target)
    if tid not in targets(conflict, actor) or skill not in attack_skills(conflict, actor, tid):
        raise core.TrackerRefused(INACTIVE)
    sheet = await _sheet(uow, game, actor)
    attacker, defender = conflict.participant(actor), conflict.participant(tid)
    roll = await _roll(
        uow, tracker, slot="atk", skill=sheet.skill(skill), modifier=0, actor=user_name,
        subject=attacker.name, user_id=user_id,
    )  # fmt: skip
    state["pending"] = {
        **pending, "stage": "defend", "target": tid, "skill": skill.value,
        "atk": roll_to_json(roll),
    }  # fmt: skip
    _log(
        state, N_("⚔️ {name} attacks {target} ({skill}): {dice} → {total}"),
        name=attacker.name, target=defender.name, skill=skill.value, dice=roll.symbols,
        total=roll.total,
    )  # fmt: skip
    return await _step(uow, tracker, state, user_id, "attack")


def targets(conflict: ConflictState, actor: str) -> list[str]:
    """Who the actor may attack: everyone standing on another side."""
    side = conflict.participant(actor).side
    return [p.id for p in conflict.participants if p.active and p.side != side]


def attack_skills(conflict: ConflictState, actor: str, target: str) -> tuple[Skill, ...]:
    """Бой reaches the same zone only; Стрельба (shooting, throwing) any zone (SPEC)."""
    same = conflict.participant(actor).zone == conflict.participant(target).zone
    return ATTACK_SKILLS if same else tuple(s for s in ATTACK_SKILLS if s is not Skill.FIGHT)


async def defence_roll(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    user_name: str, skill: Skill, t: Translator,
) -> TrackerDTO:  # fmt: skip
    """The defender rolls (+2 in full defence); with no free invokes to spend on either side
    the attack is read at once."""
    state, conflict, pending = _attack_at(tracker, v, "defend")
    tid = pending["target"]
    await _require_owner(uow, game, state, tid, user_id)
    if skill not in DEFENCE_SKILLS:
        raise core.TrackerRefused(INACTIVE)
    sheet = await _sheet(uow, game, tid)
    defender = conflict.participant(tid)
    roll = await _roll(
        uow, tracker, slot="def", skill=sheet.skill(skill),
        modifier=fate.defence_bonus(conflict, tid), actor=user_name, subject=defender.name,
        user_id=user_id,
    )  # fmt: skip
    pending = {**pending, "stage": "invoke", "dskill": skill.value, "def": roll_to_json(roll)}
    state["pending"] = pending
    _log(
        state, N_("🛡 {name} defends ({skill}): {dice} → {total}"), name=defender.name,
        skill=skill.value, dice=roll.symbols, total=roll.total,
    )  # fmt: skip
    if not free_invokes_of(conflict, pending["actor"]) and not free_invokes_of(conflict, tid):
        return await _resolve(uow, game, tracker, state, conflict, user_id, t, "defend")
    return await _step(uow, tracker, state, user_id, "defend")


async def free_invoke(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    user_name: str, holder: str, zone: int, aspect: int, reroll: bool,
) -> TrackerDTO:  # fmt: skip
    """Spend a free invoke of the attacker or the defender on their own roll: +2 or a reroll
    (a new logged roll). The engine takes the invoke off the aspect (a boost is gone)."""
    state, conflict, pending = _attack_at(tracker, v, "invoke")
    side = {"a": ("actor", "atk"), "d": ("target", "def")}.get(holder)
    if side is None:
        raise core.TrackerRefused(INACTIVE)
    pid = pending[side[0]]
    await _require_owner(uow, game, state, pid, user_id)
    try:
        name = conflict.zones[zone].aspects[aspect].name
    except IndexError as error:
        raise core.TrackerRefused(INACTIVE) from error
    conflict = fate.use_free_invokes(conflict, zone, name, pid)
    roll = roll_from_json(pending[side[1]])
    who = conflict.participant(pid).name
    if reroll:
        again = await _roll(
            uow, tracker, slot="re", skill=roll.skill, modifier=roll.modifier,
            actor=user_name, subject=who, user_id=user_id,
        )  # fmt: skip
        roll = fate.reroll(roll, ScriptedSource(again.faces))
        line = N_("🔄 {name} invokes «{aspect}» (free): reroll {dice} → {total}")
    else:
        roll = fate.add_bonus(roll, 2)
        line = N_("✨ {name} invokes «{aspect}» (free): +2 → {total}")
    state["pending"] = {**pending, side[1]: roll_to_json(roll)}
    _put(state, conflict)
    _log(state, line, name=who, aspect=name, dice=roll.symbols, total=roll.total)
    return await _step(uow, tracker, state, user_id, "invoke")


def paid_invokes_left(
    pending: dict[str, Any], holder: str, sheet: fate.Character
) -> list[tuple[int, str]]:
    """(index, text) of the holder's own aspects not yet paid for on this roll, while the
    sheet has a fate point to pay with."""
    if sheet.fate_points < 1:
        return []
    paid = set(pending.get(f"paid_{holder}", []))
    return [(i, a.text) for i, a in enumerate(sheet.aspects) if i not in paid]


async def paid_invoke(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    holder: str, index: int,
) -> TrackerDTO:  # fmt: skip
    """The attacker or the defender invokes one of their own aspects for a fate point (+2),
    after any free invokes too; each aspect once per roll. The point goes through the ledger
    with this step's batch, so the GM's undo gives it back."""
    state, conflict, pending = _attack_at(tracker, v, "invoke")
    side = {"a": ("actor", "atk"), "d": ("target", "def")}.get(holder)
    if side is None:
        raise core.TrackerRefused(INACTIVE)
    pid = pending[side[0]]
    await _require_owner(uow, game, state, pid, user_id)
    sheet = await _sheet(uow, game, pid)
    offered = dict(paid_invokes_left(pending, holder, sheet))
    if index not in offered:
        raise core.TrackerRefused(INACTIVE)
    batch = await _write_sheets(
        uow, game, user_id, "fate.invoke", {pid: lambda c: fate.spend_fate_points(c, 1)}
    )
    roll = fate.add_bonus(roll_from_json(pending[side[1]]), 2)
    paid = [*pending.get(f"paid_{holder}", []), index]
    state["pending"] = {**pending, side[1]: roll_to_json(roll), f"paid_{holder}": paid}
    who = conflict.participant(pid).name
    _log(state, N_("💰 {name} invokes «{aspect}» for a fate point: +2 → {total}"),
         name=who, aspect=offered[index], total=roll.total)  # fmt: skip
    return await _step(uow, tracker, state, user_id, "invoke", batch=batch)


async def accept(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    t: Translator,
) -> TrackerDTO:  # fmt: skip
    """Either side (or the GM) is done invoking: the attack is read."""
    state, conflict, pending = _attack_at(tracker, v, "invoke")
    try:
        await _require_owner(uow, game, state, pending["actor"], user_id)
    except core.TrackerRefused:
        await _require_owner(uow, game, state, pending["target"], user_id)
    return await _resolve(uow, game, tracker, state, conflict, user_id, t, "accept")


async def _resolve(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, state: dict[str, Any],
    conflict: ConflictState, user_id: int, t: Translator, action: str,
) -> TrackerDTO:  # fmt: skip
    """Shifts, boosts and harm by the engine; a hit waits for the defender's choice."""
    pending = state["pending"]
    actor, tid = pending["actor"], pending["target"]
    atk, dfn = roll_from_json(pending["atk"]), roll_from_json(pending["def"])
    result = fate.opposed(Action.ATTACK, atk, dfn)
    defence = fate.opposed(Action.DEFEND, dfn, atk)
    attacker_sheet = await _sheet(uow, game, actor)
    defender_sheet = await _sheet(uow, game, tid)
    weapon = (
        attacker_sheet.equipment.melee
        if pending["skill"] == Skill.FIGHT.value
        else attacker_sheet.equipment.ranged
    )
    hit = fate.attack_harm(result, weapon=weapon, armor=defender_sheet.equipment.armor)
    attacker, defender = conflict.participant(actor), conflict.participant(tid)
    for gain, owner in ((fate.gain_of(result), attacker), (fate.gain_of(defence), defender)):
        if gain.boost and gain.beneficiary is fate.Beneficiary.ACTOR:
            conflict = _boost(conflict, owner, t)
    if hit > 0:
        _log(
            state, N_("{outcome}: {shifts} shifts, harm {hit}."),
            outcome=result.outcome.value, shifts=fate.signed(result.shifts), hit=hit,
        )  # fmt: skip
    else:  # «Ничья: сдвигов 0, урон 0.» said nothing twice
        _log(state, N_("{outcome}: no harm."), outcome=result.outcome.value)
    _put(state, conflict)
    if hit <= 0:
        state["pending"] = None
        _put(state, fate.act(conflict, actor))
        return await _step(uow, tracker, state, user_id, action)
    state["pending"] = {**pending, "stage": "absorb", "hit": hit}
    return await _step(uow, tracker, state, user_id, action)


def _boost(conflict: ConflictState, owner: Participant, t: Translator) -> ConflictState:
    boost = SceneAspect(
        name=t("Boost: {name}", name=owner.name)[:NAME_MAX], kind=AspectKind.BOOST,
        free_invokes={owner.id: 1},
    )  # fmt: skip
    return fate.add_aspect(conflict, owner.zone, boost)


async def absorb(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, code: str,
    t: Translator,
) -> TrackerDTO:  # fmt: skip
    """The defender takes the hit one of the engine's legal ways (box, consequences), is
    taken out, or concedes. Sheet changes go through the ledger in this step's batch."""
    state, conflict, pending = _attack_at(tracker, v, "absorb")
    actor, tid, hit = pending["actor"], pending["target"], int(pending["hit"])
    await _require_owner(uow, game, state, tid, user_id)
    defender = conflict.participant(tid)
    batch: str | None = None
    if code == CONCEDE_CODE:
        batch = await _write_sheets(
            uow, game, user_id, "fate.conflict.concede", {tid: _conceder(defender)}
        )
        conflict = fate.concede_conflict(conflict, tid)
        _log(state, N_("🏳 {name} concedes."), name=defender.name)
    else:
        sheet = await _sheet(uow, game, tid)
        option = next((o for o in offered_options(sheet, hit) if absorb_code(o) == code), None)
        if option is None:
            raise RuleViolation(msg("fate.harm.illegal_option"))
        if option.taken_out:
            conflict = fate.take_out(conflict, tid)
            _log(state, N_("✖️ {name} is taken out."), name=defender.name)
        else:
            text = consequence_name(t, pending, conflict)
            texts = {slot: text for slot in option.slots}

            def take(c: Any) -> Any:
                return fate.absorb(
                    c, hit, TrackKind.PHYSICAL, option, texts=texts,
                    conflict_id=str(tracker.id), inflicted_by=actor,
                )[0]  # fmt: skip

            batch = await _write_sheets(uow, game, user_id, "fate.conflict.absorb", {tid: take})
            for _slot in option.slots:
                conflict = fate.record_consequence(conflict, tid)
            _log(
                state, N_("🩸 {name} takes {hit}: {how}"), name=defender.name, hit=hit,
                how=absorb_code(option),
            )  # fmt: skip
    state["pending"] = None
    conflict = fate.act(conflict, actor)
    _put(state, conflict)
    if fate.is_over(conflict):
        _log(state, DECIDED)
    return await _step(uow, tracker, state, user_id, "absorb", batch=batch)


def _conceder(participant: Participant) -> Callable[[Any], Any]:
    def pay(c: Any) -> Any:
        return fate.concede(c, successful=True, consequences_taken=participant.consequences_taken)[
            0
        ]

    return pay


async def _write_sheets(
    uow: UnitOfWork, game: GameDTO, user_id: int, kind: str, changes: dict[str, Any]
) -> str:
    batch = ledger.new_batch()
    try:
        await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind=kind, batch=batch,
            changes={int(pid): fn for pid, fn in changes.items()},
        )  # fmt: skip
    except ledger.LedgerError as error:
        raise core.TrackerRefused(error.reason) from error
    return batch


# --- create an advantage ---------------------------------------------------------------------


def advantage_skills(sheet: fate.Character) -> list[Skill]:
    """The actor's best skills (ties in the seed's order), at least one offered."""
    ranked = sorted(Skill, key=lambda s: -sheet.skill(s))
    return ranked[:ADVANTAGE_SKILLS]


async def name_pending(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, user_id: int, text: str
) -> TrackerDTO:
    """A reply to the tracker names what is being made: the aspect of an advantage (by the
    actor's owner) or the consequence a hit is about to leave (by the defender's owner)."""
    state, conflict = _playing(tracker, tracker.version)
    pending = state.get("pending") or {}
    unnamed = state.get("unnamed")
    if not pending and unnamed:  # the advantage just made: its name now, in the flow
        await _require_owner(uow, game, state, unnamed["actor"], user_id)
        name = " ".join(text.split())[:NAME_MAX]
        if not name:
            raise core.TrackerRefused(INACTIVE)
        _put(state, _rename(conflict, unnamed, name))
        _log(state, N_("📌 The advantage is now «{aspect}»."), aspect=name)
        state["unnamed"] = None
        return await _step(uow, tracker, state, user_id, "name")
    if pending.get("kind") == ADVANTAGE:
        who, key = pending["actor"], "name"
    elif pending.get("kind") == ATTACK and pending.get("stage") == "absorb":
        who, key = pending["target"], "cname"
    else:
        raise core.TrackerRefused(INACTIVE)
    await _require_owner(uow, game, state, who, user_id)
    name = " ".join(text.split())[:NAME_MAX]
    if not name:
        raise core.TrackerRefused(INACTIVE)
    state["pending"] = {**pending, key: name}
    return await _step(uow, tracker, state, user_id, "name")


def _rename(conflict: ConflictState, unnamed: dict[str, Any], name: str) -> ConflictState:
    """The advantage made under its default name, named as the actor replied."""
    zi, old = int(unnamed["zone"]), str(unnamed["name"])
    zones = list(conflict.zones)
    if not 0 <= zi < len(zones):
        raise core.TrackerRefused(INACTIVE)
    aspects = list(zones[zi].aspects)
    index = next((i for i, a in enumerate(aspects) if a.name == old), None)
    if index is None:  # gone meanwhile (its invokes spent): nothing to name
        raise core.TrackerRefused(INACTIVE)
    aspects[index] = aspects[index].model_copy(update={"name": name})
    zones[zi] = zones[zi].model_copy(update={"aspects": tuple(aspects)})
    return conflict.model_copy(update={"zones": tuple(zones)})


def consequence_name(t: Translator, pending: dict[str, Any], conflict: ConflictState) -> str:
    """The defender's reply, else the attack's name (DECISION): «Рана: Бой (Ворг)»."""
    if pending.get("cname"):
        return str(pending["cname"])
    skill = msg(f"fate.skill.{pending['skill']}").render(t.locale)
    name = conflict.participant(pending["actor"]).name
    return t("Wound: {skill} ({name})", skill=skill, name=name)[:NAME_MAX]


def _advantage_at(
    tracker: TrackerDTO, v: int, stage: str
) -> tuple[dict[str, Any], ConflictState, dict[str, Any]]:
    """The conflict with an advantage pending at ``stage`` (refused otherwise)."""
    state, conflict = _playing(tracker, v)
    pending = state.get("pending") or {}
    if pending.get("kind") != ADVANTAGE or pending.get("stage") != stage:
        raise core.TrackerRefused(INACTIVE)
    return state, conflict, pending


async def _skilled_owner(
    uow: UnitOfWork, game: GameDTO, state: dict[str, Any], pid: str, user_id: int,
    skill: Skill, offered: Callable[[fate.Character], list[Skill]],
) -> fate.Character:  # fmt: skip
    """``pid``'s sheet, pressed by its owner (or the GM) with a skill its buttons offered."""
    await _require_owner(uow, game, state, pid, user_id)
    sheet = await _sheet(uow, game, pid)
    if skill not in offered(sheet):
        raise core.TrackerRefused(INACTIVE)
    return sheet


async def advantage_roll(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    user_name: str, skill: Skill, t: Translator,
) -> TrackerDTO:  # fmt: skip
    """Roll against the passive opposition (Неплохо (+2) unless the GM changed it): success
    puts the aspect in the actor's zone with 1 free invoke (2 with style), a tie gives a
    boost, a failure creates nothing. Against an active defender the roll waits for theirs
    (``advantage_oppose``)."""
    state, conflict, pending = _advantage_at(tracker, v, "skill")
    actor = pending["actor"]
    sheet = await _skilled_owner(uow, game, state, actor, user_id, skill, advantage_skills)
    who = conflict.participant(actor)
    roll = await _roll(
        uow, tracker, slot="adv", skill=sheet.skill(skill), modifier=0, actor=user_name,
        subject=who.name, user_id=user_id,
    )  # fmt: skip
    state["unnamed"] = None
    if pending.get("opp"):  # an active defender: they roll next
        opposer = conflict.participant(pending["opp"])
        _log(
            state,
            N_("✨ {name} creates an advantage ({skill}), {target} opposes: {dice} → {total}"),
            name=who.name, skill=skill.value, target=opposer.name, dice=roll.symbols,
            total=roll.total,
        )  # fmt: skip
        state["pending"] = {
            **pending, "stage": "oppose", "skill": skill.value, "atk": roll_to_json(roll)
        }  # fmt: skip
        return await _step(uow, tracker, state, user_id, "advantage")
    difficulty = int(pending.get("diff", ADVANTAGE_DIFFICULTY))
    result = fate.resolve(Action.ADVANTAGE_NEW, roll, difficulty)
    # The line names the opposition it was rolled against (issue 24 item 5).
    _log(
        state,
        N_("✨ {name} creates an advantage ({skill}) against {diff}: {dice} → {total}, {outcome}"),
        name=who.name, skill=skill.value, diff=difficulty, dice=roll.symbols, total=roll.total,
        outcome=result.outcome.value,
    )  # fmt: skip
    conflict = _advantage_made(state, conflict, pending, who, result, t)
    state["pending"] = None
    _put(state, fate.act(conflict, actor))
    return await _step(uow, tracker, state, user_id, "advantage")


def opposers(conflict: ConflictState, actor: str) -> list[str]:
    """Who may actively oppose the actor's advantage: the other sides' standing participants."""
    return targets(conflict, actor)


def opposition_skills(sheet: fate.Character) -> list[Skill]:
    """The defender's best skills and the defence skills (Атлетика, Бой, Внимательность)."""
    ranked = advantage_skills(sheet)
    return ranked + [s for s in DEFENCE_SKILLS if s not in ranked]


async def advantage_opposer(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, pid: int
) -> TrackerDTO:
    """Before the actor's roll: ``pid`` opposes the advantage actively (the GM, or that
    participant's owner, names them); ``0`` goes back to the passive opposition (the GM, or
    the named defender's owner)."""
    state, conflict, pending = _advantage_at(tracker, v, "skill")
    if pid:
        key = str(pid)
        if key not in opposers(conflict, pending["actor"]):
            raise core.TrackerRefused(INACTIVE)
    else:
        key = pending.get("opp") or ""
        if not key:
            raise core.TrackerRefused(INACTIVE)
    await _require_owner(uow, game, state, key, user_id)
    state["pending"] = {**pending, "opp": key if pid else None}
    return await _step(uow, tracker, state, user_id, "opposer")


async def advantage_oppose(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    user_name: str, skill: Skill, t: Translator,
) -> TrackerDTO:  # fmt: skip
    """The named defender rolls 4dF + ``skill`` (+2 in full defence) through the log; the
    engine reads the actor's roll against it and the advantage is made, or not."""
    state, conflict, pending = _advantage_at(tracker, v, "oppose")
    oid = pending["opp"]
    sheet = await _skilled_owner(uow, game, state, oid, user_id, skill, opposition_skills)
    opposer = conflict.participant(oid)
    dfn = await _roll(
        uow, tracker, slot="opp", skill=sheet.skill(skill),
        modifier=fate.defence_bonus(conflict, oid), actor=user_name, subject=opposer.name,
        user_id=user_id,
    )  # fmt: skip
    atk = roll_from_json(pending["atk"])
    result = fate.opposed(Action.ADVANTAGE_NEW, atk, dfn)
    defence = fate.opposed(Action.DEFEND, dfn, atk)
    _log(
        state, N_("🛡 {name} opposes ({skill}): {dice} → {total}"), name=opposer.name,
        skill=skill.value, dice=dfn.symbols, total=dfn.total,
    )  # fmt: skip
    _log(
        state, N_("{outcome}: {a} against {d}, {shifts} shifts."), outcome=result.outcome.value,
        a=atk.total, d=dfn.total, shifts=fate.signed(result.shifts),
    )  # fmt: skip
    who = conflict.participant(pending["actor"])
    conflict = _advantage_made(state, conflict, pending, who, result, t, opposer=opposer)
    gain = fate.gain_of(defence)
    if gain.boost and gain.beneficiary is fate.Beneficiary.ACTOR:  # a defence with style
        conflict = _boost(conflict, opposer, t)
        boost = t("Boost: {name}", name=opposer.name)[:NAME_MAX]
        _log(state, N_("🌀 {name} gets the boost «{aspect}» (one free invoke)."),
             name=opposer.name, aspect=boost)  # fmt: skip
    state["pending"] = None
    _put(state, fate.act(conflict, who.id))
    return await _step(uow, tracker, state, user_id, "advantage")


def _advantage_made(
    state: dict[str, Any], conflict: ConflictState, pending: dict[str, Any], who: Participant,
    result: fate.CheckResult, t: Translator, *, opposer: Participant | None = None,
) -> ConflictState:  # fmt: skip
    """What the engine's outcome makes: the aspect with the actor's free invokes (named now
    if it has the default name), a tie's boost, or — against an active defender — a failure's
    advantage for the defender."""
    gain = fate.gain_of(result)
    actor = who.id
    name = pending.get("name") or t("Advantage of {name}", name=who.name)[:NAME_MAX]
    state["unnamed"] = None
    if gain.beneficiary is fate.Beneficiary.ACTOR and gain.free_invokes:
        aspect = SceneAspect(name=name, free_invokes={actor: gain.free_invokes})
        conflict = fate.add_aspect(conflict, who.zone, aspect)
        _log(state, N_("📌 «{aspect}»: {n} free invoke(s) for {name}."), aspect=name,
             n=gain.free_invokes, name=who.name)  # fmt: skip
        if not pending.get("name"):  # made under the default name: the actor may name it now
            state["unnamed"] = {"actor": actor, "zone": who.zone, "name": name}
    elif gain.boost:
        conflict = _boost(conflict, who, t)
        boost = t("Boost: {name}", name=who.name)[:NAME_MAX]
        _log(state, N_("🌀 A tie: {name} gets the boost «{aspect}» (one free invoke)."),
             name=who.name, aspect=boost)  # fmt: skip
    elif gain.beneficiary is fate.Beneficiary.OPPONENT and opposer is not None:
        theirs = t("Advantage of {name}", name=opposer.name)[:NAME_MAX]
        aspect = SceneAspect(name=theirs, free_invokes={opposer.id: gain.free_invokes})
        conflict = fate.add_aspect(conflict, who.zone, aspect)
        _log(state, N_("📌 «{aspect}»: {n} free invoke(s) for {name}."), aspect=theirs,
             n=gain.free_invokes, name=opposer.name)  # fmt: skip
    return conflict


async def advantage_difficulty(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int, diff: int
) -> TrackerDTO:
    """The GM sets the passive opposition of the advantage being made (before its roll)."""
    await _require_gm(uow, game, user_id)
    state, _conflict = _playing(tracker, v)
    pending = state.get("pending") or {}
    if pending.get("kind") != ADVANTAGE or not MIN_DIFFICULTY <= diff <= MAX_DIFFICULTY:
        raise core.TrackerRefused(INACTIVE)
    state["pending"] = {**pending, "diff": diff}
    return await _step(uow, tracker, state, user_id, "difficulty")


# --- the end ---------------------------------------------------------------------------------


async def end(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, v: int, user_id: int,
    keep_stress: bool = False,
) -> TrackerDTO:  # fmt: skip
    """The GM ends it: situation aspects go, every participant's stress clears (the engine's
    ``end_conflict``/``clear_stress``) through the ledger; consequences stay. With
    ``keep_stress`` (conflicts that follow each other) every box stays marked and the GM clears
    the ones that should go on the resource panel. Allowed during the set-up too."""
    await _require_gm(uow, game, user_id)
    if tracker.version != v:
        raise core.TrackerRefused(core.STALE)
    state = dict(tracker.state)
    conflict = conflict_of(state)
    batch = None
    if conflict is not None:
        ended, _sheets_after, _changes = fate.end_conflict(conflict, {})
        if not keep_stress:
            batch = await _write_sheets(
                uow, game, user_id, "fate.conflict.end",
                {p.id: lambda c: fate.clear_stress(c)[0] for p in conflict.participants},
            )  # fmt: skip
        _put(state, ended)
    state["phase"] = "ended"
    state["pending"] = None
    if keep_stress:
        _log(state, N_("The conflict is over; stress stays marked (/res clears boxes)."))
    else:
        _log(state, N_("The conflict is over; stress is cleared."))
    return await _step(uow, tracker, state, user_id, "end", batch=batch, end=True)


# --- free invokes on a GM's roll request (issue 8) ---------------------------------------------


async def free_invokes_for_request(
    uow: UnitOfWork, request: RequestDTO
) -> tuple[TrackerDTO, str, list[tuple[int, int, str, int]]] | None:
    """The open conflict of the request's game, the player's character id in it, and the
    board's aspects on which that character holds free invokes (none: ``None``)."""
    game = await uow.games.get(request.game_id)
    if game is None or game.system != fate.SYSTEM_ID:
        return None
    tracker = await core.current(uow, game)
    if tracker is None or tracker.kind != KIND or tracker.state.get("phase") != "play":
        return None
    active = await uow.characters.active_of(game.id, request.target_user_id)
    conflict = conflict_of(tracker.state)
    if active is None or conflict is None:
        return None
    holder = str(active.id)
    if holder not in {p.id for p in conflict.participants}:
        return None
    found = free_invokes_of(conflict, holder)
    return (tracker, holder, found) if found else None


async def invoke_on_request(
    uow: UnitOfWork, *, request_id: int, chat_id: int, message_id: int, user_id: int,
    user_name: str, v: int, zone: int, aspect: int, mode: str,
) -> tuple[Invoked, TrackerDTO]:  # fmt: skip
    """Spend a free invoke the player's character holds on the conflict's board for +2 or a
    reroll on a rolled request card: a tracker step (the GM may undo it there) and no fate
    point. Raises ``RequestRefused``, ``TrackerRefused`` or ``EngineError``."""
    request = await uow.requests.get(request_id, for_update=True)
    request = on_card(request, chat_id=chat_id, message_id=message_id)
    if mode not in (BONUS, REROLL):
        raise RequestRefused(INACTIVE)
    if request.status != "rolled":
        raise RequestRefused(N_("Roll first, then invoke."))
    game = await uow.games.get(request.game_id)
    assert game is not None
    if user_id != request.target_user_id and not await is_gm(uow, game, user_id):
        raise RequestRefused(N_("This roll is for someone else."))
    found = await free_invokes_for_request(uow, request)
    if found is None:
        raise RequestRefused(INACTIVE)
    tracker, holder, _aspects = found
    tracker = await core.load(uow, tracker.id, chat_id=chat_id, kind=KIND)
    state, conflict = _playing(tracker, v)
    try:
        name = conflict.zones[zone].aspects[aspect].name
    except IndexError as error:
        raise core.TrackerRefused(INACTIVE) from error
    conflict = fate.use_free_invokes(conflict, zone, name, holder)
    _put(state, conflict)
    who = conflict.participant(holder).name
    _log(
        state, N_("✨ {name} spends a free invoke of «{aspect}» on a roll."), name=who, aspect=name
    )
    tracker = await _step(uow, tracker, state, user_id, "request_invoke")
    bonus, rerolls = request.bonus, request.rerolls
    if mode == BONUS:
        bonus += 2
    else:
        rerolls += 1
    invokes = [*request.invokes, {"aspect": -1, "text": name, "mode": mode, "free": True}]
    current = await invoke_service._current_roll(uow, request, rerolls, user_name)
    await uow.requests.record_invoke(
        request.id, bonus=bonus, rerolls=rerolls, invokes=invokes, roll_seq=current[1]
    )
    sheet = await _sheet(uow, game, holder)
    updated = await uow.requests.get(request.id)
    assert updated is not None
    return Invoked(updated, current[0], current[1], current[2], sheet.fate_points), tracker
