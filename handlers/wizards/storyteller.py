"""The ``storyteller`` (Changeling: The Dreaming) character-creation wizard.

Steps: name, concept, kith, seeming, priorities (rank the attribute and the ability groups),
attributes, talents, skills, knowledges, Arts, Realms, Backgrounds, Glamour/Banality/Willpower
(the starting ratings), freebies (any trait, at the running cost), preview (jump back to any
step, submit to the GM). On the creation steps a dot must come from the category's creation
budget; the freebie step reopens the same pages in freebie mode.
The draft sheet lives in ``dialog_data["sheet"]`` as JSON (the FSM storage is Postgres, so a
restart resumes at the same step). The rules come from ``engine.systems.storyteller``; the
per-press checks are in ``storyteller_rules``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import F, Router
from aiogram.enums import ContentType
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import Data, DialogManager, Window
from aiogram_dialog.widgets.input import ManagedTextInput, MessageInput, TextInput
from aiogram_dialog.widgets.input.text import OnSuccess
from aiogram_dialog.widgets.kbd import (
    Button,
    Cancel,
    Column,
    Group,
    ListGroup,
    Row,
    Select,
)
from aiogram_dialog.widgets.kbd.select import OnItemClick
from aiogram_dialog.widgets.text import Const, Format, Multi

from bot.i18n import N_, Translator
from engine.systems.storyteller import (
    AbilityGroup,
    AttributeGroup,
    Character,
    FreebieReport,
    StorytellerOptions,
    freebie_report,
    trait_name,
    validate_character,
)
from handlers.views.sheets import fit
from handlers.views.sheets.storyteller import KITHS, SEEMINGS, choice_name, dots_bar, render_sheet
from handlers.wizards import storyteller_rules as rules
from handlers.wizards.common import (
    T,
    WizardDialog,
    WizardStart,
    clean_name,
    clean_text,
    esc,
    finish_wizard,
    for_a_player,
    locale_of,
    making_npc,
    refuse,
    violations_text,
)

logger = logging.getLogger(__name__)

CONCEPT_MAX: Final = 200


class StorytellerSG(StatesGroup):
    name = State()
    concept = State()
    kith = State()
    seeming = State()
    prio = State()
    attrs = State()
    talents = State()
    skills = State()
    knowl = State()
    arts = State()
    realms = State()
    bgs = State()
    ctr = State()
    freebies = State()
    preview = State()


START_STATE = StorytellerSG.name

ORDER: Final[tuple[State, ...]] = (
    StorytellerSG.name,
    StorytellerSG.concept,
    StorytellerSG.kith,
    StorytellerSG.seeming,
    StorytellerSG.prio,
    StorytellerSG.attrs,
    StorytellerSG.talents,
    StorytellerSG.skills,
    StorytellerSG.knowl,
    StorytellerSG.arts,
    StorytellerSG.realms,
    StorytellerSG.bgs,
    StorytellerSG.ctr,
    StorytellerSG.freebies,
    StorytellerSG.preview,
)
PAGES: Final[dict[State, str]] = {
    StorytellerSG.attrs: rules.ATTR,
    StorytellerSG.talents: AbilityGroup.TALENTS.value,
    StorytellerSG.skills: AbilityGroup.SKILLS.value,
    StorytellerSG.knowl: AbilityGroup.KNOWLEDGES.value,
    StorytellerSG.arts: "art",
    StorytellerSG.realms: "realm",
    StorytellerSG.bgs: "background",
    StorytellerSG.ctr: rules.CTR,
}
STEP_TITLES: Final[dict[State, str]] = {
    StorytellerSG.name: N_("Name"),
    StorytellerSG.concept: N_("Concept"),
    StorytellerSG.kith: N_("Kith"),
    StorytellerSG.seeming: N_("Seeming"),
    StorytellerSG.prio: N_("Priorities"),
    StorytellerSG.attrs: N_("Attributes"),
    StorytellerSG.talents: N_("Talents"),
    StorytellerSG.skills: N_("Skills"),
    StorytellerSG.knowl: N_("Knowledges"),
    StorytellerSG.arts: N_("Arts"),
    StorytellerSG.realms: N_("Realms"),
    StorytellerSG.bgs: N_("Backgrounds"),
    StorytellerSG.ctr: N_("Glamour, Banality, Willpower"),
    StorytellerSG.freebies: N_("Freebies"),
    StorytellerSG.preview: N_("Preview"),
}
RETURN_KEY: Final = "back_to"  # dialog_data: the state name Next/Back return to (a detour)
ERROR_KEY: Final = "err"  # dialog_data: a refusal shown once under the step's text

Getter = Callable[..., Awaitable[dict[str, Any]]]


# --- small helpers ----------------------------------------------------------------------------


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


def _options(manager: DialogManager) -> StorytellerOptions:
    return StorytellerOptions.model_validate(WizardStart.of(manager).options)


def _sheet(manager: DialogManager) -> Character:
    return rules.load(manager.dialog_data)


def _save(manager: DialogManager, character: Character) -> None:
    manager.dialog_data["sheet"] = rules.dump(character)


def _name(key: str, locale: str) -> str:
    return esc(trait_name(key).render(locale))


def _short(state: State) -> str:
    """``StorytellerSG:attrs`` → ``attrs`` (for widget ids: ASCII, short)."""
    return str(state.state).rsplit(":", 1)[-1]


def _header(manager: DialogManager, state: State) -> str:
    t = _t(manager)
    title = t(STEP_TITLES[state])
    step = t(
        "Step {n} of {total}: {title}", n=ORDER.index(state) + 1, total=len(ORDER), title=title
    )
    return f"<b>{step}</b>"


def _state_named(name: str) -> State | None:
    return next((s for s in ORDER if s.state == name), None)


def _error_line(manager: DialogManager) -> str:
    """The last refusal, shown once (the next render forgets it)."""
    error = manager.dialog_data.pop(ERROR_KEY, None)
    return f"\n\n⛔ {error}" if error else ""


def _fail(manager: DialogManager, text: str) -> None:
    """Show ``text`` (escaped HTML) once under the step; a press gets it as its answer too."""
    refuse(manager, text)
    manager.dialog_data[ERROR_KEY] = text


def _in_freebies(manager: DialogManager) -> bool:
    return manager.dialog_data.get(RETURN_KEY) == StorytellerSG.freebies.state


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


# --- navigation ---------------------------------------------------------------------------------


async def _go(manager: DialogManager, step: int) -> None:
    """Next (+1) or Back (−1); a detour from the preview or the freebies step returns there."""
    detour = _state_named(str(manager.dialog_data.pop(RETURN_KEY, "") or ""))
    if detour is not None:
        await manager.switch_to(detour)
        return
    current = manager.current_context().state
    index = ORDER.index(current) + step
    await manager.switch_to(ORDER[max(0, min(index, len(ORDER) - 1))])


async def on_next(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    await _go(manager, +1)


async def on_back(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    await _go(manager, -1)


def _jump(target: State, via: State) -> Callable[..., Awaitable[None]]:
    """A button that opens ``target`` and comes back to ``via`` on Next/Back."""

    async def handler(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
        manager.dialog_data[RETURN_KEY] = via.state
        await manager.switch_to(target)

    return handler


def _skip_or_next() -> Button:
    """«Skip ▶» on an empty optional step, «Next ▶» once it holds an answer (issue 36 item 12)."""
    label = Multi(T("Next ▶", when="filled"), T("Skip ▶", when=~F["filled"]))
    return Button(label, id="nx", on_click=on_next)


def _nav() -> Row:
    return Row(
        Button(T("◀ Back"), id="bk", on_click=on_back),
        Button(T("Next ▶"), id="nx", on_click=on_next),
    )


# --- start --------------------------------------------------------------------------------------


async def on_start(start_data: Data, manager: DialogManager) -> None:
    start = WizardStart.of(manager)
    _save(manager, rules.initial_sheet(start.draft, _options(manager)))


# --- name and concept ---------------------------------------------------------------------------


def _name_factory(text: str) -> str:
    name = clean_name(text)
    if name is None:
        raise ValueError(text)
    return name


def _concept_factory(text: str) -> str:
    concept = clean_text(text, CONCEPT_MAX)
    if concept is None:
        raise ValueError(text)
    return " ".join(concept.split())


async def on_name(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, name: str
) -> None:
    _save(manager, _sheet(manager).model_copy(update={"name": name}))
    await _go(manager, +1)


async def on_bad_name(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, error: ValueError
) -> None:
    t = _t(manager)
    _fail(manager, t("That does not fit: one line, 1 to 64 characters, not starting with «/»."))


async def on_concept(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, concept: str
) -> None:
    _save(manager, _sheet(manager).model_copy(update={"concept": concept}))
    await _go(manager, +1)


async def on_bad_concept(
    message: Message, widget: ManagedTextInput[str], manager: DialogManager, error: ValueError
) -> None:
    t = _t(manager)
    _fail(manager, t("The concept must be text of 1 to {limit} characters.", limit=CONCEPT_MAX))


async def on_not_text(message: Message, widget: MessageInput, manager: DialogManager) -> None:
    t = _t(manager)
    _fail(manager, t("Please answer with text."))


async def name_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    name = _sheet(dialog_manager).name
    text = _header(dialog_manager, StorytellerSG.name) + "\n"
    text += t("What is your changeling called? Send the name as a message.")
    if name:
        text += "\n" + t("Now: <b>{name}</b>", name=esc(name))
    return {"text": text + _error_line(dialog_manager), "has_name": bool(name)}


async def concept_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    concept = _sheet(dialog_manager).concept
    text = _header(dialog_manager, StorytellerSG.concept) + "\n"
    text += t(
        "Who is the character in a few words (e.g. «runaway poet»)? Send it as a message, or skip."
    )
    if concept:
        text += "\n" + t("Now: <b>{name}</b>", name=esc(concept))
    return {"text": text + _error_line(dialog_manager), "filled": bool(concept)}


# --- kith and seeming ---------------------------------------------------------------------------


def _choices(catalogue: dict[str, str], current: str, t: Translator) -> list[dict[str, str]]:
    return [
        {"id": key, "label": ("✓ " if key == current else "") + t(msgid)}
        for key, msgid in catalogue.items()
    ]


async def kith_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    kith = _sheet(dialog_manager).kith
    text = _header(dialog_manager, StorytellerSG.kith) + "\n"
    text += t("Pick your kith, or send another one as a message.")
    if kith:
        text += "\n" + t("Now: <b>{name}</b>", name=choice_name(kith, KITHS, t))
    items = _choices(KITHS, kith, t)
    return {"text": text + _error_line(dialog_manager), "items": items, "filled": bool(kith)}


async def seeming_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t = _t(dialog_manager)
    seeming = _sheet(dialog_manager).seeming
    text = _header(dialog_manager, StorytellerSG.seeming) + "\n"
    text += t("Pick your seeming (your age among the fae), or send another one as a message.")
    if seeming:
        text += "\n" + t("Now: <b>{name}</b>", name=choice_name(seeming, SEEMINGS, t))
    items = _choices(SEEMINGS, seeming, t)
    return {"text": text + _error_line(dialog_manager), "items": items, "filled": bool(seeming)}


def _pick(field: str, catalogue: dict[str, str]) -> OnItemClick[Any, str]:
    """A catalogue button: store its key and go on."""

    async def handler(
        callback: CallbackQuery, widget: Any, manager: DialogManager, item_id: str
    ) -> None:
        if item_id in catalogue:
            _save(manager, _sheet(manager).model_copy(update={field: item_id}))
            await _go(manager, +1)

    return handler


def _typed(field: str) -> OnSuccess[str]:
    """A typed answer instead of a button: the player's own words."""

    async def handler(
        message: Message, widget: ManagedTextInput[str], manager: DialogManager, value: str
    ) -> None:
        _save(manager, _sheet(manager).model_copy(update={field: value}))
        await _go(manager, +1)

    return handler


