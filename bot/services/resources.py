"""Resource changes from the panel: one press, one ledger action, one commit.

Every operation is a small frozen value (``FatePoints(delta=-1)``); ``apply`` checks who pressed
(the character's owner or a GM of the game) and that the character is an active one of this
chat's game, then hands the engine's own rule to ``ledger.change_sheets`` (which locks the row,
applies the rule, writes and records) and commits once. The engine's refusals
(``EngineError``) propagate untouched so the handler can show them in the user's language.

Matter states applied here are applied by the GM's ruling, without a resistance roll
(``resist=False``). Every one of the 23 states is offered: a state whose rules still roll at once
(Регенерация on a wounded character) rolls through the verifiable roll log first
(``roll_state``), and the ledger's operation replays the logged faces on the locked sheet.
Health changes by one (a point of damage or of healing) through the engine's own
``apply_damage`` and ``heal``, against the effective max Health the states leave.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, TypeAlias

from bot.i18n import N_
from bot.services import ledger, names
from bot.services.games import is_gm
from bot.services.rolls import roll_logged
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.ledger import LedgerDTO
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.fate import AbsorbOption, Nature, SlotId, StressMarks, TrackKind
from engine.systems.lifegear import ItemState
from engine.systems.matter import STATES, EventKind, StateId
from engine.systems.matter.logged import Done, run_logged
from engine.text import msg

TEXT_MAX: Final = 200  # a consequence's aspect
PANEL_STATES: Final[tuple[StateId, ...]] = tuple(StateId)  # all 23, in the seed's order
CLEARABLE_TRACKS: Final = (TrackKind.PHYSICAL, TrackKind.MENTAL, TrackKind.MAGICAL)
_NATURE_TRACK: Final = {
    Nature.PHYSICAL: TrackKind.PHYSICAL,
    Nature.MENTAL: TrackKind.MENTAL,
    Nature.MAGICAL: TrackKind.MAGICAL,
}
_TYPED_SLOT_NATURE: Final = {
    SlotId.MILD_PHYSICAL: Nature.PHYSICAL,
    SlotId.MILD_MENTAL: Nature.MENTAL,
}


class Refused(Exception):
    """A press that changes nothing; ``reason`` is a msgid."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PoolName(StrEnum):
    WILLPOWER = "willpower"
    GLAMOUR = "glamour"


# --- operations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FatePoints:
    delta: int  # -1 spend, +1 gain


@dataclass(frozen=True)
class Stress:
    track: TrackKind
    box: int
    mark: bool


@dataclass(frozen=True)
class TakeConsequence:
    slot: SlotId
    nature: Nature
    text: str


@dataclass(frozen=True)
class ClearConsequence:
    slot: SlotId


@dataclass(frozen=True)
class Pool:
    trait: PoolName
    delta: int


@dataclass(frozen=True)
class ClicheDice:
    index: int
    key: str  # ``item_key`` of the cliché's name: a stale panel never hits another cliché
    delta: int


@dataclass(frozen=True)
class GearState:
    index: int
    key: str  # ``item_key`` of the item's id
    state: ItemState


@dataclass(frozen=True)
class MatterState:
    state: StateId
    on: bool
    # The faces of the rolls the rules make when the state is applied, as logged (one tuple per
    # roll, in order); filled by ``roll_state`` before the ledger replays them.
    faces: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class MatterHealth:
    delta: int  # -1: one point of damage, +1: one point healed


Op: TypeAlias = (
    FatePoints
    | Stress
    | TakeConsequence
    | ClearConsequence
    | Pool
    | ClicheDice
    | GearState
    | MatterState
    | MatterHealth
)


@dataclass(frozen=True)
class Applied:
    character: CharacterDTO  # as stored after the press
    op: Op
    before: SheetModel
    after: SheetModel
    changed: bool
    note: str | None = None  # msgid: why the engine left the sheet as it was


def item_key(text: str) -> str:
    """A short fingerprint of a name or id, carried next to its index in callback data."""
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


# --- access ----------------------------------------------------------------------------------


