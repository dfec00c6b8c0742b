"""Invokes, compels, facts and the fate-point economy (ОС).

Invokes come after the roll. Per check and per aspect: at most one paid invoke plus every free
invoke available on it (each free invoke is a separate invoke). Seed: 1 free + 1 paid = +4 or
+2 and a reroll; 2 free + 1 paid = +6 or three rerolls.

Where a paid fate point goes (SPEC DECISION): if the invoke takes part in an opposed check
(``opposed_by`` names the other side), the point goes to that side; otherwise to the bank.
The GM may override the recipient (``gm_recipient`` / ``gm_to_bank``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, TypeVar

from engine.dice.source import RandomSource
from engine.errors import EngineError, RuleViolation
from engine.systems.fate.checks import FateRoll, add_bonus, reroll
from engine.systems.fate.models import Character, GmPool
from engine.text import msg, register_messages

INVOKE_BONUS: Final = 2

register_messages(
    {
        "fate.fp.not_enough": {
            "ru": "Не хватает очков судьбы: нужно {need}, есть {have}.",
            "en": "Not enough fate points: {need} needed, {have} available.",
        },
        "fate.fp.negative_amount": {
            "ru": "Количество очков судьбы не может быть отрицательным.",
            "en": "A fate-point amount cannot be negative.",
        },
        "fate.invoke.paid_twice": {
            "ru": "К аспекту «{aspect}» можно платно обратиться только раз за проверку.",
            "en": "Aspect “{aspect}” can be invoked for a fate point only once per check.",
        },
        "fate.invoke.no_free": {
            "ru": "На аспекте «{aspect}» нет столько бесплатных обращений ({need} из {have}).",
            "en": "Aspect “{aspect}” lacks free invokes ({need} wanted, {have} available).",
        },
        "fate.invoke.reroll_needs_dice": {
            "ru": "Для переброса нужны кубы.",
            "en": "A reroll needs dice.",
        },
        "fate.invoke.opposition_bonus_only": {
            "ru": "Создать или усилить сопротивление можно только бонусом +2.",
            "en": "Creating or raising opposition only takes +2 bonuses.",
        },
        "fate.invoke.none": {"ru": "Нет обращений.", "en": "No invokes."},
        "fate.fact.rejected": {
            "ru": "Факт отвергнут — очко судьбы не потрачено.",
            "en": "The fact was rejected; no fate point was spent.",
        },
    }
)


class InvokeEffect(StrEnum):
    """+2 to the roll, or reroll all four dice."""

    BONUS = "bonus"
    REROLL = "reroll"


@dataclass(frozen=True)
class Invoke:
    """One invoke of an aspect: +2 or a reroll, paid with a fate point or a free invoke."""

    aspect: str
    effect: InvokeEffect = InvokeEffect.BONUS
    free: bool = False


@dataclass(frozen=True)
class InvokeOutcome:
    """The changed roll and what the invokes cost.

    ``faces`` are only the new faces drawn by rerolls (the full history is ``roll.faces``);
    ``fp_recipient`` is who receives the paid fate points (``None`` = the bank).
    """

    roll: FateRoll
    fate_points_spent: int
    free_used: tuple[tuple[str, int], ...]
    fp_recipient: str | None
    bonus: int
    rerolls: int
    faces: tuple[int, ...]
    notation: str


def _check_invokes(
    invokes: Sequence[Invoke],
    *,
    fate_points: int,
    free_available: Mapping[str, int],
    paid_before: Sequence[str] = (),
) -> tuple[int, Counter[str]]:
    """Validate the per-aspect limits; return (paid count, free uses per aspect)."""
    if not invokes:
        raise EngineError(msg("fate.invoke.none"))
    paid = Counter(i.aspect for i in invokes if not i.free)
    free = Counter(i.aspect for i in invokes if i.free)
    for aspect, count in sorted(paid.items()):
        if count + (aspect in paid_before) > 1:
            raise RuleViolation(msg("fate.invoke.paid_twice", aspect=aspect))
    for aspect, count in sorted(free.items()):
        have = free_available.get(aspect, 0)
        if count > have:
            raise RuleViolation(msg("fate.invoke.no_free", aspect=aspect, need=count, have=have))
    spent = sum(paid.values())
    if spent > fate_points:
        raise RuleViolation(msg("fate.fp.not_enough", need=spent, have=fate_points))
    return spent, free


def _recipient(opposed_by: str | None, gm_recipient: str | None, gm_to_bank: bool) -> str | None:
    if gm_to_bank:
        return None
    return gm_recipient if gm_recipient is not None else opposed_by


def invoke(
    fate_roll: FateRoll,
    invokes: Sequence[Invoke],
    *,
    fate_points: int,
    free_available: Mapping[str, int],
    source: RandomSource | None = None,
    opposed_by: str | None = None,
    gm_recipient: str | None = None,
    gm_to_bank: bool = False,
) -> InvokeOutcome:
    """Apply invokes, in order, to a roll (one's own or, for +2, another character's).

    ``fate_points`` is what the invoker holds; ``free_available`` the free invokes the invoker
    may use per aspect name. Rerolls draw from ``source``; the last dice stand.
    """
    spent, free = _check_invokes(
        invokes,
        fate_points=fate_points,
        free_available=free_available,
        paid_before=fate_roll.paid_aspects,
    )
    start = len(fate_roll.faces)
    current, bonus, rerolls = fate_roll, 0, 0
    for inv in invokes:
        if inv.effect is InvokeEffect.BONUS:
            current, bonus = add_bonus(current, INVOKE_BONUS), bonus + INVOKE_BONUS
            continue
        if source is None:
            raise EngineError(msg("fate.invoke.reroll_needs_dice"))
        current, rerolls = reroll(current, source), rerolls + 1
    newly_paid = tuple(sorted({i.aspect for i in invokes if not i.free}))
    current = replace(current, paid_aspects=fate_roll.paid_aspects + newly_paid)
    return InvokeOutcome(
        roll=current,
        fate_points_spent=spent,
        free_used=tuple(sorted(free.items())),
        fp_recipient=_recipient(opposed_by, gm_recipient, gm_to_bank) if spent else None,
        bonus=bonus,
        rerolls=rerolls,
        faces=current.faces[start:],
        notation=current.notation,
    )


@dataclass(frozen=True)
class OppositionOutcome:
    opposition: int
    fate_points_spent: int
    free_used: tuple[tuple[str, int], ...]
    fp_recipient: str | None


def invoke_opposition(
    opposition: int | None,
    invokes: Sequence[Invoke],
    *,
    fate_points: int,
    free_available: Mapping[str, int],
    opposed_by: str,
    gm_recipient: str | None = None,
    gm_to_bank: bool = False,
    paid_before: Sequence[str] = (),
) -> OppositionOutcome:
    """+2 per invoke to a passive opposition, or create one «на ровном месте».

    DECISION (Fate Core): a created opposition starts at +0 and gets +2 per invoke. This always
    takes part in an opposed check, so paid points go to ``opposed_by`` (the side rolling
    against it) unless the GM overrides. ``paid_before`` lists aspects already paid for on
    this side of the check (one paid invoke per aspect per check).
    """
    if any(i.effect is not InvokeEffect.BONUS for i in invokes):
        raise RuleViolation(msg("fate.invoke.opposition_bonus_only"))
    spent, free = _check_invokes(
        invokes, fate_points=fate_points, free_available=free_available, paid_before=paid_before
    )
    return OppositionOutcome(
        opposition=(opposition or 0) + INVOKE_BONUS * len(invokes),
        fate_points_spent=spent,
        free_used=tuple(sorted(free.items())),
        fp_recipient=_recipient(opposed_by, gm_recipient, gm_to_bank) if spent else None,
    )


# --- fate points -----------------------------------------------------------------------------

Holder = TypeVar("Holder", Character, GmPool)


def spend_fate_points(holder: Holder, amount: int = 1) -> Holder:
    """Spend fate points; refuses to go below zero."""
    if amount < 0:
        raise EngineError(msg("fate.fp.negative_amount"))
    if amount > holder.fate_points:
        raise RuleViolation(msg("fate.fp.not_enough", need=amount, have=holder.fate_points))
    return holder.model_copy(update={"fate_points": holder.fate_points - amount})


def gain_fate_points(holder: Holder, amount: int = 1) -> Holder:
    """Gain fate points (accepted compel, concession, GM award)."""
    if amount < 0:
        raise EngineError(msg("fate.fp.negative_amount"))
    return holder.model_copy(update={"fate_points": holder.fate_points + amount})


class CompelAnswer(StrEnum):
    """Accept a compel (+1 FP) or refuse it (−1 FP)."""

    ACCEPT = "accept"
    REFUSE = "refuse"


@dataclass(frozen=True)
class CompelOutcome:
    answer: CompelAnswer
    target_delta: int
    payer_delta: int


def compel(
    target: Character,
    answer: CompelAnswer,
    *,
    payer: Holder | None = None,
) -> tuple[Character, Holder | None, CompelOutcome]:
    """Resolve a compel on ``target``.

    Accept: the target gains 1 FP, paid by ``payer`` (the GM pool or the compelling player).
    Refuse: the target pays 1 FP (to the bank). A self-compel has no payer; the GM decides
    whether it pays (pass ``answer=ACCEPT`` with ``payer=None`` to pay from the bank, or skip
    the call when the GM says no).
    """
    if answer is CompelAnswer.REFUSE:
        return spend_fate_points(target, 1), payer, CompelOutcome(answer, -1, 0)
    new_payer = spend_fate_points(payer, 1) if payer is not None else None
    return (
        gain_fate_points(target, 1),
        new_payer,
        CompelOutcome(answer, 1, 0 if payer is None else -1),
    )


@dataclass(frozen=True)
class FactOutcome:
    accepted: bool
    fate_points_spent: int
    vetoed_by: str | None = None


def declare_fact(
    character: Character, *, gm_rejects: bool = False, vetoed_by: str | None = None
) -> tuple[Character, FactOutcome]:
    """Declare a story fact from one of your aspects: 1 FP.

    DECISION: a fact the GM rejects costs nothing (it never entered the story); a fact vetoed
    by another player still costs the declarer 1 FP, and the vetoing player pays 1 FP too
    (call ``spend_fate_points`` on them).
    """
    if gm_rejects:
        return character, FactOutcome(False, 0)
    paid = spend_fate_points(character, 1)
    return paid, FactOutcome(vetoed_by is None, 1, vetoed_by)


def activate_powerful_stunt(character: Character) -> Character:
    """A particularly powerful stunt costs 1 FP to activate."""
    return spend_fate_points(character, 1)
