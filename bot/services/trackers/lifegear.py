"""lifegear fights in the chat (issue 10): fast combat against a monster and duels.

Both are one tracker each (``lifegear_combat``, ``lifegear_duel``) whose JSON state this module
owns. Every use case loads the tracker locked, checks the version the button was drawn for,
rolls through the verifiable log (roll id ``trk:<tracker>:<version>:<character>``) and feeds the
logged faces back into the engine (``fast_attack`` / ``judge_pvp``), changes sheets through the
ledger in one batch, and writes one step with that batch so the GM's undo reverts both. Nothing
here commits: the handler does, once.

Fast combat: each round every fighter rolls once (asynchronously, any order) against the
monster's defence; a total that reaches it defeats the monster, a shortfall is damage the
fighter absorbs by choosing items (armor first, as its description allows). A round ends when
everyone has rolled and taken their damage. With «Surprise round» on, round 1 is a surprise for
every fighter: only weapons already in hand (and armor) work. Abilities, Help and items that add
dice are offered before the roll (the role's default, «обычно — до»): a fighter who has any gets
the choice even with a single attack.

Damage is never taken by the bot (seed 001: «Вам предстоит выбрать, чего именно в снаряжении ваш
персонаж лишится»): the character's owner chooses armor and items and confirms. When nothing is
left to choose (every usable item must go) the choice is made ready and still waits for the
confirmation. The GM may choose for the player only once the pending damage's deadline has
passed (``LifegearOptions.damage_choice_hours``, 24 by default: play by post), or at once for a
character nobody owns.

Duel: both duellists roll each round; the higher roll deals exactly 1 damage (a tie deals none);
either duellist or the GM may stop it at any time (a stop before the loser has taken the damage
spares it: the winner controls the damage). The end of either resets once-per-fight armor and
ends temporary damage (``end_fight``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from bot.i18n import N_
from bot.services import ledger
from bot.services import rolls as roll_service
from bot.services.games import is_gm
from bot.services.resources import item_key
from bot.services.trackers import concurrent, core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.dice.source import ScriptedSource
from engine.systems import lifegear
from engine.systems.lifegear.attacks import (
    attack_plans,
    boost_items,
    forced_absorb,
    stored_outcome,
)

COMBAT: Final = "lifegear_combat"
DUEL: Final = "lifegear_duel"
KINDS: Final = (COMBAT, DUEL)
MAX_DEFENCE: Final = 100
NAME_MAX: Final = 60
LOG_KEPT: Final = 60  # entries kept in the state; the message shows as many as fit

Refused = core.TrackerRefused

_FIGHT_ARGS = re.compile(r"^(?P<name>.+?)\s+(?P<defence>\d{1,4})$", re.S)


@dataclass(frozen=True)
class Fighter:
    row: CharacterDTO
    sheet: lifegear.Character

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def name(self) -> str:
        return self.row.name


# --- reading ---------------------------------------------------------------------------------


def parse_fight(text: str | None) -> tuple[str, int] | None:
    """``/fight Тролль 12`` → ("Тролль", 12); None when it does not read so."""
    match = _FIGHT_ARGS.match((text or "").strip())
    if match is None:
        return None
    name = " ".join(match["name"].split())
    return name, int(match["defence"])


async def fighters(uow: UnitOfWork, game_id: int) -> dict[int, Fighter]:
    """The game's active lifegear characters and NPCs, by id (in creation order)."""
    found: dict[int, Fighter] = {}
    for row in await uow.characters.for_game(game_id, statuses=("active",)):
        if row.system != lifegear.SYSTEM_ID:
            continue
        sheet = SYSTEMS[lifegear.SYSTEM_ID].load(row.sheet, row.schema_version)
        assert isinstance(sheet, lifegear.Character)
        if sheet.monster is None:  # a monster NPC is fought (/fight Name), never a fighter
            found[row.id] = Fighter(row, sheet)
    return found


async def monster_npc(uow: UnitOfWork, game: GameDTO, text: str | None) -> tuple[str, int] | None:
    """``/fight Тролль`` naming a monster NPC (``/npc Тролль: защита 12``): its name and
    defence; None when no active monster NPC is called so."""
    wanted = " ".join((text or "").split()).casefold()
    for row in await uow.characters.for_game(game.id, statuses=("active",)):
        if row.system != lifegear.SYSTEM_ID or not row.is_npc or row.name.casefold() != wanted:
            continue
        sheet = SYSTEMS[lifegear.SYSTEM_ID].load(row.sheet, row.schema_version)
        if isinstance(sheet, lifegear.Character) and sheet.monster is not None:
            return row.name, sheet.monster.defence
    return None


