"""The resource panel: callback data (ids and enum values only), the panel's HTML per system,
its keyboards (pure functions) and the «from → to» line after a press."""

from __future__ import annotations

import html
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services import resources as service
from bot.services.resources import PoolName
from db.repositories.games import CharacterDTO
from db.repositories.ledger import LedgerDTO
from engine import formats
from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.fate import Nature, SlotId, TrackKind
from engine.systems.lifegear import ItemState
from engine.systems.matter import STATES, StateId
from handlers.views.safe import clip_html, clip_list
from handlers.views.sheet_changes import describe
from handlers.views.sheets.fate import engine_name
from handlers.views.sheets.lifegear import KIND_ICON, STATE_LABEL

NAME_SHOWN: Final = 24  # characters of a cliché or item name on a button
TEXT_LIMIT: Final = 4096  # one Telegram message
ROWS_MAX: Final = 40  # clichés or items with buttons (Telegram allows 100 buttons)


class PanelView(StrEnum):
    MAIN = "m"
    SLOTS = "s"  # fate: pick a free consequence slot
    STATES = "t"  # matter: pick a state to apply


# --- callback data: one class per action -----------------------------------------------------


class ResOpenCD(CallbackData, prefix="ro"):
    """Open a resource panel as a new message (the button on the /sheet card)."""

    character_id: int


class ResViewCD(CallbackData, prefix="rv"):
    """Switch the panel between its views, in place (owner or GM)."""

    character_id: int
    view: PanelView


class FatePointCD(CallbackData, prefix="rfp"):
    character_id: int
    delta: int


class StressCD(CallbackData, prefix="rst"):
    character_id: int
    track: TrackKind
    box: int
    mark: bool


class TakeSlotCD(CallbackData, prefix="rct"):
    """Choose a free consequence slot (and its nature); the aspect is typed next."""

    character_id: int
    slot: SlotId
    nature: Nature


class ClearSlotCD(CallbackData, prefix="rcc"):
    character_id: int
    slot: SlotId


class PoolCD(CallbackData, prefix="rpl"):
    character_id: int
    trait: PoolName
    delta: int


class ClicheDiceCD(CallbackData, prefix="rcl"):
    character_id: int
    index: int
    key: str
    delta: int


class GearStateCD(CallbackData, prefix="rgs"):
    character_id: int
    index: int
    key: str
    state: ItemState


class MatterStateCD(CallbackData, prefix="rms"):
    character_id: int
    state: StateId
    on: bool


class MatterHealthCD(CallbackData, prefix="rmh"):
    """matter: one point of damage (``delta`` −1) or of healing (+1)."""

    character_id: int
    delta: int


class UndoCD(CallbackData, prefix="run"):
    """GM only: undo the change that made ``version`` of the character (the state the panel
    showed when the button was drawn), then show this character's panel again."""

    character_id: int
    version: int


def resources_button(t: Translator, character_id: int) -> InlineKeyboardButton:
    """For the /sheet card: opens this character's resource panel."""
    return InlineKeyboardButton(
        text="🎛 " + t("Resources"), callback_data=ResOpenCD(character_id=character_id).pack()
    )


# --- text ------------------------------------------------------------------------------------


def _e(value: object) -> str:
    return html.escape(str(value), quote=False)


def _short(text: str, limit: int = NAME_SHOWN) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


TRACK_ICON: Final = {
    TrackKind.PHYSICAL: "💪",
    TrackKind.MENTAL: "🧠",
    TrackKind.MAGICAL: "✨",
    TrackKind.ACCUMULATOR: "🔋",
}
NATURE_ICON: Final = {Nature.PHYSICAL: "💪", Nature.MENTAL: "🧠", Nature.MAGICAL: "✨"}


def _state_name(state: StateId, locale: str) -> str:
    return STATES[state].name_ru if locale == "ru" else STATES[state].name_en


