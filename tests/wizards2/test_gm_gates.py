"""Issue 24, item 10: a player's gain is a request the GM grants with one tap; spending stays
the player's; a trusting table skips the request; the ledger names who asked and who granted."""

from __future__ import annotations

import asyncio

from bot.i18n import I18n
from bot.services.resources import item_key
from db.repositories.games import CharacterDTO
from engine.systems import cliche, fate
from handlers.views import grants as grant_views
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import (
    current,
    insert_character,
    press_data,
    scalar,
    send_for_buttons,
    stored_sheet,
)
from tgemu import ChatMessage


async def _start(h: Harness, system: str, character: object) -> int:
    seat_table(h)
    await create_game(h, system, "Кампания")
    return await insert_character(h, system, character, owner=ALICE)  # type: ignore[arg-type]


async def _request_cards(h: Harness) -> list[ChatMessage]:
    await h.emu.wait_idle()
    return [
        m
        for m in h.emu.bot_messages(GROUP)
        if any(b.get("callback_data", "").startswith("grq:") for b in buttons(m)) or "🙋" in m.text
    ]


def _grant_data(card: ChatMessage, yes: bool) -> str:
    wanted = [
        b["callback_data"]
        for b in buttons(card)
        if b.get("callback_data", "").startswith("grq:")
        and grant_views.GrantCD.unpack(b["callback_data"]).yes is yes
    ]
    assert wanted, buttons(card)
    return str(wanted[0])


def _label(message: ChatMessage, data: str) -> str:
    return str(next(b["text"] for b in buttons(message) if b.get("callback_data") == data))


async def _ledger(h: Harness) -> list[tuple[str, int, int | None]]:
    async with h.engine.connect() as conn:
        from sqlalchemy import text

        rows = await conn.execute(
            text("SELECT kind, actor_user_id, asked_by_user_id FROM ledger ORDER BY id")
        )
        return [(r[0], r[1], r[2]) for r in rows]


async def test_a_players_fate_point_waits_for_the_gm_who_grants_it_once(running: Harness) -> None:
    h = running
    cid = await _start(h, "fate", fate.new_character("Ира").model_copy(update={"fate_points": 2}))
    panel = await send_for_buttons(h, ALICE, "/res", "run:")
    gain = views.FatePointCD(character_id=cid, delta=1).pack()
    assert _label(panel, gain) == "🙋 Попросить ОС"  # the button says it asks (the group's)

    asked = await press_data(h, ALICE, panel, gain)
    assert not asked.show_alert and "мастеру" in (asked.text or "")
    assert (await stored_sheet(h, cid))["fate_points"] == 2  # nothing yet
    again = await press_data(h, ALICE, panel, gain)  # a second press asks nothing new
    assert again.show_alert and "Уже попросили" in (again.text or "")
    cards = await _request_cards(h)
    assert len(cards) == 1 and "Ира" in cards[0].text and "Alice" in cards[0].text
    card = cards[0]

    refused = await press_data(h, BOB, card, _grant_data(card, True))  # not a GM
    assert refused.show_alert
    assert (await stored_sheet(h, cid))["fate_points"] == 2 and await _ledger(h) == []

    # the GM's taps, twice at once (a double tap): the gain is applied once
    grant = _grant_data(card, True)
    presses = [h.emu.press(GM, GROUP, card.message_id, grant) for _ in range(2)]
    answers = await asyncio.gather(
        *(h.emu.wait_callback_answer(p.callback_query_id) for p in presses)
    )
    assert sum(1 for a in answers if not a.show_alert) == 1
    assert (await stored_sheet(h, cid))["fate_points"] == 3
    assert await _ledger(h) == [("fate.fp.gain", GM, ALICE)]
    await h.emu.wait_idle()
    decided = current(h, card)
    assert "✅" in decided.text and "2 → 3" in decided.text and buttons(decided) == []

    # spending is still the player's own, at once
    spent = await press_data(
        h, ALICE, current(h, panel), views.FatePointCD(character_id=cid, delta=-1).pack()
    )
    assert "3 → 2" in (spent.text or "")
    assert (await _ledger(h))[-1] == ("fate.fp.spend", ALICE, None)
    # a new request can be opened once the last one is answered
    await press_data(h, ALICE, current(h, panel), gain)
    (newer,) = await _request_cards(h)  # the answered card keeps no buttons and no 🙋
    assert newer.message_id > card.message_id


