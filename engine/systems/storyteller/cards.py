"""The Storyteller's multi-roll cards (``engine.systems.cards``): net successes and botches.

* opposed: the loser's successes cancel the winner's, a botch counts 0, a tie: nobody prevails
  (``opposed.resolve_nets``); the net left names the degree of success;
* «до N»: the opposed extended action (``opposed.roll_opposed_extended``: each turn's excess
  successes go to its winner; a botch wipes the botcher's tally);
* extended: ``extended.roll_extended`` (a botch wipes the tally; «!»: it ends the task);
* team: ``teamwork.roll_teamwork`` (everyone rolls a pool at one difficulty, successes summed).

A card's pool is ``Nd10>=Df1`` (a sheet shorthand plans one); the pool rolled is its faces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.cards import (
    CardKind,
    CardScoringBase,
    CardStatus,
    ExtendedState,
    ExtendedStep,
    RaceState,
    RaceStep,
    SideRoll,
    TeamMember,
    TeamStart,
    TeamState,
    TeamStep,
    Verdict,
    WordsFor,
    gained_note,
    status_words,
)
from engine.systems.storyteller import extended, opposed, teamwork
from engine.systems.storyteller.actions import ActionStatus
from engine.systems.storyteller.rolls import DEFAULT_DIFFICULTY, degree_of, pool_notation
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "storyteller.card.win": {
            "ru": "Побеждает {name}, остаток успехов: {net} ({degree}).",
            "en": "{name} wins with {net} successes left ({degree}).",
        },
        "storyteller.card.wiped": {
            "ru": "провал, накопленное потеряно: {names}",
            "en": "botch, tally lost: {names}",
        },
        "storyteller.card.lost": {
            "ru": "Провал: накопленные успехи потеряны ({n}).",
            "en": "Botch: {n} successes lost.",
        },
        "storyteller.card.botch": {"ru": "Провал.", "en": "Botch."},
        "storyteller.card.team_wiped": {
            "ru": "Провал: успехи команды потеряны.",
            "en": "Botch: the team's successes are lost.",
        },
        "storyteller.card.two_sides": {
            "ru": "В продолжительном встречном действии две стороны.",
            "en": "An opposed extended action has two sides.",
        },
        "storyteller.card.one_difficulty": {
            "ru": "Команда бросает с одной сложностью: укажите её один раз, в конце.",
            "en": "A team rolls at one difficulty: give it once, at the end.",
        },
        "storyteller.card.pool": {
            "ru": "{name}: здесь нужен пул кубиков, например «Ловкость+Атлетизм 7» или "
            "«5d10>=7f1».",
            "en": "{name}: this card needs a dice pool like «Dexterity+Athletics 7» or "
            "«5d10>=7f1».",
        },
    }
)

_POOL: Final = re.compile(r"(\d+)d10>=(\d+)f1")


def _pool(name: str, notation: str) -> tuple[int, int]:
    """(dice, difficulty) of a card's pool; RuleViolation for anything else."""
    found = _POOL.fullmatch(notation)
    if found is None:
        raise RuleViolation(msg("storyteller.card.pool", name=name))
    return int(found.group(1)), int(found.group(2))


def _source(roll: SideRoll) -> ScriptedSource:
    return ScriptedSource(list(roll.faces))


class StorytellerRace(RaceState):
    action: opposed.OpposedExtendedAction


class StorytellerExtended(ExtendedState):
    action: extended.ExtendedAction


class StorytellerTeam(TeamState):
    action: teamwork.TeamworkAction


