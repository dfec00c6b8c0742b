"""Two players acting at once in a tracker (issue 24 item 3), over the emulator: both
duellists of a lifegear duel and both fighters of a cliché round press 🎲 on the same drawn
message at the same moment — both rolls apply. A press that truly conflicts (the same fighter
pressed twice) is refused once and says who came first."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import cliche_helpers as ch
from tests.trackers import lifegear_helpers as lh
from tgemu import CallbackAnswer, ChatMessage


async def _together(
    h: Harness, message: ChatMessage, presses: list[tuple[int, str]]
) -> list[CallbackAnswer]:
    """Every (user, data) pressed on ``message`` as it is drawn now, before any is handled."""
    ids = [h.emu.press(user, GROUP, message.message_id, data).callback_query_id
           for user, data in presses]  # fmt: skip
    answers = [await h.emu.wait_callback_answer(q, timeout=tb.WAIT) for q in ids]
    await h.emu.wait_idle()
    return answers


async def _row(h: Harness, kind: str) -> dict[str, Any]:
    return await tb.tracker_row(h, kind=kind)


async def test_both_duellists_roll_at_once(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "lifegear", "Дуэль")
    await lh.insert(h, lh.hero("Лина", "1d6+10"))
    await lh.insert(h, lh.hero("Боб", "1d6"), owner=BOB)
    tracker = await tb.send_and_answer(h, GM, "/duel")
    mid = tracker.message_id
    await lh.press(h, GM, mid, "Лина")
    await lh.press(h, GM, mid, "Боб")
    await lh.press(h, GM, mid, "Начать")
    drawn = tb.current(h, mid)
    lina, bob = lh.data_of(h, mid, "🎲 Лина"), lh.data_of(h, mid, "🎲 Боб")
    answers = await _together(h, drawn, [(ALICE, lina), (BOB, bob)])
    assert [a.show_alert for a in answers] == [False, False], [a.text for a in answers]
    row = await _row(h, "lifegear_duel")
    assert row["state"]["pvp"]["round"] == 2  # both rolls counted: the round was judged
    assert "Раунд выигрывает Лина" in lh.shown(h, mid)


async def test_both_fighters_roll_at_once_and_a_double_press_is_refused(
    running: Harness,
) -> None:
    h = running
    seat_table(h)
    await create_game(h, "cliche", "Кампания")
    await ch.insert(h, ch.hero("Alice", ("Солдат", 4)))
    await ch.insert(h, ch.hero("Bob", ("Драчун", 4)), owner=BOB)
    tracker = await ch.open_fight(h)
    await ch.face_off(h, tracker, "Alice", "Bob")
    await ch.press(h, GM, tracker, "cfg")
    before = await _row(h, "cliche_fight")
    drawn = tb.current(h, tracker)
    alice, bob = ch.find(h, drawn, "cfr", "Alice"), ch.find(h, drawn, "cfr", "Bob")
    first, other, again = await _together(h, drawn, [(ALICE, alice), (BOB, bob), (ALICE, alice)])
    assert not first.show_alert and not other.show_alert, (first.text, other.text)
    # Alice's second press is refused, naming whose step changed it (her own first press) —
    # unless it waited its turn so long (a loaded machine) that the bot answered it without
    # text (bot.polling); either way it did not roll again (the version below).
    if again.text:
        assert again.show_alert and "Alice" in again.text and "Раньше пришло" in again.text
    row = await _row(h, "cliche_fight")
    rolls = [e for e in row["state"]["log"] if e["k"] == "roll"]
    assert len(rolls) >= 2  # both fighters' rolls of the round were taken
    assert row["version"] == before["version"] + 2
