"""Stored sheets carry a schema version and are upgraded step by step when read."""

from __future__ import annotations

from typing import Any

import pytest

from bot import systems
from bot.systems import SYSTEMS, upgrade_sheet


def test_every_system_round_trips_its_blank_sheet() -> None:
    for spec in SYSTEMS.values():
        blank = spec.new_character("Имя")
        assert spec.load(blank.model_dump(mode="json")) == blank


def test_an_older_sheet_is_upgraded_through_each_step(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = SYSTEMS["matter"]
    monkeypatch.setattr(systems.SystemSpec, "schema_version", 3, raising=False)
    monkeypatch.setitem(
        SYSTEMS, "matter", systems.SystemSpec(**{**spec.__dict__, "schema_version": 3})
    )
    current = spec.new_character("Новый").model_dump(mode="json")

    def v1_to_v2(sheet: dict[str, Any]) -> dict[str, Any]:
        return {**sheet, "name": sheet["old_name"]} | {"old_name": None}

    def v2_to_v3(sheet: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in sheet.items() if k != "old_name"}

    monkeypatch.setitem(systems.SHEET_UPGRADES, ("matter", 1), v1_to_v2)
    monkeypatch.setitem(systems.SHEET_UPGRADES, ("matter", 2), v2_to_v3)
    stored_v1 = {**{k: v for k, v in current.items() if k != "name"}, "old_name": "Старый"}
    upgraded = upgrade_sheet("matter", stored_v1, 1)
    assert upgraded["name"] == "Старый" and "old_name" not in upgraded
    assert SYSTEMS["matter"].load(stored_v1, 1).name == "Старый"  # type: ignore[attr-defined]


def test_a_sheet_from_a_newer_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="newer"):
        upgrade_sheet("fate", {}, SYSTEMS["fate"].schema_version + 1)
