"""The ``cliche`` fight tracker: one message with everyone's dice, what is awaited, the log,
and the buttons of the moment. Rendered in the chat's language (any presser sees the same)."""

from __future__ import annotations

import html
from typing import Any, Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services.trackers import cliche as service
from db.repositories.games import CharacterDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine import formats
from engine.systems import cliche
from engine.systems.cliche import fight as engine
from engine.systems.cliche.fight_units import free_fighters, other_side, units
from handlers.trackers.common import button, clip, undo_button

LOG_SHOWN: Final = 14  # newest log lines offered to ``clip``


class CfSideCD(CallbackData, prefix="cfs"):
    """Set-up: move character ``c`` to the next side (none → 1 → 2 → none)."""

    t: int
    v: int
    c: int


class CfFocusCD(CallbackData, prefix="cff"):
    """Set-up: list character ``c``'s clichés (0: back to the participants)."""

    t: int
    v: int
    c: int


class CfClicheCD(CallbackData, prefix="cfc"):
    """Set-up: character ``c`` fights with its ``i``-th rollable cliché, appropriate."""

    t: int
    v: int
    c: int
    i: int


class CfFitCD(CallbackData, prefix="cfa"):
    """Set-up: cycle character ``c``'s cliché: appropriate → inappropriate −0 … −3."""

    t: int
    v: int
    c: int


class CfOptionCD(CallbackData, prefix="cfo"):
    """Set-up: toggle option ``o`` (g: physical graded damage, f: free dice)."""

    t: int
    v: int
    o: str


class CfStartCD(CallbackData, prefix="cfg"):
    t: int
    v: int


class CfAttackCD(CallbackData, prefix="cfk"):
    """Unit ``u`` (fighter or team key) attacks next."""

    t: int
    v: int
    u: str


class CfTargetCD(CallbackData, prefix="cft"):
    """The chosen attacker attacks unit ``u``: the round opens."""

    t: int
    v: int
    u: str


class CfRollCD(CallbackData, prefix="cfr"):
    t: int
    v: int
    f: str


class CfPumpCD(CallbackData, prefix="cfp"):
    """Fighter ``f`` pumps one more die into this round's roll."""

    t: int
    v: int
    f: str


class CfSwitchCD(CallbackData, prefix="cfw"):
    """Fighter ``f`` switches to its next cliché named by the GM before rolling."""

    t: int
    v: int
    f: str


class CfBonusCD(CallbackData, prefix="cfb"):
    """The GM grants fighter ``f`` one situational bonus die for this round's roll."""

    t: int
    v: int
    f: str


class CfTeamModeCD(CallbackData, prefix="cfn"):
    t: int
    v: int
    on: bool


class CfTeamToggleCD(CallbackData, prefix="cfm"):
    t: int
    v: int
    f: str


class CfTeamFormCD(CallbackData, prefix="cfj"):
    t: int
    v: int


class CfDisbandCD(CallbackData, prefix="cfd"):
    t: int
    v: int
    u: str


class CfLeaveCD(CallbackData, prefix="cfl"):
    """Fighter ``f`` leaves its team alone (its cliché drops to 0: it is out)."""

    t: int
    v: int
    f: str


class CfDamageCD(CallbackData, prefix="cfh"):
    """A losing team's damage goes to ``f``; with ``s`` another member shields it (double)."""

    t: int
    v: int
    f: str
    s: str = ""


class CfEndCD(CallbackData, prefix="cfe"):
    """The GM's «End»: asks first, in place."""

    t: int
    v: int


class CfEndYesCD(CallbackData, prefix="cfy"):
    """The question's «Yes»: the GM ends the fight."""

    t: int
    v: int


def end_confirmed(t: Translator, asked: CfEndCD) -> InlineKeyboardButton:
    """The question's «Yes» for the «End» pressed (``asked``): the same end, confirmed."""
    return button(t("🏁 Yes, end it"), CfEndYesCD(t=asked.t, v=asked.v))


