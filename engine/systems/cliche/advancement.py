"""Advancement at the end of an adventure, recovery of lost dice, and milestones."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from engine.common import Change
from engine.dice.source import RandomSource
from engine.systems.cliche.rolls import roll_pool
from engine.systems.cliche.sheet import MAX_CLICHE_DICE, Character, ClicheOptions
from engine.text import msg


@dataclass(frozen=True)
class AdvancementOutcome:
    """One advancement roll: the cliché rises by one when every face is even."""

    cliche: str
    notation: str
    faces: tuple[int, ...]
    advanced: bool
    before: int
    after: int


def advancement_roll(
    character: Character, cliche_name: str, source: RandomSource
) -> tuple[Character, AdvancementOutcome]:
    """Roll the cliché's full rating (SPEC DECISION: not the dice left after damage); all even
    → +1 die. A cliché already at 6 is not rolled («ни одно клише не может быть повышено более
    чем до 6-ти»): the outcome then has no faces."""
    cliche = character.cliche(cliche_name)
    if cliche.dice >= MAX_CLICHE_DICE or cliche.dice < 1:
        same = AdvancementOutcome(cliche.name, "", (), False, cliche.dice, cliche.dice)
        return character, same
    roll = roll_pool(source, cliche.dice)
    advanced = all(face % 2 == 0 for face in roll.faces)
    after = cliche.dice + 1 if advanced else cliche.dice
    outcome = AdvancementOutcome(
        cliche.name, roll.notation, roll.faces, advanced, cliche.dice, after
    )
    if advanced:
        character = character.replace_cliche(cliche.model_copy(update={"dice": after}))
    return character, outcome


class MilestoneKind(StrEnum):
    """``END_OF_ADVENTURE``: roll every cliché used actively. ``WOW``: the GM allows one
    advancement roll mid-game for something truly impressive. ``RECOVERY``: lost dice come
    back at the game's rate («со скоростью, заданной Мастером»)."""

    END_OF_ADVENTURE = "end_of_adventure"
    WOW = "wow"
    RECOVERY = "recovery"


def apply_milestone(
    character: Character,
    kind: MilestoneKind,
    *,
    source: RandomSource | None = None,
    used: Collection[str] = (),
    options: ClicheOptions | None = None,
    rolls: list[AdvancementOutcome] | None = None,
) -> tuple[Character, list[Change]]:
    """Apply a milestone; returns the new sheet and what changed.

    For ``END_OF_ADVENTURE`` and ``WOW`` pass ``source`` and the clichés in ``used`` (for
    ``WOW`` the one cliché the GM names); each roll's faces are appended to ``rolls`` when a
    list is given, for the roll log. ``RECOVERY`` uses ``options.recovery_dice``.
    """
    if kind is MilestoneKind.RECOVERY:
        return recover(character, options or ClicheOptions())
    if source is None:
        raise ValueError("advancement needs a RandomSource")
    changes: list[Change] = []
    for name in used:
        character, outcome = advancement_roll(character, name, source)
        if rolls is not None:
            rolls.append(outcome)
        if outcome.advanced:
            what = msg("cliche.change.cliche_dice", name=outcome.cliche)
            changes.append(Change(f"cliches.{name}.dice", what, outcome.before, outcome.after))
    return character, changes


def recover(
    character: Character, options: ClicheOptions, *, repair_armor: bool = False
) -> tuple[Character, list[Change]]:
    """Give back lost dice after a fight: ``options.recovery_dice`` per cliché, or all of them
    when the rate is ``None``.

    DECISION: armor clichés are gear («Оборудование или техника могут требовать ремонта»), so
    rest does not mend them; pass ``repair_armor=True`` when the GM says the gear is repaired.
    """
    changes: list[Change] = []
    items = []
    for cliche in character.cliches:
        if cliche.armor and not repair_armor:
            items.append(cliche)
            continue
        back = cliche.lost if options.recovery_dice is None else options.recovery_dice
        lost = max(0, cliche.lost - back)
        if lost != cliche.lost:
            what = msg("cliche.change.cliche_lost", name=cliche.name)
            changes.append(Change(f"cliches.{cliche.name}.lost", what, cliche.lost, lost))
            cliche = cliche.model_copy(update={"lost": lost})
        items.append(cliche)
    return character.model_copy(update={"cliches": tuple(items)}), changes
