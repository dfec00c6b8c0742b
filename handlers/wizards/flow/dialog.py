"""One aiogram-dialog for any declared ``Flow``: a window per step, one widget factory per kind.

What every wizard built here shares, written once:

* the draft in ``dialog_data["draft"]`` (JSON, in Postgres: a restart resumes the same step);
* a header «Step n of N: Title», the step's question, «Now: …», the last refusal once;
* «◀ Back» / «Next ▶» (or «Skip ▶» while an optional step is empty), the same buttons in the
  same places whatever is typed; a pager (⬅️ n/m ➡️) on long lists;
* every refusal in the press's own answer and in the message (``common.refuse``);
* each step checked through the engine (its ``validate``, the step's fields) at «Next», each
  dot as it is pressed; the whole sheet at the preview and at the submit;
* the preview: the sheet, its problems, one button per step (Next comes back to it), the
  submit (or «Save the NPC»); «Cancel» on every step (``WizardDialog``); a returned sheet is
  re-entered at the preview (``WizardDialog.process_start``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import DialogManager, ShowMode, Window
from aiogram_dialog.widgets.input import MessageInput, TextInput
from aiogram_dialog.widgets.kbd import Button, Group, ListGroup, Row, Select
from aiogram_dialog.widgets.text import Const, Format, Multi

from bot.i18n import N_, Translator
from engine.common import errors_only, without_required
from handlers.views.sheets import fit
from handlers.wizards.common import (
    REVIEW_KEY,
    T,
    WizardDialog,
    WizardStart,
    esc,
    finish_wizard,
    locale_of,
    npc_preview_head,
    submit_button,
    tell_presser,
    violations_text,
)
from handlers.wizards.flow import look, reopen, stored
from handlers.wizards.flow.custom import Custom, Shown, remove_last, step_refused
from handlers.wizards.flow.extra import extra_lines, keep, own_refusal
from handlers.wizards.flow.kinds import (
    Allocate,
    Choice,
    Choose,
    DotPress,
    Draft,
    Flow,
    Info,
    Items,
    Step,
    Text,
)
from handlers.wizards.flow.opening import closed_at_start
from handlers.wizards.flow.screens import Screens
from handlers.wizards.flow.sent import show_sent
from handlers.wizards.flow.stored import DRAFT, ERROR

PAGES = "pages"  # {step key: page index}

Press = Callable[[CallbackQuery, Any, DialogManager], Awaitable[None]]


def flow_states(flow: Flow) -> type[StatesGroup]:
    """The flow's ``StatesGroup``: one state per step, then ``preview``."""
    names = [step.key for step in flow.steps] + ["preview"]
    names += [more for step in flow.steps if isinstance(step, Screens) for more in step.more]
    namespace: dict[str, Any] = {name: State() for name in names}
    return type(f"{flow.name.capitalize()}SG", (StatesGroup,), namespace)


# --- the draft and the current step ---------------------------------------------------------


def _draft(manager: DialogManager) -> Draft:
    return stored.draft(manager)  # a wizard stored before its system's port: upgraded


def _t(manager: DialogManager) -> Translator:
    t: Translator = manager.middleware_data["t"]
    return t


class _Runtime:
    """The flow bound to its states: what the handlers and the getter need."""

    def __init__(self, flow: Flow, states: type[StatesGroup]) -> None:
        self.flow = flow
        self.order: list[State] = list(states.__states__)
        self.preview = self.order[len(flow.steps)]  # a ``Screens`` step's more states follow
        self.total = len(flow.steps) + 1  # the steps and the preview, as the header counts

    def options(self, manager: DialogManager) -> Any:
        return self.flow.options(WizardStart.of(manager).options)

    def index(self, manager: DialogManager) -> int:
        return self.order.index(manager.current_context().state)

    def step(self, manager: DialogManager) -> Step | None:
        i = self.index(manager)
        return self.flow.steps[i] if i < len(self.flow.steps) else None

    async def choices(self, manager: DialogManager, step: Choose) -> tuple[Choice, ...]:
        if step.source is None:
            return step.choices
        return await step.source(manager.middleware_data["uow"], WizardStart.of(manager).game_id)

    def fail(self, manager: DialogManager, text: str) -> None:
        step_refused(manager, text)

    def problems(self, manager: DialogManager, step: Step, draft: Draft | None = None) -> str:
        """The engine's blocking problems with this step's part of the sheet (escaped)."""
        options = self.options(manager)
        sheet = self.flow.build(draft if draft is not None else _draft(manager), options)
        found = errors_only(self.flow.validate(sheet, options))
        prefixes = self.flow.fields_of(step)
        mine = [v for v in found if v.field.startswith(prefixes)]
        return violations_text(mine, locale_of(manager), self.flow.explain)

    async def go(self, manager: DialogManager, delta: int) -> None:
        manager.dialog_data.pop(ERROR, None)
        if await reopen.back(manager):  # a step reopened in a mode returns to its opener
            return
        if delta > 0 and manager.dialog_data.get(REVIEW_KEY):
            await manager.switch_to(self.preview)
            return
        target = max(0, min(self.index(manager) + delta, self.total - 1))
        await manager.switch_to(self.order[target])


