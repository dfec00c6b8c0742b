"""The lifegear fight tracker as one message: fast combat against a monster, or a duel.

A bold title, each fighter's lives and gear (unusable items struck through), what is awaited
(who rolls, who must choose items for damage), then the newest log lines. Buttons: the set-up
toggles, each awaited fighter's 🎲 (and the attacks to choose from), the damage choices (armor
first, then items), «End»/«Stop» and the GM's undo.
"""

from __future__ import annotations

from html import escape
from typing import Any, Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.resources import item_key
from bot.services.trackers import lifegear as service
from bot.services.trackers.lifegear import COMBAT, DUEL, Fighter
from db.repositories.trackers import TrackerDTO
from engine import formats
from engine.systems import lifegear
from engine.systems.lifegear import Protection
from handlers.trackers.common import button, clip, in_rows, undo_button
from handlers.views.requests import local_time
from handlers.views.sheets.lifegear import KIND_ICON

Rows = list[list[InlineKeyboardButton]]
NAME_SHOWN: Final = 24


class LgToggleCD(CallbackData, prefix="lgt"):
    """Set-up: toggle character ``c`` (0: the surprise round)."""

    tid: int
    v: int
    c: int


class LgStartCD(CallbackData, prefix="lgs"):
    tid: int
    v: int


class LgChooseCD(CallbackData, prefix="lgc"):
    """«🎲 Name»: roll the only attack, or show the attacks to choose from."""

    tid: int
    v: int
    c: int


class LgRollCD(CallbackData, prefix="lgr"):
    """Roll attack ``o`` of character ``c`` (``k``: the attack's fingerprint)."""

    tid: int
    v: int
    c: int
    o: int
    k: str


class LgBoostCD(CallbackData, prefix="lgb"):
    """Mark (or unmark) item ``i`` of character ``c`` to add its dice to the next roll."""

    tid: int
    v: int
    c: int
    i: int
    k: str


class LgAfterCD(CallbackData, prefix="lga"):
    """Add item ``i`` (used after the result) to character ``c``'s roll that missed."""

    tid: int
    v: int
    c: int
    i: int
    k: str


class LgProtCD(CallbackData, prefix="lgp"):
    """Use (or take back) armor ``i`` of character ``c`` against its pending damage."""

    tid: int
    v: int
    c: int
    i: int
    k: str


class LgPickCD(CallbackData, prefix="lgk"):
    """Choose (or unchoose) item ``i`` to lose to the pending damage."""

    tid: int
    v: int
    c: int
    i: int
    k: str


class LgTakeCD(CallbackData, prefix="lgx"):
    tid: int
    v: int
    c: int


class LgExtraCD(CallbackData, prefix="lgh"):
    """The GM: character ``c`` takes 1 more damage (0: show or hide these buttons)."""

    tid: int
    v: int
    c: int


class LgEndCD(CallbackData, prefix="lge"):
    """«End» (the GM) or a duel's «Stop» (a duellist too): asks first, in place."""

    tid: int
    v: int


class LgEndYesCD(CallbackData, prefix="lgy"):
    """The question's «Yes»: the fight ends (the duel stops)."""

    tid: int
    v: int


def end_confirmed(t: Translator, asked: LgEndCD) -> InlineKeyboardButton:
    """The question's «Yes» for the «End»/«Stop» pressed (``asked``): the same end, confirmed."""
    return button(t("🏁 Yes, end it"), LgEndYesCD(tid=asked.tid, v=asked.v))


def _e(value: object) -> str:
    return escape(str(value), quote=False)


def _short(name: str) -> str:
    return name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…"


# --- text ------------------------------------------------------------------------------------


