"""Contests and conflicts as stored, exchange-based states.

Conflict: sides, zones with situation aspects, an initiative order by Внимательность, turns in
exchanges, full defence (until the acting character's next turn), who is taken out, who
conceded; ending it clears stress. Contest: victory points per exchange, first to the target
wins.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from pydantic import Field

from engine.common import Change, SheetModel
from engine.errors import EngineError, RuleViolation
from engine.systems.fate.checks import FULL_DEFENCE_BONUS
from engine.systems.fate.milestones import clear_stress
from engine.systems.fate.models import AspectKind, Character, StressMarks
from engine.text import msg, register_messages

register_messages(
    {
        "fate.conflict.no_such_participant": {
            "ru": "Такого участника нет.",
            "en": "No such participant.",
        },
        "fate.conflict.duplicate": {
            "ru": "Участник «{id}» указан дважды.",
            "en": "Participant “{id}” is listed twice.",
        },
        "fate.conflict.no_such_zone": {"ru": "Такой зоны нет.", "en": "No such zone."},
        "fate.conflict.no_such_aspect": {
            "ru": "Такого аспекта в зоне нет.",
            "en": "No such aspect in the zone.",
        },
        "fate.conflict.not_your_turn": {
            "ru": "Сейчас ходит другой участник.",
            "en": "It is someone else's turn.",
        },
        "fate.conflict.out": {
            "ru": "Этот участник уже выбыл из конфликта.",
            "en": "This participant is out of the conflict.",
        },
        "fate.conflict.ended": {"ru": "Конфликт окончен.", "en": "The conflict is over."},
        "fate.conflict.too_few": {
            "ru": "Для конфликта нужны хотя бы две стороны.",
            "en": "A conflict needs at least two sides.",
        },
        "fate.conflict.no_free_invoke": {
            "ru": "Бесплатных обращений к этому аспекту у вас нет.",
            "en": "You have no free invokes on that aspect.",
        },
        "fate.contest.target": {
            "ru": "Нужна цель не меньше одного победного очка и участники без повторов.",
            "en": "A contest needs a target of at least 1 victory point and distinct "
            "participants.",
        },
        "fate.contest.over": {"ru": "Состязание окончено.", "en": "The contest is over."},
    }
)


class SceneAspect(SheetModel):
    """A situation aspect or boost in a zone; ``free_invokes`` maps a holder id to a count."""

    name: str
    kind: AspectKind = AspectKind.SITUATION
    free_invokes: dict[str, int] = Field(default_factory=dict)


class Zone(SheetModel):
    """A conflict zone and the situation aspects in it."""

    name: str
    aspects: tuple[SceneAspect, ...] = ()


class Participant(SheetModel):
    """A character in the conflict; ``id`` is the bot's character (or NPC) id."""

    id: str
    name: str
    side: str
    zone: int = 0
    initiative: int = 0
    full_defence: bool = False
    taken_out: bool = False
    conceded: bool = False
    consequences_taken: int = 0

    @property
    def active(self) -> bool:
        return not (self.taken_out or self.conceded)


class ConflictState(SheetModel):
    """A conflict the bot stores between messages. ``order`` holds participant ids by
    initiative; ``turn`` indexes it; ``exchange`` counts from 1."""

    id: str
    zones: tuple[Zone, ...] = ()
    participants: tuple[Participant, ...] = ()
    order: tuple[str, ...] = ()
    exchange: int = 1
    turn: int = 0
    ended: bool = False

    def participant(self, pid: str) -> Participant:
        for p in self.participants:
            if p.id == pid:
                return p
        raise EngineError(msg("fate.conflict.no_such_participant"))

    @property
    def current(self) -> str | None:
        """Whose turn it is (``None`` once the conflict has ended)."""
        if self.ended or not self.order:
            return None
        return self.order[self.turn]


def start_conflict(
    conflict_id: str, zones: Sequence[Zone], participants: Sequence[Participant]
) -> ConflictState:
    """Order by initiative (Внимательность), highest first. DECISION: ties keep the order the
    participants were given in (the GM lists them); the GM may reorder with ``reorder``."""
    ids = [p.id for p in participants]
    for pid in ids:
        if ids.count(pid) > 1:
            raise EngineError(msg("fate.conflict.duplicate", id=pid))
    if len({p.side for p in participants}) < 2:
        raise RuleViolation(msg("fate.conflict.too_few"))
    if any(not 0 <= p.zone < max(1, len(zones)) for p in participants):
        raise EngineError(msg("fate.conflict.no_such_zone"))
    ranked = sorted(participants, key=lambda p: -p.initiative)
    return ConflictState(
        id=conflict_id,
        zones=tuple(zones) or (Zone(name=""),),
        participants=tuple(participants),
        order=tuple(p.id for p in ranked),
    )


def reorder(state: ConflictState, order: Sequence[str]) -> ConflictState:
    """GM override of the turn order (same participants)."""
    if sorted(order) != sorted(state.order):
        raise EngineError(msg("fate.conflict.no_such_participant"))
    return state.model_copy(update={"order": tuple(order), "turn": 0})


