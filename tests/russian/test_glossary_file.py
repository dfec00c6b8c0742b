"""One term per thing, from the seeds (issue 36, item 18): ``bot/glossary.toml`` names each
game term's word and its forbidden synonyms; no Russian template of the bot (every .po catalog,
the Mini App's included, and every engine message) may use a synonym within the term's scope."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.systems import SYSTEMS
from tests.russian.test_templates import TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "bot" / "glossary.toml"
SEEDS = Path("/work/shared/rules/seeds")


def _terms() -> list[dict[str, Any]]:
    with GLOSSARY.open("rb") as fh:
        return list(tomllib.load(fh)["term"])


TERMS = _terms()


def _in_scope(where: str, key: str, systems: list[str]) -> bool:
    """Everything without ``systems``; else a system's own catalogs and engine keys."""
    if not systems:
        return True
    if where == "engine":
        return key.split(".", 1)[0] in systems
    stem = where.removesuffix(".po")
    return any(stem.endswith("_" + system) for system in systems)


def _texts(template: str | tuple[str, ...]) -> tuple[str, ...]:
    return (template,) if isinstance(template, str) else template


def test_every_term_is_well_formed_and_names_its_seed() -> None:
    assert TERMS
    for term in TERMS:
        assert {"thing", "word", "seed", "forbidden"} <= set(term), term
        assert set(term.get("systems", [])) <= set(SYSTEMS), term
        for pattern in term["forbidden"]:
            assert not re.search(pattern, term["word"]), (term["thing"], pattern)  # not itself


def test_the_seed_words_are_the_seeds() -> None:
    """Where the glossary cites a seed file, the word is in it (letter case aside)."""
    if not SEEDS.is_dir():
        pytest.skip("the seeds are not on this machine")
    seeds = {p.name[:3]: p.read_text(encoding="utf-8").lower() for p in SEEDS.glob("*.txt")}
    for term in TERMS:
        cited = re.findall(r"\b(00\d)\b", term["seed"])
        if not cited or term["word"] == "−2":
            continue
        stems = [w[:-1] for w in term["word"].lower().split()]  # any ending: «Сил-ы Вол-и»
        assert any(all(s in seeds[c] for s in stems) for c in cited if c in seeds), term


@pytest.mark.parametrize("term", TERMS, ids=[t["thing"] for t in TERMS])
def test_no_template_uses_a_forbidden_synonym(term: dict[str, Any]) -> None:
    patterns = [re.compile(p) for p in term["forbidden"]]
    found = [
        (where, key, text)
        for where, key, template in TEMPLATES
        if _in_scope(where, key, term.get("systems", []))
        for text in _texts(template)
        if any(p.search(text) for p in patterns)
    ]
    assert not found, f"«{term['word']}», not: " + "\n".join(map(repr, found))


def test_a_listed_synonym_fails() -> None:
    """The scan is no no-op: a template with «НИП» or «Сила Воли» in a Changeling catalog
    would be found."""
    npc = next(t for t in TERMS if t["word"] == "НПС")
    assert any(re.search(p, "Союзник (НИП)") for p in npc["forbidden"])
    will = next(t for t in TERMS if t["word"] == "Воля")
    assert _in_scope("tracker_storyteller.po", "", will["systems"])
    assert not _in_scope("tracker_matter.po", "", will["systems"])
    assert _in_scope("engine", "storyteller.willpower", will["systems"])
    assert any(re.search(p, "Потратить Силу Воли") for p in will["forbidden"])


def test_invoking_an_aspect_is_no_summoning_in_any_form() -> None:
    """The request card's button read «Призвать аспект» and its refusal «уже призван»: FATE's
    seed says «обращение к аспекту», and the listed synonyms now catch those forms too (the
    scan above then holds every catalog to it), while Matter's «призывающая» stays free."""
    invoke = next(t for t in TERMS if t["word"] == "обращение")
    patterns = [re.compile(p) for p in invoke["forbidden"]]
    for wrong in ("Призвать аспект (1 очко судьбы)", "Этот аспект уже призван на этот бросок."):
        assert any(p.search(wrong) for p in patterns), wrong
    for right in ("Обратиться к аспекту (1 очко судьбы)", "призывающая Материя"):
        assert not any(p.search(right) for p in patterns), right
