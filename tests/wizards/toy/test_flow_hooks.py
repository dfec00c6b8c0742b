"""The generic flow's hooks for a system with rules of its own, on a second toy flow over the
emulator: an Allocate step's own per-press rule, rows and counters; a step that reopens it in
a mode with another question; a Custom step; own refusal words, list ids and columns; the
questions' placeholders; the preview's hint and jump ids; and a wizard stored by a
hand-written predecessor (its sheet under another key) that resumes on the flow."""

from __future__ import annotations

import pytest

from handlers.wizards.flow import flow_states
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player, keep_draft_as
from tests.wizards.toy.driven import play
from tests.wizards.toy.toy_rules import TOY_RULES

STATES = flow_states(TOY_RULES)


@pytest.fixture
async def player(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    return await play(harness, monkeypatch, TOY_RULES, STATES, {"points": 4})


async def test_own_rule_counters_a_mode_and_a_custom_step(player: Player) -> None:
    p = player
    await p.say("/toyrules")
    await p.say("/x")
    assert "Step 1 of 6: Name" in p.text and "One line, up to 64." in p.text
    await p.say("Rex")
    assert "Step 2 of 6: House" in p.text and "House 2" in p.labels()
    await p.press("hs:h1")  # the list's own callback id
    assert "Step 3 of 6: Luck" in p.text and "Motto: —" in p.text
    await p.press("luck")  # the step's own widget changes the draft
    assert "Motto: lucky" in p.text
    await p.press("nx")

    assert "Step 4 of 6: Stats" in p.text and "Spend up to 4." in p.text  # options filled in
    assert "Spent: 0/4\nin all" in p.text and "Might 0" in p.labels()
    await p.press("d:might:p", 2)
    assert "Spent: 2/4" in p.text and p.label_of("d:might:n") == "Might 2"
    await p.press("d:might:p")  # the step's own rule refuses, in the answer and the message
    assert p.last_answer.show_alert and p.last_answer.text == "Might: 2 at most <here>"
    assert "Might: 2 at most <here>" in p.text and p.label_of("d:might:n") == "Might 2"
    await p.press("d:wits:p")
    assert "at most" not in p.text  # shown once
    await p.press("nx")

    assert "Step 5 of 6: Bonus" in p.text and "The bonus account" in p.text
    await p.press("bstats")  # the same page, reopened in the bonus mode
    assert "Step 4 of 6: Stats" in p.text and "Bonus mode: up to 3." in p.text
    await p.press("d:might:p")
    assert p.label_of("d:might:n") == "Might 3"
    await p.press("bk")  # Back (as Next) returns to the reopening step, the mode off
    assert "Step 5 of 6: Bonus" in p.text
    await p.press("nx")

    assert "Step 6 of 6: Preview" in p.text and "might 3" in p.text
    assert "Tap a step, player." in p.text
    await p.press("jstats")  # jump ids by step key
    assert "Spend up to 4." in p.text and "Bonus mode" not in p.text
    await p.press("d:grace:p", 3)
    assert p.last_answer.text == "Grace: 2 at most <here>"  # not in the bonus mode now
    await p.press("nx")
    assert "Preview" in p.text and "grace 2" in p.text
    await p.say("/toyrules npc")
    await p.say("Mook")
    await p.press("nx", 4)
    assert "Preview" in p.text and "Tap a step, GM." in p.text and "player" not in p.text


async def test_a_wizard_stored_by_its_predecessor_resumes(player: Player) -> None:
    p = player
    await p.say("/toyrules")
    await p.say("Rex")
    await p.h.stop()
    assert await keep_draft_as(p.h, "old") == 1  # as a hand-written wizard kept it
    await p.h.start()
    await p.press("hs:h2")
    assert "Step 3 of 6: Luck" in p.text
    await p.press("nx", 3)
    assert "Preview" in p.text and "Rex · h2" in p.text
