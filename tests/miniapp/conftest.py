"""The bot running over the emulator with its Mini App served on loopback, and a client that
signs initData for the table's users the way Telegram does."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.conftest import Harness
from tests.miniapp.browser import ARTIFACTS, MEASURED, Browser
from webapp import auth, wiring


@dataclass
class MiniApp:
    h: Harness
    base: str  # http://127.0.0.1:<port>/app/
    token: str
    http: aiohttp.ClientSession

    def init_data(self, user: int, *, language: str = "en", **kwargs: Any) -> str:
        """initData for ``user`` as Telegram signs it (their name as the emulator knows it)."""
        name = self.h.emu.user(user).first_name
        return auth.sign(self.token, user, first_name=name, language_code=language, **kwargs)

    def url(self, user: int, *, theme: dict[str, str] | None = None, language: str = "en") -> str:
        return wiring.signed_url(
            self.base, self.token, user, language_code=language,
            first_name=self.h.emu.user(user).first_name,
            theme=json.dumps(theme) if theme else "",
        )  # fmt: skip

    async def call(
        self, path: str, *, user: int | None = None, init_data: str | None = None,
        body: Any = None, headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, aiohttp.ClientResponse]:  # fmt: skip
        sent = dict(headers or {})
        data = init_data if init_data is not None else (self.init_data(user) if user else None)
        if data is not None:
            sent["Authorization"] = f"tma {data}"
        method = "POST" if body is not None else "GET"
        async with self.http.request(method, self.base + path, json=body, headers=sent) as res:
            text = await res.text()
            return res.status, (json.loads(text) if text else None), res


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a module's browser tests; the figures they measured are
    written when it closes."""
    opened = Browser()
    yield opened
    opened.quit()
    if MEASURED:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "measurements.json").write_text(json.dumps(MEASURED, indent=2))


@pytest.fixture
async def mini_app(harness: Harness) -> AsyncIterator[MiniApp]:
    runtime = harness.build()
    runner, base = await wiring.serve(runtime.dispatcher, runtime.bot, "127.0.0.1:0")
    wiring.install(runtime.dispatcher, base)
    await harness.start(runtime)
    async with aiohttp.ClientSession() as http:
        yield MiniApp(harness, base, runtime.bot.token, http)
    await runner.cleanup()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.miniapp.browser import MISSING

    if MISSING is not None:
        terminalreporter.write_line(f"Mini App browser tests skipped: {MISSING}", yellow=True)
