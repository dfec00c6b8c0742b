"""Forms of other dice bots rewritten into this notation before parsing.

* ``(Attack) 1d20+5`` — Dice Maiden's leading label;
* ``+d20``/``-d20`` — advantage/disadvantage (``2d20kh1``/``2d20kl1``); ``+d%``/``-d%`` —
  percentile advantage/disadvantage, Dice Maiden's ``2d10kl1*10+1d10-10`` (low is good);
* ``4cod`` (``4d10>=8!``), ``4cod9`` (9-again: ``4d10>=8!>=9``), ``4wod8`` (``4d10>=8f1``) —
  Dice Maiden's d10 pools; ``NwodT`` is this bot's storyteller pool exactly.
"""

from __future__ import annotations

import re
from typing import Final

from engine.dice.hints import DICE_TERM

_HEAD_LABEL: Final = re.compile(r"^\(([^()]*[^\W\d_][^()]*)\)\s+(?=\S)")
_ADVANTAGE: Final = re.compile(r"^([+-])\s*d(20|%)(?![\w%])", re.I)
_POOL: Final = re.compile(r"^(\d{1,4})(cod|wod)(\d{0,2})(?=\s|$)", re.I)
_ADVANTAGE_FORMS: Final = {
    ("+", "20"): "2d20kh1",
    ("-", "20"): "2d20kl1",
    ("+", "%"): "(2d10kl1*10+1d10-10)",
    ("-", "%"): "(2d10kh1*10+1d10-10)",
}


def rewrite(text: str) -> tuple[str, str]:
    """(leading label, text in this notation); the text is returned as is when nothing of the
    above applies."""
    label = ""
    head = _HEAD_LABEL.match(text)
    if head is not None and DICE_TERM.search(head[1]) is None:
        label, text = " ".join(head[1].split()), text[head.end() :]
    first = text[:1]
    if first in "+-":
        adv = _ADVANTAGE.match(text)
        if adv is not None:
            text = _ADVANTAGE_FORMS[adv[1], adv[2]] + text[adv.end() :]
    elif first.isdigit():
        pool = _POOL.match(text)
        if pool is not None:
            text = _pool(pool) + text[pool.end() :]
    return label, text


def _pool(match: re.Match[str]) -> str:
    count, kind, number = match[1], match[2].lower(), match[3]
    if kind == "wod":
        return f"{count}d10>={number}f1" if number else match[0]  # bare "wod": refused
    if not number or number == "10":
        return f"{count}d10>=8!"
    return f"{count}d10>=8!>={number}" if number in ("8", "9") else match[0]
