"""Text of the ``matter`` scene tracker: the head (round, conditions, initiative order with each
participant's Health and states with their remaining turns, whose turn) and the log lines, in
the chat's language. Keyboards are built next to their callback data in the handler module."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Final

from bot.i18n import N_, Translator
from bot.services.trackers.matter import Entry, Phase, SceneState, flooded
from db.repositories.games import CharacterDTO
from engine import formats
from engine.dice.render import display_notation
from engine.systems import matter
from engine.systems.matter.conditions import CONDITIONS, ConditionId
from engine.systems.matter.states import STATES, DurationKind, StateId
from handlers.trackers.common import MAX_TEXT, clip


def esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def state_name(t: Translator, state: str) -> str:
    if state not in STATES:
        return esc(state)
    row = STATES[StateId(state)]
    return esc(row.name_ru if t.locale == "ru" else row.name_en)


def condition_name(t: Translator, condition: str) -> str:
    if condition not in CONDITIONS:
        return state_name(t, condition)  # an origin may be the state that caused an event
    row = CONDITIONS[ConditionId(condition)]
    return esc(row.name_ru if t.locale == "ru" else row.name_en)


def conditions_line(t: Translator, state: SceneState) -> str:
    conds = state.scene.conditions
    names = ", ".join(condition_name(t, c) for c in conds) if conds else t("none")
    return t("🌦 Conditions: {names}", names=names)


def _states(t: Translator, sheet: matter.Character) -> str:
    parts = []
    for active in sheet.states:
        name = state_name(t, active.state)
        if active.turns_left is not None:
            parts.append(f"{name} ⏳{active.turns_left}")
        elif STATES[active.state].duration is DurationKind.UNTIL_CURED:
            parts.append(f"{name} ∞")
        else:
            parts.append(name)
    return ", ".join(parts)


def member_line(
    t: Translator, marker: str, row: CharacterDTO, sheet: matter.Character, *, dry: bool = False
) -> str:
    """``dry``: out of the water while Наводнение is on."""
    now = matter.effective_trait(sheet, matter.Trait.HEALTH)
    top = matter.effective_trait(sheet, matter.Trait.HEALTH_MAX)
    health = f"❤️{formats.pool(now, top)}" + (" 🏝" if dry else "")
    states = _states(t, sheet)
    tail = f" · {states}" if states else ""
    npc = t(" (NPC)") if row.is_npc else ""
    return f"{marker} <b>{esc(row.name)}</b>{npc} {health}{tail}"


def setup_text(t: Translator, state: SceneState, candidates: list[CharacterDTO]) -> str:
    chosen = [c for c in candidates if c.id in state.members]
    names = ", ".join(esc(c.name) for c in chosen) if chosen else t("nobody yet")
    return "\n".join(
        [
            t("<b>🎬 Scene: set-up</b>"),
            t("👥 Taking part: {names}", names=names),
            conditions_line(t, state),
            "",
            t("Tick who takes part and the scene's conditions, then press «Start»."),
        ]
    )


_EVENT_TEXT: Final[dict[str, str]] = {
    "check": N_("{name}: {origin} check"),
    "applied": N_("➕ {name}: {state}"),
    "resisted": N_("🛡 {name} resists {state}"),
    "immune": N_("🛡 {name} is immune to {state}"),
    "protected": N_("🛡 {name} is protected from {origin}"),
    "already_active": N_("{name}: already {state}"),
    "replaced": N_("💤 {name} is crippled: unconscious at once"),
    "expired": N_("⌛ {name}: {state} is over"),
    "removed": N_("➖ {name}: {state} removed"),
    "shaken_off": N_("💪 {name} shakes off {state}"),
    "holds": N_("⛓ {name}: {state} holds"),
    "acts": N_("👊 {name} comes to: one action this turn"),
    "unconscious": N_("💤 {name} stays unconscious"),
    "petrification_step": N_("🪨 {name}: Defence −1 ({state})"),
    "regenerated": N_("💚 {name}: +1 Health ({state})"),
    "no_effect": N_("{name}: {state} has no effect"),
    "footing": N_("🦶 {name} finds their footing ({origin})"),
    "health_changed": N_("{name}: Health changed"),
    "willpower_spent": N_("{name}: a Willpower dot spent"),
    "anger_changed": N_("{name}: Anger changed"),
    "cond_on": N_("🌦 New condition: {origin}"),
    "cond_off": N_("🌤 Condition lifted: {origin}"),
    "water_in": N_("🌊 {name} is in the water"),
    "water_out": N_("🏝 {name} is out of the water"),
}
_CRIPPLED_TEXT: Final[dict[str, str]] = {
    "holds": N_("🩸 {name} holds on ({state})"),
    "health_changed": N_("🩸 {name} loses 1 Health ({state})"),
    "willpower_spent": N_("🩸 {name} spends a Willpower dot to hold on ({state})"),
}
_HAZARD_TEXT: Final[dict[str, str]] = {
    "burn": N_("🔥 {name}: a body part is burnt ({origin})"),
    "frostbite": N_("❄️ {name}: a body part is frostbitten ({origin})"),
}


def roll_text(entry: Entry, locale: str = "en") -> str:
    """The roll as logged: notation (the chance die as the reader's language names it: «шанс»),
    every face in order, successes (💥 a critical failure)."""
    faces = " ".join(str(f) for f in entry.f)
    crit = " 💥" if entry.crit else ""
    return f"🎲 {esc(display_notation(entry.n, locale))} [{faces}] → {entry.ok}{crit}"


def entry_line(t: Translator, entry: Entry, names: Mapping[int, str]) -> str:
    if entry.k == "start":
        return t("🎬 The scene begins.")
    if entry.k == "round":
        return t("— Round {n} —", n=entry.r)
    if entry.k == "end":
        return t("🏁 The scene is over.")
    if entry.k == "hazard_hit":
        template = _HAZARD_TEXT.get(entry.h)
    elif entry.s == StateId.CRIPPLED and entry.k in _CRIPPLED_TEXT:
        template = _CRIPPLED_TEXT[entry.k]
    else:
        template = _EVENT_TEXT.get(entry.k)
    text = t(
        template or N_("{name}: {state}"),
        name=f"<b>{esc(names.get(entry.c, '?'))}</b>",
        state=state_name(t, entry.s),
        origin=condition_name(t, entry.o),
    )
    line = f"{text} · {roll_text(entry, t.locale)}" if entry.n else text
    return line + roll_meaning(t, entry)


# What a roll meant (issue 24 item 6): a condition's check says whether it took hold and
# whether a resistance roll follows; a resistance roll says that it is one.
_RESISTANCE_ROLLS: Final = ("resistance", "turn_resistance")


def roll_meaning(t: Translator, entry: Entry) -> str:
    if not entry.n:
        return ""
    if entry.p in _RESISTANCE_ROLLS:
        return " " + t("(resistance roll)")
    if entry.k != "check":
        return ""
    hit = entry.ok > 0
    if entry.p == "chance_check":  # a success keeps the footing; a failure suffers it
        return " — " + (t("held firm") if hit else t("could not hold: the condition takes hold"))
    if not hit:
        return " — " + t("no effect")
    row = CONDITIONS.get(ConditionId(entry.o)) if entry.o in CONDITIONS else None
    if row is not None and row.inflicts is not None and row.resistible and row.hazard is None:
        return " — " + t("the condition takes hold; a resistance roll follows")
    return " — " + t("the condition takes hold")


def scene_text(
    t: Translator,
    state: SceneState,
    rows: Mapping[int, CharacterDTO],
    sheets: Mapping[int, matter.Character],
    hint: str = "",
) -> str:
    """The tracker's text; ``hint`` (what a GM menu is for) goes last, under the log."""
    names = {cid: r.name for cid, r in rows.items()}
    acting = state.acting()

    def dry(cid: int) -> bool:
        return flooded(state) and str(cid) in state.scene.out_of_water

    if state.phase is Phase.ENDED:
        if state.scene.round:
            head = [t("<b>🏁 Scene over after {n} rounds</b>", n=state.scene.round)]
        else:
            head = [t("<b>✖️ Scene cancelled</b>")]
        head += [member_line(t, "•", rows[c], sheets[c]) for c in rows]
    else:
        head = [
            t("<b>🎬 Scene · round {n}</b>", n=state.scene.round),
            conditions_line(t, state),
            t("Initiative:"),
        ]
        ordered = [c for c in state.order if c in rows]
        for i, cid in enumerate(ordered, 1):
            marker = "▶️" if cid == acting else f"{i}."
            head.append(member_line(t, marker, rows[cid], sheets[cid], dry=dry(cid)))
        head += [
            member_line(t, "⏸", rows[c], sheets[c], dry=dry(c)) for c in rows if c not in ordered
        ]
        if acting is not None and acting in rows:
            who = f"<b>{esc(rows[acting].name)}</b>"
            head.append(t("👉 {name}'s turn. «Next turn» when done.", name=who))
    head.append("")
    log = [entry_line(t, e, names) for e in state.log]
    if not hint:
        return clip(head, log)
    return clip(head, log, limit=MAX_TEXT - 96 - len(hint) - 2) + "\n\n" + hint


def menu_hint(t: Translator, menu: str, name: str = "") -> str:
    if menu == "who":
        return t("🎭 Whose states? Pick a participant.")
    if menu == "st":
        bold = f"<b>{esc(name)}</b>"
        return t(
            "🎭 {name}: tap a state to give it (resisted by the rules) or ✅ to take it off.",
            name=bold,
        )
    if menu == "cond":
        return t("🌦 Tap a condition to add it to the scene or lift it.")
    return ""
