"""The bot as it runs, for the resource panel's tests."""

from __future__ import annotations

import pytest

from tests.conftest import Harness


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.start()
    return harness