WHY: Final[dict[str, str]] = {
    "pump": N_("pumping"),
    "shield": N_("shielding"),
    "disband": N_("team disbanded"),
    "leader_lost": N_("leader lost"),
    "left_team": N_("left the team"),
}


def _e(value: object) -> str:
    return html.escape(str(value), quote=False)


# --- the log ------------------------------------------------------------------------------------


def _faces(faces: list[int]) -> str:
    return "[" + " ".join(str(f) for f in faces) + "]"


def log_line(t: Translator, entry: dict[str, Any]) -> str:
    k = entry["k"]
    if k == "start":
        return t("▶️ The fight begins.")
    if k == "round":
        return t("— Round {n}: {a} → {d}", n=entry["n"], a=_e(entry["a"]), d=_e(entry["d"]))
    if k == "roll":
        pump = t(" (pumped +{n})", n=entry["pump"]) if entry.get("pump") else ""
        if entry.get("bonus"):
            pump += t(" (bonus +{n})", n=entry["bonus"])
        if entry["member"]:
            return t(
                "🎲 {who}: {faces} → sixes {sum}{pump}", who=_e(entry["who"]),
                faces=_faces(entry["faces"]), sum=entry["sum"], pump=pump,
            )  # fmt: skip
        return t(
            "🎲 {who}: {n} {faces} = {sum}{pump}", who=_e(entry["who"]), n=entry["n"],
            faces=_faces(entry["faces"]), sum=entry["sum"], pump=pump,
        )  # fmt: skip
    if k == "tie":
        return t("🤝 Tie {a}:{d}, nobody loses: roll again.", a=entry["a"], d=entry["d"])
    if k == "won":
        # the winner's score first: a defender's win read «Рейвер побеждает 10:14»
        high, low = sorted((entry["a"], entry["d"]), reverse=True)
        line = t("✅ {who} wins {a}:{d}", who=_e(entry["who"]), a=high, d=low)
        if entry["kind"] in ("graded", "inappropriate_graded"):
            line += t(" (hard hit: 1d6 = {face})", face=entry["faces"][0])
        if entry["kind"] in ("inappropriate", "inappropriate_graded"):
            line += t(" (inappropriate cliché won)")
        return line
    if k == "loss":
        why = WHY.get(entry["why"])
        return t(
            "💔 {who}: {cliche} −{dice}{why}", who=_e(entry["who"]), cliche=_e(entry["c"]),
            dice=entry["dice"], why=" (" + t(why) + ")" if why else "",
        )  # fmt: skip
    if k == "out":
        return t("☠️ {who} is out.", who=_e(entry["who"]))
    if k == "team":
        return t("👥 Team {team}, led by {leader}.", team=_e(entry["team"]),
                 leader=_e(entry["leader"]))  # fmt: skip
    if k == "left":
        return t("🚪 {who} leaves the team alone.", who=_e(entry["who"]))
    if k == "joined":
        return t("➕ {who} joins side {side}: from the next round.", who=_e(entry["who"]),
                 side=entry["side"])  # fmt: skip
    if k == "gone":
        return t("➖ {who} leaves the fight.", who=_e(entry["who"]))
    if k == "disband":
        return t("🏳 Team {team} disbanded.", team=_e(entry["team"]))
    if k == "pending":
        return t.plural("💥 {team} lost: the GM picks who loses {n} die.",
                        "💥 {team} lost: the GM picks who loses {n} dice.",
                        int(entry["dice"]), team=_e(entry["team"]))  # fmt: skip
    if k == "shield":
        return t("🛡 {who} shields {other}.", who=_e(entry["who"]), other=_e(entry["for"]))
    if k == "end":
        if entry.get("side"):
            return t("🏁 Side {side} wins.", side=entry["side"])
        return t("🏁 The fight is over.")
    if k == "stopped":
        return t("🏁 The GM ended the fight.")
    return ""


# --- set-up -------------------------------------------------------------------------------------


def _fit_label(t: Translator, penalty: int | None) -> str:
    return "✅" if penalty is None else t("⚠️ inappropriate −{n}", n=penalty)