def _title(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> str:
    state = tracker.state
    if tracker.kind == COMBAT:
        monster = state["monster"]
        return t(
            "⚔️ <b>Fight: {monster}</b> (defence {defence})",
            monster=_e(monster["name"]), defence=monster["defence"],
        )  # fmt: skip
    chosen = [roster[c].name for c in service.ids(state) if c in roster]
    if state.get("phase") == "setup" or len(chosen) != 2:
        return t("🤺 <b>Duel</b>")
    return t("🤺 <b>Duel: {a} vs {b}</b>", a=_e(chosen[0]), b=_e(chosen[1]))


def _specials(t: Translator, tracker: TrackerDTO) -> list[str]:
    """What the monster does besides its defence (its NPC's specials), and how the GM applies
    it: extra damage to each fighter before or after the fight, with «💥» (SPEC: applied by
    the GM)."""
    if tracker.kind != COMBAT:
        return []
    lines = []
    for special in tracker.state["monster"].get("specials", []):
        damage = int(special.get("damage", 0))
        if damage and special.get("timing") == "before_fight":
            lines.append(t(
                "⚡ Before the fight: {damage} damage to each fighter; the GM adds it with 💥.",
                damage=damage,
            ))  # fmt: skip
        elif damage:
            lines.append(t(
                "⚡ After the fight: {damage} damage to each fighter; the GM adds it with 💥.",
                damage=damage,
            ))  # fmt: skip
        else:
            lines.append(t("⚡ Special: {name}", name=_e(str(special.get("name", "")))))
    return lines


def _item(item: lifegear.Item) -> str:
    text = f"{KIND_ICON[item.kind]}{_e(item.name)}"
    return text if item.usable else f"<s>{text}</s>"


def fighter_line(t: Translator, fighter: Fighter) -> str:
    sheet = fighter.sheet
    mark = "" if service.alive(fighter) else "💀 "
    lives = f"❤️ {formats.pool(lifegear.lives(sheet), sheet.max_lives)}"
    items = " ".join(_item(item) for item in sheet.gear) or "—"
    return f"{mark}<b>{_e(fighter.name)}</b> {lives} · {items}"


def _awaited(
    t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter], zone: str
) -> list[str]:
    state = tracker.state
    lines: list[str] = []
    rolling = [roster[c].name for c in service.awaiting_roll(tracker, roster)]
    if rolling:
        lines.append(t("⏳ To roll: {names}", names=_e(", ".join(rolling))))
    for pending in state.get("pending", []):
        fighter = roster.get(pending["c"])
        if fighter is None:
            continue
        opts = service.options(fighter, pending)
        lines.append(
            t.plural(
                "⏳ {name} takes {damage} damage: choose {n} item ({chosen} chosen)",
                "⏳ {name} takes {damage} damage: choose {n} items ({chosen} chosen)",
                opts.must_choose,
                name=_e(fighter.name),
                damage=pending["dmg"],
                chosen=len(pending["pick"]),
            )
        )
        if opts.remaining != opts.damage:
            lines.append(t("🛡 Armor leaves {left} of it.", left=opts.remaining))
        due = service.due_of(pending)
        if due is not None and fighter.row.owner_user_id is not None:
            when = local_time(due, zone)  # the game's clock (issue 36 item 9d)
            lines.append(t("⌛ The player chooses; after {when} the GM may.", when=when))
    if tracker.kind == COMBAT and state.get("phase") == "won" and not lines:
        winner = roster.get(state.get("winner") or 0)
        lines.append(
            t(
                "🏆 {name} defeated {monster}! The GM ends the fight.",
                name=_e(winner.name if winner else "?"),
                monster=_e(state["monster"]["name"]),
            )
        )
    if tracker.kind == COMBAT and state.get("phase") == "fight" and not lines:
        lines.append(t("Nobody can act: the GM decides."))
    return lines


def _faces(entry: dict[str, Any]) -> str:
    """The logged faces, e.g. ``[3, 1]`` (nothing for a stat without dice)."""
    faces = entry["faces"]
    return "[" + ", ".join(str(f) for f in faces) + "]" if faces else ""


