"""The storyteller scene end to end over the emulator and Postgres: set-up, initiative, turns,
rolls from the sheet, health levels through the ledger, an extended action, the GM's undo,
stale and foreign presses, a restart mid-scene, open cards, and the end."""

from __future__ import annotations

from engine.dice.source import ScriptedSource
from engine.systems import storyteller
from engine.systems.storyteller import DamageKind
from handlers.views.trackers.storyteller import ZtHealthCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers.table import press_data
from tests.trackers.storyteller_helpers import (
    data,
    hero,
    insert,
    insert_card,
    rolls,
    sheet,
    tap,
    tracker,
)


async def _table(h: Harness, alice_sheet: storyteller.Character | None = None) -> tuple[int, int]:
    seat_table(h)
    await create_game(h, "storyteller", "Грёзы")
    alice_sheet = alice_sheet or hero("Техлана", abilities={"athletics": 2, "repair": 3})
    alice = await insert(h, alice_sheet, owner=ALICE)
    goblin = await insert(h, hero("Гоблин", dex=2, wits=2, abilities={"brawl": 2}), owner=GM,
                          npc=True)  # fmt: skip
    return alice, goblin


async def _open(h: Harness, command: str = "/scene"):  # type: ignore[no-untyped-def]
    emu = h.emu
    said = emu.send_text(GM, GROUP, command)
    return await emu.wait_bot_message(GROUP, contains="⚔️" if "fight" in command else "🎭",
                                      after=said.message_id)  # fmt: skip


