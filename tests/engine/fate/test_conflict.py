"""Conflicts (turn order, full defence, zones, taken out, conceding, ending) and contests."""

from __future__ import annotations

import pytest

from engine.errors import EngineError, RuleViolation
from engine.systems.fate import (
    AspectKind,
    ConflictState,
    Participant,
    SceneAspect,
    StressMarks,
    Zone,
    act,
    add_aspect,
    concede,
    concede_conflict,
    contest_exchange,
    defence_bonus,
    end_conflict,
    end_turn,
    full_defence,
    in_zone,
    is_over,
    move,
    record_consequence,
    reorder,
    sides_standing,
    start_conflict,
    start_contest,
    take_out,
    transfer_free_invokes,
    use_free_invokes,
)
from tests.engine.fate.factories import sample


def _state() -> ConflictState:
    return start_conflict(
        "c1",
        [Zone(name="Гостиная"), Zone(name="Второй этаж", aspects=(SceneAspect(name="В огне!"),))],
        [
            Participant(id="a", name="Алиса", side="pc", initiative=2),
            Participant(id="b", name="Борис", side="pc", initiative=4),
            Participant(id="o", name="Орк", side="npc", initiative=2),
            Participant(id="g", name="Гоблин", side="npc", initiative=3, zone=1),
        ],
    )


def test_initiative_order_by_notice_ties_keep_listing_order() -> None:
    assert _state().order == ("b", "g", "a", "o")
    assert _state().current == "b"


def test_turns_and_exchanges() -> None:
    s = _state()
    for expected in ("g", "a", "o"):
        s = end_turn(s)
        assert s.current == expected
    s = end_turn(s)
    assert (s.current, s.exchange) == ("b", 2)


def test_full_defence_lasts_until_next_turn() -> None:
    s = full_defence(_state(), "b")
    assert s.current == "g"
    assert defence_bonus(s, "b") == 2
    for _ in range(3):
        s = end_turn(s)
    assert s.current == "b" and defence_bonus(s, "b") == 0
    with pytest.raises(RuleViolation):
        full_defence(s, "a")  # not a's turn


def test_taken_out_are_skipped_and_conflict_ends() -> None:
    s = take_out(_state(), "g")
    s = end_turn(s)
    assert s.current == "a"
    assert not is_over(s)
    s = take_out(s, "o")
    assert sides_standing(s) == ("pc",)
    assert is_over(s)
    with pytest.raises(RuleViolation):
        take_out(s, "o")


def test_taking_out_the_actor_passes_the_turn() -> None:
    s = take_out(_state(), "b")
    assert s.current == "g"


def test_concede_and_pay() -> None:
    s = record_consequence(record_consequence(_state(), "a"), "a")
    s = concede_conflict(s, "a")
    who = s.participant("a")
    assert who.conceded and not who.active
    char, out = concede(
        sample(fate_points=0), successful=True, consequences_taken=who.consequences_taken
    )
    assert (char.fate_points, out.fate_points_gained) == (3, 3)


def test_zones_and_moving() -> None:
    s = move(_state(), "a", 1)
    assert in_zone(s, 1) == ("a", "g")
    with pytest.raises(EngineError):
        move(s, "a", 5)
    with pytest.raises(EngineError):
        move(s, "zz", 0)


def test_aspects_free_invokes_and_boosts() -> None:
    s = add_aspect(_state(), 0, SceneAspect(name="Все в дыму!", free_invokes={"a": 2}))
    s = add_aspect(
        s, 0, SceneAspect(name="Подножка", kind=AspectKind.BOOST, free_invokes={"b": 1})
    )
    s = use_free_invokes(s, 0, "Все в дыму!", "a")
    assert s.zones[0].aspects[0].free_invokes == {"a": 1}
    s = use_free_invokes(s, 0, "Подножка", "b")
    assert [a.name for a in s.zones[0].aspects] == ["Все в дыму!"]  # the boost is gone
    with pytest.raises(RuleViolation):
        use_free_invokes(s, 0, "Все в дыму!", "b")
    # teamwork: the helper hands its free invoke to the lead
    s = transfer_free_invokes(s, 0, "Все в дыму!", "a", "b")
    assert s.zones[0].aspects[0].free_invokes == {"b": 1}


def test_end_conflict_clears_stress_and_scene() -> None:
    chars = {
        "a": sample(stress=StressMarks(physical=(1, 2))),
        "b": sample(stress=StressMarks(mental=(3,))),
    }
    s = add_aspect(_state(), 0, SceneAspect(name="x"))
    ended, new, changes = end_conflict(s, chars, keep_stress={"a": StressMarks(physical=(2,))})
    assert ended.ended and ended.current is None and is_over(ended)
    assert all(not z.aspects for z in ended.zones)
    assert new["a"].stress.physical == (2,)
    assert new["b"].stress == StressMarks()
    assert [(c.before, c.after) for c in changes["b"]] == [("00x", "000")]
    with pytest.raises(RuleViolation):
        end_turn(ended)


def test_start_refusals_and_reorder() -> None:
    with pytest.raises(RuleViolation):
        start_conflict("c", [], [Participant(id="a", name="A", side="pc")])
    with pytest.raises(EngineError):
        start_conflict(
            "c",
            [],
            [Participant(id="a", name="A", side="x"), Participant(id="a", name="A", side="y")],
        )
    s = reorder(_state(), ["a", "b", "g", "o"])
    assert s.current == "a"
    with pytest.raises(EngineError):
        reorder(s, ["a"])


# --- contests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "kwargs", "scorer"),
    [
        ({"a": 4, "b": 2}, {}, "a"),
        ({"a": 3, "b": 3}, {}, None),  # DECISION: a tie for the best scores nobody
        ({"a": 4, "b": 2}, {"failed_advantage": ["a"]}, "b"),
        ({"a": 4, "b": 5}, {"difficulty": 3}, "b"),
        ({"a": 3, "b": 2}, {"difficulty": 3}, None),  # nobody beat the difficulty
    ],
)
def test_contest_exchange(
    totals: dict[str, int], kwargs: dict[str, object], scorer: str | None
) -> None:
    state = start_contest(["a", "b"], target=3)
    _, result = contest_exchange(state, totals, **kwargs)  # type: ignore[arg-type]
    assert result.scorer == scorer


def test_contest_to_victory() -> None:
    state = start_contest(["a", "b"], target=2)
    state, r1 = contest_exchange(state, {"a": 3, "b": 1})
    state, r2 = contest_exchange(state, {"a": 0, "b": 1})
    state, r3 = contest_exchange(state, {"a": 2, "b": 1})
    assert (r1.winner, r2.winner, r3.winner) == (None, None, "a")
    assert state.points == {"a": 2, "b": 1} and state.winner == "a"
    with pytest.raises(RuleViolation):
        contest_exchange(state, {"a": 1, "b": 0})
    with pytest.raises(RuleViolation):
        start_contest(["a", "a"], target=2)


def test_act_only_on_your_turn() -> None:
    s = act(_state(), "b")
    assert s.current == "g"
    with pytest.raises(RuleViolation):
        act(s, "b")
