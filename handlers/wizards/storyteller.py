"""The ``storyteller`` (Changeling: The Dreaming) character-creation wizard, as a ``Flow``.

Name, concept, kith, seeming, priorities (rank the attribute and the ability groups), a dot page
per category (a dot from the category's creation budget), the starting Glamour, Banality and
Willpower, freebies (they reopen the dot pages: any dot, at the running cost), the preview.
The draft is the engine's ``Character`` as JSON, as the hand-written wizard kept it under
``dialog_data["sheet"]`` (one started before the port resumes from it).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager, ShowMode
from aiogram_dialog.widgets.kbd import Column, Select
from aiogram_dialog.widgets.text import Format

from bot.i18n import N_, Translator
from engine.systems import storyteller as st
from engine.systems.storyteller import Character, StorytellerOptions, freebie_report, trait_name
from handlers.views.sheets import storyteller as view
from handlers.wizards import storyteller_rules as rules
from handlers.wizards.common import esc, tell_presser
from handlers.wizards.flow import Allocate, Choice, Choose, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.custom import Custom, draft
from handlers.wizards.flow.kinds import DotPress, Draft
from handlers.wizards.flow.reopen import reopen

FREEBIES: Final = "freebies"  # the mode the freebie step reopens the dot pages in
UNFIT: Final = N_("That does not fit: one line, 1 to 64 characters, not starting with «/».")
SPEND: Final = N_("Spend the dots with + and −.")
ABILITIES: Final = N_(
    "Spend the group's dots with + and −; at most {cap} dots in one ability for now."
)
START: Final = N_(
    "Enter the starting ratings (1–{top}) your Kith and Seeming give; the GM approves them."
)


def _name(key: str, locale: str) -> str:
    return esc(trait_name(key).render(locale))


def _press(page: str, press: DotPress) -> Draft | str:
    assert isinstance(press.sheet, Character)
    fb = press.mode == FREEBIES
    result = rules.press(press.sheet, press.options, page, press.trait, press.delta, freebies=fb)
    if not isinstance(result, rules.Refusal):
        return rules.dump(result)
    params = dict(result.params)
    for key, name in (("key", "name"), ("group_key", "group")):
        if key in params:
            params[name] = trait_name(str(params.pop(key))).render(press.locale)
    return esc(press.t(result.msgid, **params))


def _row(page: str, sheet: Character, options: StorytellerOptions, key: str, locale: str) -> str:
    top = options.character_trait_max if page == rules.CTR else options.trait_max
    return f"{_name(key, locale)} {view.dots_bar(rules.dots(sheet, page, key), top)}"


def _counters(page: str, sheet: Character, options: Any, t: Translator, locale: str) -> str:
    """The page's categories (all: no page) against their budgets, then the freebie total."""
    wanted = rules.page_categories(page) if page else None
    return view.freebie_account(freebie_report(sheet, options), t, locale, wanted)


def _page(key: str, title: str, prompt: str, page: str) -> Allocate:
    traits = tuple(Choice(k, k) for k in rules.page_keys(page))
    return Allocate(
        key, title, prompt, traits, budget=lambda o: 0, cap=lambda o: 0,  # the rule decides
        page_size=len(traits), rule=partial(_press, page), row=partial(_row, page),
        counters=partial(_counters, page),
    )  # fmt: skip


PAGES: Final = (
    _page("attrs", N_("Attributes"), SPEND, rules.ATTR),
    _page("talents", N_("Talents"), ABILITIES, st.AbilityGroup.TALENTS.value),
    _page("skills", N_("Skills"), ABILITIES, st.AbilityGroup.SKILLS.value),
    _page("knowl", N_("Knowledges"), ABILITIES, st.AbilityGroup.KNOWLEDGES.value),
    _page("arts", N_("Arts"), SPEND, "art"),
    _page("realms", N_("Realms"), SPEND, "realm"),
    _page("bgs", N_("Backgrounds"), SPEND, "background"),
    _page("ctr", N_("Glamour, Banality, Willpower"), START, rules.CTR),
)


FREEBIE_ASKS: Final = {"ctr": N_(  # a dot page's question in the freebie mode
    "Freebies raise Glamour and Willpower above the starting rating; Banality cannot be bought."
)}  # fmt: skip
FREEBIE_ASK: Final = N_("Freebie mode: extra dots cost freebies; the cost is counted as you go.")


