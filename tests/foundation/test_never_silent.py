"""No update can silence the bot for others: poison text, a batch the database refuses, reused
update ids, a flood in one group. Over the emulator with the real dispatcher and Postgres."""

from __future__ import annotations

from sqlalchemy import text

from bot.outbound import Limits, ResilienceMiddleware
from db.repositories.updates import last_update_id
from tests.conftest import Harness
from tgemu import BotAPIEmulator

ALICE, BOB, CARL = 3001, 3002, 3003
GROUP = -4001


def _people(emu: BotAPIEmulator) -> None:
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CARL, "Carl")):
        emu.add_user(uid, name, language_code="en")


async def _scalar(h: Harness, sql: str) -> object:
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql))).scalar_one()


async def test_nul_and_lone_surrogates_are_cleaned_and_nobody_is_silenced(
    running: Harness,
) -> None:
    emu = running.emu
    _people(emu)
    emu.send_text(ALICE, ALICE, "/start")
    await emu.wait_for(lambda: emu.bot_messages(ALICE))
    # In one batch: a roll whose label holds U+0000, a text holding half an emoji, a forged
    # press whose data holds U+0000 — and Bob's /help, which must still be answered.
    start = emu.bot_messages(ALICE)[-1]
    emu.send_text(ALICE, ALICE, "/r 1d6 axe\x00swing")
    emu.send_text(ALICE, ALICE, "hello \ud83d")
    emu.press(ALICE, ALICE, start.message_id, "scr:\x00help")
    emu.send_text(BOB, BOB, "/help")
    await emu.wait_for(lambda: emu.bot_messages(BOB), timeout=15)
    await emu.wait_for(lambda: any("Log #" in m.text for m in emu.bot_messages(ALICE)))
    await emu.wait_idle()
    label = await _scalar(running, "SELECT label FROM rolls")
    assert label == "axe\ufffdswing"
    told = [m for m in emu.bot_messages(ALICE) if "cannot be stored" in m.text]
    assert len(told) == 2  # the roll's and the text's senders are told; a press has no text
    assert await _scalar(running, "SELECT count(*) FROM update_inbox") == 0
    # every update got its claim: nothing is waiting to be fetched again
    assert await _scalar(running, "SELECT count(*) FROM processed_updates") == 5


async def test_a_batch_the_database_refuses_parks_the_update_and_polling_goes_on(
    running: Harness,
) -> None:
    emu = running.emu
    _people(emu)
    # A refusal of the database's own (not a passing fault): a trigger that refuses one text.
    async with running.engine.begin() as conn:
        await conn.execute(
            text(
                "CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "IF NEW.payload::text LIKE '%POISON%' THEN RAISE EXCEPTION 'refused'; END IF; "
                "RETURN NEW; END $$"
            )
        )
        await conn.execute(
            text(
                "CREATE TRIGGER refuse_poison BEFORE INSERT ON update_inbox FOR EACH ROW "
                "EXECUTE FUNCTION refuse_poison()"
            )
        )
    try:
        emu.send_text(ALICE, ALICE, "hi")
        emu.send_text(ALICE, ALICE, "/r 1d6 POISON")
        emu.send_text(BOB, BOB, "/help")
        await emu.wait_for(lambda: emu.bot_messages(BOB), timeout=15)
        await emu.wait_for(
            lambda: any("could not be handled" in m.text for m in emu.bot_messages(ALICE))
        )
        emu.send_text(ALICE, ALICE, "/r 1d4")  # polling went on
        await emu.wait_for(lambda: any("Log #" in m.text for m in emu.bot_messages(ALICE)))
        await emu.wait_idle()
        async with running.engine.connect() as conn:
            parked = (
                await conn.execute(text("SELECT payload, error FROM update_dead_letters"))
            ).all()
        assert len(parked) == 1
        assert "POISON" in parked[0][0] and "refused" in parked[0][1]
        assert await _scalar(running, "SELECT count(*) FROM rolls") == 1  # only the 1d4
    finally:
        async with running.engine.begin() as conn:
            await conn.execute(text("DROP TRIGGER refuse_poison ON update_inbox"))
            await conn.execute(text("DROP FUNCTION refuse_poison()"))