def log_line(t: Translator, tracker: TrackerDTO, entry: dict[str, Any]) -> str:
    kind = entry["k"]
    if kind == "start":
        if entry.get("surprise"):
            return t("▶️ The fight begins with a surprise round.")
        return t("▶️ The fight begins.")
    if kind == "round":
        return t("— Round {n} —", n=entry["n"])
    if kind == "roll":
        who, what = _e(entry["who"]), _e(entry["what"])
        rolled = " ".join(x for x in (entry["not"], _faces(entry)) if x)
        line = f"🎲 {who} ({what}): {rolled} → <b>{entry['total']}</b>"
        if entry.get("hit"):
            return line + " " + t("— a hit, the monster is down!")
        if "dmg" in entry:
            return line + " " + t("— short by {damage}.", damage=entry["dmg"])
        return line
    if kind == "after":
        line = t(
            "➕ {who} adds {item}: {faces} → <b>{total}</b>",
            who=_e(entry["who"]), item=_e(entry["item"]), faces=_faces(entry),
            total=entry["total"],
        )  # fmt: skip
        if entry.get("hit"):
            return line + " " + t("— a hit, the monster is down!")
        return line + " " + t("— short by {damage}.", damage=entry["dmg"])
    if kind == "duel":
        if entry.get("w") is None:
            return t("⚔️ A tie: no damage.")
        winner, loser = _e(entry["w"]), _e(entry.get("l") or "?")
        if entry.get("dmg", 1) == 1:
            return t(
                "⚔️ {winner} wins the round: {loser} loses a life.", winner=winner, loser=loser
            )
        return t(
            "⚔️ {winner} wins the round: {loser} takes {damage} damage.",
            winner=winner, loser=loser, damage=entry["dmg"],
        )  # fmt: skip
    if kind == "yield":
        return t("🏳 {who} leaves the duel and yields.", who=_e(entry["who"]))
    if kind == "extra":
        return t("💥 {who}: 1 more damage (the GM).", who=_e(entry["who"]))
    if kind == "took":
        return _took(t, entry)
    return ""


def _took(t: Translator, entry: dict[str, Any]) -> str:
    parts = [f"🛡{_e(p)}" for p in entry["prot"]] + [_e(x) for x in entry["lost"]]
    if entry["unabs"]:
        parts.append(t("{n} not absorbed", n=entry["unabs"]))
    line = t(
        "💔 {who} takes {damage}: {what}; lives {before} → {after}.",
        who=_e(entry["who"]), damage=entry["dmg"], what=", ".join(parts) or "—",
        before=entry["lives"][0], after=entry["lives"][1],
    )  # fmt: skip
    if entry.get("temp"):
        line += " " + t("(until the monster falls)")
    if entry.get("dying"):
        line += " " + t("💀 Below zero: the death rules, the GM decides.")
    return line


def _setup_lines(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> list[str]:
    state = tracker.state
    if tracker.kind == DUEL:
        lines = [t("Set-up: the GM chooses the two duellists, then «Start».")]
    else:
        lines = [t("Set-up: the GM chooses who takes part, then «Start».")]
    if state.get("surprise") and tracker.kind == DUEL:
        chosen_names = [roster[c].name for c in service.ids(state) if c in roster]
        if chosen_names:
            lines.append(t("⚡ Ambush by {name}.", name=_e(chosen_names[0])))
        if state.get("first_round") == lifegear.CombatMode.FAST.value:
            lines.append(t("Round 1 is fast: the difference is the damage."))
    elif state.get("surprise"):
        lines.append(t("⚡ Surprise round: on."))
    chosen = [roster[c] for c in service.ids(state) if c in roster]
    lines.extend(fighter_line(t, f) for f in chosen)
    if not chosen:
        lines.append(t("Nobody is chosen yet."))
    return lines


def text(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter], zone: str = "UTC") -> str:
    """The fight's message; ``zone``: the game's time zone, for the deadlines it shows."""
    state = tracker.state
    head = [_title(t, tracker, roster), *_specials(t, tracker)]
    if state.get("phase") == "setup":
        return clip(head + _setup_lines(t, tracker, roster), [])
    if not tracker.is_open:
        head.append(_summary(t, tracker, roster))
    else:
        head.append(_round(t, tracker))
    chosen = [roster[c] for c in service.ids(state) if c in roster]
    head.extend(fighter_line(t, f) for f in chosen)
    if tracker.is_open:
        head.extend(_awaited(t, tracker, roster, zone))
    log = [line for e in state.get("log", []) if (line := log_line(t, tracker, e))]
    return clip(head, ["", *log] if log else [])