async def monster_specials(uow: UnitOfWork, game: GameDTO, name: str) -> list[dict[str, Any]]:
    """The specials of the monster NPC called ``name`` (``до боя 2``: 2 damage to each fighter
    before the fight), as the fight shows them; the GM applies them (SPEC: «a monster field,
    applied by the GM»). Empty for a monster typed as ``/fight Тролль 12``."""
    wanted = name.casefold()
    for row in await uow.characters.for_game(game.id, statuses=("active",)):
        if row.system != lifegear.SYSTEM_ID or not row.is_npc or row.name.casefold() != wanted:
            continue
        sheet = SYSTEMS[lifegear.SYSTEM_ID].load(row.sheet, row.schema_version)
        if isinstance(sheet, lifegear.Character) and sheet.monster is not None:
            return [
                {"name": s.name, "timing": s.timing.value, "damage": s.damage}
                for s in sheet.monster.specials
            ]
    return []


def ids(state: dict[str, Any]) -> list[int]:
    return [int(i) for i in state.get("ids", [])]


def pending_of(state: dict[str, Any], cid: int) -> dict[str, Any] | None:
    return next((p for p in state.get("pending", []) if p["c"] == cid), None)


def alive(fighter: Fighter) -> bool:
    return lifegear.life_status(fighter.sheet) is lifegear.LifeStatus.ALIVE


def pvp(state: dict[str, Any]) -> lifegear.PvpFight | None:
    raw = state.get("pvp")
    return lifegear.PvpFight.model_validate(raw) if raw else None


def surprised(tracker: TrackerDTO, cid: int) -> bool:
    """Whether ``cid`` rolls under the surprise restrictions now (round 1 only)."""
    state = tracker.state
    if tracker.kind == DUEL:
        fight = pvp(state)
        return fight is not None and lifegear.is_surprised(fight, str(cid))
    return bool(state.get("surprise")) and state.get("round", 1) == 1


def plans(tracker: TrackerDTO, fighter: Fighter) -> tuple[lifegear.RollPlan, ...]:
    return attack_plans(fighter.sheet, surprised=surprised(tracker, fighter.id))


def boosts(tracker: TrackerDTO, fighter: Fighter) -> tuple[lifegear.Item, ...]:
    return boost_items(fighter.sheet, surprised=surprised(tracker, fighter.id))


def after_boosts(tracker: TrackerDTO, fighter: Fighter) -> tuple[lifegear.Item, ...]:
    """Items the fighter may still add to the roll that just missed (fast combat only, before
    any armor or item is chosen for the damage)."""
    pending = pending_of(tracker.state, fighter.id)
    if tracker.kind != COMBAT or pending is None or "roll" not in pending:
        return ()
    if pending["prot"] or pending["pick"]:
        return ()
    after = lifegear.UseTiming.AFTER
    return boost_items(fighter.sheet, surprised=surprised(tracker, fighter.id), timing=after)


def chosen_boosts(tracker: TrackerDTO, fighter: Fighter) -> list[str]:
    """The boosts the player marked for the next roll that can still be used."""
    marked = tracker.state.get("boosts", {}).get(str(fighter.id), [])
    usable = {item.id for item in boosts(tracker, fighter)}
    return [b for b in marked if b in usable]


def plan_key(plan: lifegear.RollPlan) -> str:
    return item_key(f"{plan.stat}|{plan.weapon or ''}")


def awaiting_roll(tracker: TrackerDTO, roster: dict[int, Fighter]) -> list[int]:
    """Who still has to roll in this round (none while the monster is down)."""
    state = tracker.state
    if not tracker.is_open or state.get("phase") != "fight":
        return []
    if tracker.kind == DUEL and state.get("pending"):
        return []  # the round's damage first
    done = {int(c) for c in state.get("rolled", [])}
    return [
        c
        for c in ids(state)
        if c in roster and c not in done and alive(roster[c]) and pending_of(state, c) is None
    ]


def options(fighter: Fighter, pending: dict[str, Any]) -> lifegear.DamageOptions:
    return lifegear.damage_options(fighter.sheet, pending["dmg"], protections=pending["prot"])


def now() -> datetime:
    return datetime.now(UTC)


def new_pending(game: GameDTO, cid: int, damage: int, at: datetime) -> dict[str, Any]:
    """Damage waiting for its owner's choice, with the time after which the GM may choose."""
    game_options = SYSTEMS[lifegear.SYSTEM_ID].options(game.options)
    assert isinstance(game_options, lifegear.LifegearOptions)
    due = at + timedelta(hours=game_options.damage_choice_hours)
    return {"c": cid, "dmg": damage, "prot": [], "pick": [], "due": due.isoformat()}


def due_of(pending: dict[str, Any]) -> datetime | None:
    """When the GM may choose for the player (None: a choice stored before deadlines)."""
    raw = pending.get("due")
    return datetime.fromisoformat(raw) if raw else None


# --- access ----------------------------------------------------------------------------------


async def _gm(uow: UnitOfWork, game: GameDTO, user_id: int) -> None:
    if not await is_gm(uow, game, user_id):
        raise Refused(N_("Only the GM can do that."))


