"""The five rule systems as the bot sees them: one uniform entry per engine package."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from bot import glossary
from bot.i18n import N_
from engine.common import SheetModel, Violation, errors_only, without_required
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.base import (
    PLAIN,
    Milestones,
    RequestRules,
    RollRules,
    SheetRolls,
)
from engine.systems.cards import CardScoring
from engine.systems.cliche import cards as cliche_cards
from engine.systems.cliche import profile as cliche_profile
from engine.systems.cliche import sheet_rolls as cliche_rolls
from engine.systems.cliche.npc import NPC_FORM as CLICHE_NPC
from engine.systems.cliche.outcomes import RULES as CLICHE_RULES
from engine.systems.fate import cards as fate_cards
from engine.systems.fate import profile as fate_profile
from engine.systems.fate import sheet_rolls as fate_rolls
from engine.systems.fate.npc import NPC_FORM as FATE_NPC
from engine.systems.fate.outcomes import RULES as FATE_RULES
from engine.systems.lifegear import cards as lifegear_cards
from engine.systems.lifegear import profile as lifegear_profile
from engine.systems.lifegear import sheet_rolls as lifegear_rolls
from engine.systems.lifegear.npc import NPC_FORM as LIFEGEAR_NPC
from engine.systems.lifegear.outcomes import RULES as LIFEGEAR_RULES
from engine.systems.matter import cards as matter_cards
from engine.systems.matter import profile as matter_profile
from engine.systems.matter import sheet_rolls as matter_rolls
from engine.systems.matter.npc import NPC_FORM as MATTER_NPC
from engine.systems.matter.outcomes import RULES as MATTER_RULES
from engine.systems.matter.traits import trait_message_key as matter_trait_key
from engine.systems.npc import NpcForm
from engine.systems.storyteller import cards as storyteller_cards
from engine.systems.storyteller import profile as storyteller_profile
from engine.systems.storyteller import sheet_rolls as storyteller_rolls
from engine.systems.storyteller.npc import NPC_FORM as STORYTELLER_NPC
from engine.systems.storyteller.outcomes import RULES as STORYTELLER_RULES
from engine.transfer import from_unversioned


@dataclass(frozen=True)
class GameOption:
    """A per-game number a GM may change with buttons (a creation budget, bonus dice)."""

    field: str
    label: str  # msgid
    minimum: int
    maximum: int


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
    # What the system tells the bot beyond one roll (engine.systems.<system>): ``/r`` sheet
    # shorthands, milestones, multi-roll cards (``engine.systems.cards``), roll requests.
    sheet_rolls: SheetRolls = field(kw_only=True)
    milestones: Milestones = field(kw_only=True)
    cards: CardScoring = field(kw_only=True)
    requests: RequestRules = field(kw_only=True)
    # Bot-side words (msgids): each milestone kind's button; what the request builder asks
    # for the level (opposition, difficulty, target number).
    milestone_titles: Mapping[str, str] = field(kw_only=True)
    level_ask: str = field(kw_only=True, default=N_("target number?"))
    level_none: str = field(kw_only=True, default=N_("no difficulty"))  # the builder's «none»
    versus: str = field(kw_only=True, default=N_("vs {target}"))  # a card's level: «против 8»
    # The per-game numbers a GM may change with buttons.
    game_options: tuple[GameOption, ...] = field(kw_only=True, default=())
    # One name for one thing: the sheet's fields in the system's words (``bot/glossary.py``).
    glossary: Mapping[str, str] = field(kw_only=True, default_factory=dict)
    # The engine's message key naming a skill, trait or attribute key of the sheet (None:
    # the sheet's maps hold names as written).
    trait_key: Callable[[str], str] | None = field(kw_only=True, default=None)

    def field_label(self, path: str) -> str:
        """The msgid naming the sheet field at ``path``, never its internal name."""
        return glossary.field_label(self.glossary, path)

    # The GM's one-line NPC (``/npc Громила: Бой 3``); None: only the full wizard.
    npc_form: NpcForm | None = field(kw_only=True, default=None)

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
        self, character: SheetModel, options: SheetModel, *, in_play: bool = False,
        npc: bool = False,
    ) -> list[Violation]:  # fmt: skip
        check = self._validate_in_play if in_play and self._validate_in_play else self._validate
        found = errors_only(check(character, options))
        return without_required(found) if npc else found


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


def _in_play(validate: Callable[..., list[Violation]]) -> Callable[[Any, Any], list[Violation]]:
    """A system's creation check without its start-only rules (an edit or import in play)."""
    return partial(validate, at_creation=False)


