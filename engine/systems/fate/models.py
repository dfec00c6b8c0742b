"""Stored shapes of the FATE system: the character sheet and its parts.

Everything here is a frozen ``SheetModel`` that round-trips through JSON. Values that follow
from the skills (stress boxes, consequence slots, equipment points) are *not* stored: they are
computed in ``derived`` so a sheet can never disagree with its own skills. Stress is stored as
the set of marked box values per track.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import Field

from engine.common import SheetModel
from engine.text import register_messages

SCHEMA_VERSION: Final = 1


class Skill(StrEnum):
    """The 28 skills of the seed; values are stable ASCII ids, labels are messages."""

    ALCHEMY = "alchemy"
    ARTIFICE = "artifice"
    ATHLETICS = "athletics"
    WEALTH = "wealth"
    FIGHT = "fight"
    WATER = "water"
    AIR = "air"
    WILL = "will"
    NOTICE = "notice"
    RIDE = "ride"
    EARTH = "earth"
    ART = "art"
    INVESTIGATE = "investigate"
    PHYSIQUE = "physique"
    CRIME = "crime"
    FIRE = "fire"
    DECEIVE = "deceive"
    EDUCATION = "education"
    PROVOKE = "provoke"
    MIND = "mind"
    LEADERSHIP = "leadership"
    LIGHT = "light"
    CONTACTS = "contacts"
    STEALTH = "stealth"
    SHOOT = "shoot"
    TECHNOLOGY = "technology"
    CHARISMA = "charisma"
    EMPATHY = "empathy"


SKILL_NAMES_RU: Final[dict[Skill, str]] = {
    Skill.ALCHEMY: "Алхимия",
    Skill.ARTIFICE: "Артефакторика",
    Skill.ATHLETICS: "Атлетика",
    Skill.WEALTH: "Богатство",
    Skill.FIGHT: "Бой",
    Skill.WATER: "Вода",
    Skill.AIR: "Воздух",
    Skill.WILL: "Воля",
    Skill.NOTICE: "Внимательность",
    Skill.RIDE: "Езда",
    Skill.EARTH: "Земля",
    Skill.ART: "Искусство",
    Skill.INVESTIGATE: "Исследование",
    Skill.PHYSIQUE: "Конституция",
    Skill.CRIME: "Криминал",
    Skill.FIRE: "Огонь",
    Skill.DECEIVE: "Обман",
    Skill.EDUCATION: "Образование",
    Skill.PROVOKE: "Провокация",
    Skill.MIND: "Разум",
    Skill.LEADERSHIP: "Руководство",
    Skill.LIGHT: "Свет",
    Skill.CONTACTS: "Связи",
    Skill.STEALTH: "Скрытность",
    Skill.SHOOT: "Стрельба",
    Skill.TECHNOLOGY: "Технология",
    Skill.CHARISMA: "Харизма",
    Skill.EMPATHY: "Эмпатия",
}

_SKILL_NAMES_EN: Final[dict[Skill, str]] = {
    Skill.ALCHEMY: "Alchemy",
    Skill.ARTIFICE: "Artifice",
    Skill.ATHLETICS: "Athletics",
    Skill.WEALTH: "Wealth",
    Skill.FIGHT: "Fight",
    Skill.WATER: "Water",
    Skill.AIR: "Air",
    Skill.WILL: "Will",
    Skill.NOTICE: "Notice",
    Skill.RIDE: "Ride",
    Skill.EARTH: "Earth",
    Skill.ART: "Art",
    Skill.INVESTIGATE: "Investigate",
    Skill.PHYSIQUE: "Physique",
    Skill.CRIME: "Crime",
    Skill.FIRE: "Fire",
    Skill.DECEIVE: "Deceive",
    Skill.EDUCATION: "Education",
    Skill.PROVOKE: "Provoke",
    Skill.MIND: "Mind",
    Skill.LEADERSHIP: "Leadership",
    Skill.LIGHT: "Light",
    Skill.CONTACTS: "Contacts",
    Skill.STEALTH: "Stealth",
    Skill.SHOOT: "Shoot",
    Skill.TECHNOLOGY: "Technology",
    Skill.CHARISMA: "Charisma",
    Skill.EMPATHY: "Empathy",
}

MAGIC_SCHOOLS: Final = (Skill.WATER, Skill.AIR, Skill.EARTH, Skill.FIRE, Skill.MIND, Skill.LIGHT)

register_messages(
    {f"fate.skill.{s.value}": {"ru": SKILL_NAMES_RU[s], "en": _SKILL_NAMES_EN[s]} for s in Skill}
)


class AspectRole(StrEnum):
    """Where a character aspect came from in the creation algorithm."""

    CONCEPT = "concept"
    TROUBLE = "trouble"
    PHASE = "phase"
    CROSSING = "crossing"
    EXTRA = "extra"


class AspectKind(StrEnum):
    """The seed's aspect kinds by duration."""

    GAME = "game"
    CHARACTER = "character"
    SITUATION = "situation"
    CONSEQUENCE = "consequence"
    BOOST = "boost"


