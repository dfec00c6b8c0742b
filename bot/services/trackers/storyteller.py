"""Storyteller scene (issue 10): a set-up phase (who takes part), initiative, turns in order,
action rolls from the sheet, health levels and Willpower through the ledger, extended actions
that gather successes on their actor's turns, and the end with a summary.

The state is plain JSON in ``trackers.state`` (ids, numbers, and a log of structured events the
view renders in the chat's language). Rules come from ``engine.systems.storyteller``; rolls go
through the verifiable log with ids ``trk:<tracker>:<version>:<slot>``, and their logged faces
are fed back into the engine. Every function checks the version the button was drawn for,
then who pressed, then the rule — all before any write; the caller commits once.
"""

from __future__ import annotations

from typing import Any, Final

from bot.i18n import N_
from bot.services import ledger
from bot.services.games import is_gm
from bot.services.rolls import roll_logged
from bot.services.trackers import concurrent, core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems import storyteller as st
from engine.systems.storyteller import ActionStatus, Attribute, DamageKind, ExtendedAction
from engine.systems.storyteller.soak import soak_dice, soak_faces, soak_notation
from engine.text import msg

KIND: Final = "storyteller_scene"
MAX_PARTICIPANTS: Final = 40  # set-up toggles stay under Telegram's 100 buttons
LOG_KEPT: Final = 60  # events kept in the state; the view clips to the message size anyway
ATTRIBUTES: Final = tuple(Attribute)
DIFFICULTIES: Final = tuple(range(3, 11))
TARGETS: Final = (3, 4, 5, 6, 7, 8, 10, 12, 15, 20)

GM_ONLY: Final = N_("Only the GM can do that.")
NOT_YOURS: Final = N_("It is not your character's turn.")
SETUP_OVER: Final = N_("The scene has already started.")
NOT_STARTED: Final = N_("The scene has not started yet.")
NOBODY: Final = N_("Choose at least one participant first.")
NOT_HERE: Final = N_("That character is not in this scene.")
NOTHING_TO_HEAL: Final = N_("There is no damage of that kind to heal.")
NO_EXTENDED: Final = N_("There is no extended action for this character.")
HAS_EXTENDED: Final = N_("This character already has an extended action going.")
ROLLED_THIS_TURN: Final = N_("The extended action has already been rolled this turn.")
BAD_CHOICE: Final = N_("This button is no longer active.")


# --- reading the state -----------------------------------------------------------------------


def _key(cid: int) -> str:
    return str(cid)


def actor_id(state: dict[str, Any]) -> int | None:
    """Whose turn it is (None in the set-up phase)."""
    order: list[int] = state.get("order", [])
    if state.get("phase") != "turns" or not order:
        return None
    cid: int = order[state["turn"] % len(order)]
    return cid


def load_sheet(row: CharacterDTO) -> st.Character:
    sheet = SYSTEMS[st.SYSTEM_ID].load(row.sheet, row.schema_version)
    assert isinstance(sheet, st.Character)
    return sheet


async def sheets(uow: UnitOfWork, ids: list[int]) -> dict[int, tuple[CharacterDTO, st.Character]]:
    """The participants' rows and sheets (those still in the game)."""
    found: dict[int, tuple[CharacterDTO, st.Character]] = {}
    for cid in ids:
        row = await uow.characters.get(cid)
        if row is not None and row.system == st.SYSTEM_ID:
            found[cid] = (row, load_sheet(row))
    return found


def _log(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["log"] = [*state.get("log", []), event][-LOG_KEPT:]


def _copy(tracker: TrackerDTO) -> dict[str, Any]:
    # A deep enough copy: every nested value we change is replaced, never mutated in place.
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
            for k, v in tracker.state.items()}  # fmt: skip


# --- permissions -----------------------------------------------------------------------------


async def _require_gm(uow: UnitOfWork, game: GameDTO, user_id: int) -> None:
    if not await is_gm(uow, game, user_id):
        raise core.TrackerRefused(GM_ONLY)


async def may_act_for(uow: UnitOfWork, game: GameDTO, row: CharacterDTO, user_id: int) -> bool:
    """A player acts for their own character; the GM for NPCs and characters with no owner."""
    if row.owner_user_id == user_id and not row.is_npc:
        return True
    if row.is_npc or row.owner_user_id is None:
        return await is_gm(uow, game, user_id)
    return False


