"""``python -m bot``: the composition root."""

from __future__ import annotations

import asyncio
import sys

from bot.app import run
from bot.config import load_settings, setup_logging


def main() -> None:
    settings = load_settings()
    setup_logging(settings.log_level, to_stderr_only=settings.sandbox)
    asyncio.run(run(settings, stdin=sys.stdin, stdout=sys.stdout))


if __name__ == "__main__":
    main()
