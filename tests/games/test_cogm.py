"""Co-GM powers over the emulator with real Postgres: archiving, /options, /cogm, /uncogm and
/timezone are the GM's alone; the GM takes a co-GM's powers back (a reply or the /game card's
button) and the removed co-GM runs nothing any more."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from bot.i18n import I18n
from handlers.callbacks import ArchiveCD, CogmRemoveCD, GameOptionCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import game_id, press_data, scalar, send_and_answer, send_for_buttons
from tgemu import ChatMessage

GROUP_T = I18n("ru").translator("ru")  # the group speaks its Russian GM's language
COGM_REFUSAL = GROUP_T("Only the game's GM can do that, not a co-GM.")


async def _game_row(h: Harness) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        row = await conn.execute(text("SELECT timezone, options, archived_at FROM games"))
        return dict(row.mappings().one())


async def _role(h: Harness, user: int) -> str | None:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT role FROM game_members WHERE user_id = :u"), {"u": user}
        )
        return row.scalar_one_or_none()


async def _appoint(h: Harness, user: int) -> None:
    said = h.emu.send_text(user, GROUP, "I can help run it")
    h.emu.send_text(GM, GROUP, "/cogm", reply_to=said.message_id)
    await h.emu.wait_bot_message(GROUP, contains="со-мастер", after=said.message_id)
    assert await _role(h, user) == "cogm"


async def _card(h: Harness, user: int, prefix: str = "arc:") -> ChatMessage:
    """The /game card ``user`` asked for: the GM's has «Archive», a co-GM's the NPC list."""
    return await send_for_buttons(h, user, "/game", prefix)


async def test_a_cogm_is_refused_the_gms_own_powers(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "storyteller", "Грёзы")
    await _appoint(running, BOB)
    before = await _game_row(running)

    for line in ("/options", "/timezone +3"):
        assert (await send_and_answer(running, BOB, line)).text == COGM_REFUSAL, line
    said = running.emu.send_text(ALICE, GROUP, "Me too?")
    running.emu.send_text(BOB, GROUP, "/cogm", reply_to=said.message_id)
    refused = await running.emu.wait_bot_message(GROUP, after=said.message_id)
    assert refused.text == COGM_REFUSAL and await _role(running, ALICE) is None

    card = await _card(running, BOB, "nls")
    gid = await game_id(running)
    for data in (
        ArchiveCD(game_id=gid, confirm=False).pack(),
        ArchiveCD(game_id=gid, confirm=True).pack(),
        GameOptionCD(field="freebies", delta=1).pack(),
    ):
        answer = await press_data(running, BOB, card, data)
        assert answer.show_alert and answer.text == COGM_REFUSAL, data
    assert await _game_row(running) == before  # not archived, same zone and options

    # What a co-GM may do still works: the milestone picker opens for Bob.
    await send_for_buttons(running, BOB, "/milestone", "mlk:")


async def test_the_gm_removes_a_cogm_who_then_runs_nothing(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "storyteller", "Грёзы")
    await _appoint(running, BOB)
    await send_for_buttons(running, BOB, "/milestone", "mlk:")

    said = running.emu.send_text(BOB, GROUP, "Taking a break")
    running.emu.send_text(GM, GROUP, "/uncogm", reply_to=said.message_id)
    await running.emu.wait_bot_message(
        GROUP, contains="больше не со-мастер", after=said.message_id
    )
    assert await _role(running, BOB) == "player"
    refused = await send_and_answer(running, BOB, "/milestone")
    assert refused.text == GROUP_T("Only the GM can do that.")
    assert not buttons(refused)

    # Appointed again, then removed with the /game card's button — the GM's alone.
    await _appoint(running, BOB)
    card = await _card(running, GM)
    remove = CogmRemoveCD(game_id=await game_id(running), user_id=BOB).pack()
    assert remove in [b.get("callback_data") for b in buttons(card)]
    answer = await press_data(running, BOB, card, remove)
    assert answer.show_alert and answer.text == COGM_REFUSAL
    assert await _role(running, BOB) == "cogm"
    assert not (await press_data(running, GM, card, remove)).show_alert
    assert await _role(running, BOB) == "player"
    redrawn = await running.emu.wait_for(
        lambda: next(
            (m for m in running.emu.bot_messages(GROUP)
             if m.message_id == card.message_id and m.edits),
            None,
        )
    )  # fmt: skip
    assert not any(b.get("callback_data", "").startswith("cgr:") for b in buttons(redrawn))
    again = await press_data(running, GM, card, remove)  # an old copy of the button
    assert again.show_alert
    assert await scalar(running, "SELECT count(*) FROM game_members WHERE role = 'cogm'") == 0
    refused = await send_and_answer(running, BOB, "/milestone")
    assert refused.text == GROUP_T("Only the GM can do that.")


def _kinds(card: ChatMessage) -> list[str]:
    """What a card's buttons do: ``url`` for «Create character», else the data's prefix."""
    return ["url" if "url" in b else b["callback_data"].split(":")[0] for b in buttons(card)]


async def test_the_game_card_has_only_the_buttons_its_asker_may_press(running: Harness) -> None:
    """/game asked by a player showed «NPC list» and «Archive», which only answered «Only the
    GM can do that»: a player's copy has «Create character» alone, a co-GM's adds the NPC list,
    the GM's the archive and the co-GM's removal."""
    seat_table(running)
    await create_game(running, "matter", "Пепел")
    await _appoint(running, BOB)
    player = await send_and_answer(running, ALICE, "/game")
    assert _kinds(player) == ["url"]
    assert _kinds(await _card(running, BOB, "nls")) == ["url", "nls"]
    assert _kinds(await _card(running, GM)) == ["url", "cgr", "nls", "arc"]
