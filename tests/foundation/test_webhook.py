"""Webhook mode: the secret is required (to start, and in every request's header), a body that
is not an update answers 400, an update that keeps failing is parked and answered 200 (the
runner's retries are in tests/foundation/test_db_faults.py), and a redelivered update has one
effect."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.types import Message
from aiohttp import web
from sqlalchemy import text

from bot.config import Settings
from bot.services import rolls as roll_service
from bot.webhook import create_webhook_app
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.dice.verify import verify_export
from tabletop.app import build_runtime
from tests.conftest import Harness

SECRET = "s3cret-token_1"


@pytest.fixture
async def hook(harness: Harness, database_url: str) -> AsyncIterator[tuple[str, Harness]]:
    settings = Settings.model_validate({"DATABASE_URL": database_url, "BOT_TOKEN": "x"})
    runtime = build_runtime(
        token=harness.emu.token, api_url=harness.emu.base_url, engine=harness.engine,
        settings=settings, limits=harness.limits,
    )  # fmt: skip
    boom = Router(name="boom")

    broken = {"on": True}

    @boom.message(F.text == "/boom")
    async def explode(message: Message) -> None:
        if broken["on"]:
            raise RuntimeError("kaboom")
        await message.answer("fixed")

    runtime.dispatcher.sub_routers.insert(0, boom)
    boom._parent_router = runtime.dispatcher
    runtime.dispatcher["webhook"] = ("https://bot.example/tg/hook", SECRET)
    app = create_webhook_app(runtime.dispatcher, runtime.bot, path="/tg/hook", secret=SECRET)
    runner, url = await _serve(app, "/tg/hook")
    harness.runtime = runtime  # for the tests' look at it (not started as polling)
    harness.broken = broken  # type: ignore[attr-defined]
    yield url, harness
    harness.runtime = None
    await runner.cleanup()


async def _serve(app: web.Application, path: str) -> tuple[web.AppRunner, str]:
    """The app on a free local port: its runner (to clean up) and the hook's URL."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}{path}"


def _update(update_id: int, text_: str) -> dict[str, Any]:
    user = {"id": 1001, "is_bot": False, "first_name": "Alice", "language_code": "en"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id, "date": 0, "text": text_, "from": user,
            "chat": {"id": 1001, "type": "private", "first_name": "Alice"},
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text_.split()[0])}],
        },
    }  # fmt: skip


async def _post(url: str, body: dict[str, Any], secret: str | None) -> int:
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, headers=headers) as r,
    ):
        return r.status


async def _claims(h: Harness) -> int:
    async with h.engine.connect() as conn:
        return int(
            (await conn.execute(text("SELECT count(*) FROM processed_updates"))).scalar_one()
        )


async def test_webhook_secret_failures_and_redelivery(hook: tuple[str, Harness]) -> None:
    url, h = hook
    emu = h.emu
    emu.add_user(1001, "Alice", language_code="en")
    emu.send_text(1001, 1001, "hi")  # Alice has started the bot
    assert emu.webhook["url"] == "https://bot.example/tg/hook"
    assert emu.webhook["secret_token"] == SECRET

    assert await _post(url, _update(10, "/start"), None) == 401
    assert await _post(url, _update(10, "/start"), "wrong") == 401
    assert await _claims(h) == 0 and emu.bot_messages(1001) == []

    assert await _post(url, _update(10, "/start"), SECRET) == 200
    assert await _post(url, _update(10, "/start"), SECRET) == 200  # Telegram retried it
    assert len(emu.bot_messages(1001)) == 1 and await _claims(h) == 1
    assert "Hello, Alice!" in emu.bot_messages(1001)[0].text

    # An update that keeps failing is tried three times, then parked and closed: 200, the
    # sender gets the apology once, and a redelivery is skipped.
    assert await _post(url, _update(11, "/boom"), SECRET) == 200
    assert await _claims(h) == 2
    assert await _post(url, _update(11, "/boom"), SECRET) == 200
    apologies = [m for m in emu.bot_messages(1001) if "Sorry" in m.text]
    assert len(apologies) == 1
    async with h.engine.connect() as conn:
        parked = (
            await conn.execute(text("SELECT update_id, error, payload FROM update_dead_letters"))
        ).all()
    assert [(row[0], "kaboom" in row[1], '"/boom"' in row[2]) for row in parked] == [
        (11, True, True)
    ]