def _fate_text(t: Translator, locale: str, c: fate.Character) -> list[str]:
    lines = [t("Fate points: {fp} (refresh {refresh})", fp=c.fate_points, refresh=c.refresh)]
    tracks = " · ".join(
        f"{TRACK_ICON[v.kind]} {_e(engine_name(v.kind, locale))} {v.shown()}"
        for v in fate.stress_tracks(c)
    )
    lines.append(t("Stress: {tracks}", tracks=tracks))
    taken = {x.slot: x for x in c.consequences}
    for slot in (*fate.consequence_slots(c), SlotId.EXTREME):
        cons = taken.get(slot)
        if cons is None and slot is SlotId.EXTREME:
            continue
        # the nature chosen on taking it (💪, 🧠, ✨) stays in sight, not only in the sheet's data
        shown = f"«{_e(cons.text)}» {NATURE_ICON[cons.nature]}" if cons else "—"
        lines.append(f"🩹 {_e(engine_name(slot, locale))} ({fate.slot_value(slot)}): {shown}")
    return lines


def _storyteller_text(t: Translator, locale: str, c: storyteller.Character) -> list[str]:
    return [
        f"{t('Willpower')}: {formats.pool(c.willpower.pool, c.willpower.rating)}",
        f"{t('Glamour')}: {formats.pool(c.glamour.pool, c.glamour.rating)}",
    ]


def _cliche_text(t: Translator, locale: str, c: cliche.Character) -> list[str]:
    lines = [
        f"🎲 {_e(x.name)}: {formats.pool(x.current, x.dice)}" + (" 🛡" if x.armor else "")
        for x in c.cliches
    ]
    return lines or [t("No clichés.")]


def _lifegear_text(t: Translator, locale: str, c: lifegear.Character) -> list[str]:
    lines = [t("❤️ Lives: {lives}", lives=formats.pool(lifegear.lives(c), c.max_lives))]
    lines += [
        f"{KIND_ICON[item.kind]} {_e(item.name)}: <i>{_e(t(STATE_LABEL[item.state]))}</i>"
        for item in c.gear
    ]
    return lines


def _matter_health(c: Any) -> tuple[int, int]:
    """Health and max Health as the states leave them (Мини: max 2; a stone: its own 5)."""
    return (
        matter.effective_trait(c, matter.Trait.HEALTH),
        matter.effective_trait(c, matter.Trait.HEALTH_MAX),
    )


def _matter_text(t: Translator, locale: str, c: matter.Character) -> list[str]:
    states = ", ".join(_state_name(s.state, locale) for s in c.states) or "—"
    health, top = _matter_health(c)

    def pool(now: matter.Trait, most: matter.Trait) -> tuple[int, int]:
        return matter.effective_trait(c, now), matter.effective_trait(c, most)

    willpower, anger = pool(*_WILLPOWER), pool(*_ANGER)
    lines = [t("Health: {health}", health=formats.pool(health, top))]
    if willpower[1]:  # the sheet's pools, as its own page shows them (issue 36 item 9d)
        lines.append(t("Willpower: {value}", value=formats.pool(*willpower)))
    if anger[1]:
        lines.append(t("Anger: {value}", value=formats.pool(*anger)))
    return [*lines, t("States: {what}", what=_e(states))]


_WILLPOWER: Final = (matter.Trait.WILLPOWER, matter.Trait.WILLPOWER_MAX)
_ANGER: Final = (matter.Trait.ANGER, matter.Trait.ANGER_MAX)


# Each system's panel, by its sheet's type (the registry's ``character_type``).
_TEXT: Final[dict[type[SheetModel], Callable[[Translator, str, Any], list[str]]]] = {
    fate.Character: _fate_text,
    storyteller.Character: _storyteller_text,
    cliche.Character: _cliche_text,
    lifegear.Character: _lifegear_text,
    matter.Character: _matter_text,
}


def panel_text(
    t: Translator, locale: str, character: CharacterDTO, sheet: SheetModel, *, line: str = ""
) -> str:
    head = t("🎛 Resources of {name}", name=f"<b>{_e(character.name)}</b>")
    body = _TEXT[type(sheet)](t, locale, sheet)
    tail = ["", line] if line else []
    while body and len("\n".join([head, "", *body, "…", *tail])) > TEXT_LIMIT:
        body = body[:-1]  # whole lines go, so no HTML tag is ever cut in half
    # a long head or line can still be too long: cut without splitting a tag or an entity
    return clip_html("\n".join([head, "", *body, *tail]), TEXT_LIMIT)


# --- keyboards -------------------------------------------------------------------------------

Rows = list[list[InlineKeyboardButton]]