# --- handlers ---------------------------------------------------------------------------------


_NEEDS_TEXT = N_("Type the answer in a message first.")
_NEEDS_CHOICE = N_("Choose one first.")


def _on_next(rt: _Runtime, step: Step) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        t, draft = _t(manager), _draft(manager)
        value = draft.get(step.key)
        if isinstance(step, Text | Choose) and step.required and not value:
            typed = isinstance(step, Text)  # say what the step takes, not only that it is empty
            rt.fail(manager, esc(t(_NEEDS_TEXT if typed else _NEEDS_CHOICE)))
            return
        if isinstance(step, Custom) and step.needs and not value:
            rt.fail(manager, esc(t(step.needs)))
            return
        if isinstance(step, Items) and len(value or []) < step.min_items:
            rt.fail(manager, esc(t("Add at least {n} before going on.", n=step.min_items)))
            return
        if isinstance(step, Allocate) and step.exact:
            left = step.budget(rt.options(manager)) - step.spent(value or {})
            if left > 0:
                rt.fail(manager, esc(t("Spend every point first: {left} left.", left=left)))
                return
        problems = rt.problems(manager, step)
        if problems:
            rt.fail(manager, problems)
            return
        await rt.go(manager, +1)

    return handler


def _on_back(rt: _Runtime) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        await rt.go(manager, -1)

    return handler


def _clean(step: Text | Items | Choose, raw: str) -> str | None:
    one_line = step.one_line if isinstance(step, Text) else True
    limit = step.limit if isinstance(step, Text | Items) else 64
    text = " ".join(raw.split()) if one_line else raw.strip()
    return text if 0 < len(text) <= limit and not text.startswith("/") else None


def _on_text(rt: _Runtime, step: Text | Items | Choose) -> Callable[..., Awaitable[None]]:
    async def handler(message: Message, widget: Any, manager: DialogManager, raw: str) -> None:
        t, draft = _t(manager), _draft(manager)
        own = own_refusal(manager, step, raw)
        if own:
            rt.fail(manager, own)
            return
        text = _clean(step, raw)
        if text is None:
            limit = step.limit if isinstance(step, Text | Items) else 64
            said = t("Text of 1 to {limit} characters, please.", limit=limit)
            unfit = getattr(step, "unfit", "")  # the step's own words for it
            rt.fail(manager, esc(t(unfit, limit=limit) if unfit else said))
            return
        if isinstance(step, Items):
            if len(draft.get(step.key) or []) >= step.max_items:
                rt.fail(
                    manager, esc(t("At most {limit}: remove one first.", limit=step.max_items))
                )
                return
            draft[step.key] = [*(draft.get(step.key) or []), text]
            manager.dialog_data.pop(ERROR, None)
            return
        draft[step.key] = text
        await rt.go(manager, +1)

    return handler


def _on_not_text(rt: _Runtime) -> Callable[..., Awaitable[None]]:
    async def handler(message: Message, widget: Any, manager: DialogManager) -> None:
        rt.fail(manager, esc(_t(manager)(rt.flow.wording.not_text)))

    return handler


def _on_buttons_only(rt: _Runtime) -> Callable[..., Awaitable[None]]:
    """A message to the preview, or to a step with no input of its own."""

    async def handler(message: Message, widget: Any, manager: DialogManager) -> None:
        rt.fail(manager, esc(_t(manager)(rt.flow.wording.buttons_only)))

    return handler


