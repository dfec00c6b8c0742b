"""A cliché milestone's notice reads as one clean line per change: it said «Клише «Soldier»:
кости: 4 → 5», two colons, the change's own name carrying one."""

from __future__ import annotations

from engine.dice.source import ScriptedSource
from engine.systems.cliche import ClicheOptions, MilestoneKind, apply_milestone
from handlers.views.milestones import _change
from tests.engine.cliche.builders import make_character


def test_an_advanced_cliche_reads_dice_of_the_cliche() -> None:
    hero = make_character("Мэл", ("Солдат", 4))
    _, changes = apply_milestone(
        hero, MilestoneKind.END_OF_ADVENTURE, source=ScriptedSource([2, 4, 6, 2]),
        used=("Солдат",),
    )  # fmt: skip
    assert [_change(c, "ru") for c in changes] == ["  • Кости клише «Солдат»: 4 → 5"]
    assert [_change(c, "en") for c in changes] == ["  • Dice of “Солдат”: 4 → 5"]


def test_recovered_dice_read_lost_dice_of_the_cliche() -> None:
    hero = make_character("Зои", ("Солдат", 4))
    hurt = hero.model_copy(update={"cliches": (hero.cliches[0].model_copy(update={"lost": 2}),)})
    _, changes = apply_milestone(hurt, MilestoneKind.RECOVERY, options=ClicheOptions())
    (line,) = [_change(c, "ru") for c in changes]
    assert line == "  • Потерянные кости клише «Солдат»: 2 → 0"
    assert line.count(":") == 1