class TrackKind(StrEnum):
    """Stress tracks; ``ACCUMULATOR`` is the artifact's second magical track."""

    PHYSICAL = "physical"
    MENTAL = "mental"
    MAGICAL = "magical"
    ACCUMULATOR = "accumulator"


class Severity(StrEnum):
    """Consequence severities; ``SEVERITY_VALUE`` gives the shifts each absorbs."""

    MILD = "mild"
    MODERATE = "moderate"
    SEVERE = "severe"
    EXTREME = "extreme"


SEVERITY_VALUE: Final[dict[Severity, int]] = {
    Severity.MILD: 2,
    Severity.MODERATE: 4,
    Severity.SEVERE: 6,
    Severity.EXTREME: 8,
}


class SlotId(StrEnum):
    """Consequence slots. Extra mild slots are typed; ``EXTREME`` replaces an aspect."""

    MILD = "mild"
    MODERATE = "moderate"
    SEVERE = "severe"
    MILD_PHYSICAL = "mild_physical"
    MILD_MENTAL = "mild_mental"
    EXTREME = "extreme"


SLOT_SEVERITY: Final[dict[SlotId, Severity]] = {
    SlotId.MILD: Severity.MILD,
    SlotId.MODERATE: Severity.MODERATE,
    SlotId.SEVERE: Severity.SEVERE,
    SlotId.MILD_PHYSICAL: Severity.MILD,
    SlotId.MILD_MENTAL: Severity.MILD,
    SlotId.EXTREME: Severity.EXTREME,
}


class Nature(StrEnum):
    """What a consequence hurts; decides the healing skill and the fitting medicine."""

    PHYSICAL = "physical"
    MENTAL = "mental"
    MAGICAL = "magical"


class CharacterAspect(SheetModel):
    """A character (личный) aspect and its place in the creation algorithm."""

    text: str
    role: AspectRole


class Stunt(SheetModel):
    """A stunt (трюк), free text; ``powerful`` ones cost 1 FP to activate."""

    name: str
    description: str = ""
    powerful: bool = Field(default=False, description="activating it costs 1 FP")


class Extra(SheetModel):
    """An extra (экстра) bought with leftover skill points."""

    name: str
    description: str = ""
    cost: int = Field(default=0, ge=0)


class Consequence(SheetModel):
    """A taken consequence: an aspect in a slot.

    ``treated`` becomes true after a successful healing action; it then clears at its
    milestone. ``conflict_id`` remembers the conflict it was taken in (conceding pays for it).
    ``replaces_aspect`` is the index of the aspect an extreme consequence replaces.
    ``free_invokes`` maps a holder to unused free invokes (the one who inflicted it gets one).
    """

    slot: SlotId
    text: str
    nature: Nature = Nature.PHYSICAL
    treated: bool = False
    conflict_id: str | None = None
    inflicted_by: str | None = None
    replaces_aspect: int | None = None
    free_invokes: dict[str, int] = Field(default_factory=dict)


class StressMarks(SheetModel):
    """Marked box values (1-based) per track; the box count is derived from skills."""

    physical: tuple[int, ...] = ()
    mental: tuple[int, ...] = ()
    magical: tuple[int, ...] = ()
    accumulator: tuple[int, ...] = ()

    def of(self, track: TrackKind) -> tuple[int, ...]:
        return tuple(getattr(self, track.value))

    def with_marks(self, track: TrackKind, marks: tuple[int, ...]) -> StressMarks:
        return self.model_copy(update={track.value: tuple(sorted(set(marks)))})


class Equipment(SheetModel):
    """Bought gear levels: weapon level adds to harm dealt, armor level subtracts from harm."""

    melee: int = Field(default=0, ge=0)
    ranged: int = Field(default=0, ge=0)
    armor: int = Field(default=0, ge=0)


class ArtifactKind(StrEnum):
    """Accumulator (extra magical track), converter (fixed spell), tool (+N to a school)."""

    ACCUMULATOR = "accumulator"
    CONVERTER = "converter"
    TOOL = "tool"


class Artifact(SheetModel):
    """One artifact. ``boxes`` for an accumulator, ``difficulty`` for a converter,
    ``school``+``level`` for a tool. ``used`` marks a spent converter until recharge."""

    kind: ArtifactKind
    name: str = ""
    boxes: int = Field(default=0, ge=0)
    difficulty: int = Field(default=0, ge=0)
    school: Skill | None = None
    level: int = Field(default=0, ge=0)
    used: bool = False


