"""The clichés' multi-roll cards (``engine.systems.cards``).

* opposed: the higher total wins; a tie wins nobody, roll again if it matters (SPEC DECISION);
* extended: each roll's total adds up towards the target (DECISION: the seed has none);
* team (группировка, ``teams``): the leader — listed first, holding the highest cliché
  (``choose_leader``) — adds all its dice, every other member only its sixes (``team_total``);
  the total is read against the target number and its name on the scale (``target_label``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.errors import RuleViolation
from engine.systems.cards import (
    CardKind,
    CardScoringBase,
    CardStatus,
    SideRoll,
    TeamMember,
    TeamStart,
    TeamState,
    TeamStep,
    first_target,
)
from engine.systems.cliche import teams
from engine.systems.cliche.rolls import target_label
from engine.text import Msg, msg

_CLICHE: Final = re.compile(r"(\d+)d6")
LEADER: Final = 0  # the leader is named first


class ClicheCards(CardScoringBase):
    tie = msg("cliche.card.tie")

    def refusal(self, kind: CardKind) -> Msg | None:
        return super().refusal(kind) if kind is CardKind.RACE else None

    def start_team(
        self, names: Sequence[str], notations: Sequence[str], targets: Sequence[int | None],
        target: int | None, max_rolls: int | None,
    ) -> TeamStart:  # fmt: skip
        """Every member rolls a cliché; the first named must hold the highest."""
        candidates = []
        for i, (name, notation) in enumerate(zip(names, notations, strict=True)):
            found = _CLICHE.fullmatch(notation)
            if found is None:
                raise RuleViolation(msg("cliche.card.member", name=name))
            candidates.append(teams.TeamCandidate(str(i), int(found.group(1)), True))
        teams.choose_leader(candidates, preferred=str(LEADER))
        members = tuple(
            TeamMember(notation, goal, lead=i == LEADER)
            for i, (notation, goal) in enumerate(zip(notations, targets, strict=True))
        )
        return TeamStart(TeamState(target=first_target(targets)), members)

    def team_step(
        self, state: TeamState, index: int, rolls: Sequence[Sequence[SideRoll]]
    ) -> TeamStep:
        """Settled once everyone rolled: the leader's sum plus the members' sixes."""
        if any(not side for side in rolls):
            return TeamStep(state, False)
        faces = [side[-1].faces for side in rolls]
        notes = {
            i: msg("cliche.card.sixes", n=teams.member_contribution(faces[i]))
            for i in range(len(rolls))
            if i != LEADER
        }
        members = [f for i, f in enumerate(faces) if i != LEADER]
        return TeamStep(state, True, teams.team_total(faces[LEADER], members), notes=notes)

    def team_total(self, state: TeamState, rolls: Sequence[Sequence[SideRoll]], done: bool) -> int:
        total = 0
        for i, side in enumerate(rolls):
            if side:
                faces = side[-1].faces
                total += sum(faces) if i == LEADER else teams.member_contribution(faces)
        return total

    def team_verdict(self, state: TeamState, total: int, status: CardStatus | None) -> Msg:
        if state.target is None:
            return msg("cards.done")
        label = target_label(state.target)
        shown: Msg | int = (
            state.target
            if label is None
            else msg("cliche.card.target", n=state.target, label=label)
        )
        key = "cliche.card.success" if total >= state.target else "cliche.card.failure"
        return msg(key, target=shown)


SCORING: Final = ClicheCards()