async def _load(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, toggle: bool = False
) -> TrackerDTO:
    """The tracker at version ``v``; a set-up ``toggle`` also at a recent older version
    (``concurrent.recent``: the GM's quick taps each apply)."""
    tracker = await core.load(uow, tracker_id, chat_id=chat_id, kind=KIND)
    if tracker.game_id != game.id:
        raise core.TrackerRefused(N_("This tracker is not here."))
    if toggle and tracker.state.get("phase") == "setup":
        concurrent.recent(tracker, v)
    elif tracker.version != v:
        raise core.TrackerRefused(core.STALE)
    return tracker


async def _gm_load(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    toggle: bool = False,
) -> tuple[TrackerDTO, dict[str, Any]]:  # fmt: skip
    """A GM's step: the tracker at version ``v`` (refused to anyone else) and a copy of its
    state to change."""
    tracker = await _load(uow, game, tracker_id, chat_id=chat_id, v=v, toggle=toggle)
    await _require_gm(uow, game, user_id)
    return tracker, _copy(tracker)


def _turns(state: dict[str, Any]) -> None:
    if state.get("phase") != "turns":
        raise core.TrackerRefused(NOT_STARTED)


async def check_view(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    mode: str,
) -> TrackerDTO:  # fmt: skip
    """May this user open a chooser (``mode``: r roll, x extended, h health, e end; empty:
    back to the main buttons, anyone) now?"""
    tracker = await _load(uow, game, tracker_id, chat_id=chat_id, v=v)
    if mode == "r":
        _turns(tracker.state)
        await _require_actor(uow, game, tracker.state, user_id)
    elif mode:
        await _require_gm(uow, game, user_id)
        if mode in ("x", "h"):
            _turns(tracker.state)
    return tracker


async def _require_actor(
    uow: UnitOfWork, game: GameDTO, state: dict[str, Any], user_id: int
) -> tuple[CharacterDTO, st.Character]:
    cid = actor_id(state)
    found = await sheets(uow, [cid]) if cid is not None else {}
    if cid is None or cid not in found:
        raise core.TrackerRefused(NOT_HERE)
    row, sheet = found[cid]
    if not await may_act_for(uow, game, row, user_id):
        raise core.TrackerRefused(NOT_YOURS)
    return row, sheet


# --- set-up ----------------------------------------------------------------------------------


async def open_scene(
    uow: UnitOfWork, game: GameDTO, *, actor_user_id: int, fight: bool
) -> TrackerDTO:
    """Open the scene in its set-up phase with every active character and NPC chosen."""
    rows = [
        r for r in await uow.characters.for_game(game.id, statuses=("active",))
        if r.system == st.SYSTEM_ID
    ]  # fmt: skip
    rows = rows[:MAX_PARTICIPANTS]
    ids = [r.id for r in rows]
    state: dict[str, Any] = {
        "phase": "setup", "fight": fight, "pool": ids, "chosen": ids,
        "names": {_key(r.id): r.name for r in rows},
        "npc": [r.id for r in rows if r.is_npc],
        "order": [], "init": {}, "round": 0, "turn": 0, "ext": {}, "done": [], "log": [],
    }  # fmt: skip
    return await core.open_tracker(uow, game, kind=KIND, state=state, actor_user_id=actor_user_id)


async def toggle(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    character_id: int,
) -> TrackerDTO:  # fmt: skip
    tracker, state = await _gm_load(
        uow, game, tracker_id, chat_id=chat_id, v=v, user_id=user_id, toggle=True
    )
    if state["phase"] != "setup":
        raise core.TrackerRefused(SETUP_OVER)
    if character_id not in state["pool"]:
        raise core.TrackerRefused(NOT_HERE)
    chosen: list[int] = state["chosen"]
    state["chosen"] = (
        [c for c in chosen if c != character_id]
        if character_id in chosen
        else [c for c in state["pool"] if c in chosen or c == character_id]
    )
    return await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id, action="toggle",
        state=state,
    )  # fmt: skip


