"""One press at a time during creation: a creation wizard's skill dots and Matter abilities.

The engine checks a whole sheet (``validate_character``); a press adds the rules around it: a
skill dot is refused with the engine's own violations (over the cap, over the budget), a dot
below zero changes nothing, and a draft holds at most ``MAX_ABILITIES`` Matter abilities (the
GM can add more after approval; ``ability_refusal`` says so). A press returns the new sheet,
the refusal, or ``None`` when nothing changes. What creation shows as it goes is derived here
too: the dots left, the gauges and combat numbers, which skill resists which state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.common import Violation, errors_only
from engine.text import msg

from .sheet import Character, MatterAbility, MatterOptions, new_character, validate_character
from .state_engine import effective_trait
from .states import STATES, StateDef
from .traits import Skill

MAX_ABILITIES: Final = 6  # keeps the sheet short on a phone; the GM can add more later
# Gauges shown as current/maximum, then the plain combat numbers, in the seed's order.
GAUGES: Final = ("health", "willpower", "anger")
COMBAT: Final = ("armor", "defence", "attack", "dodge", "initiative")


@dataclass(frozen=True)
class Resistance:
    """A skill rolled against states, with the dice it has now (0: the chance roll, SPEC 5)."""

    skill: str
    dice: int
    states: tuple[StateDef, ...]


def skill_ids(character: Character, options: MatterOptions) -> list[str]:
    """Standard skills, then the GM's, then any other the sheet holds (validation flags it)."""
    ids = [s.value for s in Skill] + [s for s in options.custom_skills if s not in set(Skill)]
    return ids + sorted(s for s in character.skills if s not in ids)


def starting_sheet(character: Character | None, options: MatterOptions) -> Character:
    """The sheet creation starts from (a returned one, else empty), every skill listed."""
    character = character or new_character("")
    skills = {s: character.dots(s) for s in skill_ids(character, options)}
    return character.model_copy(update={"skills": skills})


def resisted_by(skill: str) -> list[StateDef]:
    """The states whose resistance roll uses this skill (from the state table)."""
    return [d for d in STATES.values() if d.resist_trait == skill]


def dots_left(character: Character, options: MatterOptions) -> int:
    """Skill dots still to spend (a skill below zero gives none back)."""
    return options.dot_budget - sum(max(0, d) for d in character.skills.values())


def derived(character: Character) -> list[tuple[str, str]]:
    """Each gauge as «now/max», then each combat number (after state effects)."""
    gauges = [
        (g, f"{effective_trait(character, g)}/{effective_trait(character, g + '_max')}")
        for g in GAUGES
    ]
    return gauges + [(c, str(effective_trait(character, c))) for c in COMBAT]


def resistances(character: Character, options: MatterOptions) -> list[Resistance]:
    """Each of the sheet's skills that resists a state, in the skills' order."""
    return [
        Resistance(skill, effective_trait(character, skill), tuple(states))
        for skill in skill_ids(character, options)
        if (states := resisted_by(skill))
    ]


def press_dot(
    character: Character, options: MatterOptions, skill: str, delta: int
) -> Character | list[Violation] | None:
    """+1 or −1 dot on a skill: the new sheet, the engine's refusal, or ``None`` (below 0)."""
    value = character.dots(skill) + delta
    if value < 0:
        return None
    changed = character.model_copy(update={"skills": {**character.skills, skill: value}})
    found = errors_only(validate_character(changed, options)) if delta > 0 else []
    # a skill at its cap is said as the press, not as the sheet it would make («4 dots»)
    if any(v.msg.key == "matter.sheet.over_cap" for v in found):
        at_cap = msg("matter.press.at_cap", skill=skill, cap=options.dot_cap)
        return [Violation(f"skills.{skill}", at_cap)]
    return [v for v in found if v.field in (f"skills.{skill}", "skills")] or changed


def ability_refusal(character: Character) -> list[Violation]:
    """Why no further Matter ability may be added in creation (``MAX_ABILITIES``)."""
    if len(character.matter) < MAX_ABILITIES:
        return []
    return [Violation("matter", msg("matter.press.enough_abilities", limit=MAX_ABILITIES))]


def add_ability(character: Character, ability: MatterAbility) -> Character | None:
    """The sheet with one more Matter ability, or ``None`` past ``MAX_ABILITIES``."""
    if ability_refusal(character):
        return None
    return character.model_copy(update={"matter": (*character.matter, ability)})


def remove_ability(character: Character, index: int) -> Character | None:
    """The sheet without ability ``index``, or ``None`` when there is none (a stale button)."""
    if not 0 <= index < len(character.matter):
        return None
    return character.model_copy(
        update={"matter": character.matter[:index] + character.matter[index + 1 :]}
    )