def _b(text: str, data: CallbackData) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def _fate_rows(t: Translator, locale: str, cid: int, c: fate.Character, asks: bool) -> Rows:
    gain = "🙋 " + t("Ask for FP") if asks else "➕ " + t("Gain FP")
    points = [_b(gain, FatePointCD(character_id=cid, delta=1))]
    if c.fate_points > 0:  # at 0 «Spend FP» only answered «not enough»
        points.insert(0, _b("➖ " + t("Spend FP"), FatePointCD(character_id=cid, delta=-1)))
    rows: Rows = [points]
    for view in fate.stress_tracks(c):
        row = []
        for box in view.boxes:
            if box.marked and view.kind not in service.CLEARABLE_TRACKS:
                continue  # the accumulator recharges at a milestone, not from here
            icon = formats.stress_track([box.marked])
            data = StressCD(character_id=cid, track=view.kind, box=box.value, mark=not box.marked)
            row.append(_b(f"{TRACK_ICON[view.kind]}{box.value} {icon}", data))
        if row:
            rows.append(row)
    if fate.free_consequence_slots(c):
        rows.append(
            [
                _b(
                    "🩹 " + t("Take a consequence"),
                    ResViewCD(character_id=cid, view=PanelView.SLOTS),
                )
            ]
        )
    for cons in c.consequences:
        label = "✖ " + t("Clear: {slot}", slot=engine_name(cons.slot, locale))
        rows.append([_b(label, ClearSlotCD(character_id=cid, slot=cons.slot))])
    return rows


def _slot_rows(t: Translator, locale: str, cid: int, c: fate.Character, asks: bool) -> Rows:
    rows: Rows = []
    for slot in fate.free_consequence_slots(c):
        name = engine_name(slot, locale)
        rows.append(
            [
                _b(f"{name} {NATURE_ICON[n]}", TakeSlotCD(character_id=cid, slot=slot, nature=n))
                for n in service.consequence_natures(slot)
            ]
        )
    return rows


def _storyteller_rows(
    t: Translator, locale: str, cid: int, c: storyteller.Character, asks: bool
) -> Rows:
    """➖ while the pool has points, the gain while the engine would raise it (Willpower stops
    at its rating): a full Willpower's «Ask» was offered only to answer «Already full»."""
    labels = {PoolName.WILLPOWER: t("Willpower"), PoolName.GLAMOUR: t("Glamour")}
    rows: Rows = []
    for p in PoolName:
        row = []
        if getattr(c, p.value).pool > 0:
            row.append(_b(f"➖ {labels[p]}", PoolCD(character_id=cid, trait=p, delta=-1)))
        if storyteller.regain(c, p.value, 1)[0] != c:
            row.append(_b(_gain(t, labels[p], asks), PoolCD(character_id=cid, trait=p, delta=1)))
        if row:
            rows.append(row)
    return rows


def _gain(t: Translator, what: str, asks: bool) -> str:
    """A gain's label: a player's press asks the GM (issue 24 item 10), so it says so."""
    return "🙋 " + t("Ask: {what}", what=what) if asks else f"➕ {what}"


def _cliche_rows(t: Translator, locale: str, cid: int, c: cliche.Character, asks: bool) -> Rows:
    """Only the presses the cliché can take: ➖ while it has dice, ➕ (🙋) while it has lost
    some — a full cliché's «Ask for a die» was offered only to be refused."""
    rows: Rows = []
    for i, item in enumerate(c.cliches[:ROWS_MAX]):
        key = service.item_key(item.name)
        name = _short(item.name)
        row = []
        if item.current > 0:
            row.append(
                _b(f"➖ {name}", ClicheDiceCD(character_id=cid, index=i, key=key, delta=-1))
            )
        if item.lost > 0:
            gain = "🙋 " + t("Ask for a die: {name}", name=name) if asks else f"➕ {name}"
            row.append(_b(gain, ClicheDiceCD(character_id=cid, index=i, key=key, delta=1)))
        if row:
            rows.append(row)
    return rows


def _gear_row(t: Translator, cid: int, i: int, item: lifegear.Item) -> list[InlineKeyboardButton]:
    key = service.item_key(item.id)
    name = _short(item.name)

    def b(text: str, state: ItemState) -> InlineKeyboardButton:
        return _b(text, GearStateCD(character_id=cid, index=i, key=key, state=state))

    if item.state is not ItemState.READY:
        label = t("Repair") if item.state in (ItemState.BROKEN, ItemState.LOST) else t("Ready")
        return [b(f"✅ {name}: {label}", ItemState.READY)]
    row = []
    # a weapon (or a reusable thing) is used until it breaks: it is never «spent» (seed 001)
    if item.limit is not lifegear.UseLimit.UNLIMITED:
        row.append(b(f"⏳ {name} → {t(STATE_LABEL[ItemState.SPENT])}", ItemState.SPENT))
    if item.kind.material:
        named = "" if row else f"{name} "
        row.append(b(f"💥 {named}→ {t(STATE_LABEL[ItemState.BROKEN])}", ItemState.BROKEN))
    return row


