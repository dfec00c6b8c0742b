"""Headless Chromium for the Mini App's tests: Debian's ``chromium`` driven by Selenium
through the system's ``chromedriver`` (nothing is downloaded). Selenium blocks, and the bot
under test runs on the test's own event loop, so every browser call runs in a thread."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(os.environ.get("MINIAPP_ARTIFACTS", Path(__file__).parent / "artifacts"))
WIDTH, HEIGHT = 390, 844  # a phone's screen
# The page's figures (weight, first render), by case: the ``browser`` fixture writes them to
# ``ARTIFACTS/measurements.json`` when its module ends.
MEASURED: dict[str, Any] = {}


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if CHROMIUM is None or CHROMEDRIVER is None:
        return "no chromium/chromedriver (apt-get install chromium chromium-driver)"
    return None


MISSING = _missing()
needs_browser = pytest.mark.skipif(MISSING is not None, reason=f"browser tests skipped: {MISSING}")


class Browser:
    """One headless Chromium window the size of a phone."""

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", f"--window-size={WIDTH},{HEIGHT}",
                    "--hide-scrollbars", "--lang=en"):  # fmt: skip
            options.add_argument(arg)
        self.driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True},
        )

    async def resize(self, width: int = WIDTH, height: int = HEIGHT) -> None:
        """A phone of another size (360 px: the narrowest common Android width)."""
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        await self.call(self.driver.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride", metrics)

    async def call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def open(self, url: str, *, dark: bool = False) -> None:
        scheme = "dark" if dark else "light"
        await self.call(
            self.driver.execute_cdp_cmd,
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )
        await self.call(self.driver.get, "about:blank")  # a new document, not a hash change
        await self.call(self.driver.get, url)

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, script, *args)

    async def wait(self, script: str, *args: Any, timeout: float = 20.0) -> Any:
        """Until ``script`` returns something truthy (its value), polling every 50 ms."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = await self.js(script, *args)
            if value:
                return value
            if loop.time() > deadline:
                page = await self.js("return document.body.innerText")
                raise AssertionError(f"timed out waiting for {script!r}; page: {page[:500]}")
            await asyncio.sleep(0.05)

    async def ops(self) -> list[dict[str, Any]]:
        found = await self.js(
            "return [...document.querySelectorAll('button.act')].map(b => b.dataset.op)"
        )
        return [json.loads(op) for op in found]

    async def press(self, op: dict[str, Any]) -> None:
        index = (await self.ops()).index(op)
        await self.js("document.querySelectorAll('button.act')[arguments[0]].click()", index)

    async def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        await self.call(self.driver.save_screenshot, str(path))
        return path

    def quit(self) -> None:
        self.driver.quit()