def _choice_window(state: State, getter: Getter, field: str, catalogue: dict[str, str]) -> Window:
    return _text_window(
        state,
        getter,
        TextInput(
            id=f"t{field}",
            type_factory=_name_factory,
            on_success=_typed(field),
            on_error=on_bad_name,
        ),
        Group(
            Select(
                Format("{item[label]}"),
                id=f"s{field}",
                item_id_getter=lambda x: x["id"],
                items="items",
                on_click=_pick(field, catalogue),
            ),
            width=3,
        ),
        Row(Button(T("◀ Back"), id="bk", on_click=on_back), _skip_or_next()),
    )


# --- priorities ---------------------------------------------------------------------------------


async def prio_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t, locale = _t(dialog_manager), locale_of(dialog_manager)
    options = _options(dialog_manager)
    sheet = _sheet(dialog_manager)

    def ranked(order: tuple[str, ...], budgets: tuple[int, int, int]) -> list[dict[str, str]]:
        return [
            {"id": key, "label": f"{i + 1}. {_name(key, locale)} — {budget}"}
            for i, (key, budget) in enumerate(zip(order, budgets, strict=True))
        ]

    attrs = tuple(g.value for g in sheet.attribute_priority)
    abilities = tuple(g.value for g in sheet.ability_priority)
    text = _header(dialog_manager, StorytellerSG.prio) + "\n"
    text += t(
        "Rank the attribute groups and the ability groups: the first gets the most dots. Tap "
        "a group to move it up."
    )
    return {
        "text": text + _error_line(dialog_manager),
        "attr_rank": ranked(attrs, options.attribute_dots),
        "abil_rank": ranked(abilities, options.ability_dots),
    }