SYSTEMS: Final[dict[str, SystemSpec]] = {
    spec.id: spec
    for spec in (
        SystemSpec(
            "fate", N_("FATE"), N_("aspects, skills on the ladder, fate points; 4dF"),
            fate.Character, fate.FateOptions, fate.SCHEMA_VERSION,
            fate.new_character, fate.validate_character, _in_play(fate.validate_character),
            FATE_RULES,
            sheet_rolls=fate_rolls.SHEET_ROLLS, milestones=fate_profile.MILESTONES,
            cards=fate_cards.SCORING, requests=fate_profile.REQUESTS,
            glossary=glossary.FATE,
            trait_key=lambda key: f"fate.skill.{key}",
            milestone_titles={
                "rest_stop": N_("Rest stop"),
                "minor": N_("Minor milestone"),
                "significant": N_("Significant milestone"),
                "major": N_("Major milestone"),
            },
            level_ask=N_("opposition?"),
            npc_form=FATE_NPC,
        ),
        SystemSpec(
            "lifegear", N_("Lives = gear"), N_("GM's roles; wounds break your gear; stat dice"),
            lifegear.Character, lifegear.LifegearOptions, lifegear.SCHEMA_VERSION,
            lifegear.new_character, lifegear.validate_character, rules=LIFEGEAR_RULES,
            sheet_rolls=lifegear_rolls.SHEET_ROLLS, milestones=lifegear_profile.MILESTONES,
            cards=lifegear_cards.SCORING, requests=lifegear_profile.REQUESTS,
            glossary=glossary.LIFEGEAR,
            level_ask=N_("defence?"),  # a roll meets a defence: «9 против защиты 8: успех»
            level_none=N_("no defence"),
            versus=N_("vs defence {target}"),  # the card says it as /r does («против защиты»)
            milestone_titles={
                "fight_end": N_("End of fight"),
                "full_rest": N_("Full rest"),
            },
            game_options=(
                GameOption(
                    "damage_choice_hours", N_("Hours a player has to choose lost gear"), 1, 168
                ),
            ),
            npc_form=LIFEGEAR_NPC,
        ),
        SystemSpec(
            "cliche", N_("Firefly (clichés)"), N_("Risus-style clichés as d6 pools"),
            cliche.Character, cliche.ClicheOptions, cliche.SCHEMA_VERSION,
            cliche.new_character, cliche.validate_character,
            _in_play(cliche.validate_character), rules=CLICHE_RULES,
            sheet_rolls=cliche_rolls.SHEET_ROLLS, milestones=cliche_profile.MILESTONES,
            cards=cliche_cards.SCORING, requests=cliche_profile.REQUESTS,
            glossary=glossary.CLICHE,
            level_none=N_("no target number"),
            milestone_titles={
                "recovery": N_("Recovery after a fight"),
                "end_of_adventure": N_("End of adventure"),
            },
            game_options=(GameOption("base_dice", N_("Cliché dice at creation"), 5, 20),),
            npc_form=CLICHE_NPC,
        ),
        SystemSpec(
            "storyteller", N_("Changeling (Storyteller)"),
            N_("World of Darkness: d10 pools against a difficulty"),
            storyteller.Character, storyteller.StorytellerOptions, storyteller.SCHEMA_VERSION,
            storyteller.new_character, storyteller.validate_character,
            _in_play(storyteller.validate_character),
            rules=STORYTELLER_RULES,
            sheet_rolls=storyteller_rolls.SHEET_ROLLS,
            milestones=storyteller_profile.MILESTONES,
            cards=storyteller_cards.SCORING, requests=storyteller_profile.REQUESTS,
            glossary=glossary.STORYTELLER,
            trait_key=lambda key: f"storyteller.trait.{key}",
            milestone_titles={
                "scene": N_("End of scene"),
                "chapter": N_("End of chapter"),
                "story": N_("End of story"),
            },
            level_ask=N_("difficulty?"),
            game_options=(GameOption("freebies", N_("Freebie points"), 0, 50),),
            npc_form=STORYTELLER_NPC,
        ),
        SystemSpec(
            "matter", N_("Matter"), N_("d10 pools, 7+ succeeds, states and scene conditions"),
            matter.Character, matter.MatterOptions, matter.SCHEMA_VERSION,
            matter.new_character, matter.validate_character, rules=MATTER_RULES,
            sheet_rolls=matter_rolls.SHEET_ROLLS, milestones=matter_profile.MILESTONES,
            cards=matter_cards.SCORING, requests=matter_profile.REQUESTS,
            glossary=glossary.MATTER,
            trait_key=matter_trait_key,
            milestone_titles={
                "scene_end": N_("End of scene"),
                "rest": N_("Rest"),
            },
            game_options=(
                GameOption("dot_budget", N_("Skill dots"), 1, 40),
                GameOption("dot_cap", N_("Max dots per skill"), 1, 5),
            ),
            npc_form=MATTER_NPC,
        ),
    )
}  # fmt: skip


def rules_for(system: str | None) -> RollRules:
    """The outcome ladder of ``system``'s rolls; outside a game (or an unknown system), the
    plain one: success is a total at or above the target."""
    spec = SYSTEMS.get(system or "")
    return spec.rules if spec is not None else PLAIN


# Version 0 of every system: a sheet from a file written before sheets carried a version
# (``tests/export/fixtures/v0``).
SHEET_UPGRADES.update({(system, 0): from_unversioned for system in SYSTEMS})