def _on_choice(rt: _Runtime, step: Choose) -> Callable[..., Awaitable[None]]:
    async def handler(callback: CallbackQuery, w: Any, manager: DialogManager, item: str) -> None:
        draft, choices = _draft(manager), await rt.choices(manager, step)
        if item not in {c.id for c in choices}:
            t = _t(manager)  # a GM's choice removed since the list was shown
            rt.fail(manager, esc(t("That choice is gone; pick one of the list.")))
            return
        if step.pick == 1:
            draft[step.key] = item
            keep(draft, step, choices, item)
            await rt.go(manager, +1)
            return
        chosen = list(draft.get(step.key) or [])
        if item in chosen:
            chosen.remove(item)
        elif len(chosen) >= step.pick:
            t = _t(manager)
            rt.fail(manager, esc(t("At most {n}: tap a chosen one to drop it.", n=step.pick)))
            return
        else:
            chosen.append(item)
        draft[step.key] = chosen
        manager.dialog_data.pop(ERROR, None)

    return handler


def _on_dot(rt: _Runtime, step: Allocate, delta: int) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        trait = str(getattr(manager, "item_id", ""))
        names = {c.id: c.label for c in step.traits}
        if trait not in names:
            return
        if step.rule is not None:  # the step's own rule decides (``Allocate.rule``)
            return _own_rule(rt, step, manager, trait, delta)
        t, draft, options = _t(manager), _draft(manager), rt.options(manager)
        dots = dict(draft.get(step.key) or {})
        new = int(dots.get(trait, step.floor)) + delta
        name = t(names[trait])
        if new < step.floor:
            rt.fail(manager, esc(t("{name} cannot go below {low}.", name=name, low=step.floor)))
            return
        if new > step.cap(options):
            cap = step.cap(options)
            rt.fail(manager, esc(t("{name} is at the most, {high}.", name=name, high=cap)))
            return
        after = {**dots, trait: new}
        left = step.budget(options) - step.spent(dots)
        cost = step.spent(after) - step.spent(dots)
        if delta > 0 and cost > left:
            text = t(
                "Not enough points: this dot costs {cost}, {left} left.", cost=cost, left=left
            )
            rt.fail(manager, esc(text))
            return
        candidate = {**draft, step.key: after}
        before = rt.problems(manager, step)
        problems = rt.problems(manager, step, candidate) if delta > 0 else ""
        if problems and problems != before:
            rt.fail(manager, problems)
            return
        draft[step.key] = after
        manager.dialog_data.pop(ERROR, None)

    return handler


def _own_rule(
    rt: _Runtime, step: Allocate, manager: DialogManager, trait: str, delta: int
) -> None:
    assert step.rule is not None
    options, t = rt.options(manager), _t(manager)
    sheet = rt.flow.build(_draft(manager), options)
    mode = reopen.mode(manager)
    draft = _draft(manager)
    press = DotPress(sheet, options, trait, delta, mode, t, locale_of(manager), draft)
    outcome = step.rule(press)
    if isinstance(outcome, str):
        rt.fail(manager, outcome)
        return
    if outcome == draft and ERROR not in manager.dialog_data:  # nothing to redraw (− at 0)
        manager.show_mode = ShowMode.NO_UPDATE  # Telegram refuses an edit to the same message
        return
    manager.dialog_data[DRAFT] = outcome
    manager.dialog_data.pop(ERROR, None)


def _on_note(rt: _Runtime, step: Allocate) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        assert step.note is not None
        options = rt.options(manager)
        sheet = rt.flow.build(_draft(manager), options)
        trait = str(getattr(manager, "item_id", ""))
        tell_presser(manager, step.note(sheet, options, trait, locale_of(manager)))
        manager.show_mode = ShowMode.NO_UPDATE  # a toast: the message stays as it is

    return handler


def _on_page(step: Step, delta: int) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        pages = manager.dialog_data.setdefault(PAGES, {})
        pages[step.key] = int(pages.get(step.key, 0)) + delta  # wrapped by the getter

    return handler


def _jump(rt: _Runtime, index: int) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        manager.dialog_data[REVIEW_KEY] = True
        manager.dialog_data.pop(ERROR, None)
        await manager.switch_to(rt.order[index])

    return handler


