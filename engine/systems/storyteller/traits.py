"""Trait vocabulary of the storyteller system: attributes, abilities, Arts, Realms, Backgrounds.

Every trait has a stable key (stored in sheets) and a translatable name registered as the
message ``storyteller.trait.<key>``. The ability, Art, Realm and Background lists are the
Changeling: The Dreaming catalogue plus the abilities the seed names (Убеждение, Ремонт); a game
may also use keys outside the catalogue (house abilities), shown by their key (spaces for
underscores).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.text import Msg, has_message, msg, register_messages


class AttributeGroup(StrEnum):
    """The three attribute categories ranked at creation."""

    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"


class Attribute(StrEnum):
    """The nine attributes; the value is the field name on ``Attributes``."""

    STRENGTH = "strength"
    DEXTERITY = "dexterity"
    STAMINA = "stamina"
    CHARISMA = "charisma"
    MANIPULATION = "manipulation"
    APPEARANCE = "appearance"
    PERCEPTION = "perception"
    INTELLIGENCE = "intelligence"
    WITS = "wits"


ATTRIBUTE_GROUPS: Final[dict[AttributeGroup, tuple[Attribute, Attribute, Attribute]]] = {
    AttributeGroup.PHYSICAL: (Attribute.STRENGTH, Attribute.DEXTERITY, Attribute.STAMINA),
    AttributeGroup.SOCIAL: (Attribute.CHARISMA, Attribute.MANIPULATION, Attribute.APPEARANCE),
    AttributeGroup.MENTAL: (Attribute.PERCEPTION, Attribute.INTELLIGENCE, Attribute.WITS),
}


class AbilityGroup(StrEnum):
    """The three ability categories ranked at creation."""

    TALENTS = "talents"
    SKILLS = "skills"
    KNOWLEDGES = "knowledges"


class TraitKind(StrEnum):
    """Dot-rated trait families other than attributes and abilities."""

    ART = "art"
    REALM = "realm"
    BACKGROUND = "background"


@dataclass(frozen=True)
class AbilityInfo:
    key: str
    group: AbilityGroup


_T, _S, _K = AbilityGroup.TALENTS, AbilityGroup.SKILLS, AbilityGroup.KNOWLEDGES

# key: (group, ru, en)
_ABILITY_NAMES: Final[dict[str, tuple[AbilityGroup, str, str]]] = {
    "alertness": (_T, "Бдительность", "Alertness"),
    "athletics": (_T, "Атлетизм", "Athletics"),
    "brawl": (_T, "Драка", "Brawl"),
    "dodge": (_T, "Уклонение", "Dodge"),
    "empathy": (_T, "Эмпатия", "Empathy"),
    "expression": (_T, "Выразительность", "Expression"),
    "intimidation": (_T, "Запугивание", "Intimidation"),
    "kenning": (_T, "Проницательность", "Kenning"),
    "leadership": (_T, "Лидерство", "Leadership"),
    "persuasion": (_T, "Убеждение", "Persuasion"),
    "streetwise": (_T, "Знание улиц", "Streetwise"),
    "subterfuge": (_T, "Хитрость", "Subterfuge"),
    "animal_ken": (_S, "Обращение с животными", "Animal Ken"),
    "crafts": (_S, "Ремесло", "Crafts"),
    "drive": (_S, "Вождение", "Drive"),
    "etiquette": (_S, "Этикет", "Etiquette"),
    "firearms": (_S, "Огнестрельное оружие", "Firearms"),
    "melee": (_S, "Фехтование", "Melee"),
    "performance": (_S, "Актёрство", "Performance"),
    "repair": (_S, "Ремонт", "Repair"),
    "security": (_S, "Безопасность", "Security"),
    "stealth": (_S, "Скрытность", "Stealth"),
    "survival": (_S, "Выживание", "Survival"),
    "computer": (_K, "Компьютер", "Computer"),
    "enigmas": (_K, "Загадки", "Enigmas"),
    "gremayre": (_K, "Гремайр", "Gremayre"),
    "investigation": (_K, "Расследование", "Investigation"),
    "law": (_K, "Правоведение", "Law"),
    "linguistics": (_K, "Лингвистика", "Linguistics"),
    "medicine": (_K, "Медицина", "Medicine"),
    "politics": (_K, "Политика", "Politics"),
    "science": (_K, "Наука", "Science"),
}

ABILITIES: Final[dict[str, AbilityInfo]] = {
    key: AbilityInfo(key, group) for key, (group, _ru, _en) in _ABILITY_NAMES.items()
}

_ART_NAMES: Final[dict[str, tuple[str, str]]] = {
    "autumn": ("Осень", "Autumn"),
    "chicanery": ("Обман", "Chicanery"),
    "chronos": ("Хронос", "Chronos"),
    "contract": ("Договор", "Contract"),
    "dragons_ire": ("Гнев дракона", "Dragon's Ire"),
    "legerdemain": ("Фокусы", "Legerdemain"),
    "metamorphosis": ("Метаморфоза", "Metamorphosis"),
    "naming": ("Наречение", "Naming"),
    "oneiromancy": ("Онейромантия", "Oneiromancy"),
    "primal": ("Первозданность", "Primal"),
    "pyretics": ("Пиретика", "Pyretics"),
    "skycraft": ("Небесное ремесло", "Skycraft"),
    "soothsay": ("Прорицание", "Soothsay"),
    "sovereign": ("Владычество", "Sovereign"),
    "wayfare": ("Странствия", "Wayfare"),
}

_REALM_NAMES: Final[dict[str, tuple[str, str]]] = {
    "actor": ("Актер", "Actor"),
    "fae": ("Фэйри", "Fae"),
    "nature": ("Природа", "Nature"),
    "prop": ("Реквизит", "Prop"),
    "scene": ("Сцена", "Scene"),
    "time": ("Время", "Time"),
}

_BACKGROUND_NAMES: Final[dict[str, tuple[str, str]]] = {
    "chimera": ("Химера", "Chimera"),
    "contacts": ("Контакты", "Contacts"),
    "dreamers": ("Мечтатели", "Dreamers"),
    "holdings": ("Владения", "Holdings"),
    "mentor": ("Ментор", "Mentor"),
    "remembrance": ("Воспоминания", "Remembrance"),
    "resources": ("Ресурсы", "Resources"),
    "retinue": ("Свита", "Retinue"),
    "title": ("Титул", "Title"),
    "treasure": ("Сокровища", "Treasure"),
}

CATALOGUE: Final[dict[TraitKind, frozenset[str]]] = {
    # The standard Arts, Realms and Backgrounds, for the wizard's menus.
    TraitKind.ART: frozenset(_ART_NAMES),
    TraitKind.REALM: frozenset(_REALM_NAMES),
    TraitKind.BACKGROUND: frozenset(_BACKGROUND_NAMES),
}

_ATTRIBUTE_NAMES: Final[dict[str, tuple[str, str]]] = {
    Attribute.STRENGTH: ("Сила", "Strength"),
    Attribute.DEXTERITY: ("Ловкость", "Dexterity"),
    Attribute.STAMINA: ("Выносливость", "Stamina"),
    Attribute.CHARISMA: ("Харизма", "Charisma"),
    Attribute.MANIPULATION: ("Манипулирование", "Manipulation"),
    Attribute.APPEARANCE: ("Внешность", "Appearance"),
    Attribute.PERCEPTION: ("Восприятие", "Perception"),
    Attribute.INTELLIGENCE: ("Интеллект", "Intelligence"),
    Attribute.WITS: ("Сообразительность", "Wits"),
}

_OTHER_NAMES: Final[dict[str, tuple[str, str]]] = {
    AttributeGroup.PHYSICAL: ("Физические", "Physical"),
    AttributeGroup.SOCIAL: ("Социальные", "Social"),
    AttributeGroup.MENTAL: ("Ментальные", "Mental"),
    AbilityGroup.TALENTS: ("Таланты", "Talents"),
    AbilityGroup.SKILLS: ("Навыки", "Skills"),
    AbilityGroup.KNOWLEDGES: ("Познания", "Knowledges"),
    TraitKind.ART: ("Искусства", "Arts"),
    TraitKind.REALM: ("Королевства", "Realms"),
    TraitKind.BACKGROUND: ("Дополнения", "Backgrounds"),
    "glamour": ("Гламур", "Glamour"),
    "banality": ("Банальность", "Banality"),
    "willpower": ("Воля", "Willpower"),
    "glamour.pool": ("Гламур", "Glamour"),
    "banality.pool": ("Банальность (временная)", "Banality (temporary)"),
    "willpower.pool": ("Воля", "Willpower"),
    "experience": ("Опыт", "Experience"),
    "health": ("Здоровье", "Health"),
    "name": ("Имя", "Name"),
}


def _register_names() -> None:
    tables: list[dict[str, tuple[str, str]]] = [
        {key: (ru, en) for key, (_g, ru, en) in _ABILITY_NAMES.items()},
        _ART_NAMES,
        _REALM_NAMES,
        _BACKGROUND_NAMES,
        _ATTRIBUTE_NAMES,
        _OTHER_NAMES,
    ]
    register_messages(
        {
            f"storyteller.trait.{key}": {"ru": ru, "en": en}
            for table in tables
            for key, (ru, en) in table.items()
        }
    )
    register_messages(
        {"storyteller.trait.custom": {"ru": "{name}", "en": "{name}"}},
    )


_register_names()


def trait_name(key: str) -> Msg:
    """The translatable name of any trait key; an unknown (house) key renders as itself with
    spaces for underscores (``kung_fu`` → «kung fu», as ``/r`` accepts it), on the sheet and in
    every list of what can be rolled alike."""
    full = f"storyteller.trait.{key}"
    if has_message(full):
        return msg(full)
    return msg("storyteller.trait.custom", name=key.replace("_", " "))


def ability_group(key: str) -> AbilityGroup | None:
    """The catalogue group of an ability key, ``None`` for a house ability."""
    info = ABILITIES.get(key)
    return info.group if info else None
