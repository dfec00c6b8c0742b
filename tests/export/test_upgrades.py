"""Files from older sheet schemas are upgraded through ``bot.systems.SHEET_UPGRADES`` when read;
a sheet from a newer schema, or an old one with no upgrade step, is refused by name."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.systems import SHEET_UPGRADES, SYSTEMS
from engine.transfer import content_hash
from tests.conftest import Harness
from tests.export.helpers import (
    FRESH,
    legal_sheet,
    new_game,
    seat_tables,
    send_file,
    wait_document,
)
from tests.export.upgrades import drop_legacy_notes
from tests.games.helpers import ALICE, GROUP
from tests.helpers.table import insert_character, scalar


def _with_sheet_version(data: bytes, version: int, **extra: Any) -> bytes:
    document = json.loads(data)
    document["character"]["schema_version"] = version
    document["character"]["sheet"].update(extra)
    document.pop("sha256")
    document["sha256"] = content_hash(document)
    return json.dumps(document, ensure_ascii=False).encode()


async def test_an_older_sheet_is_upgraded_and_a_newer_refused(
    running: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = running
    # The matter sheet schema is at version 2 here; version 1 sheets carried «legacy_notes».
    monkeypatch.setitem(SYSTEMS, "matter", replace(SYSTEMS["matter"], schema_version=2))
    seat_tables(h)
    await new_game(h, GROUP, "matter", "Old table")
    await insert_character(h, "matter", legal_sheet("matter", "Ирма"), owner=ALICE)
    sent = h.emu.send_text(ALICE, ALICE, "/export")
    exported = await wait_document(h, ALICE, sent.message_id)
    assert exported.document is not None
    data = exported.document.data
    assert json.loads(data)["character"]["schema_version"] == 2
    await new_game(h, FRESH, "matter", "New table", lang="en")  # the refusals' words in English
    old_file = _with_sheet_version(data, 1, legacy_notes="сундук в подвале")

    no_step = await send_file(h, ALICE, FRESH, old_file)
    assert (
        "version 1 cannot be upgraded" in no_step.text and "Nothing was imported" in no_step.text
    )

    newer = await send_file(h, ALICE, FRESH, _with_sheet_version(data, 3))
    assert "newer version" in newer.text, newer.text

    monkeypatch.setitem(SHEET_UPGRADES, ("matter", 1), drop_legacy_notes)
    upgraded = await send_file(h, ALICE, FRESH, old_file)
    assert "Ирма" in upgraded.text, upgraded.text
    stored = await scalar(
        h, "SELECT sheet FROM characters WHERE game_id = (SELECT id FROM games WHERE "
        "chat_id = :c AND archived_at IS NULL)", c=FRESH,
    )  # fmt: skip
    assert "legacy_notes" not in stored and stored["name"] == "Ирма"
