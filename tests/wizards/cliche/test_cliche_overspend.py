"""Issue 36 item 9c: the clichés' dice never pass the budget in the wizard (no «−1 of 10»),
and the approval card files what the GM weighs apart from points left unspent."""

from __future__ import annotations

from engine.common import NOTE, Severity, Violation
from engine.text import msg
from handlers.views.characters import leftovers
from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.cliche.test_cliche_wizard import add_cliche, press, to_clichés
from tests.wizards.storyteller.driver import Player


async def test_no_die_past_the_budget(running: Harness) -> None:
    await to_clichés(running)
    await add_cliche(running, "Soldier", 4, None)
    await add_cliche(running, "Hacker", 3, None)
    view = await add_cliche(running, "Pilot", 3, None)
    assert "Dice left: 0 of 10" in view.text
    p = Player(running, ALICE)
    await p.settled()
    await p.press("add")  # a new cliché would take an eleventh die
    assert p.last_answer.show_alert and "All 10 dice are spent" in (p.last_answer.text or "")
    assert "Dice left: 0 of 10" in p.text and "How many dice" not in p.text
    await press(running, "Pilot")
    await press(running, "🎲 Dice")
    await p.settled()
    await p.press("dp")  # an eleventh die on Pilot
    assert p.last_answer.show_alert and "11 dice, but 10 were given" in (p.last_answer.text or "")
    assert "<b>3</b> dice" in (p.message.html if p.message else "")
    await p.press("dm")  # one die back is always possible
    await p.press("dp")
    assert "<b>3</b> dice" in (p.message.html if p.message else "")


def test_card_files_the_gms_notes_apart_from_unspent_points(running: Harness) -> None:
    t = running.runtime.dispatcher["i18n"].translator("ru") if running.runtime else None
    assert t is not None
    over = Violation(
        f"{NOTE}cliches",
        msg("cliche.creation.over_budget", total=11, budget=10, base=10, bonus=0),
        Severity.WARNING,
    )
    text = leftovers(t, [over])
    assert "нераспределённым" not in text and "На усмотрение мастера" in text
    assert "Костей в клише: 11, а выдано: 10" in text
