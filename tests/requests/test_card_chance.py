"""A request card's chance of success is worked out on the event loop, at every redraw: it
stays short, and a sum too large for that shows no chance (``/odds`` still has it)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.services.requests import chance
from engine.dice.errors import OddsError
from engine.dice.odds import distribution


def test_a_card_shows_the_exact_chance_of_a_usual_sum() -> None:
    assert chance("2d6", 7) == Fraction(21, 36)
    assert chance("100d6", 350) == distribution("100d6").p_at_least(350)


def test_a_sum_too_large_for_the_loop_gets_no_chance_on_its_card() -> None:
    assert chance("17d1000", 8000) is None  # 0.3 s or more of exact arithmetic
    assert distribution("17d1000").p_at_least(8000) > 0  # what /odds works out, elsewhere
    with pytest.raises(OddsError):
        distribution("17d1000", max_work=1000)
