"""``python -m bot.dead_letters``: the operator's look at updates set aside, and a replay.

    python -m bot.dead_letters list [--all]      parked updates, newest first
    python -m bot.dead_letters show UPDATE_ID    one update's payload and error
    python -m bot.dead_letters replay UPDATE_ID  hand it back to the running bot

A replay puts the update back into the inbox (its text cleaned as at the edge), forgets its
claim and marks the letter replayed, in one transaction; the running bot (polling or
webhook) picks it up within seconds. Uses ``DATABASE_URL`` and ``BOT_TOKEN`` (for the bot's
id) from the environment or ``.env``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TextIO

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import load_settings
from bot.edge import clean_update
from db.database import create_engine
from db.repositories.updates import DEAD_LETTER, DEAD_LETTERS, REPLAY


def bot_id_of(token: str) -> int:
    return int(token.split(":", 1)[0])


async def list_letters(engine: AsyncEngine, bot_id: int, out: TextIO, *, every: bool) -> int:
    async with engine.connect() as conn:
        rows = (
            await conn.execute(DEAD_LETTERS, {"bot": bot_id, "all": every, "limit": 200})
        ).all()
    for update_id, attempts, failed_at, replayed_at, error, size in rows:
        state = f"replayed {replayed_at:%Y-%m-%d %H:%M}" if replayed_at else "parked"
        out.write(
            f"{update_id}\t{failed_at:%Y-%m-%d %H:%M:%S}\t{state}\t{attempts}x\t{size} B\t"
            f"{error.splitlines()[0][:120] if error else ''}\n"
        )
    if not rows:
        out.write("no parked updates\n")
    return len(rows)


async def show(engine: AsyncEngine, bot_id: int, update_id: int, out: TextIO) -> bool:
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                text(
                    "SELECT payload, error FROM update_dead_letters "
                    "WHERE bot_id = :bot AND update_id = :upd"
                ),
                {"bot": bot_id, "upd": update_id},
            )
        ).first()
    if row is None:
        out.write(f"no parked update {update_id}\n")
        return False
    out.write(f"error: {row[1]}\n{row[0]}\n")
    return True


async def replay(engine: AsyncEngine, bot_id: int, update_id: int, out: TextIO) -> bool:
    async with engine.begin() as conn:
        payload = (
            await conn.execute(DEAD_LETTER, {"bot": bot_id, "upd": update_id})
        ).scalar_one_or_none()
        if payload is None:
            out.write(f"no parked update {update_id} (or already replayed)\n")
            return False
        update = json.loads(payload)
        clean_update(update)  # what the inbox's jsonb cannot hold is cleaned, as at the edge
        params = {"bot": bot_id, "upd": update_id, "payload": json.dumps(update)}
        await conn.execute(REPLAY, params)
    out.write(f"update {update_id} is back in the inbox; the running bot will handle it\n")
    return True


async def _main(argv: list[str], out: TextIO) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.dead_letters", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="parked updates, newest first")
    listing.add_argument("--all", action="store_true", help="replayed ones too")
    for name in ("show", "replay"):
        sub.add_parser(name).add_argument("update_id", type=int)
    args = parser.parse_args(argv)
    settings = load_settings()
    if settings.database_url is None or settings.bot_token is None:
        out.write("set DATABASE_URL and BOT_TOKEN (the bot's own) first\n")
        return 2
    engine = create_engine(settings.database_url.get_secret_value())
    bot_id = bot_id_of(settings.bot_token.get_secret_value())
    try:
        if args.command == "list":
            await list_letters(engine, bot_id, out, every=args.all)
            return 0
        if args.command == "show":
            return 0 if await show(engine, bot_id, args.update_id, out) else 1
        return 0 if await replay(engine, bot_id, args.update_id, out) else 1
    finally:
        await engine.dispose()


def main() -> None:
    sys.exit(asyncio.run(_main(sys.argv[1:], sys.stdout)))


if __name__ == "__main__":
    main()
