"""The ``storyteller`` (Changeling: The Dreaming) character-creation wizard, as a ``Flow``.

Steps: name, concept, kith, seeming, priorities (rank the attribute and the ability groups),
attributes, talents, skills, knowledges, Arts, Realms, Backgrounds, Glamour/Banality/Willpower
(the starting ratings), freebies (reopens the dot pages: any trait, at the running cost),
preview. The draft is the engine's ``Character`` as JSON (the hand-written wizard kept the
same under ``dialog_data["sheet"]``: one started before the port resumes from it). On the
creation pages a dot must come from its category's creation budget; the per-press rules are
in ``storyteller_rules``, the prices in ``engine.systems.storyteller``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Column, Select
from aiogram_dialog.widgets.text import Format

from bot.i18n import N_, Translator
from engine.systems.storyteller import (
    ATTRIBUTE_GROUPS,
    AbilityGroup,
    Character,
    FreebieReport,
    StorytellerOptions,
    freebie_report,
    trait_name,
    validate_character,
)
from handlers.views.sheets.storyteller import KITHS, SEEMINGS, dots_bar, render_sheet
from handlers.wizards import storyteller_rules as rules
from handlers.wizards.common import esc
from handlers.wizards.flow import Allocate, Choice, Choose, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.custom import Custom, draft
from handlers.wizards.flow.kinds import DotPress, Draft
from handlers.wizards.flow.reopen import reopen

FREEBIES: Final = "freebies"  # the mode the freebie step reopens the dot pages in
UNFIT: Final = N_("That does not fit: one line, 1 to 64 characters, not starting with «/».")
SPEND: Final = N_("Spend the dots with + and −.")


def _name(key: str, locale: str) -> str:
    return esc(trait_name(key).render(locale))


def _refusal_text(refusal: rules.Refusal, t: Translator, locale: str) -> str:
    params = dict(refusal.params)
    if "key" in params:
        params["name"] = trait_name(str(params.pop("key"))).render(locale)
    if "group_key" in params:
        params["group"] = trait_name(str(params.pop("group_key"))).render(locale)
    return t(refusal.msgid, **params)


def freebie_lines(report: FreebieReport, t: Translator, locale: str) -> list[str]:
    """The running freebie account: every category's dots against its budget and the cost."""
    lines: list[str] = []
    for cat in report.categories:
        name = _name(cat.category, locale)
        if cat.budget:
            line = f"{name}: {cat.spent}/{cat.budget}"
        elif cat.excess:
            line = f"{name}:"
        else:
            continue
        if cat.excess:
            line += " " + t("+{extra} ⇒ {cost} fp", extra=cat.excess, cost=cat.cost)
        lines.append("• " + line)
    lines.append(freebie_total(report, t))
    return lines


def freebie_total(report: FreebieReport, t: Translator) -> str:
    return t(
        "Freebies: {spent} of {available} spent, {left} left.",
        spent=report.spent,
        available=report.available,
        left=report.remaining,
    )


# --- the dot pages ----------------------------------------------------------------------------


def _press(page: str, press: DotPress) -> Draft | str:
    assert isinstance(press.sheet, Character)
    result = rules.press(
        press.sheet, press.options, page, press.trait, press.delta, freebies=press.mode == FREEBIES
    )
    if isinstance(result, rules.Refusal):
        return esc(_refusal_text(result, press.t, press.locale))
    return rules.dump(result)


def _row(page: str, sheet: Character, options: StorytellerOptions, key: str, locale: str) -> str:
    top = options.character_trait_max if page == rules.CTR else options.trait_max
    return f"{_name(key, locale)} {dots_bar(rules.dots(sheet, page, key), top)}"


def _counters(
    page: str, sheet: Character, options: StorytellerOptions, t: Translator, locale: str
) -> str:
    """The page's categories against their budgets, then the freebie total."""
    if page == rules.ATTR:
        wanted = {g.value for g in ATTRIBUTE_GROUPS}
    elif page == rules.CTR:
        wanted = {"glamour", "willpower"}
    else:
        wanted = {page}
    report = freebie_report(sheet, options)
    spends = tuple(c for c in report.categories if c.category in wanted)
    mine = FreebieReport(report.attribute_priority, report.ability_priority, spends, 0)
    return "\n".join([*freebie_lines(mine, t, locale)[:-1], freebie_total(report, t)])


def _page(key: str, title: str, prompt: str, page: str) -> Allocate:
    traits = tuple(Choice(k, k) for k in rules.page_keys(page))
    return Allocate(
        key, title, prompt, traits, budget=lambda o: 0, cap=lambda o: o.trait_max,
        page_size=len(traits), rule=partial(_press, page), row=partial(_row, page),
        counters=partial(_counters, page),
    )  # fmt: skip


ABILITIES: Final = N_(
    "Spend the group's dots with + and −; at most {cap} dots in one ability for now."
)
PAGES: Final = (
    _page("attrs", N_("Attributes"), SPEND, rules.ATTR),
    _page("talents", N_("Talents"), ABILITIES, AbilityGroup.TALENTS.value),
    _page("skills", N_("Skills"), ABILITIES, AbilityGroup.SKILLS.value),
    _page("knowl", N_("Knowledges"), ABILITIES, AbilityGroup.KNOWLEDGES.value),
    _page("arts", N_("Arts"), SPEND, "art"),
    _page("realms", N_("Realms"), SPEND, "realm"),
    _page("bgs", N_("Backgrounds"), SPEND, "background"),
    _page(
        "ctr", N_("Glamour, Banality, Willpower"),
        N_(
            "Enter the starting ratings (1–{top}) your Kith and Seeming give; the GM approves "
            "them."
        ),
        rules.CTR,
    ),
)  # fmt: skip