async def character_for_command(
    uow: UnitOfWork, game: GameDTO, user_id: int, name: str | None
) -> CharacterDTO | names.NotFound | names.Ambiguous | None:
    """``/res name``: that active (or retired: to read) character of the game, or why the
    name named none; ``/res``: the sender's own (``None`` when they have none)."""
    if name and name.strip():
        shown = await uow.characters.for_game(game.id, statuses=("active", "retired"))
        result = names.resolve(shown, name)
        return result.character if isinstance(result, names.Found) else result
    return await uow.characters.active_of(game.id, user_id)


async def active_names(uow: UnitOfWork, game: GameDTO) -> list[str]:
    return [c.name for c in await uow.characters.for_game(game.id, statuses=("active",))]


async def viewable(uow: UnitOfWork, game: GameDTO, character_id: int) -> CharacterDTO:
    """An active character of this chat's game (anything else: forged or stale)."""
    found = await uow.characters.get(character_id)
    if found is None or found.game_id != game.id or found.status != "active":
        raise Refused(N_("This button is no longer active."))
    if found.system != game.system:
        raise Refused(N_("This button is no longer active."))
    return found


async def changeable(
    uow: UnitOfWork, game: GameDTO, character_id: int, user_id: int
) -> CharacterDTO:
    """As ``viewable``, and the presser is its owner or a GM of the game."""
    found = await viewable(uow, game, character_id)
    if found.owner_user_id != user_id and not await is_gm(uow, game, user_id):
        raise Refused(N_("Only the character's owner or the GM can change this."))
    return found


def load(character: CharacterDTO) -> SheetModel:
    return SYSTEMS[character.system].load(character.sheet, character.schema_version)


# --- rules: each operation as the engine's own function ----------------------------------------

Mutation: TypeAlias = Callable[[Any], Any]
Notes: TypeAlias = list[str]


def _fate_points(op: FatePoints, notes: Notes) -> tuple[str, str, Mutation]:
    if op.delta == -1:
        return "fate", "fate.fp.spend", lambda c: fate.spend_fate_points(c, 1)
    if op.delta == 1:
        return "fate", "fate.fp.gain", lambda c: fate.gain_fate_points(c, 1)
    raise Refused(N_("This button is no longer active."))


def _stress(op: Stress, notes: Notes) -> tuple[str, str, Mutation]:
    if op.mark:
        # Marking one box is absorbing a hit of its value with that box alone (the engine's
        # harm rule checks that the box exists and is free). The accumulator takes magic hits.
        hit_track = TrackKind.MAGICAL if op.track is TrackKind.ACCUMULATOR else op.track
        option = AbsorbOption(op.track, op.box, (), op.box, True)
        return "fate", "fate.stress.mark", lambda c: fate.absorb(c, op.box, hit_track, option)[0]
    if op.track not in CLEARABLE_TRACKS:
        # The accumulator is an artifact: it recharges at a significant milestone only.
        raise Refused(N_("This button is no longer active."))

    def clear(c: fate.Character) -> fate.Character:
        keep = StressMarks(**{t.value: c.stress.of(t) for t in CLEARABLE_TRACKS})
        keep = keep.with_marks(op.track, tuple(v for v in c.stress.of(op.track) if v != op.box))
        return fate.clear_stress(c, keep=keep)[0]

    return "fate", "fate.stress.clear", clear


def consequence_natures(slot: SlotId) -> tuple[Nature, ...]:
    """The natures a consequence in ``slot`` may have (typed mild slots have one)."""
    typed = _TYPED_SLOT_NATURE.get(slot)
    return (typed,) if typed else tuple(Nature)


def _take(op: TakeConsequence, notes: Notes) -> tuple[str, str, Mutation]:
    if op.slot is SlotId.EXTREME or op.nature not in consequence_natures(op.slot):
        raise Refused(N_("This button is no longer active."))
    value = fate.slot_value(op.slot)
    option = AbsorbOption(None, None, (op.slot,), value, True)
    track = _NATURE_TRACK[op.nature]
    texts: dict[SlotId, str] = {op.slot: op.text}

    def take(c: fate.Character) -> fate.Character:
        return fate.absorb(c, value, track, option, texts=texts, nature=op.nature)[0]

    return "fate", "fate.consequence.take", take


