"""The step kinds a system's creation flow is declared with (pure data, no aiogram).

A system declares its creation as a ``Flow``: the steps in order, each one of these kinds, and
the few functions that tie the draft to its engine (``build`` a sheet from the draft, ``load``
a draft from a sheet, ``validate`` through the engine, ``render`` the preview). The generic
dialog (``flow.dialog``) renders every kind, pages long lists, validates each step and the
whole sheet, and owns what every wizard shares: «Back», «Cancel», resume after a restart,
NPC mode, a returned sheet re-entered at its preview, and every refusal in the press's answer.

Texts are English msgids (``N_``), translated where shown. The draft is a JSON dict keyed by
the steps' ``key``: a string (text, choose one), a list of strings (choose N, items) or a
``{trait: dots}`` dict (allocate).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.common import SheetModel, Violation
from handlers.wizards.flow.custom import Custom
from handlers.wizards.flow.screens import Screens
from handlers.wizards.flow.wording import Wording

Draft = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """One option of a list: an id (ASCII, short: it travels in callback data) and a msgid."""

    id: str
    label: str
    data: Any = None  # a GM-defined choice as the player saw it: kept in the draft (``kept``)


@dataclass(frozen=True)
class Text:
    """A typed answer: a name (``one_line``) or free text, up to ``limit`` characters."""

    key: str
    title: str
    prompt: str
    limit: int = 64
    required: bool = False
    one_line: bool = True
    unfit: str = ""  # own msgid for an answer that does not fit (may use {limit})
    # ``check(raw, translator, party)``: the step's own refusal of an answer (escaped HTML, or
    # None to take it), before the engine's (``flow.extra``)
    check: Callable[[str, Any, Sequence[str]], str | None] | None = None
    # extra lines under the question, from the sheet so far (as ``Info.lines``)
    lines: Callable[[SheetModel, Any, Any, str], str] | None = None
    # a msgid ({name}) refusing a name one of the party has already (case aside), after ``check``
    taken: str = ""


@dataclass(frozen=True)
class Choose:
    """Choose one (``pick`` 1: the value is the id) or up to ``pick`` ids from ``choices``;
    ``typed``: one's own words may be sent instead of a button (choose one only).
    ``source``: a GM-defined list read when shown, ``await source(uow, game_id)`` (lifegear's
    roles); its labels are the GM's own words, shown as written (not msgids)."""

    key: str
    title: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    pick: int = 1
    required: bool = False
    typed: bool = False
    page_size: int = 8
    source: Callable[[Any, int], Awaitable[tuple[Choice, ...]]] | None = None
    unfit: str = ""  # own msgid for a typed answer that does not fit (may use {limit})
    select_id: str = "c"  # the list's callback id (``<id>:<choice>``; keep once released)
    columns: int = 2
    # a typed answer's own refusal, as ``Text.check`` (lifegear's max lives: a number)
    check: Callable[[str, Any, Sequence[str]], str | None] | None = None
    # ``describe(choice, translator)``: every choice listed in the text as well (escaped HTML
    # lines: a role with its stats). A picked choice's ``data`` is kept in the draft under
    # ``kept(key)``, so the sheet is built from what the player saw, whatever the GM edits later.
    describe: Callable[[Choice, Any], str] | None = None


@dataclass(frozen=True)
class Allocate:
    """Spend a budget over traits with − / +: ``floor``..``cap`` dots each, ``cost(trait,
    level)`` points for the dot that reaches ``level`` (one by default). ``budget`` and ``cap``
    may read the game's options. ``exact``: «Next» only once every point is spent."""

    key: str
    title: str
    prompt: str
    traits: tuple[Choice, ...]
    budget: Callable[[Any], int]
    cap: Callable[[Any], int]
    floor: int = 0
    cost: Callable[[str, int], int] | None = None
    exact: bool = False
    page_size: int = 6
    # A step whose engine prices a dot by more than one budget (by category, a second budget
    # at other costs) decides each press itself: ``rule`` gives the new draft, or the
    # refusal's reason (escaped HTML), instead of floor/cap/budget/cost above; ``row(sheet,
    # options, trait, t, locale)`` labels a trait's row and ``counters(sheet, options, t,
    # locale)`` the lines under the question, instead of «Points left» (escaped HTML).
    rule: Callable[[DotPress], Draft | str] | None = None
    row: Callable[[SheetModel, Any, str, Any, str], str] | None = None
    counters: Callable[[SheetModel, Any, Any, str], str] | None = None
    # A released wizard's look, kept: ``label_first`` puts a row's label before its − / +;
    # ``note(sheet, options, trait, locale)`` is what a press on the label says (a toast:
    # the level's name); ``asks(sheet, options, t, locale)`` fills the question's
    # {placeholders} from the sheet so far («{left} of {total} points left»).
    label_first: bool = False
    note: Callable[[SheetModel, Any, str, str], str] | None = None
    asks: Callable[[SheetModel, Any, Any, str], dict[str, Any]] | None = None

    def spent(self, dots: dict[str, int]) -> int:
        price = self.cost or (lambda trait, level: 1)
        return sum(
            price(t.id, level)
            for t in self.traits
            for level in range(self.floor + 1, int(dots.get(t.id, self.floor)) + 1)
        )