async def _owner(uow: UnitOfWork, game: GameDTO, fighter: Fighter, user_id: int) -> None:
    if fighter.row.owner_user_id != user_id and not await is_gm(uow, game, user_id):
        raise Refused(N_("That is another player's character."))


async def _chooser(
    uow: UnitOfWork, game: GameDTO, fighter: Fighter, pending: dict[str, Any], user_id: int
) -> None:
    """Who chooses what a character loses: its owner; the GM once the deadline has passed (or
    at once for a character nobody owns)."""
    owner = fighter.row.owner_user_id
    if owner == user_id:
        return
    if not await is_gm(uow, game, user_id):
        raise Refused(N_("That is another player's character."))
    due = due_of(pending)
    if owner is not None and due is not None and now() < due:
        raise Refused(
            N_("The player chooses what the character loses; the GM may once the time is up.")
        )


async def _load(
    uow: UnitOfWork, tracker_id: int, chat_id: int, v: int, cid: int | None = None,
    *, toggle: bool = False,
) -> tuple[TrackerDTO, dict[str, Any]]:  # fmt: skip
    """The tracker at version ``v``; with ``cid`` (a fighter's own press) also at an older
    version if the steps since touched only others (both duellists rolling at once); a set-up
    ``toggle`` also at a recent older version (``concurrent.recent``: the GM's quick taps)."""
    tracker = await core.load(uow, tracker_id, chat_id=chat_id)
    if tracker.kind not in KINDS:
        raise Refused(N_("This tracker is not here."))
    if toggle and tracker.state.get("phase") == "setup":
        concurrent.recent(tracker, v)
    elif tracker.version != v:
        if cid is None:
            raise Refused(core.STALE)
        await concurrent.require_independent(uow, tracker, v, _own_slice(cid))
    return tracker, _copy(tracker.state)


def _own_slice(cid: int) -> Callable[[dict[str, Any]], Any]:
    """What a fighter's own press depends on: the phase, the round, the duel's round and
    pending damage, and the fighter's own roll, choice, boosts and damage."""

    def own(state: dict[str, Any]) -> Any:
        duel = state.get("pvp") or {}
        return (
            state.get("phase"), state.get("round"), duel.get("round"), duel.get("attacker"),
            bool(state.get("pending")) if duel else None, ids(state),
            cid in [int(c) for c in state.get("rolled", [])], pending_of(state, cid),
            cid in [int(c) for c in state.get("choosing", [])],
            state.get("boosts", {}).get(str(cid)), state.get("rolls", {}).get(str(cid)),
        )  # fmt: skip

    return own


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(state)


def _fighter(roster: dict[int, Fighter], state: dict[str, Any], cid: int) -> Fighter:
    if cid not in ids(state) or cid not in roster:
        raise Refused(N_("This button is no longer active."))
    return roster[cid]


async def _load_own(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, chat_id: int, v: int, user_id: int, cid: int
) -> tuple[TrackerDTO, dict[str, Any], dict[int, Fighter], Fighter]:
    """A press for fighter ``cid``: the tracker at version ``v``, a copy of its state, the
    roster and the fighter, refused unless the presser owns it (or is the GM)."""
    tracker, state = await _load(uow, tracker_id, chat_id, v, cid)
    roster = await fighters(uow, game.id)
    fighter = _fighter(roster, state, cid)
    await _owner(uow, game, fighter, user_id)
    return tracker, state, roster, fighter


def _log(state: dict[str, Any], entry: dict[str, Any]) -> None:
    log = state.setdefault("log", [])
    log.append(entry)
    del log[:-LOG_KEPT]


# --- opening and set-up ----------------------------------------------------------------------


async def open_combat(
    uow: UnitOfWork, game: GameDTO, *, user_id: int, monster: str, defence: int
) -> TrackerDTO:
    await _gm(uow, game, user_id)
    if not 0 <= defence <= MAX_DEFENCE:
        raise Refused(N_("The defence must be a number from 0 to 100."))
    roster = await fighters(uow, game.id)
    state: dict[str, Any] = {
        "phase": "setup",
        "monster": {
            "name": monster[:NAME_MAX],
            "defence": defence,
            "specials": await monster_specials(uow, game, monster),
        },
        "surprise": False,
        "ids": [c for c, f in roster.items() if not f.row.is_npc],
        "round": 1,
        "log": [],
    }
    return await core.open_tracker(uow, game, kind=COMBAT, state=state, actor_user_id=user_id)


async def open_duel(uow: UnitOfWork, game: GameDTO, *, user_id: int) -> TrackerDTO:
    await _gm(uow, game, user_id)
    state: dict[str, Any] = {"phase": "setup", "surprise": False, "ids": [], "log": []}
    return await core.open_tracker(uow, game, kind=DUEL, state=state, actor_user_id=user_id)


