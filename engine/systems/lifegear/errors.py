"""Errors and user-facing messages of the ``lifegear`` system.

All texts are registered at import time, Russian first; every failure a user can cause is a
subclass of ``EngineError`` so handlers catch exactly one class.
"""

from __future__ import annotations

from engine.errors import EngineError, RuleViolation
from engine.text import register_messages

register_messages(
    {
        # dice expressions
        "lifegear.dice.empty": {
            "ru": "Пустое выражение для кубиков.",
            "en": "The dice expression is empty.",
        },
        "lifegear.dice.bad_term": {
            "ru": "Не понимаю «{term}» в выражении «{text}»: нужны слагаемые вида 1d8 или 3.",
            "en": "Cannot read “{term}” in “{text}”: use terms like 1d8 or 3.",
        },
        "lifegear.dice.too_long": {
            "ru": "Выражение слишком длинное (предел — {limit} симв.).",
            "en": "The expression is longer than {limit} characters.",
        },
        "lifegear.dice.no_dice": {
            "ru": "В «{term}» ноль кубиков.",
            "en": "“{term}” has zero dice.",
        },
        "lifegear.dice.bad_sides": {
            "ru": "У кубика в «{term}» должно быть от {low} до {high} граней.",
            "en": "The die in “{term}” must have {low} to {high} sides.",
        },
        "lifegear.dice.too_many_dice": {
            "ru": "Слишком много кубиков: {count}, можно не больше {limit}.",
            "en": "Too many dice: {count}, at most {limit}.",
        },
        "lifegear.dice.too_many_terms": {
            "ru": "Слишком много слагаемых: можно не больше {limit}.",
            "en": "Too many terms: at most {limit}.",
        },
        "lifegear.dice.constant_too_big": {
            "ru": "Число {value} слишком велико (не больше {limit}).",
            "en": "The number {value} is too big (at most {limit}).",
        },
        # lookups
        "lifegear.item.unknown": {
            "ru": "В снаряжении нет пункта «{item}».",
            "en": "There is no gear item “{item}”.",
        },
        "lifegear.item.duplicate": {
            "ru": "Пункт снаряжения «{item}» уже есть.",
            "en": "Gear item “{item}” already exists.",
        },
        "lifegear.stat.unknown": {
            "ru": "Нет параметра «{stat}».",
            "en": "There is no stat “{stat}”.",
        },
        # rule violations
        # an item's state, inside other messages (never the enum's English value)
        "lifegear.item.state.ready": {"ru": "годно", "en": "ready"},
        "lifegear.item.state.spent": {"ru": "потрачено", "en": "spent"},
        "lifegear.item.state.broken": {"ru": "сломано", "en": "broken"},
        "lifegear.item.state.lost": {"ru": "утеряно", "en": "lost"},
        "lifegear.item.not_ready": {
            "ru": "«{item}» сейчас нельзя использовать (состояние: {state}).",
            "en": "“{item}” cannot be used now (state: {state}).",
        },
        "lifegear.item.not_a_weapon": {
            "ru": "«{item}» — не оружие.",
            "en": "“{item}” is not a weapon.",
        },
        "lifegear.item.not_a_boost": {
            "ru": "«{item}» — оружие или броня, им нельзя усилить бросок.",
            "en": "“{item}” is a weapon or armor and cannot boost a roll.",
        },
        "lifegear.item.used_twice": {
            "ru": "«{item}» указан дважды.",
            "en": "“{item}” is listed twice.",
        },
        "lifegear.item.wrong_timing": {
            "ru": "«{item}» применяется {timing} броска.",
            "en": "“{item}” is used {timing} the roll.",
        },
        "lifegear.weapon.wrong_stat": {
            "ru": "«{item}» используется с параметрами: {stats}, а не «{stat}».",
            "en": "“{item}” goes with the stats {stats}, not “{stat}”.",
        },
        "lifegear.surprise.forbidden": {
            "ru": "Застигнутый врасплох в первом раунде может использовать только Помощь, "
            "оружие в руках и надетую броню, а не «{item}».",
            "en": "A surprised character may use only Help, a weapon in hand and worn armor "
            "in round 1, not “{item}”.",
        },
        "lifegear.damage.negative": {
            "ru": "Урон не может быть отрицательным: {damage}.",
            "en": "Damage cannot be negative: {damage}.",
        },
        "lifegear.damage.wrong_count": {
            "ru": "Пунктов снаряжения нужно выбрать: {need}, выбрано: {got}.",
            "en": "Choose {need} gear items, {got} chosen.",
        },
        "lifegear.damage.no_protection": {
            "ru": "«{item}» не защищает от урона.",
            "en": "“{item}” gives no protection.",
        },
        "lifegear.damage.nothing_left": {
            "ru": "Урона уже не осталось, «{item}» не нужен.",
            "en": "No damage is left, “{item}” is not needed.",
        },
        "lifegear.damage.lost_not_material": {
            "ru": "Утерять можно только вещественный пункт, а «{item}» — нет.",
            "en": "Only a material item can be lost, “{item}” is not one.",
        },
        "lifegear.damage.lost_not_chosen": {
            "ru": "«{item}» не выбран для поглощения урона.",
            "en": "“{item}” is not chosen to absorb the damage.",
        },
        "lifegear.defence.negative": {
            "ru": "Уровень защиты не может быть отрицательным: {defence}.",
            "en": "A defence level cannot be negative: {defence}.",
        },
        "lifegear.capacity.over": {
            "ru": "Жизней {lives} при максимуме {max_lives}: лишнее (пунктов: {excess}) "
            "выложите или используйте до конца хода.",
            "en": "{lives} lives with a maximum of {max_lives}: drop or use {excess} item(s) "
            "before the turn ends.",
        },
        "lifegear.item.never_spent": {
            "ru": "«{item}» не тратится: пока предмет не сломан, он применяется многократно.",
            "en": "“{item}” is never spent: it is used until it breaks.",
        },
        "lifegear.repair.not_broken": {
            "ru": "«{item}» не сломан и не утерян.",
            "en": "“{item}” is neither broken nor lost.",
        },
        "lifegear.repair.not_material": {
            "ru": "«{item}» невещественный: он восстанавливается отдыхом, а не починкой.",
            "en": "“{item}” is immaterial: rest restores it, not repair.",
        },
        "lifegear.monster.not_ability": {
            "ru": "«{item}» — не способность чудовища.",
            "en": "“{item}” is not a monster's ability.",
        },
        "lifegear.trade.forbidden": {
            "ru": "«{item}» нельзя передать: способностями не обмениваются.",
            "en": "“{item}” cannot be handed over: abilities are not traded.",
        },
        "lifegear.dead": {
            "ru": "Персонаж «{name}» мёртв.",
            "en": "Character “{name}” is dead.",
        },
        "lifegear.dying.not_dying": {
            "ru": "Персонаж «{name}» не при смерти.",
            "en": "Character “{name}” is not dying.",
        },
        "lifegear.pvp.fast_needs_surprise": {
            "ru": "Быстрый первый раунд бывает только при внезапном нападении; иначе — дуэль.",
            "en": "A fast first round needs a surprise attack; otherwise it is a duel.",
        },
        "lifegear.duel.over": {
            "ru": "Поединок уже окончен.",
            "en": "The fight is already over.",
        },
        "lifegear.duel.not_participant": {
            "ru": "«{name}» не участвует в поединке.",
            "en": "“{name}” does not take part in the fight.",
        },
        "lifegear.duel.not_winner": {
            "ru": "Остановить может только победитель раунда.",
            "en": "Only the round's winner may stop.",
        },
        # validation
        "lifegear.validate.no_name": {
            "ru": "Нужно имя.",
            "en": "A name is needed.",
        },
        "lifegear.validate.max_lives": {
            "ru": "Максимум жизней должен быть от 1 до {limit}, а не {value}.",
            "en": "Max lives must be 1 to {limit}, not {value}.",
        },
        "lifegear.validate.too_much_gear": {
            "ru": "Годного снаряжения {count}, а максимум жизней {max_lives}.",
            "en": "{count} usable gear items but max lives is {max_lives}.",
        },
        "lifegear.validate.no_stats": {
            "ru": "Нужен хотя бы один параметр.",
            "en": "At least one stat is needed.",
        },
        "lifegear.validate.stat_duplicate": {
            "ru": "Параметр «{stat}» указан дважды.",
            "en": "Stat “{stat}” is listed twice.",
        },
        "lifegear.validate.item_duplicate": {
            "ru": "Пункт «{item}» указан дважды.",
            "en": "Item “{item}” is listed twice.",
        },
        "lifegear.validate.weapon_stat": {
            "ru": "Оружие «{item}» ссылается на неизвестный параметр «{stat}».",
            "en": "Weapon “{item}” refers to an unknown stat “{stat}”.",
        },
        "lifegear.validate.reduce_by": {
            "ru": "Броня «{item}», снижающая урон, должна снижать его хотя бы на 1.",
            "en": "Damage-reducing armor “{item}” must reduce by at least 1.",
        },
        "lifegear.validate.no_role": {
            "ru": "Не выбрана роль.",
            "en": "No role is chosen.",
        },
        # change-list labels
        "lifegear.change.item_state": {
            "ru": "{item}",
            "en": "{item}",
        },
        "lifegear.change.lives": {
            "ru": "Жизни",
            "en": "Lives",
        },
        "lifegear.change.unabsorbed": {
            "ru": "Непоглощённый урон",
            "en": "Unabsorbed damage",
        },
    }
)


class LifegearError(EngineError):
    """Base of every ``lifegear`` failure caused by bad input."""


class DiceExpressionError(LifegearError):
    """A stat or bonus dice expression cannot be read or is beyond the limits."""


class UnknownItemError(LifegearError):
    """An item id that the character's gear does not contain."""


class UnknownStatError(LifegearError):
    """A stat name that the character does not have."""


class LifegearRuleViolation(RuleViolation, LifegearError):
    """The ``lifegear`` rules forbid this action in the current state."""
