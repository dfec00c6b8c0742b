"""Lives = gear's multi-roll cards (``engine.systems.cards``): an opposed card is the
counter-roll — the higher total wins and the difference is the damage in PvP; a tie deals nothing
(SPEC DECISION). Extended rolls add totals (DECISION); no race, no team rule."""

from __future__ import annotations

from typing import Final

from engine.systems.cards import CardScoringBase
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "lifegear.card.win": {
            "ru": "Побеждает {name}; разница {n} (урон в бою).",
            "en": "{name} wins; the difference is {n} (damage in a fight).",
        },
    }
)


class LifegearCards(CardScoringBase):
    def win_words(self, name: str, margin: int) -> Msg:
        return msg("lifegear.card.win", name=name, n=margin)


SCORING: Final = LifegearCards()
