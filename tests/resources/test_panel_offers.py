"""A panel offers only the presses its character can take now: a button that can only be
refused is a dead end on a phone (the first Russian session's rough edges)."""

from __future__ import annotations

from bot.i18n import I18n
from db.repositories.games import CharacterDTO
from engine.common import SheetModel
from engine.systems import cliche
from handlers.views import resources as views

ALICE = 1001


def _row(system: str, name: str) -> CharacterDTO:
    return CharacterDTO(
        id=7, game_id=1, owner_user_id=ALICE, is_npc=False, system=system, name=name,
        status="active", sheet={}, version=1, review_comment=None,
    )  # fmt: skip


def _labels(system: str, sheet: SheetModel, *, asks: bool = True) -> list[str]:
    t = I18n("ru").translator("ru")
    keyboard = views.panel_keyboard(t, "ru", _row(system, "Мэл"), sheet, asks=asks)
    return [b.text for line in keyboard.inline_keyboard for b in line]


def _mal(*items: cliche.Cliche) -> cliche.Character:
    return cliche.new_character("Мэл").model_copy(update={"cliches": items})


def test_a_full_cliche_offers_no_ask_for_a_die() -> None:
    labels = _labels("cliche", _mal(cliche.Cliche(name="Солдат", dice=4)))
    assert "➖ Солдат" in labels
    assert not any("Солдат" in label and "Попросить" in label for label in labels)


def test_a_cliche_with_lost_dice_offers_them_back() -> None:
    hurt = cliche.Cliche(name="Солдат", dice=4, lost=1)
    assert "🙋 Попросить кость: Солдат" in _labels("cliche", _mal(hurt))
    assert "➕ Солдат" in _labels("cliche", _mal(hurt), asks=False)


def test_a_cliche_with_no_dice_left_offers_no_minus() -> None:
    spent = cliche.Cliche(name="Солдат", dice=2, lost=2)
    labels = _labels("cliche", _mal(spent))
    assert "➖ Солдат" not in labels and "🙋 Попросить кость: Солдат" in labels
