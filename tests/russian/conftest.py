"""The bot as it runs, for the tests of what a Russian-speaking table reads."""

from __future__ import annotations

import pytest

from tests.conftest import Harness


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.start()
    return harness