def _clear_consequence(op: ClearConsequence, notes: Notes) -> tuple[str, str, Mutation]:
    # The engine clears consequences only at milestones; the GM's ruling from the panel takes
    # one off now (refused with the engine's own words when the slot is empty).
    def clear(c: fate.Character) -> fate.Character:
        if not any(x.slot is op.slot for x in c.consequences):
            raise RuleViolation(msg("fate.heal.no_consequence"))
        kept = tuple(x for x in c.consequences if x.slot is not op.slot)
        return c.model_copy(update={"consequences": kept})

    return "fate", "fate.consequence.clear", clear


def _pool(op: Pool, notes: Notes) -> tuple[str, str, Mutation]:
    if op.delta == -1:
        spend = (
            storyteller.spend_willpower
            if op.trait is PoolName.WILLPOWER
            else storyteller.spend_glamour
        )
        return "storyteller", f"storyteller.{op.trait.value}.spend", lambda c: spend(c, 1)[0]
    if op.delta == 1:

        def regain(c: storyteller.Character) -> storyteller.Character:
            after, change = storyteller.regain(c, op.trait.value, 1)
            if change.before == change.after:
                notes.append(N_("Already full."))
            return after

        return "storyteller", f"storyteller.{op.trait.value}.regain", regain
    raise Refused(N_("This button is no longer active."))


def _cliche_at(character: cliche.Character, index: int, key: str) -> cliche.Cliche:
    if not 0 <= index < len(character.cliches) or item_key(character.cliches[index].name) != key:
        raise Refused(N_("The sheet changed meanwhile; open the panel again."))
    return character.cliches[index]


def _cliche(op: ClicheDice, notes: Notes) -> tuple[str, str, Mutation]:
    if op.delta not in (-1, 1):
        raise Refused(N_("This button is no longer active."))

    def change(c: cliche.Character) -> cliche.Character:
        item = _cliche_at(c, op.index, op.key)
        if op.delta < 0:
            new, lost = cliche.lose_dice(item, 1)
            if not lost:
                notes.append(N_("No dice left to lose."))
        else:
            # The engine's recovery, one die, for this cliché only (armor counts as repaired:
            # the GM pressed the button).
            alone = c.model_copy(update={"cliches": (item,)})
            options = cliche.ClicheOptions(recovery_dice=1)
            new = cliche.recover(alone, options, repair_armor=True)[0].cliches[0]
            if new == item:
                notes.append(N_("No lost dice to restore."))
        items = (*c.cliches[: op.index], new, *c.cliches[op.index + 1 :])
        return c.model_copy(update={"cliches": items})

    kind = "cliche.dice.lose" if op.delta < 0 else "cliche.dice.restore"
    return "cliche", kind, change


def _gear_at(character: lifegear.Character, index: int, key: str) -> lifegear.Item:
    if not 0 <= index < len(character.gear) or item_key(character.gear[index].id) != key:
        raise Refused(N_("The sheet changed meanwhile; open the panel again."))
    return character.gear[index]


def _gear(op: GearState, notes: Notes) -> tuple[str, str, Mutation]:
    def change(c: lifegear.Character) -> lifegear.Character:
        item = _gear_at(c, op.index, op.key)
        if op.state is ItemState.READY and item.state in (ItemState.BROKEN, ItemState.LOST):
            return lifegear.repair_item(c, item.id)
        if op.state is ItemState.BROKEN and not item.kind.material:
            raise Refused(N_("Only weapons, armor and things can break."))
        return lifegear.set_state(c, item.id, op.state)

    if op.state is ItemState.LOST:
        raise Refused(N_("This button is no longer active."))
    kinds = {ItemState.SPENT: "spent", ItemState.BROKEN: "broken", ItemState.READY: "ready"}
    return "lifegear", f"lifegear.item.{kinds[op.state]}", change


class _NoDice:
    """A rule that needs no dice: a roll here would be a bug, refused in plain words."""

    def randint(self, low: int, high: int) -> int:
        raise Refused(N_("This needs a roll; ask the GM for a roll request."))


