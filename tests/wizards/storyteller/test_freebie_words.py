"""The freebie step in Russian: a group's line read «Физические: 5/5 +1, свободных очков: 5»
(a count that looked like what is left) under «Свободных очков: 15.» that never changed."""

from __future__ import annotations

from bot.i18n import I18n


def test_a_bought_dot_says_what_it_cost() -> None:
    t = I18n("ru").translator("ru")
    assert t("+{extra} ⇒ {cost} fp", extra=1, cost=5) == "+1 (за свободные очки: 5)"


def test_the_head_names_the_total() -> None:
    t = I18n("ru").translator("ru")
    head = t(
        "{available} freebie points. A dot costs: attribute {attribute}, ability {ability}, "
        "Art {art}, Realm {realm}, Background {background}, Glamour {glamour}, Willpower "
        "{willpower}. Pick what to raise.",
        available=15, attribute=5, ability=2, art=5, realm=3, background=1, glamour=3,
        willpower=2,
    )  # fmt: skip
    assert head.startswith("Свободных очков всего: 15."), head
