"""A request card's chances are worked out on the event loop, at every redraw: they stay
short, and a sum too large for that shows none (``/odds``, in the worker process, still has
them). Every system's card asks its rules with the card's work bound."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.services.requests import CARD_ODDS_WORK
from bot.systems import SYSTEMS, rules_for
from engine.dice.errors import OddsError
from engine.dice.odds import distribution
from engine.systems.base import Ask, Chances


def _card(expression: str, target: int, system: str | None = None) -> Chances | None:
    return rules_for(system).chances(Ask(expression, target, max_work=CARD_ODDS_WORK))


def test_a_card_shows_the_exact_chance_of_a_usual_sum() -> None:
    card = _card("2d6", 7)
    assert card is not None and card.success == Fraction(21, 36)
    card = _card("100d6", 350)
    assert card is not None and card.success == distribution("100d6").p_at_least(350)


@pytest.mark.parametrize("system", [None, *SYSTEMS])
def test_a_sum_too_large_for_the_loop_gets_no_chance_on_its_card(system: str | None) -> None:
    assert _card("17d1000", 8000, system) is None  # 0.3 s or more of exact arithmetic
    assert distribution("17d1000").p_at_least(8000) > 0  # what /odds works out, elsewhere
    with pytest.raises(OddsError):
        distribution("17d1000", max_work=1000)
