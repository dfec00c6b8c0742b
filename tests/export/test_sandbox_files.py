"""The sandbox keeps the bot's files (issue 33): an /export is saved under the data folder and
its path printed, so ``python -m engine.verify`` and ``/import PATH`` work without Telegram."""

from __future__ import annotations

import io
import re
from pathlib import Path

from sqlalchemy import text as sql

from sandbox import run_sandbox
from tests.conftest import Harness
from tests.export.helpers import legal_sheet, new_game, seat_tables
from tests.games.helpers import ALICE, GROUP
from tests.helpers.table import insert_character, scalar


async def test_an_export_is_saved_and_imported_by_its_path(
    running: Harness, tmp_path: Path
) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Sandbox table")
    await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    assert h.runtime is not None
    in_flight = h.runtime.dispatcher["in_flight"]
    out = io.StringIO()
    await run_sandbox(
        h.emu, stdin=io.StringIO("/export\n"), stdout=out, files_dir=tmp_path,
        bot_idle=lambda: in_flight.wait_idle(10.0),
    )  # fmt: skip
    saved = re.search(r"\[file character-\d+\.json, \d+ bytes, saved as (\S+)\]", out.getvalue())
    assert saved is not None, out.getvalue()
    path = Path(saved.group(1))
    assert path.parent == tmp_path and path.read_bytes().startswith(b"{")

    # Retired meanwhile: a live «Кира» would refuse her own file back into this game.
    async with h.engine.begin() as conn:
        await conn.execute(sql("UPDATE characters SET status = 'retired'"))
    out = io.StringIO()
    script = f"/chat group\n/import {path}\n/import {tmp_path / 'nothing.json'}\n"
    await run_sandbox(
        h.emu, stdin=io.StringIO(script), stdout=out, files_dir=tmp_path,
        bot_idle=lambda: in_flight.wait_idle(10.0),
    )  # fmt: skip
    text = out.getvalue()
    assert f"sent {path.name}" in text and "no file" in text, text
    pending = "SELECT count(*) FROM characters WHERE name = 'Кира' AND status = 'pending'"
    assert await scalar(h, pending) == 1
