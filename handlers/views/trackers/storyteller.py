"""The storyteller scene's message: callback data (ids and short codes only), the text with
each participant's health levels and Willpower, and the keyboards — the main one and the
choosers (attribute, ability, difficulty, target, health) that only edit the buttons."""

from __future__ import annotations

from html import escape
from typing import Any, Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services.trackers import storyteller as service
from db.repositories.trackers import TrackerDTO
from engine import formats
from engine.systems import storyteller as st
from engine.systems.storyteller import DamageKind, HealthTrack
from engine.systems.storyteller.rolls import result_of
from engine.text import msg
from handlers.trackers.common import button, clip, in_rows, undo_button

# --- callback data: one class per action -----------------------------------------------------


class ZtToggleCD(CallbackData, prefix="ztt"):
    """Set-up: the GM adds or removes character ``cid``."""

    tracker_id: int
    v: int
    cid: int


class ZtStartCD(CallbackData, prefix="zts"):
    """Set-up over: roll initiative and begin round 1 (GM)."""

    tracker_id: int
    v: int


class ZtViewCD(CallbackData, prefix="ztv"):
    """Switch the buttons to a chooser (screen ``s``: m main, a attribute, b ability,
    d difficulty, t target, h participant, k damage kind, e end?) for mode ``m`` (r roll,
    x extended, h health, e end); ``a`` attribute index, ``b`` ability index (−1 none),
    ``d`` difficulty, ``w`` Willpower 0/1, ``c`` a character id."""

    tracker_id: int
    v: int
    s: str
    m: str = ""
    a: int = -1
    b: int = -2
    d: int = 0
    w: int = 0
    c: int = 0


class ZtRollCD(CallbackData, prefix="ztr"):
    """The actor's roll: attribute ``a``, ability ``b`` (−1 none), difficulty ``d``, ``w``."""

    tracker_id: int
    v: int
    a: int
    b: int
    d: int
    w: int


class ZtNextCD(CallbackData, prefix="ztn"):
    tracker_id: int
    v: int


class ZtHealthCD(CallbackData, prefix="zth"):
    """GM: one level of damage (b, l, a) or healing (hb, hl, ha) on character ``c``."""

    tracker_id: int
    v: int
    c: int
    op: str


class ZtExtStartCD(CallbackData, prefix="ztx"):
    """GM: an extended action for the actor, ``g`` successes needed."""

    tracker_id: int
    v: int
    a: int
    b: int
    d: int
    g: int


class ZtExtRollCD(CallbackData, prefix="zte"):
    tracker_id: int
    v: int


class ZtEndCD(CallbackData, prefix="ztq"):
    tracker_id: int
    v: int


# --- words -----------------------------------------------------------------------------------

KIND_NAME: Final = {
    DamageKind.BASHING: N_("bashing"),
    DamageKind.LETHAL: N_("lethal"),
    DamageKind.AGGRAVATED: N_("aggravated"),
}
BOX: Final = {DamageKind.BASHING: "/", DamageKind.LETHAL: "X", DamageKind.AGGRAVATED: "✱"}
STATUS_NAME: Final = {
    "succeeded": N_("done"),
    "failed": N_("failed"),
    "botched": N_("botched, cannot succeed now"),
    "abandoned": N_("abandoned"),
}
LOG_SHOWN: Final = 12
ENDED_LOG_SHOWN: Final = 4


def _name(state: dict[str, Any], cid: int) -> str:
    return escape(state.get("names", {}).get(str(cid), "?"))


def _npc(state: dict[str, Any], cid: int) -> str:
    return " 👾" if cid in state.get("npc", []) else ""


def _trait(t: Translator, key: str) -> str:
    return escape(st.trait_name(key).render(t.locale))


def pool_label(t: Translator, attr: str, ability: str | None) -> str:
    return _trait(t, attr) + (f"+{_trait(t, ability)}" if ability else "")


def health_boxes(track: HealthTrack) -> str:
    empty = "□" * max(0, st.health.TRACK_SIZE - len(track.boxes))
    return "".join(BOX[b] for b in track.boxes) + empty


def health_line(t: Translator, sheet: st.Character) -> str:
    track = sheet.health
    name = escape(st.health_name(track).render(t.locale))
    level = st.current_level(track)
    penalty = f" ({formats.signed(level.penalty)})" if level and level.penalty else ""
    wp = f"💪 {formats.pool(sheet.willpower.pool, sheet.willpower.rating)}"
    return f"❤️ <code>{health_boxes(track)}</code> {name}{penalty} · {wp}"


