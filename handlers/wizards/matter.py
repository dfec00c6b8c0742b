"""The ``matter`` creation wizard, declared as a flow (``handlers.wizards.flow``).

Steps: name → skill dots (− / + per skill, within the game's budget and per-skill cap) →
the values the engine derives (gauges, combat numbers, which skill resists which state) →
Matter abilities (``flow.records``: a name, a kind of the engine's ``MatterKind``, an optional
line of notes) → the flow's preview. The skills (a ``Custom`` step), the derived values
(``Info``) and the preview are the flow's, in the released look (``Wording``, ``Flow.ids``); the
name and the abilities are windows of their own (``Screens``). Logic is in ``matter_steps``,
rules in the engine (``engine.systems.matter.creation``).
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter
from typing import Any, Final

from aiogram import F, Router
from aiogram_dialog import Window
from aiogram_dialog.widgets.kbd import Group, Row, Select, SwitchTo
from aiogram_dialog.widgets.text import Format

from bot.i18n import N_
from engine.systems.matter import Character, MatterOptions, validate_character
from handlers.views.sheets.matter import render_sheet, render_violation
from handlers.wizards import matter_steps as steps
from handlers.wizards.common import T, clean_name, clean_text
from handlers.wizards.flow import Custom, Flow, Info, Screens, build_dialog, flow_states
from handlers.wizards.flow.look import preview_button
from handlers.wizards.flow.own_widgets import go, pick
from handlers.wizards.flow.own_window import Typed, own_window
from handlers.wizards.flow.records import answered, taken
from handlers.wizards.flow.wording import Wording

UNFIT_NAME: Final = N_("A name is one line of 1 to {limit} characters, not starting with /.")
NAME: Final = Typed("nm", clean_name, taken(answered("name", "skills", True)), UNFIT_NAME)
ABILITY: Final = Typed("an", clean_name, taken(steps.ABILITIES.named()), UNFIT_NAME)
NOTES: Final = Typed("ad", partial(clean_text, limit=200), taken(steps.ABILITIES.setter("notes")),
                     N_("Up to {limit} characters of text, please."), 200)  # fmt: skip


def _pick(widget_id: str, items: str, on_click: Any, label: str = "{item[1]}") -> Select[str]:
    """Buttons of (id, label) pairs from the window data's ``items``."""
    return Select(
        Format(label), id=widget_id, item_id_getter=itemgetter(0), items=items, on_click=on_click
    )


def _name_window(s: Any) -> list[Window]:
    return [own_window(
        T("<b>Matter — new character</b>", when=~F["editing"]),
        T("<b>Matter — editing {name}</b>", when="editing"),
        T("Step 1 of 4. What is the character's name? Send it as a message."),
        T("Now: <b>{name}</b>", when="name"),
        SwitchTo(T("Keep this name ▶"), id="nk", state=s.skills, when="name"),
        *preview_button(FLOW, s.preview),
        state=s.name, typed=NAME,
    )]  # fmt: skip


def _skill_cells() -> list[Any]:
    return [Group(_pick("sk", "cells", steps.on_dot), width=3)]


def _matter_windows(s: Any) -> list[Window]:
    back, rec = N_("◀ Back"), steps.ABILITIES  # a part's «Back» leaves no half-asked ability
    return [
        own_window(
            T("Step 4 of 4. <b>Matter</b> abilities of {name} (up to {max_abilities}); "
              "Silence blocks the magical and summoning ones.\n{abilities}"),
            Group(pick("✖ {item[name]}", "rm", "removable", rec.remover()), width=2),
            go(N_("➕ Add an ability"), "ma", rec.add),  # refused past the most, in place
            Row(
                SwitchTo(T("◀ Back"), id="mb", state=s.derived),
                SwitchTo(T("Preview ▶"), id="mn", state=s.preview),
            ),
            state=s.matter,
        ),
        own_window(T("Name the Matter ability (a message, up to 64 characters)."),
                   go(back, "ab", rec.dropped), state=s.ab_name, typed=ABILITY),
        own_window(T("What kind of Matter is «{ability}»?"), _pick("ak", "kinds", steps.on_kind),
                   go(back, "kb", rec.dropped), state=s.ab_kind),
        own_window(T("Describe «{ability}» in a line (up to 200 characters), or skip."),
                   go(N_("Skip ▶"), "as", rec.onward()), state=s.ab_notes, typed=NOTES),
    ]  # fmt: skip


FLOW = Flow(
    name="matter",  # states MatterSG:<step>, stored with a wizard in progress: keep them
    steps=(
        Screens("name", N_("Name"), "", _name_window, steps.window_data),
        Custom("skills", N_("Skills"), "", _skill_cells, steps.skills_data),  # type: ignore[arg-type]
        Info("derived", N_("Derived values"), "", steps.derived_lines),
        Screens(
            "matter", N_("Matter"), "", _matter_windows, steps.window_data,
            more=("ab_name", "ab_kind", "ab_notes"),
        ),
    ),
    options=MatterOptions.model_validate,
    build=lambda draft, options: Character.model_validate(draft),
    load=steps.load,
    validate=validate_character,  # type: ignore[arg-type]
    render=render_sheet,  # type: ignore[arg-type]
    finish=steps.finish,  # type: ignore[arg-type]
    legacy_key="sheet",  # a wizard begun before the flow kept its sheet there (``flow.stored``)
    # Its look before the flow: «Step n of 4.» in the questions, «To the preview», its words.
    wording=Wording(own_heads=True, buttons_only=N_("Please use the buttons, or /cancel."),
                    preview_head=N_("<b>Preview</b>"), jump="✎ {title}"),
    to_preview=N_("✔ To the preview"), explain=render_violation, live_options=True,
    ids={"skills.bk": "__back__", "skills.nx": "sn", "derived.bk": "__back__", "derived.nx": "dn",
         "preview.j0": "en", "preview.j1": "es", "preview.j2": "ed", "preview.j3": "em"},
)  # fmt: skip
STATES = flow_states(FLOW)
START_STATE = STATES.name  # type: ignore[attr-defined]


def create_dialogs() -> list[Router]:
    return [build_dialog(FLOW, STATES)]
