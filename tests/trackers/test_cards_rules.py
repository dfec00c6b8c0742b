"""The card's scoring without the bot: logged faces fed to ``apply_roll`` give each system's
outcome — ties, botches counting 0, stalemates, the counter-roll's difference, an extended task
a botch ends, a team task a member's botch does not sink."""

from __future__ import annotations

import copy
from typing import Any

from bot.i18n import I18n
from bot.services.trackers import cards
from engine.dice.evaluator import roll
from engine.dice.source import ScriptedSource
from engine.systems.fate import conflict as fate_conflict
from engine.systems.storyteller import extended as st_extended
from engine.systems.storyteller import opposed as st_opposed
from engine.systems.storyteller import teamwork as st_teamwork

T = I18n("ru").translator("ru")


def _opposed(system: str, *notations: str) -> dict[str, Any]:
    slots = [
        cards.new_slot(name, None, None, notation, None, None)
        for name, notation in zip(("Аня", "Бор", "Вера"), notations, strict=False)
    ]
    state = {"mode": "opposed", "system": system, "title": "x", "slots": slots, "done": False,
             "result": None}  # fmt: skip
    state["summary"] = cards.summary(state, T)
    return state


def _roll(state: dict[str, Any], index: int, faces: list[int]) -> dict[str, Any]:
    notation = state["slots"][index]["notation"]
    result = roll(notation, ScriptedSource(faces), stored=True)
    return cards.apply_roll(state, index, result, seq=index + 1, t=T)


def _both(state: dict[str, Any], first: list[int], second: list[int]) -> dict[str, Any]:
    state = _roll(state, 0, first)
    assert not state["done"] and cards.waiting(state) == ["Бор"]
    assert "ждём: Бор" in state["summary"]
    return _roll(state, 1, second)


def test_fate_tie_scores_nobody_and_a_win_counts_shifts() -> None:
    tie = _both(_opposed("fate", "4dF+3", "4dF+2"), [3, 3, 3, 3], [5, 3, 3, 3])
    assert tie["done"] and tie["result"]["winner"] is None
    assert tie["summary"] == "Аня 3 : 3 Бор, ничья"
    win = _both(_opposed("fate", "4dF+3", "4dF+2"), [5, 5, 5, 3], [1, 3, 3, 3])
    assert win["result"] == {
        "winner": 0, "margin": 5,
        "words": "Побеждает Аня, сдвигов: 5 (крит).",
    }  # fmt: skip
    assert cards.waiting(win) == []


def test_storyteller_botch_counts_zero_against_the_other_side() -> None:
    state = _opposed("storyteller", "5d10>=6f1", "5d10>=6f1")
    won = _both(state, [7, 8, 2, 2, 2], [1, 1, 6, 2, 2])
    assert won["slots"][1]["rolls"][0]["botch"]
    assert won["result"]["winner"] == 0 and won["result"]["margin"] == 2
    assert "Умеренный успех" in won["result"]["words"]
    tie = _both(state, [2, 2, 2, 2, 2], [1, 1, 6, 2, 2])
    assert tie["result"]["winner"] is None and "никто" in tie["result"]["words"]


def test_three_sided_fate_contest_needs_a_single_best() -> None:
    state = _opposed("fate", "4dF", "4dF", "4dF")
    state = _roll(state, 0, [5, 5, 3, 3])
    state = _roll(state, 1, [5, 5, 3, 3])
    state = _roll(state, 2, [1, 1, 3, 3])
    assert (
        state["result"]["winner"] is None and state["summary"] == "Аня 2 · Бор 2 · Вера −2, ничья"
    )


def test_matter_stalemate_cliche_reroll_lifegear_difference() -> None:
    matter = _both(_opposed("matter", "3d10>=7!", "3d10>=7!"), [7, 8, 2], [9, 3, 3])
    assert matter["result"]["winner"] == 0 and matter["result"]["margin"] == 1
    stalemate = _both(_opposed("matter", "3d10>=7!", "3d10>=7!"), [7, 2, 2], [9, 3, 3])
    assert "патовая" in stalemate["result"]["words"]
    cliche = _both(_opposed("cliche", "2d6", "2d6"), [3, 4], [5, 2])
    assert cliche["result"]["winner"] is None and "снова" in cliche["result"]["words"]
    lifegear = _both(_opposed("lifegear", "1d8+1d6+3", "1d8+2"), [5, 4], [3])
    assert lifegear["result"]["winner"] == 0 and lifegear["result"]["margin"] == 7
    assert "урон" in lifegear["result"]["words"]


def _extended(strict: bool) -> dict[str, Any]:
    action = st_extended.start_extended(5, difficulty=6, botch_ends=strict)
    slot = cards.new_slot("Аня", None, None, "5d10>=6f1", None, None)
    state = {"mode": "extended", "system": "storyteller", "title": "x", "slots": [slot],
             "target": 5, "max_rolls": None, "strict": strict, "done": False, "result": None,
             "action": action.model_dump(mode="json"), "dice": 5, "accumulated": 0}  # fmt: skip
    state["summary"] = cards.summary(state, T)
    return state


def test_extended_botch_wipes_the_tally_and_with_strict_ends_the_task() -> None:
    lenient = _roll(_extended(False), 0, [7, 7, 2, 2, 2])
    assert lenient["accumulated"] == 2 and lenient["summary"] == "2/5, бросков: 1"
    lenient = _roll(lenient, 0, [1, 1, 6, 2, 2])
    assert lenient["accumulated"] == 0 and not lenient["done"]
    assert "потеряны (2)" in lenient["slots"][0]["rolls"][-1]["note"]
    assert cards.can_roll(lenient, 0)
    strict = _roll(_roll(_extended(True), 0, [7, 7, 2, 2, 2]), 0, [1, 1, 6, 2, 2])
    assert strict["done"] and strict["result"]["status"] == "botched"
    assert "провал, задача сорвана" in strict["summary"] and not cards.can_roll(strict, 0)