def _result(t: Translator, net: int) -> str:
    """«Умеренный успех» once (it read «Успех, Умеренный успех»); a failure or a botch by
    its name."""
    degree = st.degree_of(net)
    if degree is None:
        return escape(result_of(net).name_msg.render(t.locale))
    return escape(t("{degree} success", degree=degree.name_msg.render(t.locale)))


def _faces(faces: list[int]) -> str:
    return "[" + ",".join(str(f) for f in faces) + "]" if faces else "—"


def _extended_line(t: Translator, entry: dict[str, Any]) -> str:
    action = service.extended_action(entry)
    return t(
        "🧩 {pool}: {acc} of {target} (difficulty {d})",
        pool=pool_label(t, entry["attr"], entry["ab"]), acc=action.accumulated,
        target=action.target, d=action.difficulty,
    )  # fmt: skip


def event_line(t: Translator, state: dict[str, Any], e: dict[str, Any]) -> str:
    kind = e["e"]
    if kind == "start":
        init = state.get("init", {})
        parts = []
        for cid in e["order"]:
            rating, die, total = init.get(str(cid), [0, None, None])
            shown = f"{total} ({die}+{rating})" if total is not None else "—"
            parts.append(f"{_name(state, cid)} {shown}")
        return t("▶️ Initiative: {list}", list=", ".join(parts))
    if kind == "next":
        return t("⏭ Round {round}: {name}", round=e["round"], name=_name(state, e["who"]))
    if kind == "roll":
        wp = " +💪" if e["wp"] else ""
        return t(
            "🎲 {name}: {pool} ({dice}) vs {d}{wp}: {faces} → {net}, {result}",
            name=_name(state, e["who"]), pool=pool_label(t, e["attr"], e["ab"]),
            dice=e["dice"], d=e["d"], wp=wp, faces=_faces(e["faces"]),
            net=formats.number(e["net"]), result=_result(t, e["net"]),
        )  # fmt: skip
    if kind in ("hurt", "heal"):
        level = escape(msg(f"storyteller.health.{e['level']}").render(t.locale))
        what = t(KIND_NAME[DamageKind(e["kind"])])
        sign, icon = ("+1", "🩸") if kind == "hurt" else ("−1", "💚")
        line = f"{icon} {_name(state, e['who'])}: {sign} {what} → {level}"
        return line + (" 💀" if e.get("died") else "")
    if kind == "soak":
        level = escape(msg(f"storyteller.health.{e['level']}").render(t.locale))
        line = t(
            "🛡 {name}: {n} bashing, soak {faces} −{soaked} → {level}",
            name=_name(state, e["who"]), n=e["n"], faces=_faces(e["faces"]),
            soaked=e["soaked"], level=level,
        )  # fmt: skip
        return line + (" 💀" if e.get("died") else "")
    if kind == "xstart":
        return t(
            "🧩 {name}: extended {pool}, {target} successes at difficulty {d}",
            name=_name(state, e["who"]), pool=pool_label(t, e["attr"], e["ab"]),
            target=e["target"], d=e["d"],
        )  # fmt: skip
    if kind == "xroll":
        line = t(
            "🧩 {name}: {faces} +{gained} → {acc} of {target}",
            name=_name(state, e["who"]), faces=_faces(e["faces"]), gained=e["gained"],
            acc=e["acc"], target=e["target"],
        )  # fmt: skip
        if e["lost"]:
            line += " " + t("(botch: {lost} lost)", lost=e["lost"])
        if e["status"] != "active":
            line += " — " + t(STATUS_NAME[e["status"]])
        return line
    return t("🏁 The end.")


# --- text ------------------------------------------------------------------------------------


def _title(t: Translator, state: dict[str, Any]) -> str:
    return t("⚔️ Fight") if state.get("fight") else t("🎭 Scene")


