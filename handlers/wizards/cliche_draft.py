"""The ``cliche`` wizard's draft: JSON-safe ``dialog_data`` and the engine checks run on it.

The draft lives in ``dialog_data`` (stored in Postgres, so a restart resumes the wizard) as
plain JSON: ``name``, ``attrs`` {physical, mental, social}, ``cliches`` (each a dumped engine
``Cliche``, so a returned sheet's extra fields survive), ``hooks``, ``backstory`` and ``bonus``
(the sheet's own ``gm_bonus_dice``, kept from a returned draft). Every rule comes from
``engine.systems.cliche.validate_character``; this module only decides which of the engine's
violations a single step may refuse.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from pydantic import ValidationError

from engine.common import Violation, errors_only
from engine.systems.cliche import (
    Attributes,
    Character,
    Cliche,
    ClicheOptions,
    ToolEffect,
    validate_character,
)

logger = logging.getLogger(__name__)

Draft = dict[str, Any]

ATTRS: Final = ("physical", "mental", "social")
KEYS: Final = ("name", "attrs", "cliches", "hooks", "backstory", "bonus")  # the draft's own
EFFECTS: Final = tuple(effect.value for effect in ToolEffect)
DEFAULT_BASE_DICE: Final = int(ClicheOptions.model_fields["base_dice"].default)
# Keep dialog_data (and the keyboards) small; the engine only warns above ten clichés.
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


def fresh(options: ClicheOptions) -> Draft:
    return {
        "name": "",
        "attrs": dict.fromkeys(ATTRS, options.attribute_min),
        "cliches": [],
        "hooks": [],
        "backstory": "",
        "bonus": 0,
    }


def from_sheet(sheet: dict[str, Any] | None, options: ClicheOptions) -> Draft:
    """A returned sheet as a draft; a fresh draft when there is none (or it no longer loads)."""
    if not sheet:
        return fresh(options)
    try:
        character = Character.model_validate(sheet)
    except ValidationError:
        logger.warning("returned cliche sheet does not load; starting afresh")
        return fresh(options)
    dumped = character.model_dump(mode="json")
    return {
        "name": character.name,
        "attrs": dumped["attributes"],
        "cliches": dumped["cliches"],
        "hooks": list(character.hooks),
        "backstory": character.backstory,
        "bonus": character.gm_bonus_dice,
    }


def character(draft: Draft) -> Character:
    return Character(
        name=str(draft.get("name") or ""),
        attributes=Attributes(**draft["attrs"]),
        cliches=tuple(Cliche.model_validate(item) for item in draft["cliches"]),
        hooks=tuple(draft["hooks"]),
        backstory=str(draft.get("backstory") or ""),
        gm_bonus_dice=int(draft.get("bonus") or 0),
    )


def violations(draft: Draft, options: ClicheOptions) -> list[Violation]:
    return validate_character(character(draft), options)


def blocking(draft: Draft, options: ClicheOptions, prefix: str) -> list[Violation]:
    """The draft's blocking violations about one part of the sheet (``attributes``…)."""
    return [v for v in errors_only(violations(draft, options)) if v.field.startswith(prefix)]


def new_cliche(name: str) -> dict[str, Any]:
    return Cliche(name=name, dice=1).model_dump(mode="json")


# --- budget -----------------------------------------------------------------------------------


def dice_used(draft: Draft) -> int:
    """Dice bought with the creation budget (armor clichés are gear, not bought: engine rule)."""
    return sum(int(c["dice"]) for c in draft["cliches"] if not c.get("armor"))


def budget(draft: Draft, options: ClicheOptions) -> int:
    return options.base_dice + int(draft.get("bonus") or 0)


def gm_bonus(draft: Draft, options: ClicheOptions) -> int:
    """The GM's bonus dice: the game's budget above the rules' 10, plus the sheet's own."""
    return max(0, options.base_dice - DEFAULT_BASE_DICE) + int(draft.get("bonus") or 0)


# --- single-step checks -----------------------------------------------------------------------


def attribute_refusal(
    draft: Draft, options: ClicheOptions, attr: str, step: int
) -> list[Violation]:
    """Why ``attr`` may not move by ``step`` (out of range, or more points than given)."""
    candidate = {**draft, "attrs": {**draft["attrs"], attr: draft["attrs"][attr] + step}}
    over = sum(candidate["attrs"].values()) > options.attribute_points
    return [
        v
        for v in blocking(candidate, options, "attributes")
        if v.field == f"attributes.{attr}" or (over and v.field == "attributes")
    ]


def dice_refusal(draft: Draft, options: ClicheOptions, index: int, step: int) -> list[Violation]:
    """Why cliché ``index`` may not move by ``step`` dice: a dice rule it would newly break."""
    items = [dict(c) for c in draft["cliches"]]
    items[index]["dice"] = int(items[index]["dice"]) + step
    candidate = {**draft, "cliches": items}
    before = {v.msg for v in errors_only(violations(draft, options)) if v.msg.key in DICE_KEYS}
    after = violations(candidate, options)
    found = [v for v in errors_only(after) if v.msg.key in DICE_KEYS and v.msg not in before]
    if step > 0 and dice_used(candidate) > max(budget(draft, options), dice_used(draft)):
        # The engine only warns above the budget (a GM-edited sheet may hold more); a die the
        # player adds in the wizard must come from the budget (issue 36 item 9c).
        found += [Violation(v.field, v.msg) for v in after if v.msg.key == OVER_BUDGET]
    return found


def no_dice_left(draft: Draft, options: ClicheOptions) -> bool:
    """A new cliché takes one die: none is left when the budget is spent."""
    return dice_used(draft) >= budget(draft, options)


def name_refusal(draft: Draft, options: ClicheOptions, index: int, name: str) -> list[Violation]:
    """Why cliché ``index`` (or a new one, when ``index`` is -1) may not be called ``name``."""
    items = [dict(c) for c in draft["cliches"]]
    if index < 0:
        items.append(new_cliche(name))
    else:
        items[index]["name"] = name
    found = errors_only(violations({**draft, "cliches": items}, options))
    return [
        v
        for v in found
        if v.msg.key == "cliche.creation.duplicate_name"
        and str(v.msg.params.get("name", "")).casefold() == name.casefold()
    ]


def next_effect(value: str) -> str:
    """The next «without it» effect, in a cycle (the GM has the last word on approval)."""
    index = EFFECTS.index(value) if value in EFFECTS else -1
    return EFFECTS[(index + 1) % len(EFFECTS)]
