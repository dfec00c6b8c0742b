"""The ``matter`` character sheet, its per-game options and creation validation.

DECISION (SPEC: the seed has no creation rules): the GM sets a dot budget for skills and a
per-skill cap (defaults 12 and 3); the wizard enforces them through ``validate_character``.
The starting values of Health, Willpower and Anger are not in the seed either; the defaults
below are placeholders the GM edits (5 Health, 3 Willpower, Anger 0 of 3, Defence 1).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import Field

from engine.common import Severity, SheetModel, Violation
from engine.systems.matter.states import StateId
from engine.systems.matter.traits import Element, Skill
from engine.text import msg, register_messages

SCHEMA_VERSION: Final = 1

register_messages(
    {
        "matter.sheet.name_empty": {
            "ru": "У персонажа должно быть имя.",
            "en": "The character needs a name.",
        },
        "matter.sheet.unknown_skill": {
            "ru": "Навыка «{skill}» нет в этой игре.",
            "en": "There is no skill “{skill}” in this game.",
        },
        "matter.sheet.negative": {
            "ru": "«{trait}» не может быть меньше нуля.",
            "en": "“{trait}” cannot be below zero.",
        },
        "matter.sheet.over_cap": {
            "ru": "В навыке «{skill}» {dots} ●, а можно не больше {cap}.",
            "en": "Skill “{skill}” has {dots} dots; the cap is {cap}.",
        },
        "matter.press.at_cap": {
            "ru": "«{skill}» уже на максимуме: {cap} ●.",
            "en": "“{skill}” already has {cap} dots: the cap is {cap}.",
        },
        "matter.press.enough_abilities": {
            "ru": "Больше способностей здесь не добавить (предел: {limit}), "
            "мастер может добавить их позже.",
            "en": "At most {limit} abilities here; the GM can add more later.",
        },
        "matter.sheet.over_budget": {
            "ru": "Распределено {spent} ● навыков из {budget}.",
            "en": "{spent} skill dots spent of {budget}.",
        },
        "matter.sheet.under_budget": {
            "ru": "Осталось нераспределённых ● навыков: {left}.",
            "en": "Skill dots left unspent: {left}.",
        },
        "matter.sheet.max_too_low": {
            "ru": "Максимум «{trait}» должен быть не меньше {minimum}.",
            "en": "Maximum “{trait}” must be at least {minimum}.",
        },
        "matter.sheet.current_over_max": {
            "ru": "Текущее значение «{trait}» ({current}) больше максимума ({maximum}).",
            "en": "Current “{trait}” ({current}) exceeds its maximum ({maximum}).",
        },
    }
)


class MatterKind(StrEnum):
    """Kinds of Материя; Молчание blocks the magical and summoning ones."""

    MAGICAL = "magical"
    SUMMONING = "summoning"
    OTHER = "other"


class MatterAbility(SheetModel):
    name: str
    kind: MatterKind = MatterKind.OTHER
    dots: int = Field(default=0, ge=0)
    notes: str = ""


class Item(SheetModel):
    """A potion or other item (зелье Эхо, противоядие …)."""

    name: str
    count: int = Field(default=1, ge=0)


class ActiveState(SheetModel):
    """A state on a character.

    ``age`` counts the rounds the state has lived, the round it was gained being 1; rounds
    spent paused (under Окаменелость) do not count. ``turns_left`` is set for N-turn states.
    ``counter`` is the Defence lost to Постепенное окаменение. ``origin`` names the scene
    condition that inflicted it (Наводнение lifts only its own Медлительность).
    """

    state: StateId
    age: int = Field(default=1, ge=1)
    turns_left: int | None = None
    counter: int = 0
    origin: str | None = None
    stays: bool = False  # Берсерк: the player chose to stay berserk (no per-turn resistance)
    resist_per_scene: bool = False  # Сон: the GM chose «раз в сцену» instead of once a turn


class Character(SheetModel):
    """A ``matter`` character sheet (skills keyed by ``Skill`` value or a GM-added skill id)."""

    schema_version: int = SCHEMA_VERSION
    name: str = ""
    skills: dict[str, int] = Field(default_factory=dict)
    health: int = 5
    health_max: int = 5
    willpower: int = 3
    willpower_max: int = 3
    anger: int = 0
    anger_max: int = 3
    armor: int = 0
    defence: int = 1
    attack: int = 0
    dodge: int = 0
    initiative: int = 0
    matter: tuple[MatterAbility, ...] = ()
    immune_states: tuple[StateId, ...] = ()
    immune_instant_death: bool = False
    protections: tuple[Element, ...] = ()
    items: tuple[Item, ...] = ()
    states: tuple[ActiveState, ...] = ()
    notes: str = ""

    def dots(self, skill: str) -> int:
        """Dots in a skill (0 when the sheet does not list it)."""
        return self.skills.get(skill, 0)

    def find_state(self, state: StateId) -> ActiveState | None:
        return next((s for s in self.states if s.state is state), None)

    def has_state(self, state: StateId) -> bool:
        return self.find_state(state) is not None


class MatterOptions(SheetModel):
    """Per-game options: the GM's skill-dot budget and per-skill cap, and extra skills."""

    dot_budget: int = Field(default=12, ge=0)
    dot_cap: int = Field(default=3, ge=0)
    custom_skills: tuple[str, ...] = ()


