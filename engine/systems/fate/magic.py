"""Magic: a lead school, supporting schools (±1 each), a cost paid in magical stress.

The seed's difficulty/cost table is empty, so the GM sets both (SPEC DECISION). The cost is a
hit on the magical track (the accumulator helps); DECISION (Fate Core habit): it may also be
soaked by consequences, but a caster cannot choose to be taken out to pay it, and the cost is
paid whether or not the spell succeeds (the power was spent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.systems.fate.checks import Action, CheckResult, check
from engine.systems.fate.equipment import tool_bonus
from engine.systems.fate.harm import AbsorbOption, absorb_options
from engine.systems.fate.models import MAGIC_SCHOOLS, Character, Skill, TrackKind, name_params
from engine.text import msg, register_messages

register_messages(
    {
        "fate.magic.not_a_school": {
            "ru": "«{skill_ru}» — не магическая школа.",
            "en": "“{skill_en}” is not a magic school.",
        },
        "fate.magic.lead_supports": {
            "ru": "Ведущая школа не может быть ещё и ведомой.",
            "en": "The lead school cannot also support.",
        },
        "fate.magic.cannot_pay": {
            "ru": "Стоимость заклинания ({cost}) нечем поглотить.",
            "en": "Nothing can absorb the spell's cost ({cost}).",
        },
    }
)


def spell_modifier(lead: int, supporting: Sequence[int]) -> int:
    """+1 per supporting school above the lead, −1 per one below, 0 when equal."""
    return sum((s > lead) - (s < lead) for s in supporting)


def is_mage(character: Character) -> bool:
    """A school at +1 or better (the mage aspect is a matter of text the GM judges)."""
    return any(character.skill(s) >= 1 for s in MAGIC_SCHOOLS)


@dataclass(frozen=True)
class SpellOutcome:
    """The casting check, the modifiers used and how the cost may be paid."""

    check: CheckResult
    schools_modifier: int
    tool_bonus: int
    cost: int
    cost_options: tuple[AbsorbOption, ...]

    @property
    def notation(self) -> str:
        return self.check.notation

    @property
    def faces(self) -> tuple[int, ...]:
        return self.check.faces


def _check_schools(lead: Skill, supporting: Sequence[Skill]) -> None:
    for school in (lead, *supporting):
        if school not in MAGIC_SCHOOLS:
            raise RuleViolation(msg("fate.magic.not_a_school", **name_params("skill", school)))
    if lead in supporting:
        raise RuleViolation(msg("fate.magic.lead_supports"))


def cost_options(character: Character, cost: int) -> tuple[AbsorbOption, ...]:
    """Ways to pay a spell cost on the magical track (never by being taken out)."""
    return absorb_options(character, cost, TrackKind.MAGICAL, allow_taken_out=False)


def cast_spell(
    source: RandomSource,
    character: Character,
    *,
    lead: Skill,
    difficulty: int,
    cost: int,
    supporting: Sequence[Skill] = (),
    modifier: int = 0,
    use_tool: bool = True,
    action: Action = Action.OVERCOME,
) -> SpellOutcome:
    """Roll a spell: lead school + 4dF + school modifiers + the best tool for the lead
    school, against the GM's difficulty (or the defender's roll, for an attack spell).
    Refused up front when the cost cannot be paid at all; pay it afterwards with
    ``harm.absorb(character, cost, TrackKind.MAGICAL, option)``."""
    _check_schools(lead, supporting)
    options = cost_options(character, cost)
    if not options:
        raise RuleViolation(msg("fate.magic.cannot_pay", cost=cost))
    level = character.skill(lead)
    schools = spell_modifier(level, [character.skill(s) for s in supporting])
    tool = tool_bonus(character, lead) if use_tool else 0
    result = check(
        source,
        action,
        skill=level,
        opposition=difficulty,
        modifier=schools + tool + modifier,
    )
    return SpellOutcome(result, schools, tool, cost, options)
