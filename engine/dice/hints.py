"""What other dice bots' users type, and what to write here instead.

Players come from Dice Maiden, Avrae (d20), Roll20 and Russian rulebooks and type what they
typed there. What this parser does not read is refused — never taken for a label, which would
roll something else without a word — and when it is a known idiom of another bot the refusal
says how it is written here (``word_hint``). ``label_problem`` decides whether the text after
an expression may be a label: it may not hold a dice term or start like notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

# A dice term: d/к/д with sides, not inside a word ("d20", "4к6", "2dF"; not "код6", "dF2x").
DICE_TERM: Final = re.compile(r"(?<![^\W\d_])\d*[dкд](?:\d|%|[fф](?![^\W\d_]))", re.I)
# A word that reads as a modifier or a flag of a dice bot (k3, t7, e, ie6, ro<2, p, s…).
_MODIFIER_WORD: Final = re.compile(
    r"(?:k[hlm]?|d[hl]?|t[l]?|f|b|e|ie|i|r|rr|ir|ro|ra|rg|irg|mi|ma|p[hl]?|c|ds|adv|dis|s|ul|nr)"
    r"(?:[\d<>=]|$|\s)",
    re.I,
)
# Dice cut short before their sides ("2d", "3к+1", a bare "d"): an optional count, then d/к/д
# and no letter after it (no sheet names a trait «d»).
_DIE_WITHOUT_SIDES: Final = re.compile(r"\d*[dкд](?![^\W\d_])", re.I)
# "vs" (or «против», «пр.») with nothing after it: a target left out, never a label.
VERSUS_ALONE: Final = re.compile(r"^\s*(vs\.?|против|пр\.?)\s*$", re.I)
_POOL_ALIAS: Final = re.compile(r"^\d+(?:cod|wod)", re.I)
_STARTS_LIKE_NOTATION: Final = "+-−*/×%<>=[;!"

# (pattern of the word, hint ru, hint en); {0} is the number typed, if any.
_HINTS: Final[tuple[tuple[re.Pattern[str], str, str], ...]] = tuple(
    (re.compile(pattern, re.I), ru, en)
    for pattern, ru, en in (
        (r"^irg(\d*)", "у нас это r>={0}", "here it is written r>={0}"),
        (r"^rg(\d*)", "у нас это ro>={0}", "here it is written ro>={0}"),
        (r"^tl\d*", "успехов «не больше N» здесь не считают; сравнить сумму: (2d6)<=N",
         "successes of “N or less” are not counted here; to compare the total: (2d6)<=N"),
        (r"^km\d*", "оставить средние кубики (km) здесь нельзя; есть kh, kl, dh, dl",
         "keeping the middle dice (km) is not supported; there are kh, kl, dh, dl"),
        (r"^i\d*$", "«имплозий» (i) здесь нет", "imploding dice (i) are not supported"),
        (r"^adv\d*", "преимущество: 2d20kh1 или +d20", "advantage: 2d20kh1 or +d20"),
        (r"^dis\d*", "помеха: 2d20kl1 или -d20", "disadvantage: 2d20kl1 or -d20"),
        (r"^ds\d*", "двойных успехов (ds) здесь нет", "double successes (ds) are not supported"),
        (r"^c$", "отмены единиц десятками (c) здесь нет",
         "tens cancelling ones (c) are not supported"),
        (r"^ph(\d*)", "у нас это dh{0}", "here it is written dh{0}"),
        (r"^pl?(\d+)", "у нас это dl{0}", "here it is written dl{0}"),
        (r"^p$", "скрытый бросок — команда /sroll", "a hidden roll is the /sroll command"),
        (r"^(?:s|ul)$", "флаг пишется перед выражением: /r s 4d6", "a flag goes before the "
         "expression: /r s 4d6"),
        (r"^nr$", "флага nr здесь нет", "there is no nr flag here"),
        (r"^e[hl]", "у нас это e>=N (взрыв один раз) или !>=N (без конца)",
         "here it is written e>=N (explode once) or !>=N (without end)"),
        (r"^//", "у нас «/» — деление с отбрасыванием дробной части",
         "here “/” is a division that drops the fraction"),
        (r"^!=", "сравнения «не равно» здесь нет", "there is no “not equal” comparison here"),
        (r"^,", "наборы «(…, …)» здесь не поддерживаются; несколько бросков разделяйте «;»",
         "sets “(…, …)” are not supported; separate several rolls with “;”"),
        (r"^(?:kh|kl|dh|dl|k)\d", "оставлять и отбрасывать можно только кубики: 10d6kh5",
         "keep/drop applies to dice only: 10d6kh5"),
        (r"^(?:ro|rr|ra|e|k|p|mi|ma)[hl]\d", "выбора h/l здесь нет; оставить/отбросить: kh, kl, "
         "dh, dl", "h/l selectors are not supported; keep/drop: kh, kl, dh, dl"),
        (r"^dndstats$", "у нас это 6 4d6k3", "here it is written 6 4d6k3"),
        (r"^\d*(?:cod|wod)\w*", "у нас это Ncod, NcodT (T от 8 до 10) или NwodT, например 4cod, "
         "4wod8", "here it is Ncod, NcodT (T from 8 to 10) or NwodT, e.g. 4cod, 4wod8"),
        (r"^\d*[a-z]{2,}\d*[a-z\d]*$", "сокращений систем других ботов здесь нет; напишите "
         "кубики явно, например 1d20+5 или 2d20kh1",
         "other bots' system aliases are not supported; write the dice, e.g. 1d20+5 or 2d20kh1"),
    )
)  # fmt: skip


def starts_as_notation(text: str) -> bool:
    """The text opens with a dice term (``2d6 +``, ``4к6``): notation, never a sheet's trait
    name, so what cannot be read in it is a notation error, not an unknown trait. A die cut
    short before its sides (``2d``, a bare ``d``) is notation too: no trait is named «2d»."""
    stripped = text.strip()
    return DICE_TERM.match(stripped) is not None or _DIE_WITHOUT_SIDES.match(stripped) is not None


@dataclass(frozen=True)
class LabelProblem:
    found: str
    ru: str
    en: str


def word_hint(word: str) -> tuple[str, str] | None:
    """(ru, en) of what to write instead of ``word``, when it is a known idiom."""
    for pattern, ru, en in _HINTS:
        match = pattern.match(word)
        if match is not None:
            number = next((g for g in match.groups() if g), "N")
            return ru.format(number), en.format(number)
    return None


def label_problem(rest: str) -> LabelProblem | None:
    """Why the text after an expression cannot be its label, or None if it can."""
    rest = rest.strip()
    first = rest.split(maxsplit=1)[0] if rest else ""
    hint = word_hint(first) if _MODIFIER_WORD.match(first) else None
    if hint is not None:
        return LabelProblem(first, *hint)
    if _MODIFIER_WORD.match(first) or rest[:1] in _STARTS_LIKE_NOTATION:
        return LabelProblem(
            first,
            "это не понято: модификатор пишется сразу после кубиков, "
            "подпись не может начинаться со знака",
            "not understood: a modifier goes right after the dice, "
            "and a label cannot start with a sign",
        )
    if _POOL_ALIAS.match(first):
        return LabelProblem(first, *word_hint(first) or ("", ""))
    term = DICE_TERM.search(rest)
    if term is not None:
        return LabelProblem(
            rest,
            "в подписи не может быть кубиков; несколько бросков: «6 4d6» (набор) или через «;»",
            "a label cannot hold dice; several rolls: “6 4d6” (a set) or separated by “;”",
        )
    return None