async def start(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    user_name: str,
) -> TrackerDTO:  # fmt: skip
    """Roll everyone's initiative (logged, one slot each) and begin round 1."""
    tracker, state = await _gm_load(uow, game, tracker_id, chat_id=chat_id, v=v, user_id=user_id)
    if state["phase"] != "setup":
        raise core.TrackerRefused(SETUP_OVER)
    found = {
        cid: entry
        for cid, entry in (await sheets(uow, state["chosen"])).items()
        if entry[0].status == "active"  # retired since the scene opened: left out
    }
    if not found:
        raise core.TrackerRefused(NOBODY)
    entries: list[tuple[int, st.Initiative]] = []
    for slot, (cid, (row, sheet)) in enumerate(found.items()):
        rating = st.initiative_rating(sheet)
        faces: tuple[int, ...] = ()
        if rating is not None:
            logged = await roll_logged(
                uow, chat_id=chat_id, roll_id=f"trk:{tracker.id}:{v}:{slot}",
                text=st.initiative_notation(rating), actor=user_name, subject=row.name,
                actor_user_id=user_id, commit=False,
            )  # fmt: skip
            faces = logged.result.faces
        entries.append((cid, st.roll_initiative(sheet, ScriptedSource(faces))))
    order = st.initiative_order(entries)
    state.update(
        phase="turns", order=order, round=1, turn=0, chosen=list(found),
        names={**state["names"], **{_key(c): row.name for c, (row, _s) in found.items()}},
        init={_key(c): [i.rating, i.die, i.total] for c, i in entries},
    )  # fmt: skip
    _log(state, {"e": "start", "order": order})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="start", state=state
    )


# --- turns -----------------------------------------------------------------------------------


async def next_turn(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int
) -> TrackerDTO:
    """Pass the turn (the actor's owner or the GM); skips those who cannot act, and after the
    last in order a new round begins."""
    tracker = await _load(uow, game, tracker_id, chat_id=chat_id, v=v)
    state = _copy(tracker)
    _turns(state)
    if not await is_gm(uow, game, user_id):
        await _require_actor(uow, game, state, user_id)
    order: list[int] = state["order"]
    found = await sheets(uow, order)
    turn, rnd = state["turn"], state["round"]
    for _ in range(len(order)):
        turn += 1
        if turn >= len(order):
            turn, rnd = 0, rnd + 1
        entry = found.get(order[turn])
        if entry is not None and not st.is_incapacitated(entry[1].health):
            break
    state.update(turn=turn, round=rnd)
    _log(state, {"e": "next", "round": rnd, "who": order[turn]})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="next", state=state
    )


def _ability_key(sheet: st.Character, index: int) -> str | None:
    if index == -1:
        return None
    if not 0 <= index < len(sheet.abilities):
        raise core.TrackerRefused(BAD_CHOICE)
    return sheet.abilities[index].key


def _attribute(index: int) -> Attribute:
    if not 0 <= index < len(ATTRIBUTES):
        raise core.TrackerRefused(BAD_CHOICE)
    return ATTRIBUTES[index]


def _dice(sheet: st.Character, attribute: Attribute, ability: str | None) -> int:
    spec = st.build_pool(sheet, attribute, ability)  # raises when incapacitated
    if spec.total > st.MAX_POOL:
        raise RuleViolation(
            msg("storyteller.roll.too_many_dice", dice=spec.total, limit=st.MAX_POOL)
        )
    return spec.total


async def _faces(
    uow: UnitOfWork, tracker: TrackerDTO, *, v: int, dice: int, difficulty: int,
    user_id: int, user_name: str, subject: str,
) -> tuple[int, ...]:  # fmt: skip
    if dice <= 0:
        return ()  # no roll: an automatic failure (the engine's rule for a pool ≤ 0)
    logged = await roll_logged(
        uow, chat_id=tracker.chat_id, roll_id=f"trk:{tracker.id}:{v}:0",
        text=st.pool_notation(dice, difficulty), actor=user_name, subject=subject,
        actor_user_id=user_id, commit=False,
    )  # fmt: skip
    return logged.result.faces


async def roll(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    user_name: str, attribute: int, ability: int, difficulty: int, willpower: bool,
) -> TrackerDTO:  # fmt: skip
    """The actor's action roll: attribute + ability from the sheet (wounds apply) against a
    difficulty; Willpower, if spent, is one ledger point and one success the 1s cannot cancel."""
    tracker = await _load(uow, game, tracker_id, chat_id=chat_id, v=v)
    state = _copy(tracker)
    _turns(state)
    row, sheet = await _require_actor(uow, game, state, user_id)
    attr = _attribute(attribute)
    ability_key = _ability_key(sheet, ability)
    if difficulty not in DIFFICULTIES:
        raise core.TrackerRefused(BAD_CHOICE)
    dice = _dice(sheet, attr, ability_key)
    batch = None
    if willpower:
        st.spend_willpower(sheet)  # refuses before any write when the pool is empty
        batch = ledger.new_batch()
        await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind="storyteller.willpower.spend",
            changes={row.id: _spend_willpower}, reason=f"tracker {tracker.id}", batch=batch,
        )  # fmt: skip
    faces = await _faces(
        uow, tracker, v=v, dice=dice, difficulty=difficulty, user_id=user_id,
        user_name=user_name, subject=row.name,
    )  # fmt: skip
    result = st.evaluate(faces, difficulty, willpower=willpower, dice=max(0, dice))
    _log(state, {
        "e": "roll", "who": row.id, "attr": attr.value, "ab": ability_key, "dice": dice,
        "d": difficulty, "faces": list(faces), "wp": willpower, "net": result.net,
    })  # fmt: skip
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="roll", state=state,
        batch=batch,
    )  # fmt: skip