def _state_operation(
    sheet: matter.Character, state: StateId
) -> Callable[[Any], tuple[matter.Character, matter.ApplyOutcome]]:
    # The GM's ruling: no resistance roll (resist=False); side rolls (Регенерация) still roll.
    return lambda source: matter.apply_state(sheet, state, source, resist=False)


_MATTER_NOTES: Final = {
    EventKind.IMMUNE: N_("Immune to this state: nothing changed."),
    EventKind.ALREADY_ACTIVE: N_("Already in this state."),
    EventKind.REPLACED: N_("Crippled already: unconscious at once, no new state."),
}


def _matter(op: MatterState, notes: Notes) -> tuple[str, str, Mutation]:
    if not op.on:
        return "matter", "matter.state.remove", lambda c: matter.remove_state(c, op.state)[0]
    if op.state not in PANEL_STATES:
        raise Refused(N_("This button is no longer active."))

    def apply(c: matter.Character) -> matter.Character:
        found = run_logged(_state_operation(c, op.state), lambda r: r[1].events, op.faces)
        if not isinstance(found, Done):
            # The locked sheet needs other rolls than the ones logged for the panel's sheet.
            raise Refused(N_("The sheet changed meanwhile; open the panel again."))
        after, outcome = found.result
        if not outcome.applied:
            notes.append(_MATTER_NOTES.get(outcome.result, N_("Nothing changed.")))
        return after

    return "matter", "matter.state.apply", apply


def _matter_health(op: MatterHealth, notes: Notes) -> tuple[str, str, Mutation]:
    if op.delta == -1:
        # Damage never rolls (Тяжело ранен at Health 0 comes without a resistance roll).
        return "matter", "matter.health.damage", lambda c: matter.apply_damage(c, 1, _NoDice())[0]
    if op.delta != 1:
        raise Refused(N_("This button is no longer active."))

    def heal(c: matter.Character) -> matter.Character:
        after, _ = matter.heal(c, 1)
        if after.health == c.health:
            notes.append(N_("Already full."))
        return after

    return "matter", "matter.health.heal", heal


_RULES: Final[dict[type, Callable[[Any, Notes], tuple[str, str, Mutation]]]] = {
    FatePoints: _fate_points,
    Stress: _stress,
    TakeConsequence: _take,
    ClearConsequence: _clear_consequence,
    Pool: _pool,
    ClicheDice: _cliche,
    GearState: _gear,
    MatterState: _matter,
    MatterHealth: _matter_health,
}


# --- use cases ------------------------------------------------------------------------------


async def roll_state(
    uow: UnitOfWork, *, game: GameDTO, character: CharacterDTO, op: MatterState, user_id: int,
    actor_name: str, locale: str,
) -> MatterState:  # fmt: skip
    """Log every roll the rules make when ``op`` applies its state to the sheet as shown (most
    states make none); the faces go into the returned operation for the ledger to replay."""
    sheet = load(character)
    if not isinstance(sheet, matter.Character):
        raise Refused(N_("This button is no longer active."))
    row = STATES[op.state]
    subject = f"{character.name}: {row.name_ru if locale == 'ru' else row.name_en}"
    faces: list[tuple[int, ...]] = []
    while True:
        found = run_logged(_state_operation(sheet, op.state), lambda r: r[1].events, faces)
        if isinstance(found, Done):
            return MatterState(op.state, op.on, tuple(faces))
        logged = await roll_logged(
            uow, chat_id=game.chat_id, text=found.notation, actor=actor_name, subject=subject,
            roll_id=f"res:{character.id}:{character.version}:{op.state.value}:{len(faces)}",
            actor_user_id=user_id, commit=False,
        )  # fmt: skip
        faces.append(tuple(logged.result.faces))