def _setup(
    t: Translator, tracker: TrackerDTO, chars: list[CharacterDTO]
) -> tuple[str, InlineKeyboardMarkup]:
    state = tracker.state
    tid, v = tracker.id, tracker.version
    head = ["<b>" + t("⚔️ Fight: set-up") + "</b>"]
    for side in service.SIDES:
        names = []
        for c in chars:
            if state["sides"].get(str(c.id)) != side:
                continue
            use = "/".join(state["use"].get(str(c.id), [])) or "—"
            fit = _fit_label(t, state["fit"].get(str(c.id)))
            names.append(f"{_e(c.name)} ({_e(use)} {fit})")
        head.append(t("<b>Side {side}:</b> {names}", side=side, names=", ".join(names) or "—"))
    on, off = t("on"), t("off")
    head.append(
        t("Physical (hard hits cost 1d6): {graded}; +{n} free dice for all: {free}",
          graded=on if state["graded"] else off, n=service.FREE_DICE,
          free=on if state["free"] else off)
    )  # fmt: skip
    hint = t("GM: tap a name to move it between sides, 🎯 to name its clichés (the first starts).")
    head.append(f"<i>{hint}</i>")
    rows: list[list[InlineKeyboardButton]] = []
    focus = state.get("focus")
    by_id = {c.id: c for c in chars}
    if focus and focus in by_id:
        character = by_id[focus]
        current = state["use"].get(str(focus), [])
        for i, item in enumerate(service.usable(service.sheet_of(character))):
            mark = "✅ " if item.name in current else ""
            label = f"{mark}{item.name} ({cliche.effective_dice(item)})"
            rows.append([button(label, CfClicheCD(t=tid, v=v, c=focus, i=i))])
        penalty = state["fit"].get(str(focus))
        fit = t("Appropriate ✅") if penalty is None else t("Inappropriate: −{n}", n=penalty)
        rows.append([button(fit, CfFitCD(t=tid, v=v, c=focus))])
        rows.append([button(t("⬅️ Back"), CfFocusCD(t=tid, v=v, c=0))])
    else:
        marks = {None: "▫️", "1": "1️⃣", "2": "2️⃣"}
        for c in chars:
            side = state["sides"].get(str(c.id))
            row = [button(f"{marks[side]} {c.name}", CfSideCD(t=tid, v=v, c=c.id))]
            if side is not None:
                named = "/".join(state["use"].get(str(c.id), [])) or "—"
                row.append(button(f"🎯 {named}", CfFocusCD(t=tid, v=v, c=c.id)))
            rows.append(row)
        rows.append([
            button(t("Physical: {x}", x=on if state["graded"] else off),
                 CfOptionCD(t=tid, v=v, o="g")),
            button(t("Free dice: {x}", x=on if state["free"] else off),
                 CfOptionCD(t=tid, v=v, o="f")),
        ])  # fmt: skip
        rows.append([button(t("▶️ Start"), CfStartCD(t=tid, v=v))])
    rows.append([undo_button(t, tracker), button(t("🏁 End"), CfEndCD(t=tid, v=v))])
    return "\n".join(head), InlineKeyboardMarkup(inline_keyboard=rows)


# --- the fight ----------------------------------------------------------------------------------


def _in_use(state: dict[str, Any], fight: engine.FightState, key: str) -> str:
    team = fight.team_of(key)
    return team.member(key).cliche if team is not None else str(state["people"][key]["cur"])


def _fighter_line(t: Translator, state: dict[str, Any], fight: engine.FightState, key: str) -> str:
    fighter = fight.fighter(key)
    use = fighter.get(_in_use(state, fight, key)).cliche
    parts = [f"{_e(fighter.name)} — {_e(use.name)} {formats.pool(use.current, use.dice)}"]
    parts += [
        f"🛡 {_e(c.cliche.name)} {formats.pool(c.cliche.current, c.cliche.dice)}"
        for c in fighter.cliches
        if c.cliche.armor
    ]
    penalty = state["people"][key]["penalty"]
    if penalty is not None:
        parts.append(t("⚠️ inappropriate −{n}", n=penalty))
    if fighter.out:
        parts.append(t("☠️ out"))
    exchange = fight.exchange
    if exchange is not None:
        declared = engine.declaration_of(fight, key)
        if declared is not None and declared.pump:
            parts.append(f"💪{declared.pump}")
        if declared is not None and declared.bonus:
            parts.append(f"🎁{declared.bonus}")
        rolled = next((r for r in exchange.rolls if r.fighter == key), None)
        if rolled is not None:
            parts.append(f"🎲 {rolled.counted}")
    return "• " + " · ".join(parts)


