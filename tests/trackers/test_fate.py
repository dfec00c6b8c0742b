"""The fate conflict tracker end to end over the emulator and Postgres: set-up, initiative,
an advantage with free invokes, an attack with a free invoke and a consequence, refusals,
a restart, the GM's undo, the end clearing stress."""

from __future__ import annotations

import re
from itertools import pairwise

from engine.systems.fate import TrackKind
from handlers.trackers.common import TrackerUndoCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM
from tests.helpers import table as tb
from tests.trackers import fate_helpers as fh
from tgemu.html import parse_html, utf16_len

CAROL = 1003


def _data(h: Harness, tracker: fh.ChatMessage, prefix: str) -> list[str]:
    return [
        b.get("callback_data", "")
        for b in fh.buttons(tb.current(h, tracker))
        if b.get("callback_data", "").startswith(prefix)
    ]


async def test_a_scripted_conflict_from_opening_to_the_end(harness: Harness) -> None:
    h = harness
    await fh.table(h)
    # Ира cannot miss the orc, the orc's armor keeps the hit within what he can absorb.
    ira = await tb.insert_character(h, "fate", fh.hero("Ира", fight=10, notice=12), owner=ALICE)
    orc_sheet = fh.hero("Орк", physique=5).model_copy(
        update={"equipment": fh.fate.Equipment(armor=3)}
    )
    orc = await tb.insert_character(h, "fate", orc_sheet, owner=GM, npc=True)

    tracker = await fh.open_conflict(h, "Склад: Темно, Ящики повсюду | Крыша: Скользко")
    assert "Склад" in tracker.text and "Ящики повсюду" in tracker.text
    assert "🅰 Ира" in tracker.text and "🅱 Орк" in tracker.text

    # Only the GM starts; another player's press changes nothing.
    answer = await fh.press(h, BOB, tracker, "fzg:")
    assert answer.show_alert
    assert tb.current(h, tracker).edits == 0
    await fh.press(h, GM, tracker, "fzg:")
    shown = tb.current(h, tracker)
    assert "▶️ <b>Ира</b>" in shown.html  # initiative by Внимательность: Ира first
    assert "Скользко" in shown.text

    # Not Bob's character: alert, nothing changes.
    edits = shown.edits
    answer = await fh.press(h, BOB, tracker, "fza:", ":attack")
    assert answer.show_alert and tb.current(h, tracker).edits == edits

    # Ира creates an advantage, names it by replying, rolls Внимательность: 2 free invokes.
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    h.emu.send_text(ALICE, fh.GROUP, "Укрытие за ящиками", reply_to=tracker.message_id)
    await h.emu.wait_for(lambda: "Укрытие за ящиками" in tb.current(h, tracker).text)
    stale = fh.data_of(h, tracker, lambda _label, d: d.startswith("fzv:"))
    await fh.press(h, ALICE, tracker, "fzv:", "notice")
    shown = tb.current(h, tracker)
    assert "Укрытие за ящиками</i> [Ира ×2]" in shown.html
    assert "▶️ <b>Орк</b>" in shown.html

    # A stale button: alert, nothing changes.
    edits = shown.edits
    answer = await tb.press_data(h, ALICE, tracker, stale)
    assert answer.show_alert and tb.current(h, tracker).edits == edits

    await fh.press(h, GM, tracker, "fza:", ":pass")
    # Exchange 2: Ира attacks the orc with Бой; the GM defends for him with Атлетика.
    await fh.press(h, ALICE, tracker, "fza:", ":attack")
    # issue 36 item 14: an attack button names the attacker's skill, then its target; its
    # way out does not read like the «↩️ Undo» beside it
    labels = [b.get("text", "") for b in fh.buttons(tb.current(h, tracker))]
    assert any(re.fullmatch(r"🎲 Бой [+-]\d+ → Орк", label) for label in labels), labels
    assert "⬅️ Другое действие" in labels and not any("Отмена" in x for x in labels)
    await fh.press(h, ALICE, tracker, "fzt:", f":{orc}:fight")
    await fh.press(h, GM, tracker, "fzd:", "athletics")
    # Ира holds free invokes: she spends one (+2) before the attack is read.
    await fh.press(h, ALICE, tracker, "fzi:", "✨ +2 «Укрытие")
    assert "[Ира ×1]" in tb.current(h, tracker).html
    # …and the last one on a reroll: a new logged roll, the aspect keeps no invokes.
    await fh.press(h, ALICE, tracker, "fzi:", "🔄 «Укрытие")
    assert re.search(r"Укрытие за ящиками</i>(?! \[)", tb.current(h, tracker).html)
    assert await tb.scalar(h, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'trk%re'") == 1
    await fh.press(h, ALICE, tracker, "fzr:")
    # A hit: the orc's owner (the GM) takes it with a consequence the engine allows.
    assert fh.has(h, tracker, "fzb:")
    answer = await fh.press(h, ALICE, tracker, "fzb:")
    assert answer.show_alert  # Alice cannot choose for the orc
    code = fh.data_of(
        h,
        tracker,
        lambda _l, d: (
            d.startswith("fzb:")
            and d.rsplit(":", 1)[1].isalnum()
            and any(ch in "mosp" for ch in d.rsplit(":", 1)[1])
            and not d.endswith(("out", "give"))
        ),
    )
    await tb.press_data(h, GM, tracker, code)
    assert (await tb.stored_sheet(h, orc))["consequences"]
    # The GM's undo takes the absorbing back, sheet included; the GM absorbs again.
    await fh.press(h, GM, tracker, TrackerUndoCD.__prefix__ + ":")
    assert (await tb.stored_sheet(h, orc))["consequences"] == []
    h.emu.send_text(GM, fh.GROUP, "Сломанная <челюсть>", reply_to=tracker.message_id)
    await h.emu.wait_for(lambda: "Сломанная <челюсть>" in tb.current(h, tracker).text)
    await fh.press(h, GM, tracker, "fzb:", code.rsplit(":", 1)[1])
    stored = await tb.stored_sheet(h, orc)
    assert [c["text"] for c in stored["consequences"]]
    assert stored["consequences"][0]["inflicted_by"] == str(ira)
    assert {c["text"] for c in stored["consequences"]} == {"Сломанная <челюсть>"}
    wound = stored["consequences"][0]["text"]
    assert wound in tb.current(h, tracker).text

    # The bot restarts mid-conflict: the tracker carries on from Postgres.
    await h.restart()
    await fh.press(h, GM, tracker, "fza:", ":defend")
    assert re.search(r"<b>Орк</b>[^\n]*🛡", tb.current(h, tracker).html)
    # The GM's undo takes the full defence back.
    await fh.press(h, GM, tracker, TrackerUndoCD.__prefix__ + ":")
    shown = tb.current(h, tracker)
    assert "▶️ <b>Орк</b>" in shown.html and not re.search(r"<b>Орк</b>[^\n]*🛡", shown.html)
    # The orc climbs to the roof: from there only Стрельба reaches Ира.
    await fh.press(h, GM, tracker, "fzm:", "Крыша")
    assert re.search(r"<b>Орк</b>[^\n]*📍Крыша", tb.current(h, tracker).html)
    assert not fh.has(h, tracker, "fzm:")  # one move a turn
    await fh.press(h, GM, tracker, "fza:", ":attack")
    assert fh.has(h, tracker, "fzt:") and not any(
        d.endswith(":fight") for d in _data(h, tracker, "fzt:")
    )
    await fh.press(h, GM, tracker, "fza:", ":cancel")
    await fh.press(h, GM, tracker, "fza:", ":pass")
    await fh.press(h, ALICE, tracker, "fza:", ":pass")

    # The end: stress clears for everyone, the consequence stays, fate points untouched.
    before_end = await tb.stored_sheet(h, orc)
    # «Завершить» ended it in one tap, with no undo: it asks first, in place; a player's press
    # is refused, «Отмена» brings the buttons back, and nothing changed meanwhile.
    await tb.press_refused(h, ALICE, tracker, fh.data_of(h, tracker, lambda _l, d: "fze:" in d))
    await fh.press(h, GM, tracker, "fze:", "⏹")
    asked = ["🏁 Да, завершить", "Отмена"]
    assert [b.get("text") for b in fh.buttons(tb.current(h, tracker))] == asked
    await fh.press(h, GM, tracker, "tkn:")
    assert fh.has(h, tracker, "fza:") and await tb.stored_sheet(h, orc) == before_end
    await fh.press(h, GM, tracker, "fze:", "⏹")  # the button is as it was: old ones ask too
    assert [b.get("text") for b in fh.buttons(tb.current(h, tracker))] == asked
    await fh.press(h, GM, tracker, "fzy:")
    shown = tb.current(h, tracker)
    assert shown.reply_markup is None or not fh.has(h, tracker, "fz")
    after = await tb.stored_sheet(h, orc)
    assert after["stress"][TrackKind.PHYSICAL.value] == []
    assert after["consequences"] == before_end["consequences"]
    assert (await tb.stored_sheet(h, ira))["fate_points"] == 3
    assert wound in shown.text


async def test_commands_refusals_conceding_and_taken_out(harness: Harness) -> None:
    h, emu = harness, harness.emu
    fh.seat_table(h)
    await h.start()
    sent = emu.send_text(GM, fh.GROUP, "/fight")
    await emu.wait_bot_message(fh.GROUP, after=sent.message_id, contains="/newgame")
    await fh.create_game(h, "fate", "Конфликт")
    ira = await tb.insert_character(h, "fate", fh.hero("Ира"), owner=ALICE)
    nik = await tb.insert_character(h, "fate", fh.hero("Ник"), owner=BOB)
    emu.add_user(CAROL, "Carol", language_code="en")
    emu.add_member(fh.GROUP, CAROL)
    lis = await tb.insert_character(h, "fate", fh.hero("Лис"), owner=CAROL)
    await tb.insert_character(h, "fate", fh.hero("Орк", fight=12, notice=5), owner=GM, npc=True)

    sent = emu.send_text(BOB, fh.GROUP, "/fight")
    await emu.wait_bot_message(fh.GROUP, after=sent.message_id, contains="только мастер")
    # Called off during the set-up: nothing to clear, a new one may open.
    tracker = await fh.open_conflict(h)
    await fh.end(h, tracker)
    assert "Конфликт отменён" in tb.current(h, tracker).text
    tracker = await fh.open_conflict(h)
    sent = emu.send_text(GM, fh.GROUP, "/conflict")
    await emu.wait_bot_message(fh.GROUP, after=sent.message_id, contains="/tracker")

    # The orc out of the fight: one side only, the engine refuses to start.
    await fh.press(h, GM, tracker, "fzs:", "Орк")
    assert "⬜ Орк" in tb.current(h, tracker).text
    answer = await fh.press(h, GM, tracker, "fzg:")
    assert answer.show_alert
    await fh.press(h, GM, tracker, "fzs:", "Орк")
    await fh.press(h, GM, tracker, "fzs:", "Орк")
    assert "🅱 Орк" in tb.current(h, tracker).text
    await fh.press(h, GM, tracker, "fzg:")
    assert "▶️ <b>Орк</b>" in tb.current(h, tracker).html
    # /tracker posts it again at the bottom; the buttons live there now.
    sent = emu.send_text(ALICE, fh.GROUP, "/tracker")
    tracker = await emu.wait_bot_message(fh.GROUP, after=sent.message_id, contains="Орк")
    assert fh.has(h, tracker, "fza:")

    # The orc hits Ира, who concedes: +1 fate point, out of the conflict.
    await fh.press(h, GM, tracker, "fza:", ":attack")
    await fh.press(h, GM, tracker, "fzt:", f":{ira}:fight")
    await fh.press(h, ALICE, tracker, "fzd:", "athletics")
    await fh.press(h, ALICE, tracker, "fzb:", ":give")
    assert (await tb.stored_sheet(h, ira))["fate_points"] == 4
    assert "сдался" in tb.current(h, tracker).text
    # Ник passes; Лис concedes on her own turn (the seed sets no timing): +1 fate point.
    await fh.press(h, BOB, tracker, "fza:", ":pass")
    await fh.press(h, CAROL, tracker, "fza:", ":concede")
    assert (await tb.stored_sheet(h, lis))["fate_points"] == 4
    # The orc's turn: Ник is taken out, nobody stands on side A.
    await fh.press(h, GM, tracker, "fza:", ":attack")
    await fh.press(h, GM, tracker, "fzt:", f":{nik}:fight")
    await fh.press(h, BOB, tracker, "fzd:", "athletics")
    await fh.press(h, BOB, tracker, "fzb:", ":out")
    shown = tb.current(h, tracker)
    assert "выбыл" in shown.text and "мастер может завершить" in shown.text
    assert not fh.has(h, tracker, "fza:")
    await fh.end(h, tracker)
    assert "Конфликт окончен" in tb.current(h, tracker).text
    assert (await tb.stored_sheet(h, nik))["fate_points"] == 3


# --- the acceptance: a long conflict stays one message within Telegram's limits --------


def _exchange(h: Harness, tracker: fh.ChatMessage) -> int:
    found = re.search(r"размен (\d+)", tb.current(h, tracker).text)
    assert found, tb.current(h, tracker).text
    return int(found.group(1))


async def test_thirty_exchanges_with_six_characters_stay_within_telegram_limits(
    harness: Harness,
) -> None:
    h = harness
    await fh.table(h)
    h.emu.add_user(CAROL, "Carol", language_code="en")
    h.emu.add_member(fh.GROUP, CAROL)
    long = "Благородный рыцарь Тридевятого царства"
    for n, owner in enumerate((ALICE, BOB, CAROL)):
        await tb.insert_character(
            h, "fate", fh.hero(f"{long} {n}", fight=2, athletics=2, physique=2), owner=owner
        )
    for n in range(3):
        await tb.insert_character(
            h, "fate", fh.hero(f"Разбойник с большой дороги {n}", fight=1), owner=GM, npc=True
        )
    tracker = await fh.open_conflict(h, "Лес: Туман, Бурелом | Поляна: Костёр")
    await fh.press(h, GM, tracker, "fzg:")

    attacks = turns = 0
    while (exchange := _exchange(h, tracker)) <= 30:
        if fh.has(h, tracker, "fzb:"):  # a hit: the first legal way to take it
            await fh.press(h, GM, tracker, "fzb:")
        elif fh.has(h, tracker, "fzr:"):
            await fh.press(h, GM, tracker, "fzr:")
        elif fh.has(h, tracker, "fzd:"):
            await fh.press(h, GM, tracker, "fzd:")
        elif fh.has(h, tracker, "fzt:"):
            await fh.press(h, GM, tracker, "fzt:")
        elif attacks < min(exchange, 3):
            attacks += 1
            await fh.press(h, GM, tracker, "fza:", ":attack")
        else:
            turns += 1
            await fh.press(h, GM, tracker, "fza:", ":pass" if turns % 2 else ":defend")
    await fh.end(h, tracker)
    assert "размен 31" in tb.current(h, tracker).text and "…" in tb.current(h, tracker).text

    group = [c for c in h.emu.calls if str(c.chat_id) == str(fh.GROUP) and c.ok]
    texts = [c.params["text"] for c in group if c.method in ("sendMessage", "editMessageText")]
    assert len(texts) > 180
    assert max(utf16_len(parse_html(text)[0]) for text in texts) <= 4096
    sent = sorted(c.at for c in group if c.method == "sendMessage")
    assert all(later - earlier >= 60 for earlier, later in pairwise(sent[::20]))
    assert len(sent) <= 20