def _rankings(sheet: Character, options: StorytellerOptions, t: Any, locale: str) -> dict:
    def ranked(order: tuple[Any, ...], budgets: tuple[int, ...]) -> list[dict[str, str]]:
        return [
            {"id": g.value, "label": f"{i + 1}. {_name(g.value, locale)} — {budget}"}
            for i, (g, budget) in enumerate(zip(order, budgets, strict=True))
        ]

    return {
        "attr_rank": ranked(sheet.attribute_priority, options.attribute_dots),
        "abil_rank": ranked(sheet.ability_priority, options.ability_dots),
    }


def _promote(field: str) -> Any:
    """Tap a group: it moves a place up its ranking."""

    async def handler(callback: CallbackQuery, w: Any, manager: DialogManager, item: str) -> None:
        sheet = draft(manager)
        moved = rules.promote(list(sheet[field]), item)
        if moved == list(sheet[field]):  # already first: say so, the screen stays as it is
            tell_presser(manager, manager.middleware_data["t"]("Already first."))
            manager.show_mode = ShowMode.NO_UPDATE
        sheet[field] = moved

    return handler


def _rank_lists() -> list[Any]:
    lists = (("pa", "attr_rank", "attribute_priority"), ("pb", "abil_rank", "ability_priority"))
    return [
        Column(Select(Format("{item[label]}"), id=wid, item_id_getter=lambda x: x["id"],
                      items=items, on_click=_promote(field)))
        for wid, items, field in lists
    ]  # fmt: skip


def _asks(options: StorytellerOptions) -> dict[str, Any]:
    """The placeholders of the questions, from the game's options."""
    top, cap = options.character_trait_max, options.ability_creation_max
    return {**options.freebie_costs.model_dump(), "cap": cap, "top": top,
            "available": options.freebies}  # fmt: skip


FLOW: Final = Flow(
    name="storyteller",
    steps=(
        Text("name", N_("Name"), N_("What is your changeling called? Send the name as a message."),
             required=True, unfit=UNFIT),
        Text("concept", N_("Concept"), N_(
            "Who is the character in a few words (e.g. «runaway poet»)? Send it as a message, or "
            "skip."), limit=200, unfit=N_("The concept must be text of 1 to {limit} characters.")),
        Choose("kith", N_("Kith"), N_("Pick your kith, or send another one as a message."),
               tuple(Choice(*kv) for kv in view.KITHS.items()), typed=True,
               page_size=len(view.KITHS), unfit=UNFIT, select_id="skith", columns=3),
        Choose("seeming", N_("Seeming"), N_(
            "Pick your seeming (your age among the fae), or send another one as a message."),
               tuple(Choice(*kv) for kv in view.SEEMINGS.items()), typed=True, unfit=UNFIT,
               select_id="sseeming", columns=3),
        Custom("prio", N_("Priorities"), N_(
            "Rank the attribute groups and the ability groups: the first gets the most dots. Tap "
            "a group to move it up."), _rank_lists, _rankings),
        *PAGES,
        reopen(FREEBIES, N_("Freebies"), N_(
            "{available} freebie points. A dot costs: attribute "
            "{attribute}, ability {ability}, Art {art}, Realm {realm}, Background {background}, "
            "Glamour {glamour}, Willpower {willpower}. Pick what to raise."),
            PAGES, mode=FREEBIES, lines=partial(_counters, ""), ids="f",
            asks=lambda key: FREEBIE_ASKS.get(key, FREEBIE_ASK)),
    ),
    options=StorytellerOptions.model_validate,
    build=lambda sheet, options: Character.model_validate(sheet),
    load=lambda sheet, options: rules.dump(rules.initial_sheet(sheet, options)),
    validate=st.validate_character, render=view.render_sheet,  # type: ignore[arg-type]
    submit_label=N_("✅ Submit to the GM"), prompt_args=_asks, jumps_by_key=True,
    legacy_key="sheet",
    preview_hint=(N_("Tap a step to change it, or submit the character to the GM."),
                  N_("Tap a step to change it, or save the NPC: it is active at once.")),
)  # fmt: skip
StorytellerSG = flow_states(FLOW)
START_STATE = StorytellerSG.name


def create_dialogs() -> list[Any]:
    return [build_dialog(FLOW, StorytellerSG)]