def _lifegear_rows(
    t: Translator, locale: str, cid: int, c: lifegear.Character, asks: bool
) -> Rows:
    rows = [_gear_row(t, cid, i, item) for i, item in enumerate(c.gear[:ROWS_MAX])]
    return [row for row in rows if row]  # a reusable ability: nothing to press


def _heals(c: matter.Character) -> bool:
    """Whether «+ Health» is worth offering: not at full Health (it was only refused there);
    under a state that forbids healing (Poison) it is, and its press says why."""
    try:
        return matter.heal(c, 1)[0].health != c.health
    except RuleViolation:
        return True


def _matter_rows(t: Translator, locale: str, cid: int, c: matter.Character, asks: bool) -> Rows:
    health = [_b("➖ " + t("Health"), MatterHealthCD(character_id=cid, delta=-1))]
    if _heals(c):
        health.append(_b(_gain(t, t("Health"), asks), MatterHealthCD(character_id=cid, delta=1)))
    rows: Rows = [health] + [
        [
            _b(
                "✖ " + _state_name(s.state, locale),
                MatterStateCD(character_id=cid, state=s.state, on=False),
            )
        ]
        for s in c.states
    ]
    rows.append(
        [_b("➕ " + t("Apply a state"), ResViewCD(character_id=cid, view=PanelView.STATES))]
    )
    return rows


def _state_rows(t: Translator, locale: str, cid: int, c: matter.Character, asks: bool) -> Rows:
    buttons = [
        _b(_state_name(s, locale), MatterStateCD(character_id=cid, state=s, on=True))
        for s in service.PANEL_STATES
        if not c.has_state(s)
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


_ROWS: Final[
    dict[tuple[type[SheetModel], PanelView], Callable[[Translator, str, int, Any, bool], Rows]]
] = {
    (fate.Character, PanelView.MAIN): _fate_rows,
    (fate.Character, PanelView.SLOTS): _slot_rows,
    (storyteller.Character, PanelView.MAIN): _storyteller_rows,
    (cliche.Character, PanelView.MAIN): _cliche_rows,
    (lifegear.Character, PanelView.MAIN): _lifegear_rows,
    (matter.Character, PanelView.MAIN): _matter_rows,
    (matter.Character, PanelView.STATES): _state_rows,
}


def panel_keyboard(
    t: Translator, locale: str, character: CharacterDTO, sheet: SheetModel,
    view: PanelView = PanelView.MAIN, *, undo: bool = True, asks: bool = False,
) -> InlineKeyboardMarkup:  # fmt: skip
    """``undo`` false: no undo button (the panel shows the result of an undo). ``asks``: the
    character's gains are requests to the GM (a player's character at a gated table), and their
    buttons say so («🙋 Ask for FP»)."""
    cid = character.id
    build = _ROWS.get((type(sheet), view))
    if build is None:
        view, build = PanelView.MAIN, _ROWS[(type(sheet), PanelView.MAIN)]
    rows = build(t, locale, cid, sheet, asks)
    if view is PanelView.MAIN:
        if undo:
            data = UndoCD(character_id=cid, version=character.version)
            rows.append([_b("↩️ " + t("Undo last"), data)])
    else:
        rows.append([_b("⬅️ " + t("Back"), ResViewCD(character_id=cid, view=PanelView.MAIN))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def live_panel(
    t: Translator, locale: str, character: CharacterDTO, sheet: SheetModel, asks: bool
) -> tuple[str, InlineKeyboardMarkup]:
    """An open panel redrawn after its character changed elsewhere (``bot.panels``)."""
    return panel_text(t, locale, character, sheet), panel_keyboard(
        t, locale, character, sheet, asks=asks
    )


# --- what changed ----------------------------------------------------------------------------


def _fate_points_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.before, fate.Character) and isinstance(a.after, fate.Character)
    return t("Fate points"), a.before.fate_points, a.after.fate_points


def _stress_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.op, service.Stress)
    track = a.op.track
    what = t("Stress ({track})", track=engine_name(track, locale))
    before = fate.stress_track(a.before, track).shown()  # type: ignore[arg-type]
    after = fate.stress_track(a.after, track).shown()  # type: ignore[arg-type]
    return what, before, after


def _consequence(sheet: Any, slot: SlotId) -> str:
    found = next((x for x in sheet.consequences if x.slot is slot), None)
    return f"«{found.text}»" if found else "—"


def _slot_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.op, service.TakeConsequence | service.ClearConsequence)
    what = t("Consequence ({slot})", slot=engine_name(a.op.slot, locale))
    return what, _consequence(a.before, a.op.slot), _consequence(a.after, a.op.slot)


