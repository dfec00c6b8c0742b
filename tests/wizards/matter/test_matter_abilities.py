"""Matter abilities in the wizard (``flow.records``): «Back» while one is asked leaves none
half-made, «➕» past the most is refused with the engine's reason and the list stays, «✖»
takes one out."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.matter.test_matter_wizard import (
    index_of,
    named,
    press_at,
    screen,
    start_wizard,
    tap,
    wait_screen,
)


async def _moves(h: Harness, *moves: tuple[str, str]) -> None:
    """Each move (a tap on a label, or «>text» typed) and what the screen then says."""
    for move, then in moves:
        if move.startswith(">"):
            h.emu.send_text(ALICE, ALICE, move[1:])
        else:
            await tap(h, move)
        await wait_screen(h, then)


def _asked(name: str) -> tuple[tuple[str, str], ...]:
    """«➕», then the ability's name: its kind is asked."""
    return (("Add an ability", "Name the Matter ability"), (f">{name}", f"«{name}»"))


async def test_abilities_asked_dropped_refused_and_removed(running: Harness) -> None:
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    await _moves(h, ("Next", "Step 3 of 4"), ("Next", "Step 4 of 4"), *_asked("Shield"))
    assert "What kind of Matter is «Shield»" in screen(h).text
    await tap(h, "Back")  # named, not yet of a kind: nothing is kept
    listed = await wait_screen(h, "Step 4 of 4")
    assert "Shield" not in listed.text and "none yet" in listed.text

    for i in range(6):
        await _moves(h, *_asked(f"A{i}"), ("other", "Describe"), ("Skip", "Step 4 of 4"))
    assert "6. A5 (other Matter)" in screen(h).text
    answer = await press_at(h, index_of(screen(h), "Add an ability"))
    assert answer.show_alert
    assert answer.text == "⛔ At most 6 abilities here; the GM can add more later."
    assert "At most 6 abilities" in screen(h).text and "Step 4 of 4" in screen(h).text

    await press_at(h, index_of(screen(h), "✖ A0"))
    listed = screen(h)
    assert "1. A1 (other Matter)" in listed.text and "A0" not in listed.text
    assert "At most 6" not in listed.text