class AlchemyKind(StrEnum):
    """Medicine, stimulant (physical), energiser (magical), relaxant (mental), elixir, compound."""

    MEDICINE = "medicine"
    STIMULANT = "stimulant"
    ENERGISER = "energiser"
    RELAXANT = "relaxant"
    ELIXIR = "elixir"
    COMPOUND = "compound"


class AlchemyItem(SheetModel):
    """One prepared alchemical item; ``used`` until the next replenishment.

    medicine: ``points`` (≥ 1) and ``nature``; stimulant/energiser/relaxant: ``level``;
    elixir: ``stunt``; compound: ``damage``, ``aspects`` and ``aspect_strength``.
    """

    kind: AlchemyKind
    name: str = ""
    points: int = Field(default=0, ge=0)
    nature: Nature | None = None
    level: int = Field(default=0, ge=0)
    stunt: str = ""
    damage: int = Field(default=0, ge=0)
    aspects: int = Field(default=0, ge=0)
    aspect_strength: int = Field(default=0, ge=0)
    used: bool = False


class Character(SheetModel):
    """A FATE character sheet as stored. Skills absent from ``skills`` are at +0."""

    schema_version: int = SCHEMA_VERSION
    name: str
    aspects: tuple[CharacterAspect, ...] = ()
    skills: dict[Skill, int] = Field(default_factory=dict)
    stunts: tuple[Stunt, ...] = ()
    refresh: int = 3
    fate_points: int = Field(default=3, ge=0)
    stress: StressMarks = StressMarks()
    consequences: tuple[Consequence, ...] = ()
    equipment: Equipment = Equipment()
    artifacts: tuple[Artifact, ...] = ()
    alchemy: tuple[AlchemyItem, ...] = ()
    extras: tuple[Extra, ...] = ()
    loot: tuple[str, ...] = ()
    notes: str = ""
    # A quick NPC's own stress boxes (a mook's one track); None: derived from the skills.
    stress_boxes: int | None = Field(default=None, ge=0, le=10)

    def skill(self, skill: Skill) -> int:
        """The skill's level (+0 when not raised)."""
        return self.skills.get(skill, 0)


class FateOptions(SheetModel):
    """Per-game creation options; defaults are the seed's numbers."""

    skill_points: int = 30
    max_skill_at_creation: int = 4
    base_refresh: int = 3
    min_refresh: int = 0
    base_stunts: int = 3
    min_crossings: int = 2


class GmPool(SheetModel):
    """The GM's own fate points (spent on NPC aspects and the like)."""

    fate_points: int = Field(default=0, ge=0)


# --- names for messages ----------------------------------------------------------------------
# A Msg holds only scalars, so a translated name travels as two parameters, ``<key>_ru`` and
# ``<key>_en``; each locale's template picks its own.

_NAMES: Final[dict[StrEnum, tuple[str, str]]] = {
    **{s: (SKILL_NAMES_RU[s], _SKILL_NAMES_EN[s]) for s in Skill},
    AspectRole.CONCEPT: ("Концепт", "Concept"),
    AspectRole.TROUBLE: ("Проблема", "Trouble"),
    AspectRole.PHASE: ("Собственное приключение", "Own adventure"),
    AspectRole.CROSSING: ("Пересечение", "Crossing"),
    AspectRole.EXTRA: ("Дополнительный", "Extra"),
    TrackKind.PHYSICAL: ("физический", "physical"),
    TrackKind.MENTAL: ("психический", "mental"),
    TrackKind.MAGICAL: ("магический", "magical"),
    TrackKind.ACCUMULATOR: ("аккумулятор", "accumulator"),
    SlotId.MILD: ("лёгкое", "mild"),
    SlotId.MODERATE: ("умеренное", "moderate"),
    SlotId.SEVERE: ("тяжёлое", "severe"),
    SlotId.MILD_PHYSICAL: ("лёгкое физическое", "mild physical"),
    SlotId.MILD_MENTAL: ("лёгкое психическое", "mild mental"),
    SlotId.EXTREME: ("критическое", "extreme"),
}


def name_params(key: str, *values: StrEnum) -> dict[str, str]:
    """``{key}_ru`` / ``{key}_en`` parameters naming one or more values (joined by commas)."""
    ru = ", ".join(_NAMES.get(v, (v.value, v.value))[0] for v in values)
    en = ", ".join(_NAMES.get(v, (v.value, v.value))[1] for v in values)
    return {f"{key}_ru": ru, f"{key}_en": en}