async def test_a_parked_update_replayed_is_handled_by_a_webhook_worker(
    hook: tuple[str, Harness],
) -> None:
    """Webhook mode drains the inbox too: what an operator replays is handled there."""
    import asyncio
    import io

    from bot.dead_letters import replay
    from bot.polling import InboxDispatcher

    url, h = hook
    emu = h.emu
    emu.add_user(1001, "Alice", language_code="en")
    emu.send_text(1001, 1001, "hi")  # Alice has started the bot
    assert await _post(url, _update(21, "/boom"), SECRET) == 200  # parked
    assert h.runtime is not None and isinstance(h.runtime.dispatcher, InboxDispatcher)
    inbox = asyncio.create_task(h.runtime.dispatcher.serve_inbox(h.runtime.bot, concurrency=4))
    try:
        h.broken["on"] = False  # type: ignore[attr-defined]
        assert await replay(h.engine, emu.bot_id, 21, io.StringIO())
        await emu.wait_for(
            lambda: any(m.text == "fixed" for m in emu.bot_messages(1001)), timeout=10
        )
    finally:
        inbox.cancel()
    assert sum(m.text == "fixed" for m in emu.bot_messages(1001)) == 1


async def test_webhook_refuses_bodies_that_are_not_updates(hook: tuple[str, Harness]) -> None:
    url, h = hook
    async with aiohttp.ClientSession() as session:
        for body in ("{not json", "[1, 2]", '{"update_id": "x"}', '{"no": "id"}'):
            async with session.post(
                url, data=body, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}
            ) as r:
                assert r.status == 400, body
                assert "Traceback" not in await r.text()
    assert await _claims(h) == 0


def test_webhook_mode_refuses_to_start_without_a_secret(database_url: str) -> None:
    with pytest.raises(ValueError, match="WEBHOOK_SECRET is required"):
        Settings.model_validate(
            {
                "DATABASE_URL": database_url,
                "BOT_TOKEN": "1:x",
                "WEBHOOK_URL": "https://b.example/h",
            }
        )
    with pytest.raises(ValueError, match="needs a secret"):
        create_webhook_app(Dispatcher(), Bot("1:x"), path="/h", secret="")


@pytest.fixture
async def two_workers(harness: Harness, database_url: str) -> AsyncIterator[list[str]]:
    """Two webhook workers on one database, each with what its own process remembers."""
    settings = Settings.model_validate({"DATABASE_URL": database_url, "BOT_TOKEN": "x"})
    runners, urls = [], []
    for _ in range(2):
        runtime = build_runtime(
            token=harness.emu.token, api_url=harness.emu.base_url, engine=harness.engine,
            settings=settings, limits=harness.limits,
        )  # fmt: skip
        app = create_webhook_app(runtime.dispatcher, runtime.bot, path="/hook", secret=SECRET)
        runner, url = await _serve(app, "/hook")
        runners.append(runner)
        urls.append(url)
    yield urls
    for runner in runners:
        await runner.cleanup()


async def test_two_workers_roll_one_chain_whatever_each_remembers(
    two_workers: list[str], harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's rolls go to either worker: each remembers her rows and the head its own last
    append made, which the other's appends keep moving — every roll still lands once, in one
    verified chain, under the name she has when it is rolled."""
    emu = harness.emu
    emu.add_user(1001, "Alice", language_code="en")
    emu.send_text(1001, 1001, "hi")  # Alice has started the bot
    order = [0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0]
    for n, worker in enumerate(order, start=100):
        if n == 106:  # renamed meanwhile (her /profile, handled by a third process)
            async with harness.engine.begin() as conn:
                await conn.execute(text("UPDATE users SET display_name = 'Lady Alice'"))
        with caplog.at_level(logging.INFO, logger="bot.middlewares"):
            assert await _post(two_workers[worker], _update(n, "/r 1d20"), SECRET) == 200
    # the rename was met once by each worker, at its first roll after it: both remembered
    # her old rows, and each then read them again
    assert sum("changed since remembered" in r.getMessage() for r in caplog.records) == 2
    replies = [m.text for m in emu.bot_messages(1001) if "Log #" in m.text]
    assert [int(r.split("Log #")[1].split()[0]) for r in replies] == list(range(1, 13))
    assert all("Lady Alice" in r for r in replies[6:]) and "Lady" not in replies[5]
    async with UnitOfWork(create_session_factory(harness.engine)) as uow:
        exported = await roll_service.export(uow, 1001)
    assert exported is not None and verify_export(exported).ok
    assert [e.actor for e in exported.entries] == ["Alice"] * 6 + ["Lady Alice"] * 6
    assert await _claims(harness) == 12
