"""The five rule systems as the bot sees them: one uniform entry per engine package."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n import N_
from engine.common import SheetModel, Violation, errors_only
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.base import PLAIN, RollRules
from engine.systems.cliche.npc import NPC_FORM as CLICHE_NPC
from engine.systems.cliche.outcomes import RULES as CLICHE_RULES
from engine.systems.fate.npc import NPC_FORM as FATE_NPC
from engine.systems.fate.outcomes import RULES as FATE_RULES
from engine.systems.lifegear.npc import NPC_FORM as LIFEGEAR_NPC
from engine.systems.lifegear.outcomes import RULES as LIFEGEAR_RULES
from engine.systems.matter.npc import NPC_FORM as MATTER_NPC
from engine.systems.matter.outcomes import RULES as MATTER_RULES
from engine.systems.npc import NpcForm
from engine.systems.storyteller.npc import NPC_FORM as STORYTELLER_NPC
from engine.systems.storyteller.outcomes import RULES as STORYTELLER_RULES


@dataclass(frozen=True)
class SystemSpec:
    id: str
    title: str  # msgid
    blurb: str  # msgid: one line for the system picker
    character_type: type[SheetModel]
    options_type: type[SheetModel]
    schema_version: int
    new_character: Callable[[str], SheetModel]
    _validate: Callable[[Any, Any], list[Violation]]
    # Rules for a sheet already in play (edits); creation-only rules left out. None: the same.
    _validate_in_play: Callable[[Any, Any], list[Violation]] | None = None
    # The outcome ladder of one roll: its exact chances and the reading of rolled dice.
    rules: RollRules = PLAIN
    # The GM's one-line NPC (``/npc Громила: Бой 3``); None: only the full wizard.
    npc_form: NpcForm | None = None

    def options(self, raw: dict[str, Any] | None) -> SheetModel:
        return self.options_type.model_validate(raw or {})

    def load(self, sheet: dict[str, Any], schema_version: int | None = None) -> SheetModel:
        """A stored sheet back into the engine's model, upgraded first if it was stored by an
        older schema (raises pydantic's ValidationError for a sheet that cannot be read)."""
        version = self.schema_version if schema_version is None else schema_version
        return self.character_type.model_validate(upgrade_sheet(self.id, sheet, version))

    def validate(self, character: SheetModel, options: SheetModel) -> list[Violation]:
        return self._validate(character, options)

    def blocking(
        self, character: SheetModel, options: SheetModel, *, in_play: bool = False
    ) -> list[Violation]:
        check = self._validate_in_play if in_play and self._validate_in_play else self._validate
        return errors_only(check(character, options))


SheetUpgrade = Callable[[dict[str, Any]], dict[str, Any]]

# (system, from_version) → a function turning a stored sheet of that version into the next
# one. When an engine model changes incompatibly, bump its SCHEMA_VERSION and add the step
# here; sheets are upgraded when read, and rewritten at their next save.
SHEET_UPGRADES: dict[tuple[str, int], SheetUpgrade] = {}


def upgrade_sheet(system: str, sheet: dict[str, Any], version: int) -> dict[str, Any]:
    current = SYSTEMS[system].schema_version
    if version > current:
        raise ValueError(f"{system} sheet version {version} is newer than this bot ({current})")
    while version < current:
        sheet = SHEET_UPGRADES[(system, version)](sheet)
        version += 1
    return sheet


def _fate_in_play(character: Any, options: Any) -> list[Violation]:
    # Fate points equal to refresh and no harm taken are rules of a new character only.
    return fate.validate_character(character, options, at_creation=False)


SYSTEMS: Final[dict[str, SystemSpec]] = {
    spec.id: spec
    for spec in (
        SystemSpec(
            "fate", N_("FATE"), N_("aspects, skills on the ladder, fate points; 4dF"),
            fate.Character, fate.FateOptions, fate.SCHEMA_VERSION,
            fate.new_character, fate.validate_character, _fate_in_play, FATE_RULES,
            npc_form=FATE_NPC,
        ),
        SystemSpec(
            "lifegear", N_("Lives = gear"), N_("your equipment is your hit points; stat dice"),
            lifegear.Character, lifegear.LifegearOptions, lifegear.SCHEMA_VERSION,
            lifegear.new_character, lifegear.validate_character, rules=LIFEGEAR_RULES,
            npc_form=LIFEGEAR_NPC,
        ),
        SystemSpec(
            "cliche", N_("Firefly (clichés)"), N_("Risus-style clichés as d6 pools"),
            cliche.Character, cliche.ClicheOptions, cliche.SCHEMA_VERSION,
            cliche.new_character, cliche.validate_character, rules=CLICHE_RULES,
            npc_form=CLICHE_NPC,
        ),
        SystemSpec(
            "storyteller", N_("Changeling (Storyteller)"),
            N_("World of Darkness: d10 pools against a difficulty"),
            storyteller.Character, storyteller.StorytellerOptions, storyteller.SCHEMA_VERSION,
            storyteller.new_character, storyteller.validate_character,
            rules=STORYTELLER_RULES, npc_form=STORYTELLER_NPC,
        ),
        SystemSpec(
            "matter", N_("Matter"), N_("d10 pools, 7+ succeeds, states and scene conditions"),
            matter.Character, matter.MatterOptions, matter.SCHEMA_VERSION,
            matter.new_character, matter.validate_character, rules=MATTER_RULES,
            npc_form=MATTER_NPC,
        ),
    )
}  # fmt: skip


def rules_for(system: str | None) -> RollRules:
    """The outcome ladder of ``system``'s rolls; outside a game (or an unknown system), the
    plain one: success is a total at or above the target."""
    spec = SYSTEMS.get(system or "")
    return spec.rules if spec is not None else PLAIN
