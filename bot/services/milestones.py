"""Milestones chosen by the GM: plan (the engine run on the current sheets, nothing written),
apply through the ledger in one transaction, undo within an hour.

The preview is a ``Plan``; its ``fingerprint`` (a short hash of every change and planned roll)
is printed on the preview message. At confirm the plan is computed again under row locks and
applied only if the fingerprint still matches, so what is applied is exactly what was shown —
nothing but the kind travels in the button.

Rolls a milestone makes (cliché advancement: the system's ``Milestones.rolled_kind``) are not
shown in advance (a GM could otherwise cancel bad dice and try again): the engine's
``planned_rolls`` are listed in the preview; at confirm each is rolled through the verifiable
roll log under the id ``ms:<preview message>:<character>:<cliché>`` (so a second confirm of the
same preview finds its rolls already logged and is refused) and the logged faces are fed to the
engine through a ``ScriptedSource``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, Final

from bot.i18n import N_
from bot.services import ledger
from bot.services.characters import diff
from bot.services.rolls import roll_logged
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.sheet_batch import LockedSheet, SheetBatchRepo, SheetChange
from db.uow import UnitOfWork
from engine.common import Change, SheetModel
from engine.dice.source import ScriptedSource
from engine.systems.base import MilestoneRoll, RolledMilestone

UNDO_WINDOW: Final = timedelta(hours=1)

# msgids of the kinds, keyed by (system, kind): each system's ``milestone_titles``.
KIND_TITLES: Final[dict[tuple[str, str], str]] = {
    (spec.id, kind): title
    for spec in SYSTEMS.values()
    for kind, title in spec.milestone_titles.items()
}

LAST_KEY: Final = "milestone.last"  # game data: the last preview applied (message id, batch)


class MilestoneRefused(Exception):
    """A refused milestone action; ``reason`` is a msgid."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MilestoneStale(Exception):
    """The sheets changed since the preview; ``plan`` is the preview as it is now."""

    def __init__(self, plan: Plan) -> None:
        super().__init__("stale preview")
        self.plan = plan


@dataclass(frozen=True)
class CharacterPlan:
    character_id: int
    name: str
    changes: tuple[Change, ...]
    rolls: tuple[MilestoneRoll, ...] = ()  # made at confirm (the engine's ``planned_rolls``)


