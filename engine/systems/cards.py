"""Multi-roll cards (opposed, extended and team rolls) as a rule system scores them.

The bot keeps a card's participants, presses and log; what a roll means on the card comes from
the system's ``CardScoring`` (``engine.systems.<system>.cards.SCORING``), over the typed models
below. Each state model validates from the card's whole JSON state (unknown keys ignored) and
dumps to the keys it owns, so the bot stores ``state.update(model.model_dump(mode="json"))``.

``CardScoringBase`` is a plain system: higher total wins an opposed roll, a tie wins nobody; an
extended roll adds each roll's total (successes) towards its target (DECISION where the seed is
silent); no race to a target, no team roll. Systems override what their seed says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Protocol

from pydantic import BaseModel, ConfigDict

from engine.errors import RuleViolation
from engine.text import Msg, msg, register_messages

MAX_TARGET: Final = 999

register_messages(
    {
        "cards.tie": {"ru": "Ничья: никто не взял верх.", "en": "Tie: nobody prevails."},
        "cards.win.total": {"ru": "Побеждает {name}, разница {n}.", "en": "{name} wins by {n}."},
        "cards.round.nobody": {
            "ru": "раунд: никто не получает очко",
            "en": "round: nobody scores",
        },
        "cards.round.scored": {"ru": "раунд: +{n} {name}", "en": "round: +{n} {name}"},
        "cards.joined": {"ru": "{first} · {second}", "en": "{first} · {second}"},
        "cards.gained": {"ru": "+{n} → {total}/{target}", "en": "+{n} → {total}/{target}"},
        "cards.done": {"ru": "готово", "en": "done"},
        "cards.status.succeeded": {"ru": "успех", "en": "success"},
        "cards.status.failed": {"ru": "неудача", "en": "failure"},
        "cards.status.botched": {
            "ru": "провал, задача сорвана",
            "en": "botched, the task is lost",
        },
        "cards.status.abandoned": {"ru": "брошено", "en": "abandoned"},
        "cards.status.active": {"ru": "идёт", "en": "in progress"},
        "cards.extended.bounds": {
            "ru": "Цель и число бросков должны быть положительными.",
            "en": "The target and the number of rolls must be positive.",
        },
        "cards.refused.race": {
            "ru": "Гонка до цели есть только в системах «Рассказчик» и «Фэйт»; здесь бросайте "
            "/opposed раунд за раундом.",
            "en": "Only storyteller and fate race to a target; here roll /opposed round by round.",
        },
        "cards.refused.team": {
            "ru": "В правилах этой системы нет командного броска: используйте /opposed или "
            "отдельные /request.",
            "en": "This system's rules have no team roll: use /opposed or separate /request "
            "cards.",
        },
    }
)


class CardKind(StrEnum):
    """The cards a system may lack."""

    RACE = "race"  # an opposed card «до N»
    EXTENDED = "extended"
    TEAM = "team"


class CardStatus(StrEnum):
    """Where an extended or team card stands (the values of storyteller's ``ActionStatus``)."""

    ACTIVE = "active"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    BOTCHED = "botched"
    ABANDONED = "abandoned"


def status_words(status: CardStatus | str) -> Msg:
    """A card's status in words (``успех``, ``провал, задача сорвана``)."""
    return msg(f"cards.status.{CardStatus(status).value}")


class CardRefused(RuleViolation):
    """The system has no such card."""


@dataclass(frozen=True, slots=True)
class SideRoll:
    """One side's roll as the card keeps it: the faces rolled, the total (successes for a
    pool) and whether the dice core read it as a botch."""

    faces: tuple[int, ...]
    total: int
    botch: bool = False


@dataclass(frozen=True, slots=True)
class Verdict:
    """An opposed card's outcome: the winning side (None: nobody), the margin, in words."""

    winner: int | None
    margin: int
    words: Msg


@dataclass(frozen=True, slots=True)
class WordsFor:
    """A roll on a card gets the system's outcome words read against ``target``."""

    target: int | None


class CardModel(BaseModel):
    """A card state: frozen; read from the card's whole JSON state (other keys ignored)."""

    model_config = ConfigDict(frozen=True, extra="ignore")


class RaceState(CardModel):
    """An opposed card «до N»: each side's points towards ``target``."""

    target: int
    max_rolls: int | None = None
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RaceStep:
    state: RaceState
    note: Msg | None  # the round's result, set when a round closed
    over: bool = False
    winner: int | None = None


class ExtendedState(CardModel):
    """An extended card: successes (or totals) gathered towards ``target``."""

    target: int
    max_rolls: int | None = None
    strict: bool = False  # a botch ends the task
    accumulated: int = 0


@dataclass(frozen=True, slots=True)
class ExtendedStep:
    state: ExtendedState
    note: Msg
    status: CardStatus


class TeamState(CardModel):
    """A team card; ``target``: what the team's total is read against (None: nothing)."""

    target: int | None = None


@dataclass(frozen=True, slots=True)
class TeamMember:
    """A member as the team rolls: the notation (a pool at the team's difficulty may replace
    the member's own), the roll's target, whether they lead, whether they help (None: the
    system has no helpers)."""

    notation: str
    target: int | None
    lead: bool = False
    helps: bool | None = None


@dataclass(frozen=True, slots=True)
class TeamStart:
    state: TeamState
    members: tuple[TeamMember, ...]


@dataclass(frozen=True, slots=True)
class TeamStep:
    state: TeamState
    done: bool
    total: int | None = None
    status: CardStatus | None = None
    notes: Mapping[int, Msg] = field(default_factory=dict)  # on each member's latest roll


class CardScoring(Protocol):
    """A rule system's multi-roll cards. ``rolls`` is every side's rolls so far, oldest
    first; ``names`` the sides' names."""

    def refusal(self, kind: CardKind) -> Msg | None:
        """Why the system has no such card (None: it has one)."""
        ...

    def words_for(
        self, notation: str, target: int | None, *, from_sheet: bool, in_team: bool,
        counts_successes: bool,
    ) -> WordsFor | None:  # fmt: skip
        """What a roll on a card is read against for the system's outcome words; None: no
        words (plain dice that are not the system's own)."""
        ...

    def score(self, roll: SideRoll) -> int:
        """What a side's roll counts against the other sides."""
        ...

    def opposed(self, rolls: Sequence[SideRoll], names: Sequence[str]) -> Verdict:
        """The outcome once every side rolled."""
        ...

    def start_race(
        self, names: Sequence[str], notations: Sequence[str], target: int, max_rolls: int | None
    ) -> RaceState:
        """Raises ``RuleViolation`` (``CardRefused`` without a race)."""
        ...

    def race(self, raw: Mapping[str, object]) -> RaceState: ...

    def race_turn(self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        """Whether side ``index`` has a roll to make now."""
        ...

    def race_step(
        self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]],
        names: Sequence[str],
    ) -> RaceStep:  # fmt: skip
        """Side ``index`` rolled (its roll is ``rolls[index][-1]``)."""
        ...

    def start_extended(
        self, name: str, notation: str, target: int, max_rolls: int | None, strict: bool
    ) -> ExtendedState: ...

    def extended(self, raw: Mapping[str, object]) -> ExtendedState: ...

    def extended_step(self, state: ExtendedState, rolls: Sequence[SideRoll]) -> ExtendedStep:
        """The task rolled again (``rolls[-1]``)."""
        ...

    def start_team(
        self, names: Sequence[str], notations: Sequence[str], targets: Sequence[int | None],
        target: int | None, max_rolls: int | None,
    ) -> TeamStart:  # fmt: skip
        """Raises ``RuleViolation`` (``CardRefused`` without a team roll)."""
        ...

    def team(self, raw: Mapping[str, object]) -> TeamState: ...

    @property
    def team_shows_dice(self) -> bool:
        """A member rolls the team's dice, not the trait: the card shows the notation."""
        ...

    def team_turn(self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        """Whether member ``index`` has a roll to make now."""
        ...

    def team_step(
        self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]
    ) -> TeamStep: ...

    def team_total(self, state: TeamState, rolls: Sequence[Sequence[SideRoll]], done: bool) -> int:
        """The team's total so far (a finished card keeps its result's)."""
        ...

    def team_verdict(self, state: TeamState, total: int, status: CardStatus | None) -> Msg:
        """The finished team card's outcome in words."""
        ...


