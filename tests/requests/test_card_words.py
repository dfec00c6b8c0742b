"""A request card names what is rolled once (issue 36, item 17): a trait whose title already
carries its dice (lifegear's «Стрельба (1d8+1d6+3)») does not repeat them."""

from __future__ import annotations

from bot.i18n import I18n
from bot.services.requests import PressResult, read_result
from bot.services.rolls import LoggedRoll
from db.repositories.requests import RequestDTO
from engine.dice.evaluator import roll
from engine.dice.log import LogEntry
from engine.dice.source import ScriptedSource
from handlers.views.requests import _what, rolled_card


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


def test_a_critical_failure_is_said_once_on_the_card() -> None:
    """A matter chance roll that failed critically: the dice's «Критический провал!» is not
    said again above the system's «Критический провал» on the rolled card."""
    request = _request("chance", "Интеллект (0) → Шанс-бросок")
    result = roll("chance", ScriptedSource([1]))
    assert result.critical_failure
    entry = LogEntry(
        seq=7, roll_id="req:1", epoch=1, actor="Alice", subject="Пепел", expression="chance",
        faces=result.faces, result=result.total, outcome=None, created_at="", prev_hash="",
        hash="ab" * 32,
    )  # fmt: skip
    pressed = PressResult(
        request=request,
        logged=LoggedRoll(entry=entry, result=result, label=None, duplicate=False,
                          opened_epoch=None),
        first=True,
        system="matter",
        reading=read_result("matter", request, result),
    )  # fmt: skip
    card = rolled_card(I18n("ru").translator("ru"), "ru", pressed, "Alice")
    lines = [line for line in card.splitlines() if "ритический провал" in line]
    assert lines == ["Критический провал"], card