def _on_submit(rt: _Runtime) -> Press:
    async def handler(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
        sheet = rt.flow.build(_draft(manager), rt.options(manager))
        finish = rt.flow.finish or finish_wizard
        problems = await finish(manager, sheet)
        if not problems and manager.current_stack().empty():  # sent, the wizard closed
            t, locale = _t(manager), locale_of(manager)
            await show_sent(callback, rt.flow.render(sheet, t, locale), t)
        if problems:
            reasons = violations_text(problems, locale_of(manager))
            refused = rt.flow.refused
            rt.fail(manager, _t(manager)(refused, reasons=reasons) if refused else reasons)

    return handler


# --- the window data ------------------------------------------------------------------------


def _page(
    manager: DialogManager, step: Step, items: list[Any], size: int
) -> tuple[list[Any], str]:
    pages = max(1, -(-len(items) // size))
    page = int(manager.dialog_data.get(PAGES, {}).get(step.key, 0)) % pages
    return items[page * size : (page + 1) * size], f"{page + 1}/{pages}"


async def _body(rt: _Runtime, manager: DialogManager, step: Step, t: Translator) -> dict[str, Any]:
    """The step's own lines («Now: …», the list) and its rows of buttons."""
    value = _draft(manager).get(step.key)
    lines: list[str] = []
    choices: tuple[Choice, ...] = ()
    data: dict[str, Any] = {"filled": bool(value), "rows": [], "page": "", "paged": False}
    if isinstance(step, Text) and value:
        lines.append(t(rt.flow.wording.now, name=esc(value), current=esc(value)).strip("\n"))
    elif isinstance(step, Choose):
        chosen = [c for c in ([value] if isinstance(value, str) else list(value or [])) if c]
        choices = await rt.choices(manager, step)
        labels = {c.id: c.label if step.source else t(c.label) for c in choices}
        if chosen:
            shown = ", ".join(esc(labels.get(c, c)) for c in chosen)
            lines.append(t("Now: <b>{name}</b>", name=shown))
        rows = [
            {"id": c.id, "label": ("✓ " if c.id in chosen else "") + labels[c.id]} for c in choices
        ]
        data["rows"], data["page"] = _page(manager, step, rows, step.page_size)
        data["paged"] = len(rows) > step.page_size
    elif isinstance(step, Allocate) and step.row is not None:  # its own rows and counters
        lines += _own_rows(rt, manager, step, t, data)
    elif isinstance(step, Custom):  # a system's own step (``flow.custom``)
        lines += await _custom(rt, manager, step, t, data)
    elif isinstance(step, Allocate):
        options = rt.options(manager)
        dots, cap = dict(value or {}), step.cap(options)
        budget = step.budget(options)
        lines.append(
            t("Points left: {left} of {budget}", left=budget - step.spent(dots), budget=budget)
        )
        rows = []
        for trait in step.traits:
            n = int(dots.get(trait.id, step.floor))
            rows.append({"id": trait.id, "label": f"{t(trait.label)} {'●' * n}{'○' * (cap - n)}"})
        data["rows"], data["page"] = _page(manager, step, rows, step.page_size)
        data["paged"] = len(rows) > step.page_size
    elif isinstance(step, Info):
        options = rt.options(manager)
        sheet = rt.flow.build(_draft(manager), options)
        lines.append(step.lines(sheet, options, t, locale_of(manager)))
        data["filled"] = True
    elif isinstance(step, Items):
        entries = list(value or [])
        lines += [f"{i}. {esc(entry)}" for i, entry in enumerate(entries, start=1)] or ["—"]
    data["lines"] = extra_lines(rt.flow, manager, step, _draft(manager), choices) + lines
    return data


def _own_rows(
    rt: _Runtime, manager: DialogManager, step: Allocate, t: Translator, data: dict[str, Any]
) -> list[str]:
    assert step.row is not None
    options, locale = rt.options(manager), locale_of(manager)
    sheet = rt.flow.build(_draft(manager), options)
    rows = [{"id": c.id, "label": step.row(sheet, options, c.id, t, locale)} for c in step.traits]
    data["rows"], data["page"] = _page(manager, step, rows, step.page_size)
    data["paged"] = len(rows) > step.page_size
    data.update(step.asks(sheet, options, t, locale) if step.asks else {})
    return [step.counters(sheet, options, t, locale)] if step.counters else []


async def _custom(
    rt: _Runtime, manager: DialogManager, step: Custom, t: Translator, data: dict[str, Any]
) -> list[str]:
    options = rt.options(manager)
    sheet = rt.flow.build(_draft(manager), options)
    own = step.data(Shown(sheet, options, t, locale_of(manager), manager))
    data.update(await own if inspect.isawaitable(own) else own)
    lines: list[str] = data.pop("lines", [])
    return lines


def _question(
    rt: _Runtime, manager: DialogManager, step: Step, t: Translator, data: dict[str, Any]
) -> str:
    """The step's question (another in a mode, ``flow.reopen``), its {placeholders} filled
    from the answers so far, the window's data and the game's options (``Flow.prompt_args``)."""
    answers = {k: esc(v) for k, v in _draft(manager).items() if isinstance(v, str)}
    args = rt.flow.prompt_args(rt.options(manager)) if rt.flow.prompt_args else {}
    return t(reopen.question(manager) or step.prompt, **answers, **data, **args)


def _getter(rt: _Runtime) -> Callable[..., Awaitable[dict[str, Any]]]:
    async def getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
        manager, t = dialog_manager, _t(dialog_manager)
        _draft(manager)  # an older shape read first: its ``error`` was a string
        await look.refresh_options(rt.flow, manager)  # ``Flow.live_options``
        index, total = rt.index(manager), rt.total
        step = rt.step(manager)
        error = manager.dialog_data.get(ERROR) or {}
        shown = error.get("text", "") if error.get("at") == rt.order[index].state else ""
        if _own_window(rt, index):
            return await _own_data(rt, manager, index, shown)
        if step is None:
            titles = [rt.flow.wording.jump.format(title=t(s.title)) for s in rt.flow.steps]
            text = _preview_text(rt, manager, t) + (f"\n\n{shown}" if shown else "")
            return {"text": text, "titles": titles}
        head = t("Step {n} of {total}: {title}", n=index + 1, total=total, title=t(step.title))
        data = await _body(rt, manager, step, t)
        lines = data.pop("lines")
        # (``t("")`` is the catalogue's header, not an empty question)
        question = _question(rt, manager, step, t, data) if step.prompt else ""
        parts = [rt.flow.wording.head(head, question), *lines]
        if shown:
            parts.append(shown)
        return {"text": "\n\n".join(p for p in parts if p), **data, **look.reviewed(manager)}

    return getter


def _preview_text(rt: _Runtime, manager: DialogManager, t: Translator) -> str:
    locale, options = locale_of(manager), rt.options(manager)
    sheet = rt.flow.build(_draft(manager), options)
    problems = rt.flow.validate(sheet, options)
    if WizardStart.of(manager).npc:
        problems = without_required(problems)
    notes = violations_text(problems, locale, rt.flow.explain)  # ``Flow.explain``
    head = t("Step {n} of {total}: {title}", n=rt.total, total=rt.total, title=t("Preview"))
    body = fit(rt.flow.render(sheet, t, locale), 3000 - len(notes))
    head = rt.flow.wording.preview(t, head, WizardStart.of(manager).npc)
    hint = rt.flow.preview_hint[WizardStart.of(manager).npc]  # ``Flow.preview_hint``
    return "\n\n".join(p for p in (head, body, notes, t(hint) if hint else "") if p)


# --- the windows: one factory per kind ------------------------------------------------------


def _nav(rt: _Runtime, i: int, step: Step) -> Row:
    optional = isinstance(step, Text | Choose) and not step.required
    back, forth, skip = rt.flow.wording.nav
    label = Multi(T(forth, when="filled"), T(skip, when=~F["filled"])) if optional else T(forth)
    wid = rt.flow.widget_id
    buttons = [Button(label, id=wid(step.key, "nx"), on_click=_on_next(rt, step))]
    if i > 0:
        buttons.insert(0, Button(T(back), id=wid(step.key, "bk"), on_click=_on_back(rt)))
    return Row(*buttons)


def _pager(step: Step) -> Row:
    """⬅️ n/m ➡️ under a list longer than a page (it wraps around)."""
    return Row(
        Button(Const("⬅️"), id="pp", on_click=_on_page(step, -1)),
        Button(Format("{page}"), id="pg"),
        Button(Const("➡️"), id="pn", on_click=_on_page(step, +1)),
        when="paged",
    )


def _window(rt: _Runtime, i: int, step: Step) -> Window:
    widgets: list[Any] = [Format("{text}")]
    if isinstance(step, Text | Items) or (isinstance(step, Choose) and step.typed):
        widgets.append(TextInput(id="in", on_success=_on_text(rt, step)))
    if isinstance(step, Custom):
        widgets += step.widgets()
    # a step with no input of its own takes buttons only (the same words by default)
    typed = any(isinstance(w, TextInput) for w in widgets)
    widgets.append(MessageInput(_on_not_text(rt) if typed else _on_buttons_only(rt)))
    if isinstance(step, Choose):
        select = Select(
            Format("{item[label]}"), id=rt.flow.widget_id(step.key, step.select_id),
            item_id_getter=lambda x: x["id"], items="rows", on_click=_on_choice(rt, step),
        )  # fmt: skip
        widgets += [Group(select, width=step.columns), _pager(step)]
    elif isinstance(step, Allocate):
        note = _on_note(rt, step) if step.note else None
        label = Button(Format("{item[label]}"), id="n", on_click=note)
        buttons = [
            Button(Const("−"), id="m", on_click=_on_dot(rt, step, -1)),
            Button(Const("+"), id="p", on_click=_on_dot(rt, step, +1)),
        ]
        row = Row(*([label, *buttons] if step.label_first else [buttons[0], label, buttons[1]]))
        widgets += [
            ListGroup(
                row,
                id=rt.flow.widget_id(step.key, "d"),
                item_id_getter=lambda x: x["id"],
                items="rows",
            ),
            _pager(step),
        ]
    elif isinstance(step, Items):
        remove = remove_last(step.key, N_("Nothing to remove yet."))
        widgets.append(Button(T("↩️ Remove last"), id="rm", on_click=remove))
    widgets.append(_nav(rt, i, step))
    widgets += look.preview_button(rt.flow, rt.preview)  # ``Flow.to_preview``
    return Window(*widgets, state=rt.order[i])


def _jump_id(flow: Flow, i: int) -> str:
    """The preview's button back to step ``i`` (``Flow.jumps_by_key``, ``Flow.ids``)."""
    return flow.widget_id("preview", f"j{flow.steps[i].key}" if flow.jumps_by_key else f"j{i}")


def _preview_window(rt: _Runtime) -> Window:
    jumps = [
        Button(Format(f"{{titles[{i}]}}"), id=_jump_id(rt.flow, i), on_click=_jump(rt, i))
        for i, step in enumerate(rt.flow.steps)
    ]
    return Window(
        npc_preview_head(),
        Format("{text}"),
        MessageInput(_on_buttons_only(rt)),
        Group(*jumps, width=2),
        submit_button(rt.flow.submit_label, _on_submit(rt), rt.flow.widget_id("preview", "ok")),
        *(rt.flow.preview_widgets() if rt.flow.preview_widgets else ()),
        state=rt.preview,
    )


def build_dialog(flow: Flow, states: type[StatesGroup]) -> WizardDialog:
    """The flow's dialog (a router: build one per dispatcher)."""
    rt = _Runtime(flow, states)
    stored.register(flow, states)  # a predecessor's sheet is read on resume

    async def on_start(start_data: Any, manager: DialogManager) -> None:
        if await closed_at_start(flow, manager):
            return
        start = WizardStart.of(manager)
        manager.dialog_data[DRAFT] = flow.load(start.draft, rt.options(manager))
        if flow.started is not None:
            await flow.started(manager)

    windows = [w for i, step in enumerate(flow.steps) for w in _windows(rt, i, step, states)]
    preview = flow.own_preview(states) if flow.own_preview else _preview_window(rt)
    cancel = flow.ids.get("cancel", "wcx")
    return WizardDialog(*windows, preview, on_start=on_start, getter=_getter(rt), cancel_id=cancel)


# --- ``Screens`` steps and an own preview: the module's windows, the flow's plumbing ---------


def _windows(rt: _Runtime, i: int, step: Step, states: type[StatesGroup]) -> list[Window]:
    return list(step.windows(states)) if isinstance(step, Screens) else [_window(rt, i, step)]


def _own_window(rt: _Runtime, index: int) -> bool:
    """A window of the module's own: a ``Screens`` step's, its more states', an own preview."""
    steps = rt.flow.steps
    if index == len(steps):
        return rt.flow.own_preview is not None
    return index > len(steps) or isinstance(steps[index], Screens)


async def _own_data(
    rt: _Runtime, manager: DialogManager, index: int, shown: str
) -> dict[str, Any]:
    """What every own window may show: the refusal once, the way back to the preview (once
    shown, as a jump from the standard preview does)."""
    state = rt.order[index].state.split(":", 1)[1]
    if index == len(rt.flow.steps):
        manager.dialog_data[REVIEW_KEY] = True
    data: dict[str, Any] = {
        "error": shown,
        "review": bool(manager.dialog_data.get(REVIEW_KEY)),
        "editing": WizardStart.of(manager).character_id is not None,
    }
    for step in rt.flow.steps:
        if isinstance(step, Screens) and step.getter and state in (step.key, *step.more):
            data.update(await step.getter(manager))
    return data