async def toggle(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int,
) -> TrackerDTO:  # fmt: skip
    """Set-up: the GM toggles a participant (``cid``) or, with ``cid`` 0, the surprise round."""
    tracker, state = await _load(uow, tracker_id, chat_id, v, toggle=True)
    await _gm(uow, game, user_id)
    if state.get("phase") != "setup":
        raise Refused(N_("This button is no longer active."))
    if cid == 0 and tracker.kind == DUEL:
        # An ambush: off → the attacker (chosen first) picks duel rules for round 1 → fast.
        if not state.get("surprise"):
            state.update(surprise=True, first_round=lifegear.CombatMode.DUEL.value)
        elif state.get("first_round") == lifegear.CombatMode.DUEL.value:
            state["first_round"] = lifegear.CombatMode.FAST.value
        else:
            state.update(surprise=False, first_round=lifegear.CombatMode.DUEL.value)
    elif cid == 0:
        state["surprise"] = not state.get("surprise")
    else:
        roster = await fighters(uow, game.id)
        if cid not in roster:
            raise Refused(N_("This button is no longer active."))
        chosen = ids(state)
        if cid in chosen:
            chosen.remove(cid)
        elif tracker.kind == DUEL and len(chosen) >= 2:
            raise Refused(N_("A duel is between two characters."))
        else:
            chosen.append(cid)
        state["ids"] = chosen
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id, action="toggle",
        state=state,
    )  # fmt: skip


async def start(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int
) -> TrackerDTO:
    tracker, state = await _load(uow, tracker_id, chat_id, v)
    await _gm(uow, game, user_id)
    if state.get("phase") != "setup":
        raise Refused(N_("This button is no longer active."))
    roster = await fighters(uow, game.id)
    chosen = [c for c in ids(state) if c in roster]
    if tracker.kind == DUEL:
        if len(chosen) != 2:
            raise Refused(N_("Choose exactly two duellists."))
        first = lifegear.CombatMode(state.get("first_round", lifegear.CombatMode.DUEL.value))
        fight = lifegear.start_pvp(
            str(chosen[0]), str(chosen[1]), surprise=state["surprise"], first_round=first
        )
        state["pvp"] = fight.model_dump(mode="json")
        state["rolls"] = {}
    elif not chosen:
        raise Refused(N_("Choose who takes part."))
    state.update(phase="fight", ids=chosen, round=1, rolled=[], choosing=[], pending=[])
    _log(state, {"k": "start", "surprise": bool(state.get("surprise"))})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="start", state=state
    )


# --- rolling ---------------------------------------------------------------------------------


async def choose(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    user_name: str, cid: int,
) -> TrackerDTO:  # fmt: skip
    """«🎲 Name»: one possible attack and nothing to add rolls at once; otherwise the
    character's choice opens — attacks, and abilities, Help and items to add before the roll
    (a second press closes it)."""
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    if cid not in awaiting_roll(tracker, roster):
        raise Refused(N_("This button is no longer active."))
    offered = plans(tracker, fighter)
    if len(offered) == 1 and not boosts(tracker, fighter):
        return await _roll(
            uow, game, tracker, state, roster, fighter, offered[0], user_id, user_name
        )
    if not offered:
        raise Refused(N_("This character has no stat to roll."))
    choosing = [int(c) for c in state.get("choosing", [])]
    state["choosing"] = [c for c in choosing if c != cid] if cid in choosing else [*choosing, cid]
    return await core.step(
        uow,
        tracker,
        expected_version=tracker.version,
        actor_user_id=user_id,
        action="choose",
        state=state,
    )


async def roll(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    user_name: str, cid: int, option: int, key: str,
) -> TrackerDTO:  # fmt: skip
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    if cid not in awaiting_roll(tracker, roster):
        raise Refused(N_("This button is no longer active."))
    offered = plans(tracker, fighter)
    if not 0 <= option < len(offered) or plan_key(offered[option]) != key:
        raise Refused(N_("This button is no longer active."))
    return await _roll(
        uow, game, tracker, state, roster, fighter, offered[option], user_id, user_name
    )


async def boost(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int, index: int, key: str,
) -> TrackerDTO:  # fmt: skip
    """Mark (or unmark) an ability, Help or item to add its dice to the next roll; it is spent
    only when the roll is made."""
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    gear = fighter.sheet.gear
    if cid not in awaiting_roll(tracker, roster) or not 0 <= index < len(gear):
        raise Refused(N_("This button is no longer active."))
    item = gear[index]
    if item_key(item.id) != key or item not in boosts(tracker, fighter):
        raise Refused(N_("This button is no longer active."))
    marked = chosen_boosts(tracker, fighter)
    marked = [b for b in marked if b != item.id] if item.id in marked else [*marked, item.id]
    state.setdefault("boosts", {})[str(cid)] = marked
    return await core.step(
        uow,
        tracker,
        expected_version=tracker.version,
        actor_user_id=user_id,
        action="boost",
        state=state,
    )