async def test_claims_older_than_the_redelivery_window_never_swallow_an_update(
    harness: Harness,
) -> None:
    emu = harness.emu
    _people(emu)
    # An earlier life of the bot handled updates 1..40 more than a day ago (Telegram numbers
    # from a random id after a week without updates; the sandbox once restarted from 1).
    async with harness.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO processed_updates (bot_id, update_id, processed_at) "
                "SELECT :bot, n, now() - interval '30 hours' FROM generate_series(1, 40) n"
            ),
            {"bot": emu.bot_id},
        )
    await harness.start()
    for n in range(5):
        emu.send_text(ALICE, ALICE, f"/r 1d{n + 4}")
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(ALICE)) == 5, timeout=15
    )
    assert await _scalar(harness, "SELECT count(*) FROM rolls") == 5
    # a claim of today still absorbs a redelivery
    emu.redeliver(1)
    emu.send_text(ALICE, ALICE, "/r 1d20")
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(ALICE)) == 6, timeout=15
    )
    await emu.wait_idle()
    assert await _scalar(harness, "SELECT count(*) FROM rolls") == 6


async def test_a_new_emulator_on_the_same_database_numbers_on(harness: Harness) -> None:
    """What the sandbox does at start (``sandbox.start``): a restarted sandbox numbers
    its updates after the last one its database saw."""
    emu = harness.emu
    _people(emu)
    await harness.start()
    for _ in range(3):
        emu.send_text(ALICE, ALICE, "/help")
    await emu.wait_for(lambda: len(emu.bot_messages(ALICE)) == 3, timeout=15)
    await harness.stop()
    seen = await last_update_id(harness.engine, emu.bot_id)
    assert seen == 3
    fresh = BotAPIEmulator()
    fresh.continue_numbering(seen)
    assert fresh.inject_update({"message": {}}) == 4


async def test_one_user_flooding_a_group_does_not_stall_other_chats(
    harness: Harness,
) -> None:
    """Telegram's real pace for groups (20 new messages a minute): the flooder's replies queue
    for minutes, and every other chat is still answered."""
    emu = harness.emu
    _people(emu)
    emu.add_group(GROUP, "Table", members=[ALICE, BOB, CARL])
    harness.limits = Limits()  # Telegram's limits
    await harness.start()
    flood = [emu.send_text(ALICE, GROUP, f"/r 1d{6 + n % 5}").message_id for n in range(60)]
    emu.send_text(BOB, BOB, "/help")
    emu.send_text(CARL, CARL, "/r 2d6")
    await emu.wait_for(lambda: emu.bot_messages(BOB) and emu.bot_messages(CARL), timeout=20)
    answered = [m for m in emu.bot_messages(GROUP) if "Log #" in m.text]
    assert len(answered) < 60  # the flood was still being paced out
    # The rest is answered later, in order, none lost and none twice: Telegram's pace
    # lifted (what the limiter reads before each send), the queue drains.
    assert harness.runtime is not None
    middleware = next(
        m for m in harness.runtime.bot.session.middleware._middlewares
        if isinstance(m, ResilienceMiddleware)
    )  # fmt: skip
    middleware.limiter.limits = Limits(chat_burst=30, chat_per_second=30.0, group_per_minute=600)
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) >= 60, timeout=60
    )
    await emu.wait_idle()
    replies = [m.reply_to for m in emu.bot_messages(GROUP) if "Log #" in m.text]
    assert replies == flood
    assert await _scalar(harness, "SELECT count(*) FROM rolls") == 61  # the flood and Carl's


