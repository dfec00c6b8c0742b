"""The asynchronous fight state machine."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.cliche import (
    Character,
    Cliche,
    ClicheOptions,
    Fighter,
    FighterKind,
    FightState,
    LossKind,
    LossReason,
    RoundWinner,
    Tool,
    ToolEffect,
    apply_to_character,
    assign_damage,
    cancel_round,
    declare,
    disband_team,
    end_fight,
    fighter_from_character,
    form_team,
    join_fight,
    leave_team,
    open_round,
    recover,
    roll_for,
    start_fight,
    vehicle_fighter,
    waiting_for,
    withdraw,
)
from tests.engine.cliche.builders import make_character


def _fighter(
    key: str,
    side: str,
    *cliches: tuple[str, int],
    inappropriate: tuple[str, ...] = (),
    armor: tuple[str, int] | None = None,
    kind: FighterKind = FighterKind.CHARACTER,
) -> Fighter:
    sheet = make_character(key, *cliches, armor=armor)
    allowed = [name for name, _ in cliches if name not in inappropriate]
    return fighter_from_character(sheet, key=key, side=side, appropriate=allowed, kind=kind)


def _current(state: FightState, fighter: str, cliche: str) -> int:
    return state.fighter(fighter).get(cliche).cliche.current


def _round_trip(state: FightState) -> None:
    data = state.model_dump(mode="json")
    assert FightState.model_validate(data) == state
    assert FightState.model_validate(data).model_dump(mode="json") == data


def _duel() -> FightState:
    return start_fight(
        [
            _fighter("mal", "crew", ("Капитан", 4), ("Трус", 1)),
            _fighter("reaver", "reavers", ("Пожиратель", 3)),
        ]
    )


def test_a_plain_round() -> None:
    # «Обе стороны поединка … бросают кубы из своих клише. Кинувший меньше - проиграл. Кроме
    # того, проигравший теряет одну кость из своего клише до конца боя»
    state = open_round(_duel(), "mal", "reaver")
    assert state.round == 1
    assert waiting_for(state) == ("mal", "reaver")
    state = declare(state, "mal", "Капитан")
    state = declare(state, "reaver", "Пожиратель")
    state, first = roll_for(state, "reaver", ScriptedSource([2, 3, 1]))
    assert (first.notation, first.faces, first.counted, first.resolution) == (
        "3d6",
        (2, 3, 1),
        6,
        None,
    )
    assert waiting_for(state) == ("mal",)
    _round_trip(state)
    state, second = roll_for(state, "mal", ScriptedSource([1, 1, 2, 3]))
    resolution = second.resolution
    assert resolution is not None
    assert (resolution.attacker_total, resolution.defender_total) == (7, 6)
    assert resolution.damage.winner is RoundWinner.ATTACKER
    assert [(r.fighter, r.cliche, r.dice, r.reason) for r in resolution.losses] == [
        ("reaver", "Пожиратель", 1, LossReason.ROUND)
    ]
    assert _current(state, "reaver", "Пожиратель") == 2
    assert state.exchange is None
    assert not state.finished
    _round_trip(state)


def test_a_tie_rolls_again() -> None:
    state = open_round(_duel(), "mal", "reaver")
    state = declare(state, "mal", "Капитан")
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "mal", ScriptedSource([1, 1, 1, 1]))
    state, outcome = roll_for(state, "reaver", ScriptedSource([1, 2, 1]))
    assert outcome.resolution is not None
    assert outcome.resolution.damage.winner is RoundWinner.TIE
    assert outcome.resolution.losses == ()
    assert state.exchange is not None
    assert (state.exchange.rolls, state.exchange.rerolls) == ((), 1)
    assert waiting_for(state) == ("mal", "reaver")
    state, _ = roll_for(state, "reaver", ScriptedSource([6, 6, 6]))
    state, outcome = roll_for(state, "mal", ScriptedSource([1, 1, 1, 1]))
    assert outcome.resolution is not None
    assert _current(state, "mal", "Капитан") == 3


def test_any_cliche_at_zero_loses_the_fight() -> None:
    # «Помните одно - падение любого из клише до нуля это проигрыш, даже у него еще есть запас
    # других клише для боя.»
    state = open_round(_duel(), "reaver", "mal")
    state = declare(state, "mal", "Трус")
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "mal", ScriptedSource([1]))
    state, outcome = roll_for(state, "reaver", ScriptedSource([3, 3, 3]))
    assert outcome.resolution is not None
    assert outcome.resolution.out == ("mal",)
    assert state.fighter("mal").out
    assert _current(state, "mal", "Капитан") == 4
    assert (state.finished, state.winner_side) == (True, "reavers")
    assert outcome.resolution.finished
    with pytest.raises(RuleViolation) as caught:
        open_round(state, "reaver", "mal")
    assert caught.value.msg.key == "cliche.fight.finished"


def _devourer_fight() -> FightState:
    # «Рудольф Ковбой встретился лицом к лицу с Пожирателем, который его атаковал.»
    rudolf = _fighter(
        "rudolf", "crew", ("Ковбой", 3), ("Новеллист", 3), inappropriate=("Новеллист",)
    )
    devourer = _fighter("devourer", "reavers", ("Пожиратель", 6))
    state = open_round(start_fight([rudolf, devourer]), "devourer", "rudolf")
    state = declare(state, "devourer", "Пожиратель")
    with pytest.raises(RuleViolation) as caught:
        # an inappropriate cliché needs the GM's word (the −N, here 0)
        declare(state, "rudolf", "Новеллист", pump=2)
    assert caught.value.msg.key == "cliche.fight.needs_gm_approval"
    # «он решает ответить с клише Новеллист (3) – не подходящий выбор! Также он решает
    # прокачать этот навык на (2).»
    return declare(state, "rudolf", "Новеллист", pump=2, gm_penalty=0)


def test_pumping_example_cowboy_loses() -> None:
    # «В первом раунде Пожиратель кидает свои (6) костей, а Ковбой … кидает 5 костей. Если
    # Ковбой проиграет – он побежден. Две кости он теряет за накачку и одну за проигрыш раунда.»
    state = _devourer_fight()
    state, devourer_roll = roll_for(state, "devourer", ScriptedSource([4, 4, 4, 4, 4, 4]))
    state, cowboy_roll = roll_for(state, "rudolf", ScriptedSource([6, 6, 1, 1, 1]))
    assert (devourer_roll.notation, cowboy_roll.notation) == ("6d6", "5d6")
    resolution = cowboy_roll.resolution
    assert resolution is not None
    assert (resolution.attacker_total, resolution.defender_total) == (24, 15)
    assert [(r.fighter, r.dice, r.reason) for r in resolution.losses] == [
        ("rudolf", 2, LossReason.PUMP),
        ("rudolf", 1, LossReason.ROUND),
    ]
    assert _current(state, "rudolf", "Новеллист") == 0
    assert resolution.out == ("rudolf",)
    assert (state.finished, state.winner_side) == (True, "reavers")


def test_pumping_example_cowboy_wins() -> None:
    # «Если Ковбой выиграет, он теряет две кости, а Пожиратель — три, и в следующем раунде
    # Ковбой может переключится на обычную тактику.»
    state = _devourer_fight()
    state, _ = roll_for(state, "devourer", ScriptedSource([1, 2, 1, 2, 1, 2]))
    state, outcome = roll_for(state, "rudolf", ScriptedSource([3, 3, 3, 3, 3]))
    resolution = outcome.resolution
    assert resolution is not None
    assert resolution.damage.kind is LossKind.INAPPROPRIATE
    assert [(r.fighter, r.dice, r.reason) for r in resolution.losses] == [
        ("rudolf", 2, LossReason.PUMP),
        ("devourer", 3, LossReason.ROUND),
    ]
    assert _current(state, "rudolf", "Новеллист") == 1
    assert _current(state, "devourer", "Пожиратель") == 3
    assert not state.finished
    # next round: back to the ordinary tactic, no pump, no penalty
    state = open_round(state, "rudolf", "devourer")
    state = declare(state, "rudolf", "Ковбой")
    state = declare(state, "devourer", "Пожиратель")
    state, outcome = roll_for(state, "rudolf", ScriptedSource([6, 6, 6]))
    assert outcome.notation == "3d6"
    state, outcome = roll_for(state, "devourer", ScriptedSource([1, 1, 1]))
    assert outcome.notation == "3d6"
    assert _current(state, "devourer", "Пожиратель") == 2


def test_inappropriate_penalty_shrinks_the_pool() -> None:
    # «Неприемлемое клише вступает со штрафом равным - N(определяется мастером).»
    barber = _fighter("barber", "crew", ("Парикмахер", 4), inappropriate=("Парикмахер",))
    soldier = _fighter("soldier", "alliance", ("Солдат", 3))
    state = open_round(start_fight([barber, soldier]), "barber", "soldier")
    state = declare(state, "barber", "Парикмахер", gm_penalty=1)
    state = declare(state, "soldier", "Солдат")
    state, outcome = roll_for(state, "barber", ScriptedSource([6, 6, 6]))
    assert outcome.notation == "3d6"
    state, outcome = roll_for(state, "soldier", ScriptedSource([1, 1, 1]))
    # «…даже опытный парикмахер может очень опасным» — the soldier loses 3
    assert _current(state, "soldier", "Солдат") == 0
    assert state.finished


def test_bonus_dice_are_never_lost() -> None:
    # «Солдат(5) стреляет по бегущему Ковбою(6), Ковбой получает бонус к защите(+1) … и
    # бросает не 6, а 7 костей.» «…повреждения, которые вы получили, вычитают кости только из
    # клише (а не из клише + бонусные кубы)»
    soldier = _fighter("soldier", "alliance", ("Солдат", 5))
    cowboy = _fighter("cowboy", "crew", ("Ковбой", 6))
    state = open_round(start_fight([soldier, cowboy]), "soldier", "cowboy", graded=True)
    state = declare(state, "soldier", "Солдат")
    state = declare(state, "cowboy", "Ковбой", bonus=1)
    state, outcome = roll_for(state, "cowboy", ScriptedSource([1, 1, 1, 1, 1, 1, 1]))
    assert outcome.notation == "7d6"
    state, outcome = roll_for(state, "soldier", ScriptedSource([2, 2, 2, 1, 1]))
    assert outcome.resolution is not None
    assert outcome.resolution.damage.kind is LossKind.ONE  # 8 > 7 but not ≥ 14
    assert _current(state, "cowboy", "Ковбой") == 5
    # «Когда же наступает ход Ковбоя, Солдат получает бонус защиты(+1)»
    state = open_round(state, "cowboy", "soldier", graded=True)
    state = declare(state, "cowboy", "Ковбой")
    state = declare(state, "soldier", "Солдат", bonus=1)
    state, outcome = roll_for(state, "soldier", ScriptedSource([1] * 6))
    assert outcome.notation == "6d6"
    state, outcome = roll_for(state, "cowboy", ScriptedSource([6, 6, 1, 1, 1, 4]))
    # «атака больше либо равна удвоенной защите: урон 1д6 костей» — 19 ≥ 12, the d6 comes next
    assert outcome.notation == "5d6"
    resolution = outcome.resolution
    assert resolution is not None
    assert resolution.damage.kind is LossKind.GRADED
    assert (resolution.damage.notation, resolution.damage.faces) == ("1d6", (4,))
    assert _current(state, "soldier", "Солдат") == 1


def test_armor_absorbs_first_and_overflows() -> None:
    # «Сначала броня получает повреждения, пока не растратит все кости в своем клише, затем урон
    # будит получать уже сам персонаж»
    zoe = _fighter("zoe", "crew", ("Солдат", 4), armor=("Бронежилет", 1))
    reaver = _fighter("reaver", "reavers", ("Пожиратель", 2))
    state = open_round(start_fight([zoe, reaver]), "reaver", "zoe", graded=True)
    state = declare(state, "zoe", "Солдат")
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "zoe", ScriptedSource([1, 1, 1, 1]))
    state, outcome = roll_for(state, "reaver", ScriptedSource([6, 6, 3]))
    assert outcome.resolution is not None
    assert [(r.cliche, r.dice) for r in outcome.resolution.losses] == [
        ("Бронежилет", 1),
        ("Солдат", 2),
    ]
    assert (_current(state, "zoe", "Бронежилет"), _current(state, "zoe", "Солдат")) == (0, 2)
    assert not state.fighter("zoe").out


def test_free_dice_for_everyone() -> None:
    # «Мастер может дать всем участникам процесса две свободных кости на время конфликта»
    glutton = _fighter("kaylee", "crew", ("Редкий обжора", 2))
    accountant = _fighter("inara", "guests", ("Бухгалтер", 1), inappropriate=("Бухгалтер",))
    state = start_fight([glutton, accountant], free_dice=2)
    state = open_round(state, "kaylee", "inara")
    state = declare(state, "kaylee", "Редкий обжора")
    state = declare(state, "inara", "Бухгалтер", gm_penalty=1)
    state, first = roll_for(state, "kaylee", ScriptedSource([1, 1, 1, 1]))
    state, second = roll_for(state, "inara", ScriptedSource([1, 2]))
    assert (first.notation, second.notation) == ("4d6", "2d6")


def _crew() -> FightState:
    return start_fight(
        [
            _fighter("mal", "crew", ("Капитан", 4)),
            _fighter("zoe", "crew", ("Солдат", 3)),
            _fighter("jayne", "crew", ("Наёмник", 3)),
            _fighter("reaver", "reavers", ("Пожиратель", 6)),
        ]
    )


def _team(state: FightState) -> FightState:
    state, formed = form_team(
        state, "serenity", [("zoe", "Солдат"), ("mal", "Капитан"), ("jayne", "Наёмник")]
    )
    assert (formed.leader, formed.double_next) == ("mal", False)
    return state


def _team_loses(state: FightState, *, graded: bool = False) -> FightState:
    state = open_round(state, "reaver", "serenity", graded=graded)
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "mal", ScriptedSource([1, 1, 1, 1]))
    state, _ = roll_for(state, "zoe", ScriptedSource([1, 1, 1]))
    state, _ = roll_for(state, "jayne", ScriptedSource([1, 1, 1]))
    state, outcome = roll_for(state, "reaver", ScriptedSource([3, 3, 3, 3, 3, 3]))
    assert outcome.resolution is not None
    assert outcome.resolution.pending_team == "serenity"
    return state


def test_team_total_in_a_fight() -> None:
    # «Все кидают кости, но командный лидер суммирует все кости, в то время как прочие члены
    # команды прибавляют лишь выпавшие у них шестерки.»
    state = open_round(_team(_crew()), "serenity", "reaver")
    assert waiting_for(state) == ("zoe", "mal", "jayne", "reaver")
    state = declare(state, "reaver", "Пожиратель")
    state, zoe = roll_for(state, "zoe", ScriptedSource([6, 5, 6]))
    state, mal = roll_for(state, "mal", ScriptedSource([2, 3, 4, 1]))
    state, jayne = roll_for(state, "jayne", ScriptedSource([5, 5, 5]))
    assert [(o.notation, o.counted) for o in (zoe, mal, jayne)] == [
        ("6*(3d6>=6)", 12),
        ("4d6", 10),
        ("6*(3d6>=6)", 0),
    ]
    state, outcome = roll_for(state, "reaver", ScriptedSource([4, 4, 4, 4, 4, 1]))
    assert outcome.resolution is not None
    assert (outcome.resolution.attacker_total, outcome.resolution.defender_total) == (22, 21)
    assert _current(state, "reaver", "Пожиратель") == 5


def test_team_damage_goes_where_the_gm_says() -> None:
    # «Если команда проигрывает раунд, у одного из ее членов (на выбор мастера) списывают одну
    # (или три!) кости»
    state = _team_loses(_team(_crew()))
    with pytest.raises(RuleViolation) as caught:
        open_round(state, "reaver", "serenity")
    assert caught.value.msg.key == "cliche.fight.damage_pending"
    _round_trip(state)
    state, assigned = assign_damage(state, "jayne")
    assert [(r.fighter, r.dice) for r in assigned.losses] == [("jayne", 1)]
    assert _current(state, "jayne", "Наёмник") == 2
    assert state.pending is None


def test_shielding_doubles_and_the_leader_avenges() -> None:
    # «Любой член команды может закрыть собой товарища и получить его вред себе в двойном
    # объеме … а лидер команды кидает в два раза больше костей на следующей атаке»
    state = _team_loses(_team(_crew()))
    state, assigned = assign_damage(state, "jayne", shield_by="zoe")
    assert [(r.fighter, r.dice, r.reason) for r in assigned.losses] == [
        ("zoe", 2, LossReason.SHIELD)
    ]
    assert _current(state, "zoe", "Солдат") == 1
    assert _current(state, "jayne", "Наёмник") == 3
    team = state.team("serenity")
    assert team is not None and team.double_next
    state = open_round(state, "serenity", "reaver")
    state, outcome = roll_for(state, "mal", ScriptedSource([1] * 8))
    assert outcome.notation == "8d6"
    team = state.team("serenity")
    assert team is not None and not team.double_next


def test_disbanding_costs_everyone_a_die() -> None:
    # «Команда может самораспуститься в любой момент между бросками. Это одномоментно понижает
    # их клише на одну кость.»
    state, broken = disband_team(_team(_crew()), "serenity")
    assert [(r.fighter, r.dice, r.reason) for r in broken.losses] == [
        ("zoe", 1, LossReason.DISBAND),
        ("mal", 1, LossReason.DISBAND),
        ("jayne", 1, LossReason.DISBAND),
    ]
    assert state.teams == ()
    assert _current(state, "mal", "Капитан") == 3
    # «После этого распущенные члены команды могут образовывать новые команды.»
    state, formed = form_team(state, "pair", [("zoe", "Солдат"), ("jayne", "Наёмник")])
    assert formed.leader == "zoe"


def test_leaving_alone_drops_to_zero() -> None:
    # «Отдельные личности также могут выпадать из команды, но это моментально приводит их в
    # состояние нуля костей и их судьбу будет решать победитель.»
    state, broken = leave_team(_team(_crew()), "serenity", "jayne")
    assert [(r.fighter, r.dice, r.reason) for r in broken.losses] == [
        ("jayne", 3, LossReason.LEFT_TEAM)
    ]
    assert state.fighter("jayne").out
    assert not broken.dissolved
    team = state.team("serenity")
    assert team is not None and [m.fighter for m in team.members] == ["zoe", "mal"]


def test_the_leader_leaving_frees_everyone() -> None:
    # «Если лидер команды покидает ее … все члены команды немедленно отнимают одну кость, как
    # если бы команда была распущена и считаются свободными.»
    state, broken = leave_team(_team(_crew()), "serenity", "mal")
    assert [(r.fighter, r.dice, r.reason) for r in broken.losses] == [
        ("mal", 4, LossReason.LEFT_TEAM),
        ("zoe", 1, LossReason.LEADER_LOST),
        ("jayne", 1, LossReason.LEADER_LOST),
    ]
    assert broken.dissolved and state.teams == ()
    assert broken.out == ("mal",)


def test_leader_falls_shielding_and_the_new_leader_avenges() -> None:
    # «Если старый лидер был устранен из поединка, пожертвовав собой для персонального вреда,
    # новый лидер получает свой двойной бросок, дабы отомстить за предшественника.»
    state = start_fight(
        [
            _fighter("mal", "crew", ("Капитан", 2)),
            _fighter("zoe", "crew", ("Солдат", 2)),
            _fighter("jayne", "crew", ("Наёмник", 2)),
            _fighter("reaver", "reavers", ("Пожиратель", 6)),
        ]
    )
    state, formed = form_team(
        state, "serenity", [("mal", "Капитан"), ("zoe", "Солдат"), ("jayne", "Наёмник")]
    )
    state = open_round(state, "reaver", "serenity")
    state = declare(state, "reaver", "Пожиратель")
    for key, faces in (("mal", [1, 1]), ("zoe", [1, 1]), ("jayne", [1, 1])):
        state, _ = roll_for(state, key, ScriptedSource(faces))
    state, _ = roll_for(state, "reaver", ScriptedSource([2] * 6))
    state, assigned = assign_damage(state, "zoe", shield_by="mal")
    assert assigned.out == ("mal",)
    assert assigned.dissolved_teams == ("serenity",)
    assert [(r.fighter, r.dice, r.reason) for r in assigned.losses] == [
        ("mal", 2, LossReason.SHIELD)
    ]
    assert (_current(state, "zoe", "Солдат"), _current(state, "jayne", "Наёмник")) == (1, 1)
    assert state.teams == ()
    state, formed = form_team(state, "avengers", [("zoe", "Солдат"), ("jayne", "Наёмник")])
    assert formed.double_next
    state = open_round(state, "avengers", "reaver")
    state = declare(state, "reaver", "Пожиратель")
    state, outcome = roll_for(state, "zoe", ScriptedSource([6, 6]))
    assert outcome.notation == "2d6"


def test_vehicle_hull_absorbs_first() -> None:
    # «Получаемые повреждения принимают на себя кости транспортного средства, когда они
    # иссякнут, транспорт считается поврежденным и повреждения получает уже сам персонаж.»
    # «Транспортные Средства и Техника дают Клише брони и оружейные Бонусные Кости за каждую
    # боевую систему»
    mule = vehicle_fighter(
        key="mule",
        name="Мул",
        side="crew",
        armor_dice=2,
        weapons=[("Пулемёт", 2)],
        armor_name="Корпус",
    )
    wash = _fighter("wash", "crew", ("Пилот", 4))
    reaver = _fighter("reaver", "reavers", ("Пожиратель", 6))
    state = start_fight([mule, wash, reaver])
    state, formed = form_team(state, "mule-crew", [("mule", "Корпус"), ("wash", "Пилот")])
    assert formed.leader == "wash"
    # «наводчик должен использовать любое подходящие под вооружение техники клише, плюс
    # Бонусные Кости, непосредственно за само используемое оружие»
    state = open_round(state, "mule-crew", "reaver", graded=True)
    assert waiting_for(state) == ("wash", "reaver")
    with pytest.raises(RuleViolation) as caught:
        declare(state, "wash", "Пилот", weapon="Пушка")
    assert caught.value.msg.key == "cliche.fight.no_weapon"
    state = declare(state, "wash", "Пилот", weapon="Пулемёт")
    state = declare(state, "reaver", "Пожиратель")
    state, outcome = roll_for(state, "wash", ScriptedSource([1] * 6))
    assert outcome.notation == "6d6"
    state, outcome = roll_for(state, "reaver", ScriptedSource([3] * 6))
    assert outcome.resolution is not None
    assert outcome.resolution.damage.winner is RoundWinner.DEFENDER
    assert state.pending is not None and state.pending.suggested == "mule"
    state, _ = assign_damage(state, "mule")
    assert _current(state, "mule", "Корпус") == 1
    # a graded hit of 1d6 = 4: the hull takes 1, the rest waits for the GM
    state = open_round(state, "reaver", "mule-crew", graded=True)
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "wash", ScriptedSource([1, 1, 1, 1]))
    state, _ = roll_for(state, "reaver", ScriptedSource([2, 2, 2, 2, 2, 2, 4]))
    with pytest.raises(RuleViolation) as caught:
        assign_damage(state, "wash", shield_by="mule")
    assert caught.value.msg.key == "cliche.fight.vehicle_cannot_shield"
    state, assigned = assign_damage(state, "mule")
    assert (assigned.remaining, _current(state, "mule", "Корпус")) == (3, 0)
    assert state.pending is not None and state.pending.suggested is None
    with pytest.raises(RuleViolation) as caught:
        assign_damage(state, "mule")
    assert caught.value.msg.key == "cliche.fight.no_armor_left"
    state, assigned = assign_damage(state, "wash")
    assert _current(state, "wash", "Пилот") == 1
    assert not state.fighter("mule").out


@pytest.mark.parametrize(
    ("action", "key"),
    [
        (lambda s: open_round(s, "mal", "zoe"), "cliche.fight.same_side"),
        (lambda s: open_round(s, "mal", "nobody"), "cliche.fight.unknown_unit"),
        (lambda s: declare(s, "mal", "Капитан"), "cliche.fight.no_round"),
        (lambda s: assign_damage(s, "mal"), "cliche.fight.no_damage_pending"),
        (
            lambda s: form_team(s, "t", [("mal", "Капитан"), ("reaver", "Пожиратель")]),
            "cliche.team.mixed_sides",
        ),
        (
            lambda s: form_team(s, "mal", [("mal", "Капитан"), ("zoe", "Солдат")]),
            "cliche.fight.duplicate_key",
        ),
        (
            lambda s: form_team(s, "t", [("mal", "Капитан"), ("mal", "Капитан")]),
            "cliche.fight.duplicate_key",
        ),
        (lambda s: form_team(s, "t", [("mal", "Капитан")]), "cliche.team.too_small"),
        (lambda s: cancel_round(s), "cliche.fight.no_round"),
    ],
)
def test_refused_steps(action: Callable[[FightState], object], key: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        action(_crew())
    assert caught.value.msg.key == key


def test_refused_round_steps() -> None:
    state = open_round(_duel(), "mal", "reaver")
    with pytest.raises(RuleViolation) as caught:
        roll_for(state, "mal", ScriptedSource([1]))
    assert caught.value.msg.key == "cliche.fight.not_declared"
    state = declare(state, "mal", "Капитан")
    state, _ = roll_for(state, "mal", ScriptedSource([1, 1, 1, 1]))
    for step in (
        lambda: roll_for(state, "mal", ScriptedSource([1])),
        lambda: declare(state, "mal", "Трус"),
    ):
        with pytest.raises(RuleViolation) as caught:
            step()
        assert caught.value.msg.key == "cliche.fight.already_rolled"
    with pytest.raises(RuleViolation) as caught:
        open_round(state, "mal", "reaver")
    assert caught.value.msg.key == "cliche.fight.round_open"


def test_team_member_keeps_the_team_cliche() -> None:
    state = start_fight(
        [
            _fighter("mal", "crew", ("Капитан", 4), ("Трус", 1)),
            _fighter("zoe", "crew", ("Солдат", 3)),
            _fighter("reaver", "reavers", ("Пожиратель", 6)),
        ]
    )
    state, _ = form_team(state, "pair", [("mal", "Капитан"), ("zoe", "Солдат")])
    with pytest.raises(RuleViolation) as caught:
        open_round(state, "mal", "reaver")
    assert caught.value.msg.key == "cliche.fight.in_team"
    state = open_round(state, "pair", "reaver")
    with pytest.raises(RuleViolation) as caught:
        declare(state, "mal", "Трус")
    assert caught.value.msg.key == "cliche.fight.team_cliche_fixed"
    state = declare(state, "mal", "Капитан", pump=1)
    state, outcome = roll_for(state, "mal", ScriptedSource([1] * 5))
    assert outcome.notation == "5d6"


def test_after_the_fight_the_sheet_keeps_the_losses_until_recovery() -> None:
    state = open_round(_duel(), "mal", "reaver")
    state = declare(state, "mal", "Капитан")
    state = declare(state, "reaver", "Пожиратель")
    state, _ = roll_for(state, "mal", ScriptedSource([1, 1, 1, 1]))
    state, _ = roll_for(state, "reaver", ScriptedSource([6, 6, 6]))
    state = end_fight(state, winner_side="reavers")
    assert state.finished and state.winner_side == "reavers"
    sheet: Character = make_character("mal", ("Капитан", 4), ("Трус", 1))
    sheet, changes = apply_to_character(sheet, state.fighter("mal"))
    assert [(c.field, c.before, c.after) for c in changes] == [("cliches.Капитан.lost", 0, 1)]
    assert sheet.cliche("Капитан").current == 3
    sheet, _ = recover(sheet, ClicheOptions())
    assert sheet.cliche("Капитан").current == 4


def test_inappropriate_team_wins_big() -> None:
    # «…парикмахер, дрессировщик попугаев и советник по карьере, если они по-настоящему хорошо
    # объяснят, как они это делают. Особенно с учетом того, что их противники солдаты.»
    state = start_fight(
        [
            _fighter("barber", "crew", ("Парикмахер", 4), inappropriate=("Парикмахер",)),
            _fighter("trainer", "crew", ("Дрессировщик", 2), inappropriate=("Дрессировщик",)),
            _fighter("soldier", "alliance", ("Солдат", 4)),
        ]
    )
    state, formed = form_team(
        state, "salon", [("barber", "Парикмахер"), ("trainer", "Дрессировщик")]
    )
    assert formed.leader == "barber"
    state = open_round(state, "salon", "soldier")
    assert state.exchange is not None and state.exchange.declarations == ()
    state = declare(state, "barber", "Парикмахер", gm_penalty=1)
    state = declare(state, "trainer", "Дрессировщик", gm_penalty=0)
    state = declare(state, "soldier", "Солдат")
    state, barber = roll_for(state, "barber", ScriptedSource([5, 5, 5]))
    state, trainer = roll_for(state, "trainer", ScriptedSource([6, 1]))
    assert (barber.notation, trainer.notation) == ("3d6", "6*(2d6>=6)")
    state, outcome = roll_for(state, "soldier", ScriptedSource([4, 4, 4, 4]))
    assert outcome.resolution is not None
    assert (outcome.resolution.attacker_total, outcome.resolution.defender_total) == (21, 16)
    assert outcome.resolution.damage.kind is LossKind.INAPPROPRIATE
    assert _current(state, "soldier", "Солдат") == 1


def test_losing_team_pays_its_pumps_after_the_damage() -> None:
    state = _team(_crew())
    state = open_round(state, "reaver", "serenity")
    state = declare(state, "reaver", "Пожиратель")
    state = declare(state, "mal", "Капитан", pump=2)
    state, _ = roll_for(state, "mal", ScriptedSource([1] * 6))
    state, _ = roll_for(state, "zoe", ScriptedSource([1, 1, 1]))
    state, _ = roll_for(state, "jayne", ScriptedSource([1, 1, 1]))
    state, outcome = roll_for(state, "reaver", ScriptedSource([6] * 6))
    assert outcome.resolution is not None and outcome.resolution.losses == ()
    assert state.pending is not None
    assert [(p.fighter, p.dice) for p in state.pending.pumps] == [("mal", 2)]
    assert _current(state, "mal", "Капитан") == 4  # the team still stands while the GM chooses
    state, assigned = assign_damage(state, "zoe")
    assert [(r.fighter, r.dice, r.reason) for r in assigned.losses] == [
        ("zoe", 1, LossReason.ROUND),
        ("mal", 2, LossReason.PUMP),
    ]
    assert _current(state, "mal", "Капитан") == 2


def test_double_roll_survives_an_inappropriate_leader_declaring_late() -> None:
    state = start_fight(
        [
            _fighter("barber", "crew", ("Парикмахер", 3), inappropriate=("Парикмахер",)),
            _fighter("trainer", "crew", ("Дрессировщик", 2), inappropriate=("Дрессировщик",)),
            _fighter("adviser", "crew", ("Советник", 2), inappropriate=("Советник",)),
            _fighter("soldier", "alliance", ("Солдат", 6)),
        ]
    )
    members = [("barber", "Парикмахер"), ("trainer", "Дрессировщик"), ("adviser", "Советник")]
    state, _ = form_team(state, "salon", members)
    state = open_round(state, "soldier", "salon")
    state = declare(state, "soldier", "Солдат")
    for key, cliche in members:
        state = declare(state, key, cliche, gm_penalty=0)
    state, _ = roll_for(state, "barber", ScriptedSource([1, 1, 1]))
    state, _ = roll_for(state, "trainer", ScriptedSource([1, 1]))
    state, _ = roll_for(state, "adviser", ScriptedSource([1, 1]))
    state, _ = roll_for(state, "soldier", ScriptedSource([2] * 6))
    state, assigned = assign_damage(state, "adviser", shield_by="trainer")
    assert assigned.out == ("trainer",)
    team = state.team("salon")
    assert team is not None and team.double_next
    assert [m.fighter for m in team.members] == ["barber", "adviser"]
    state = open_round(state, "salon", "soldier")
    state = declare(state, "barber", "Парикмахер", gm_penalty=0)
    state = declare(state, "adviser", "Советник", gm_penalty=0)
    state, outcome = roll_for(state, "barber", ScriptedSource([1] * 6))
    assert outcome.notation == "6d6"
    state, outcome = roll_for(state, "adviser", ScriptedSource([1, 1]))
    assert outcome.notation == "6*(2d6>=6)"


def test_cancel_round_changes_nothing_but_the_round() -> None:
    before = _duel()
    state = open_round(before, "mal", "reaver")
    state = declare(state, "mal", "Капитан")
    assert cancel_round(state) == before


def test_negative_pump_is_refused() -> None:
    state = open_round(_duel(), "mal", "reaver")
    with pytest.raises(RuleViolation) as caught:
        declare(state, "mal", "Капитан", pump=-1)
    assert caught.value.msg.key == "cliche.roll.negative"


def test_a_cliche_without_its_tools_cannot_join_a_team() -> None:
    hacker = make_character("river", ("Хакер", 3)).model_copy(
        update={
            "cliches": (
                Cliche(
                    name="Хакер",
                    dice=3,
                    tools=(Tool(name="Лаптоп", present=False, when_missing=ToolEffect.DISABLED),),
                ),
            )
        }
    )
    state = start_fight(
        [
            fighter_from_character(hacker, key="river", side="crew", appropriate=["Хакер"]),
            _fighter("simon", "crew", ("Хакер", 2)),
            _fighter("ice", "alliance", ("Защита", 4)),
        ]
    )
    with pytest.raises(RuleViolation) as caught:
        form_team(state, "t", [("river", "Хакер"), ("simon", "Хакер")])
    assert caught.value.msg.key == "cliche.roll.cliche_unusable"
    state = open_round(state, "river", "ice")
    with pytest.raises(RuleViolation) as caught:
        declare(state, "river", "Хакер")
    assert caught.value.msg.key == "cliche.roll.cliche_unusable"


# --- newcomers and leavers (issue 24 item 2) ---------------------------------------------------


def test_a_newcomer_joins_from_the_next_round() -> None:
    state = open_round(_duel(), "mal", "reaver")
    state = join_fight(state, _fighter("zoe", "crew", ("Солдат", 3)))
    assert [f.key for f in state.fighters] == ["mal", "reaver", "zoe"]
    assert waiting_for(state) == ("mal", "reaver")  # the open round is not theirs
    _round_trip(state)
    with pytest.raises(RuleViolation):
        join_fight(state, _fighter("zoe", "crew", ("Солдат", 3)))
    with pytest.raises(RuleViolation):
        join_fight(end_fight(state), _fighter("kaylee", "crew", ("Механик", 3)))


def test_a_leaver_goes_between_rolls_and_loses_nothing() -> None:
    state = join_fight(_duel(), _fighter("zoe", "crew", ("Солдат", 3)))
    opened = open_round(state, "mal", "reaver")
    left = withdraw(opened, "zoe")  # not in the open round: it goes on
    assert [f.key for f in left.fighters] == ["mal", "reaver"] and left.exchange is not None
    # in the open round with no roll made: the round is withdrawn with them
    gone = withdraw(opened, "mal")
    assert gone.exchange is None and gone.round == 0 and not gone.finished
    # a roll made: the round is finished first
    rolled, _ = roll_for(declare(opened, "mal", "Капитан"), "mal", ScriptedSource([3, 3, 3, 3]))
    with pytest.raises(RuleViolation):
        withdraw(rolled, "mal")
    # a side with nobody left standing loses
    alone = withdraw(_duel(), "reaver")
    assert alone.finished and alone.winner_side == "crew"


def test_a_team_member_leaves_its_team_first() -> None:
    state = _team(_crew())
    with pytest.raises(RuleViolation):
        withdraw(state, "zoe")