def _status(t: Translator, state: dict[str, Any], fight: engine.FightState) -> str:
    if fight.finished:
        return ""

    def name(unit: str) -> str:
        return _e(service.unit_name(state, fight, unit))

    if fight.exchange is not None:
        waiting = ", ".join(_e(service.name_of(state, k)) for k in engine.waiting_for(fight))
        return t("⚔️ {a} → {d}. Waiting for rolls: {who}", a=name(fight.exchange.attacker),
                 d=name(fight.exchange.defender), who=waiting)  # fmt: skip
    if fight.pending is not None:
        return t.plural(
            "💥 {team} lost: the GM picks who loses {n} die (or a member shields: double).",
            "💥 {team} lost: the GM picks who loses {n} dice (or a member shields: double).",
            fight.pending.dice, team=name(fight.pending.team),
        )  # fmt: skip
    if state.get("team") is not None:
        picked = ", ".join(_e(service.name_of(state, k)) for k in state["team"]) or "—"
        return t("👥 The GM gathers a team: {who}", who=picked)
    if state.get("attacker"):
        return t("⚔️ {a} attacks: choose the target.", a=name(state["attacker"]))
    return t("Side {side} attacks: choose who.", side=state["turn"])


def _summary(t: Translator, state: dict[str, Any], fight: engine.FightState) -> list[str]:
    lost: dict[str, int] = {}
    for record in fight.losses:
        lost[record.fighter] = lost.get(record.fighter, 0) + record.dice
    # only who lost dice: a row of «−0» for everyone said nothing
    losers = [f"{_e(f.name)}: −{lost[f.key]}" for f in fight.fighters if lost.get(f.key)]
    if losers:
        lines = ["<b>" + t("Dice lost in this fight:") + "</b>", *losers]
    else:
        lines = [t("No one lost dice in this fight.")]
    if fight.winner_side:
        lines.append(t("🏆 Side {side} wins; the winner decides the losers' fate.",
                       side=fight.winner_side))  # fmt: skip
    return lines


def _fight(
    t: Translator, tracker: TrackerDTO, fight: engine.FightState
) -> tuple[str, InlineKeyboardMarkup | None]:
    state = tracker.state
    title = t("⚔️ Fight · round {n}", n=fight.round) if fight.round else t("⚔️ Fight")
    head = ["<b>" + title + "</b>"]
    for side in service.SIDES:
        head.append(t("<b>Side {side}</b>", side=side))
        head += [_fighter_line(t, state, fight, f.key) for f in fight.fighters if f.side == side]
        for team in fight.teams:
            if team.side == side:
                head.append(t("👥 {team} (leader {leader})",
                              team=_e(service.unit_name(state, fight, team.key)),
                              leader=_e(service.name_of(state, team.leader))))  # fmt: skip
    if fight.finished:
        head += _summary(t, state, fight)
    else:
        head.append("<b>" + _status(t, state, fight) + "</b>")
    head.append("")
    log = [log_line(t, e) for e in state.get("log", [])[-LOG_SHOWN:]]
    text = clip(head, [f"<i>{line}</i>" for line in log if line])
    if not tracker.is_open or fight.finished:
        return text, None
    return text, InlineKeyboardMarkup(inline_keyboard=_fight_rows(t, tracker, fight))


