"""The one length guard: ``clip_html`` never cuts inside a tag or an entity and closes what it
left open; the bot session applies it (and the caption and callback-answer limits) to every
call, so a too-long text is sent shortened instead of refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from html import escape

import pytest
from aiogram import Bot
from aiogram.types import BufferedInputFile
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.factory import create_bot
from handlers.views.safe import clip_html, clip_list, clip_plain, visible_length
from tests.safehtml.hostile import PIECES
from tgemu import BotAPIEmulator
from tgemu.html import parse_html

USER, GROUP = 3101, -3100500
TAGS = ("b", "i", "u", "s", "code", "tg-spoiler", "blockquote")

texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40).map("".join)
markup = st.recursive(
    texts.map(lambda s: escape(s, quote=False)),
    lambda inner: st.tuples(st.sampled_from(TAGS), st.lists(inner, max_size=4)).map(
        lambda pair: f"<{pair[0]}>{''.join(pair[1])}</{pair[0]}>"
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(markup, max_size=8).map("\n".join), st.integers(5, 400))
def test_clipped_html_parses_and_fits(html: str, limit: int) -> None:
    shown, _ = parse_html(html)
    assert visible_length(html) == len(shown)
    clipped = clip_html(html, limit)
    text, _ = parse_html(clipped)  # never cut inside a tag or an entity, every tag closed
    assert len(text) <= limit
    if len(shown) <= limit:
        assert clipped == html
    else:
        assert text.endswith("…")
        assert shown.startswith(text[:-1].rstrip())


def test_clip_prefers_a_line_end_and_closes_tags() -> None:
    html = "<b>" + "\n".join(f"line {i} &amp; more" for i in range(50)) + "</b>"
    clipped = clip_html(html, 100)
    assert clipped.endswith("…</b>") and "\nline" in clipped
    assert parse_html(clipped)[0].splitlines()[-1].endswith("more…")


def test_clip_list_counts_the_rest() -> None:
    names = [f"name {i}" for i in range(80)]
    shown = clip_list(names, room=60, more=lambda n: f"+{n}")
    assert shown == ", ".join(names[:7]) + ", +73"
    assert clip_list(names[:3], room=60, more=lambda n: f"+{n}") == "name 0, name 1, name 2"
    assert clip_plain("x" * 300, 200) == "x" * 199 + "…"


@pytest.fixture
async def bot(emulator: BotAPIEmulator) -> AsyncIterator[Bot]:
    emulator.add_user(USER, "Alice", language_code="en")
    emulator.add_group(GROUP, "Table", members=[USER])
    client = create_bot(emulator.token, api_url=emulator.base_url)
    yield client
    await client.session.close()


async def test_every_text_is_cut_to_telegram_limits(bot: Bot, emulator: BotAPIEmulator) -> None:
    """Before the guard, each of these calls was refused and the reply lost."""
    long = "<b>Список</b>\n" + "\n".join(f"• <i>&lt;имя {i}&gt;</i> &amp; …" for i in range(400))
    sent = await bot.send_message(GROUP, long)
    assert sent.text is not None and len(sent.text) <= 4096 and sent.text.endswith("…")
    again = "<b>Список (2)</b>" + long.removeprefix("<b>Список</b>")
    edited = await bot.edit_message_text(again, chat_id=GROUP, message_id=sent.message_id)
    assert not isinstance(edited, bool) and edited.text is not None
    assert len(edited.text) <= 4096

    document = BufferedInputFile(b"{}", "log.json")
    with_caption = await bot.send_document(GROUP, document, caption=long)
    assert with_caption.caption is not None and len(with_caption.caption) <= 1024

    pressed = emulator.press(USER, GROUP, sent.message_id, "x")
    await bot.answer_callback_query(pressed.callback_query_id, text="ж" * 300, show_alert=True)
    answer = emulator.callback_answers[pressed.callback_query_id]
    assert answer.text is not None and len(answer.text) == 200

    short = await bot.send_message(GROUP, "<b>short</b> &amp; sweet")
    assert short.text == "short & sweet"  # untouched
    assert all(call.ok for call in emulator.calls)
