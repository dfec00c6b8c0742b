"""Matter on the page: skills as dots, Health (as the states leave it) with its buttons, the
other gauges and combat numbers, states (each removable), Matter abilities."""

from __future__ import annotations

from engine.systems import matter
from engine.systems.matter import STATES, effective_trait
from handlers.views.sheets.matter import COMBAT, GAUGES, KIND_NAMES, ordered_skills, trait_name
from webapp.sheets.base import Ctx, act, chips, dots, esc, full, gain, meter, row, section

DOTS_MAX = 5


def _gauge(c: matter.Character, gauge: str, x: Ctx) -> str:
    value, top = effective_trait(c, gauge), effective_trait(c, gauge + "_max")
    shown = f'<span data-field="{gauge}">{meter(value, top)}</span>'
    if gauge != "health":
        return row(esc(trait_name(gauge, x.locale)), shown)
    return row(
        esc(trait_name(gauge, x.locale)),
        shown,
        act("−1", {"kind": "health", "delta": -1}, x, kind="minus"),
        gain({"kind": "health", "delta": 1}, x, off=full(x, value, top)),
    )


def _states(c: matter.Character, x: Ctx) -> list[str]:
    lines = []
    for active in c.states:
        found = STATES[active.state]
        name = found.name_ru if x.locale == "ru" else found.name_en
        # taking a state off is a gain: a player's press asks the GM, and says so
        off = gain({"kind": "state_off", "state": active.state.value}, x, "✖", kind="minus")
        lines.append(row(esc(name), "", off))
    return lines or ['<div class="muted">—</div>']


def render(c: matter.Character, x: Ctx) -> str:
    t = x.t
    skills = [
        row(esc(trait_name(k, x.locale)), dots(v, DOTS_MAX) if v > 0 else "—")
        for k, v in ordered_skills(c.skills)
    ]
    combat = chips(
        f"{esc(trait_name(k, x.locale))} <b>{effective_trait(c, k)}</b>" for k in COMBAT
    )
    abilities = [
        f'<div class="item"><b>{esc(a.name)}</b> <small>{esc(t(KIND_NAMES[a.kind]))}</small> '
        f"{dots(a.dots, DOTS_MAX) if a.dots else ''}"
        f'<div class="muted">{esc(a.notes)}</div></div>'
        for a in c.matter
    ]
    items = [row(esc(i.name), f"×{i.count}") for i in c.items]
    return "".join(
        [
            section(t("Resources"), [*(_gauge(c, g, x) for g in GAUGES), f"<div>{combat}</div>"]),
            section(t("States"), _states(c, x)),
            section(t("Skills"), skills),
            section(t("Matter"), abilities),
            section(t("Items"), items),
        ]
    )
