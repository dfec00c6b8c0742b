"""A forum that turns its topics off keeps its games (issue 34, item 3): one topic game moves
to the group itself and is played there; several are kept and named, reached again when
topics are back on."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import GM
from tests.helpers.table import WAIT, scalar
from tests.topics.helpers import FORUM, forum_table


async def _game_card(h: Harness) -> str:
    sent = h.emu.send_text(GM, FORUM, "/game")
    answer = await h.emu.wait_bot_message(FORUM, after=sent.message_id, timeout=WAIT)
    await h.emu.wait_idle(WAIT)
    return answer.text


async def test_a_forum_without_topics_keeps_its_games(running: Harness) -> None:
    h = running
    forum = await forum_table(h)
    h.emu.chat(FORUM).is_forum = False  # the group's admin turned topics off

    both = await _game_card(h)
    assert "Драконы" in both and "Тени" in both and "темы" in both, both
    assert await scalar(h, "SELECT count(*) FROM games WHERE thread_id IS NOT NULL") == 2

    async with h.engine.begin() as conn:  # one of them ends
        await conn.execute(
            text("UPDATE games SET archived_at = now() WHERE id = :g"), {"g": forum.shadows_game}
        )
    card = await _game_card(h)
    assert "Драконы" in card and "Тени" not in card, card
    moved = "SELECT thread_id IS NULL FROM games WHERE id = :g"
    assert await scalar(h, moved, g=forum.dragons_game) is True
    assert "Драконы" in await _game_card(h)  # played in the group itself from now on
