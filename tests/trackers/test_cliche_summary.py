"""The end of a cliché fight names who lost dice: it listed every fighter, «Рейвер: −0»; a
round's loss read «💔 Бандит теряет 1: Стрелок» (one of what?)."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems import cliche
from engine.systems.cliche import fight
from handlers.views.trackers.cliche import _summary, log_line


def _fighter(key: str, side: str) -> fight.Fighter:
    sheet = cliche.Character(name=key, cliches=(cliche.Cliche(name="Солдат", dice=4),))
    return fight.fighter_from_character(sheet, key=key, side=side, appropriate=("Солдат",))


def _ended(*losses: fight.LossRecord) -> fight.FightState:
    state = fight.start_fight([_fighter("Мэл", "1"), _fighter("Рейвер", "2")])
    return state.model_copy(update={"finished": True, "losses": losses})


def test_a_fight_ended_with_no_dice_lost_says_so_once() -> None:
    t = I18n("ru").translator("ru")
    lines = _summary(t, {}, _ended())
    assert lines == ["В поединке никто не потерял костей."]


def test_only_who_lost_dice_is_listed() -> None:
    t = I18n("ru").translator("ru")
    hit = fight.LossRecord(
        round=1, fighter="Рейвер", cliche="Солдат", dice=2, reason=fight.LossReason.ROUND
    )
    lines = _summary(t, {}, _ended(hit))
    assert "−0" not in "\n".join(lines)
    assert lines[1:] == ["Рейвер: −2"]


def test_a_loss_line_reads_the_cliche_and_its_dice() -> None:
    """It read «💔 Бандит теряет 1: Стрелок» — one of what? — or «теряет 2: Стрелок»."""
    t = I18n("ru").translator("ru")
    entry = {"k": "loss", "who": "Бандит", "c": "Стрелок", "dice": 2, "why": "pump"}
    assert log_line(t, entry) == "💔 Бандит: Стрелок, кости −2 (накачка)"


def test_a_defenders_win_puts_the_winners_score_first() -> None:
    t = I18n("ru").translator("ru")
    entry = {"k": "won", "who": "Рейвер", "a": 10, "d": 14, "dice": 1, "kind": "plain"}
    assert log_line(t, entry) == "✅ Рейвер побеждает 14:10"
