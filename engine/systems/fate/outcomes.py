"""Fate's outcome ladder for one roll (seed 000): shifts = total − opposition; < 0 fail,
0 tie, 1–2 success, ≥ 3 success with style. The seed's success is one shift or more."""

from __future__ import annotations

from typing import Final

from engine.dice.results import RollResult
from engine.systems.base import (
    PLAIN,
    Ask,
    Chance,
    Chances,
    Reading,
    success_pool,
    sum_distribution,
)
from engine.systems.fate.checks import STYLE_SHIFTS, Outcome, outcome_of
from engine.systems.fate.ladder import ladder_label, signed
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "fate.reading.total": {"ru": "{ladder} ({value})", "en": "{ladder} ({value})"},
        "fate.reading.versus": {
            "ru": "{total} против {opposition}: {outcome}, сдвигов: {shifts}",
            "en": "{total} vs {opposition}: {outcome}, shifts: {shifts}",
        },
        "fate.reading.fail": {"ru": "Провал", "en": "Fail"},
        "fate.reading.tie": {"ru": "Ничья", "en": "Tie"},
        "fate.reading.success": {"ru": "Успех", "en": "Success"},
        "fate.reading.style": {"ru": "Крит", "en": "Success with style"},
        "fate.chance.fail": {"ru": "провал", "en": "fail"},
        "fate.chance.tie": {"ru": "ничья", "en": "tie"},
        "fate.chance.success": {"ru": "успех", "en": "success"},
        "fate.chance.style": {"ru": "крит", "en": "with style"},
    }
)


def _value(value: int) -> Msg:
    return msg("fate.reading.total", ladder=ladder_label(value), value=signed(value))


class FateRules:
    """Any sum (``4dF+2``, a trait's roll) against a difficulty or an opposing result."""

    def chances(self, ask: Ask) -> Chances | None:
        if ask.target is None or success_pool(ask.expression) is not None:
            return PLAIN.chances(ask)
        dist = sum_distribution(ask.expression, ask.max_work)
        if dist is None:
            return None
        zero = ask.target - ask.bonus  # the dice total that makes no shifts
        at_least_success = dist.p_at_least(zero + 1)
        style = dist.p_at_least(zero + STYLE_SHIFTS)
        return Chances(
            (
                Chance(msg("fate.chance.success"), at_least_success, success=True),
                Chance(msg("fate.chance.style"), style, within=True),
                Chance(msg("fate.chance.tie"), dist.p(zero)),
                Chance(msg("fate.chance.fail"), dist.p_at_most(zero - 1)),
            )
        )

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        if result.counts_successes:
            return PLAIN.read(ask, result)
        total = result.total + ask.bonus
        if ask.target is None:
            return Reading("total", None, _value(total))
        shifts = total - ask.target
        outcome = outcome_of(shifts)
        words = msg(
            "fate.reading.versus",
            total=_value(total),
            opposition=_value(ask.target),
            outcome=msg(f"fate.reading.{outcome.value}"),
            shifts=signed(shifts),
        )
        return Reading(outcome.value, outcome in (Outcome.SUCCESS, Outcome.STYLE), words)

    def takes_willpower(self, expression: str) -> bool:
        return False


RULES: Final = FateRules()
