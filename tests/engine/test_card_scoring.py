"""Each system's multi-roll cards (``engine.systems.<system>.cards.SCORING``) over typed rolls:
opposed verdicts and their words, races, extended tasks, team totals and the refusals of systems
without a rule. Every expected result is worked out by hand from the rule cited beside it
(/work/shared/rules/SPEC.md, which follows the seeds)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.errors import RuleViolation
from engine.systems.cards import (
    CardKind,
    CardRefused,
    CardScoring,
    CardStatus,
    RaceState,
    RaceStep,
    SideRoll,
    TeamState,
    WordsFor,
)
from engine.systems.cliche.cards import SCORING as CLICHE
from engine.systems.fate.cards import SCORING as FATE
from engine.systems.lifegear.cards import SCORING as LIFEGEAR
from engine.systems.matter.cards import SCORING as MATTER
from engine.systems.storyteller.cards import SCORING as STORYTELLER

SYSTEMS: dict[str, CardScoring] = {
    "storyteller": STORYTELLER,
    "fate": FATE,
    "cliche": CLICHE,
    "matter": MATTER,
    "lifegear": LIFEGEAR,
}
NAMES = ("Аня", "Бор")


def side(total: int, faces: Sequence[int] = (), *, botch: bool = False) -> SideRoll:
    return SideRoll(tuple(faces), total, botch)


def pool(faces: Sequence[int], difficulty: int = 6) -> SideRoll:
    """A storyteller pool's roll: successes at ``difficulty`` less the 1s; a botch when the 1s
    outnumber the successes (SPEC Storyteller «Rolls»)."""
    hits = sum(f >= difficulty for f in faces)
    ones = sum(f == 1 for f in faces)
    return SideRoll(tuple(faces), hits - ones, ones > hits)


# --- opposed ---------------------------------------------------------------------------------

OPPOSED = [
    # Storyteller «Opposed»: the loser's successes cancel the winner's, the remainder is the
    # degree (2 = moderate); a botch counts 0. 2 v botch → Аня by 2.
    ("storyteller", (2, -1), 0, 2,
     "Побеждает Аня, остаток успехов: 2 (Умеренный успех).",
     "Аня wins with 2 successes left (Moderate)."),
    # 0 v a botch (0): DECISION «nobody prevails».
    ("storyteller", (0, -1), None, 0, "Ничья: никто не взял верх.", "Tie: nobody prevails."),
    # Fate: shifts = the difference; 3+ is success with style, 1–2 a success.
    ("fate", (5, 0), 0, 5, "Побеждает Аня, сдвигов: 5 (крит).",
     "Аня wins by 5 shifts (success with style)."),
    ("fate", (1, 3), 1, 2, "Побеждает Бор, сдвигов: 2 (успех).",
     "Бор wins by 2 shifts (success)."),
    # Fate contest DECISION: a tie scores nobody.
    ("fate", (3, 3), None, 0, "Ничья: никто не взял верх.", "Tie: nobody prevails."),
    # Clichés «Non-fight conflicts»: higher wins; «Ties»: nobody loses, roll again.
    ("cliche", (9, 7), 0, 2, "Побеждает Аня, разница 2.", "Аня wins by 2."),
    ("cliche", (7, 7), None, 0, "Ничья: никто не выиграл, при необходимости бросайте снова.",
     "Tie: nobody wins, roll again if it matters."),
    # Matter «Contested»: more successes wins; a tie is a stalemate; a botch counts 0.
    ("matter", (2, 1), 0, 1, "Побеждает Аня, больше на 1 усп.", "Аня wins by 1 successes."),
    ("matter", (-1, 0), None, 0, "Ничья: патовая ситуация.", "Tie: a stalemate."),
    # Lives = gear «PvP»: the counter-roll, the difference is the damage; a tie deals none.
    ("lifegear", (5, 12), 1, 7, "Побеждает Бор; разница 7 (урон в бою).",
     "Бор wins; the difference is 7 (damage in a fight)."),
    ("lifegear", (5, 5), None, 0, "Ничья: никто не взял верх.", "Tie: nobody prevails."),
]  # fmt: skip


@pytest.mark.parametrize(("system", "totals", "winner", "margin", "ru", "en"), OPPOSED)
def test_opposed_verdicts(
    system: str, totals: tuple[int, int], winner: int | None, margin: int, ru: str, en: str
) -> None:
    verdict = SYSTEMS[system].opposed([side(t, botch=t < 0) for t in totals], NAMES)
    assert (verdict.winner, verdict.margin) == (winner, margin)
    assert verdict.words.render("ru") == ru
    assert verdict.words.render("en") == en


def test_three_sides_need_a_single_best() -> None:
    # Fate contest: the roll that beats all the others; 2, 2, −2 → nobody.
    verdict = FATE.opposed([side(2), side(2), side(-2)], ("Аня", "Бор", "Вера"))
    assert verdict.winner is None


# --- races -----------------------------------------------------------------------------------


def _race(
    scoring: CardScoring, state: RaceState, turns: Sequence[Sequence[SideRoll]]
) -> tuple[RaceState, RaceStep, list[str | None]]:
    """Every turn's rolls, side by side; the state, the last step and each turn's note."""
    rolls: list[list[SideRoll]] = [[] for _ in turns[0]]
    steps: list[RaceStep] = []
    notes: list[str | None] = []
    for turn in turns:
        for index, roll in enumerate(turn):
            assert scoring.race_turn(state, index, rolls)
            rolls[index].append(roll)
            steps.append(scoring.race_step(state, index, rolls, NAMES))
            state = steps[-1].state
        note = steps[-1].note
        notes.append(note.render("ru") if note else None)
    return state, steps[-1], notes


def test_storyteller_race_the_seeds_example() -> None:
    # Storyteller «Opposed + extended»: each roll the excess goes to the winner's tally; the
    # seed's 4v3, 3v5, 3v4 → 1:3, so a race to 3 ends on the third turn with Бор.
    state = STORYTELLER.start_race(NAMES, ("5d10>=6f1", "5d10>=6f1"), 3, None)
    four, three, five = [7, 7, 7, 7, 2], [7, 7, 7, 2, 2], [7, 7, 7, 7, 7]
    turns = [(pool(four), pool(three)), (pool(three), pool(five)), (pool(three), pool(four))]
    state, step, notes = _race(STORYTELLER, state, turns)
    assert notes == ["раунд: +1 Аня", "раунд: +2 Бор", "раунд: +1 Бор"]
    assert state.points == (1, 3) and step.over and step.winner == 1


def test_storyteller_race_a_botch_wipes_the_botchers_tally() -> None:
    state = STORYTELLER.start_race(NAMES, ("4d10>=6f1", "4d10>=6f1"), 5, None)
    # 2 v 0 → Аня +2; then Аня botches (1,1,6,2: 1 success, two 1s) v 1: Бор +1, Аня's 2 lost.
    turns = [(pool([7, 7, 2, 2]), pool([2, 2, 2, 2])), (pool([1, 1, 6, 2]), pool([7, 2, 2, 2]))]
    state, step, notes = _race(STORYTELLER, state, turns)
    assert state.points == (0, 1) and not step.over
    assert notes[-1] == "раунд: +1 Бор · провал, накопленное потеряно: Аня"


def test_fate_race_is_a_contest() -> None:
    # Fate «Contest»: the roll beating all others scores 1 victory point; a tie scores nobody
    # (DECISION); first to the target (2) wins: 3v1 Аня, 2v2 nobody, 0v4 Бор, 5v1 Аня → 2:1.
    state = FATE.start_race(NAMES, ("4dF+1", "4dF+1"), 2, None)
    first = state
    turns = [(side(3), side(1)), (side(2), side(2)), (side(0), side(4)), (side(5), side(1))]
    state, step, notes = _race(FATE, state, turns)
    assert notes == ["раунд: +1 Аня", "раунд: никто не получает очко", "раунд: +1 Бор",
                     "раунд: +1 Аня"]  # fmt: skip
    assert state.points == (2, 1) and step.over and step.winner == 0
    # an exchange is scored only once every side rolled in it
    half = FATE.race_step(first, 0, [[side(3)], []], NAMES)
    assert half.note is None and half.state == first and not half.over
    assert not FATE.race_turn(first, 0, [[side(3)], []])


def test_the_race_keeps_its_keys_in_the_cards_json() -> None:
    state = FATE.start_race(NAMES, ("4dF", "4dF"), 3, 4)
    dumped = state.model_dump(mode="json")
    assert {"target", "max_rolls", "points", "contest"} <= set(dumped)
    assert FATE.race({**dumped, "slots": [], "mode": "opposed"}) == state


# --- extended --------------------------------------------------------------------------------


def test_plain_extended_adds_totals() -> None:
    # DECISION (no extended roll in the seed): each roll's total adds up to the target.
    state = CLICHE.start_extended("Аня", "3d6", 10, None, False)
    step = CLICHE.extended_step(state, [side(4)])
    assert step.status is CardStatus.ACTIVE and step.note.render("ru") == "+4 → 4/10"
    step = CLICHE.extended_step(step.state, [side(4), side(7)])
    assert step.status is CardStatus.SUCCEEDED and step.state.accumulated == 11
    # out of rolls (2) below the target
    limited = MATTER.start_extended("Аня", "3d10>=7!", 10, 2, False)
    step = MATTER.extended_step(limited, [side(3)])
    step = MATTER.extended_step(step.state, [side(3), side(4)])
    assert step.status is CardStatus.FAILED and step.state.accumulated == 7
    with pytest.raises(RuleViolation) as bounds:
        LIFEGEAR.start_extended("Аня", "1d8", 0, None, False)
    assert bounds.value.render("ru") == "Цель и число бросков должны быть положительными."


@pytest.mark.parametrize(("strict", "status"), [(False, CardStatus.ACTIVE), (True, "botched")])
def test_storyteller_extended_botch_wipes_the_tally(strict: bool, status: str) -> None:
    # Storyteller «Extended action»: a botch on any roll loses all accumulated successes, and
    # the Storyteller may rule the task lost («!»). 2 successes, then 1,1,6,2,2 (a botch).
    state = STORYTELLER.start_extended("Аня", "5d10>=6f1", 5, None, strict)
    first = [pool([7, 7, 2, 2, 2])]
    step = STORYTELLER.extended_step(state, first)
    assert step.state.accumulated == 2 and step.note.render("en") == "+2 → 2/5"
    step = STORYTELLER.extended_step(step.state, [*first, pool([1, 1, 6, 2, 2])])
    assert step.state.accumulated == 0 and step.status == status
    assert step.note.render("ru") == "Провал: накопленные успехи потеряны (2)."


def test_storyteller_extended_needs_a_pool() -> None:
    with pytest.raises(RuleViolation) as error:
        STORYTELLER.start_extended("Аня", "3d6", 5, None, False)
    assert error.value.render("ru").startswith("Аня: здесь нужен пул кубиков")


# --- team ------------------------------------------------------------------------------------


def test_storyteller_team_sums_successes_the_seeds_example() -> None:
    # Storyteller «Teamwork»: each rolls separately, successes are summed; the seed's Томас 1 +
    # Марс'хия 2 = 3 successes on a simple task. One difficulty for all (6 by default).
    names = ("Томас", "Марс'хия")
    start = STORYTELLER.start_team(names, ("3d10>=6f1", "3d10>=7f1"), (None, None), None, None)
    assert [m.notation for m in start.members] == ["3d10>=6f1", "3d10>=6f1"]
    state: TeamState = start.state
    rolls: list[list[SideRoll]] = [[pool([7, 2, 3])], []]
    step = STORYTELLER.team_step(state, 0, rolls)
    assert not step.done and not STORYTELLER.team_turn(step.state, 0, rolls)
    assert STORYTELLER.team_total(step.state, rolls, False) == 1
    rolls[1].append(pool([8, 9, 2]))
    step = STORYTELLER.team_step(step.state, 1, rolls)
    assert step.done and (step.total, step.status) == (3, CardStatus.SUCCEEDED)
    assert STORYTELLER.team_verdict(step.state, 3, step.status).render("ru") == "успех"
    with pytest.raises(RuleViolation) as error:
        STORYTELLER.start_team(names, ("3d10>=6f1", "3d10>=6f1"), (6, 7), None, None)
    assert error.value.render("ru") == (
        "Команда бросает с одной сложностью: укажите её один раз, в конце."
    )


def test_cliche_team_leader_adds_all_dice_members_their_sixes() -> None:
    # Clichés «Teams»: the leader (the highest cliché) adds all its dice, the others only their
    # sixes: 3+3+3+3 = 12 and 6+6 = 12 → 24 ≥ 10, a professional's challenge.
    start = CLICHE.start_team(NAMES, ("4d6", "3d6"), (10, None), None, None)
    assert [m.lead for m in start.members] == [True, False] and start.state.target == 10
    rolls: list[list[SideRoll]] = [[], [side(14, [6, 6, 2])]]
    assert not CLICHE.team_step(start.state, 1, rolls).done
    assert CLICHE.team_total(start.state, rolls, False) == 12
    rolls[0].append(side(12, [3, 3, 3, 3]))
    step = CLICHE.team_step(start.state, 0, rolls)
    assert step.done and step.total == 24
    assert {i: n.render("ru") for i, n in step.notes.items()} == {1: "шестёрки: +12"}
    verdict = CLICHE.team_verdict(step.state, 24, None)
    assert verdict.render("ru") == "успех против 10 (Вызов для профессионала)"
    assert CLICHE.team_verdict(step.state, 9, None).render("en") == (
        "failure vs 10 (A professional's challenge)"
    )
    # the first named must hold the highest cliché
    with pytest.raises(RuleViolation):
        CLICHE.start_team(NAMES, ("2d6", "3d6"), (None, None), None, None)


def test_fate_team_the_highest_skill_rolls_helpers_add_one() -> None:
    # Fate «Teamwork»: the highest skill rolls, +1 per helper at +1 or more: +3 leads, +1 helps,
    # +0 does not. The lead's 4 + 1 = 5 against Great (+4): 1 shift, a success.
    names = ("Аня", "Бор", "Вера")
    start = FATE.start_team(names, ("4dF+1", "4dF+3", "4dF"), (4, None, None), None, None)
    assert [(m.lead, m.helps) for m in start.members] == [(False, True), (True, False),
                                                          (False, False)]  # fmt: skip
    rolls: list[list[SideRoll]] = [[], [], []]
    assert [FATE.team_turn(start.state, i, rolls) for i in range(3)] == [False, True, False]
    assert FATE.team_total(start.state, rolls, False) == 1
    rolls[1].append(side(4))
    step = FATE.team_step(start.state, 1, rolls)
    assert step.done and step.total == 5
    assert FATE.team_verdict(step.state, 5, None).render("ru") == (
        "успех против Прекрасно (+4) (сдвигов: +1)"
    )
    assert FATE.team_verdict(step.state, 2, None).render("en") == "fail vs Great (+4) (shifts: −2)"


def test_fate_team_of_an_old_card_finds_its_lead_on_the_slots() -> None:
    old = {"target": None, "bonus": 1, "slots": [{"lead": False}, {"lead": True}]}
    assert FATE.team_turn(FATE.team(old), 1, [[], []])


# --- what a system does not have ------------------------------------------------------------

RACE_REFUSED = "Гонка до цели есть только в системах «Рассказчик» и «Фэйт»; здесь бросайте " \
    "/opposed раунд за раундом."  # fmt: skip
TEAM_REFUSED = "В правилах этой системы нет командного броска: используйте /opposed или " \
    "отдельные /request."  # fmt: skip
EXTENDED_REFUSED = "В Фэйт нет продолжительного броска: проведите состязание или встречный " \
    "бросок /opposed."  # fmt: skip

REFUSALS = [
    ("storyteller", None, None, None),
    ("fate", None, EXTENDED_REFUSED, None),
    ("cliche", RACE_REFUSED, None, None),
    ("matter", RACE_REFUSED, None, TEAM_REFUSED),
    ("lifegear", RACE_REFUSED, None, TEAM_REFUSED),
]


@pytest.mark.parametrize(("system", "race", "extended", "team"), REFUSALS)
def test_refusals(system: str, race: str | None, extended: str | None, team: str | None) -> None:
    scoring = SYSTEMS[system]
    said = [scoring.refusal(kind) for kind in (CardKind.RACE, CardKind.EXTENDED, CardKind.TEAM)]
    assert [m.render("ru") if m else None for m in said] == [race, extended, team]
    if race:
        with pytest.raises(CardRefused):
            scoring.start_race(NAMES, ("3d6", "3d6"), 3, None)
    if extended:
        with pytest.raises(CardRefused):
            scoring.start_extended("Аня", "4dF", 3, None, False)
    if team:
        with pytest.raises(CardRefused):
            scoring.start_team(NAMES, ("3d6", "3d6"), (None, None), None, None)


# --- the words of one roll on a card --------------------------------------------------------

WORDS = [
    # plain dice speak the system's words only in its own notation
    ("storyteller", "4d10>=7f1", None, False, False, True, WordsFor(7)),
    ("storyteller", "3d6", None, False, False, False, None),
    ("storyteller", "3d10>=6f1", 6, True, True, True, WordsFor(6)),  # a team keeps its difficulty
    ("fate", "4dF+1", 2, False, False, False, WordsFor(2)),
    ("fate", "3d6", 2, False, False, False, None),
    ("fate", "4dF+3", 2, True, True, False, WordsFor(None)),  # a team's total is read at the end
    ("matter", "3d10>=7!", None, False, False, True, WordsFor(None)),
    ("cliche", "3d6", 10, False, False, False, None),
    ("cliche", "3d6", 10, True, False, False, WordsFor(10)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("system", "notation", "target", "sheet", "team", "counts", "expected"), WORDS
)
def test_words_of_a_roll(
    system: str, notation: str, target: int | None, sheet: bool, team: bool, counts: bool,
    expected: WordsFor | None,
) -> None:  # fmt: skip
    got = SYSTEMS[system].words_for(
        notation, target, from_sheet=sheet, in_team=team, counts_successes=counts
    )
    assert got == expected