def _pool_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.op, service.Pool)
    trait = a.op.trait.value
    what = t("Willpower") if a.op.trait is PoolName.WILLPOWER else t("Glamour")
    return what, getattr(a.before, trait).pool, getattr(a.after, trait).pool


def _cliche_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.op, service.ClicheDice)
    before = a.before.cliches[a.op.index]  # type: ignore[attr-defined]
    after = a.after.cliches[a.op.index]  # type: ignore[attr-defined]
    return t("{name}, dice", name=before.name), before.current, after.current


def _gear_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    assert isinstance(a.op, service.GearState)
    before = a.before.gear[a.op.index]  # type: ignore[attr-defined]
    after = a.after.gear[a.op.index]  # type: ignore[attr-defined]
    return before.name, t(STATE_LABEL[before.state]), t(STATE_LABEL[after.state])


def _matter_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    def states(sheet: Any) -> str:
        return ", ".join(_state_name(s.state, locale) for s in sheet.states) or "—"

    def shown(sheet: Any) -> str:
        # A state whose rules roll at once (Регенерация) may change Health with it.
        if _matter_health(a.before) == _matter_health(a.after):
            return states(sheet)
        return f"{states(sheet)} · ❤️{_matter_health(sheet)[0]}"

    return t("States"), shown(a.before), shown(a.after)


def _matter_health_line(t: Translator, locale: str, a: service.Applied) -> tuple[str, Any, Any]:
    def shown(sheet: Any) -> str:
        health, top = _matter_health(sheet)
        return formats.pool(health, top)

    return t("Health"), shown(a.before), shown(a.after)


_LINES: Final[dict[type, Callable[[Translator, str, service.Applied], tuple[str, Any, Any]]]] = {
    service.FatePoints: _fate_points_line,
    service.Stress: _stress_line,
    service.TakeConsequence: _slot_line,
    service.ClearConsequence: _slot_line,
    service.Pool: _pool_line,
    service.ClicheDice: _cliche_line,
    service.GearState: _gear_line,
    service.MatterState: _matter_line,
    service.MatterHealth: _matter_health_line,
}


def change_summary(t: Translator, locale: str, applied: service.Applied) -> str:
    """Plain text for the press's toast: ``Fate points: 3 → 2`` (or why nothing changed)."""
    if not applied.changed:
        return t(applied.note) if applied.note else t("Nothing changed.")
    what, before, after = _LINES[type(applied.op)](t, locale, applied)
    return f"{what}: {before} → {after}"


def change_line(t: Translator, locale: str, applied: service.Applied, by: str) -> str:
    """The panel's last line (HTML): who changed what, from → to."""
    icon = "✅" if applied.changed else "ℹ️"
    summary = _e(change_summary(t, locale, applied))
    return f"{icon} {summary} <i>({_e(by)})</i>"