def scene_text(
    t: Translator,
    state: dict[str, Any],
    found: dict[int, tuple[Any, st.Character]],
    cards: list[TrackerDTO],
) -> str:
    phase = state.get("phase")
    head = [f"<b>{_title(t, state)}</b>"]
    if phase == "setup":
        head[0] += " · " + t("setting up")
        head.append(t("The GM chooses who takes part, then «Start»."))
        for cid in state.get("pool", []):
            mark = "✅" if cid in state.get("chosen", []) else "▫️"
            head.append(f"{mark} {_name(state, cid)}{_npc(state, cid)}")
        if not state.get("pool"):
            head.append(t("No active characters or NPCs in this game yet."))
        return clip(head, [])
    if phase == "ended":
        head[0] += " · " + t("over after {n} rounds", n=state.get("round", 0))
    else:
        head[0] += " · " + t("round {n}", n=state["round"])
    current = service.actor_id(state) if phase == "turns" else None
    init = state.get("init", {})
    for place, cid in enumerate(state.get("order", []), start=1):
        total = init.get(str(cid), [0, None, None])[2]
        marker = "▶️ " if cid == current else ""
        name = f"<b>{_name(state, cid)}</b>" if cid == current else _name(state, cid)
        shown = t("init {n}", n=total) if total is not None else t("cannot act")
        head.append(f"{place}. {marker}{name}{_npc(state, cid)} · {shown}")
        if cid in found:
            head.append("    " + health_line(t, found[cid][1]))
        entry = service.extended_of(state, cid)
        if entry is not None:
            head.append("    " + _extended_line(t, entry))
    if phase == "ended":
        for done in state.get("done", []):
            head.append(t(
                "🧩 {name}: {pool} {acc} of {target} — {status}",
                name=_name(state, done["who"]), pool=pool_label(t, done["attr"], done["ab"]),
                acc=done["acc"], target=done["target"], status=t(STATUS_NAME[done["status"]]),
            ))  # fmt: skip
        log = [event_line(t, state, e) for e in state.get("log", [])[-ENDED_LOG_SHOWN:]]
        return clip([*head, "—"], log)
    if current is not None:
        head.append(t("Turn: <b>{name}</b>", name=_name(state, current)))
    shown_cards = [c for c in cards if c.kind.startswith("card_")]
    if shown_cards:
        head.append(t("🃏 Open cards:"))
        for card in shown_cards:
            title = escape(str(card.state.get("title", card.kind)))
            summary = escape(str(card.state.get("summary", "")))
            head.append(f"  • {title} — {summary}" if summary else f"  • {title}")
    log = [event_line(t, state, e) for e in state.get("log", [])[-LOG_SHOWN:]]
    return clip([*head, "—"] if log else head, log)


# --- keyboards -------------------------------------------------------------------------------


def scene_keyboard(
    t: Translator, tracker: TrackerDTO, found: dict[int, tuple[Any, st.Character]]
) -> InlineKeyboardMarkup | None:
    state, tid, v = tracker.state, tracker.id, tracker.version
    phase = state.get("phase")
    if phase == "ended" or not tracker.is_open:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    end = button(t("🏁 End"), ZtViewCD(tracker_id=tid, v=v, s="e", m="e"))
    if phase == "setup":
        toggles = [
            button(
                ("✅ " if cid in state["chosen"] else "▫️ ") + state["names"].get(str(cid), "?"),
                ZtToggleCD(tracker_id=tid, v=v, cid=cid),
            )
            for cid in state["pool"]
        ]
        rows += in_rows(toggles, 2)
        rows.append([button(t("▶️ Start"), ZtStartCD(tracker_id=tid, v=v))])
    else:
        actor = service.actor_id(state)
        first = [
            button(t("🎲 Roll"), ZtViewCD(tracker_id=tid, v=v, s="a", m="r")),
        ]
        entry = service.extended_of(state, actor) if actor is not None else None
        if entry is not None and service.can_roll_extended(state, actor or 0):
            action = service.extended_action(entry)
            first.append(button(
                f"🧩 {action.accumulated}/{action.target}",
                ZtExtRollCD(tracker_id=tid, v=v),
            ))  # fmt: skip
        first.append(button(t("⏭ Next"), ZtNextCD(tracker_id=tid, v=v)))
        rows.append(first)
        second = [button(t("🩸 Health"), ZtViewCD(tracker_id=tid, v=v, s="h", m="h"))]
        if entry is None:
            second.append(button(t("🧩 Extended"), ZtViewCD(tracker_id=tid, v=v, s="a", m="x")))
        rows.append(second)
    rows.append([undo_button(t, tracker), end] if v > 1 else [end])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _back(t: Translator, tracker: TrackerDTO) -> list[InlineKeyboardButton]:
    return [button(t("⬅️ Back"), ZtViewCD(tracker_id=tracker.id, v=tracker.version, s="m"))]


