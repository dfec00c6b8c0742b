"""Multi-roll cards end to end over the emulator and Postgres: opposed, extended and team
rolls, each participant pressing their own 🎲; the outcome checked against the engines fed the
logged faces; wrong pressers, forged buttons, concurrency, a restart and the GM's undo."""

from __future__ import annotations

import asyncio

from engine.dice.source import ScriptedSource
from engine.systems import fate
from engine.systems.cliche import teams as cliche_teams
from engine.systems.storyteller import extended as st_extended
from engine.systems.storyteller import opposed as st_opposed
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons
from tests.trackers.cards_helpers import (
    button,
    cliche_hero,
    command,
    current,
    fate_hero,
    insert,
    logged,
    press,
    press_and_wait,
    roll_buttons,
    scalar,
    st_hero,
    start,
    tracker_row,
)

OTHER_GROUP = -100777


async def _fate_table(h: Harness) -> None:
    await start(h, "fate")
    await insert(h, "fate", fate_hero("Алиса", athletics=3), owner=ALICE)
    await insert(h, "fate", fate_hero("Боб", fight=2), owner=BOB)


async def test_opposed_fate_compares_totals_and_names_the_winner(running: Harness) -> None:
    await _fate_table(running)
    card = await command(running, "/opposed алиса: Атлетика | Боб: Бой")
    assert "Алиса vs Боб" in card.text and "Атлетика" in card.text
    row = await tracker_row(running)
    assert row["kind"] == "card_opposed" and not row["exclusive"] and row["status"] == "open"
    assert row["state"]["title"].startswith("Алиса vs Боб") and row["state"]["summary"]
    alice, bob = (b["callback_data"] for b in roll_buttons(card))

    card = await press_and_wait(running, ALICE, card, alice)
    assert len(roll_buttons(card)) == 1  # Alice rolled; only Bob's button is left
    assert "Боб" in (await tracker_row(running))["state"]["summary"]
    card = await press_and_wait(running, BOB, card, bob)

    rolls = await logged(running)
    assert [r[1] for r in rolls] == ["4dF+3", "4dF+2"]
    totals = [r[2].total for r in rolls]
    row = await tracker_row(running)
    assert row["status"] == "ended" and buttons(card) == []
    result = row["state"]["result"]
    if totals[0] == totals[1]:
        assert result["winner"] is None
    else:
        winner = 0 if totals[0] > totals[1] else 1
        shifts = abs(totals[0] - totals[1])
        assert result["winner"] == winner and result["margin"] == shifts
        assert ["Алиса", "Боб"][winner] in card.text.split("🏆")[1]
        assert str(shifts) in card.text.split("🏆")[1]
        assert fate.outcome_of(shifts) in (fate.Outcome.SUCCESS, fate.Outcome.STYLE)
    assert f"{totals[0]} : {totals[1]}" in row["state"]["summary"]
