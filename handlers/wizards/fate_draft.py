"""The FATE wizard's draft (JSON, resumed after a restart) to and from the engine's sheet."""

from __future__ import annotations

from typing import Any

from engine.systems.fate import (
    AspectRole,
    Character,
    FateOptions,
    allocation,
    new_character,
    starting_fate_points,
)
from handlers.wizards.flow.start import returned_sheet

Data = dict[str, Any]

ROLES = {"concept": AspectRole.CONCEPT, "trouble": AspectRole.TROUBLE, "phase": AspectRole.PHASE}


def load(sheet: dict[str, Any] | None, options: FateOptions) -> Data:
    """The flow's draft: a fresh one, or from a returned (or edited) sheet."""
    character = returned_sheet(Character, sheet, None)
    # fields the wizard does not edit (artifacts, alchemy, extras, notes) survive a return
    base = None if character is None else character.model_dump(mode="json")
    character = character or new_character("", options=options)
    by_role = {a.role: a.text for a in character.aspects}
    crossings = [a.text for a in character.aspects if a.role is AspectRole.CROSSING]
    return {
        "base": base,
        "name": character.name,
        **{key: by_role.get(role, "") for key, role in ROLES.items()},
        "crossings": [{"text": text, "with": None} for text in crossings],
        "skills": {s.value: v for s, v in character.skills.items() if v},
        "refresh": character.refresh,
        "stunts": [s.model_dump(mode="json") for s in character.stunts],  # keeps ``powerful``
        "gear": character.equipment.model_dump(mode="json"),
        "editing": False,  # an approved character in play keeps its current fate points
    }


def upgrade(old: dict[str, Any], options: FateOptions) -> Data:
    """A wizard stored by the hand-written dialog kept these same keys in ``dialog_data``."""
    fresh = load(None, options)
    return {**fresh, **{key: old[key] for key in (*fresh, "cross_with") if key in old}}


def build(data: Data, options: Any = None) -> Character:
    """The engine's character from the draft (the game's options are not needed for it)."""
    aspects = [{"text": data[key], "role": role} for key, role in ROLES.items() if data.get(key)]
    aspects += [{"text": c["text"], "role": AspectRole.CROSSING} for c in data["crossings"]]
    base: Data = dict(data.get("base") or {})
    kept = [a for a in base.get("aspects", []) if a.get("role") == AspectRole.EXTRA.value]
    refresh = int(data["refresh"])
    in_play = base.get("fate_points") if data.get("editing") else None
    fields: Data = {
        **base,
        "name": data["name"],
        "aspects": aspects + kept,
        "skills": {k: v for k, v in data["skills"].items() if v},
        "refresh": refresh,
        "fate_points": starting_fate_points(refresh, in_play),
        "stunts": data["stunts"],
        "equipment": data["gear"],
    }
    return Character.model_validate(fields)


def levels(sheet: Character, rated: allocation.Rated) -> Data:
    """The draft's keys for a sheet's skills, or its gear."""
    if rated == "skills":
        return {"skills": {s.value: v for s, v in sheet.skills.items()}}
    return {"gear": sheet.equipment.model_dump(mode="json")}