def _spend_willpower(sheet: Any) -> Any:
    return st.spend_willpower(sheet)[0]


# --- health ----------------------------------------------------------------------------------

HEALTH_OPS: Final = {
    "b": (False, DamageKind.BASHING), "l": (False, DamageKind.LETHAL),
    "a": (False, DamageKind.AGGRAVATED), "hb": (True, DamageKind.BASHING),
    "hl": (True, DamageKind.LETHAL), "ha": (True, DamageKind.AGGRAVATED),
}  # fmt: skip


SOAK_AMOUNTS: Final = (1, 2, 3, 4)


async def health(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    user_name: str, character_id: int, op: str,
) -> TrackerDTO:  # fmt: skip
    """The GM marks one level of damage or heals one, or marks ``n`` levels of bashing after
    the character's soak roll (op ``s<n>``) — the engine's health track, via the ledger, so
    the GM's undo reverts the sheet too."""
    tracker, state = await _gm_load(uow, game, tracker_id, chat_id=chat_id, v=v, user_id=user_id)
    _turns(state)
    soak_amount = int(op[1:]) if op[:1] == "s" and op[1:].isdigit() else 0
    if character_id not in state["order"] or (
        op not in HEALTH_OPS and soak_amount not in SOAK_AMOUNTS
    ):
        raise core.TrackerRefused(NOT_HERE)
    found = await sheets(uow, [character_id])
    if character_id not in found:
        raise core.TrackerRefused(NOT_HERE)
    row, sheet = found[character_id]
    track = sheet.health
    event: dict[str, Any] = {"who": character_id}
    if soak_amount:
        kind = DamageKind.BASHING
        dice = soak_dice(sheet, kind)
        faces: tuple[int, ...] = ()
        if dice > 0:
            logged = await roll_logged(
                uow, chat_id=chat_id, roll_id=f"trk:{tracker.id}:{v}:0",
                text=soak_notation(dice), actor=user_name, subject=row.name,
                actor_user_id=user_id, commit=False,
            )  # fmt: skip
            faces = logged.result.faces
        soaked = soak_faces(track, kind, soak_amount, faces)
        after, died = soaked.track, bool(soaked.outcome and soaked.outcome.died)
        event.update(e="soak", n=soak_amount, faces=list(faces), soaked=soaked.soaked)
        action = "soak"
    else:
        healing, kind = HEALTH_OPS[op]
        if healing:
            after, outcome = st.heal(track, kind, 1)  # refuses a dead character
            if outcome.amount == 0:
                raise core.TrackerRefused(NOTHING_TO_HEAL)
        else:
            after, outcome = st.apply_damage(track, kind, 1)
        died = outcome.died
        event["e"] = action = "heal" if healing else "hurt"

    def mutate(sheet: Any) -> Any:
        return sheet.model_copy(update={"health": after})

    batch = None
    if after != track:
        batch = ledger.new_batch()
        await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id,
            kind="storyteller.health.heal" if action == "heal" else "storyteller.health.damage",
            changes={character_id: mutate}, reason=f"tracker {tracker.id}", batch=batch,
        )  # fmt: skip
    level = st.current_level(after)
    event.update(
        kind=kind.value, level="dead" if after.dead else (level.key if level else "healthy"),
        died=died,
    )  # fmt: skip
    _log(state, event)
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action=action, state=state,
        batch=batch,
    )  # fmt: skip


# --- extended actions ------------------------------------------------------------------------


def extended_of(state: dict[str, Any], cid: int) -> dict[str, Any] | None:
    found: dict[str, Any] | None = state.get("ext", {}).get(_key(cid))
    return found


def extended_action(entry: dict[str, Any]) -> ExtendedAction:
    return ExtendedAction.model_validate(entry["action"])


