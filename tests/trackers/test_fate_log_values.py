"""The conflict's log shows Fate dice and totals with a real minus: an attack read
«(Бой): +--0 → -1», hyphens where the sheet and the ladder write «−1». The faces are
bracketed and spaced, «[0 0 0 +]»: «000+ → 4» read like a number."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.fate import Skill
from handlers.views.trackers.fate import log_line

ATTACK = "⚔️ {name} attacks {target} ({skill}): {dice} → {total}"


def _line(locale: str, dice: str, total: int) -> str:
    params = {"name": "Мира", "target": "Громила", "skill": Skill.FIGHT.value}
    entry = {"m": ATTACK, "p": {**params, "dice": dice, "total": total}}
    return log_line(I18n("ru").translator(locale), entry)


def test_a_negative_attack_reads_with_a_real_minus() -> None:
    assert _line("ru", "+--0", -1) == "⚔️ Мира нападает, цель — Громила (Бой): [+ − − 0] → −1"
    english = _line("en", "+--0", -1)
    assert english.endswith("[+ − − 0] → −1") and "-" not in english


def test_a_positive_total_stays_as_it_was() -> None:
    assert _line("ru", "++0+", 5).endswith("(Бой): [+ + 0 +] → 5")


def test_zeros_never_read_as_a_number() -> None:
    assert _line("ru", "000+", 4).endswith("(Бой): [0 0 0 +] → 4")
