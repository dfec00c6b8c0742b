"""One bot process of the scale-out benchmark (``bench/scale_bench.py``).

What ``python -m tabletop`` runs (webhook mode with ``WEBHOOK_URL``, else long polling), from the
same environment variables, except that outbound pacing is off: Telegram's limits are a
property of the channel, and the benchmark measures the bot (as ``e2e_bench`` does). The
benchmark has migrated the database already.
"""

from __future__ import annotations

import asyncio

from bench.e2e_bench import UNPACED
from bot.config import load_settings, setup_logging
from db.database import create_engine
from tabletop.app import build_runtime, serve_webhook, settle_heap


async def _main() -> None:
    settings = load_settings()
    setup_logging(settings.log_level, to_stderr_only=True)
    assert settings.database_url is not None and settings.bot_token is not None
    engine = create_engine(settings.database_url.get_secret_value())
    runtime = build_runtime(
        token=settings.bot_token.get_secret_value(), api_url=settings.telegram_api_url,
        engine=engine, settings=settings, limits=UNPACED,
    )  # fmt: skip
    settle_heap()
    try:
        if settings.webhook:
            await serve_webhook(runtime, settings)
        else:
            await runtime.run_until_stopped()
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(_main())
