"""A panel offers only the presses its character can take now: a button that can only be
refused is a dead end on a phone (the first Russian session's rough edges)."""

from __future__ import annotations

from bot.i18n import I18n
from db.repositories.games import CharacterDTO
from engine.common import SheetModel
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.matter import StateId
from engine.systems.matter.sheet import ActiveState
from engine.systems.storyteller.sheet import PoolTrait
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


def _lily(willpower: tuple[int, int], glamour: tuple[int, int]) -> storyteller.Character:
    return storyteller.new_character("Лилия").model_copy(
        update={
            "willpower": PoolTrait(rating=willpower[0], pool=willpower[1]),
            "glamour": PoolTrait(rating=glamour[0], pool=glamour[1]),
        }
    )


def test_a_full_willpower_offers_no_ask_and_an_empty_one_no_minus() -> None:
    labels = _labels("storyteller", _lily(willpower=(5, 5), glamour=(4, 0)))
    assert "➖ Воля" in labels and "🙋 Попросить: Воля" not in labels
    assert "➖ Гламур" not in labels and "🙋 Попросить: Гламур" in labels


def test_glamour_above_its_rating_may_still_be_asked_for() -> None:
    """The engine lets temporary Glamour pass the rating (up to 10), so the ask stays."""
    labels = _labels("storyteller", _lily(willpower=(5, 4), glamour=(4, 4)))
    assert "🙋 Попросить: Воля" in labels and "🙋 Попросить: Гламур" in labels


def test_a_taken_consequence_shows_its_nature() -> None:
    """It read «🩹 лёгкое (2): «Ожог руки»»: the 🧠 chosen on taking it was gone."""
    burn = fate.Consequence(slot=fate.SlotId.MILD, text="Ожог руки", nature=fate.Nature.MENTAL)
    vera = fate.new_character("Вера").model_copy(update={"consequences": (burn,)})
    text = views.panel_text(I18n("ru").translator("ru"), "ru", _row("fate", "Вера"), vera)
    assert "🩹 лёгкое (2): «Ожог руки» 🧠" in text, text


def test_no_fate_points_offers_no_spend() -> None:
    broke = fate.new_character("Вера").model_copy(update={"fate_points": 0})
    labels = _labels("fate", broke)
    assert "➖ Потратить ОС" not in labels and "🙋 Попросить ОС" in labels
    assert "➖ Потратить ОС" in _labels("fate", broke.model_copy(update={"fate_points": 1}))


def test_a_weapon_is_never_offered_as_spent() -> None:
    """«⏳ Лук → потрачено»: a weapon is used until it breaks (seed 001), armor once a fight."""
    gear = (
        lifegear.Item(id="bow", name="Лук", kind=lifegear.ItemKind.WEAPON),
        lifegear.Item(id="mail", name="Кольчуга", kind=lifegear.ItemKind.ARMOR),
        lifegear.Item(id="eye", name="Зоркость", kind=lifegear.ItemKind.ABILITY),
    )
    vera = lifegear.Character(name="Вереск", max_lives=5, gear=gear)
    assert _labels("lifegear", vera) == [
        "💥 Лук → сломано",
        "⏳ Кольчуга → потрачено",
        "💥 → сломано",
        "⏳ Зоркость → потрачено",
        "↩️ Отменить последнее",
    ]
    # a spent ability comes back by a verb, as a broken thing is repaired («…: Готово» read
    # as «done»)
    spent = gear[2].model_copy(update={"state": lifegear.ItemState.SPENT})
    broken = gear[0].model_copy(update={"state": lifegear.ItemState.BROKEN})
    tired = vera.model_copy(update={"gear": (broken, spent)})
    assert _labels("lifegear", tired)[:2] == ["✅ Лук: Починить", "✅ Зоркость: Восстановить"]
    # /history names the step by the state's own word («потрачено», not «израсходован»)
    t = I18n("ru").translator("ru")
    assert t(views.KIND_LABEL["lifegear.item.spent"]) == "предмет потрачен"


def test_a_full_health_offers_no_ask() -> None:
    """Matter's /res offered «🙋 Попросить: Здоровье» at 5/5, only to answer «Уже полностью»."""
    ash = matter.new_character("Пепел")
    labels = _labels("matter", ash)
    assert "➖ Здоровье" in labels and "🙋 Попросить: Здоровье" not in labels
    hurt = ash.model_copy(update={"health": ash.health_max - 1})
    assert "🙋 Попросить: Здоровье" in _labels("matter", hurt)
    # Poison forbids healing (the engine raises): the panel still draws, and the press says why
    poisoned = hurt.model_copy(update={"states": (ActiveState(state=StateId.POISON),)})
    assert "🙋 Попросить: Здоровье" in _labels("matter", poisoned)
