"""/history names what a card or a fight did to a sheet: an invoke, a pump, a scene's
damage and Willpower spent on a request card all read «изменён лист»."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.i18n import I18n
from bot.services.characters import Change
from db.repositories.games import CharacterDTO
from handlers.views.characters import history

WORDS = {
    ("fate", "fate.invoke"): "обращение к аспекту",
    ("fate", "fate.conflict.absorb"): "урон поглощён в конфликте",
    ("fate", "fate.conflict.concede"): "сдача в конфликте",
    ("fate", "fate.conflict.end"): "конфликт окончен",
    ("cliche", "cliche.pump"): "накачка клише",
    ("storyteller", "storyteller.wp.spend"): "потрачена Воля",
    ("storyteller", "storyteller.health.damage"): "получен урон",
    ("storyteller", "storyteller.health.heal"): "вылечен урон",
}


@pytest.mark.parametrize(("system", "kind"), list(WORDS))
def test_a_ledger_kind_is_named(system: str, kind: str) -> None:
    row = CharacterDTO(
        id=7, game_id=1, owner_user_id=1001, is_npc=False, system=system, name="Лилия",
        status="active", sheet={}, version=2, review_comment=None,
    )  # fmt: skip
    change = Change(
        at=datetime(2026, 12, 4, 15, 0, tzinfo=UTC), version=2, kind=kind, diff=[],
        actor="GM", from_ledger=True,
    )  # fmt: skip
    text = history(I18n("ru").translator("ru"), row, [change], "Europe/Moscow")
    assert f" · {WORDS[(system, kind)]} · GM" in text, text
    assert "изменён лист" not in text
