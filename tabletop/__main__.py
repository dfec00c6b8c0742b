"""``python -m tabletop``: the composition root."""

from __future__ import annotations

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.config import load_settings, setup_logging
from bot.leader import AlreadyPolling
from tabletop.app import run


def main() -> None:
    try:
        settings = load_settings()
    except ValidationError as invalid:
        sys.stderr.write(f"not starting: the configuration is invalid\n{invalid}\n")
        sys.exit(2)
    setup_logging(settings.log_level, to_stderr_only=settings.sandbox)
    try:
        asyncio.run(run(settings, stdin=sys.stdin, stdout=sys.stdout))
    except AlreadyPolling as refused:
        logging.getLogger("bot").error("not starting: %s", refused)
        sys.exit(3)


if __name__ == "__main__":
    main()
