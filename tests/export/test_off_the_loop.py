"""A large file is read in the worker process: while it is, other chats are answered."""

from __future__ import annotations

import time

from engine.transfer import seal
from tests.conftest import Harness
from tests.export.helpers import FRESH, legal_sheet, new_game, seat_tables
from tests.games.helpers import ALICE, BOB, GROUP
from tests.helpers.table import WAIT


def _large_game_file() -> bytes:
    """About 7 MB: 300 characters and 3,000 ledger entries, each holding two sheets."""
    sheet = legal_sheet("fate", "Кира").model_dump(mode="json")
    characters = [
        {"ref": i, "name": f"N{i}", "owner_user_id": 5000 + i, "status": "active",
         "schema_version": 1, "sheet": sheet}
        for i in range(300)
    ]  # fmt: skip
    entry = {
        "character": 1, "actor_user_id": 1, "kind": "fate_points", "reason": "x", "batch": "b",
        "diff": [], "sheet_before": sheet, "sheet_after": sheet, "version_before": 1,
        "version_after": 2, "created_at": "2026-01-01T00:00:00+00:00", "undone": False,
    }  # fmt: skip
    return seal({
        "kind": "game", "system": "fate", "exported_at": "2026-12-03T00:00:00+00:00",
        "game": {"title": "Big", "options": {}, "timezone": "UTC", "gm_user_id": 4242},
        "members": [], "characters": characters, "npcs": [], "schedules": [],
        "ledger": [entry] * 3000, "roll_log": None,
    })  # fmt: skip


async def test_other_chats_are_answered_while_a_large_file_is_read(running: Harness) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Table")
    data = _large_game_file()
    assert len(data) > 6 * 2**20
    upload = h.emu.send_document(BOB, FRESH, "big.json", data, caption="/import")
    started = time.monotonic()
    await h.emu.wait_for(lambda: h.emu.calls_to("getFile"), timeout=WAIT)
    roll = h.emu.send_text(ALICE, GROUP, "/r 1d6")
    rolled = await h.emu.wait_bot_message(GROUP, after=roll.message_id, timeout=WAIT)
    refused = await h.emu.wait_bot_message(FRESH, after=upload.message_id, timeout=60)
    assert "мастер" in refused.text  # BOB is not the file's GM: read in full, then refused
    assert rolled.sent_at < refused.sent_at, (rolled.sent_at - started, refused.sent_at - started)
    assert h.runtime is not None and h.runtime.dispatcher["cpu"].started == 1