def _round(t: Translator, tracker: TrackerDTO) -> str:
    state = tracker.state
    fight = service.pvp(state)
    if tracker.kind == DUEL:
        number = fight.round if fight else 1
        surprise = fight is not None and fight.surprise and fight.round == 1
    else:
        number = state.get("round", 1)
        surprise = bool(state.get("surprise")) and number == 1
    line = t("<b>Round {n}</b>", n=number)
    if surprise:
        line += " · " + t("⚡ surprise: only Help, weapons in hand and armor")
    if tracker.kind == DUEL and fight is not None and lifegear.round_mode(fight).value == "fast":
        line += " · " + t("fast: the difference is the damage")
    return line


def _summary(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> str:
    state = tracker.state
    if state.get("called_off"):
        return t("🏁 Called off.")
    if tracker.kind == DUEL and state.get("yielded"):
        line = t("🏁 The duel is over: {name} yields.", name=_e(state["yielded"]))
    elif tracker.kind == DUEL:
        line = t("🏁 The duel is over.")
    elif state.get("winner"):
        winner = roster.get(state["winner"])
        line = t(
            "🏁 The fight is over: {name} defeated {monster}.",
            name=_e(winner.name if winner else "?"), monster=_e(state["monster"]["name"]),
        )  # fmt: skip
    else:
        line = t(
            "🏁 The fight is over: {monster} still stands.", monster=_e(state["monster"]["name"])
        )
    if state.get("spared"):
        line += " " + t("Damage not taken: {names}.", names=_e(", ".join(state["spared"])))
    return line


# --- buttons ---------------------------------------------------------------------------------


def _setup_rows(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> Rows:
    tid, v = tracker.id, tracker.version
    chosen = service.ids(tracker.state)
    toggles = [
        button(("✅ " if c in chosen else "▫️ ") + _short(f.name), LgToggleCD(tid=tid, v=v, c=c))
        for c, f in roster.items()
    ]
    rows = in_rows(toggles, 2)
    surprise = t("⚡ Surprise: on") if tracker.state.get("surprise") else t("⚡ Surprise: off")
    if tracker.kind == DUEL and tracker.state.get("surprise"):
        fast = tracker.state.get("first_round") == lifegear.CombatMode.FAST.value
        surprise = t("⚡ Ambush: fast round") if fast else t("⚡ Ambush: duel round")
    rows.append([button(surprise, LgToggleCD(tid=tid, v=v, c=0))])
    rows.append([button(t("▶️ Start"), LgStartCD(tid=tid, v=v))])
    return rows


def _roll_rows(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> Rows:
    tid, v = tracker.id, tracker.version
    choosing = {int(c) for c in tracker.state.get("choosing", [])}
    rows: Rows = []
    for cid in service.awaiting_roll(tracker, roster):
        fighter = roster[cid]
        name = _short(fighter.name)
        if cid not in choosing:
            rows.append([button(f"🎲 {name}", LgChooseCD(tid=tid, v=v, c=cid))])
            continue
        marked = service.chosen_boosts(tracker, fighter)
        for item in service.boosts(tracker, fighter):
            mark = "☑️" if item.id in marked else "➕"
            label = f"{mark} {name}: {KIND_ICON[item.kind]}{item.name} ({item.dice})"
            i = fighter.sheet.gear.index(item)
            data = LgBoostCD(tid=tid, v=v, c=cid, i=i, k=item_key(item.id))
            rows.append([button(label[:60], data)])
        for o, plan in enumerate(service.plans(tracker, fighter)):
            label = f"🎲 {name}: {service.plan_label(fighter, plan)}"
            roll = LgRollCD(tid=tid, v=v, c=cid, o=o, k=service.plan_key(plan))
            rows.append([button(label[:60], roll)])
    return rows


def _protection(t: Translator, item: lifegear.Item) -> str:
    if item.protection is Protection.REDUCE:
        return t("−{n} damage", n=item.reduce_by)
    if item.protection is Protection.TEMPORARY:
        return t("until the monster falls")
    return t("takes it all, breaks")


def _damage_rows(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> Rows:
    tid, v = tracker.id, tracker.version
    pendings = tracker.state.get("pending", [])
    rows: Rows = []
    for pending in pendings:
        cid = pending["c"]
        fighter = roster.get(cid)
        if fighter is None:
            continue
        prefix = f"{_short(fighter.name)}: " if len(pendings) > 1 else ""
        opts = service.options(fighter, pending)
        offered = {p.item_id for p in opts.protections}
        buttons: list[InlineKeyboardButton] = []
        for item in service.after_boosts(tracker, fighter):
            i = fighter.sheet.gear.index(item)
            label = f"➕ {KIND_ICON[item.kind]}{item.name} ({item.dice})"
            data = LgAfterCD(tid=tid, v=v, c=cid, i=i, k=item_key(item.id))
            rows.append([button((prefix + label)[:60], data)])
        for i, item in enumerate(fighter.sheet.gear):
            key = item_key(item.id)
            if item.id in pending["prot"]:
                label = f"☑️ 🛡{item.name}"
                buttons.append(button(prefix + label, LgProtCD(tid=tid, v=v, c=cid, i=i, k=key)))
            elif item.id in offered and not pending["pick"]:
                label = f"🛡 {item.name}: {_protection(t, item)}"
                buttons.append(button(prefix + label, LgProtCD(tid=tid, v=v, c=cid, i=i, k=key)))
        for i, item in enumerate(fighter.sheet.gear):
            if item.id not in opts.candidates:
                continue
            mark = "☑️" if item.id in pending["pick"] else "▫️"
            label = f"{mark} {KIND_ICON[item.kind]}{item.name}"
            key = item_key(item.id)
            buttons.append(button(prefix + label, LgPickCD(tid=tid, v=v, c=cid, i=i, k=key)))
        rows.extend(in_rows(buttons, 2))
        if len(pending["pick"]) == opts.must_choose:
            label = t("✅ {name}: take {damage}", name=_short(fighter.name), damage=pending["dmg"])
            rows.append([button(label, LgTakeCD(tid=tid, v=v, c=cid))])
    return rows


def _extra_rows(t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]) -> Rows:
    tid, v = tracker.id, tracker.version
    rows: Rows = [[button(t("💥 Extra damage (GM)"), LgExtraCD(tid=tid, v=v, c=0))]]
    if tracker.state.get("extra"):
        hits = [
            button(f"💥 +1 {_short(roster[c].name)}", LgExtraCD(tid=tid, v=v, c=c))
            for c in service.ids(tracker.state)
            if c in roster
        ]
        rows.extend(in_rows(hits, 2))
    return rows


def keyboard(
    t: Translator, tracker: TrackerDTO, roster: dict[int, Fighter]
) -> InlineKeyboardMarkup | None:
    if not tracker.is_open:
        return None
    state = tracker.state
    if state.get("phase") == "setup":
        rows = _setup_rows(t, tracker, roster)
    else:
        rows = _roll_rows(t, tracker, roster) + _damage_rows(t, tracker, roster)
        rows += _extra_rows(t, tracker, roster)
    end = t("⏹ Stop") if tracker.kind == DUEL else t("⏹ End")
    last = [button(end, LgEndCD(tid=tracker.id, v=tracker.version))]
    if tracker.version > 1:
        last.insert(0, undo_button(t, tracker))
    rows.append(last)
    return InlineKeyboardMarkup(inline_keyboard=rows)