async def on_promote_attr(
    callback: CallbackQuery, widget: Any, manager: DialogManager, item_id: str
) -> None:
    sheet = _sheet(manager)
    attrs = rules.promote([g.value for g in sheet.attribute_priority], item_id)
    abilities = [g.value for g in sheet.ability_priority]
    _save(manager, rules.with_rankings(sheet, attrs, abilities))


async def on_promote_ability(
    callback: CallbackQuery, widget: Any, manager: DialogManager, item_id: str
) -> None:
    sheet = _sheet(manager)
    attrs = [g.value for g in sheet.attribute_priority]
    abilities = rules.promote([g.value for g in sheet.ability_priority], item_id)
    _save(manager, rules.with_rankings(sheet, attrs, abilities))


# --- dot pages ----------------------------------------------------------------------------------


def _page_hint(page: str, options: StorytellerOptions, t: Translator, fb: bool) -> str:
    if fb and page == rules.CTR:
        return t(
            "Freebies raise Glamour and Willpower above the starting rating; Banality cannot "
            "be bought."
        )
    if fb:
        return t("Freebie mode: extra dots cost freebies; the cost is counted as you go.")
    if page == rules.CTR:
        return t(
            "Enter the starting ratings (1–{top}) your Kith and Seeming give; the GM approves "
            "them.",
            top=options.character_trait_max,
        )
    if page in rules.ABILITY_PAGES:
        return t(
            "Spend the group's dots with + and −; at most {cap} dots in one ability for now.",
            cap=options.ability_creation_max,
        )
    return t("Spend the dots with + and −.")