def _fight_rows(
    t: Translator, tracker: TrackerDTO, fight: engine.FightState
) -> list[list[InlineKeyboardButton]]:
    state = tracker.state
    tid, v = tracker.id, tracker.version

    def name(key: str) -> str:
        return service.name_of(state, key)

    def unit(key: str) -> str:
        return service.unit_name(state, fight, key)

    rows: list[list[InlineKeyboardButton]] = []
    if fight.exchange is not None:
        for key in engine.waiting_for(fight):
            pool = engine.declared_pool(fight, key)
            rows.append([button(f"🎲 {name(key)} · {pool.size}d6", CfRollCD(t=tid, v=v, f=key))])
            row = []  # what may change the pool first, on a row of its own under the die
            declared = engine.declaration_of(fight, key)
            item = fight.fighter(key).get(_in_use(state, fight, key)).cliche
            if declared is not None and declared.pump < item.current:
                row.append(button(t("💪 Pump +1"), CfPumpCD(t=tid, v=v, f=key)))
            switch = service.next_cliche(state, fight, key)
            if switch is not None:
                row.append(button(f"🔁 {switch}", CfSwitchCD(t=tid, v=v, f=key)))
            if declared is not None and declared.bonus < service.MAX_BONUS:
                row.append(button(t("🎁 Bonus +1"), CfBonusCD(t=tid, v=v, f=key)))
            if row:
                rows.append(row)
    elif fight.pending is not None:
        team = fight.team(fight.pending.team)
        keys = [] if team is None else [m.fighter for m in team.members]
        keys = [k for k in keys if not fight.fighter(k).out]
        if keys:
            rows.append([button(f"💥 {name(k)}", CfDamageCD(t=tid, v=v, f=k)) for k in keys])
            for shield in keys:
                for target in keys:
                    if shield != target:
                        label = t("🛡 {a} shields {b}", a=name(shield), b=name(target))
                        data = CfDamageCD(t=tid, v=v, f=target, s=shield)
                        rows.append([button(label, data)])
    elif state.get("team") is not None:
        picked = state["team"]
        for side in service.SIDES:
            for key in free_fighters(fight, side):
                mark = "☑️" if key in picked else "⬜"
                rows.append([button(f"{mark} {name(key)}", CfTeamToggleCD(t=tid, v=v, f=key))])
        rows.append([button(t("✅ Form the team"), CfTeamFormCD(t=tid, v=v)),
                     button(t("✖ Cancel"), CfTeamModeCD(t=tid, v=v, on=False))])  # fmt: skip
    else:
        turn = state["turn"]
        attacker = state.get("attacker")
        if attacker is None:
            for key in units(fight, turn):
                rows.append([button(f"⚔️ {unit(key)}", CfAttackCD(t=tid, v=v, u=key))])
        else:
            for key in units(fight, other_side(fight, turn) or ""):
                rows.append([button(f"🎯 {unit(key)}", CfTargetCD(t=tid, v=v, u=key))])
        extra = []
        if any(len(free_fighters(fight, s)) > 1 for s in service.SIDES):
            extra.append(button(t("👥 Team"), CfTeamModeCD(t=tid, v=v, on=True)))
        extra += [
            button(t("🏳 Disband {team}", team=unit(team.key)), CfDisbandCD(t=tid, v=v, u=team.key))
            for team in fight.teams
        ]
        if extra:
            rows.append(extra)
        for team in fight.teams:
            rows.append([
                button(f"🚪 {name(m.fighter)}", CfLeaveCD(t=tid, v=v, f=m.fighter))
                for m in team.members
                if not fight.fighter(m.fighter).out
            ])  # fmt: skip
    rows.append([undo_button(t, tracker), button(t("🏁 End"), CfEndCD(t=tid, v=v))])
    return rows


async def render(
    uow: UnitOfWork, t: Translator, tracker: TrackerDTO
) -> tuple[str, InlineKeyboardMarkup | None]:
    fight = service.fight_state(tracker.state)
    if fight is None:
        if not tracker.is_open:
            lines = ["<b>" + t("⚔️ Fight") + "</b>", t("🏁 The GM ended the fight.")]
            return "\n".join(lines), None
        chars = await uow.characters.for_game(tracker.game_id, statuses=("active",))
        return _setup(t, tracker, chars)
    return _fight(t, tracker, fight)
