"""Equipment, artifacts and alchemy: costs, caps, and using prepared items.

Costs (SPEC "Equipment points"): melee weapon 1/level (max 3), ranged weapon 1/level (max 2),
armor 2/level (max level 3). Artifacts are paid from artifact points (= Артефакторика), alchemy
from alchemy points (= Алхимия).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.common import Change, Violation
from engine.errors import EngineError, RuleViolation
from engine.systems.fate.derived import (
    alchemy_points,
    artifact_points,
    equipment_points,
    stress_box_count,
)
from engine.systems.fate.models import (
    MAGIC_SCHOOLS,
    SLOT_SEVERITY,
    AlchemyItem,
    AlchemyKind,
    Artifact,
    ArtifactKind,
    Character,
    Consequence,
    Equipment,
    Nature,
    Severity,
    Skill,
    SlotId,
    TrackKind,
)
from engine.text import msg, register_messages

MELEE_MAX: Final = 3
RANGED_MAX: Final = 2
ARMOR_MAX: Final = 3
ARMOR_COST_PER_LEVEL: Final = 2
TOOL_MAX: Final = 3
ELIXIR_COST: Final = 2
ACCUMULATOR_CHEAP_BOXES: Final = 5
CONVERTER_HALF_PRICE_UP_TO: Final = 10
MEDICINE_BONUS_PER_POINT: Final = 2

register_messages(
    {
        "fate.gear.over_points": {
            "ru": "Снаряжение стоит {cost} оч., а очков снаряжения {points}.",
            "en": "Gear costs {cost} points but you have {points} equipment points.",
        },
        "fate.gear.melee_cap": {
            "ru": "Оружие ближнего боя — не выше уровня {cap}.",
            "en": "A melee weapon is at most level {cap}.",
        },
        "fate.gear.ranged_cap": {
            "ru": "Оружие дальнего боя — не выше уровня {cap}.",
            "en": "A ranged weapon is at most level {cap}.",
        },
        "fate.gear.armor_cap": {
            "ru": "Броня — не выше уровня {cap}.",
            "en": "Armor is at most level {cap}.",
        },
        "fate.artifacts.over_points": {
            "ru": "Артефакты стоят {cost} оч., а очков артефактов {points}.",
            "en": "Artifacts cost {cost} points but you have {points} artifact points.",
        },
        "fate.artifacts.bad": {
            "ru": "Артефакт «{name}» описан неполно (нужны ячейки, сложность или школа и "
            "уровень 1–3).",
            "en": "Artifact “{name}” is incomplete (needs boxes, a difficulty, or a school and "
            "level 1–3).",
        },
        "fate.alchemy.over_points": {
            "ru": "Алхимия стоит {cost} оч., а очков алхимии {points}.",
            "en": "Alchemy costs {cost} points but you have {points} alchemy points.",
        },
        "fate.alchemy.bad": {
            "ru": "Препарат «{name}» описан неполно.",
            "en": "Alchemical item “{name}” is incomplete.",
        },
        "fate.alchemy.used": {
            "ru": "Этот препарат уже использован.",
            "en": "This item has already been used.",
        },
        "fate.alchemy.wrong_kind": {
            "ru": "Этот препарат так не применяется.",
            "en": "This item cannot be used that way.",
        },
        "fate.alchemy.no_item": {"ru": "Нет такого препарата.", "en": "No such item."},
        "fate.alchemy.no_box": {
            "ru": "Нет отмеченной ячейки стресса, которую снимает этот препарат.",
            "en": "No marked stress box this item can clear.",
        },
        "fate.alchemy.wrong_nature": {
            "ru": "Лекарство не подходит к этому последствию.",
            "en": "This medicine does not fit that consequence.",
        },
        "fate.alchemy.no_consequence": {
            "ru": "В этом слоте нет последствия.",
            "en": "There is no consequence in that slot.",
        },
        "fate.alchemy.slot_taken": {
            "ru": "Слот для более лёгкого последствия занят.",
            "en": "The slot for the lighter consequence is taken.",
        },
        "fate.artifacts.no_item": {"ru": "Нет такого артефакта.", "en": "No such artifact."},
        "fate.artifacts.used": {
            "ru": "Этот преобразователь уже разряжен.",
            "en": "This converter is already spent.",
        },
        "fate.gear.lost": {"ru": "Снаряжение: {item_ru}", "en": "Gear: {item_en}"},
    }
)


class GearItem(StrEnum):
    """The three bought gear items."""

    MELEE = "melee"
    RANGED = "ranged"
    ARMOR = "armor"


_GEAR_NAMES: Final[dict[GearItem, tuple[str, str]]] = {
    GearItem.MELEE: ("оружие ближнего боя", "melee weapon"),
    GearItem.RANGED: ("оружие дальнего боя", "ranged weapon"),
    GearItem.ARMOR: ("броня", "armor"),
}


def gear_names(item: GearItem) -> dict[str, str]:
    """``item_ru`` / ``item_en`` message parameters naming a gear item."""
    ru, en = _GEAR_NAMES[item]
    return {"item_ru": ru, "item_en": en}


def gear_cost(equipment: Equipment) -> int:
    """Equipment points the bought gear costs."""
    return equipment.melee + equipment.ranged + ARMOR_COST_PER_LEVEL * equipment.armor


def accumulator_cost(boxes: int) -> int:
    """1 point per box up to the 5th, 2 per box after."""
    cheap = min(boxes, ACCUMULATOR_CHEAP_BOXES)
    return cheap + 2 * (boxes - cheap)


def converter_cost(difficulty: int) -> int:
    """ceil(min(D, 10) / 2) + max(0, D − 10). Rounding up is a SPEC DECISION."""
    low = min(difficulty, CONVERTER_HALF_PRICE_UP_TO)
    return -(-low // 2) + max(0, difficulty - CONVERTER_HALF_PRICE_UP_TO)


def tool_cost(level: int) -> int:
    """Levels cost 1, 2, 3 each: cumulative 1, 3, 6."""
    return level * (level + 1) // 2


def artifact_cost(artifact: Artifact) -> int:
    """Artifact points an artifact costs, by its kind."""
    if artifact.kind is ArtifactKind.ACCUMULATOR:
        return accumulator_cost(artifact.boxes)
    if artifact.kind is ArtifactKind.CONVERTER:
        return converter_cost(artifact.difficulty)
    return tool_cost(artifact.level)


def alchemy_cost(item: AlchemyItem) -> int:
    """Medicine: its points (≥ 1); stimulant/energiser/relaxant: 1 per level; elixir: 2;
    compound: ceil(damage / 2) (rounding up a SPEC DECISION) + 1 per aspect + its strength."""
    if item.kind is AlchemyKind.MEDICINE:
        return item.points
    if item.kind is AlchemyKind.ELIXIR:
        return ELIXIR_COST
    if item.kind is AlchemyKind.COMPOUND:
        return -(-item.damage // 2) + item.aspects + item.aspect_strength
    return item.level


def medicine_bonus(item: AlchemyItem) -> int:
    """Each medicine point above 1 gives +2 to the healing roll."""
    return MEDICINE_BONUS_PER_POINT * max(0, item.points - 1)


def tool_bonus(character: Character, school: Skill) -> int:
    """The best unspent tool bonus for a school (tools do not stack: DECISION, one tool per
    spell, as one holds one instrument)."""
    levels = [
        a.level for a in character.artifacts if a.kind is ArtifactKind.TOOL and a.school == school
    ]
    return max(levels, default=0)


def _artifact_ok(a: Artifact) -> bool:
    if a.kind is ArtifactKind.ACCUMULATOR:
        return a.boxes >= 1
    if a.kind is ArtifactKind.CONVERTER:
        return a.difficulty >= 1
    return a.school in MAGIC_SCHOOLS and 1 <= a.level <= TOOL_MAX


def _alchemy_ok(item: AlchemyItem) -> bool:
    kind = item.kind
    if kind is AlchemyKind.MEDICINE:
        return item.points >= 1 and item.nature in (Nature.PHYSICAL, Nature.MENTAL)
    if kind is AlchemyKind.ELIXIR:
        return bool(item.stunt.strip())
    if kind is AlchemyKind.COMPOUND:
        return item.damage > 0 or item.aspects > 0
    return item.level >= 1


def gear_violations(character: Character) -> list[Violation]:
    """Caps and point budgets of gear, artifacts and alchemy; every violation at once."""
    out: list[Violation] = []
    eq = character.equipment
    if eq.melee > MELEE_MAX:
        out.append(Violation("equipment.melee", msg("fate.gear.melee_cap", cap=MELEE_MAX)))
    if eq.ranged > RANGED_MAX:
        out.append(Violation("equipment.ranged", msg("fate.gear.ranged_cap", cap=RANGED_MAX)))
    if eq.armor > ARMOR_MAX:
        out.append(Violation("equipment.armor", msg("fate.gear.armor_cap", cap=ARMOR_MAX)))
    cost, points = gear_cost(eq), equipment_points(character)
    if cost > points:
        out.append(Violation("equipment", msg("fate.gear.over_points", cost=cost, points=points)))
    for i, a in enumerate(character.artifacts):
        if not _artifact_ok(a):
            out.append(Violation(f"artifacts.{i}", msg("fate.artifacts.bad", name=a.name)))
    cost = sum(artifact_cost(a) for a in character.artifacts)
    points = artifact_points(character)
    if cost > points:
        out.append(
            Violation("artifacts", msg("fate.artifacts.over_points", cost=cost, points=points))
        )
    for i, item in enumerate(character.alchemy):
        if not _alchemy_ok(item):
            out.append(Violation(f"alchemy.{i}", msg("fate.alchemy.bad", name=item.name)))
    cost = sum(alchemy_cost(item) for item in character.alchemy)
    points = alchemy_points(character)
    if cost > points:
        out.append(Violation("alchemy", msg("fate.alchemy.over_points", cost=cost, points=points)))
    return out


def lose_gear(character: Character, item: GearItem) -> tuple[Character, list[Change]]:
    """Gear is lost: its level drops to 0, so its points are free again (the refund is
    implicit, equipment points are derived)."""
    before = getattr(character.equipment, item.value)
    equipment = character.equipment.model_copy(update={item.value: 0})
    change = Change(
        f"equipment.{item.value}", msg("fate.gear.lost", **gear_names(item)), before, 0
    )
    return character.model_copy(update={"equipment": equipment}), [change]


# --- using prepared items -------------------------------------------------------------------

_RESTORES: Final[dict[AlchemyKind, TrackKind]] = {
    AlchemyKind.STIMULANT: TrackKind.PHYSICAL,
    AlchemyKind.ENERGISER: TrackKind.MAGICAL,
    AlchemyKind.RELAXANT: TrackKind.MENTAL,
}

_LIGHTER: Final[dict[Severity, SlotId]] = {
    Severity.MODERATE: SlotId.MILD,
    Severity.SEVERE: SlotId.MODERATE,
    Severity.EXTREME: SlotId.SEVERE,
}


@dataclass(frozen=True)
class ItemUse:
    """What using an item did: the cleared box (track, value) or the consequence moved."""

    item: int
    kind: AlchemyKind
    track: TrackKind | None = None
    box: int | None = None
    consequence_from: SlotId | None = None
    consequence_to: SlotId | None = None
    bonus: int = 0


def _take_item(character: Character, index: int) -> AlchemyItem:
    if not 0 <= index < len(character.alchemy):
        raise EngineError(msg("fate.alchemy.no_item"))
    item = character.alchemy[index]
    if item.used:
        raise RuleViolation(msg("fate.alchemy.used"))
    return item


def _mark_used(character: Character, index: int) -> Character:
    items = list(character.alchemy)
    items[index] = items[index].model_copy(update={"used": True})
    return character.model_copy(update={"alchemy": tuple(items)})


def use_restorative(
    character: Character, index: int, *, track: TrackKind | None = None
) -> tuple[Character, ItemUse]:
    """A stimulant / energiser / relaxant of level L clears one marked box of value ≤ L on its
    track (the highest such box: DECISION, the most valuable one a player would pick). An
    energiser may also clear an accumulator box when ``track`` says so."""
    item = _take_item(character, index)
    target = _RESTORES.get(item.kind)
    if target is None:
        raise RuleViolation(msg("fate.alchemy.wrong_kind"))
    if track is not None:
        ok = track is target or (target is TrackKind.MAGICAL and track is TrackKind.ACCUMULATOR)
        if not ok:
            raise RuleViolation(msg("fate.alchemy.wrong_kind"))
        target = track
    marks = character.stress.of(target)
    fitting = [v for v in marks if v <= item.level and v <= stress_box_count(character, target)]
    if not fitting:
        raise RuleViolation(msg("fate.alchemy.no_box"))
    box = max(fitting)
    stress = character.stress.with_marks(target, tuple(v for v in marks if v != box))
    character = _mark_used(character, index).model_copy(update={"stress": stress})
    return character, ItemUse(index, item.kind, track=target, box=box)


def use_medicine(character: Character, index: int, slot: SlotId) -> tuple[Character, ItemUse]:
    """A medicine lowers a consequence of its nature by one step (DECISION); a mild one clears
    instantly. A magical consequence takes either medicine (DECISION). Lowering needs the lighter
    slot free; the medicine's healing bonus is reported for a healing roll made with it."""
    item = _take_item(character, index)
    if item.kind is not AlchemyKind.MEDICINE:
        raise RuleViolation(msg("fate.alchemy.wrong_kind"))
    found = [c for c in character.consequences if c.slot is slot]
    if not found:
        raise RuleViolation(msg("fate.alchemy.no_consequence"))
    cons = found[0]
    if cons.nature is not Nature.MAGICAL and cons.nature != item.nature:
        raise RuleViolation(msg("fate.alchemy.wrong_nature"))
    rest = tuple(c for c in character.consequences if c.slot is not slot)
    severity = SLOT_SEVERITY[slot]
    new_slot = _LIGHTER.get(severity)
    if new_slot is not None:
        if any(c.slot is new_slot for c in rest):
            raise RuleViolation(msg("fate.alchemy.slot_taken"))
        rest = (*rest, _lowered(cons, new_slot))
    character = _mark_used(character, index).model_copy(update={"consequences": rest})
    use = ItemUse(
        index,
        item.kind,
        consequence_from=slot,
        consequence_to=new_slot,
        bonus=medicine_bonus(item),
    )
    return character, use