async def start_extended(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    attribute: int, ability: int, difficulty: int, target: int,
) -> TrackerDTO:  # fmt: skip
    """The GM sets an extended action for the current actor: its pool, difficulty and the
    successes needed; the actor rolls it on their turns."""
    tracker, state = await _gm_load(uow, game, tracker_id, chat_id=chat_id, v=v, user_id=user_id)
    _turns(state)
    cid = actor_id(state)
    found = await sheets(uow, [cid]) if cid is not None else {}
    if cid is None or cid not in found:
        raise core.TrackerRefused(NOT_HERE)
    if extended_of(state, cid) is not None:
        raise core.TrackerRefused(HAS_EXTENDED)
    sheet = found[cid][1]
    attr = _attribute(attribute)
    ability_key = _ability_key(sheet, ability)
    if difficulty not in DIFFICULTIES or target not in TARGETS:
        raise core.TrackerRefused(BAD_CHOICE)
    action = st.start_extended(target, difficulty=difficulty)
    state["ext"] = {**state["ext"], _key(cid): {
        "attr": attr.value, "ab": ability_key, "rolled": None,
        "action": action.model_dump(mode="json"),
    }}  # fmt: skip
    _log(state, {"e": "xstart", "who": cid, "attr": attr.value, "ab": ability_key,
                 "d": difficulty, "target": target})  # fmt: skip
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="extended", state=state
    )


def can_roll_extended(state: dict[str, Any], cid: int) -> bool:
    entry = extended_of(state, cid)
    return entry is not None and entry["rolled"] != state.get("round")


async def roll_extended(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int,
    user_name: str,
) -> TrackerDTO:  # fmt: skip
    """The actor's roll for their extended action, once per turn (engine's extended.py: a
    botch wipes the tally; reaching the target ends it)."""
    tracker = await _load(uow, game, tracker_id, chat_id=chat_id, v=v)
    state = _copy(tracker)
    _turns(state)
    row, sheet = await _require_actor(uow, game, state, user_id)
    entry = extended_of(state, row.id)
    if entry is None:
        raise core.TrackerRefused(NO_EXTENDED)
    if not can_roll_extended(state, row.id):
        raise core.TrackerRefused(ROLLED_THIS_TURN)
    action = extended_action(entry)
    dice = _dice(sheet, Attribute(entry["attr"]), entry["ab"])
    faces = await _faces(
        uow, tracker, v=v, dice=dice, difficulty=action.difficulty, user_id=user_id,
        user_name=user_name, subject=row.name,
    )  # fmt: skip
    action, step_ = st.roll_extended(action, dice, ScriptedSource(faces))
    _log(state, {
        "e": "xroll", "who": row.id, "dice": dice, "d": action.difficulty, "faces": list(faces),
        "gained": step_.gained, "lost": step_.lost, "acc": step_.accumulated,
        "target": action.target, "status": step_.status.value,
    })  # fmt: skip
    ext = dict(state["ext"])
    if step_.status is ActionStatus.ACTIVE:
        ext[_key(row.id)] = {**entry, "rolled": state["round"], "action": action.model_dump(
            mode="json")}  # fmt: skip
    else:
        del ext[_key(row.id)]
        state["done"] = [*state["done"], {
            "who": row.id, "attr": entry["attr"], "ab": entry["ab"], "acc": action.accumulated,
            "target": action.target, "status": action.status.value, "turns": action.turn,
        }]  # fmt: skip
    state["ext"] = ext
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="extended_roll",
        state=state,
    )  # fmt: skip


# --- the end ---------------------------------------------------------------------------------


async def end(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, v: int, user_id: int
) -> TrackerDTO:
    """The GM ends the scene; extended actions still going are abandoned."""
    tracker, state = await _gm_load(uow, game, tracker_id, chat_id=chat_id, v=v, user_id=user_id)
    for key, entry in state.get("ext", {}).items():
        action = st.abandon_extended(extended_action(entry))
        state["done"] = [*state["done"], {
            "who": int(key), "attr": entry["attr"], "ab": entry["ab"], "acc": action.accumulated,
            "target": action.target, "status": action.status.value, "turns": action.turn,
        }]  # fmt: skip
    state["ext"] = {}
    state["ended_phase"] = state["phase"]
    state["phase"] = "ended"
    _log(state, {"e": "end"})
    return await core.step(
        uow, tracker, expected_version=v, actor_user_id=user_id, action="end", state=state,
        end=True,
    )  # fmt: skip