def _page_budget(page: str, report: FreebieReport, t: Translator, locale: str) -> list[str]:
    if page == rules.ATTR:
        wanted = {g.value for g in AttributeGroup}
    elif page == rules.CTR:
        wanted = {"glamour", "willpower"}
    else:
        wanted = {page}
    spends = [c for c in report.categories if c.category in wanted]
    lines = freebie_lines(
        FreebieReport(
            report.attribute_priority, report.ability_priority, tuple(spends), report.available
        ),
        t,
        locale,
    )
    lines[-1] = freebie_total(report, t)
    return lines


def _dots_getter(state: State) -> Getter:
    page = PAGES[state]

    async def getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
        t, locale = _t(dialog_manager), locale_of(dialog_manager)
        options = _options(dialog_manager)
        sheet = _sheet(dialog_manager)
        fb = _in_freebies(dialog_manager)
        top = options.character_trait_max if page == rules.CTR else options.trait_max
        rows = [
            {
                "key": key,
                "label": f"{_name(key, locale)} {dots_bar(rules.dots(sheet, page, key), top)}",
            }
            for key in rules.page_keys(page)
        ]
        report = freebie_report(sheet, options)
        parts = [
            _header(dialog_manager, state),
            _page_hint(page, options, t, fb),
            "",
            *_page_budget(page, report, t, locale),
        ]
        return {"text": "\n".join(parts) + _error_line(dialog_manager), "rows": rows}

    return getter


