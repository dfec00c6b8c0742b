"""Issue 24 item 2 in a cliché fight and a lifegear duel under way. Cliché: a newcomer joins a
side and attacks from the next round, a leaver goes between rolls (refused with what to finish
while a roll they are in is half made, or when they are the last one standing), and the GM's
undo takes a leave back. Duel: a third is refused with what to do instead; a duellist who
leaves yields and the duel ends."""

from __future__ import annotations

from typing import Any

from handlers.trackers.common import TrackerUndoCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP
from tests.helpers import table as tb
from tests.trackers import cliche_helpers as ch
from tests.trackers import lifegear_helpers as lh


async def _say(h: Harness, line: str, user: int = GM) -> str:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(user, GROUP, line)
    answer = await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)
    await h.emu.wait_idle()
    return answer.text


def _keys(state: dict[str, Any]) -> list[str]:
    return [f["key"] for f in state["fight"]["fighters"]]


async def _finish_round(h: Harness, tracker: Any, who: dict[str, int]) -> None:
    """Everyone awaited rolls until the open round is decided (a tie rolls again)."""
    for _ in range(30):
        state = (await ch.tracker_row(h))["state"]
        exchange = state["fight"]["exchange"]
        if exchange is None:
            return
        rolled = {r["fighter"] for r in exchange["rolls"]}
        key = next(d["fighter"] for d in exchange["declarations"] if d["fighter"] not in rolled)
        answer = await ch.press(h, who[key], tracker, "cfr", state["people"][key]["name"])
        assert not answer.show_alert, answer.text
    raise AssertionError("the round never ended")


async def test_a_cliche_fight_under_way_takes_a_newcomer_and_lets_one_go(
    running: Harness,
) -> None:
    h = running
    await ch.table(h)
    alice = await ch.insert(h, ch.hero("Alice", ("Солдат", 4)))
    orc = await ch.insert(h, ch.hero("Орк", ("Драчун", 3)), npc=True)
    tracker = await ch.open_fight(h)
    await ch.face_off(h, tracker, "Alice", "Орк")
    await ch.press(h, GM, tracker, "cfg")  # one on each side: round 1 opens by itself
    goblin = await ch.insert(h, ch.hero("Гоблин", ("Вор", 2)), npc=True)

    assert "Гоблин" in await _say(h, "/join Гоблин")
    state = (await ch.tracker_row(h))["state"]
    assert _keys(state) == [f"c{alice}", f"c{orc}", f"c{goblin}"]
    assert state["people"][f"c{goblin}"]["cur"] == "Вор"
    exchange = state["fight"]["exchange"]  # round 1 stays Alice against the orc
    assert (exchange["attacker"], exchange["defender"]) == (f"c{alice}", f"c{orc}")
    assert "Гоблин" in tb.current(h, tracker).text
    assert "вступает в бой на стороне 2" in tb.current(h, tracker).text
    assert "уже участвует" in await _say(h, "/join Гоблин")
    # An allied NPC: the GM puts it on the characters' side.
    guard = await ch.insert(h, ch.hero("Страж", ("Стражник", 2)), npc=True)
    assert "Страж" in await _say(h, "/join Страж: 1")
    state = (await ch.tracker_row(h))["state"]
    sides = {f["key"]: f["side"] for f in state["fight"]["fighters"]}
    assert sides[f"c{guard}"] == sides[f"c{alice}"] == "1"
    assert "вступает в бой на стороне 1" in tb.current(h, tracker).text
    assert "Страж" in await _say(h, "/leave Страж")

    # Alice rolls: the round is half made, so the orc cannot leave before it is finished.
    answer = await ch.press(h, ALICE, tracker, "cfr", "Alice")
    assert not answer.show_alert, answer.text
    version = (await ch.tracker_row(h))["version"]
    assert "сначала доиграйте раунд" in await _say(h, "/leave Орк")
    assert (await ch.tracker_row(h))["version"] == version

    # Round decided: side 2 attacks next, and the newcomer is one of its choices.
    await _finish_round(h, tracker, {f"c{alice}": ALICE, f"c{orc}": GM})
    state = (await ch.tracker_row(h))["state"]
    assert state["phase"] == "fight"  # one lost die cannot end it
    assert state["turn"] == "2" and state["fight"]["exchange"] is None
    assert ch.has(h, tracker, "cfk", "Гоблин") and ch.has(h, tracker, "cfk", "Орк")

    # Between rounds the goblin leaves, losing nothing; 1 against 1 opens by itself.
    assert "Гоблин" in await _say(h, "/leave Гоблин")
    state = (await ch.tracker_row(h))["state"]
    assert f"c{goblin}" not in _keys(state)
    assert state["fight"]["exchange"] is not None
    assert (await ch.lost(h, goblin)) == {"Вор": 0}
    assert "покидает бой" in tb.current(h, tracker).text
    # Alice is the last one standing on her side: «End» is the way.
    assert "Завершить" in await _say(h, "/leave Alice")

    # The GM's undo takes the leave back.
    row = await ch.tracker_row(h)
    undo = TrackerUndoCD(tracker_id=row["id"], v=row["version"]).pack()
    answer = await tb.press_data(h, GM, tb.current(h, tracker), undo)
    assert not answer.show_alert, answer.text
    assert f"c{goblin}" in _keys((await ch.tracker_row(h))["state"])


async def test_a_started_duel_refuses_a_third_and_a_leaver_yields(running: Harness) -> None:
    h = running
    await lh.lifegear_table(h)
    await lh.insert(h, lh.hero("Лина", "1d6+10"))
    await lh.insert(h, lh.hero("Боб", "1d6"), owner=BOB)
    await lh.insert(h, lh.hero("Волк", "1d6"), owner=GM, npc=True)
    mid = (await tb.send_and_answer(h, GM, "/duel")).message_id
    await lh.press(h, GM, mid, "Лина")
    await lh.press(h, GM, mid, "Боб")
    await lh.press(h, GM, mid, "Начать")
    version = (await tb.tracker_row(h, kind="lifegear_duel"))["version"]

    # A third into a started duel: refused, naming what to do; nothing changes.
    said = await _say(h, "/join Волк")
    assert "между двумя дуэлянтами" in said and "/fight" in said and "Остановить" in said
    assert (await tb.tracker_row(h, kind="lifegear_duel"))["version"] == version

    # One duellist leaves: they yield and the duel is over, as «Stop» ends it.
    await lh.press(h, ALICE, mid, "🎲 Лина")  # a roll half made does not hold a yield back
    assert "Боб" in await _say(h, "/leave Боб")
    row = await tb.tracker_row(h, kind="lifegear_duel")
    assert row["status"] == "ended" and row["state"]["yielded"] == "Боб"
    final = tb.current(h, mid)
    assert "Дуэль окончена: Боб сдаётся" in final.text
    assert "Боб выходит из дуэли и сдаётся" in final.text
    assert tb.labels(final) == []
