"""Matter's multi-roll cards (``engine.systems.cards``): more successes wins an opposed roll, a
tie is a stalemate (SPEC DECISION), a botch counts 0 against the other side; an extended roll
adds each roll's successes (DECISION: the seed has none); no race, no team rule. Plain dice that
count successes speak Matter's words."""

from __future__ import annotations

from typing import Final

from engine.systems.cards import CardScoringBase, SideRoll, WordsFor
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "matter.card.tie": {"ru": "Ничья: патовая ситуация.", "en": "Tie: a stalemate."},
        "matter.card.win": {
            "ru": "Побеждает {name}, больше на {n} усп.",
            "en": "{name} wins by {n} successes.",
        },
    }
)


class MatterCards(CardScoringBase):
    tie = msg("matter.card.tie")

    def words_for(
        self, notation: str, target: int | None, *, from_sheet: bool, in_team: bool,
        counts_successes: bool,
    ) -> WordsFor | None:  # fmt: skip
        if from_sheet or counts_successes:
            return WordsFor(None if in_team else target)
        return None

    def score(self, roll: SideRoll) -> int:
        return max(0, roll.total)

    def win_words(self, name: str, margin: int) -> Msg:
        return msg("matter.card.win", name=name, n=margin)


SCORING: Final = MatterCards()