def _refused(kind: CardKind) -> CardRefused:
    return CardRefused(msg(f"cards.refused.{kind.value}"))


def latest(rolls: Sequence[Sequence[SideRoll]]) -> list[SideRoll | None]:
    return [side[-1] if side else None for side in rolls]


class CardScoringBase:
    """A plain system's cards (see the module's docstring); systems override."""

    tie: Msg = msg("cards.tie")
    team_shows_dice: bool = False

    def refusal(self, kind: CardKind) -> Msg | None:
        if kind is CardKind.RACE or kind is CardKind.TEAM:
            return msg(f"cards.refused.{kind.value}")
        return None

    def words_for(
        self, notation: str, target: int | None, *, from_sheet: bool, in_team: bool,
        counts_successes: bool,
    ) -> WordsFor | None:  # fmt: skip
        """Default: a sheet roll's words (against its target; a team's is the team's)."""
        return WordsFor(None if in_team else target) if from_sheet else None

    def score(self, roll: SideRoll) -> int:
        return roll.total

    def win_words(self, name: str, margin: int) -> Msg:
        return msg("cards.win.total", name=name, n=margin)

    def opposed(self, rolls: Sequence[SideRoll], names: Sequence[str]) -> Verdict:
        """The higher score wins by the difference; a tie for the best wins nobody."""
        scores = [self.score(r) for r in rolls]
        ranked = sorted(scores, reverse=True)
        if ranked[0] == ranked[1]:
            return Verdict(None, 0, self.tie)
        winner = scores.index(ranked[0])
        margin = ranked[0] - ranked[1]
        return Verdict(winner, margin, self.win_words(names[winner], margin))

    # --- race ---

    def start_race(
        self, names: Sequence[str], notations: Sequence[str], target: int, max_rolls: int | None
    ) -> RaceState:
        raise _refused(CardKind.RACE)

    def race(self, raw: Mapping[str, object]) -> RaceState:
        return RaceState.model_validate(raw)

    def race_turn(self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        """Round by round: a side rolls once the others caught up."""
        return len(rolls[index]) == min(len(side) for side in rolls)

    def race_step(
        self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]],
        names: Sequence[str],
    ) -> RaceStep:  # fmt: skip
        raise _refused(CardKind.RACE)

    # --- extended ---

    def start_extended(
        self, name: str, notation: str, target: int, max_rolls: int | None, strict: bool
    ) -> ExtendedState:
        if not 1 <= target <= MAX_TARGET or (max_rolls is not None and max_rolls < 1):
            raise RuleViolation(msg("cards.extended.bounds"))
        return ExtendedState(target=target, max_rolls=max_rolls, strict=strict)

    def extended(self, raw: Mapping[str, object]) -> ExtendedState:
        return ExtendedState.model_validate(raw)

    def extended_step(self, state: ExtendedState, rolls: Sequence[SideRoll]) -> ExtendedStep:
        """Each roll's total (its successes, for a pool) is added; at the target it succeeds,
        out of rolls it fails."""
        gained = max(0, rolls[-1].total)
        new = state.model_copy(update={"accumulated": state.accumulated + gained})
        status = CardStatus.ACTIVE
        if new.accumulated >= new.target:
            status = CardStatus.SUCCEEDED
        elif new.max_rolls is not None and len(rolls) >= new.max_rolls:
            status = CardStatus.FAILED
        return ExtendedStep(new, gained_note(new, gained), status)

    # --- team ---

    def start_team(
        self, names: Sequence[str], notations: Sequence[str], targets: Sequence[int | None],
        target: int | None, max_rolls: int | None,
    ) -> TeamStart:  # fmt: skip
        raise _refused(CardKind.TEAM)

    def team(self, raw: Mapping[str, object]) -> TeamState:
        return TeamState.model_validate(raw)

    def team_turn(self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        return not rolls[index]

    def team_step(
        self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]
    ) -> TeamStep:
        raise _refused(CardKind.TEAM)

    def team_total(self, state: TeamState, rolls: Sequence[Sequence[SideRoll]], done: bool) -> int:
        return 0

    def team_verdict(self, state: TeamState, total: int, status: CardStatus | None) -> Msg:
        return msg("cards.done")


def gained_note(state: ExtendedState, gained: int) -> Msg:
    """``+2 → 5/10``: what a roll added to an extended task."""
    return msg("cards.gained", n=gained, total=state.accumulated, target=state.target)


def first_target(targets: Sequence[int | None]) -> int | None:
    """The team's target: the first one a member's roll names."""
    return next((t for t in targets if t is not None), None)