def _freebie_ask(key: str) -> str:
    if key == "ctr":
        return N_(
            "Freebies raise Glamour and Willpower above the starting rating; Banality cannot "
            "be bought."
        )
    return N_("Freebie mode: extra dots cost freebies; the cost is counted as you go.")


def _freebie_account(sheet: Character, options: StorytellerOptions, t: Any, locale: str) -> str:
    return "\n".join(freebie_lines(freebie_report(sheet, options), t, locale))


# --- priorities -------------------------------------------------------------------------------


def _ranked(order: tuple[Any, ...], budgets: tuple[int, ...], locale: str) -> list[dict[str, str]]:
    return [
        {"id": g.value, "label": f"{i + 1}. {_name(g.value, locale)} — {budget}"}
        for i, (g, budget) in enumerate(zip(order, budgets, strict=True))
    ]


def _rankings(sheet: Character, options: StorytellerOptions, t: Any, locale: str) -> dict:
    return {
        "attr_rank": _ranked(sheet.attribute_priority, options.attribute_dots, locale),
        "abil_rank": _ranked(sheet.ability_priority, options.ability_dots, locale),
    }


def _promote(field: str) -> Any:
    """Tap a group: it moves a place up its ranking."""

    async def handler(callback: CallbackQuery, w: Any, manager: DialogManager, item: str) -> None:
        sheet = draft(manager)
        sheet[field] = rules.promote(list(sheet[field]), item)

    return handler


def _rank_lists() -> list[Any]:
    lists = (("pa", "attr_rank", "attribute_priority"), ("pb", "abil_rank", "ability_priority"))
    return [
        Column(
            Select(
                Format("{item[label]}"), id=wid, item_id_getter=lambda x: x["id"], items=items,
                on_click=_promote(field),
            )
        )
        for wid, items, field in lists
    ]  # fmt: skip


# --- the flow ---------------------------------------------------------------------------------


def _asks(options: StorytellerOptions) -> dict[str, Any]:
    """The placeholders of the questions, from the game's options."""
    costs = options.freebie_costs.model_dump()
    top, cap = options.character_trait_max, options.ability_creation_max
    return {**costs, "cap": cap, "top": top, "available": options.freebies}


def _load(sheet: dict[str, Any] | None, options: StorytellerOptions) -> Draft:
    return rules.dump(rules.initial_sheet(sheet, options))


FLOW: Final = Flow(
    name="storyteller",
    steps=(
        Text("name", N_("Name"), N_("What is your changeling called? Send the name as a message."),
             required=True, unfit=UNFIT),
        Text("concept", N_("Concept"), N_(
            "Who is the character in a few words (e.g. «runaway poet»)? Send it as a message, or "
            "skip."), limit=200, unfit=N_("The concept must be text of 1 to {limit} characters.")),
        Choose("kith", N_("Kith"), N_("Pick your kith, or send another one as a message."),
               tuple(Choice(k, v) for k, v in KITHS.items()), typed=True, page_size=len(KITHS),
               unfit=UNFIT, select_id="skith", columns=3),
        Choose("seeming", N_("Seeming"), N_(
            "Pick your seeming (your age among the fae), or send another one as a message."),
               tuple(Choice(k, v) for k, v in SEEMINGS.items()), typed=True,
               page_size=len(SEEMINGS), unfit=UNFIT, select_id="sseeming", columns=3),
        Custom("prio", N_("Priorities"), N_(
            "Rank the attribute groups and the ability groups: the first gets the most dots. Tap "
            "a group to move it up."), _rank_lists, _rankings),
        *PAGES,
        reopen(FREEBIES, N_("Freebies"), N_(
            "{available} freebie points. A dot costs: attribute "
            "{attribute}, ability {ability}, Art {art}, Realm {realm}, Background {background}, "
            "Glamour {glamour}, Willpower {willpower}. Pick what to raise."),
            PAGES, mode=FREEBIES, lines=_freebie_account, asks=_freebie_ask, ids="f"),
    ),
    options=StorytellerOptions.model_validate,
    build=lambda sheet, options: Character.model_validate(sheet),
    load=_load,
    validate=validate_character,  # type: ignore[arg-type]
    render=render_sheet,  # type: ignore[arg-type]
    fields={key: () for key in ("name", "concept", "kith", "seeming", "prio", FREEBIES)}
    | {page.key: () for page in PAGES},  # Next never refuses: the preview lists what is left
    submit_label=N_("✅ Submit to the GM"),
    prompt_args=_asks,
    preview_hint=(
        N_("Tap a step to change it, or submit the character to the GM."),
        N_("Tap a step to change it, or save the NPC: it is active at once."),
    ),
    jumps_by_key=True,
    legacy_key="sheet",
)  # fmt: skip
StorytellerSG = flow_states(FLOW)
START_STATE = StorytellerSG.name


def create_dialogs() -> list[Any]:
    return [build_dialog(FLOW, StorytellerSG)]