def _press_handler(page: str, delta: int) -> Callable[..., Awaitable[None]]:
    async def handler(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
        key = str(getattr(manager, "item_id", ""))
        if key not in rules.page_keys(page):
            return
        result = rules.press(
            _sheet(manager), _options(manager), page, key, delta, freebies=_in_freebies(manager)
        )
        if isinstance(result, rules.Refusal):
            reason = _refusal_text(result, _t(manager), locale_of(manager))
            _fail(manager, esc(reason))
            return
        _save(manager, result)

    return handler


def _dots_window(state: State) -> Window:
    page = PAGES[state]
    return Window(
        Format("{text}"),
        ListGroup(
            Row(
                Button(Const("−"), id="m", on_click=_press_handler(page, -1)),
                Button(Format("{item[label]}"), id="n"),
                Button(Const("+"), id="p", on_click=_press_handler(page, +1)),
            ),
            id="d",
            item_id_getter=lambda item: item["key"],
            items="rows",
        ),
        _nav(),
        state=state,
        getter=_dots_getter(state),
    )


# --- freebies and preview -----------------------------------------------------------------------


async def freebies_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t, locale = _t(dialog_manager), locale_of(dialog_manager)
    options = _options(dialog_manager)
    report = freebie_report(_sheet(dialog_manager), options)
    costs = options.freebie_costs
    head = _header(dialog_manager, StorytellerSG.freebies) + "\n"
    head += t(
        "{available} freebie points. A dot costs: attribute "
        "{attribute}, ability {ability}, Art {art}, Realm {realm}, Background {background}, "
        "Glamour {glamour}, Willpower {willpower}. Pick what to raise.",
        available=options.freebies,
        attribute=costs.attribute,
        ability=costs.ability,
        art=costs.art,
        realm=costs.realm,
        background=costs.background,
        glamour=costs.glamour,
        willpower=costs.willpower,
    )
    body = "\n".join(freebie_lines(report, t, locale))
    return {"text": f"{head}\n\n{body}" + _error_line(dialog_manager)}


async def preview_getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    t, locale = _t(dialog_manager), locale_of(dialog_manager)
    sheet = _sheet(dialog_manager)
    problems = validate_character(sheet, _options(dialog_manager))
    parts = [_header(dialog_manager, StorytellerSG.preview), render_sheet(sheet, t, locale)]
    if problems:
        parts.append(violations_text(problems, locale))
    if WizardStart.of(dialog_manager).npc:  # the GM's own NPC: saved, nobody approves it
        parts.append(t("Tap a step to change it, or save the NPC: it is active at once."))
    else:
        parts.append(t("Tap a step to change it, or submit the character to the GM."))
    return {"text": fit("\n\n".join(parts) + _error_line(dialog_manager))}


async def on_submit(callback: CallbackQuery, button: Button, manager: DialogManager) -> None:
    sheet = _sheet(manager)
    problems = await finish_wizard(manager, sheet)
    if problems:
        logger.info("storyteller submission refused: %d problems", len(problems))
        _fail(manager, violations_text(problems, locale_of(manager)))


FREEBIE_TARGETS: Final = tuple(PAGES)


def _freebie_buttons() -> Group:
    return Group(
        *(
            Button(
                T(STEP_TITLES[s]), id=f"f{_short(s)}", on_click=_jump(s, StorytellerSG.freebies)
            )
            for s in FREEBIE_TARGETS
        ),
        width=2,
    )


def _preview_buttons() -> Group:
    """One button per step: the preview can jump back to any of them."""
    return Group(
        *(
            Button(T(STEP_TITLES[s]), id=f"j{_short(s)}", on_click=_jump(s, StorytellerSG.preview))
            for s in ORDER[:-1]
        ),
        width=3,
    )


# --- the dialog -------------------------------------------------------------------------------


def _text_window(state: State, getter: Getter, text_input: TextInput[str], *extra: Any) -> Window:
    # MessageInput after TextInput: a sticker or photo repeats the question with the reason
    not_text = MessageInput(on_not_text, content_types=[ContentType.ANY])
    return Window(Format("{text}"), text_input, not_text, *extra, state=state, getter=getter)


def create_dialogs() -> list[Router]:
    dialog = WizardDialog(
        _text_window(
            StorytellerSG.name,
            name_getter,
            TextInput(
                id="nm", type_factory=_name_factory, on_success=on_name, on_error=on_bad_name
            ),
            Row(
                Cancel(T("✖ Cancel"), id="cx"),
                Button(T("Next ▶"), id="nx", on_click=on_next, when="has_name"),
            ),
        ),
        _text_window(
            StorytellerSG.concept,
            concept_getter,
            TextInput(
                id="cp",
                type_factory=_concept_factory,
                on_success=on_concept,
                on_error=on_bad_concept,
            ),
            Row(Button(T("◀ Back"), id="bk", on_click=on_back), _skip_or_next()),
        ),
        _choice_window(StorytellerSG.kith, kith_getter, "kith", KITHS),
        _choice_window(StorytellerSG.seeming, seeming_getter, "seeming", SEEMINGS),
        Window(
            Format("{text}"),
            Column(
                Select(
                    Format("{item[label]}"),
                    id="pa",
                    item_id_getter=lambda x: x["id"],
                    items="attr_rank",
                    on_click=on_promote_attr,
                ),
            ),
            Column(
                Select(
                    Format("{item[label]}"),
                    id="pb",
                    item_id_getter=lambda x: x["id"],
                    items="abil_rank",
                    on_click=on_promote_ability,
                ),
            ),
            _nav(),
            state=StorytellerSG.prio,
            getter=prio_getter,
        ),
        *(_dots_window(state) for state in PAGES),
        Window(
            Format("{text}"),
            _freebie_buttons(),
            _nav(),
            state=StorytellerSG.freebies,
            getter=freebies_getter,
        ),
        Window(
            Format("{text}"),
            _preview_buttons(),
            Row(
                Cancel(T("✖ Cancel"), id="cx"),
                Button(T("✅ Submit to the GM"), id="ok", on_click=on_submit, when=for_a_player),
                Button(T("✅ Save the NPC"), id="okn", on_click=on_submit, when=making_npc),
            ),
            state=StorytellerSG.preview,
            getter=preview_getter,
        ),
        on_start=on_start,
    )
    return [dialog]