@dataclass(frozen=True)
class Items:
    """A list of typed entries (aspects, hooks, tools): ``min_items``..``max_items`` of them,
    each up to ``limit`` characters; «Remove last» takes one back."""

    key: str
    title: str
    prompt: str
    max_items: int
    min_items: int = 0
    limit: int = 64


@dataclass(frozen=True)
class Info:
    """A read-only step: what the engine derives from the sheet so far (gauges, pools),
    ``lines(sheet, options, translator, locale)`` as escaped HTML."""

    key: str
    title: str
    prompt: str
    lines: Callable[[SheetModel, Any, Any, str], str]


@dataclass(frozen=True)
class DotPress:
    """One − / + on an ``Allocate`` step with its own ``rule``: the sheet so far, the trait,
    and the mode it was opened in ("" on its own, else a ``flow.reopen`` step's mode)."""

    sheet: SheetModel
    options: Any
    trait: str
    delta: int
    mode: str
    t: Any
    locale: str
    draft: Draft = field(default_factory=dict)  # the draft the sheet was built from


Step = Text | Choose | Allocate | Items | Info | Custom | Screens

# What a system adds to the generic flow (see ``Flow``).
Build = Callable[[Draft, Any], SheetModel]
Load = Callable[[dict[str, Any] | None, Any], Draft]
Validate = Callable[[SheetModel, Any], list[Violation]]
Render = Callable[[SheetModel, Any, str], str]  # (sheet, translator, locale) → escaped HTML
Finish = Callable[[Any, SheetModel], Awaitable[list[Violation]]]  # (manager, sheet)


@dataclass(frozen=True)
class Flow:
    """A system's creation wizard as data. ``name`` names its states (``<name>:<step key>``,
    stored with a resumable wizard, so keep them once released); ``fields`` maps a step's key
    to the engine's violation field prefixes it answers for (default: the key itself)."""

    name: str
    steps: Sequence[Step]
    options: Callable[[dict[str, Any]], Any]
    build: Build
    load: Load
    validate: Validate
    render: Render
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    submit_label: str = "✅ Send to the GM"
    finish: Finish | None = None  # default: ``common.finish_wizard`` (the GM's approval)
    prompt_args: Callable[[Any], dict[str, Any]] | None = None  # a question's {placeholders}
    preview_hint: tuple[str, str] = ("", "")  # the preview's last line: a player's, an NPC's
    jumps_by_key: bool = False  # the preview's buttons are ``j<step key>``, not ``j<index>``
    # The ids a released wizard's buttons carry, kept: ``"<step key>.<engine id>"`` (``nx``,
    # ``bk``, ``c``; ``preview.j<i>``) or ``"cancel"`` → the id (``widget_id``).
    ids: dict[str, str] = field(default_factory=dict)
    refused: str = ""  # a msgid with {reasons} heading a refused submission
    # ``await unavailable(uow, game_id)``: a msgid saying why the wizard cannot open now
    # (lifegear: no roles written yet); it is said and the wizard closes (``flow.opening``).
    unavailable: Callable[[Any, int], Awaitable[str | None]] | None = None
    # A wizard stored before its system's port kept its answers elsewhere in ``dialog_data``
    # (``flow.stored``): ``upgrade(old dialog_data, options)`` reads them into a draft, or
    # ``load`` reads the sheet kept whole under ``legacy_key``; else it starts over.
    upgrade: Callable[[dict[str, Any], Any], Draft] | None = None
    legacy_key: str = ""
    wording: Wording = field(default_factory=Wording)  # the frame's words (``flow.wording``)
    # once the draft is loaded: what else a start needs (an edited sheet opens at its preview)
    started: Callable[[Any], Awaitable[None]] | None = None
    # the module's own preview window: ``own_preview(states)`` → a ``Window`` (``flow.screens``)
    own_preview: Callable[[Any], Any] | None = None
    # A released wizard's look on the standard steps (``flow.look``; its words and heads are
    # ``wording``'s): a button straight back to the preview once it was reached (``to_preview``,
    # a msgid); the engine's violations in its own words (``explain(violation, locale)``,
    # unescaped); the game's options re-read at each redraw, so a GM's change applies at once
    # (``live_options``).
    to_preview: str = ""
    explain: Callable[[Violation, str], str] | None = None
    live_options: bool = False
    # more buttons under the preview's submit (a GM's record: «Delete»), made as ``Custom.widgets``
    preview_widgets: Callable[[], Sequence[Any]] | None = None

    def fields_of(self, step: Step) -> tuple[str, ...]:
        return self.fields.get(step.key, (step.key,))

    def widget_id(self, where: str, default: str) -> str:
        return self.ids.get(f"{where}.{default}", default)


def kept(key: str) -> str:
    """Where a picked choice's ``data`` is kept in the draft."""
    return f"{key}_data"
