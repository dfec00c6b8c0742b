"""The sandbox's start: the bot the composition root builds, polling the project's own Bot
API emulator on loopback, and a terminal chat in which the developer plays the users
(``python -m tabletop`` with no ``BOT_TOKEN``)."""

from __future__ import annotations

import logging
from typing import TextIO

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Settings
from bot.middlewares import InFlightMiddleware
from bot.outbound import outbound_of
from db.repositories.updates import last_update_id
from sandbox import run_sandbox
from tabletop.app import build_runtime
from tgemu import BotAPIEmulator
from webapp import wiring as webapp

logger = logging.getLogger(__name__)

MESSAGE_NUMBERS = "sandbox-message-ids.json"  # in DATA_DIR


async def run_sandbox_bot(
    settings: Settings, engine: AsyncEngine, *, stdin: TextIO, stdout: TextIO
) -> None:
    """The bot against the emulator on loopback, driven from the terminal, until ``/quit``."""
    emulator = BotAPIEmulator()
    # Numbering goes on from the last run's: updates numbered from 1 again would meet that
    # run's claims (Telegram's own ids only grow, but after a week without updates).
    emulator.continue_numbering(await last_update_id(engine, emulator.bot_id))
    # So do each chat's message ids, kept beside the data: the bot keys a /r's roll by (chat,
    # message id), and ids from 1 again met the last run's rolls.
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    emulator.keep_message_numbers(settings.data_dir / MESSAGE_NUMBERS)
    base_url = await emulator.start(host="127.0.0.1", port=0)
    logger.info("sandbox: Bot API emulator on %s", base_url)
    runtime = build_runtime(
        token=emulator.token, api_url=base_url, engine=engine, settings=settings
    )
    # The Mini App on loopback; /app in the sandbox prints its signed URL for the current user.
    mini_app, app_url = await webapp.serve(runtime.dispatcher, runtime.bot, "127.0.0.1:0")
    webapp.install(runtime.dispatcher, app_url)
    runtime.start_polling()
    in_flight: InFlightMiddleware = runtime.dispatcher["in_flight"]
    outbound = outbound_of(runtime.bot)

    async def bot_idle() -> None:
        # The updates in hand, then the edits parked behind the group's pace: a script's next
        # /press must see the keyboard the last press left, as a player would a moment later.
        await in_flight.wait_idle(10.0)
        if outbound is not None:
            await outbound.drain(10.0)

    try:
        await run_sandbox(
            emulator, stdin=stdin, stdout=stdout, bot_idle=bot_idle,
            app_url=lambda user, name, lang: webapp.signed_url(
                app_url, emulator.token, user, first_name=name, language_code=lang
            ),
            files_dir=settings.data_dir / "sandbox-files",
        )  # fmt: skip
    finally:
        await runtime.stop()
        await mini_app.cleanup()
        await emulator.stop()
