"""A request card names what is rolled once (issue 36, item 17): a trait whose title already
carries its dice (lifegear's «Стрельба (1d8+1d6+3)») does not repeat them."""

from __future__ import annotations

from bot.i18n import I18n
from db.repositories.requests import RequestDTO
from handlers.views.requests import _what


def _request(expression: str, trait: str) -> RequestDTO:
    return RequestDTO(
        id=1, game_id=1, chat_id=-1, requested_by=1, target_user_id=2, expression=expression,
        target_number=12, note=trait, status="pending", message_id=None, roll_seq=None,
        trait=trait,
    )  # fmt: skip


def test_the_dice_are_named_once() -> None:
    t = I18n("ru").translator("ru")
    doubled = _what(t, _request("1d8+1d6+3", "Стрельба (1d8+1d6+3)"))
    assert doubled.count("1d8+1d6+3") == 1, doubled
    plain = _what(t, _request("4dF+3", "Атлетика"))
    assert "<b>Атлетика</b> (<code>4dF+3</code>) против <b>12</b>" == plain, plain