def test_storyteller_team_sums_and_one_botch_does_not_sink_a_simple_task() -> None:
    action = st_teamwork.start_teamwork(["Аня", "Бор"], difficulty=6)
    slots = [cards.new_slot(n, None, None, "3d10>=6f1", None, 6) for n in ("Аня", "Бор")]
    for slot in slots:
        slot["dice"] = 3
    state = {"mode": "team", "system": "storyteller", "title": "x", "slots": slots,
             "done": False, "result": None, "action": action.model_dump(mode="json")}  # fmt: skip
    state = _roll(state, 0, [7, 8, 2])
    assert state["summary"] == "у команды 2, ждём: Бор" and not cards.can_roll(state, 0)
    state = _roll(state, 1, [1, 1, 3])
    assert state["done"] and state["result"] == {"status": "succeeded", "total": 2}
    assert state["summary"] == "у команды 2, успех"


def test_reading_the_command() -> None:
    assert cards.split_participants("Аня: Атлетика | Бор : Бой vs 2") == [
        ("Аня", "Атлетика"),
        ("Бор", "Бой vs 2"),
    ]
    body, tail = cards.split_tail("Аня: Ловкость+Атлетизм 7 до 10 за 5 !")
    assert body == "Аня: Ловкость+Атлетизм 7" and tail == cards.Tail(10, 5, True)
    assert cards.split_tail("Ann: Dexterity+Athletics 7 to 8")[1] == cards.Tail(8, None, False)


def _race(system: str, target: int, *notations: str, **extra: Any) -> dict[str, Any]:
    state = _opposed(system, *notations)
    state.update(race=True, target=target, max_rolls=None, points=[0] * len(notations), **extra)
    state["summary"] = cards.summary(state, T)
    return state


def test_storyteller_opposed_extended_races_on_excess_successes() -> None:
    action = st_opposed.start_opposed_extended(("Аня", "Бор"), 3, difficulties=(6, 6))
    state = _race("storyteller", 3, "4d10>=6f1", "4d10>=6f1",
                  action=action.model_dump(mode="json"))  # fmt: skip
    for slot in state["slots"]:
        slot["dice"] = 4
    state = _both(state, [7, 7, 2, 2], [7, 2, 2, 2])  # 2 v 1 → Аня +1
    assert state["points"] == [1, 0] and "+1 Аня" in state["slots"][1]["rolls"][-1]["note"]
    assert cards.can_roll(state, 0) and cards.can_roll(state, 1)
    state = _roll(state, 1, [7, 7, 7, 7])
    assert not cards.can_roll(state, 1) and cards.waiting(state) == ["Аня"]
    state = _roll(state, 0, [2, 2, 2, 2])  # 0 v 4 → Бор +4 ≥ 3
    assert state["done"] and state["points"] == [1, 4] and state["result"]["winner"] == 1
    assert state["summary"] == "Аня 1 : 4 Бор (до 3), победа: Бор"


def test_fate_contest_scores_one_point_per_exchange() -> None:
    contest = fate_conflict.start_contest(["0", "1"], 2)
    state = _race("fate", 2, "4dF+1", "4dF+1", contest=contest.model_dump(mode="json"))
    state = _both(state, [5, 3, 3, 3], [3, 3, 3, 3])  # 2 v 1
    assert state["points"] == [1, 0] and not state["done"]
    state = _both(state, [3, 3, 3, 3], [3, 3, 3, 3])  # a tie scores nobody
    assert state["points"] == [1, 0] and "никто" in state["slots"][1]["rolls"][-1]["note"]
    state = _both(state, [5, 3, 3, 3], [1, 3, 3, 3])
    assert state["done"] and state["result"]["winner"] == 0
    assert state["summary"] == "Аня 2 : 0 Бор (до 2), победа: Аня"


def test_apply_roll_leaves_the_state_before_untouched() -> None:
    slots = [
        cards.new_slot(n, None, None, f"{d}d6", None, 10) for n, d in (("Аня", 4), ("Бор", 3))
    ]
    slots[0]["lead"] = True
    state = {"mode": "team", "system": "cliche", "title": "x", "slots": slots, "done": False,
             "result": None, "target": 10}  # fmt: skip
    state = _roll(state, 1, [6, 6, 2])
    before = copy.deepcopy(state)
    after = _roll(state, 0, [3, 3, 3, 3])
    assert state == before
    assert (
        after["result"] == {"total": 24}
        and after["slots"][1]["rolls"][0]["note"] == "шестёрки: +12"
    )
    assert after["summary"] == "у команды 24, успех против 10 (Вызов для профессионала)"


def test_plain_dice_speak_the_systems_words_where_the_notation_is_its_own() -> None:
    state = _both(_opposed("storyteller", "4d10>=7f1", "4d10>=6f1"), [7, 7, 2, 2], [1, 1, 3, 3])
    words = [s["rolls"][0]["words"] for s in state["slots"]]
    assert words[0].startswith("Сложность 7") and "Провал" in words[1]
    state = _both(_opposed("fate", "4dF+1", "3d6"), [5, 3, 3, 3], [3, 3, 3])
    assert [s["rolls"][0]["words"] for s in state["slots"]] == ["Неплохо (+2)", ""]
