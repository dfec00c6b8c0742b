"""An Allocate step in a released wizard's look, on a toy flow over the emulator: the label
before its − / + (``label_first``), a press on the label says a note (``note``), the question's
placeholders from the sheet so far (``asks``), the rows' list id kept (``Flow.ids``), the rule
sees the draft (``DotPress.draft``: a key the sheet does not hold survives a press), and a
message to a step with no input of its own gets the «buttons only» words."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from sqlalchemy import text

from handlers.wizards.flow import Allocate, Flow, Text, flow_states
from handlers.wizards.flow.kinds import DotPress, Draft
from handlers.wizards.flow.wording import Wording
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import play
from tests.wizards.toy.toy import STATS, TOY, ToySheet


def _rule(press: DotPress) -> Draft | str:
    assert isinstance(press.sheet, ToySheet)
    level = press.sheet.stats.get(press.trait, 0) + press.delta
    if level > 2:
        return escape(f"{press.trait}: 2 at most <here>")
    stats = {**press.sheet.stats, press.trait: max(0, level)}
    return {**press.draft, "stats": stats}  # the draft's own keys kept


def _row(sheet: Any, options: Any, trait: str, t: Any, locale: str) -> str:
    return f"{trait.capitalize()} +{sheet.stats.get(trait, 0)}"


ROWS = Flow(
    name="toyrows",
    steps=(
        Text("name", "Name", "Name it.", required=True),
        Allocate(
            "stats", "Stats", "{left} left for {name}.", STATS, budget=lambda o: 0,
            cap=lambda o: 0, rule=_rule, row=_row, label_first=True,
            note=lambda sheet, options, trait, locale: f"{trait} is {sheet.stats.get(trait, 0)}",
            asks=lambda sheet, options, t, locale: {"left": 4 - sum(sheet.stats.values())},
        ),
    ),
    options=TOY.options, build=TOY.build, validate=TOY.validate, render=TOY.render,
    load=lambda sheet, o: {"kept": "yes"},
    ids={"stats.d": "st"},
    wording=Wording(buttons_only="Buttons here."),
)  # fmt: skip
STATES = flow_states(ROWS)


@pytest.fixture
async def player(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    return await play(harness, monkeypatch, ROWS, STATES)


async def test_rows_in_a_released_look(player: Player) -> None:
    p = player
    await p.say("/toyrows")
    await p.say("Rex")
    assert "4 left for Rex." in p.text
    assert p.labels()[:3] == ["Might +0", "−", "+"]  # the label first
    await p.press("st:might:p", 2)
    assert "2 left for Rex." in p.text and p.label_of("st:might:n") == "Might +2"
    await p.press("st:might:p")
    assert p.last_answer.show_alert and p.last_answer.text == "might: 2 at most <here>"
    await p.press("st:might:n")
    assert p.last_answer.text == "might is 2" and not p.last_answer.show_alert
    await p.say("3")
    assert p.text.endswith("Buttons here.")
    await p.press("st:wits:p")
    assert "1 left for Rex." in p.text
    assert await _draft_key(p.h, "kept") == "yes"


async def _draft_key(h: Harness, key: str) -> str:
    async with h.engine.begin() as conn:
        found = await conn.execute(
            text("SELECT data->'dialog_data'->'draft'->>:key FROM fsm_states "
                 "WHERE data->>'state' = 'ToyrowsSG:stats'"), {"key": key},
        )  # fmt: skip
        return str(found.scalar())
