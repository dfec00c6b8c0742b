"""The lifegear sheet view: escaped, compact, and within one Telegram message."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.lifegear import Item, ItemKind, ItemState, Role, Stat, character_from_role
from engine.systems.lifegear.typed import RefusedLine, read_item, read_stat, split_pair
from handlers.views.sheets import render_sheet
from handlers.wizards.lifegear_roles import refusal


def _role(items: int = 2, description: str = "") -> Role:
    gear = tuple(
        Item(id=f"i{n}", name=f"<b>Knife {n}</b>", kind=ItemKind.WEAPON, description=description)
        for n in range(items)
    )
    return Role(
        name="Scout & Co", max_lives=50, stats=(Stat(name="Aim", dice="1d8+3"),), gear=gear
    )


def test_sheet_escapes_user_text_and_shows_lives_and_states() -> None:
    t = I18n("ru").translator("en")
    character = character_from_role(_role(), "<i>Robin</i>")
    broken = character.gear[1].model_copy(update={"state": ItemState.BROKEN})
    character = character.model_copy(update={"gear": (character.gear[0], broken)})
    html = render_sheet("lifegear", character, t, "en")
    assert "&lt;i&gt;Robin&lt;/i&gt;" in html and "Scout &amp; Co" in html
    assert "&lt;b&gt;Knife 0&lt;/b&gt;" in html and "<i>Robin</i>" not in html
    assert "Lives: 1/50" in html and "[broken]" in html and "1d8+3" in html


def test_big_inventory_drops_descriptions_not_items() -> None:
    t = I18n("ru").translator("ru")
    character = character_from_role(_role(items=50, description="x" * 200), "Robin")
    html = render_sheet("lifegear", character, t, "ru")
    assert len(html) <= 4096 and "Knife 49" in html and "xxx" not in html
    assert "Жизни: 50/50" in html


def test_typed_stats_and_items() -> None:
    t = I18n("ru").translator("en")
    assert split_pair("Shooting 1d8 + 3") == ("Shooting 1d8 +", "3")  # use a colon for spaces
    stat = read_stat("Shooting: 1d8 + 3")
    assert isinstance(stat, Stat) and stat.dice == "1d8+3"
    read = read_stat("Shooting: 3x")
    assert isinstance(read, RefusedLine)
    refused = refusal(read, t, "en")
    assert isinstance(refused, str) and "3x" in refused
    bow = read_item("Bow: 1к6", ItemKind.WEAPON, "i1")
    assert bow is not None and bow.dice == "1d6" and bow.description == ""
    mail = read_item("Mail: takes one hit", ItemKind.ARMOR, "i2")
    assert mail is not None and mail.description == "takes one hit" and mail.dice == ""
    assert read_item("  ", ItemKind.ITEM, "i3") is None
