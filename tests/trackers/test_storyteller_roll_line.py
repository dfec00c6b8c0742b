"""A scene's roll line says the degree once (it read «→ 2, Успех, Умеренный успех») and a
botch's net with a real minus."""

from __future__ import annotations

from typing import Any

from bot.i18n import I18n
from handlers.views.trackers.storyteller import event_line

STATE: dict[str, Any] = {"names": {"7": "Лилия"}}


def _roll(faces: list[int], net: int) -> dict[str, Any]:
    return {
        "e": "roll", "who": 7, "attr": "dexterity", "ab": "melee", "dice": len(faces), "d": 7,
        "wp": False, "faces": faces, "net": net,
    }  # fmt: skip


def test_a_success_names_its_degree_once() -> None:
    line = event_line(I18n("ru").translator("ru"), STATE, _roll([5, 10, 8, 3, 2, 3], 2))
    assert line.endswith("[5,10,8,3,2,3] → 2, Умеренный успех"), line
    assert "Успех," not in line


def test_english_keeps_the_word_success() -> None:
    line = event_line(I18n("en").translator("en"), STATE, _roll([5, 10, 8, 3, 2, 3], 2))
    assert line.endswith("→ 2, Moderate success"), line


def test_a_failure_and_a_botch_are_named() -> None:
    t = I18n("ru").translator("ru")
    assert event_line(t, STATE, _roll([2, 3], 0)).endswith("→ 0, Неудача")
    assert event_line(t, STATE, _roll([1, 3], -1)).endswith("→ −1, Провал")  # a real minus
