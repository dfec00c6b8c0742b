"""An attack that does no harm says so: the conflict's log read «Провал: сдвигов −5,
урон 0.» (or «Ничья: сдвигов 0, урон 0.»)."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM
from tests.helpers import table as tb
from tests.trackers import fate_helpers as fh


async def test_a_missed_attack_reads_no_harm(harness: Harness) -> None:
    h = harness
    await fh.table(h)
    # Ира (Бой 0) cannot beat the orc's Атлетика 10: a failure, no harm whatever the dice.
    await tb.insert_character(h, "fate", fh.hero("Ира", notice=5), owner=ALICE)
    orc = await tb.insert_character(h, "fate", fh.hero("Орк", athletics=10), owner=GM, npc=True)
    tracker = await fh.open_conflict(h, "Склад")
    await fh.press(h, GM, tracker, "fzg:")
    await fh.press(h, ALICE, tracker, "fza:", ":attack")
    await fh.press(h, ALICE, tracker, "fzt:", f":{orc}:fight")
    await fh.press(h, GM, tracker, "fzd:", "athletics")
    if fh.has(h, tracker, "fzr:"):  # invokes offered before the attack is read
        await fh.press(h, ALICE, tracker, "fzr:")
    shown = tb.current(h, tracker).text
    assert "Провал: урона нет." in shown, shown
    assert "урон 0" not in shown
