"""Harm: absorbing hits with stress and consequences, being taken out, conceding, healing.

A hit (harm after armor) is absorbed by at most one unmarked stress box of its track plus any
number of free consequence slots, so that box value (0 without a box) + Σ slot values ≥ hit
(SPEC DECISION, Fate Core). ``absorb_options`` lists every legal way, so the UI can offer each
as a button; being taken out is always offered as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.dice.source import RandomSource
from engine.errors import EngineError, RuleViolation
from engine.systems.fate.checks import Action, CheckResult, check
from engine.systems.fate.derived import (
    free_consequence_slots,
    slot_value,
    stress_track,
)
from engine.systems.fate.invokes import gain_fate_points
from engine.systems.fate.models import (
    SEVERITY_VALUE,
    SLOT_SEVERITY,
    Character,
    Consequence,
    Nature,
    Skill,
    SlotId,
    TrackKind,
    name_params,
)
from engine.text import msg, register_messages

register_messages(
    {
        "fate.harm.illegal_option": {
            "ru": "Так этот удар поглотить нельзя.",
            "en": "This hit cannot be absorbed that way.",
        },
        "fate.harm.needs_text": {
            "ru": "Назовите последствие для слота «{slot_ru}».",
            "en": "Name the consequence for the “{slot_en}” slot.",
        },
        "fate.harm.needs_aspect": {
            "ru": "Критическое последствие заменяет один из аспектов — выберите какой.",
            "en": "An extreme consequence replaces one of your aspects: pick which.",
        },
        "fate.harm.bad_track": {
            "ru": "Урон не может приходиться на эту шкалу.",
            "en": "Harm cannot be dealt to that track.",
        },
        "fate.harm.cannot_take_out": {
            "ru": "Здесь выбыть нельзя.",
            "en": "You cannot be taken out here.",
        },
        "fate.harm.no_free_invoke": {
            "ru": "Бесплатного обращения к этому последствию у вас нет.",
            "en": "You have no free invoke on that consequence.",
        },
        "fate.heal.no_consequence": {
            "ru": "В этом слоте нет последствия.",
            "en": "There is no consequence in that slot.",
        },
        "fate.heal.already": {
            "ru": "Это последствие уже лечится.",
            "en": "This consequence is already treated.",
        },
        "fate.heal.wrong_skill": {
            "ru": "Это последствие лечат навыком: {skills_ru}.",
            "en": "This consequence is healed with: {skills_en}.",
        },
    }
)

_TRACK_NATURE: Final[dict[TrackKind, Nature]] = {
    TrackKind.PHYSICAL: Nature.PHYSICAL,
    TrackKind.MENTAL: Nature.MENTAL,
    TrackKind.MAGICAL: Nature.MAGICAL,
}

HEALING_SKILLS: Final[dict[Nature, tuple[Skill, ...]]] = {
    Nature.PHYSICAL: (Skill.EDUCATION,),
    Nature.MENTAL: (Skill.EMPATHY,),
    # DECISION: the seed names no healer for magical harm; either healing skill may treat it.
    Nature.MAGICAL: (Skill.EDUCATION, Skill.EMPATHY),
}


@dataclass(frozen=True)
class AbsorbOption:
    """One way to take a hit: a box (``box_track``/``box``) and/or consequence slots.

    ``taken_out`` is the option to drop out instead. ``capacity`` is what the option soaks;
    ``minimal`` is true when no part of it could be left out (the UI shows those first).
    """

    box_track: TrackKind | None
    box: int | None
    slots: tuple[SlotId, ...]
    capacity: int
    minimal: bool
    taken_out: bool = False


TAKEN_OUT: Final = AbsorbOption(None, None, (), 0, True, taken_out=True)


def _boxes(character: Character, track: TrackKind) -> list[tuple[TrackKind, int]]:
    tracks = [track]
    if track is TrackKind.MAGICAL:
        tracks.append(TrackKind.ACCUMULATOR)
    return [(t, v) for t in tracks for v in stress_track(character, t).free_values]


def _slots(character: Character, track: TrackKind) -> list[SlotId]:
    typed = {TrackKind.PHYSICAL: SlotId.MILD_PHYSICAL, TrackKind.MENTAL: SlotId.MILD_MENTAL}
    slots = []
    for slot in free_consequence_slots(character):
        if slot in (SlotId.MILD_PHYSICAL, SlotId.MILD_MENTAL) and typed.get(track) is not slot:
            continue
        slots.append(slot)
    if _extreme_available(character):
        slots.append(SlotId.EXTREME)
    return slots


def _extreme_available(character: Character) -> bool:
    """DECISION (Fate Core): one extreme consequence at a time, and it needs an aspect to
    replace that no other extreme has taken."""
    if any(c.slot is SlotId.EXTREME for c in character.consequences):
        return False
    return bool(character.aspects)


def _is_minimal(box: int, slots: tuple[SlotId, ...], hit: int) -> bool:
    parts = [box] if box else []
    parts += [slot_value(s) for s in slots]
    total = sum(parts)
    return all(total - p < hit for p in parts)


def absorb_options(
    character: Character, hit: int, track: TrackKind, *, allow_taken_out: bool = True
) -> tuple[AbsorbOption, ...]:
    """Every legal way to absorb ``hit`` shifts of harm on ``track``.

    Boxes come from the hit's track (a magical hit may use the accumulator too); slots are the
    free untyped ones, the extra mild slot typed like the hit, and the extreme consequence.
    Sorted: minimal first, then fewer consequences, lower capacity, lower box. A hit of 0 or
    less needs nothing (one empty option). Being taken out comes last.
    """
    if track is TrackKind.ACCUMULATOR:
        raise EngineError(msg("fate.harm.bad_track"))
    if hit <= 0:
        return (AbsorbOption(None, None, (), 0, True),)
    boxes: list[tuple[TrackKind | None, int]] = [(None, 0), *_boxes(character, track)]
    slots = _slots(character, track)
    found = []
    for n in range(len(slots) + 1):
        for combo in combinations(slots, n):
            soak = sum(slot_value(s) for s in combo)
            for box_track, box in boxes:
                if box + soak >= hit:
                    minimal = _is_minimal(box, combo, hit)
                    found.append(AbsorbOption(box_track, box or None, combo, box + soak, minimal))
    found.sort(key=lambda o: (not o.minimal, len(o.slots), o.capacity, o.box or 0))
    if allow_taken_out:
        found.append(TAKEN_OUT)
    return tuple(found)


@dataclass(frozen=True)
class AbsorbResult:
    """What absorbing did: the marked box, the consequences taken, or taken out."""

    hit: int
    track: TrackKind
    option: AbsorbOption
    consequences: tuple[Consequence, ...]

    @property
    def taken_out(self) -> bool:
        return self.option.taken_out


def absorb(
    character: Character,
    hit: int,
    track: TrackKind,
    option: AbsorbOption,
    *,
    texts: Mapping[SlotId, str] | None = None,
    replaces_aspect: int | None = None,
    nature: Nature | None = None,
    conflict_id: str | None = None,
    inflicted_by: str | None = None,
) -> tuple[Character, AbsorbResult]:
    """Take a hit in one of the ways ``absorb_options`` lists (anything else is refused).

    ``texts`` names each new consequence; an extreme consequence needs ``replaces_aspect``
    (an index into the aspects). The consequence's nature follows the track unless given.
    ``inflicted_by`` gets the free invoke on the new consequences.
    """
    if option not in absorb_options(character, hit, track):
        raise RuleViolation(msg("fate.harm.illegal_option"))
    if option.taken_out or not (option.box or option.slots):
        return character, AbsorbResult(hit, track, option, ())
    names = texts or {}
    new = tuple(
        _consequence(
            character,
            slot,
            names,
            replaces_aspect,
            nature or _TRACK_NATURE[track],
            conflict_id,
            inflicted_by,
        )
        for slot in option.slots
    )
    stress = character.stress
    if option.box is not None and option.box_track is not None:
        marks = stress.of(option.box_track)
        stress = stress.with_marks(option.box_track, (*marks, option.box))
    updated = character.model_copy(
        update={"stress": stress, "consequences": character.consequences + new}
    )
    return updated, AbsorbResult(hit, track, option, new)


def _consequence(
    character: Character,
    slot: SlotId,
    texts: Mapping[SlotId, str],
    replaces_aspect: int | None,
    nature: Nature,
    conflict_id: str | None,
    inflicted_by: str | None,
) -> Consequence:
    text = texts.get(slot, "").strip()
    if not text:
        raise EngineError(msg("fate.harm.needs_text", **name_params("slot", slot)))
    replaces = None
    if slot is SlotId.EXTREME:
        if replaces_aspect is None or not 0 <= replaces_aspect < len(character.aspects):
            raise EngineError(msg("fate.harm.needs_aspect"))
        replaces = replaces_aspect
    return Consequence(
        slot=slot,
        text=text,
        nature=nature,
        conflict_id=conflict_id,
        inflicted_by=inflicted_by,
        replaces_aspect=replaces,
        free_invokes={inflicted_by: 1} if inflicted_by else {},
    )


def use_consequence_invoke(character: Character, slot: SlotId, holder: str) -> Character:
    """Spend ``holder``'s free invoke on one of the character's consequences."""
    cons = _find(character, slot)
    have = cons.free_invokes.get(holder, 0)
    if have < 1:
        raise RuleViolation(msg("fate.harm.no_free_invoke"))
    left = {k: v for k, v in {**cons.free_invokes, holder: have - 1}.items() if v > 0}
    updated = tuple(
        c.model_copy(update={"free_invokes": left}) if c.slot is slot else c
        for c in character.consequences
    )
    return character.model_copy(update={"consequences": updated})


# --- conceding -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConcedeOutcome:
    successful: bool
    fate_points_gained: int
    consequences_counted: int


def concede(
    character: Character,
    *,
    successful: bool,
    conflict_id: str | None = None,
    consequences_taken: int | None = None,
) -> tuple[Character, ConcedeOutcome]:
    """The GM has ruled on a concession. Only a successful one pays: +1 FP, plus +1 per
    consequence taken in this conflict (counted from the sheet by ``conflict_id`` unless the
    caller passes ``consequences_taken``). No timing is enforced (the seed sets none)."""
    if not successful:
        return character, ConcedeOutcome(False, 0, 0)
    count = consequences_taken
    if count is None:
        count = sum(
            1 for c in character.consequences if conflict_id and c.conflict_id == conflict_id
        )
    gained = 1 + count
    return gain_fate_points(character, gained), ConcedeOutcome(True, gained, count)


# --- healing ---------------------------------------------------------------------------------


def healing_difficulty(slot: SlotId) -> int:
    """DECISION (Fate Core): the healing overcome is against the consequence's value —
    mild +2, moderate +4, severe +6, extreme +8."""
    return SEVERITY_VALUE[SLOT_SEVERITY[slot]]


def _find(character: Character, slot: SlotId) -> Consequence:
    for cons in character.consequences:
        if cons.slot is slot:
            return cons
    raise RuleViolation(msg("fate.heal.no_consequence"))


def heal(
    source: RandomSource,
    patient: Character,
    slot: SlotId,
    *,
    healer_skill: Skill,
    healer_level: int,
    modifier: int = 0,
) -> tuple[Character, CheckResult]:
    """A healing action on one consequence (Образование physical, Эмпатия mental): an overcome
    against its value. Success (tie is not enough: DECISION) marks it treated; it then clears at
    its milestone (moderate: minor, severe: significant, extreme: major). A medicine's bonus goes
    into ``modifier``."""
    cons = _find(patient, slot)
    if cons.treated:
        raise RuleViolation(msg("fate.heal.already"))
    allowed = HEALING_SKILLS[cons.nature]
    if healer_skill not in allowed:
        raise RuleViolation(msg("fate.heal.wrong_skill", **name_params("skills", *allowed)))
    result = check(
        source,
        Action.OVERCOME,
        skill=healer_level,
        opposition=healing_difficulty(slot),
        modifier=modifier,
    )
    if not result.succeeded:
        return patient, result
    treated = tuple(
        c.model_copy(update={"treated": True}) if c.slot is slot else c
        for c in patient.consequences
    )
    return patient.model_copy(update={"consequences": treated}), result