async def test_scene_from_opening_to_the_end(running: Harness) -> None:
    h, emu = running, running.emu
    alice, goblin = await _table(h)
    said = emu.send_text(ALICE, GROUP, "/scene")
    refused = await emu.wait_bot_message(GROUP, after=said.message_id)
    assert refused.text == "Это может только мастер."  # the group's, not Alice's English

    msg = await _open(h)
    assert "Техлана" in msg.text and "Гоблин" in msg.text and "✅" in msg.text
    # Set-up: another user's press is refused and changes nothing; the GM toggles.
    answer = await press_data(h, BOB, msg, data(msg, "ztt", "Гоблин"))
    assert answer.show_alert and (await tracker(h))["version"] == 1
    await tap(h, GM, msg, "ztt", "Гоблин")
    assert "▫️ Гоблин" in msg.text
    await tap(h, GM, msg, "ztt", "Гоблин")
    assert "✅ Гоблин" in msg.text
    # A second scene is refused while this one is open.
    said = emu.send_text(GM, GROUP, "/fight")
    again = await emu.wait_bot_message(GROUP, after=said.message_id)
    assert "/tracker" in again.text

    await tap(h, GM, msg, "zts")
    state = (await tracker(h))["state"]
    logged = await rolls(h)
    tid = (await tracker(h))["id"]
    assert [r[0] for r in logged] == [f"trk:{tid}:3:0", f"trk:{tid}:3:1"]
    totals = {alice: 5 + logged[0][1][0], goblin: 4 + logged[1][1][0]}
    assert state["order"][0] == max(totals, key=lambda c: (totals[c], c == alice))
    assert f"Техлана {totals[alice]} ({logged[0][1][0]}+5)" in msg.text
    assert "□□□□□□□" in msg.text and "💪 3/3" in msg.text

    # Whoever acts first: the GM passes the NPC's turn, so Техлана acts.
    if state["order"][0] == goblin:
        answer = await press_data(h, ALICE, msg, data(msg, "ztn"))  # not her turn
        assert answer.show_alert
        await tap(h, GM, msg, "ztn")
    assert "Ход: Техлана" in msg.text

    # A restart mid-scene: the buttons keep working.
    await h.restart()

    answer = await press_data(h, BOB, msg, data(msg, "ztv", "🎲"))
    assert answer.show_alert and "ztr" not in str(msg.reply_markup)
    version = (await tracker(h))["version"]
    await tap(h, ALICE, msg, "ztv", "🎲")  # a chooser only swaps the buttons
    assert "Техлана: выберите атрибут." in msg.text and (await tracker(h))["version"] == version
    await tap(h, ALICE, msg, "ztv", "Ловкость 3")
    await tap(h, ALICE, msg, "ztv", "Атлетизм 2")
    await tap(h, ALICE, msg, "ztv", "💪")  # Willpower on
    await tap(h, ALICE, msg, "ztr", "6")
    faces = (await rolls(h))[-1][1]
    reading = storyteller.evaluate(faces, 6, willpower=True)
    assert len(faces) == 5
    shown = ",".join(map(str, faces))
    assert f"Техлана: Ловкость+Атлетизм (5) против 6 +💪: [{shown}] → {reading.net}" in msg.text
    assert (await sheet(h, alice)).willpower.pool == 2 and "💪 2/3" in msg.text

    # Open cards of the game are listed.
    await insert_card(h, title="Спор у моста", summary="Техлана 2 : 1 Гоблин")

    # The GM hurts and heals through the ledger; undo reverts the sheet.
    await tap(h, GM, msg, "ztv", "🩸")
    await tap(h, GM, msg, "ztv", "Техлана")
    for kind in ("X", "X", "/"):
        # issue 36 item 9: «one level a press» — the menu stays open for the next level
        assert "Техлана: урон или лечение, по одному уровню за нажатие." in msg.text
        assert "ztn:" not in str(msg.reply_markup)  # no «⏭ Дальше» under the thumb
        await tap(h, GM, msg, "zth", "+" + kind)
    await tap(h, GM, msg, "ztv", "⬅️")
    assert "Спор у моста — Техлана 2 : 1 Гоблин" in msg.text
    assert (await sheet(h, alice)).health.boxes == (
        DamageKind.LETHAL,
        DamageKind.LETHAL,
        DamageKind.BASHING,
    )
    assert "XX/□□□□" in msg.text and "(−1)" in msg.text
    stale = data(msg, "ztn")
    await tap(h, GM, msg, "tku")
    assert (await sheet(h, alice)).health.boxes == (DamageKind.LETHAL, DamageKind.LETHAL)
    assert "XX□□□□□" in msg.text
    before = await tracker(h)
    answer = await press_data(h, GM, msg, stale)  # drawn before the undo
    assert answer.show_alert and (await tracker(h))["version"] == before["version"]
    answer = await press_data(h, ALICE, msg, data(msg, "tku"))
    assert answer.show_alert and (await tracker(h))["version"] == before["version"]

    # A wounded roll: Hurt is −1, the pool shrinks.
    await tap(h, ALICE, msg, "ztv", "🎲")
    await tap(h, ALICE, msg, "ztv", "Ловкость 3")
    await tap(h, ALICE, msg, "ztv", "Ремонт 3")
    await tap(h, ALICE, msg, "ztr", "7")
    faces = (await rolls(h))[-1][1]
    assert len(faces) == 5  # 3 + 3 − 1
    await tap(h, ALICE, msg, "ztn")

    # The end has no undo: «Завершить» asks first, in place, as every tracker's does; a
    # player's «Да» is refused, «Назад» brings the buttons back, nothing changed meanwhile.
    before = await tracker(h)
    await tap(h, GM, msg, "ztv", "🏁")
    assert [b["text"] for b in msg.buttons()] == ["🏁 Да, завершить", "⬅️ Назад"]
    answer = await press_data(h, ALICE, msg, data(msg, "ztq"))
    assert answer.show_alert and (await tracker(h))["status"] == "open"
    await tap(h, GM, msg, "ztv", "Назад")
    assert any(b["callback_data"].startswith("ztn:") for b in msg.buttons())
    assert (await tracker(h))["version"] == before["version"]
    await tap(h, GM, msg, "ztv", "🏁")
    await tap(h, GM, msg, "ztq")
    final = await tracker(h)
    assert final["status"] == "ended" and not msg.has_keyboard
    assert "окончена" in msg.text and "XX□□□□□" in msg.text
    assert (await sheet(h, alice)).health.boxes == (DamageKind.LETHAL, DamageKind.LETHAL)
    assert (await sheet(h, goblin)).health.boxes == ()


async def test_extended_action_reaches_its_target(running: Harness) -> None:
    h = running
    await _table(h, hero("Техлана", dex=5, wits=2, abilities={"athletics": 5}))
    msg = await _open(h, "/fight")
    await tap(h, GM, msg, "ztt", "Гоблин")  # only Техлана takes part
    await tap(h, GM, msg, "zts")
    assert "Гоблин" not in msg.text.split("—")[0].split("\n", 1)[1]
    answer = await press_data(h, ALICE, msg, data(msg, "ztv", "🧩"))  # the GM sets it
    assert answer.show_alert
    await tap(h, GM, msg, "ztv", "🧩")
    await tap(h, GM, msg, "ztv", "Ловкость 5")
    await tap(h, GM, msg, "ztv", "Атлетизм 5")
    await tap(h, GM, msg, "ztv", "6")
    await tap(h, GM, msg, "ztx", "10")
    assert "0 из 10" in msg.text
    action = storyteller.start_extended(10, difficulty=6)
    turns = 0
    for _turn in range(30):
        await tap(h, ALICE, msg, "zte")
        faces = (await rolls(h))[-1][1]
        action, step = storyteller.roll_extended(action, 10, ScriptedSource(faces))
        turns += 1
        if action.status is not storyteller.ActionStatus.ACTIVE:
            break
        assert f"{step.accumulated} из 10" in msg.text
        # Once per turn: the button is gone, and a forged press is refused.
        state = await tracker(h)
        forged = f"zte:{state['id']}:{state['version']}"
        answer = await press_data(h, ALICE, msg, forged)
        assert answer.show_alert and (await tracker(h))["version"] == state["version"]
        await tap(h, ALICE, msg, "ztn")
    assert action.status is storyteller.ActionStatus.SUCCEEDED and turns > 1
    assert "готово" in msg.text and "🧩 " in msg.text
    assert (await tracker(h))["state"]["done"][0]["status"] == "succeeded"
    assert not any(b["callback_data"].startswith("zte:") for b in msg.buttons())
    await tap(h, GM, msg, "ztv", "🏁")
    await tap(h, GM, msg, "ztq")
    assert "готово" in msg.text and (await tracker(h))["status"] == "ended"