def plan_label(fighter: Fighter, plan: lifegear.RollPlan) -> str:
    """«Лук · Стрельба + Предчувствие»: what the roll used, as the sheet names it."""
    label = plan.stat
    if plan.weapon is not None:
        label = f"{lifegear.find_item(fighter.sheet, plan.weapon).name} · {plan.stat}"
    for item_id in plan.boosts:
        label += f" + {lifegear.find_item(fighter.sheet, item_id).name}"
    return label


async def _roll(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, state: dict[str, Any],
    roster: dict[int, Fighter], fighter: Fighter, plan: lifegear.RollPlan, user_id: int,
    user_name: str,
) -> TrackerDTO:  # fmt: skip
    is_surprised = surprised(tracker, fighter.id)
    plan = lifegear.RollPlan(plan.stat, plan.weapon, tuple(chosen_boosts(tracker, fighter)))
    expr, _ = lifegear.roll_expression(fighter.sheet, plan, surprised=is_surprised)
    notation = expr.render()
    defence = state["monster"]["defence"] if tracker.kind == COMBAT else None
    logged = await roll_service.roll_logged(
        uow, chat_id=tracker.chat_id, roll_id=f"trk:{tracker.id}:{tracker.version}:{fighter.id}",
        text=notation, actor=user_name, subject=fighter.name, actor_user_id=user_id,
        outcome=f"vs {defence}" if defence is not None else None, commit=False,
    )  # fmt: skip
    faces = logged.result.faces
    _, rolled = lifegear.roll(fighter.sheet, plan, ScriptedSource(faces), surprised=is_surprised)
    state["choosing"] = [c for c in state.get("choosing", []) if c != fighter.id]
    state.get("boosts", {}).pop(str(fighter.id), None)
    batch = ledger.new_batch()
    spent = False
    if plan.boosts:
        # The boosts are spent per their rules: the engine's own roll, on the locked sheet,
        # with the same logged faces.
        def use(sheet: SheetModel) -> SheetModel:
            assert isinstance(sheet, lifegear.Character)
            source = ScriptedSource(faces)
            return lifegear.roll(sheet, plan, source, surprised=is_surprised)[0]

        try:
            changed = await ledger.change_sheets(
                uow, game=game, actor_user_id=user_id, kind="lifegear.boost",
                changes={fighter.id: use}, batch=batch,
            )  # fmt: skip
        except ledger.LedgerError as error:
            raise Refused(error.reason) from error
        if changed:
            after = changed[0].after
            assert isinstance(after, lifegear.Character)
            roster[fighter.id] = fighter = Fighter(fighter.row, after)
            spent = True
    entry: dict[str, Any] = {
        "k": "roll", "who": fighter.name, "what": plan_label(fighter, plan),
        "not": rolled.notation, "faces": list(rolled.faces), "total": rolled.total,
    }  # fmt: skip
    if tracker.kind == COMBAT:
        judged = lifegear.judge_fast(rolled, int(defence or 0))
        entry.update(dmg=judged.damage, hit=judged.defeated)
        _log(state, entry)
        state["rolled"] = [*state.get("rolled", []), fighter.id]
        if judged.defeated:
            state["phase"] = "won"
            state["winner"] = fighter.id
        else:
            stored = {
                "stat": plan.stat, "weapon": plan.weapon, "boosts": list(plan.boosts),
                "not": rolled.notation, "faces": list(rolled.faces), "total": rolled.total,
            }  # fmt: skip
            pending = new_pending(game, fighter.id, judged.damage, now())
            state.setdefault("pending", []).append({**pending, "roll": stored})
    else:
        _log(state, entry)
        _duel_roll(game, state, fighter, plan, rolled, roster)
    return await _settle_and_step(
        uow, game, tracker, state, roster, v=tracker.version, user_id=user_id, action="roll",
        batch=batch, keep_batch=spent,
    )  # fmt: skip


def _duel_roll(
    game: GameDTO, state: dict[str, Any], fighter: Fighter, plan: lifegear.RollPlan,
    rolled: lifegear.RollOutcome, roster: dict[int, Fighter],
) -> None:  # fmt: skip
    rolls: dict[str, Any] = state.setdefault("rolls", {})
    rolls[str(fighter.id)] = {
        "stat": plan.stat, "weapon": plan.weapon, "not": rolled.notation,
        "faces": list(rolled.faces), "total": rolled.total,
    }  # fmt: skip
    state["rolled"] = [*state.get("rolled", []), fighter.id]
    fight = pvp(state)
    assert fight is not None
    if len(rolls) < 2:
        return
    a, d = (
        stored_outcome(
            name,
            lifegear.RollPlan(r["stat"], r["weapon"]),
            notation=r["not"],
            faces=r["faces"],
            total=r["total"],
        )
        for name, r in ((n, rolls[n]) for n in (fight.attacker, fight.defender))
    )
    outcome = lifegear.judge_pvp(fight.round, lifegear.round_mode(fight), a, d)
    fight = fight.model_copy(
        update={"round": fight.round + 1, "last_winner": outcome.winner or ""}
    )
    state["pvp"] = fight.model_dump(mode="json")
    state["rolls"] = {}
    state["rolled"] = []
    winner = int(outcome.winner) if outcome.winner else None
    loser = int(outcome.loser) if outcome.loser else None
    _log(
        state,
        {
            "k": "duel",
            "w": roster[winner].name if winner in roster else None,
            "l": roster[loser].name if loser in roster else None,
            "dmg": outcome.damage,
        },
    )
    if loser is not None and outcome.damage:
        state.setdefault("pending", []).append(new_pending(game, loser, outcome.damage, now()))