async def test_a_lost_cliche_die_asked_back_and_refused_changes_nothing(running: Harness) -> None:
    h = running
    soldier = cliche.Cliche(name="Солдат", dice=4, lost=1)
    sheet = cliche.new_character("Мэл").model_copy(update={"cliches": (soldier,)})
    cid = await _start(h, "cliche", sheet)
    panel = await send_for_buttons(h, ALICE, "/res", "run:")
    restore = views.ClicheDiceCD(character_id=cid, index=0, key=item_key("Солдат"), delta=1)
    assert _label(panel, restore.pack()) == "🙋 Попросить кость: Солдат"
    await press_data(h, ALICE, panel, restore.pack())
    (card,) = await _request_cards(h)
    assert "Солдат" in card.text
    grant = _grant_data(card, True)  # kept to press it on the answered card later
    answer = await press_data(h, GM, card, _grant_data(card, False))
    assert not answer.show_alert
    await h.emu.wait_idle()
    assert "✖️" in current(h, card).text and buttons(current(h, card)) == []
    assert (await stored_sheet(h, cid))["cliches"][0]["lost"] == 1 and await _ledger(h) == []
    late = await press_data(h, GM, card, grant)  # a forged or late press
    assert late.show_alert
    assert (await stored_sheet(h, cid))["cliches"][0]["lost"] == 1


async def test_a_trusting_table_gains_without_asking(running: Harness) -> None:
    h = running
    cid = await _start(h, "fate", fate.new_character("Ира").model_copy(update={"fate_points": 1}))
    options = await send_for_buttons(h, GM, "/options", "gtr:")
    switch = grant_views.GrantTrustCD(on=True).pack()
    refused = await press_data(h, ALICE, options, switch)  # the GM's switch alone
    assert refused.show_alert
    assert await scalar(h, "SELECT count(*) FROM grant_trust") == 0
    await press_data(h, GM, options, switch)
    assert await scalar(h, "SELECT count(*) FROM grant_trust") == 1
    await h.emu.wait_idle()
    assert any(
        b["callback_data"] == grant_views.GrantTrustCD(on=False).pack()
        for b in buttons(current(h, options))
    )

    panel = await send_for_buttons(h, ALICE, "/res", "run:")
    gain = views.FatePointCD(character_id=cid, delta=1).pack()
    assert _label(panel, gain) == "➕ Получить ОС"  # a trusting table gains directly
    gained = await press_data(h, ALICE, panel, gain)
    assert "1 → 2" in (gained.text or "")
    assert await _ledger(h) == [("fate.fp.gain", ALICE, None)]
    assert await _request_cards(h) == []


async def test_the_gms_own_npc_panel_gains_directly(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "cliche", "Кампания")
    soldier = cliche.Cliche(name="Солдат", dice=4, lost=1)
    sheet = cliche.new_character("Гоблин").model_copy(update={"cliches": (soldier,)})
    cid = await insert_character(h, "cliche", sheet, owner=GM, npc=True)
    panel = await send_for_buttons(h, GM, "/res Гоблин", "run:")
    restore = views.ClicheDiceCD(character_id=cid, index=0, key=item_key("Солдат"), delta=1)
    assert _label(panel, restore.pack()) == "➕ Солдат"
    restored = await press_data(h, GM, panel, restore.pack())
    assert not restored.show_alert
    assert (await stored_sheet(h, cid))["cliches"][0]["lost"] == 0
    assert await _request_cards(h) == []


def test_the_russian_labels_say_ask_on_a_players_panel_and_gain_on_the_gms() -> None:
    t = I18n("ru").translator("ru")
    row = CharacterDTO(
        id=7, game_id=1, owner_user_id=ALICE, is_npc=False, system="fate", name="Ира",
        status="active", sheet={}, version=1, review_comment=None,
    )  # fmt: skip
    sheet = fate.new_character("Ира")

    def texts(asks: bool) -> list[str]:
        keyboard = views.panel_keyboard(t, "ru", row, sheet, asks=asks)
        return [b.text for line in keyboard.inline_keyboard for b in line]

    assert "🙋 Попросить ОС" in texts(True) and "➕ Получить ОС" not in texts(True)
    assert "➕ Получить ОС" in texts(False)