def new_character(name: str) -> Character:
    """An empty draft: every standard skill at 0 dots, default gauges, no states."""
    return Character(name=name, skills={s.value: 0 for s in Skill})


def _skill_violations(character: Character, options: MatterOptions) -> list[Violation]:
    known = {s.value for s in Skill} | set(options.custom_skills)
    found: list[Violation] = []
    for skill, dots in character.skills.items():
        where = f"skills.{skill}"
        if skill not in known:
            found.append(Violation(where, msg("matter.sheet.unknown_skill", skill=skill)))
        if dots < 0:
            found.append(Violation(where, msg("matter.sheet.negative", trait=skill)))
        elif dots > options.dot_cap:
            found.append(
                Violation(
                    where,
                    msg("matter.sheet.over_cap", skill=skill, dots=dots, cap=options.dot_cap),
                )
            )
    spent = sum(max(0, d) for d in character.skills.values())
    if spent > options.dot_budget:
        found.append(
            Violation(
                "skills", msg("matter.sheet.over_budget", spent=spent, budget=options.dot_budget)
            )
        )
    elif spent < options.dot_budget:
        left = options.dot_budget - spent
        found.append(
            Violation("skills", msg("matter.sheet.under_budget", left=left), Severity.WARNING)
        )
    return found


_GAUGES: Final = (("health", 1), ("willpower", 0), ("anger", 0))
_NON_NEGATIVE: Final = ("armor", "defence", "attack", "dodge", "initiative")


def _gauge_violations(character: Character) -> list[Violation]:
    found: list[Violation] = []
    for trait, minimum in _GAUGES:
        current: int = getattr(character, trait)
        maximum: int = getattr(character, f"{trait}_max")
        if maximum < minimum:
            found.append(
                Violation(
                    f"{trait}_max",
                    msg("matter.sheet.max_too_low", trait=trait, minimum=minimum),
                )
            )
        if current < 0:
            found.append(Violation(trait, msg("matter.sheet.negative", trait=trait)))
        elif current > maximum:
            found.append(
                Violation(
                    trait,
                    msg(
                        "matter.sheet.current_over_max",
                        trait=trait,
                        current=current,
                        maximum=maximum,
                    ),
                )
            )
    for trait in _NON_NEGATIVE:
        if getattr(character, trait) < 0:
            found.append(Violation(trait, msg("matter.sheet.negative", trait=trait)))
    return found


def validate_character(character: Character, options: MatterOptions) -> list[Violation]:
    """All creation violations at once (never raises); unspent dots are only a warning."""
    found: list[Violation] = []
    if not character.name.strip():
        found.append(Violation("name", msg("matter.sheet.name_empty")))
    found.extend(_skill_violations(character, options))
    found.extend(_gauge_violations(character))
    return found
