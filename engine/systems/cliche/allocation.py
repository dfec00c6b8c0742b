"""Creation one press at a time: the dice budget, the wizard's caps on list lengths (refused as
``cliche_refusal``, ``tool_refusal``, ``hook_refusal``), a tool's effect cycle, and which of
``validate_character``'s violations a single press (an attribute point, a die, a cliché's name)
newly breaks and so may refuse, and which of its warnings are about one part of the sheet. A
sheet may be incomplete between presses (no cliché yet, the points not all spread): only what
the press itself breaks is its refusal.
"""

from __future__ import annotations

from typing import Final

from engine.common import NOTE, Severity, Violation, errors_only
from engine.systems.cliche.creation import validate_character
from engine.systems.cliche.sheet import Character, Cliche, ClicheOptions, ToolEffect
from engine.text import msg

DEFAULT_BASE_DICE: Final = int(ClicheOptions.model_fields["base_dice"].default)
# Keep a wizard's stored state (and its keyboards) small; the rules only warn above ten clichés.
MAX_CLICHES: Final = 15
MAX_TOOLS: Final = 5
MAX_HOOKS: Final = 10

# Violations the dice buttons refuse: they concern the die just added (a cliché above the cap,
# a third cliché at the cap). «Not a novice» is left to the list's Next so that lowering a
# cliché is always possible.
DICE_KEYS: Final = frozenset(
    {
        "cliche.creation.cliche_too_low",
        "cliche.creation.cliche_too_high",
        "cliche.creation.too_many_at_cap",
    }
)
OVER_BUDGET: Final = "cliche.creation.over_budget"


def dice_used(character: Character) -> int:
    """Dice bought with the creation budget (armor clichés are gear, not bought)."""
    return sum(c.dice for c in character.cliches if not c.armor)


def budget(character: Character, options: ClicheOptions) -> int:
    return options.base_dice + character.gm_bonus_dice


def gm_bonus(character: Character, options: ClicheOptions) -> int:
    """The GM's bonus dice: the game's budget above the rules' 10, plus the sheet's own."""
    return max(0, options.base_dice - DEFAULT_BASE_DICE) + character.gm_bonus_dice


def new_cliche(name: str) -> Cliche:
    """A cliché as creation adds it: one die, the least it may hold."""
    return Cliche(name=name, dice=1)


def no_dice_left(character: Character, options: ClicheOptions) -> bool:
    """A new cliché takes one die: none is left when the budget is spent."""
    return dice_used(character) >= budget(character, options)


def cliche_refusal(character: Character, options: ClicheOptions) -> list[Violation]:
    """Why no cliché may be added: the wizard's cap, or no die left for its first one."""
    if len(character.cliches) >= MAX_CLICHES:
        return [Violation("cliches", msg("cliche.creation.enough_cliches"))]
    if no_dice_left(character, options):
        spent = msg("cliche.creation.dice_spent", budget=budget(character, options))
        return [Violation("cliches", spent)]
    return []


def tool_refusal(item: Cliche) -> list[Violation]:
    """Why ``item`` may take no further tool of the trade (the wizard's cap)."""
    full = len(item.tools) >= MAX_TOOLS
    return [Violation("cliches", msg("cliche.creation.enough_tools"))] if full else []


def hook_refusal(character: Character) -> list[Violation]:
    """Why no further hook may be added (the wizard's cap)."""
    full = len(character.hooks) >= MAX_HOOKS
    return [Violation("hooks", msg("cliche.creation.enough_hooks"))] if full else []


def next_effect(effect: ToolEffect) -> ToolEffect:
    """What a missing tool does next, as a tap cycles it (the GM has the last word on it)."""
    effects = list(ToolEffect)
    return effects[(effects.index(effect) + 1) % len(effects)]


def blocking(character: Character, options: ClicheOptions, prefix: str) -> list[Violation]:
    """The sheet's blocking violations about one part of it (``attributes``, ``cliches``)."""
    found = errors_only(validate_character(character, options))
    return [v for v in found if v.field.removeprefix(NOTE).startswith(prefix)]


def warnings(character: Character, options: ClicheOptions, prefix: str) -> list[Violation]:
    """The sheet's warnings (what the GM weighs, ``NOTE``) about one part of it (``cliches``)."""
    found = validate_character(character, options)
    return [
        v
        for v in found
        if v.severity is Severity.WARNING and v.field.removeprefix(NOTE).startswith(prefix)
    ]


def attribute_refusal(
    character: Character, options: ClicheOptions, attr: str, step: int
) -> list[Violation]:
    """Why ``attr`` may not move by ``step`` (out of range, or more points than given)."""
    moved = getattr(character.attributes, attr) + step
    attrs = character.attributes.model_copy(update={attr: moved})
    over = sum(attrs.model_dump().values()) > options.attribute_points
    return [
        v
        for v in blocking(
            character.model_copy(update={"attributes": attrs}), options, "attributes"
        )
        if v.field == f"attributes.{attr}" or (over and v.field == "attributes")
    ]


def dice_refusal(
    character: Character, options: ClicheOptions, index: int, step: int
) -> list[Violation]:
    """Why cliché ``index`` may not move by ``step`` dice: a dice rule it would newly break,
    or a die added beyond the budget (the rules only warn there, as a GM-edited sheet may hold
    more; a die a player adds must come from the budget)."""
    items = list(character.cliches)
    items[index] = items[index].model_copy(update={"dice": items[index].dice + step})
    candidate = character.model_copy(update={"cliches": tuple(items)})
    before = validate_character(character, options)
    known = {v.msg for v in errors_only(before) if v.msg.key in DICE_KEYS}
    after = validate_character(candidate, options)
    found = [v for v in errors_only(after) if v.msg.key in DICE_KEYS and v.msg not in known]
    if step > 0 and dice_used(candidate) > max(budget(character, options), dice_used(character)):
        found += [Violation(v.field, v.msg) for v in after if v.msg.key == OVER_BUDGET]
    return found


def name_refusal(
    character: Character, options: ClicheOptions, index: int, name: str
) -> list[Violation]:
    """Why cliché ``index`` (or a new one, when ``index`` is -1) may not be called ``name``."""
    items = list(character.cliches)
    if index < 0:
        items.append(new_cliche(name))
    else:
        items[index] = items[index].model_copy(update={"name": name})
    candidate = character.model_copy(update={"cliches": tuple(items)})
    return [
        v
        for v in errors_only(validate_character(candidate, options))
        if v.msg.key == "cliche.creation.duplicate_name"
        and str(v.msg.params.get("name", "")).casefold() == name.casefold()
    ]
