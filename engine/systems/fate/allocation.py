"""One press at a time during FATE's creation: a skill or a piece of gear a level up or down,
a refresh point traded for a stunt slot or taken back (a creation wizard's buttons), a stunt
as typed.

The engine judges a whole sheet (``validate_character``); a press adds a rule around it. A
raise the engine refuses for that item (over the cap, over the points) changes nothing and
says why; a lowering is always allowed. The column rule is not judged per press: building a
column passes through broken shapes (two skills at +2 before the third at +1), so it is
judged when the step is left. A press gives the new sheet, or the violations that refuse it.
"""

from __future__ import annotations

from typing import Literal

from engine.common import Violation, errors_only

from .creation import validate_character
from .derived import skill_points_spent
from .models import Character, FateOptions, Skill, Stunt

Press = Character | list[Violation]
Rated = Literal["skills", "equipment"]
MAX_STUNTS = 12  # far above the seed's count (3 + refresh 3)


def column(character: Character) -> dict[int, int]:
    """How many skills sit at each level above +0."""
    counts: dict[int, int] = {}
    for value in character.skills.values():
        if value > 0:
            counts[value] = counts.get(value, 0) + 1
    return counts


def points_left(character: Character, options: FateOptions) -> int:
    """Skill points not yet spent (extras kept from a returned sheet count as spent)."""
    return options.skill_points - skill_points_spent(character)


def stunts_allowed(character: Character, options: FateOptions) -> int:
    """The starting stunts plus one per refresh point traded away."""
    return options.base_stunts + options.base_refresh - character.refresh


def parse_stunt(text: str, name_limit: int = 64, text_limit: int = 500) -> Stunt | None:
    """A stunt as typed, ``Name: what it does`` (or just a name); None when the name is not
    one line of 1..``name_limit`` characters, what it does is over ``text_limit``, or either
    begins with «/» (a chat command is no stunt)."""
    head, _, tail = text.partition(":")
    name, description = " ".join(head.split()), tail.strip()
    if not 0 < len(name) <= name_limit or len(description) > text_limit:
        return None
    if name.startswith("/") or description.startswith("/"):
        return None
    return Stunt(name=name, description=description)


def add_stunt(character: Character, options: FateOptions, stunt: Stunt) -> Character | None:
    """``stunt`` written into a free slot; None when every slot the refresh pays for is taken
    (a refresh point traded gives one more), or ``MAX_STUNTS`` are written whatever a game's
    options allow (a guard against flooding the sheet)."""
    if len(character.stunts) >= min(stunts_allowed(character, options), MAX_STUNTS):
        return None
    return character.model_copy(update={"stunts": (*character.stunts, stunt)})


def step_level(
    character: Character, options: FateOptions, rated: Rated, item: str, delta: int
) -> Press:
    """``item`` (a skill, or a piece of gear) one level up or down; a level below 0 is the
    sheet unchanged (nothing to lower, nothing to explain)."""
    changed: dict[str, object]
    if rated == "skills":
        level = character.skill(Skill(item)) + delta
        changed = {"skills": {**character.skills, Skill(item): level}}
    else:
        level = getattr(character.equipment, item) + delta
        changed = {"equipment": character.equipment.model_copy(update={item: level})}
    if level < 0:
        return character
    after = character.model_copy(update=changed)
    found = errors_only(validate_character(after, options))
    refused = [v for v in found if v.field in (f"{rated}.{item}", rated)]
    return refused if refused and delta > 0 else after


def trade_refresh(character: Character, options: FateOptions, delta: int) -> Press | None:
    """Refresh ``delta`` (−1: one more stunt slot; +1: taken back, if the stunts still fit the
    smaller allowance). None: nothing is traded, so there is nothing to take back."""
    if delta > 0 and character.refresh >= options.base_refresh:
        return None
    after = character.model_copy(update={"refresh": character.refresh + delta})
    if delta < 0 and character.refresh > options.min_refresh:
        return after
    found = errors_only(validate_character(after, options))
    fields = ("refresh",) if delta < 0 else ("stunts", "refresh")
    refused = [v for v in found if v.field.startswith(fields)]
    return refused or after
