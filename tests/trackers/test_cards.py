"""Multi-roll cards end to end over the emulator and Postgres: opposed, extended and team
rolls, each participant pressing their own 🎲; the outcome checked against the engines fed the
logged faces; wrong pressers, forged buttons, concurrency, a restart and the GM's undo."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from bot.services.trackers import cards as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.dice.source import ScriptedSource
from engine.formats import number
from engine.systems import fate
from engine.systems.cliche import teams as cliche_teams
from engine.systems.storyteller import extended as st_extended
from engine.systems.storyteller import opposed as st_opposed
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons
from tests.helpers.table import button_data, current, insert_character, scalar, tracker_row
from tests.trackers.cards_helpers import (
    cliche_hero,
    command,
    fate_hero,
    logged,
    press,
    press_and_wait,
    roll_buttons,
    st_hero,
    start,
)

OTHER_GROUP = -100777


async def _fate_table(h: Harness) -> None:
    await start(h, "fate")
    await insert_character(h, "fate", fate_hero("Алиса", athletics=3), owner=ALICE)
    await insert_character(h, "fate", fate_hero("Боб", fight=2), owner=BOB)


async def test_opposed_fate_compares_totals_and_names_the_winner(running: Harness) -> None:
    await _fate_table(running)
    card = await command(running, "/opposed алиса: Атлетика | Боб: Бой")
    assert "Алиса vs Боб" in card.text and "Атлетика" in card.text
    row = await tracker_row(running)
    assert row["kind"] == "card_opposed" and not row["exclusive"] and row["status"] == "open"
    assert row["state"]["title"].startswith("Алиса vs Боб") and row["state"]["summary"]
    alice, bob = (b["callback_data"] for b in roll_buttons(card))
    async with UnitOfWork(create_session_factory(running.engine)) as uow:
        game = await uow.games.live_for_chat(GROUP)
        assert game is not None
        (listed,) = await service.open_cards(uow, game)
    assert listed.state["title"] == row["state"]["title"]
    assert listed.state["summary"] == "Алиса — : — Боб, ждём: Алиса, Боб"

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
    assert f"Алиса {number(totals[0])} : {number(totals[1])} Боб" in row["state"]["summary"]


async def _storyteller_table(h: Harness) -> None:
    await start(h, "storyteller")
    await insert_character(
        h, "storyteller", st_hero("Эйлин", {"dexterity": 3}, {"athletics": 2}), owner=ALICE
    )
    await insert_character(
        h, "storyteller", st_hero("Бран", {"strength": 3}, {"brawl": 2}), owner=GM, npc=True
    )


async def test_opposed_storyteller_cancels_successes_and_the_npc_is_the_gms(
    running: Harness,
) -> None:
    await _storyteller_table(running)
    card = await command(running, "/opposed Эйлин: Ловкость+Атлетизм | бран: Сила+Драка 7")
    eilin, bran = (b["callback_data"] for b in roll_buttons(card))
    refused = await press(running, ALICE, card, bran)  # the NPC is the GM's to roll
    assert refused.show_alert and await logged(running) == []
    card = await press_and_wait(running, GM, card, bran)
    card = await press_and_wait(running, ALICE, card, eilin)

    rolls = await logged(running)
    assert sorted(r[1] for r in rolls) == ["5d10>=6f1", "5d10>=7f1"]
    by_notation = {r[1]: r[2] for r in rolls}
    nets = (by_notation["5d10>=6f1"].total, by_notation["5d10>=7f1"].total)
    expected = st_opposed.resolve_nets(*nets)
    row = await tracker_row(running)
    assert row["status"] == "ended" and buttons(card) == []
    assert row["state"]["result"]["winner"] == expected.winner
    assert row["state"]["result"]["margin"] == expected.margin
    verdict = card.text.split("🏆")[1]
    if expected.winner is None:
        assert "Ничья" in verdict
    else:
        assert ["Эйлин", "Бран"][expected.winner] in verdict and str(expected.margin) in verdict


async def test_extended_storyteller_accumulates_to_the_target(running: Harness) -> None:
    await _storyteller_table(running)
    card = await command(running, "/extended Эйлин: Ловкость+Атлетизм 6 до 5 за 6")
    assert "до 5" in card.text
    presses = 0
    while roll_buttons(card):
        card = await press_and_wait(running, ALICE, card, roll_buttons(card)[0]["callback_data"])
        presses += 1
        assert presses <= 6
    rolls = await logged(running)
    assert len(rolls) == presses and len({r[0] for r in rolls}) == presses
    action = st_extended.start_extended(5, difficulty=6, turn_limit=6)
    for _, notation, result in rolls:
        assert notation == "5d10>=6f1"
        action, _ = st_extended.roll_extended(action, 5, ScriptedSource(result.faces))
    row = await tracker_row(running)
    assert row["status"] == "ended" and action.status.value != "active"
    assert row["state"]["accumulated"] == action.accumulated
    assert row["state"]["result"]["status"] == action.status.value
    assert f"{action.accumulated}/5" in row["state"]["summary"] and buttons(card) == []


async def test_team_cliche_leader_sums_all_dice_members_add_sixes(running: Harness) -> None:
    await start(running, "cliche")
    await insert_character(running, "cliche", cliche_hero("Мэл", ("Солдат", 4)), owner=ALICE)
    await insert_character(running, "cliche", cliche_hero("Зои", ("Пилот", 3)), owner=BOB)
    refused = await command(running, "/team Зои: Пилот | Мэл: Солдат")
    assert "4" in refused.text and (await scalar(running, "SELECT count(*) FROM trackers")) == 0

    card = await command(running, "/team Мэл: Солдат | Зои: Пилот vs 10")
    assert "(лидер)" in card.text
    mal, zoe = (b["callback_data"] for b in roll_buttons(card))
    card = await press_and_wait(running, BOB, card, zoe)
    card = await press_and_wait(running, ALICE, card, mal)
    rolls = await logged(running)
    faces = {r[1]: r[2].faces for r in rolls}
    total = cliche_teams.team_total(faces["4d6"], [faces["3d6"]])
    row = await tracker_row(running)
    assert row["status"] == "ended" and row["state"]["result"]["total"] == total
    verdict = "успех" if total >= 10 else "неудача"
    assert f"у команды {total}, {verdict} против 10" in row["state"]["summary"]
    assert row["state"]["summary"] in card.text


async def test_team_fate_only_the_best_skill_rolls_helpers_add_one(running: Harness) -> None:
    await start(running, "fate")
    await insert_character(running, "fate", fate_hero("Алиса", athletics=2), owner=ALICE)
    await insert_character(running, "fate", fate_hero("Боб", athletics=3), owner=BOB)
    card = await command(running, "/team Алиса: Атлетика | Боб: Атлетика vs Хорошо")
    assert len(roll_buttons(card)) == 1 and "(помогает: +1)" in card.text
    card = await press_and_wait(running, BOB, card, roll_buttons(card)[0]["callback_data"])
    ((_, notation, result),) = await logged(running)
    assert notation == "4dF+3"
    row = await tracker_row(running)
    assert row["state"]["result"]["total"] == result.total + 1 and buttons(card) == []
    assert f"сдвигов: {fate.signed(result.total + 1 - 3)}" in row["state"]["summary"]


async def test_twenty_concurrent_presses_roll_once(running: Harness) -> None:
    await _fate_table(running)
    card = await command(running, "/opposed Алиса: Атлетика | Боб: Бой")
    alice, bob = (b["callback_data"] for b in roll_buttons(card))
    presses = [
        running.emu.press(ALICE if i % 2 else GM, GROUP, card.message_id, alice) for i in range(20)
    ]
    presses.insert(10, running.emu.press(BOB, GROUP, card.message_id, bob))
    answers = await asyncio.gather(
        *(running.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in presses)
    )
    rolls = await logged(running)
    assert len(rolls) == 2 and {r[1] for r in rolls} == {"4dF+3", "4dF+2"}
    rolled = [a for a in answers if (a.text or "").startswith("🎲")]
    assert len(rolled) == 2 and all(not a.show_alert for a in rolled)
    assert all(a.text for a in answers)
    row = await tracker_row(running)
    assert row["status"] == "ended" and [len(s["rolls"]) for s in row["state"]["slots"]] == [1, 1]
    await running.emu.wait_idle()
    # The edits reached the chat in commit order: the card ends with both rolls and a result.
    final = current(running, card)
    assert buttons(final) == [] and "🏆" in final.text
    assert all(f"#{r}" in final.text for r in (1, 2))


async def test_wrong_presser_and_forged_buttons_change_nothing(running: Harness) -> None:
    await _fate_table(running)
    first = await command(running, "/opposed Алиса: Атлетика | Боб: Бой")
    second = await command(running, "/opposed Боб: Бой | Алиса: Атлетика")
    alice_first = roll_buttons(first)[0]["callback_data"]
    bob_second = roll_buttons(second)[0]["callback_data"]
    # Bob presses Alice's button.
    assert (await press(running, BOB, first, alice_first)).show_alert
    # The second card's button pressed on the first card's message.
    assert (await press(running, BOB, first, bob_second)).show_alert
    # A card of this chat pressed in another chat.
    running.emu.add_group(OTHER_GROUP, "Other", members=[GM, ALICE, BOB], creator=GM)
    sent = running.emu.send_text(GM, OTHER_GROUP, "/r 1d6")
    await running.emu.wait_bot_message(OTHER_GROUP)
    answer = await press(running, ALICE, first, alice_first, chat_id=OTHER_GROUP,
                         message_id=sent.message_id)  # fmt: skip
    assert answer.show_alert
    for forged in ("crd:abc:0:0", "crd:999999:0:0", "crx:1:x"):
        answer = await press(running, GM, first, forged)
        assert answer.text and "Traceback" not in answer.text
    # The GM's own buttons are the GM's.
    assert (await press(running, ALICE, first, button_data(first, "crx:"))).show_alert
    assert await logged(running) == []
    versions = await scalar(running, "SELECT sum(version) FROM trackers")
    assert versions == 2  # both cards still at version 1
    # A card outlives its game: once the game is archived its GM may still close it (asked).
    async with running.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))
    asked = await press_and_wait(running, GM, first, button_data(first, "crx:"))
    closed = await press_and_wait(running, GM, asked, button_data(asked, "cry:"))
    assert buttons(closed) == [] and "Отменено мастером" in closed.text


async def test_a_restart_mid_card_keeps_the_rolls(harness: Harness) -> None:
    await harness.start()
    await _fate_table(harness)
    card = await command(harness, "/opposed Алиса: Атлетика | Боб: Бой")
    alice, bob = (b["callback_data"] for b in roll_buttons(card))
    card = await press_and_wait(harness, ALICE, card, alice)
    await harness.restart()
    card = await press_and_wait(harness, BOB, card, bob)
    row = await tracker_row(harness)
    assert row["status"] == "ended" and len(await logged(harness)) == 2
    assert "🏆" in card.text and buttons(card) == []


async def test_gm_undo_takes_back_a_roll_and_cancel_closes_the_card(running: Harness) -> None:
    await _fate_table(running)
    card = await command(running, "/opposed Алиса: Атлетика | Боб: Бой")
    assert not [b for b in buttons(card) if b["callback_data"].startswith("tku:")]
    card = await press_and_wait(running, ALICE, card, roll_buttons(card)[0]["callback_data"])
    undo = button_data(card, "tku:")
    assert (await press(running, ALICE, card, undo)).show_alert
    card = await press_and_wait(running, GM, card, undo)
    row = await tracker_row(running)
    assert row["version"] == 3 and row["state"]["slots"][0]["rolls"] == []
    assert len(roll_buttons(card)) == 2 and "Алиса, Боб" in row["state"]["summary"]
    # Alice rolls again: a new roll (the undone one stays in the log, no longer counted).
    card = await press_and_wait(running, ALICE, card, roll_buttons(card)[0]["callback_data"])
    rolls = await logged(running)
    assert len(rolls) == 2 and rolls[0][0] != rolls[1][0]
    row = await tracker_row(running)
    (kept,) = row["state"]["slots"][0]["rolls"]
    assert kept["total"] == rolls[1][2].total
    # Cancel: the GM's only. A closed card keeps no buttons, so «Закрыть карточку» asks first,
    # in place; «Отмена» brings the card's buttons back, nothing changed meanwhile.
    cancel = button_data(card, "crx:")
    assert (await press(running, BOB, card, cancel)).show_alert
    card = await press_and_wait(running, GM, card, cancel)
    assert [b["text"] for b in buttons(card)] == ["✖️ Да, закрыть", "Отмена"]
    assert (await press(running, BOB, card, button_data(card, "cry:"))).show_alert
    assert await tracker_row(running) == row
    card = await press_and_wait(running, GM, card, button_data(card, "tkn:"))
    assert len(roll_buttons(card)) == 1 and button_data(card, "crx:") == cancel
    card = await press_and_wait(running, GM, card, cancel)  # the same button asks again
    card = await press_and_wait(running, GM, card, button_data(card, "cry:"))
    row = await tracker_row(running)
    assert row["status"] == "ended" and row["state"]["summary"] == "отменено"
    assert buttons(card) == [] and "Отменено мастером" in card.text
    # The closed card's old button is refused.
    assert (await press(running, GM, card, cancel)).show_alert


async def test_bad_input_is_explained_and_stores_nothing(running: Harness) -> None:
    await _fate_table(running)
    usage = await command(running, "/opposed")
    assert "/opposed" in usage.text
    for line in (
        "/opposed Алиса Атлетика",
        "/opposed Алиса: Атлетика",
        "/opposed Алиса: Атлетика | Зорро: Бой",
        "/opposed Алиса: Атлетика | <b>Зорро: Бой",
        "/opposed <i>Алиса Атлетика",
        "/opposed Алиса: Полёт | Боб: Бой",
        "/extended Алиса: Атлетика до 5",
        "/team Алиса: Атлетика",
    ):
        answer = await command(running, line)
        assert answer.text and not buttons(answer), line
    player = await command(running, "/opposed Алиса: Атлетика | Боб: Бой", user=ALICE)
    assert "мастер" in player.text  # the group's language (its GM's), not Alice's English
    assert await scalar(running, "SELECT count(*) FROM trackers") == 0


async def test_opposed_extended_storyteller_races_round_after_round(running: Harness) -> None:
    await _storyteller_table(running)
    card = await command(running, "/opposed Эйлин: Ловкость+Атлетизм | Бран: Сила+Драка до 3 за 2")
    assert "до 3" in card.text
    eilin, bran = (b["callback_data"] for b in roll_buttons(card))
    card = await press_and_wait(running, ALICE, card, eilin)
    card = await press_and_wait(running, GM, card, bran)
    row = await tracker_row(running)
    action = st_opposed.start_opposed_extended(("Эйлин", "Бран"), 3, turn_limit=2)
    for side, (_, _, result) in enumerate(await logged(running)):  # Эйлин, then Бран
        action, _ = st_opposed.roll_opposed_extended(action, side, 5, ScriptedSource(result.faces))
    assert row["state"]["points"] == list(action.tallies)
    if action.status.value == "active":  # round two: both buttons are back
        assert len(roll_buttons(card)) == 2 and row["status"] == "open"
    else:
        assert buttons(card) == [] and row["state"]["result"]["winner"] == action.winner