def chooser_keyboard(
    t: Translator, tracker: TrackerDTO, view: ZtViewCD, sheet: st.Character | None
) -> InlineKeyboardMarkup:
    """The buttons of one chooser screen; every choice carries what was chosen before.
    ``sheet``: the actor's (attribute, ability), or on the health screen the chosen one's."""
    tid, v, state = tracker.id, tracker.version, tracker.state
    rows: list[list[InlineKeyboardButton]] = []

    def nav(s: str, **fields: int) -> ZtViewCD:
        base = dict(a=view.a, b=view.b, d=view.d, w=view.w, c=view.c)
        return ZtViewCD(tracker_id=tid, v=v, s=s, m=view.m, **{**base, **fields})

    if view.s == "a" and sheet is not None:
        buttons = [
            button(f"{_trait(t, a.value)} {sheet.attributes.get(a)}", nav("b", a=i))
            for i, a in enumerate(service.ATTRIBUTES)
        ]
        rows += in_rows(buttons, 3)
    elif view.s == "b" and sheet is not None:
        buttons = [
            button(f"{_trait(t, ab.key)} {ab.dots}", nav("d", b=i))
            for i, ab in enumerate(sheet.abilities)
            if ab.dots > 0
        ]
        rows += in_rows(buttons, 3)
        rows.append([button(t("No ability"), nav("d", b=-1))])
    elif view.s == "d":
        if view.m == "x":
            diffs = [button(_difficulty(t, d), nav("t", d=d)) for d in service.DIFFICULTIES]
        else:
            diffs = [
                button(
                    _difficulty(t, d),
                    ZtRollCD(tracker_id=tid, v=v, a=view.a, b=view.b, d=d, w=view.w),
                )
                for d in service.DIFFICULTIES
            ]
        rows += [diffs[:4], diffs[4:]]
        if view.m == "r":
            label = t("💪 Willpower: on") if view.w else t("💪 Willpower: off")
            rows.append([button(label, nav("d", w=0 if view.w else 1))])
    elif view.s == "t":
        targets = [
            button(str(g), ZtExtStartCD(tracker_id=tid, v=v, a=view.a, b=view.b, d=view.d, g=g))
            for g in service.TARGETS
        ]
        rows += [targets[:5], targets[5:]]
    elif view.s == "h":
        people = [
            button(state["names"].get(str(cid), "?"), nav("k", c=cid)) for cid in state["order"]
        ]
        rows += in_rows(people, 2)
    elif view.s == "k":
        rows.append([
            button("+" + BOX[kind] + " " + t(KIND_NAME[kind]),
                    ZtHealthCD(tracker_id=tid, v=v, c=view.c, op=op))
            for op, kind in (("b", DamageKind.BASHING), ("l", DamageKind.LETHAL),
                             ("a", DamageKind.AGGRAVATED))
        ])  # fmt: skip
        # healing only the kinds the track holds: «−✱» on no aggravated damage only refused
        heals = [
            button("−" + BOX[kind] + " " + t(KIND_NAME[kind]),
                   ZtHealthCD(tracker_id=tid, v=v, c=view.c, op=op))
            for op, kind in (("hb", DamageKind.BASHING), ("hl", DamageKind.LETHAL),
                             ("ha", DamageKind.AGGRAVATED))
            if sheet is None or kind in sheet.health.boxes
        ]  # fmt: skip
        if heals:
            rows.append(heals)
        soaks = [
            button(t("🛡 {n} bashing, soak", n=n), ZtHealthCD(tracker_id=tid, v=v, c=view.c,
                                                              op=f"s{n}"))
            for n in service.SOAK_AMOUNTS
        ]  # fmt: skip
        rows += [soaks[:2], soaks[2:]]
    elif view.s == "e":
        rows.append([button(t("🏁 Yes, end it"), ZtEndCD(tracker_id=tid, v=v))])
    rows.append(_back(t, tracker))
    return InlineKeyboardMarkup(inline_keyboard=rows)


def chooser_prompt(t: Translator, state: dict[str, Any], view: ZtViewCD) -> str:
    """One line under the scene saying what the buttons below choose."""
    actor = service.actor_id(state)
    name = _name(state, actor) if actor is not None else ""
    prompts = {
        "a": t("{name}: choose the attribute.", name=name),
        "b": t("{name}: choose the ability.", name=name),
        "d": t("{name}: choose the difficulty (6 is standard).", name=name),
        "t": t("How many successes does the extended action need?"),
        "h": t("Whose health?"),
        "k": t("{name}: damage or healing, one level a press.", name=_name(state, view.c)),
        "e": t("End the scene for everyone?"),
    }
    return "👉 <i>" + prompts.get(view.s, "") + "</i>"


def _difficulty(t: Translator, d: int) -> str:
    return t("{d} standard", d=d) if d == st.DEFAULT_DIFFICULTY else str(d)
