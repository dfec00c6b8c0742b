"""The ``cliche`` wizard's draft: JSON-safe ``dialog_data`` and the sheet made of it.

The draft lives in ``dialog_data`` (stored in Postgres, so a restart resumes the wizard) as
plain JSON: ``name``, ``attrs`` {physical, mental, social}, ``cliches`` (each a dumped engine
``Cliche``, so a returned sheet's extra fields survive), ``hooks``, ``backstory`` and ``bonus``
(the sheet's own ``gm_bonus_dice``, kept from a returned draft). Every rule comes from
``engine.systems.cliche.validate_character``, what one press may refuse from
``engine.systems.cliche.allocation``.
"""

from __future__ import annotations

from typing import Any, Final

from engine.systems.cliche import Attributes, Character, Cliche, ClicheOptions
from handlers.wizards.flow.start import returned_sheet

Draft = dict[str, Any]

ATTRS: Final = ("physical", "mental", "social")
KEYS: Final = ("name", "attrs", "cliches", "hooks", "backstory", "bonus")  # the draft's own


def fresh(options: ClicheOptions) -> Draft:
    return from_sheet(None, options)


def from_sheet(sheet: dict[str, Any] | None, options: ClicheOptions) -> Draft:
    """A returned sheet as a draft; a fresh draft when there is none (or it no longer loads)."""
    attrs = Attributes(**dict.fromkeys(ATTRS, options.attribute_min))
    character = returned_sheet(Character, sheet, Character(name="", attributes=attrs))
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
