"""Storyteller (Changeling) on the page: attributes and abilities as dots, Willpower and Glamour
as tracks with their buttons, Banality and Health."""

from __future__ import annotations

from engine import formats
from engine.systems import storyteller
from engine.systems.storyteller import ATTRIBUTE_GROUPS, AbilityGroup, TraitKind, health_name
from engine.text import msg
from handlers.views.sheets.storyteller import KITHS, SEEMINGS, choice_name
from webapp.sheets.base import Ctx, act, dots, esc, full, gain, meter, row, section

DOTS_MAX = 5


def _name(key: str, x: Ctx) -> str:
    return esc(storyteller.trait_name(key).render(x.locale))


def _dotted(items: list[tuple[str, int]], x: Ctx, *, keep_zero: bool = False) -> list[str]:
    return [
        row(_name(key, x), dots(value, DOTS_MAX)) for key, value in items if value or keep_zero
    ]


def _pool(trait: storyteller.PoolTrait, key: str, x: Ctx) -> str:
    # an empty pool: the engine's own refusal, said before the press
    low = msg(f"storyteller.sheet.pool_too_low.{key}", have=trait.pool, need=1)
    empty = "" if trait.pool > 0 else low.render(x.locale)
    return row(
        _name(key, x),
        f'<span data-field="{key}">{meter(trait.pool, trait.rating)}</span>',
        act("−1", {"kind": "pool", "trait": key, "delta": -1}, x, kind="minus", off=empty),
        gain({"kind": "pool", "trait": key, "delta": 1}, x, off=full(x, trait.pool, trait.rating)),
    )


def render(c: storyteller.Character, x: Ctx) -> str:
    t = x.t
    head = [esc(c.concept), choice_name(c.kith, KITHS, t), choice_name(c.seeming, SEEMINGS, t)]
    # who the character is, under the name (the header), not among the resources
    concept = " · ".join(h for h in head if h)
    under_name = f'<div class="muted concept">{concept}</div>' if concept else ""
    attributes = [
        section(
            storyteller.trait_name(group.value).render(x.locale),
            _dotted([(a.value, c.attributes.get(a)) for a in attrs], x, keep_zero=True),
        )
        for group, attrs in ATTRIBUTE_GROUPS.items()
    ]
    abilities = [
        section(
            storyteller.trait_name(group.value).render(x.locale),
            _dotted([(a.key, a.dots) for a in c.abilities if a.group is group], x),
        )
        for group in AbilityGroup
    ]
    others = [
        section(
            storyteller.trait_name(kind.value).render(x.locale),
            _dotted([(d.key, d.dots) for d in c.traits_of(kind)], x),
        )
        for kind in TraitKind
    ]
    tracks = [
        _pool(c.willpower, "willpower", x),
        _pool(c.glamour, "glamour", x),
        row(
            _name("banality", x),
            esc(formats.rating_with_temporary(c.banality.rating, c.banality.pool, x.locale)),
        ),
        row(_name("health", x), esc(health_name(c.health).render(x.locale))),
    ]
    return "".join([under_name, section(t("Resources"), tracks), *attributes, *abilities, *others])