def _lowered(cons: Consequence, slot: SlotId) -> Consequence:
    # a lowered extreme gives its aspect back: it now sits in the severe slot
    return cons.model_copy(update={"slot": slot, "replaces_aspect": None})


def use_item(character: Character, index: int) -> tuple[Character, ItemUse]:
    """Spend an elixir or a compound (its effect is narrated; compounds' damage and aspects
    are applied by the caller as a hit / situation aspects)."""
    item = _take_item(character, index)
    if item.kind not in (AlchemyKind.ELIXIR, AlchemyKind.COMPOUND):
        raise RuleViolation(msg("fate.alchemy.wrong_kind"))
    return _mark_used(character, index), ItemUse(index, item.kind)


def use_converter(character: Character, index: int) -> tuple[Character, Artifact]:
    """Discharge a converter (a stored spell of fixed difficulty) until artifacts recharge."""
    if not 0 <= index < len(character.artifacts):
        raise EngineError(msg("fate.artifacts.no_item"))
    art = character.artifacts[index]
    if art.kind is not ArtifactKind.CONVERTER:
        raise RuleViolation(msg("fate.alchemy.wrong_kind"))
    if art.used:
        raise RuleViolation(msg("fate.artifacts.used"))
    arts = list(character.artifacts)
    arts[index] = art.model_copy(update={"used": True})
    return character.model_copy(update={"artifacts": tuple(arts)}), arts[index]
