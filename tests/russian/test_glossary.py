"""One name for one thing (issue 23, item 5): the seeds' words, the same in every view.

Each pair below is the same game term as two parts of the bot say it — a view's msgid and the
engine's own message, or two views — and must read the same in Russian (letter case aside).
"""

from __future__ import annotations

import pytest

import bot.services.sheet_rolls  # noqa: F401  (registers the sheet-roll messages)
from bot.glossary import OTHER_FIELD
from bot.i18n import I18n, Translator
from bot.systems import SYSTEMS
from engine.systems.fate import TrackKind
from engine.systems.storyteller.traits import trait_name
from engine.text import msg
from handlers.views.sheets.fate import engine_name

GLOSSARIES = {system: spec.glossary for system, spec in SYSTEMS.items()}


def field_label(system: str, path: str) -> str:
    return SYSTEMS[system].field_label(path)


@pytest.fixture(scope="module")
def ru() -> Translator:
    return I18n("ru").translator("ru")


def test_fate_refresh_is_obnovlenie_everywhere(ru: Translator) -> None:
    assert ru("Refresh") == "Обновление"
    assert "обновление 3" in ru("Fate points: {fp} (refresh {refresh})", fp=3, refresh=3)
    assert "обновление 3" in ru(
        "<b>Stunts</b> (refresh {refresh}, fate points {fp})", refresh=3, fp=3
    )


def test_fate_success_with_style_is_krit_in_odds_cards_and_rolls(ru: Translator) -> None:
    rolled = msg("fate.reading.style").render("ru")
    assert rolled == "Крит"
    assert ru("success with style").lower() == rolled.lower()  # /odds and opposed cards
    assert msg("fate.chance.style").render("ru").lower() == rolled.lower()  # request chances


def test_storyteller_willpower_is_volya_in_res_milestones_and_rolls(ru: Translator) -> None:
    assert ru("Willpower") == "Воля"  # /res
    assert trait_name("willpower.pool").render("ru") == "Воля"  # milestones
    assert "Волю" in ru("Spend Willpower first (+1 success)")
    assert ru(field_label("storyteller", "willpower.pool")) == "Воля"  # undo notes


def test_a_botch_is_proval_in_odds_and_rolls(ru: Translator) -> None:
    assert ru("botch") == msg("storyteller.chance.botch").render("ru") == "провал"
    assert msg("dice.render.botch").render("ru") == "Провал!"


def test_the_matter_chance_die_is_shans_brosok(ru: Translator) -> None:
    assert ru("chance roll") == "шанс-бросок"
    assert msg("sheetroll.matter.chance").render("ru") == "Шанс-бросок"


def test_fate_stress_tracks_match_the_engines_track_names(ru: Translator) -> None:
    for track in (TrackKind.PHYSICAL, TrackKind.MENTAL, TrackKind.MAGICAL):
        label = ru(field_label("fate", f"stress.{track.value}"))
        assert engine_name(track, "ru") in label.lower(), (track, label)


@pytest.mark.parametrize("system", list(GLOSSARIES))
def test_every_glossary_term_is_translated_and_no_field_goes_unnamed(
    ru: Translator, system: str
) -> None:
    for path, term in GLOSSARIES[system].items():
        assert ru(term) != term or not term.isascii(), (system, path, term)
    assert field_label(system, "no_such_field") == OTHER_FIELD
    assert ru(OTHER_FIELD) == "Прочее в листе"