async def add_after(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    user_name: str, cid: int, index: int, key: str,
) -> TrackerDTO:  # fmt: skip
    """Fast combat: add an item used after the result (its rules say so) to the roll that
    missed: its dice are rolled now and the roll is judged again against the defence."""
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    gear = fighter.sheet.gear
    offered = after_boosts(tracker, fighter)
    if offered:
        await _chooser(uow, game, fighter, pending_of(state, cid) or {}, user_id)
    if not 0 <= index < len(gear) or item_key(gear[index].id) != key or gear[index] not in offered:
        raise Refused(N_("This button is no longer active."))
    item = gear[index]
    pending = pending_of(state, cid)
    assert pending is not None
    stored = pending["roll"]
    plan = lifegear.RollPlan(stored["stat"], stored["weapon"], tuple(stored["boosts"]))
    previous = stored_outcome(
        fighter.name, plan, notation=stored["not"], faces=stored["faces"],
        total=stored["total"], used=stored["boosts"],
    )  # fmt: skip
    logged = await roll_service.roll_logged(
        uow, chat_id=tracker.chat_id, roll_id=f"trk:{tracker.id}:{tracker.version}:{cid}",
        text=lifegear.parse_dice(item.dice).render(), actor=user_name, subject=fighter.name,
        actor_user_id=user_id, commit=False,
    )  # fmt: skip
    faces = logged.result.faces
    is_surprised = surprised(tracker, cid)

    def use(sheet: SheetModel) -> SheetModel:
        assert isinstance(sheet, lifegear.Character)
        source = ScriptedSource(faces)
        return lifegear.boost_after(sheet, previous, item.id, source, surprised=is_surprised)[0]

    _, rolled = lifegear.boost_after(
        fighter.sheet, previous, item.id, ScriptedSource(faces), surprised=is_surprised
    )
    batch = ledger.new_batch()
    try:
        changed = await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind="lifegear.boost",
            changes={cid: use}, batch=batch,
        )  # fmt: skip
    except ledger.LedgerError as error:
        raise Refused(error.reason) from error
    if changed:
        after = changed[0].after
        assert isinstance(after, lifegear.Character)
        roster[cid] = Fighter(fighter.row, after)
    judged = lifegear.judge_fast(rolled, int(state["monster"]["defence"]))
    _log(
        state,
        {
            "k": "after", "who": fighter.name, "item": item.name, "not": rolled.notation,
            "faces": list(faces), "total": rolled.total, "dmg": judged.damage,
            "hit": judged.defeated,
        },
    )  # fmt: skip
    if judged.defeated:
        state["pending"] = [p for p in state["pending"] if p["c"] != cid]
        if state.get("phase") == "fight":
            state["phase"] = "won"
            state["winner"] = cid
    else:
        pending["dmg"] = judged.damage
        stored.update({"not": rolled.notation, "faces": list(rolled.faces), "total": rolled.total})
        stored["boosts"] = [*stored["boosts"], item.id]
    return await _settle_and_step(
        uow, game, tracker, state, roster, v=tracker.version, user_id=user_id, action="after",
        batch=batch, keep_batch=True,
    )  # fmt: skip


async def extra_damage(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int,
) -> TrackerDTO:  # fmt: skip
    """The GM's ruling, e.g. a monster's special («дополнительный урон до или после»): with
    ``cid`` 0 the GM's buttons open or close; otherwise ``cid`` takes 1 more damage, to be
    absorbed like any other (a choice already begun starts again)."""
    tracker, state = await _load(uow, tracker_id, chat_id, v)
    await _gm(uow, game, user_id)
    if state.get("phase") not in ("fight", "won"):
        raise Refused(N_("This button is no longer active."))
    if cid == 0:
        state["extra"] = not state.get("extra")
    else:
        roster = await fighters(uow, game.id)
        fighter = _fighter(roster, state, cid)
        pending = pending_of(state, cid)
        if pending is None:
            state.setdefault("pending", []).append(new_pending(game, cid, 1, now()))
        else:
            pending.update(dmg=pending["dmg"] + 1, prot=[], pick=[])
        _log(state, {"k": "extra", "who": fighter.name})
        _prepare(state, roster)
        _advance(tracker.kind, state, roster)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="extra", state=state
    )


