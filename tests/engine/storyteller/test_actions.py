"""Action state machines, driven one roll at a time with exact dice; seed examples included."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.storyteller import (
    ActionStatus,
    Degree,
    PlannedAction,
    abandon_extended,
    abandon_opposed_extended,
    close_teamwork_turn,
    current_difficulty,
    forbid_retry,
    join_teamwork,
    mirrored_difficulties,
    resolve_opposed,
    retry_extended,
    retry_opposed,
    retry_opposed_extended,
    roll_extended,
    roll_multiple,
    roll_opposed,
    roll_opposed_extended,
    roll_simple,
    roll_teamwork,
    start_extended,
    start_multiple,
    start_opposed,
    start_opposed_extended,
    start_simple,
    start_teamwork,
    succeed_automatically,
)


def faces(successes: int, *, ones: int = 0, blanks: int = 0) -> list[int]:
    """Faces with exact counts at difficulty ≤ 8: 8s succeed, 1s cancel, 3s do nothing."""
    return [8] * successes + [1] * ones + [3] * blanks


# --- simple action with retries ---------------------------------------------------------


def test_seed_retry_raises_difficulty_each_attempt() -> None:
    # Seed: «Снизер ... (Ловкость + Ремонт по 6 сложности) ... проваливает первый бросок ...
    # Для следующей попытки, игрок бросает ... по 7 сложности.»
    state = start_simple(6)
    state, step = roll_simple(state, 3, ScriptedSource([2, 3, 5]))
    assert (step.attempt, step.roll.difficulty, step.status) == (1, 6, ActionStatus.ACTIVE)
    assert current_difficulty(state) == 7
    state, step = roll_simple(state, 3, ScriptedSource([2, 6, 5]))
    assert (step.roll.difficulty, step.roll.net, step.status) == (7, 0, ActionStatus.ACTIVE)
    state, step = roll_simple(state, 3, ScriptedSource([9, 8, 5]))
    assert (step.roll.difficulty, step.roll.net, step.status) == (8, 2, ActionStatus.SUCCEEDED)
    assert [a.difficulty for a in state.attempts] == [6, 7, 8]
    with pytest.raises(RuleViolation):
        roll_simple(state, 3, ScriptedSource([9, 9, 9]))


def test_simple_without_escalation_and_attempt_limit() -> None:
    state = start_simple(6, escalate=False, max_attempts=2)
    state, _ = roll_simple(state, 1, ScriptedSource([2]))
    assert current_difficulty(state) == 6
    state, step = roll_simple(state, 1, ScriptedSource([1]))
    assert step.roll.botch and step.status is ActionStatus.FAILED


def test_simple_forbid_and_automatic() -> None:
    state, _ = roll_simple(start_simple(), 2, ScriptedSource([2, 2]))
    assert forbid_retry(state).status is ActionStatus.FAILED
    with pytest.raises(RuleViolation):
        succeed_automatically(state, 9)
    done, step = succeed_automatically(start_simple(5), 6)
    assert (step.roll.net, step.roll.automatic, done.status) == (1, True, ActionStatus.SUCCEEDED)
    assert done.attempts[0].outcome().automatic


# --- multiple actions --------------------------------------------------------------------


def test_seed_multiple_action_splits_the_smallest_pool() -> None:
    # Seed: «комбинация Ловкости + Атлетики дает всего пять кубиков ... Игрок решает, что он
    # тратит три кубика на уклонение от молока, и еще два на спасение ноутбука. Рассказчик
    # назначает сложность шесть на оба броска. ... Мэри удается уклониться от брызг, но спасти
    # ноутбук уже не выходит.»
    actions = [PlannedAction("dodge", 6, 6), PlannedAction("laptop", 5, 6)]
    state = start_multiple(actions, [3, 2])
    assert [e.dice for e in state.entries] == [3, 2]
    state, laptop = roll_multiple(state, 1, ScriptedSource([2, 4]))
    assert laptop.roll.result.value == "failure" and not laptop.done
    state, dodge = roll_multiple(state, 0, ScriptedSource([7, 2, 3]))
    assert dodge.roll.net == 1 and dodge.roll.notation == "3d10>=6f1" and dodge.done
    with pytest.raises(RuleViolation):
        roll_multiple(state, 0, ScriptedSource([7, 7, 7]))


@pytest.mark.parametrize("split", [[3, 3], [5, 0], [5], [2, 2, 1]])
def test_multiple_rejects_bad_splits(split: list[int]) -> None:
    with pytest.raises(RuleViolation):
        start_multiple([PlannedAction("a", 6), PlannedAction("b", 5)], split)


def test_multiple_needs_two_actions_and_valid_index() -> None:
    with pytest.raises(RuleViolation):
        start_multiple([PlannedAction("a", 6)], [3])
    state = start_multiple([PlannedAction("a", 6), PlannedAction("b", 5)], [2, 2])
    with pytest.raises(RuleViolation):
        roll_multiple(state, 2, ScriptedSource([5, 5]))


# --- extended actions --------------------------------------------------------------------


def test_seed_extended_botch_loses_everything() -> None:
    # Seed: «потребуется семь успехов на броске Сообразительности + Компьютера (сложность 6)
    # ... В течение первого оборота он получает четыре успеха, а затем еще два. ... И третий
    # бросок оказывается проваленным! ... Техлана потеряла все»
    state = start_extended(7, difficulty=6, botch_ends=True)
    state, step = roll_extended(state, 6, ScriptedSource(faces(4, blanks=2)))
    assert (step.turn, step.gained, step.accumulated) == (1, 4, 4)
    state, step = roll_extended(state, 6, ScriptedSource(faces(2, blanks=4)))
    assert (step.turn, step.gained, step.accumulated, step.status) == (
        2,
        2,
        6,
        ActionStatus.ACTIVE,
    )
    state, step = roll_extended(state, 6, ScriptedSource(faces(0, ones=1, blanks=5)))
    assert step.roll.botch
    assert (step.lost, step.accumulated, step.status) == (6, 0, ActionStatus.BOTCHED)
    assert state.turn == 3
    with pytest.raises(RuleViolation):
        roll_extended(state, 6, ScriptedSource(faces(6)))


def test_extended_botch_without_ending_keeps_going() -> None:
    state = start_extended(3)
    state, _ = roll_extended(state, 2, ScriptedSource(faces(2)))
    state, step = roll_extended(state, 2, ScriptedSource([1, 3]))
    assert (step.lost, state.accumulated, state.status) == (2, 0, ActionStatus.ACTIVE)
    state, step = roll_extended(state, 3, ScriptedSource(faces(3)))
    assert (state.accumulated, step.status) == (3, ActionStatus.SUCCEEDED)


def test_extended_time_limit() -> None:
    # Seed: «Если вам требуется выполнить определенную задачу за три оборота, и вам требуется
    # пять успехов ... вам очень не повезет, если концу третьего раунда у вас окажется всего
    # четыре успеха.»
    state = start_extended(5, turn_limit=3)
    for n in (2, 1):
        state, step = roll_extended(state, 3, ScriptedSource(faces(n, blanks=3 - n)))
        assert step.status is ActionStatus.ACTIVE
    state, step = roll_extended(state, 3, ScriptedSource(faces(1, blanks=2)))
    assert (state.accumulated, step.status) == (4, ActionStatus.FAILED)
    again = retry_extended(state)
    assert (again.difficulty, again.accumulated, again.rolls) == (7, 0, ())


def test_seed_extended_three_successes_example() -> None:
    # Seed: «Сделайте бросок Выносливости + Лидерства (сложность 7) для этого продолжительного
    # действия. Всего вам требуется три успеха.»
    state = start_extended(3, difficulty=7)
    state, step = roll_extended(state, 4, ScriptedSource([7, 10, 9, 2]))
    assert step.status is ActionStatus.SUCCEEDED and state.accumulated == 3


@pytest.mark.parametrize("target", [2, 21, 0])
def test_extended_target_range(target: int) -> None:
    with pytest.raises(RuleViolation):
        start_extended(target)


def test_extended_abandon_and_retry_rules() -> None:
    state = start_extended(5)
    with pytest.raises(RuleViolation):
        retry_extended(state)
    given_up = abandon_extended(state)
    assert given_up.status is ActionStatus.ABANDONED
    assert retry_extended(given_up).difficulty == 7
    with pytest.raises(RuleViolation):
        start_extended(5, turn_limit=0)


# --- opposed actions ---------------------------------------------------------------------


def test_seed_opposed_wrestle() -> None:
    # Seed: «Се'хан бросает шесть кубиков по пятой сложности, а Лира – пять кубиков по шестой.
    # Несмотря на все это, Се'хан выбрасывает меньше успехов, чем Лира, и ей удается
    # вывернуться»
    state = start_opposed(("Се'хан", "Лира"), (5, 6))
    state, step = roll_opposed(state, 1, 5, ScriptedSource([6, 7, 9, 2, 3]))
    assert step.resolution is None and step.roll.notation == "5d10>=6f1"
    state, step = roll_opposed(state, 0, 6, ScriptedSource([5, 2, 3, 4, 2, 2]))
    assert step.roll.notation == "6d10>=5f1"
    resolution = step.resolution
    assert resolution is not None
    assert (resolution.winner, resolution.margin, resolution.nets) == (1, 2, (1, 3))
    assert resolution.degree is Degree.MODERATE
    assert resolve_opposed(state) == resolution
    retried = retry_opposed(state, 0)
    assert (retried.difficulties, retried.rolls) == ((6, 6), (None, None))
    with pytest.raises(RuleViolation):
        retry_opposed(state, 1)


@pytest.mark.parametrize(
    ("first", "second", "winner", "margin"),
    [
        (faces(2), faces(2), None, 0),
        (faces(0, ones=1), faces(0), None, 0),
        (faces(0, ones=2), faces(1), 1, 1),
        (faces(4), faces(1), 0, 3),
    ],
)
def test_opposed_resolution_table(
    first: list[int], second: list[int], winner: int | None, margin: int
) -> None:
    state = start_opposed(("a", "b"))
    state, _ = roll_opposed(state, 0, len(first), ScriptedSource(first))
    state, step = roll_opposed(state, 1, len(second), ScriptedSource(second))
    assert step.resolution is not None
    assert (step.resolution.winner, step.resolution.margin) == (winner, margin)


def test_mirrored_difficulties() -> None:
    assert mirrored_difficulties((6, 5)) == (5, 6)  # the seed's wrestling example
    assert mirrored_difficulties((1, 14)) == (10, 2)


def test_opposed_guards() -> None:
    state = start_opposed(("a", "b"))
    with pytest.raises(RuleViolation):
        resolve_opposed(state)
    state, _ = roll_opposed(state, 0, 1, ScriptedSource([5]))
    with pytest.raises(RuleViolation):
        roll_opposed(state, 0, 1, ScriptedSource([5]))
    with pytest.raises(RuleViolation):
        roll_opposed(state, 2, 1, ScriptedSource([5]))
    with pytest.raises(RuleViolation):
        start_opposed(("a", "b"), (6, 11))


def test_seed_opposed_extended_stare_down() -> None:
    # Seed: «первый, кто наберет три успеха на броске Выносливости + Запугивания по 6
    # сложности, выигрывает ... Джонни выбрасывает четыре успеха, а ... Техлану, всего три ...
    # счет оказывается 1:0 в пользу Джонни. ... Джонни выбрасывает только три успеха, а
    # Техлана – пять. Теперь счет оказывается 1:2 ... Джонни опять выбрасывает три успеха,
    # тогда как Техлана выбрасывает четыре. Окончательный счет – 1:3 в пользу Техланы.»
    johnny, techlana = 0, 1
    state = start_opposed_extended(("Джонни", "Техлана"), 3, difficulties=(6, 6))
    expected = [((4, 3), (1, 0)), ((3, 5), (1, 2)), ((3, 4), (1, 3))]
    for turn_no, ((j, t), tallies) in enumerate(expected, start=1):
        # Техлана's player posts first on even turns: order must not matter.
        order = [(techlana, t), (johnny, j)] if turn_no % 2 == 0 else [(johnny, j), (techlana, t)]
        state, first = roll_opposed_extended(
            state, order[0][0], 5, ScriptedSource(faces(order[0][1], blanks=5 - order[0][1]))
        )
        assert first.turn is None
        state, step = roll_opposed_extended(
            state, order[1][0], 5, ScriptedSource(faces(order[1][1], blanks=5 - order[1][1]))
        )
        assert step.turn is not None
        assert step.tallies == tallies
    assert state.status is ActionStatus.SUCCEEDED
    assert state.winner == techlana
    assert [t.winner for t in state.turns] == [johnny, techlana, techlana]
    assert [t.excess for t in state.turns] == [1, 2, 1]
    with pytest.raises(RuleViolation):
        roll_opposed_extended(state, 0, 5, ScriptedSource(faces(5)))
    again = retry_opposed_extended(state, johnny)
    assert (again.difficulties, again.tallies) == ((7, 6), (0, 0))
    with pytest.raises(RuleViolation):
        retry_opposed_extended(state, techlana)


def test_opposed_extended_botch_wipes_own_tally_and_time_limit() -> None:
    state = start_opposed_extended(("a", "b"), 5, turn_limit=2)
    state, _ = roll_opposed_extended(state, 0, 3, ScriptedSource(faces(3)))
    state, _ = roll_opposed_extended(state, 1, 3, ScriptedSource(faces(0, blanks=3)))
    assert state.tallies == (3, 0)
    state, _ = roll_opposed_extended(state, 0, 3, ScriptedSource([1, 3, 3]))
    state, step = roll_opposed_extended(state, 1, 3, ScriptedSource(faces(1, blanks=2)))
    assert step.turn is not None and step.turn.wiped == (True, False)
    assert (state.tallies, state.status, state.winner) == ((0, 1), ActionStatus.FAILED, None)


def test_opposed_extended_concession() -> None:
    state = start_opposed_extended(("a", "b"), 3)
    state, _ = roll_opposed_extended(state, 0, 3, ScriptedSource(faces(3)))
    done = abandon_opposed_extended(state, 0)
    assert (done.status, done.winner, done.pending) == (ActionStatus.SUCCEEDED, 1, (None, None))


# --- teamwork ----------------------------------------------------------------------------


def test_seed_teamwork_sums_successes() -> None:
    # Seed: «бросок Харизмы + Эмпатии по 6 сложности. Томас и Марс’хия делают отдельные
    # броски. Томас выбрасывает один успех; Марс’хия – два. Вместе они набирают три успеха»
    state = start_teamwork(["Томас", "Марс'хия"], difficulty=6)
    state, step = roll_teamwork(state, 1, 4, ScriptedSource(faces(2, blanks=2)))
    assert step.turn is None and step.status is ActionStatus.ACTIVE
    state, step = roll_teamwork(state, 0, 3, ScriptedSource(faces(1, blanks=2)))
    assert step.turn is not None and step.turn.gained == 3
    assert (state.total, state.status, state.degree) == (
        3,
        ActionStatus.SUCCEEDED,
        Degree.COMPLETE,
    )


def test_teamwork_botch_rules() -> None:
    # simple task: a botch does not subtract from the partner's successes
    state = start_teamwork(["a", "b"])
    state, _ = roll_teamwork(state, 0, 2, ScriptedSource([1, 3]))
    state, _ = roll_teamwork(state, 1, 2, ScriptedSource(faces(1, blanks=1)))
    assert (state.total, state.status) == (1, ActionStatus.SUCCEEDED)
    # simple task with nothing but a botch
    state = start_teamwork(["a", "b"])
    state, _ = roll_teamwork(state, 0, 2, ScriptedSource([1, 3]))
    state, _ = roll_teamwork(state, 1, 2, ScriptedSource([3, 3]))
    assert state.status is ActionStatus.BOTCHED
    # extended: any botch wipes the team tally
    state = start_teamwork(["a", "b"], target=6)
    state, _ = roll_teamwork(state, 0, 2, ScriptedSource(faces(2)))
    state, _ = roll_teamwork(state, 1, 2, ScriptedSource(faces(2)))
    assert (state.total, state.status) == (4, ActionStatus.ACTIVE)
    state, _ = roll_teamwork(state, 0, 2, ScriptedSource(faces(2)))
    state, step = roll_teamwork(state, 1, 2, ScriptedSource([1, 2]))
    assert step.turn is not None and step.turn.wiped
    assert (state.total, state.status) == (0, ActionStatus.ACTIVE)


def test_teamwork_close_turn_join_and_limits() -> None:
    state = start_teamwork(["a", "b"], target=3, turn_limit=2, max_members=3)
    state = join_teamwork(state, "c")
    with pytest.raises(RuleViolation):
        join_teamwork(state, "d")
    with pytest.raises(RuleViolation):
        close_teamwork_turn(state)
    state, _ = roll_teamwork(state, 2, 2, ScriptedSource(faces(1, blanks=1)))
    with pytest.raises(RuleViolation):
        roll_teamwork(state, 2, 2, ScriptedSource(faces(2)))
    state, turn = close_teamwork_turn(state)
    assert (turn.gained, turn.rolls[0], state.total) == (1, None, 1)
    state, _ = roll_teamwork(state, 0, 1, ScriptedSource(faces(1)))
    state, turn = close_teamwork_turn(state)
    assert (state.total, state.status) == (2, ActionStatus.FAILED)


@pytest.mark.parametrize(
    ("members", "max_members"), [([], None), (["a", "a"], None), (["a", "b", "c"], 2)]
)
def test_teamwork_member_rules(members: list[str], max_members: int | None) -> None:
    with pytest.raises(RuleViolation):
        start_teamwork(members, max_members=max_members)