@dataclass(frozen=True)
class Plan:
    system: str
    kind: str
    characters: tuple[CharacterPlan, ...]  # only those something happens to
    unchanged: int  # active characters nothing happens to

    @property
    def empty(self) -> bool:
        return not self.characters

    @property
    def fingerprint(self) -> str:
        data = [
            [
                c.character_id,
                [[x.field, x.before, x.after] for x in c.changes],
                [[r.key, r.notation] for r in c.rolls],
            ]
            for c in self.characters
        ]
        raw = json.dumps([self.system, self.kind, data, self.unchanged], ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class RolledAdvancement:
    character_id: int
    outcome: RolledMilestone
    seq: int  # the roll log's sequence number


@dataclass(frozen=True)
class Applied:
    plan: Plan  # what was applied (equal to the preview shown)
    batch: str | None  # the ledger batch; None when nothing changed (no undo then)
    rolls: tuple[RolledAdvancement, ...] = field(default=())


# The sheet is the system's own model (typed by the engine; SYSTEMS loads it).
Rule = Callable[[Any], tuple[SheetModel, list[Change]]]


def kinds(system: str) -> tuple[str, ...]:
    spec = SYSTEMS.get(system)
    return spec.milestones.kinds if spec is not None else ()


def _rolls_dice(game: GameDTO, kind: str) -> bool:
    """The kind whose effect rolls dice at confirm (the system's ``rolled_kind``)."""
    return kind == SYSTEMS[game.system].milestones.rolled_kind


def kind_title(system: str, kind: str) -> str:
    """The kind's msgid (translate it with ``t``)."""
    return KIND_TITLES[(system, kind)]


def _rule(game: GameDTO, kind: str) -> Rule:
    """The engine's milestone for the game's system and options (not a kind that rolls
    dice, such as cliché advancement)."""
    spec = SYSTEMS[game.system]
    if kind not in spec.milestones.kinds or _rolls_dice(game, kind):
        raise MilestoneRefused(N_("No such milestone in this game."))
    options = spec.options(game.options)
    return lambda ch: spec.milestones.apply(kind, ch, options)


def _check_kind(game: GameDTO, kind: str) -> None:
    if kind not in kinds(game.system):
        raise MilestoneRefused(N_("No such milestone in this game."))


def _plan_rows(game: GameDTO, kind: str, rows: list[CharacterDTO]) -> Plan:
    spec = SYSTEMS[game.system]
    advancement = _rolls_dice(game, kind)
    rule = None if advancement else _rule(game, kind)
    planned: list[CharacterPlan] = []
    for row in rows:
        sheet = spec.load(row.sheet, row.schema_version)
        if rule is None:
            rolls = spec.milestones.planned_rolls(sheet)
            if rolls:
                planned.append(CharacterPlan(row.id, row.name, (), rolls))
            continue
        _, changes = rule(sheet)
        if changes:
            planned.append(CharacterPlan(row.id, row.name, tuple(changes)))
    return Plan(game.system, kind, tuple(planned), len(rows) - len(planned))


async def _active(uow: UnitOfWork, game: GameDTO, *, lock: bool) -> list[CharacterDTO]:
    rows = await uow.characters.for_game(game.id, statuses=("active",))
    if not lock or not rows:
        return rows
    locked = await uow.characters.lock_many([r.id for r in rows])
    return [r for r in locked if r.status == "active" and r.game_id == game.id]


async def preview(uow: UnitOfWork, game: GameDTO, kind: str) -> Plan:
    """What the milestone would change for every active character (NPCs included); writes
    nothing."""
    _check_kind(game, kind)
    return _plan_rows(game, kind, await _active(uow, game, lock=False))


async def apply(
    uow: UnitOfWork,
    game: GameDTO,
    kind: str,
    *,
    fingerprint: str | None,
    actor_user_id: int,
    actor_name: str,
    preview_message_id: int,
) -> Applied:
    """``apply_uncommitted``, then commit: the GM's confirmed preview."""
    applied = await apply_uncommitted(
        uow, game, kind, fingerprint=fingerprint, actor_user_id=actor_user_id,
        actor_name=actor_name, preview_message_id=preview_message_id,
    )  # fmt: skip
    await uow.commit()
    return applied


async def apply_uncommitted(
    uow: UnitOfWork,
    game: GameDTO,
    kind: str,
    *,
    fingerprint: str | None,
    actor_user_id: int,
    actor_name: str,
    preview_message_id: int,
) -> Applied:
    """Apply the milestone shown in the preview with ``fingerprint``, for the whole table in
    one transaction (one ledger batch), without committing it: the caller commits once, with
    whatever else belongs to it (a scheduled occurrence's row).

    ``fingerprint`` is the one printed on the pressed message (``None``: not a preview).
    Raises ``MilestoneStale`` (with the current plan) when the sheets changed since the
    preview, ``MilestoneRefused`` when this preview was already applied or is no preview;
    nothing is written then. Statements do not grow with the number of characters, except
    one logged roll per cliché advancement roll.
    """
    _check_kind(game, kind)
    if fingerprint is None:  # not a preview (a notice, the picker): nothing to confirm
        raise MilestoneRefused(N_("This preview is closed; send /milestone again."))
    await uow.games.get(game.id, for_update=True)  # one milestone of a game at a time
    last = await uow.games.data(game.id, LAST_KEY)
    if isinstance(last, dict) and last.get("preview") == preview_message_id:
        raise MilestoneRefused(N_("This milestone was already applied."))
    plan = _plan_rows(game, kind, await _active(uow, game, lock=True))
    if plan.fingerprint != fingerprint:
        raise MilestoneStale(plan)  # nothing written; the locks end with the update
    if plan.empty:
        return Applied(plan, None)
    faces: dict[int, list[int]] = {}
    seqs: dict[tuple[int, str], int] = {}
    if _rolls_dice(game, kind):
        faces, seqs = await _roll_advancements(
            uow, game, plan, actor_user_id, actor_name, preview_message_id
        )
    changes, outcomes, applied = _mutations(game, kind, plan, faces)
    batch = ledger.new_batch()
    changed = await ledger.change_sheets(
        uow, game=game, actor_user_id=actor_user_id, kind=f"milestone.{kind}",
        changes=changes, reason=kind, batch=batch,
    )  # fmt: skip
    # Under the game's row lock: a second press of this preview (queued before the message
    # became the notice) finds it applied, whatever the sheets look like now.
    record = {"preview": preview_message_id, "kind": kind, "batch": batch if changed else None}
    await uow.games.set_data(game.id, LAST_KEY, record)
    if not outcomes:
        return Applied(plan, batch if changed else None)
    # Advancement: the plan listed the rolls; what was applied is their outcome.
    rolled = tuple(RolledAdvancement(cid, o, seqs[(cid, o.key)]) for cid, o in outcomes)
    done = tuple(
        CharacterPlan(c.character_id, c.name, tuple(applied.get(c.character_id, ())), c.rolls)
        for c in plan.characters
    )
    return Applied(replace(plan, characters=done), batch if changed else None, rolled)


@dataclass(frozen=True)
class Scheduled:
    """A milestone the scheduler applies (no preview): ``key`` names it in the result (the
    occurrence's id)."""

    key: int
    game: GameDTO
    kind: str


def rolls_dice(game: GameDTO, kind: str) -> bool:
    """Cliché advancement rolls through the roll log, one statement per roll: not for
    ``apply_many``."""
    return _rolls_dice(game, kind)


async def apply_many(uow: UnitOfWork, items: list[Scheduled]) -> dict[int, Applied]:
    """Apply each item's milestone to every active character of its game, as the GM would
    (the system actor, one ledger batch per item), for any number of games in a fixed
    number of statements: the games and their characters locked in one statement each (id
    order, as every other path), the engine run per character here, the sheets and their
    ledger entries written in one more. Items of one game are applied in the order given,
    each on the sheets the one before left. Does not commit; raises what the engine or the
    database raises (nothing is written then).
    """
    for item in items:
        _check_kind(item.game, item.kind)
        if rolls_dice(item.game, item.kind):
            raise MilestoneRefused(N_("No such milestone in this game."))
    sheets = SheetBatchRepo(uow.session)
    game_ids = sorted({item.game.id for item in items})
    await sheets.lock_games(game_ids)
    by_game: dict[int, list[LockedSheet]] = {}
    for row in await sheets.lock_active(game_ids):
        by_game.setdefault(row.game_id, []).append(row)
    current: dict[int, tuple[dict[str, Any], int]] = {}  # sheet, schema: as changed so far
    rounds: list[list[SheetChange]] = []  # a character's n-th change goes in round n
    times: dict[int, int] = {}  # changes of a character so far
    last: dict[int, dict[str, Any]] = {}
    results: dict[int, Applied] = {}
    for item in items:
        game, rows = item.game, by_game.get(item.game.id, [])
        spec, rule, batch = SYSTEMS[game.system], _rule(game, item.kind), ledger.new_batch()
        planned: list[CharacterPlan] = []
        changed = 0
        for row in rows:
            if row.id in current:
                stored, schema = current[row.id]
            else:  # decoded here, a game at a time, not all at once in the driver
                stored, schema = json.loads(row.sheet_json), row.schema_version
            before = spec.load(stored, schema)
            after, changes = rule(before)
            if not changes:
                continue
            planned.append(CharacterPlan(row.id, row.name, tuple(changes)))
            after_json = after.model_dump(mode="json")
            fields = diff(before.model_dump(mode="json"), after_json)
            if not fields:
                continue
            changed += 1
            current[row.id] = (after_json, spec.schema_version)
            n = times.get(row.id, 0)
            times[row.id] = n + 1
            if n == len(rounds):
                rounds.append([])
            rounds[n].append(
                SheetChange(
                    character_id=row.id,
                    game_id=game.id,
                    actor_user_id=game.gm_user_id,
                    kind=f"milestone.{item.kind}",
                    reason=item.kind,
                    batch=batch,
                    diff_json=json.dumps(fields, ensure_ascii=False),
                    sheet_json=json.dumps(after_json, ensure_ascii=False),
                    schema_version=spec.schema_version,
                )
            )
        plan = Plan(game.system, item.kind, tuple(planned), len(rows) - len(planned))
        results[item.key] = Applied(plan, batch if changed else None)
        last[game.id] = {
            "preview": -item.key,
            "kind": item.kind,
            "batch": batch if changed else None,
        }
        await asyncio.sleep(0)  # a thousand tables at one tick: other updates go on meanwhile
    for round_of_changes in rounds:
        await sheets.change(round_of_changes)
        uow.ledger.note_changed(c.character_id for c in round_of_changes)  # open panels
    await sheets.set_game_data(LAST_KEY, last)
    return results


async def _roll_advancements(
    uow: UnitOfWork,
    game: GameDTO,
    plan: Plan,
    actor_user_id: int,
    actor_name: str,
    preview_message_id: int,
) -> tuple[dict[int, list[int]], dict[tuple[int, str], int]]:
    """Each planned roll through the verifiable log (not committed yet: the rolls and the
    sheets are one transaction); returns the faces per character and the log's numbers."""
    faces: dict[int, list[int]] = {}
    seqs: dict[tuple[int, str], int] = {}
    for character in plan.characters:
        cid = character.character_id
        for roll in character.rolls:
            logged = await roll_logged(
                uow, chat_id=game.chat_id,
                roll_id=f"ms:{preview_message_id}:{cid}:{roll.key}"[:128],
                text=roll.notation, actor=actor_name, subject=f"{character.name}: {roll.key}",
                actor_user_id=actor_user_id, commit=False,
            )  # fmt: skip
            if logged.duplicate:  # this preview's rolls are logged already: applied before
                await uow.rollback()
                raise MilestoneRefused(N_("This milestone was already applied."))
            faces.setdefault(cid, []).extend(logged.result.faces)
            seqs[(cid, roll.key)] = logged.entry.seq
    return faces, seqs


def _mutations(
    game: GameDTO, kind: str, plan: Plan, faces: dict[int, list[int]]
) -> tuple[dict[int, ledger.Mutation], list[tuple[int, RolledMilestone]], dict[int, list[Change]]]:
    """The ledger's operations per character; advancement outcomes and changes are collected
    as the ledger runs them (on the locked sheets)."""
    outcomes: list[tuple[int, RolledMilestone]] = []
    applied: dict[int, list[Change]] = {}
    mutations: dict[int, ledger.Mutation] = {}
    if _rolls_dice(game, kind):
        milestones = SYSTEMS[game.system].milestones
        for character in plan.characters:
            cid, planned = character.character_id, character.rolls

            def advance(
                sheet: SheetModel, cid: int = cid, planned: tuple[MilestoneRoll, ...] = planned
            ) -> SheetModel:
                source = ScriptedSource(faces.get(cid, []))
                after, changes, rolled = milestones.apply_rolled(sheet, planned, source)
                outcomes.extend((cid, r) for r in rolled)
                applied[cid] = changes
                return after

            mutations[cid] = advance
        return mutations, outcomes, applied
    rule = _rule(game, kind)
    for character in plan.characters:
        mutations[character.character_id] = lambda sheet: rule(sheet)[0]
    return mutations, outcomes, applied


async def already_undone(uow: UnitOfWork, game: GameDTO, batch: str) -> bool:
    """Whether the milestone ``batch`` was undone (a read: nothing is written)."""
    entries = await uow.ledger.batch_entries(game.id, batch)
    return bool(entries) and all(e.undone for e in entries)


async def undo(uow: UnitOfWork, game: GameDTO, *, batch: str, actor_user_id: int) -> int:
    """Undo exactly the milestone ``batch`` (named by its notice's button) if it is under an
    hour old and none of its sheets changed since — unrelated changes to other characters do
    not matter; once only. Commits. Returns how many sheets were restored. Raises
    ``ledger.LedgerError``."""
    entries = await ledger.undo_batch(
        uow, game=game, batch=batch, actor_user_id=actor_user_id, max_age=UNDO_WINDOW
    )
    await uow.commit()
    return len(entries)
