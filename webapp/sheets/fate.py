"""FATE on the page: fate points, aspects, the skill pyramid, stress boxes, consequences."""

from __future__ import annotations

from bot.services.resources import CLEARABLE_TRACKS
from engine import formats
from engine.systems import fate
from engine.systems.fate import SlotId, TrackKind, ladder_label, signed, slot_value
from engine.text import msg
from handlers.views.sheets.fate import engine_name, skill_name
from webapp.sheets.base import Ctx, act, chips, esc, gain, row, section


def _points(c: fate.Character, x: Ctx) -> str:
    t = x.t
    points = c.fate_points
    value = f'<b class="num" data-field="fate_points" data-value="{points}">{points}</b>'
    refresh = esc(t("refresh {n}", n=c.refresh))
    return row(
        esc(t("Fate points")) + f" <small>{refresh}</small>",
        value,
        act("−1", {"kind": "fate_points", "delta": -1}, x, kind="minus", off=_none_left(c, x)),
        gain({"kind": "fate_points", "delta": 1}, x),
    )


def _none_left(c: fate.Character, x: Ctx) -> str:
    """Why «−1» does nothing: no fate point to spend (the engine's own words)."""
    if c.fate_points > 0:
        return ""
    return msg("fate.fp.not_enough", need=1, have=c.fate_points).render(x.locale)


def _aspects(c: fate.Character, x: Ctx) -> list[str]:
    return [
        f'<div class="aspect"><small>{esc(engine_name(a.role, x.locale))}</small>'
        f"<div>{esc(a.text)}</div></div>"
        for a in c.aspects
    ]


def _pyramid(c: fate.Character, x: Ctx) -> list[str]:
    levels: dict[int, list[str]] = {}
    for skill, level in c.skills.items():
        if level:
            levels.setdefault(level, []).append(skill_name(skill.value, x.locale))
    return [
        f'<div class="tier" data-level="{level}"><span class="lvl">{esc(signed(level))}'
        f" <small>{esc(ladder_label(level).render(x.locale))}</small></span>"
        f'<span class="skills">{chips(esc(n) for n in sorted(levels[level]))}</span></div>'
        for level in sorted(levels, reverse=True)
    ]


def _box(kind: TrackKind, value: int, marked: bool, x: Ctx) -> str:
    state = "marked" if marked else "free"
    label = f"{value} {formats.stress_track([marked])}"  # as the chat's buttons: «1 ☐»
    # the accumulator recharges at a milestone; an archived sheet changes no more
    if (marked and kind not in CLEARABLE_TRACKS) or x.frozen:
        return f'<span class="box {state}">{label}</span>'
    op = {"kind": "stress", "track": kind.value, "box": value, "mark": not marked}
    return act(label, op, x, kind=f"box {state}")


def _stress(c: fate.Character, x: Ctx) -> list[str]:
    return [
        row(
            esc(engine_name(view.kind, x.locale)),
            f'<span class="boxes" data-track="{view.kind.value}" data-marks="{view.render()}">'
            + "".join(_box(view.kind, b.value, b.marked, x) for b in view.boxes)
            + "</span>",
        )
        for view in fate.stress_tracks(c)
    ]


def _consequences(c: fate.Character, x: Ctx) -> list[str]:
    taken = {cons.slot: cons for cons in c.consequences}
    lines = []
    for slot in (*fate.consequence_slots(c), SlotId.EXTREME):
        cons = taken.get(slot)
        if cons is None and slot is SlotId.EXTREME:
            continue
        name = f"{esc(engine_name(slot, x.locale))} ({slot_value(slot)})"
        if cons is None:
            lines.append(row(name, '<span class="muted">—</span>'))
            continue
        clear = act("✖", {"kind": "clear_consequence", "slot": slot.value}, x, kind="minus")
        lines.append(row(name, f"«{esc(cons.text)}»", clear))
    return lines


def _stunts(c: fate.Character, x: Ctx) -> list[str]:
    return [
        f'<div class="item"><b>{esc(s.name)}</b>{" ⚡" if s.powerful else ""}'
        f'<div class="muted">{esc(s.description)}</div></div>'
        for s in c.stunts
    ]


def render(c: fate.Character, x: Ctx) -> str:
    t = x.t
    eq = c.equipment
    gear = t("melee {melee}, ranged {ranged}, armor {armor}").format(
        melee=eq.melee, ranged=eq.ranged, armor=eq.armor
    )
    return "".join(
        [
            section(t("Resources"), [_points(c, x)]),
            section(t("Aspects"), _aspects(c, x)),
            section(t("Skills"), _pyramid(c, x), cls="pyramid"),
            section(t("Stress"), _stress(c, x)),
            section(t("Consequences"), _consequences(c, x)),
            section(t("Stunts"), _stunts(c, x)),
            section(t("Gear"), [f"<div>{esc(gear)}</div>"]),
        ]
    )