def _replace(state: ConflictState, new: Participant) -> ConflictState:
    parts = tuple(new if p.id == new.id else p for p in state.participants)
    return state.model_copy(update={"participants": parts})


def _require_turn(state: ConflictState, pid: str) -> Participant:
    if state.ended:
        raise RuleViolation(msg("fate.conflict.ended"))
    who = state.participant(pid)
    if state.current != pid:
        raise RuleViolation(msg("fate.conflict.not_your_turn"))
    return who


def sides_standing(state: ConflictState) -> tuple[str, ...]:
    """Sides that still have somebody in the conflict, in first-seen order."""
    seen: list[str] = []
    for p in state.participants:
        if p.active and p.side not in seen:
            seen.append(p.side)
    return tuple(seen)


def is_over(state: ConflictState) -> bool:
    """Over when ended by the GM or when at most one side has anyone standing."""
    return state.ended or len(sides_standing(state)) <= 1


def end_turn(state: ConflictState) -> ConflictState:
    """Pass the turn to the next participant still standing; wrapping around starts a new
    exchange. The next actor's full defence ends as their turn begins."""
    if state.ended:
        raise RuleViolation(msg("fate.conflict.ended"))
    turn, exchange = state.turn, state.exchange
    for _ in range(len(state.order)):
        turn += 1
        if turn >= len(state.order):
            turn, exchange = 0, exchange + 1
        if state.participant(state.order[turn]).active:
            break
    state = state.model_copy(update={"turn": turn, "exchange": exchange})
    actor = state.participant(state.order[turn])
    if actor.full_defence:
        state = _replace(state, actor.model_copy(update={"full_defence": False}))
    return state


def act(state: ConflictState, pid: str) -> ConflictState:
    """The current actor has taken their one action needing a roll (attack, create an
    advantage, overcome); the turn passes. Refused when it is not their turn."""
    _require_turn(state, pid)
    return end_turn(state)


def full_defence(state: ConflictState, pid: str) -> ConflictState:
    """Spend the turn on full defence: +2 to every defence roll until your next turn."""
    who = _require_turn(state, pid)
    return end_turn(_replace(state, who.model_copy(update={"full_defence": True})))


def defence_bonus(state: ConflictState, pid: str) -> int:
    """+2 while the participant is in full defence, else 0 (add it to defence rolls)."""
    return FULL_DEFENCE_BONUS if state.participant(pid).full_defence else 0


def move(state: ConflictState, pid: str, zone: int) -> ConflictState:
    """Moving needs no roll (an obstacle needs an overcome, which is then the action)."""
    if not 0 <= zone < len(state.zones):
        raise EngineError(msg("fate.conflict.no_such_zone"))
    who = state.participant(pid)
    if not who.active:
        raise RuleViolation(msg("fate.conflict.out"))
    return _replace(state, who.model_copy(update={"zone": zone}))


def in_zone(state: ConflictState, zone: int) -> tuple[str, ...]:
    """Everyone standing in a zone (the targets of a zone attack, allies included)."""
    return tuple(p.id for p in state.participants if p.zone == zone and p.active)


def add_aspect(state: ConflictState, zone: int, aspect: SceneAspect) -> ConflictState:
    """Put a situation aspect or boost in a zone (e.g. a created advantage)."""
    if not 0 <= zone < len(state.zones):
        raise EngineError(msg("fate.conflict.no_such_zone"))
    z = state.zones[zone]
    new_zone = z.model_copy(update={"aspects": (*z.aspects, aspect)})
    zones = (*state.zones[:zone], new_zone, *state.zones[zone + 1 :])
    return state.model_copy(update={"zones": zones})


def use_free_invokes(
    state: ConflictState, zone: int, name: str, holder: str, count: int = 1
) -> ConflictState:
    """Spend a holder's free invokes on a zone aspect; a boost vanishes once used."""
    if not 0 <= zone < len(state.zones):
        raise EngineError(msg("fate.conflict.no_such_zone"))
    z = state.zones[zone]
    matches = [i for i, a in enumerate(z.aspects) if a.name == name]
    if not matches:
        raise EngineError(msg("fate.conflict.no_such_aspect"))
    idx = matches[0]
    aspect = z.aspects[idx]
    have = aspect.free_invokes.get(holder, 0)
    if count < 1 or count > have:
        raise RuleViolation(msg("fate.conflict.no_free_invoke"))
    left = {**aspect.free_invokes, holder: have - count}
    left = {k: v for k, v in left.items() if v > 0}
    keep: tuple[SceneAspect, ...]
    if aspect.kind is AspectKind.BOOST:
        keep = ()
    else:
        keep = (aspect.model_copy(update={"free_invokes": left}),)
    aspects = (*z.aspects[:idx], *keep, *z.aspects[idx + 1 :])
    zones = (
        *state.zones[:zone],
        z.model_copy(update={"aspects": aspects}),
        *state.zones[zone + 1 :],
    )
    return state.model_copy(update={"zones": zones})


