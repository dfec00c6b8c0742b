"""Every worked example of seed 001 («жизни = снаряжение»), quoted, as a test."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems.lifegear import (
    Item,
    ItemKind,
    ItemState,
    LifegearRuleViolation,
    LifeStatus,
    Monster,
    MonsterSpecial,
    RollPlan,
    SpecialTiming,
    capacity_excess,
    damage_options,
    drop_item,
    end_turn,
    fast_attack,
    find_item,
    full_rest,
    gain_item,
    life_status,
    lives,
    pvp_round,
    repair_item,
    roll,
    special_damage,
    start_pvp,
    stop_fight,
    take_damage,
    take_monster_ability,
    use_item,
)
from engine.systems.lifegear.combat import CombatMode

from .factory import BOW, FORESIGHT, KNIFE, LEATHER, PATRON, ROPE, SHIELD, archer

SHOOT = RollPlan(stat="Стрельба", weapon="bow")


def test_fast_combat_bow_hits_exactly() -> None:
    # «На вас бросается чудовище с уровнем защиты (сложность) 10. Вы стреляете в него из лука,
    # используя ... свою Ловкость или Стрельбу + 1d6. Если Стрельба у вас 1d8+3, то вам нужно
    # бросить: 1d8+1d6+3. Выпало: 6+1+3 = 10. Вам едва хватило, чтобы положить чудовище.
    # Сами вы не пострадали.»
    hero = archer()
    after, outcome = fast_attack(hero, SHOOT, ScriptedSource([6, 1]), defence=10)
    assert outcome.notation == "1d8+1d6+3"
    assert outcome.faces == (6, 1)
    assert outcome.total == 10
    assert outcome.defeated
    assert outcome.damage == 0
    assert lives(after) == lives(hero) == 9


def test_fast_combat_bow_falls_short_by_three() -> None:
    # «Если бы выпало, скажем: 3+1+3 = 7, то 10 - 7 = 3. Чудище невредимо, а вы понесли урон 3.»
    hero = archer()
    _, outcome = fast_attack(hero, SHOOT, ScriptedSource([3, 1]), defence=10)
    assert (outcome.notation, outcome.faces, outcome.total) == ("1d8+1d6+3", (3, 1), 7)
    assert not outcome.defeated
    assert outcome.damage == 3


def test_damage_three_without_armor_takes_three_items() -> None:
    # «Если, как в примере, урон равен 3 и ... никакой брони нет, то нужно выбрать три пункта из
    # снаряжения, которые персонаж теряет. Если пункт вещественный (броня, оружие, вещи с
    # параметрами) - ... сломаны. ... Если же пункт невещественный (способности, Помощь) -
    # персонаж ранен ... не может использовать выбранную возможность вплоть до полноценного
    # отдыха.»
    hero = archer(BOW, KNIFE, ROPE, FORESIGHT, PATRON, max_lives=5)
    options = damage_options(hero, 3)
    assert (options.must_choose, options.unabsorbed) == (3, 0)
    assert options.candidates == ("bow", "knife", "rope", "foresight", "patron")
    after, outcome = take_damage(hero, 3, absorb=("knife", "rope", "foresight"))
    assert outcome.broken == ("knife", "rope")
    assert outcome.wounded == ("foresight",)
    assert (outcome.lives_before, outcome.lives_after) == (5, 2)
    assert find_item(after, "foresight").state is ItemState.SPENT
    rested, _ = full_rest(after)
    assert find_item(rested, "foresight").state is ItemState.READY
    assert find_item(rested, "knife").state is ItemState.BROKEN
    assert lives(rested) == 3


def test_rarely_an_item_is_lost_not_broken() -> None:
    # «В редких случаях может быть так, что вещь остаётся целой, но отныне утеряна персонажем.»
    hero = archer(BOW, ROPE, max_lives=2)
    after, outcome = take_damage(hero, 1, absorb=("rope",), lose_instead_of_break=("rope",))
    assert outcome.lost == ("rope",)
    assert find_item(after, "rope").state is ItemState.LOST
    assert lives(repair_item(after, "rope")) == 2


def test_using_an_ability_costs_a_life_until_full_rest() -> None:
    # «использовали одну способность - вплоть до полноценного отдыха, у вас на 1 меньше жизней.»
    hero = archer()
    after, outcome = use_item(hero, "foresight")
    assert (outcome.lives_before, outcome.lives_after) == (9, 8)
    rested, _ = full_rest(after)
    assert lives(rested) == 9


def test_breaking_a_weapon_costs_a_life_and_repair_gives_it_back() -> None:
    # «Сломали оружие - ещё на 1. Получили новое оружие или починили старое - число жизней
    # возрастает на 1, но никогда к концу хода не превышает максимум "роли".»
    hero = archer()
    broken, _ = take_damage(hero, 1, absorb=("bow",))
    assert lives(broken) == 8
    repaired = repair_item(broken, "bow")
    assert lives(repaired) == 9
    end_turn(repaired)


def test_new_weapon_at_max_must_drop_or_use_something() -> None:
    # «Если жизней и так максимум, что что-то придётся выложить или использовать, чтобы эту
    # верёвку взять и применить.»
    hero = archer(BOW, KNIFE, max_lives=2)
    rope = Item(id="rope2", name="Верёвка из сорочек", kind=ItemKind.ITEM)
    overfull = gain_item(hero, rope)
    assert lives(overfull) == 3
    assert capacity_excess(overfull) == 1
    with pytest.raises(LifegearRuleViolation) as info:
        end_turn(overfull)
    assert info.value.msg.key == "lifegear.capacity.over"
    end_turn(drop_item(overfull, "knife"))


def test_use_instead_of_drop_also_makes_room() -> None:
    # «...что-то придётся выложить или использовать...»
    hero = archer(BOW, FORESIGHT, max_lives=2)
    overfull = gain_item(hero, ROPE)
    used, _ = use_item(overfull, "foresight")
    end_turn(used)
    assert lives(used) == 2


def test_monster_ability_replaces_an_item() -> None:
    # «если вы их принимаете, они занимают место какого-то пункта в прежнем снаряжении. Если вы
    # поставили новую способность на место прежней, после полноценного отдыха у вас теперь будет
    # восстанавливаться новая способность, а не прежняя. Та утрачена.»
    hero = archer(BOW, FORESIGHT, max_lives=2)
    used, _ = use_item(hero, "foresight")
    venom = Item(id="venom", name="Яд паука", kind=ItemKind.ABILITY, from_monster="Паук")
    taken = take_monster_ability(used, venom, replace_id="foresight")
    assert [item.id for item in taken.gear] == ["bow", "venom"]
    assert lives(taken) == lives(used) == 1
    rested, _ = full_rest(taken)
    assert find_item(rested, "venom").state is ItemState.READY
    assert lives(rested) == 2


def test_two_usable_items_and_damage_three_make_lives_negative() -> None:
    # SPEC restating the seed: «2 usable items, damage 3 → lives −1 → death rules»;
    # seed: «несовместимых с жизнью травм вы не получаете, пока число ваших жизней не ушло в минус»
    hero = archer(BOW, KNIFE, max_lives=2)
    options = damage_options(hero, 3)
    assert (options.must_choose, options.unabsorbed) == (2, 1)
    after, outcome = take_damage(hero, 3, absorb=("bow", "knife"))
    assert outcome.lives_after == -1
    assert outcome.status is LifeStatus.DYING
    exactly_zero, _ = take_damage(hero, 2, absorb=("bow", "knife"))
    assert lives(exactly_zero) == 0
    assert life_status(exactly_zero) is LifeStatus.ALIVE
    assert life_status(after) is LifeStatus.DYING


@pytest.mark.parametrize(
    ("item", "damage", "lives_after"),
    [
        # «Броня может позволить снизить урон» — reduce by 1: armor spent (−1) + 2 items
        (LEATHER, 3, 9 - 1 - 2),
        # «Иногда она позволяет снять его весь, но тогда сама приходит в негодность.»
        (SHIELD, 3, 9 - 1),
    ],
)
def test_armor_behaviours(item: Item, damage: int, lives_after: int) -> None:
    hero = archer()
    options = damage_options(hero, damage, protections=(item.id,))
    absorb = options.candidates[: options.must_choose]
    after, outcome = take_damage(hero, damage, protections=(item.id,), absorb=absorb)
    assert outcome.lives_after == lives(after) == lives_after


def test_armor_works_when_surprised() -> None:
    # «Само собой, если на вас броня - она работает даже тогда, когда вас застали врасплох.»
    # Damage taken in a surprise round is absorbed the same way: the shield takes it all.
    hero = archer()
    fight = start_pvp("Злодей", hero.name, surprise=True, first_round=CombatMode.FAST)
    villain = archer(name="Злодей")
    _, _, hero_after, outcome = pvp_round(
        fight, villain, hero, SHOOT, RollPlan(stat="Сила"), ScriptedSource([8, 6, 1])
    )
    assert outcome.loser == hero.name
    assert outcome.damage == (8 + 6 + 3) - (1 + 1)
    after, result = take_damage(hero_after, outcome.damage, protections=("shield",))
    assert result.lives_after == 8
    assert find_item(after, "shield").state is ItemState.BROKEN


def test_surprised_may_use_help_and_weapon_in_hand_only() -> None:
    # «те, кого застали врасплох, могут использовать Помощь и оружие (если уже держали его в
    # руках) для своего встречного броска. Те же, кто ошеломлён не был, могут использовать всё»
    hero = archer()
    allowed = RollPlan(stat="Сила", weapon="knife", boosts=("patron",))
    _, rolled = roll(hero, allowed, ScriptedSource([2, 3, 4]), surprised=True)
    assert rolled.notation == "1d4+1d4+1d6+1"
    for plan in (
        RollPlan(stat="Стрельба", weapon="bow"),  # the bow is not in hand
        RollPlan(stat="Сила", boosts=("foresight",)),  # no abilities
        RollPlan(stat="Сила", boosts=("rope",)),  # nor other items
    ):
        with pytest.raises(LifegearRuleViolation) as info:
            roll(hero, plan, ScriptedSource([1, 1, 1]), surprised=True)
        assert info.value.msg.key == "lifegear.surprise.forbidden"
    # not surprised: everything goes
    _, free = roll(hero, RollPlan("Стрельба", "bow", ("foresight",)), ScriptedSource([1, 1, 1]))
    assert free.total == 1 + 1 + 1 + 3


def test_pvp_difference_is_damage_either_way() -> None:
    # «Если бросок нападающего превысил бросок защищающегося, разница становится уроном
    # защищающемуся. И наоборот.»
    villain, hero = archer(name="Злодей"), archer()
    fight = start_pvp("Злодей", hero.name, surprise=True, first_round=CombatMode.FAST)
    _, _, _, outcome = pvp_round(
        fight,
        villain,
        hero,
        RollPlan("Сила"),
        RollPlan("Сила", "knife"),
        ScriptedSource([1, 4, 4]),
    )
    assert outcome.mode is CombatMode.FAST
    assert (outcome.attacker_roll.total, outcome.defender_roll.total) == (2, 9)
    assert (outcome.loser, outcome.damage) == ("Злодей", 7)
    assert outcome.notation == "1d4+1 vs 1d4+1d4+1"
    assert outcome.faces == (1, 4, 4)


def test_duel_deals_one_and_the_winner_may_stop() -> None:
    # «тот, чей бросок оказался выше, наносит урон не во всю разницу, а всегда на 1 жизнь ...
    # они могут остановиться раньше, чем убьют соперника.»
    villain, hero = archer(name="Злодей"), archer()
    fight = start_pvp("Злодей", hero.name)
    fight, villain, hero, outcome = pvp_round(
        fight, villain, hero, SHOOT, SHOOT, ScriptedSource([8, 6, 1, 1])
    )
    assert (outcome.mode, outcome.winner, outcome.loser, outcome.damage) == (
        CombatMode.DUEL,
        "Злодей",
        hero.name,
        1,
    )
    with pytest.raises(LifegearRuleViolation):
        stop_fight(fight, by=hero.name)
    assert stop_fight(fight, by="Злодей").over


def test_ambush_becomes_a_duel_from_round_two() -> None:
    # «Во втором раунде герой уже опомнился и осознал ситуацию, так что с этого момента может
    # использовать всё своё снаряжение.» «(2) Дуэль - ... начиная со второго раунда, в случае
    # вероломного нападения.»
    villain, hero = archer(name="Злодей"), archer()
    fight = start_pvp("Злодей", hero.name, surprise=True, first_round=CombatMode.FAST)
    counter = RollPlan("Стрельба", "bow", ("foresight",))
    with pytest.raises(LifegearRuleViolation):
        pvp_round(fight, villain, hero, SHOOT, counter, ScriptedSource([1, 1, 1, 1, 1]))
    fight, villain, hero, first = pvp_round(
        fight, villain, hero, SHOOT, RollPlan("Сила"), ScriptedSource([1, 1, 1])
    )
    assert first.mode is CombatMode.FAST
    fight, villain, hero, second = pvp_round(
        fight, villain, hero, SHOOT, counter, ScriptedSource([1, 1, 8, 6, 4])
    )
    assert second.mode is CombatMode.DUEL
    assert (second.winner, second.damage) == (hero.name, 1)
    assert find_item(hero, "foresight").state is ItemState.SPENT


def test_monster_special_extra_damage_before_or_after() -> None:
    # «У некоторых чудовищ есть особые способности - например, дополнительный урон до или после
    # поединка.»
    spider = Monster(
        name="Паук",
        defence=10,
        specials=(
            MonsterSpecial(name="Прыжок", timing=SpecialTiming.BEFORE_FIGHT, damage=1),
            MonsterSpecial(name="Яд", timing=SpecialTiming.AFTER_FIGHT, damage=2),
        ),
    )
    assert special_damage(spider, SpecialTiming.BEFORE_FIGHT) == 1
    assert special_damage(spider, SpecialTiming.AFTER_FIGHT) == 2


def test_duel_damage_one_leaves_four_lives() -> None:
    # «если урон был 1 и у противника осталось 4 жизни» — a 5-life opponent after 1 damage.
    opponent = archer(BOW, KNIFE, LEATHER, FORESIGHT, PATRON, max_lives=5)
    after, outcome = take_damage(opponent, 1, absorb=("patron",))
    assert outcome.lives_after == 4
    assert lives(after) == 4