# --- taking damage ---------------------------------------------------------------------------


async def protect(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int, index: int, key: str,
) -> TrackerDTO:  # fmt: skip
    """Use (or take back, before the damage is taken) armor against the pending damage."""

    def change(fighter: Fighter, pending: dict[str, Any], item: lifegear.Item) -> None:
        if item.id in pending["prot"]:
            pending["prot"] = [p for p in pending["prot"] if p != item.id]
        else:
            offered = {p.item_id for p in options(fighter, pending).protections}
            if item.id not in offered:
                raise Refused(N_("This button is no longer active."))
            pending["prot"] = [*pending["prot"], item.id]
        pending["pick"] = []

    return await _damage_step(uow, game, chat_id, tracker_id, v, user_id, cid, index, key, change)


async def pick(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int, index: int, key: str,
) -> TrackerDTO:  # fmt: skip
    """Choose (or unchoose) an item to lose to the pending damage."""

    def change(fighter: Fighter, pending: dict[str, Any], item: lifegear.Item) -> None:
        opts = options(fighter, pending)
        if item.id in pending["pick"]:
            pending["pick"] = [p for p in pending["pick"] if p != item.id]
        elif item.id in opts.candidates and len(pending["pick"]) < opts.must_choose:
            pending["pick"] = [*pending["pick"], item.id]
        else:
            raise Refused(N_("Enough items are chosen: take one back first."))

    return await _damage_step(uow, game, chat_id, tracker_id, v, user_id, cid, index, key, change)


async def take(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int,
) -> TrackerDTO:  # fmt: skip
    """Take the pending damage with the chosen armor and items (through the ledger)."""
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    pending = pending_of(state, cid)
    if pending is None:
        raise Refused(N_("This button is no longer active."))
    await _chooser(uow, game, fighter, pending, user_id)
    if len(pending["pick"]) != options(fighter, pending).must_choose:
        raise Refused(N_("Choose the items first."))
    batch = ledger.new_batch()
    await _apply(uow, game, state, roster, pending, user_id, batch)
    return await _settle_and_step(
        uow, game, tracker, state, roster, v=tracker.version, user_id=user_id, action="take",
        batch=batch, keep_batch=True,
    )  # fmt: skip


async def _damage_step(
    uow: UnitOfWork, game: GameDTO, chat_id: int, tracker_id: int, v: int, user_id: int,
    cid: int, index: int, key: str,
    change: Callable[[Fighter, dict[str, Any], lifegear.Item], None],
) -> TrackerDTO:  # fmt: skip
    tracker, state, roster, fighter = await _load_own(
        uow, game, tracker_id, chat_id, v, user_id, cid
    )
    pending = pending_of(state, cid)
    gear = fighter.sheet.gear
    if pending is None or not 0 <= index < len(gear) or item_key(gear[index].id) != key:
        raise Refused(N_("This button is no longer active."))
    await _chooser(uow, game, fighter, pending, user_id)
    change(fighter, pending, gear[index])
    batch = ledger.new_batch()
    return await _settle_and_step(
        uow,
        game,
        tracker,
        state,
        roster,
        v=tracker.version,
        user_id=user_id,
        action="absorb",
        batch=batch,
    )


async def _apply(
    uow: UnitOfWork, game: GameDTO, state: dict[str, Any], roster: dict[int, Fighter],
    pending: dict[str, Any], user_id: int, batch: str,
) -> None:  # fmt: skip
    fighter = roster[pending["c"]]
    taken: list[lifegear.DamageOutcome] = []

    def mutate(sheet: SheetModel) -> SheetModel:
        assert isinstance(sheet, lifegear.Character)
        after, outcome = lifegear.take_damage(
            sheet, pending["dmg"], absorb=pending["pick"], protections=pending["prot"]
        )
        taken.append(outcome)
        return after

    try:
        changed = await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind="lifegear.damage",
            changes={fighter.id: mutate}, batch=batch,
        )  # fmt: skip
    except ledger.LedgerError as error:
        raise Refused(error.reason) from error
    if changed:
        after = changed[0].after
        assert isinstance(after, lifegear.Character)
        roster[fighter.id] = Fighter(fighter.row, after)
    outcome = taken[0]
    names = {item.id: item.name for item in fighter.sheet.gear}
    _log(
        state,
        {
            "k": "took", "who": fighter.name, "dmg": outcome.damage,
            "prot": [names[p.item_id] for p in outcome.protections],
            "lost": [names[i] for i in outcome.absorbed_by],
            "unabs": outcome.unabsorbed, "temp": outcome.temporary,
            "lives": [outcome.lives_before, outcome.lives_after],
            "dying": outcome.status is not lifegear.LifeStatus.ALIVE,
        },
    )  # fmt: skip
    state["pending"] = [p for p in state["pending"] if p["c"] != fighter.id]