class StorytellerCards(CardScoringBase):
    team_shows_dice = True

    def refusal(self, kind: CardKind) -> Msg | None:
        return None

    def words_for(
        self, notation: str, target: int | None, *, from_sheet: bool, in_team: bool,
        counts_successes: bool,
    ) -> WordsFor | None:  # fmt: skip
        """A team rolls at its difficulty (the roll's target); plain dice speak when they are
        a storyteller pool, read at its difficulty."""
        if from_sheet:
            return WordsFor(target)
        found = _POOL.fullmatch(notation)
        return WordsFor(int(found.group(2))) if found else None

    def score(self, roll: SideRoll) -> int:
        return max(0, roll.total)  # a botch counts 0 against the other side

    def win_words(self, name: str, margin: int) -> Msg:
        degree = degree_of(margin)
        return msg(
            "storyteller.card.win", name=name, net=margin,
            degree=degree.name_msg if degree else "",
        )  # fmt: skip

    def opposed(self, rolls: Sequence[SideRoll], names: Sequence[str]) -> Verdict:
        if len(rolls) != 2:
            return super().opposed(rolls, names)
        resolved = opposed.resolve_nets(rolls[0].total, rolls[1].total)
        if resolved.winner is None:
            return Verdict(None, 0, self.tie)
        words = self.win_words(names[resolved.winner], resolved.margin)
        return Verdict(resolved.winner, resolved.margin, words)

    # --- the opposed extended action ---

    def start_race(
        self, names: Sequence[str], notations: Sequence[str], target: int, max_rolls: int | None
    ) -> RaceState:
        if len(names) != 2:
            raise RuleViolation(msg("storyteller.card.two_sides"))
        pools = [_pool(n, notation) for n, notation in zip(names, notations, strict=True)]
        action = opposed.start_opposed_extended(
            (names[0], names[1]), target,
            difficulties=(pools[0][1], pools[1][1]), turn_limit=max_rolls,
        )  # fmt: skip
        return StorytellerRace(target=target, max_rolls=max_rolls, points=(0, 0), action=action)

    def race(self, raw: Mapping[str, object]) -> RaceState:
        return StorytellerRace.model_validate(raw)

    def race_step(
        self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]],
        names: Sequence[str],
    ) -> RaceStep:  # fmt: skip
        assert isinstance(state, StorytellerRace)
        roll = rolls[index][-1]
        action, step = opposed.roll_opposed_extended(
            state.action, index, len(roll.faces), _source(roll)
        )
        new = state.model_copy(update={"action": action, "points": tuple(action.tallies)})
        note: Msg | None = None
        if step.turn is not None:
            turn = step.turn
            note = (
                msg("cards.round.scored", n=turn.excess, name=names[turn.winner])
                if turn.winner is not None
                else msg("cards.round.nobody")
            )
            if any(turn.wiped):
                wiped = ", ".join(n for n, w in zip(names, turn.wiped, strict=True) if w)
                lost = msg("storyteller.card.wiped", names=wiped)
                note = msg("cards.joined", first=note, second=lost)
        over = action.status is not ActionStatus.ACTIVE
        return RaceStep(new, note, over, action.winner)

    # --- extended ---

    def start_extended(
        self, name: str, notation: str, target: int, max_rolls: int | None, strict: bool
    ) -> ExtendedState:
        _, difficulty = _pool(name, notation)
        action = extended.start_extended(
            target, difficulty=difficulty, turn_limit=max_rolls, botch_ends=strict
        )
        return StorytellerExtended(
            target=target, max_rolls=max_rolls, strict=strict, action=action
        )

    def extended(self, raw: Mapping[str, object]) -> ExtendedState:
        return StorytellerExtended.model_validate(raw)

    def extended_step(self, state: ExtendedState, rolls: Sequence[SideRoll]) -> ExtendedStep:
        """A botch wipes the tally (and with «!» ends the task)."""
        assert isinstance(state, StorytellerExtended)
        roll = rolls[-1]
        action, step = extended.roll_extended(state.action, len(roll.faces), _source(roll))
        new = state.model_copy(update={"action": action, "accumulated": action.accumulated})
        if step.lost:
            note = msg("storyteller.card.lost", n=step.lost)
        elif step.roll.botch:
            note = msg("storyteller.card.botch")
        else:
            note = gained_note(new, max(0, roll.total))
        return ExtendedStep(new, note, CardStatus(action.status.value))

    # --- team ---

    def start_team(
        self, names: Sequence[str], notations: Sequence[str], targets: Sequence[int | None],
        target: int | None, max_rolls: int | None,
    ) -> TeamStart:  # fmt: skip
        pools = [_pool(n, notation) for n, notation in zip(names, notations, strict=True)]
        asked = {t for t in targets if t is not None}
        if len(asked) > 1:
            raise RuleViolation(msg("storyteller.card.one_difficulty"))
        difficulty = asked.pop() if asked else DEFAULT_DIFFICULTY
        action = teamwork.start_teamwork(
            list(names), difficulty=difficulty, target=target, turn_limit=max_rolls
        )
        members = tuple(
            TeamMember(pool_notation(dice, difficulty), difficulty) for dice, _ in pools
        )
        return TeamStart(StorytellerTeam(action=action), members)

    def team(self, raw: Mapping[str, object]) -> TeamState:
        return StorytellerTeam.model_validate(raw)

    def team_turn(self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        assert isinstance(state, StorytellerTeam)
        return state.action.pending[index] is None

    def team_step(
        self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]
    ) -> TeamStep:
        """A member's botch loses the team's successes of the turn; a simple task (no target)
        is settled in one turn."""
        assert isinstance(state, StorytellerTeam)
        roll = rolls[index][-1]
        action, step = teamwork.roll_teamwork(state.action, index, len(roll.faces), _source(roll))
        notes = (
            {index: msg("storyteller.card.team_wiped")} if step.turn and step.turn.wiped else {}
        )
        new = state.model_copy(update={"action": action})
        if action.status is ActionStatus.ACTIVE:
            return TeamStep(new, False, notes=notes)
        status = CardStatus(action.status.value)
        return TeamStep(new, True, action.total, status, notes)

    def team_total(self, state: TeamState, rolls: Sequence[Sequence[SideRoll]], done: bool) -> int:
        assert isinstance(state, StorytellerTeam)
        action = state.action
        pending = sum(r.outcome().achieved for r in action.pending if r is not None)
        return action.total + (0 if done else pending)

    def team_verdict(self, state: TeamState, total: int, status: CardStatus | None) -> Msg:
        return status_words(status or CardStatus.ACTIVE)


SCORING: Final = StorytellerCards()
