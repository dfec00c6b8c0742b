"""Trait vocabulary of ``matter``: skills, derived traits, action kinds and elements.

Skills and traits are plain ``StrEnum`` values so that state effects, resistance traits and the
stored sheet all name a trait by the same short string.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from engine.text import register_messages


class Skill(StrEnum):
    """The eight skills the seed names (dots ●); a game may add more (``MatterOptions``)."""

    BRUTALITY = "brutality"  # Жестокость
    TENACITY = "tenacity"  # Упорство
    COMMUNICATION = "communication"  # Общение
    CUNNING = "cunning"  # Хитрость
    INTELLECT = "intellect"  # Интеллект
    INVESTIGATION = "investigation"  # Исследование
    DEXTERITY = "dexterity"  # Сноровка
    INTIMIDATION = "intimidation"  # Запугивание


class Trait(StrEnum):
    """Non-skill traits of the sheet that states and conditions modify."""

    HEALTH = "health"
    HEALTH_MAX = "health_max"
    WILLPOWER = "willpower"
    WILLPOWER_MAX = "willpower_max"
    ANGER = "anger"
    ANGER_MAX = "anger_max"
    ARMOR = "armor"
    DEFENCE = "defence"
    ATTACK = "attack"
    DODGE = "dodge"
    INITIATIVE = "initiative"
    # Pseudo-traits: bonuses that exist only as modifiers (never stored on the sheet).
    RANGED_ATTACK = "ranged_attack"
    ACTION_POOL = "action_pool"


class ActionKind(StrEnum):
    """What kind of action a roll is; Мини and Жаба shrink some kinds to one die."""

    PHYSICAL = "physical"
    MENTAL = "mental"
    SOCIAL = "social"
    MATTER = "matter"


class Element(StrEnum):
    """Elements a character can be protected from («защита от Огня» …)."""

    FIRE = "fire"
    ICE = "ice"
    LIGHTNING = "lightning"
    EARTH = "earth"


# DECISION (the seed does not classify skills): the body skills are physical, the people
# skills social, the head skills mental — the split players of Chronicles of Darkness expect.
SKILL_KIND: Final[dict[Skill, ActionKind]] = {
    Skill.BRUTALITY: ActionKind.PHYSICAL,
    Skill.TENACITY: ActionKind.PHYSICAL,
    Skill.DEXTERITY: ActionKind.PHYSICAL,
    Skill.COMMUNICATION: ActionKind.SOCIAL,
    Skill.INTIMIDATION: ActionKind.SOCIAL,
    Skill.CUNNING: ActionKind.MENTAL,
    Skill.INTELLECT: ActionKind.MENTAL,
    Skill.INVESTIGATION: ActionKind.MENTAL,
}

_NAMES: Final[dict[str, tuple[str, str]]] = {
    Skill.BRUTALITY: ("Жестокость", "Brutality"),
    Skill.TENACITY: ("Упорство", "Tenacity"),
    Skill.COMMUNICATION: ("Общение", "Communication"),
    Skill.CUNNING: ("Хитрость", "Cunning"),
    Skill.INTELLECT: ("Интеллект", "Intellect"),
    Skill.INVESTIGATION: ("Исследование", "Investigation"),
    Skill.DEXTERITY: ("Сноровка", "Dexterity"),
    Skill.INTIMIDATION: ("Запугивание", "Intimidation"),
    Trait.HEALTH: ("Здоровье", "Health"),
    Trait.HEALTH_MAX: ("Макс. Здоровье", "Max Health"),
    Trait.WILLPOWER: ("Сила воли", "Willpower"),
    Trait.WILLPOWER_MAX: ("Макс. Сила воли", "Max Willpower"),
    Trait.ANGER: ("Гнев", "Anger"),
    Trait.ANGER_MAX: ("Макс. Гнев", "Max Anger"),
    Trait.ARMOR: ("Броня", "Armor"),
    Trait.DEFENCE: ("Защита", "Defence"),
    Trait.ATTACK: ("Атака", "Attack"),
    Trait.DODGE: ("Уклонение", "Dodge"),
    Trait.INITIATIVE: ("Инициатива", "Initiative"),
    Trait.RANGED_ATTACK: ("Стрелковая атака", "Ranged attack"),
    Trait.ACTION_POOL: ("Пул действия", "Action pool"),
}

register_messages(
    {f"matter.trait.{key}": {"ru": ru, "en": en} for key, (ru, en) in _NAMES.items()}
)


def trait_message_key(trait: str) -> str:
    """Message key naming a trait or skill (custom skills have no registered name)."""
    return f"matter.trait.{trait}"


def skill_kind(skill: str) -> ActionKind:
    """The action kind of a skill; custom (GM-added) skills count as mental (DECISION)."""
    try:
        return SKILL_KIND[Skill(skill)]
    except ValueError:
        return ActionKind.MENTAL