def transfer_free_invokes(
    state: ConflictState, zone: int, name: str, giver: str, receiver: str
) -> ConflictState:
    """Teamwork: a helper hands the free invokes of an advantage they created to the lead."""
    if not 0 <= zone < len(state.zones):
        raise EngineError(msg("fate.conflict.no_such_zone"))
    z = state.zones[zone]
    aspects = []
    found = False
    for a in z.aspects:
        if a.name == name and not found and a.free_invokes.get(giver, 0) > 0:
            found = True
            moved = a.free_invokes[giver]
            free = {k: v for k, v in a.free_invokes.items() if k != giver}
            free[receiver] = free.get(receiver, 0) + moved
            a = a.model_copy(update={"free_invokes": free})
        aspects.append(a)
    if not found:
        raise RuleViolation(msg("fate.conflict.no_free_invoke"))
    zones = (
        *state.zones[:zone],
        z.model_copy(update={"aspects": tuple(aspects)}),
        *state.zones[zone + 1 :],
    )
    return state.model_copy(update={"zones": zones})


def record_consequence(state: ConflictState, pid: str) -> ConflictState:
    """Count a consequence taken in this conflict (a successful concession pays for it)."""
    who = state.participant(pid)
    return _replace(
        state, who.model_copy(update={"consequences_taken": who.consequences_taken + 1})
    )


def _leave(state: ConflictState, pid: str, field: str) -> ConflictState:
    who = state.participant(pid)
    if not who.active:
        raise RuleViolation(msg("fate.conflict.out"))
    state = _replace(state, who.model_copy(update={field: True, "full_defence": False}))
    if state.current == pid and not is_over(state):
        state = end_turn(state)
    return state


def take_out(state: ConflictState, pid: str) -> ConflictState:
    """The participant is taken out: out of this conflict, the winner decides their fate."""
    return _leave(state, pid, "taken_out")


def concede_conflict(state: ConflictState, pid: str) -> ConflictState:
    """The GM ruled the concession successful: the participant leaves the conflict (pay them
    with ``harm.concede(..., consequences_taken=participant.consequences_taken)``)."""
    return _leave(state, pid, "conceded")


def end_conflict(
    state: ConflictState,
    characters: Mapping[str, Character],
    *,
    keep_stress: Mapping[str, StressMarks] | None = None,
) -> tuple[ConflictState, dict[str, Character], dict[str, list[Change]]]:
    """End the conflict: situation aspects and boosts go away, stress clears (the GM may keep
    some boxes marked per character with ``keep_stress``). Consequences stay."""
    keep = keep_stress or {}
    new_chars: dict[str, Character] = {}
    changes: dict[str, list[Change]] = {}
    for pid, char in characters.items():
        new_chars[pid], changes[pid] = clear_stress(char, keep=keep.get(pid))
    zones = tuple(z.model_copy(update={"aspects": ()}) for z in state.zones)
    ended = state.model_copy(update={"ended": True, "zones": zones})
    return ended, new_chars, changes


# --- contests --------------------------------------------------------------------------------


class ContestState(SheetModel):
    """A contest: victory points per participant; first to ``target`` wins."""

    participants: tuple[str, ...]
    target: int
    points: dict[str, int] = Field(default_factory=dict)
    exchange: int = 1
    winner: str | None = None


def start_contest(participants: Sequence[str], target: int) -> ContestState:
    """Start a contest; one participant alone may race a fixed difficulty."""
    if target < 1 or not participants or len(set(participants)) != len(participants):
        raise RuleViolation(msg("fate.contest.target"))
    return ContestState(
        participants=tuple(participants), target=target, points={p: 0 for p in participants}
    )


@dataclass(frozen=True)
class ContestExchange:
    """Who scored this exchange (``None``: nobody) and whether that won the contest."""

    exchange: int
    scorer: str | None
    winner: str | None


def contest_exchange(
    state: ContestState,
    totals: Mapping[str, int],
    *,
    difficulty: int | None = None,
    failed_advantage: Collection[str] = (),
) -> tuple[ContestState, ContestExchange]:
    """Score one exchange.

    Active opposition: the participant whose total beats every other scores 1. Against a fixed
    ``difficulty``: the most shifts scores, and DECISION (Fate Core) only with at least one
    shift. Anyone whose advantage attempt this exchange failed counts as failed and cannot score.
    DECISION (SPEC): a tie for the best roll scores nobody.
    """
    if state.winner is not None:
        raise RuleViolation(msg("fate.contest.over"))
    eligible = {p: t for p, t in totals.items() if p in state.participants}
    eligible = {p: t for p, t in eligible.items() if p not in failed_advantage}
    if difficulty is not None:
        eligible = {p: t - difficulty for p, t in eligible.items() if t - difficulty >= 1}
    scorer = None
    if eligible:
        best = max(eligible.values())
        top = [p for p, t in eligible.items() if t == best]
        if len(top) == 1:
            scorer = top[0]
    points = dict(state.points)
    winner = None
    if scorer is not None:
        points[scorer] = points.get(scorer, 0) + 1
        if points[scorer] >= state.target:
            winner = scorer
    new = state.model_copy(
        update={"points": points, "exchange": state.exchange + 1, "winner": winner}
    )
    return new, ContestExchange(state.exchange, scorer, winner)
