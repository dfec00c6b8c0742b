"""Every user-facing text of the ``cliche`` system (Russian first, then English)."""

from __future__ import annotations

from typing import Final

from engine.text import register_messages

MESSAGES: Final[dict[str, dict[str, str]]] = {
    # creation
    "cliche.creation.name_empty": {
        "ru": "У персонажа должно быть имя.",
        "en": "The character needs a name.",
    },
    "cliche.creation.attribute_range": {
        "ru": "Атрибут «{attribute}» должен быть от {low} до {high} (сейчас {value}).",
        "en": "Attribute “{attribute}” must be {low}..{high} (now {value}).",
    },
    "cliche.creation.attribute_points": {
        "ru": "Очков на атрибуты нужно распределить ровно {expected} (сейчас {actual}).",
        "en": "Exactly {expected} attribute points must be spent (now {actual}).",
    },
    "cliche.creation.no_cliches": {
        "ru": "Нужно хотя бы одно клише.",
        "en": "At least one cliché is needed.",
    },
    "cliche.creation.cliche_name_empty": {
        "ru": "У клише №{index} нет названия.",
        "en": "Cliché #{index} has no name.",
    },
    "cliche.creation.duplicate_name": {
        "ru": "Клише «{name}» встречается дважды.",
        "en": "Cliché “{name}” appears twice.",
    },
    "cliche.creation.cliche_too_low": {
        "ru": "В клише «{name}» должна быть хотя бы одна кость.",
        "en": "Cliché “{name}” needs at least one die.",
    },
    "cliche.creation.cliche_too_high": {
        "ru": "Клише «{name}» ({dice}) выше {cap}: при создании костей в клише не больше {cap}.",
        "en": "Cliché “{name}” ({dice}) is above {cap}: no more than {cap} dice at creation.",
    },
    "cliche.creation.too_many_at_cap": {
        "ru": "Клише на уровне {cap} может быть не больше {allowed} (сейчас {count}).",
        "en": "At most {allowed} clichés may be at {cap} (now {count}).",
    },
    "cliche.creation.novice": {
        "ru": "Персонаж не должен быть новичком: нужно хотя бы одно клише на {minimum}+.",
        "en": "The character must not be a novice: at least one cliché at {minimum}+.",
    },
    "cliche.creation.over_budget": {
        "ru": "Костей в клише: {total}, а выдано: {budget} ({base} + {bonus} от мастера).",
        "en": "Clichés hold {total} dice, but {budget} were given ({base} + {bonus} by the GM).",
    },
    # the wizard's caps on what one press adds (``allocation``)
    "cliche.creation.enough_cliches": {
        "ru": "Для одного персонажа клише уже достаточно.",
        "en": "That is enough clichés for one character.",
    },
    "cliche.creation.dice_spent": {
        "ru": "Кости кончились (выдано: {budget}): сначала заберите кость у другого клише, "
        "а бонусные кости может дать мастер.",
        "en": "All {budget} dice are spent: take a die from a cliché first "
        "(the GM may grant bonus dice).",
    },
    "cliche.creation.enough_tools": {
        "ru": "Для одного клише орудий труда уже достаточно.",
        "en": "That is enough tools for one cliché.",
    },
    "cliche.creation.enough_hooks": {
        "ru": "Зацепок уже достаточно; сначала уберите одну.",
        "en": "That is enough hooks; remove one first.",
    },
    "cliche.creation.many_cliches": {
        "ru": "Клише больше {limit} ({count}) — это выглядит странно.",
        "en": "More than {limit} clichés ({count}) looks odd.",
    },
    # rolls
    "cliche.roll.unknown_cliche": {
        "ru": "У «{who}» нет клише «{name}».",
        "en": "“{who}” has no cliché “{name}”.",
    },
    "cliche.roll.no_dice": {
        "ru": "Нечего бросать: в пуле нет костей.",
        "en": "Nothing to roll: the pool has no dice.",
    },
    "cliche.roll.cliche_unusable": {
        "ru": "Клише «{name}» сейчас не работает (нет костей или орудий труда).",
        "en": "Cliché “{name}” cannot be used now (no dice left or tools missing).",
    },
    "cliche.roll.negative": {
        "ru": "Значение «{what}» не может быть отрицательным ({value}).",
        "en": "“{what}” cannot be negative ({value}).",
    },
    "cliche.roll.armor_cannot_roll": {
        "ru": "Клише брони «{name}» только поглощает урон, им не бросают.",
        "en": "Armor cliché “{name}” only absorbs damage; it is not rolled.",
    },
    "cliche.target.trivial": {"ru": "Элементарно просто", "en": "Trivial"},
    "cliche.target.professional": {
        "ru": "Вызов для профессионала",
        "en": "A professional's challenge",
    },
    "cliche.target.heroic": {"ru": "Героический вызов", "en": "Heroic challenge"},
    "cliche.target.master": {"ru": "Вызов для мастера", "en": "A master's challenge"},
    "cliche.target.joking": {"ru": "Ты верно шутишь?!", "en": "You must be joking?!"},
    # teams
    "cliche.team.too_small": {
        "ru": "В команде должно быть хотя бы два участника.",
        "en": "A team needs at least two members.",
    },
    "cliche.team.mixed_appropriateness": {
        "ru": "Клише команды должны быть одинаково приемлемы (или одинаково неприемлемы).",
        "en": "A team's clichés must be equally appropriate (or equally inappropriate).",
    },
    "cliche.team.leader_not_highest": {
        "ru": "Лидером может быть только участник с самым высоким клише ({dice}).",
        "en": "Only a member with the highest cliché ({dice}) may lead.",
    },
    "cliche.team.mixed_sides": {
        "ru": "В команду можно объединиться только со своей стороной.",
        "en": "Only fighters on the same side can form a team.",
    },
    "cliche.team.no_leader": {
        "ru": "В команде нет участника, который может быть лидером.",
        "en": "No member of the team can lead it.",
    },
    # fight
    "cliche.fight.unknown_fighter": {
        "ru": "В бою нет участника «{unit}».",
        "en": "There is no fighter “{unit}” in this fight.",
    },
    "cliche.fight.unknown_unit": {
        "ru": "В бою нет участника или команды «{unit}».",
        "en": "There is no fighter or team “{unit}” in this fight.",
    },
    "cliche.fight.duplicate_key": {
        "ru": "Имя «{unit}» в бою уже занято.",
        "en": "The key “{unit}” is already taken in this fight.",
    },
    "cliche.fight.too_few_sides": {
        "ru": "Для боя нужны хотя бы две стороны.",
        "en": "A fight needs at least two sides.",
    },
    "cliche.fight.finished": {
        "ru": "Бой уже окончен.",
        "en": "The fight is over.",
    },
    "cliche.fight.round_open": {
        "ru": "Сначала нужно завершить текущий раунд.",
        "en": "Finish the current round first.",
    },
    "cliche.fight.no_round": {
        "ru": "Сейчас нет открытого раунда.",
        "en": "No round is open now.",
    },
    "cliche.fight.damage_pending": {
        "ru": "Мастер ещё не решил, кто в команде «{team}» получает урон.",
        "en": "The GM has not yet chosen who in team “{team}” takes the damage.",
    },
    "cliche.fight.no_damage_pending": {
        "ru": "Сейчас некому распределять урон.",
        "en": "There is no damage to assign now.",
    },
    "cliche.fight.same_side": {
        "ru": "«{attacker}» и «{defender}» на одной стороне.",
        "en": "“{attacker}” and “{defender}” are on the same side.",
    },
    "cliche.fight.fighter_out": {
        "ru": "«{unit}» выбыл из боя.",
        "en": "“{unit}” is out of the fight.",
    },
    "cliche.fight.in_team": {
        "ru": "«{unit}» сражается в команде «{team}».",
        "en": "“{unit}” fights in team “{team}”.",
    },
    "cliche.fight.not_in_round": {
        "ru": "«{unit}» не участвует в этом раунде.",
        "en": "“{unit}” takes no part in this round.",
    },
    "cliche.fight.not_declared": {
        "ru": "«{unit}» ещё не выбрал клише на этот раунд.",
        "en": "“{unit}” has not chosen a cliché for this round.",
    },
    "cliche.fight.already_rolled": {
        "ru": "«{unit}» уже бросил кости в этом раунде.",
        "en": "“{unit}” has already rolled this round.",
    },
    "cliche.fight.needs_gm_approval": {
        "ru": "Клише «{name}» неприемлемо в этом бою: нужен штраф от мастера.",
        "en": "Cliché “{name}” is inappropriate in this fight: the GM must set a penalty.",
    },
    "cliche.fight.team_cliche_fixed": {
        "ru": "В команде «{unit}» сражается клише «{name}».",
        "en": "In the team “{unit}” fights with cliché “{name}”.",
    },
    "cliche.fight.vehicle_cannot_roll": {
        "ru": "«{unit}» — техника: стреляет наводчик, а не сама машина.",
        "en": "“{unit}” is a vehicle: its gunner rolls, not the vehicle.",
    },
    "cliche.fight.vehicle_cannot_shield": {
        "ru": "«{unit}» — техника: закрыть собой товарища может только персонаж.",
        "en": "“{unit}” is a vehicle: only a person can shield a comrade.",
    },
    "cliche.fight.not_team_member": {
        "ru": "«{unit}» не состоит в команде «{team}».",
        "en": "“{unit}” is not a member of team “{team}”.",
    },
    "cliche.fight.no_weapon": {
        "ru": "У «{unit}» в команде нет техники с оружием «{weapon}».",
        "en": "“{unit}” has no vehicle with weapon “{weapon}” in its team.",
    },
    "cliche.fight.no_armor_left": {
        "ru": "У «{unit}» не осталось костей брони.",
        "en": "“{unit}” has no armor dice left.",
    },
    "cliche.fight.shield_self": {
        "ru": "Нельзя закрыть собой самого себя.",
        "en": "One cannot shield oneself.",
    },
    # NPC reaction
    "cliche.reaction.range": {
        "ru": "Реакция НПС должна быть от 1 до 6 (сейчас {value}).",
        "en": "An NPC's reaction must be 1..6 (now {value}).",
    },
    "cliche.reaction.1": {"ru": "дружелюбие", "en": "friendly"},
    "cliche.reaction.2": {"ru": "доброжелательность", "en": "kindly"},
    "cliche.reaction.3": {"ru": "безразличие", "en": "indifferent"},
    "cliche.reaction.4": {"ru": "недоброжелательность", "en": "unfriendly"},
    "cliche.reaction.5": {"ru": "враждебность", "en": "hostile"},
    "cliche.reaction.6": {"ru": "ненависть", "en": "hatred"},
    # change lists
    "cliche.advancement.plan": {
        "ru": "бросок развития «{name}»: {dice}d6, все чётные → +1 кость",
        "en": "advancement roll for “{name}”: {dice}d6, all even → +1 die",
    },
    "cliche.advancement.rose": {"ru": "все чётные, +1 кость", "en": "all even, +1 die"},
    "cliche.advancement.same": {"ru": "не все чётные", "en": "not all even"},
    "cliche.card.tie": {
        "ru": "Ничья: никто не выиграл, при необходимости бросайте снова.",
        "en": "Tie: nobody wins, roll again if it matters.",
    },
    "cliche.card.sixes": {"ru": "шестёрки: +{n}", "en": "sixes: +{n}"},
    "cliche.card.success": {"ru": "успех против {target}", "en": "success vs {target}"},
    "cliche.card.failure": {"ru": "неудача против {target}", "en": "failure vs {target}"},
    "cliche.card.target": {"ru": "{n} ({label})", "en": "{n} ({label})"},
    "cliche.card.member": {
        "ru": "{name}: участник команды бросает клише («Солдат»).",
        "en": "{name}: a team member rolls a cliché («Soldier»).",
    },
    # a change's name, shown as «{what}: 4 → 5»: no colon of its own (it read «Клише
    # «Солдат»: кости: 4 → 5»)
    "cliche.change.cliche_dice": {
        "ru": "Кости клише «{name}»",
        "en": "Dice of “{name}”",
    },
    "cliche.change.cliche_lost": {
        "ru": "Потерянные кости клише «{name}»",
        "en": "Lost dice of “{name}”",
    },
    # the outcome of one roll (outcomes.py)
    "cliche.reading.total": {"ru": "С бонусом: {total}", "en": "With the bonus: {total}"},
    "cliche.reading.versus": {
        "ru": "{total} против {target}{label}: {verdict}",
        "en": "{total} vs {target}{label}: {verdict}",
    },
    "cliche.reading.label": {"ru": " ({label})", "en": " ({label})"},
    "cliche.reading.none": {"ru": "", "en": ""},
    "cliche.reading.success": {"ru": "успех", "en": "success"},
    "cliche.reading.failure": {"ru": "неудача", "en": "failure"},
    # the GM's quick NPC (npc.py)
    "cliche.npc.example": {
        "ru": "Громила: Вышибала из салуна 4, Пьяница 2",
        "en": "Thug: Saloon bouncer 4, Drunkard 2",
    },
    "cliche.npc.what": {"ru": "хотя бы одно клише с числом", "en": "at least one cliché"},
}

register_messages(MESSAGES)