async def test_soak_incapacitation_and_repost(running: Harness) -> None:
    h, emu = running, running.emu
    seat_table(h)
    said = emu.send_text(GM, GROUP, "/fight")
    assert "/newgame" in (await emu.wait_bot_message(GROUP, after=said.message_id)).text
    await create_game(h, "storyteller", "Грёзы")
    alice = await insert(h, hero("Техлана"), owner=ALICE)
    crippled, _ = storyteller.apply_damage(storyteller.HealthTrack(), DamageKind.LETHAL, 6)
    goblin = await insert(
        h, hero("Гоблин").model_copy(update={"health": crippled}), owner=GM, npc=True
    )
    msg = await _open(h)
    await tap(h, GM, msg, "zts")
    assert "XXXXXX□ Искалечен (−5)" in msg.text
    if (await tracker(h))["state"]["order"][0] == goblin:
        await tap(h, GM, msg, "ztn")

    # Two levels of bashing, soaked with Stamina 1 (one die at 6).
    await tap(h, GM, msg, "ztv", "🩸")
    await tap(h, GM, msg, "ztv", "Техлана")
    await tap(h, GM, msg, "zth", "🛡 2")
    roll_id, faces = (await rolls(h))[-1]
    assert roll_id.endswith(":0") and len(faces) == 1
    left = 2 - (faces[0] >= 6)
    assert (await sheet(h, alice)).health.boxes == (DamageKind.BASHING,) * left
    assert f"🛡 Техлана: 2 ударн., поглощение [{faces[0]}] −{2 - left}" in msg.text

    # Nothing to heal: an alert, nothing changes.
    version = (await tracker(h))["version"]
    await tap(h, GM, msg, "ztv", "⬅️")
    await tap(h, GM, msg, "ztv", "🩸")
    await tap(h, GM, msg, "ztv", "Гоблин")
    assert "−/" not in str(msg.reply_markup)  # not offered: no bashing damage to heal
    forged = ZtHealthCD(tracker_id=(await tracker(h))["id"], v=version, c=goblin, op="hb")
    answer = await press_data(h, GM, msg, forged.pack())
    assert answer.show_alert and (await tracker(h))["version"] == version
    # One more lethal level: the goblin is incapacitated and his turns are skipped.
    await tap(h, GM, msg, "zth", "+X")
    assert (await sheet(h, goblin)).health.boxes == (DamageKind.LETHAL,) * 7
    assert "Недееспособен" in msg.text
    await tap(h, GM, msg, "ztv", "⬅️")
    await tap(h, ALICE, msg, "ztn")
    state = (await tracker(h))["state"]
    assert state["round"] == 2 and state["order"][state["turn"]] == alice

    # /tracker re-posts the scene at the bottom; the old copy stops being live.
    said = emu.send_text(GM, GROUP, "/tracker")
    moved = await emu.wait_bot_message(GROUP, contains="🎭", after=said.message_id)
    await emu.wait_for(lambda: "Перенесено ниже" in msg.text)
    assert "Ход: Техлана" in moved.text
    await tap(h, ALICE, moved, "ztn")
    assert (await tracker(h))["state"]["round"] == 3 and "раунд 3" in moved.text

    # Two presses of one button at once, and a redelivered update: one step.
    version = (await tracker(h))["version"]
    nxt = data(moved, "ztn")
    first = emu.press(ALICE, GROUP, moved.message_id, nxt)
    second = emu.press(ALICE, GROUP, moved.message_id, nxt)
    answers = [await emu.wait_callback_answer(p.callback_query_id) for p in (first, second)]
    assert sorted(a.show_alert for a in answers) == [False, True]
    emu.redeliver(first.update_id)
    await emu.wait_idle()
    assert (await tracker(h))["version"] == version + 1