def _prepare(state: dict[str, Any], roster: dict[int, Fighter]) -> None:
    """Make ready the choice of every pending damage that leaves none (no armor to use, and
    all usable items must go); the player still confirms it — the bot never takes damage."""
    for pending in state.get("pending", []):
        fighter = roster.get(pending["c"])
        if fighter is None or pending["pick"] or _may_add_after(state, fighter, pending):
            continue
        forced = forced_absorb(options(fighter, pending))
        if forced:
            pending["pick"] = list(forced)


def _may_add_after(state: dict[str, Any], fighter: Fighter, pending: dict[str, Any]) -> bool:
    if "roll" not in pending or pending["prot"] or pending["pick"]:
        return False
    is_surprised = bool(state.get("surprise")) and state.get("round", 1) == 1
    after = lifegear.UseTiming.AFTER
    return bool(boost_items(fighter.sheet, surprised=is_surprised, timing=after))


async def _settle_and_step(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, state: dict[str, Any],
    roster: dict[int, Fighter], *, v: int, user_id: int, action: str, batch: str,
    keep_batch: bool = False,
) -> TrackerDTO:  # fmt: skip
    """Make ready the choices that leave none, move the fight on and write the step; the step
    carries ``batch`` (for the GM's undo) when, ``keep_batch``, a sheet changed before."""
    _prepare(state, roster)
    _advance(tracker.kind, state, roster)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action=action, state=state,
        batch=batch if keep_batch else None,
    )  # fmt: skip


def _advance(kind: str, state: dict[str, Any], roster: dict[int, Fighter]) -> None:
    """Fast combat: when everyone able has rolled and taken their damage, the next round."""
    if kind != COMBAT or state.get("phase") != "fight" or state.get("pending"):
        return
    done = {int(c) for c in state.get("rolled", [])}
    able = [c for c in ids(state) if c in roster and alive(roster[c])]
    if able and all(c in done for c in able):
        state["round"] = state.get("round", 1) + 1
        state["rolled"] = []
        _log(state, {"k": "round", "n": state["round"]})


# --- the end ---------------------------------------------------------------------------------


async def end(
    uow: UnitOfWork, game: GameDTO, *, chat_id: int, tracker_id: int, v: int, user_id: int
) -> TrackerDTO:
    """«End» (the GM) or, in a duel, «Stop» (either duellist or the GM): once-per-fight armor
    is ready again and temporary damage ends if the monster fell (or the duel stopped)."""
    tracker, state = await _load(uow, tracker_id, chat_id, v)
    if not await may_stop(uow, game, tracker, user_id):
        await _gm(uow, game, user_id)
    return await _close(uow, game, tracker, state, user_id=user_id)


async def may_stop(uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, user_id: int) -> bool:
    """Whether ``user_id`` plays one of a duel's duellists: either may «Stop» it (the GM may
    end any fight)."""
    if tracker.kind != DUEL:
        return False
    roster = await fighters(uow, game.id)
    chosen = [c for c in ids(tracker.state) if c in roster]
    return any(roster[c].row.owner_user_id == user_id for c in chosen)


async def yield_duel(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, character_id: int, *, user_id: int
) -> TrackerDTO:
    """A duellist the GM takes out of a started duel (``/leave``) yields: the duel ends as
    «Stop» ends it, and the tracker says who yielded. A duel is two duellists; the seed lets
    them stop before either is killed («могут остановиться раньше, чем убьют соперника»)."""
    roster = await fighters(uow, game.id)
    state = _copy(tracker.state)
    name = roster[character_id].name if character_id in roster else "?"
    state["yielded"] = name
    _log(state, {"k": "yield", "who": name})
    return await _close(uow, game, tracker, state, user_id=user_id, action="leave")


async def _close(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, state: dict[str, Any], *, user_id: int,
    action: str = "end",
) -> TrackerDTO:  # fmt: skip
    roster = await fighters(uow, game.id)
    chosen = [c for c in ids(state) if c in roster]
    v = tracker.version
    batch = ledger.new_batch()
    changed: list[ledger.Changed] = []
    if state.get("phase") != "setup":
        defeated = tracker.kind == DUEL or state.get("winner") is not None
        changes = {c: _end_fight(defeated) for c in chosen}
        changed = await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind="lifegear.fight_end", changes=changes,
            batch=batch,
        )  # fmt: skip
    spared = [roster[p["c"]].name for p in state.get("pending", []) if p["c"] in roster]
    called_off = state.get("phase") == "setup"
    state.update(phase="over", pending=[], choosing=[], spared=spared, called_off=called_off)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action=action, state=state,
        batch=batch if changed else None, end=True,
    )  # fmt: skip


def _end_fight(defeated: bool) -> Callable[[SheetModel], SheetModel]:
    def mutate(sheet: SheetModel) -> SheetModel:
        assert isinstance(sheet, lifegear.Character)
        return lifegear.end_fight(sheet, monster_defeated=defeated)[0]

    return mutate
