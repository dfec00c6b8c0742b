"""A game whose topic was deleted could not be archived: the GM was told «archive it with
/game», but /game only answers in the game's own topic, which is gone. Now /game in any other
topic offers its GM «🗄 Archive «title»» (asking first); no one else gets the button, and a
forged or repeated press changes nothing."""

from __future__ import annotations

from sqlalchemy import text

from handlers.callbacks import GoneTopicArchiveCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, buttons
from tests.topics.helpers import FORUM, delete_topic_found, forum_table, held, in_topic, last_id
from tgemu import ChatMessage


async def _archived(h: Harness, game_id: int) -> bool:
    async with h.engine.connect() as conn:
        found = await conn.execute(
            text("SELECT archived_at IS NOT NULL FROM games WHERE id = :g"), {"g": game_id}
        )
        return bool(found.scalar_one())


async def _game_answer(h: Harness, user: int, thread_id: int | None) -> ChatMessage:
    mark = last_id(h)
    h.emu.send_text(user, FORUM, "/game", thread_id=thread_id)
    return await h.emu.wait_for(lambda: next(iter(in_topic(h, thread_id, mark + 1)), None))


def _archive_button(message: ChatMessage) -> int | None:
    found = [i for i, b in enumerate(buttons(message)) if "gta:" in b.get("callback_data", "")]
    return found[0] if found else None


async def test_the_gm_archives_a_game_whose_topic_was_deleted_from_another(
    running: Harness,
) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await delete_topic_found(h, forum.shadows)
    note = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GM) if "удалили" in m.text), None)
    )
    assert "/game в любой другой теме" in note.text
    assert await held(h, forum.shadows_game) == "topic_gone"

    # «General» has no game: its list says the topic is gone and offers the GM the archive
    general = await _game_answer(h, GM, None)
    assert "«Тени»" in general.text and "тему удалили" in general.text
    assert _archive_button(general) is not None
    assert _archive_button(await _game_answer(h, ALICE, None)) is None  # not the GM's game

    # another topic's /game: its own card, and the gone game's button under it
    card = await _game_answer(h, GM, forum.dragons)
    index = _archive_button(card)
    assert "Драконы" in card.text and index is not None
    assert "Тени" in buttons(card)[index]["text"]

    pressed = emu.press_button(ALICE, FORUM, card.message_id, index)  # not her game
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    mark = last_id(h)
    pressed = emu.press_button(GM, FORUM, card.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    question = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Тени" in question.text and not await _archived(h, forum.shadows_game)
    yes = next(b["callback_data"] for b in buttons(question) if ":yes" in b["callback_data"])
    for _ in range(2):  # a redelivered press finds it archived: nothing more
        pressed = emu.press(GM, FORUM, question.message_id, yes)
        await emu.wait_callback_answer(pressed.callback_query_id)
    assert await _archived(h, forum.shadows_game)
    assert not await _archived(h, forum.dragons_game)
    shown = next(m for m in emu.bot_messages(FORUM) if m.message_id == question.message_id)
    assert "архив" in shown.text

    # a forged press naming the other (live) game changes nothing
    forged = GoneTopicArchiveCD(game_id=forum.dragons_game, step="yes").pack()
    pressed = emu.press(GM, FORUM, card.message_id, forged)
    await emu.wait_callback_answer(pressed.callback_query_id)
    assert not await _archived(h, forum.dragons_game)
