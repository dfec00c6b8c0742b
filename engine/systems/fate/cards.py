"""Fate's multi-roll cards (``engine.systems.cards``).

* opposed: totals compared; the winner's shifts are the difference, read on the ladder (1–2
  success, 3+ success with style); a tie scores nobody (SPEC contest DECISION);
* «до N»: a contest (``conflict.contest_exchange``: each exchange's single best roll scores a
  victory point, first to N wins);
* no extended roll (a contest is the exchange-by-exchange race);
* team: ``checks.teamwork`` — the highest skill rolls, +1 per helper at +1 or more (helpers do
  not roll); the total is read against the opposition on the ladder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import model_validator

from engine.errors import RuleViolation
from engine.systems.cards import (
    CardKind,
    CardRefused,
    CardScoringBase,
    CardStatus,
    ExtendedState,
    RaceState,
    RaceStep,
    SideRoll,
    TeamMember,
    TeamStart,
    TeamState,
    TeamStep,
    WordsFor,
    first_target,
)
from engine.systems.fate import conflict
from engine.systems.fate.checks import Outcome, outcome_of, teamwork
from engine.systems.fate.ladder import ladder_label, signed
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "fate.card.win": {
            "ru": "Побеждает {name}, сдвигов: {shifts} ({outcome}).",
            "en": "{name} wins by {shifts} shifts ({outcome}).",
        },
        "fate.card.outcome.fail": {"ru": "провал", "en": "fail"},
        "fate.card.outcome.tie": {"ru": "ничья", "en": "tie"},
        "fate.card.outcome.success": {"ru": "успех", "en": "success"},
        "fate.card.outcome.style": {"ru": "крит", "en": "success with style"},
        "fate.card.versus": {
            "ru": "{outcome} против {target} (сдвигов: {shifts})",
            "en": "{outcome} vs {target} (shifts: {shifts})",
        },
        "fate.card.opposition": {"ru": "{ladder} ({value})", "en": "{ladder} ({value})"},
        "fate.card.no_extended": {
            "ru": "В Фэйт нет продолжительного броска: проведите состязание или встречный "
            "бросок /opposed.",
            "en": "Fate has no extended roll: run a contest, or an opposed roll with /opposed.",
        },
        "fate.card.skill": {
            "ru": "{name}: участник команды бросает навык («Атлетика»).",
            "en": "{name}: a team member rolls a skill («Athletics»).",
        },
    }
)

_FATE: Final = re.compile(r"4dF([+-]\d+)?")


def outcome_words(outcome: Outcome) -> Msg:
    return msg(f"fate.card.outcome.{outcome.value}")


class FateRace(RaceState):
    contest: conflict.ContestState


class FateTeam(TeamState):
    bonus: int = 0
    lead: int = 0  # the member who rolls

    @model_validator(mode="before")
    @classmethod
    def _lead_of_old_cards(cls, data: Any) -> Any:
        """Cards opened before ``lead`` was kept marked the lead on its slot."""
        if isinstance(data, Mapping) and "lead" not in data and data.get("slots"):
            slots = data["slots"]
            lead = next((i for i, s in enumerate(slots) if s.get("lead")), 0)
            return {**data, "lead": lead}
        return data


class FateCards(CardScoringBase):
    def refusal(self, kind: CardKind) -> Msg | None:
        return msg("fate.card.no_extended") if kind is CardKind.EXTENDED else None

    def words_for(
        self, notation: str, target: int | None, *, from_sheet: bool, in_team: bool,
        counts_successes: bool,
    ) -> WordsFor | None:  # fmt: skip
        """Plain Fate dice (4dF±N) speak the ladder too; a team's total is read at the end."""
        if from_sheet or _FATE.fullmatch(notation):
            return WordsFor(None if in_team else target)
        return None

    def win_words(self, name: str, margin: int) -> Msg:
        outcome = outcome_words(outcome_of(margin))
        return msg("fate.card.win", name=name, shifts=margin, outcome=outcome)

    # --- the contest ---

    def start_race(
        self, names: Sequence[str], notations: Sequence[str], target: int, max_rolls: int | None
    ) -> RaceState:
        contest = conflict.start_contest([str(i) for i in range(len(names))], target)
        return FateRace(
            target=target, max_rolls=max_rolls, points=(0,) * len(names), contest=contest
        )

    def race(self, raw: Mapping[str, object]) -> RaceState:
        return FateRace.model_validate(raw)

    def race_step(
        self, state: RaceState, index: int, rolls: Sequence[Sequence[SideRoll]],
        names: Sequence[str],
    ) -> RaceStep:  # fmt: skip
        """An exchange is scored once every side rolled in it."""
        assert isinstance(state, FateRace)
        count = len(rolls[index])
        if any(len(side) != count for side in rolls):
            return RaceStep(state, None)
        totals = {str(i): side[-1].total for i, side in enumerate(rolls)}
        contest, exchange = conflict.contest_exchange(state.contest, totals)
        points = tuple(contest.points[str(i)] for i in range(len(rolls)))
        new = state.model_copy(update={"contest": contest, "points": points})
        scorer = None if exchange.scorer is None else int(exchange.scorer)
        note = (
            msg("cards.round.scored", n=1, name=names[scorer])
            if scorer is not None
            else msg("cards.round.nobody")
        )
        winner = None if exchange.winner is None else int(exchange.winner)
        limit = state.max_rolls
        over = winner is not None or (limit is not None and count >= limit)
        return RaceStep(new, note, over, winner)

    # --- no extended roll ---

    def start_extended(
        self, name: str, notation: str, target: int, max_rolls: int | None, strict: bool
    ) -> ExtendedState:
        raise CardRefused(msg("fate.card.no_extended"))

    # --- teamwork ---

    def start_team(
        self, names: Sequence[str], notations: Sequence[str], targets: Sequence[int | None],
        target: int | None, max_rolls: int | None,
    ) -> TeamStart:  # fmt: skip
        skills: dict[str, int] = {}
        for i, (name, notation) in enumerate(zip(names, notations, strict=True)):
            found = _FATE.fullmatch(notation)
            if found is None:
                raise RuleViolation(msg("fate.card.skill", name=name))
            skills[str(i)] = int(found.group(1) or 0)
        team = teamwork(skills)
        lead = int(team.lead)
        members = tuple(
            TeamMember(notation, goal, lead=i == lead, helps=i != lead and skills[str(i)] >= 1)
            for i, (notation, goal) in enumerate(zip(notations, targets, strict=True))
        )
        state = FateTeam(target=first_target(targets), bonus=team.bonus, lead=lead)
        return TeamStart(state, members)

    def team(self, raw: Mapping[str, object]) -> TeamState:
        return FateTeam.model_validate(raw)

    def team_turn(self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]) -> bool:
        assert isinstance(state, FateTeam)
        return index == state.lead and not rolls[index]

    def team_step(
        self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]
    ) -> TeamStep:
        """Only the lead rolls; each helper adds +1."""
        assert isinstance(state, FateTeam)
        return TeamStep(state, True, rolls[index][-1].total + state.bonus)

    def team_total(self, state: TeamState, rolls: Sequence[Sequence[SideRoll]], done: bool) -> int:
        assert isinstance(state, FateTeam)
        return state.bonus

    def team_verdict(self, state: TeamState, total: int, status: CardStatus | None) -> Msg:
        """Shifts against the opposition, on the ladder."""
        if state.target is None:
            return msg("cards.done")
        shifts = total - state.target
        opposition = msg(
            "fate.card.opposition", ladder=ladder_label(state.target), value=signed(state.target)
        )
        return msg(
            "fate.card.versus", outcome=outcome_words(outcome_of(shifts)), target=opposition,
            shifts=signed(shifts),
        )  # fmt: skip


SCORING: Final = FateCards()
