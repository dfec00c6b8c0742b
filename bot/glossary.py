"""One name for one thing: each system's terms (msgids, Russian in ``russian.po``), per field
of its sheet, in the seeds' words. Views use these instead of a field's internal name, so the
undo notes, proposals, /history and /res call a thing what the wizard and the rules call it.

Keys are dotted sheet paths (as ``bot.services.characters.diff`` reports them); a key also
names everything under it (``skills`` covers ``skills.athletics`` unless that is listed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from bot.i18n import N_

# Shared by every system.
COMMON: Final[dict[str, str]] = {
    "name": N_("Name"),
    "notes": N_("Notes"),
}

FATE: Final[dict[str, str]] = {
    "fate_points": N_("Fate points"),
    "refresh": N_("Refresh"),
    "aspects": N_("Aspects"),
    "skills": N_("Skills"),
    "stunts": N_("Stunts"),
    "stress.physical": N_("Physical stress"),
    "stress.mental": N_("Mental stress"),
    "stress.magical": N_("Magical stress"),
    "stress.accumulator": N_("Stress accumulator"),
    "consequences": N_("Consequences"),
    "equipment.melee": N_("Melee weapon"),
    "equipment.ranged": N_("Ranged weapon"),
    "equipment.armor": N_("Armour"),
    "artifacts": N_("Artifacts"),
    "alchemy": N_("Alchemy"),
    "extras": N_("Extras"),
    "loot": N_("Loot"),
}

STORYTELLER: Final[dict[str, str]] = {
    "concept": N_("Concept"),
    "kith": N_("Kith"),
    "seeming": N_("Seeming"),
    "attributes": N_("Attributes"),
    "abilities": N_("Abilities"),
    "arts": N_("Arts"),
    "realms": N_("Realms"),
    "backgrounds": N_("Backgrounds"),
    "glamour.pool": N_("Glamour"),
    "glamour.rating": N_("Glamour rating"),
    "banality.pool": N_("Temporary Banality"),
    "banality.rating": N_("Banality"),
    "willpower.pool": N_("Willpower"),
    "willpower.rating": N_("Willpower rating"),
    "health": N_("Health levels"),
    "experience": N_("Experience"),
    "starting": N_("Starting values"),
    "attribute_priority": N_("Attribute priorities"),
    "ability_priority": N_("Ability priorities"),
}

CLICHE: Final[dict[str, str]] = {
    "attributes.physical": N_("Physical"),
    "attributes.mental": N_("Mental"),
    "attributes.social": N_("Social"),
    "cliches": N_("Clichés"),
    "hooks": N_("Hooks"),
    "backstory": N_("Backstory"),
    "gm_bonus_dice": N_("Bonus dice from the GM"),
}

LIFEGEAR: Final[dict[str, str]] = {
    "role": N_("Role"),
    "max_lives": N_("Maximum lives"),
    "stats": N_("Stats"),
    "gear": N_("Gear"),
    "uncounted": N_("Also carried"),
    "unabsorbed_damage": N_("Unabsorbed damage"),
    "temporary_unabsorbed": N_("Temporary unabsorbed damage"),
    "dead": N_("Dead"),
}

MATTER: Final[dict[str, str]] = {
    "skills": N_("Skills"),
    "health": N_("Health"),
    "health_max": N_("Maximum Health"),
    "willpower": N_("Will Power"),
    "willpower_max": N_("Maximum Will Power"),
    "anger": N_("Anger"),
    "anger_max": N_("Maximum Anger"),
    "armor": N_("Armour"),
    "defence": N_("Defence"),
    "attack": N_("Attack value"),
    "dodge": N_("Dodge"),
    "initiative": N_("Initiative"),
    "matter": N_("Matter"),
    "immune_states": N_("Immunity"),
    "immune_instant_death": N_("Immune to instant death"),
    "protections": N_("Protection from"),
    "items": N_("Items"),
    "states": N_("States"),
}

OTHER_FIELD: Final = N_("Other sheet details")


def field_label(glossary: Mapping[str, str], path: str) -> str:
    """The msgid naming the sheet field at ``path`` (its nearest listed ancestor) in a
    system's ``glossary`` (``bot.systems.SystemSpec.glossary``), or a plain «other details» —
    never the internal name."""
    terms = {**COMMON, **glossary}
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        label = terms.get(".".join(parts[:end]))
        if label is not None:
            return label
    return OTHER_FIELD
