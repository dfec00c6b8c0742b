"""A second toy flow: the hooks a system with rules of its own uses (storyteller's dots by
category, its freebies reopening the same pages, its ranking step), on the toy's sheet."""

from __future__ import annotations

from html import escape
from typing import Any

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Button
from aiogram_dialog.widgets.text import Const

from handlers.wizards.flow import Allocate, Choose, Flow, Text
from handlers.wizards.flow.custom import Custom, draft
from handlers.wizards.flow.kinds import DotPress, Draft
from handlers.wizards.flow.reopen import reopen
from tests.wizards.toy.toy import HOUSES, STATS, TOY, ToySheet


def rule(press: DotPress) -> Draft | str:
    """From the points: 2 at most a stat, ``points`` in all; in the bonus mode: up to 3."""
    assert isinstance(press.sheet, ToySheet)
    stats = dict(press.sheet.stats)
    stats[press.trait] = stats.get(press.trait, 0) + press.delta
    top = 3 if press.mode == "bonus" else 2
    if stats[press.trait] > top:
        return escape(f"{press.trait.capitalize()}: {top} at most <here>")
    return {**press.sheet.model_dump(), "stats": stats}


def counters(sheet: ToySheet, options: Any, t: Any, locale: str) -> str:
    return f"Spent: {sum(sheet.stats.values())}/{options.get('points', 5)}\nin all"


async def lucky(callback: CallbackQuery, button: Any, manager: DialogManager) -> None:
    draft(manager)["motto"] = "lucky"


STATS_STEP = Allocate(
    "stats", "Stats", "Spend up to {points}.", STATS, budget=lambda o: 0, cap=lambda o: 3,
    rule=rule, counters=counters,
    row=lambda sheet, options, trait, t, lc: f"{trait.capitalize()} {sheet.stats.get(trait, 0)}",
)  # fmt: skip
TOY_RULES = Flow(
    name="toyrules",
    steps=(
        Text("name", "Name", "Name it.", required=True, unfit="One line, up to {limit}."),
        Choose("house", "House", "A house.", HOUSES[:3], select_id="hs", columns=3),
        Custom(
            "luck", "Luck", "Tempt it.", lambda: [Button(Const("🎲"), id="luck", on_click=lucky)],
            lambda shown: {"lines": [f"Motto: {shown.sheet.motto or '—'}"]},
        ),
        STATS_STEP,
        reopen(
            "bonus", "Bonus", "Reopen a step.", (STATS_STEP,), mode="bonus", ids="b",
            lines=lambda sheet, options, t, locale: "The bonus account",
            asks=lambda key: "Bonus mode: up to 3.",
        ),
    ),
    options=TOY.options, build=TOY.build, load=TOY.load, validate=TOY.validate,
    render=TOY.render, prompt_args=lambda o: {"points": o.get("points", 5)},
    preview_hint=("Tap a step, player.", "Tap a step, GM."), jumps_by_key=True,
    legacy_key="old",
)  # fmt: skip