KIND_LABEL: Final[dict[str, str]] = {
    "fate.fp.spend": N_("fate point spent"),
    "fate.fp.gain": N_("fate point gained"),
    "fate.stress.mark": N_("stress box marked"),
    "fate.stress.clear": N_("stress box cleared"),
    "fate.consequence.take": N_("consequence taken"),
    "fate.consequence.clear": N_("consequence cleared"),
    "storyteller.willpower.spend": N_("Willpower spent"),
    "storyteller.willpower.regain": N_("Willpower restored"),
    "storyteller.glamour.spend": N_("Glamour spent"),
    "storyteller.glamour.regain": N_("Glamour restored"),
    "cliche.dice.lose": N_("cliché die lost"),
    "cliche.dice.restore": N_("cliché die restored"),
    # changes made on a card or in a fight: /history said only «изменён лист»
    "fate.invoke": N_("aspect invoked"),
    "fate.conflict.absorb": N_("harm absorbed in a conflict"),
    "fate.conflict.concede": N_("conceded a conflict"),
    "fate.conflict.end": N_("conflict over"),
    "cliche.pump": N_("cliché pumped"),
    "storyteller.wp.spend": N_("Willpower spent"),
    "storyteller.health.damage": N_("damage taken"),
    "storyteller.health.heal": N_("damage healed"),
    "lifegear.item.spent": N_("item spent"),
    "lifegear.item.broken": N_("item broken"),
    "lifegear.item.ready": N_("item ready again"),
    "matter.state.apply": N_("state applied"),
    "matter.state.remove": N_("state removed"),
    "matter.health.damage": N_("Health lost"),
    "matter.health.heal": N_("Health restored"),
}
DIFF_SHOWN: Final = 5  # changed fields listed per undone entry


UNDONE_ROOM = 3800


def undone_line(t: Translator, undone: service.Undone, system: str) -> str:
    """What the GM's undo restored: per character, the action and its fields back."""
    lines = [
        _undone_entry(t, entry, undone.names.get(entry.character_id, "?"), system)
        for entry in undone.entries
    ]  # a milestone's batch: one entry per character, so the lines are clipped with a count
    return clip_list(
        lines, room=UNDONE_ROOM, more=lambda n: t("… and {n} more", n=n), separator="\n"
    )


def _undone_entry(t: Translator, entry: LedgerDTO, name: str, system: str) -> str:
    label = KIND_LABEL.get(entry.kind)
    what = t(label) if label else t("sheet changed")
    head = "↩️ " + t("Undone — {name}: {what}", name=f"<b>{_e(name)}</b>", what=_e(what))
    # Back from «after» to «before»: the undo's own direction.
    back = [
        {"path": d.get("path"), "before": d.get("after"), "after": d.get("before")}
        for d in entry.diff
        if isinstance(d, dict)
    ]
    fields = [f"  {_e(line)}" for line in describe(t, t.locale, system, back)[:DIFF_SHOWN]]
    return "\n".join([head, *fields])


def ask_aspect(t: Translator, locale: str, character: CharacterDTO, slot: SlotId) -> str:
    return t(
        "{name}: write the aspect of the {slot} consequence as your next message (or /cancel).",
        name=f"<b>{_e(character.name)}</b>",
        slot=_e(engine_name(slot, locale)),
    )


NAMES_ROOM = 3000  # the characters listed by /res without one (markup characters)


def usage(t: Translator, names: list[str]) -> str:
    if not names:  # nothing to open by name: say how a character comes to be instead
        return t(
            "No characters in this game yet. Press «Create character» on the /game card; "
            "the panel opens once the GM approves the sheet."
        )
    return t(
        "You have no active character here. Open another one by name: /res name. "
        "Characters: {names}",
        names=clip_list(
            [_e(name) for name in names], room=NAMES_ROOM, more=lambda n: t("… and {n} more", n=n)
        ),
    )


# --- the private chat: one's own characters in every game --------------------------------------


def panel_game_line(t: Translator, title: str) -> str:
    return t("Game: {title}", title=f"<b>{_e(title)}</b>")


def archived_line(t: Translator) -> str:
    """Under an archived character's resources: they are read, changed by no one."""
    return "🗄 <i>" + _e(t("Archived: read only.")) + "</i>"


def no_own_resources(t: Translator) -> str:
    return t(
        "You have no approved characters yet. In the game's group, press «Create character» on "
        "the /game card; your sheets: /sheet."
    )


def own_resources_hint(t: Translator, count: int, shown: int, *, changeable: bool) -> str:
    """Under the private panels: where they are changed — unless every one shown is archived
    or retired (changed by no one: the hint would send the player to a panel that refuses) —
    and how many are not shown. Empty when there is nothing to say."""
    lines = []
    if count > shown:
        lines.append(
            t.plural(
                "{n} more character is not shown here.", "{n} more characters are not shown here.",
                count - shown,
            )
        )  # fmt: skip
    if changeable:
        lines.append(
            t("To change resources, send /res in the game's group: the panel has buttons there.")
        )
    return "\n".join(lines)