async def test_a_failing_update_is_parked_once_and_an_operator_replays_it(
    harness: Harness, database_url: str
) -> None:
    """A handler that fails every time: tried three times, parked with its payload and the
    error, the sender apologised to once, polling goes on; once fixed, the operator's replay
    (``python -m bot.dead_letters``) hands it back to the running bot, which handles it."""
    import asyncio
    import io
    import os
    import sys

    from aiogram import F, Router
    from aiogram.types import Message

    from bot.dead_letters import list_letters, replay

    emu = harness.emu
    _people(emu)
    runtime = harness.build()
    broken = {"on": True, "calls": 0}
    boom = Router(name="boom")

    @boom.message(F.text == "/boom")
    async def explode(message: Message) -> None:
        broken["calls"] += 1
        if broken["on"]:
            raise RuntimeError("kaboom")
        await message.answer("fixed")

    runtime.dispatcher.sub_routers.insert(0, boom)
    boom._parent_router = runtime.dispatcher
    await harness.start(runtime)
    boom_id = emu.send_text(ALICE, ALICE, "/boom").update_id
    emu.send_text(BOB, BOB, "/help")
    await emu.wait_for(lambda: emu.bot_messages(BOB) and emu.bot_messages(ALICE), timeout=15)
    await emu.wait_idle()
    assert broken["calls"] == 3
    assert [m.text for m in emu.bot_messages(ALICE) if "Sorry" in m.text] != []
    assert len(emu.bot_messages(ALICE)) == 1
    out = io.StringIO()
    assert await list_letters(harness.engine, emu.bot_id, out, every=False) == 1
    assert str(boom_id) in out.getvalue() and "kaboom" in out.getvalue()
    # the operator's command line, as documented
    env = {**os.environ, "DATABASE_URL": database_url, "BOT_TOKEN": emu.token}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.dead_letters", "list", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    listed, errors = await proc.communicate()
    assert proc.returncode == 0, errors.decode()
    assert str(boom_id) in listed.decode()
    # fixed, then replayed: handled once by the running bot; a second replay is refused
    broken["on"] = False
    assert await replay(harness.engine, emu.bot_id, boom_id, out)
    await emu.wait_for(lambda: any(m.text == "fixed" for m in emu.bot_messages(ALICE)), timeout=10)
    assert not await replay(harness.engine, emu.bot_id, boom_id, out)
    assert broken["calls"] == 4


async def test_operators_read_the_metrics(running: Harness) -> None:
    """``METRICS_LISTEN`` in polling mode: updates by kind and outcome, the inbox, parked
    updates, Telegram's errors — as Prometheus text."""
    import aiohttp

    from bot.metrics import serve_metrics
    from bot.polling import METRICS

    emu = running.emu
    _people(emu)
    emu.add_fault("sendMessage", status=502, times=1)
    emu.send_text(ALICE, ALICE, "/help")
    await emu.wait_for(lambda: emu.bot_messages(ALICE), timeout=15)
    assert running.runtime is not None
    assert await running.runtime.dispatcher["in_flight"].wait_idle(5)
    runner = await serve_metrics(running.runtime.dispatcher[METRICS], "127.0.0.1:0")
    try:
        host, port = runner.addresses[0][:2]
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://{host}:{port}/metrics") as r,
        ):
            assert r.status == 200
            body = await r.text()
    finally:
        await runner.cleanup()
    assert 'bot_updates_total{kind="message",outcome="ok"} 1.0' in body
    assert 'bot_telegram_errors_total{code="5xx"} 1.0' in body
    for name in ("bot_update_seconds_bucket", "bot_inbox_depth", "bot_dead_letters",
                 "bot_db_errors_total", "bot_scheduler_jobs_total"):  # fmt: skip
        assert name in body


async def test_a_press_answered_too_late_still_takes_effect(running: Harness) -> None:
    """After downtime Telegram refuses answers to old presses ("query is too old"): the
    spinner is gone anyway, so the press must still do what it asks — not fail, retry and be
    parked with an apology."""
    emu = running.emu
    _people(emu)
    emu.send_text(ALICE, ALICE, "/start")
    start = await emu.wait_for(lambda: emu.bot_messages(ALICE) and emu.bot_messages(ALICE)[-1])
    greeting = start.text
    emu.callback_query_ttl = 0.0  # every answer comes too late
    emu.press(ALICE, ALICE, start.message_id, "scr:help")
    await emu.wait_for(lambda: start.text != greeting, timeout=10)  # edited in place
    await emu.wait_idle()
    assert await _scalar(running, "SELECT count(*) FROM update_dead_letters") == 0
    assert not any("Sorry" in m.text for m in emu.bot_messages(ALICE))