async def apply(
    uow: UnitOfWork, *, game: GameDTO, user_id: int, character_id: int, op: Op,
    actor_name: str = "", locale: str = "ru", asked_by: int | None = None,
) -> Applied:  # fmt: skip
    """One press: check, change through the ledger, commit. Raises ``Refused`` or the engine's
    ``EngineError`` (nothing is written then). ``actor_name`` and ``locale`` name the rolls
    that a matter state logs when the rules roll on applying it."""
    current = await changeable(uow, game, character_id, user_id)
    if isinstance(op, MatterState) and op.on:
        op = await roll_state(
            uow, game=game, character=current, op=op, user_id=user_id,
            actor_name=actor_name or "?", locale=locale,
        )  # fmt: skip
    notes: Notes = []
    system, kind, mutate = _RULES[type(op)](op, notes)
    if system != game.system:
        raise Refused(N_("This button is no longer active."))
    reason = op.text if isinstance(op, TakeConsequence) else None
    try:
        changed = await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind=kind, changes={current.id: mutate},
            reason=reason, asked_by=asked_by,
        )  # fmt: skip
    except ledger.LedgerError as error:
        raise Refused(error.reason) from error
    await uow.commit()
    stored = await uow.characters.get(current.id)
    assert stored is not None
    before = load(current)
    if not changed:
        return Applied(stored, op, before, before, False, notes[0] if notes else None)
    return Applied(stored, op, changed[0].before, changed[0].after, True)


async def would_change(
    uow: UnitOfWork, *, game: GameDTO, user_id: int, character_id: int, op: Op
) -> None:
    """Refuse (``Refused``, with the rules' own reason) a press that would leave the sheet as
    it is — a die back to a full cliché, a state the character does not have — before a
    player asks the GM for it. Nothing is written; raises ``Refused`` or ``EngineError``."""
    current = await changeable(uow, game, character_id, user_id)
    notes: Notes = []
    system, _kind, mutate = _RULES[type(op)](op, notes)
    if system != game.system:
        raise Refused(N_("This button is no longer active."))
    if isinstance(op, MatterState) and op.on:
        return  # applying a state may roll: the GM's grant rolls it
    before = load(current)
    after = mutate(before)  # the rules' own refusal (``EngineError``) goes out as it is
    if after == before:
        raise Refused(notes[0] if notes else N_("Nothing changed."))


async def check_free_slot(
    uow: UnitOfWork, *, game: GameDTO, user_id: int, character_id: int, slot: SlotId,
    nature: Nature,
) -> CharacterDTO:  # fmt: skip
    """Before asking for a consequence's aspect: may this user, is the slot free."""
    current = await changeable(uow, game, character_id, user_id)
    sheet = load(current)
    if not isinstance(sheet, fate.Character) or nature not in consequence_natures(slot):
        raise Refused(N_("This button is no longer active."))
    if slot not in fate.free_consequence_slots(sheet):
        raise Refused(N_("That slot is taken."))
    return current


@dataclass(frozen=True)
class Undone:
    entries: list[LedgerDTO]
    names: dict[int, str]


async def undo(
    uow: UnitOfWork, *, game: GameDTO, user_id: int, character_id: int, version: int
) -> Undone:
    """The GM undoes the change that made ``version`` of the character — the state the panel
    showed when its button was drawn — and commits.

    DECISION: refused once anything changed that sheet since (a newer press on the same panel,
    a fight's step): the ledger restores whole sheets, so undoing the older change would erase
    the newer one with it. Changes of a milestone or a fight are undone on their own message
    (undoing them here would leave the fight's state or the milestone's notice behind)."""
    if not await is_gm(uow, game, user_id):
        raise Refused(N_("Only the GM can do that."))
    entry = await uow.ledger.produced(game.id, character_id, version)
    if entry is None:
        raise Refused(N_("Nothing to undo."))
    if entry.kind == "undo":
        raise Refused(ledger.ALREADY_UNDONE)
    if entry.kind.startswith("milestone.") or await uow.trackers.has_batch(game.id, entry.batch):
        raise Refused(N_("This change belongs to a milestone or a fight: undo it there."))
    try:
        entries = await ledger.undo_batch(uow, game=game, batch=entry.batch, actor_user_id=user_id)
    except ledger.LedgerError as error:
        raise Refused(error.reason) from error
    await uow.commit()
    names: dict[int, str] = {}
    for undone in entries:
        found = await uow.characters.get(undone.character_id)
        names[undone.character_id] = found.name if found else "?"
    return Undone(entries, names)
