"""The fate conflict tracker as one message: callback data (ids and short codes only), the
HTML (zones and aspects with free invokes, each side's characters with stress, consequences
and marks, what is awaited, the newest log lines) and the buttons awaited now."""

from __future__ import annotations

import html
from typing import Any, Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services.trackers import fate as service
from bot.systems import SYSTEMS
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine import formats
from engine.systems import fate
from engine.systems.fate import ConflictState, Outcome, Skill, TrackKind
from engine.text import msg
from handlers.trackers.common import button, clip, in_rows, undo_button
from handlers.views.resources import TRACK_ICON
from handlers.views.sheets.fate import engine_name

BUTTON_NAME: Final = 18  # characters of a name on a button
ABSORB_SHOWN: Final = 8  # absorb options offered as buttons (minimal ones come first)
INVOKES_SHOWN: Final = 3  # aspects with free invokes per holder offered as buttons


# --- callback data: one class per action -----------------------------------------------------


class FzToggleCD(CallbackData, prefix="fzs"):
    """Set-up: cycle a character out → side A → side B."""

    tracker_id: int
    v: int
    pid: int


class FzStartCD(CallbackData, prefix="fzg"):
    tracker_id: int
    v: int


class FzChoiceCD(CallbackData, prefix="fza"):
    """The acting character's choice: attack, defend (full defence), advantage, pass, cancel."""

    tracker_id: int
    v: int
    c: str


class FzAttackCD(CallbackData, prefix="fzt"):
    """The attacker rolls at ``target`` with ``skill`` (a fate skill id)."""

    tracker_id: int
    v: int
    target: int
    skill: Skill


class FzDefendCD(CallbackData, prefix="fzd"):
    tracker_id: int
    v: int
    skill: Skill


class FzInvokeCD(CallbackData, prefix="fzi"):
    """Spend a free invoke of the attacker (``h=a``) or defender (``d``) on aspect ``a`` of
    zone ``z``: +2, or a reroll when ``r``."""

    tracker_id: int
    v: int
    h: str
    z: int
    a: int
    r: bool


class FzPaidInvokeCD(CallbackData, prefix="fzp"):
    """Invoke the attacker's (``h=a``) or defender's (``d``) own aspect ``i`` for a fate
    point: +2."""

    tracker_id: int
    v: int
    h: str
    i: int


class FzAcceptCD(CallbackData, prefix="fzr"):
    tracker_id: int
    v: int


class FzAbsorbCD(CallbackData, prefix="fzb"):
    """Take the hit: ``code`` names a box and consequence slots, taken out or conceding."""

    tracker_id: int
    v: int
    code: str


class FzAdvantageCD(CallbackData, prefix="fzv"):
    tracker_id: int
    v: int
    skill: Skill


class FzAdvDiffCD(CallbackData, prefix="fzo"):
    """The GM sets the advantage's passive opposition to ``d``."""

    tracker_id: int
    v: int
    d: int


class FzAdvOpposerCD(CallbackData, prefix="fzq"):
    """Participant ``pid`` opposes the advantage actively (``0``: back to the passive one)."""

    tracker_id: int
    v: int
    pid: int


class FzAdvOpposeCD(CallbackData, prefix="fzw"):
    """The advantage's active defender rolls with ``skill``."""

    tracker_id: int
    v: int
    skill: Skill


class FzMoveCD(CallbackData, prefix="fzm"):
    """The acting character moves to zone ``z`` (no roll, once a turn)."""

    tracker_id: int
    v: int
    z: int


class FzEndCD(CallbackData, prefix="fze"):
    """The GM's «End» (``keep``: leave everyone's stress marked): asks first, in place."""

    tracker_id: int
    v: int
    keep: bool = False


class FzEndYesCD(CallbackData, prefix="fzy"):
    """The question's «Yes»: the GM ends the conflict; ``keep`` leaves the stress marked."""

    tracker_id: int
    v: int
    keep: bool = False


# --- words -----------------------------------------------------------------------------------

OUTCOMES: Final = {
    Outcome.FAIL.value: N_("Fail"),
    Outcome.TIE.value: N_("Tie"),
    Outcome.SUCCESS.value: N_("Success"),
    Outcome.STYLE.value: N_("Success with style"),
}
SIDE_ICONS: Final = ("⬜", "🅰", "🅱")


def _e(text: object) -> str:
    return html.escape(str(text), quote=False)


def _short(name: str) -> str:
    return name if len(name) <= BUTTON_NAME else name[: BUTTON_NAME - 1] + "…"


def skill_name(skill: str, locale: str) -> str:
    return msg(f"fate.skill.{skill}").render(locale)


def absorb_label(t: Translator, code: str) -> str:
    """``2m`` → «Box 2 + mild»; ``out`` → taken out; ``give`` → concede."""
    if code == service.TAKEN_OUT_CODE:
        return "✖️ " + t("Taken out")
    if code == service.CONCEDE_CODE:
        return "🏳 " + t("Concede")
    digits = "".join(ch for ch in code if ch.isdigit())
    parts = [t("box {n}", n=digits)] if digits else []
    parts += [engine_name(service.CODE_SLOTS[ch], t.locale) for ch in code if ch.isalpha()]
    return "🩹 " + " + ".join(parts)


def difficulty_label(value: int, locale: str) -> str:
    """«Неплохо (+2)»: an opposition on the ladder."""
    return f"{fate.ladder_label(value).render(locale)} ({fate.signed(value)})"


def log_line(t: Translator, entry: dict[str, Any]) -> str:
    params = dict(entry.get("p", {}))
    if "skill" in params:
        params["skill"] = skill_name(params["skill"], t.locale)
    if "outcome" in params:
        params["outcome"] = t(OUTCOMES.get(params["outcome"], "?"))
    if "how" in params:
        params["how"] = absorb_label(t, params["how"])
    if "diff" in params:
        params["diff"] = difficulty_label(int(params["diff"]), t.locale)
    if isinstance(params.get("dice"), str):  # the faces «+-0-» as «[+ − 0 −]»: a real minus,
        # as totals have, and spaced, so «000+» never reads as a number
        params["dice"] = "[" + " ".join(params["dice"].replace("-", formats.MINUS)) + "]"
    if isinstance(params.get("total"), int):  # «→ −1», never the hyphen «→ -1»
        params["total"] = formats.number(params["total"])
    return t(entry["m"], **{k: _e(v) for k, v in params.items()})


# --- the message -----------------------------------------------------------------------------


async def render(
    uow: UnitOfWork, t: Translator, tracker: TrackerDTO
) -> tuple[str, InlineKeyboardMarkup | None]:
    state = tracker.state
    sheets = await _sheets(uow, tracker)
    if state.get("phase") == "setup":
        return _setup_text(t, state), _setup_keyboard(t, tracker)
    conflict = service.conflict_of(state)
    if conflict is None:  # ended during the set-up
        return "<b>" + t("⚔️ Conflict: called off") + "</b>", None
    ended = not tracker.is_open
    title = t("⚔️ Conflict is over") if ended else t("⚔️ Conflict")
    head = [f"<b>{title}</b> · " + t("exchange {n}", n=conflict.exchange)]
    head += _zones(t, conflict)
    head += _sides(t, conflict, sheets, ended)
    if not ended:
        head += ["", *_awaited(t, state, conflict, sheets)]
    log = [log_line(t, e) for e in state.get("log", [])]
    text = clip([*head, ""], log)
    if ended:
        return text, None
    return text, _play_keyboard(t, tracker, state, conflict, sheets)


async def _sheets(uow: UnitOfWork, tracker: TrackerDTO) -> dict[str, fate.Character]:
    found = await uow.characters.for_game(tracker.game_id, statuses=("active",))
    sheets = {}
    for c in found:
        if c.system == fate.SYSTEM_ID:
            sheet = SYSTEMS[fate.SYSTEM_ID].load(c.sheet, c.schema_version)
            assert isinstance(sheet, fate.Character)
            sheets[str(c.id)] = sheet
    return sheets


def _setup_text(t: Translator, state: dict[str, Any]) -> str:
    lines = ["<b>" + t("⚔️ Conflict: set-up") + "</b>"]
    for zone in state["zones"]:
        aspects = " · ".join(_e(a) for a in zone["aspects"])
        name = _e(zone["name"]) or t("Scene")
        lines.append(f"📍 <b>{name}</b>" + (f": {aspects}" if aspects else ""))
    lines.append("")
    for entry in state["roster"]:
        side = int(state["sides"].get(str(entry["id"]), 0))
        lines.append(f"{SIDE_ICONS[side]} {_e(entry['name'])}")
    if not state["roster"]:
        lines.append(t("No active characters or NPCs in this game."))
    lines += ["", t("GM: press a name to move it out → side A → side B, then «Start».")]
    return "\n".join(lines)


def _setup_keyboard(t: Translator, tracker: TrackerDTO) -> InlineKeyboardMarkup:
    state, v, tid = tracker.state, tracker.version, tracker.id
    buttons = []
    for entry in state["roster"]:
        side = int(state["sides"].get(str(entry["id"]), 0))
        buttons.append(
            button(
                f"{SIDE_ICONS[side]} {_short(entry['name'])}",
                FzToggleCD(tracker_id=tid, v=v, pid=entry["id"]),
            )
        )
    rows = in_rows(buttons, 2)
    rows.append(
        [
            button("▶️ " + t("Start conflict"), FzStartCD(tracker_id=tid, v=v)),
            _end_button(t, tracker),
        ]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _zones(t: Translator, conflict: ConflictState) -> list[str]:
    lines = []
    names = {p.id: p.name for p in conflict.participants}
    for zone in conflict.zones:
        shown = []
        for aspect in zone.aspects:
            holders = {names.get(h, h): n for h, n in aspect.free_invokes.items() if n}
            boost = aspect.kind is fate.AspectKind.BOOST
            if boost and all(n == 1 and name in aspect.name for name, n in holders.items()):
                holders = {}  # «⚡ Boost: Громила» already says whose its one invoke is
            held = ", ".join(f"{_e(name)} ×{n}" for name, n in holders.items())
            icon = "⚡ " if boost else ""
            shown.append(f"{icon}<i>{_e(aspect.name)}</i>" + (f" [{held}]" if held else ""))
        name = _e(zone.name) or t("Scene")
        if shown or len(conflict.zones) > 1 or zone.name:
            lines.append(f"📍 <b>{name}</b>" + (": " + " · ".join(shown) if shown else ""))
    return lines


def _sides(
    t: Translator, conflict: ConflictState, sheets: dict[str, fate.Character], ended: bool
) -> list[str]:
    lines = []
    for index, side in enumerate(service.SIDES):
        lines.append(f"{SIDE_ICONS[index + 1]} " + t("Side {side}", side=side))
        for pid in conflict.order:  # initiative order: who acts next reads top to bottom
            p = conflict.participant(pid)
            if p.side != side:
                continue
            sheet = sheets.get(p.id)
            marker = "▶️" if not ended and conflict.current == p.id else "•"
            line = f"{marker} <b>{_e(p.name)}</b>"
            if sheet is not None:
                track = fate.stress_track(sheet, TrackKind.PHYSICAL)
                line += f" {TRACK_ICON[track.kind]} {track.shown()}"
                cons = [c.text for c in sheet.consequences]
                if cons:
                    line += " 🩹 " + "; ".join(f"«{_e(c)}»" for c in cons)
            if len(conflict.zones) > 1:
                line += " 📍" + (_e(conflict.zones[p.zone].name) or str(p.zone + 1))
            if p.full_defence:
                line += " 🛡"
            if p.taken_out:
                line += " ✖️ " + t("taken out")
            if p.conceded:
                line += " 🏳 " + t("conceded")
            lines.append(line)
    return lines


def _awaited(
    t: Translator, state: dict[str, Any], conflict: ConflictState,
    sheets: dict[str, fate.Character],
) -> list[str]:  # fmt: skip
    pending = state.get("pending")
    if fate.is_over(conflict):
        return [t("One side is left standing: the GM may end the conflict.")]
    actor = conflict.current
    if actor is None:
        return []
    name = f"<b>{_e(conflict.participant(actor).name)}</b>"
    if not pending:
        lines = [t("{name} acts: attack, full defence, create an advantage or pass.", name=name)]
        unnamed = state.get("unnamed")
        if unnamed:
            aspect = _e(unnamed["name"])
            line = t("Reply to this message to name the advantage «{aspect}».", aspect=aspect)
            lines.append(line)
        return lines
    if pending["kind"] == service.ADVANTAGE:
        aspect = pending.get("name")
        diff = int(pending.get("diff", service.ADVANTAGE_DIFFICULTY))
        opp = pending.get("opp")
        target = f"<b>{_e(conflict.participant(opp).name)}</b>" if opp else ""
        if pending.get("stage") == "oppose":
            atk = service.roll_from_json(pending["atk"])
            lines = [
                t("{target} opposes the advantage of {name} ({total}): pick a skill.",
                  target=target, name=name, total=atk.total)
            ]  # fmt: skip
        elif opp:
            lines = [
                t(
                    "{name} creates an advantage, {target} opposes with a roll: pick a skill.",
                    name=name, target=target,
                )
            ]  # fmt: skip
        else:
            lines = [
                t(
                    "{name} creates an advantage against {diff}: pick a skill "
                    "(the GM may change the opposition or name an active defender).",
                    name=name, diff=_e(difficulty_label(diff, t.locale)),
                )
            ]  # fmt: skip
        if aspect:
            lines.append(t("Aspect: «{aspect}».", aspect=_e(aspect)))
        else:
            lines.append(t("Reply to this message to name the aspect."))
        return lines
    stage = pending["stage"]
    if stage == "target":
        return [t("{name} attacks: pick the target and the skill.", name=name)]
    target = f"<b>{_e(conflict.participant(pending['target']).name)}</b>"
    if stage == "defend":
        bonus = fate.defence_bonus(conflict, pending["target"])
        line = t("{target} defends: pick the skill.", target=target)
        if bonus:
            line += " " + t("(+{n} full defence)", n=bonus)
        return [line]
    if stage == "invoke":
        atk = service.roll_from_json(pending["atk"])
        dfn = service.roll_from_json(pending["def"])
        return [
            t("Attack {a} against defence {d}.", a=atk.total, d=dfn.total),
            t("Spend free invokes, or read the attack."),
        ]
    hit = pending["hit"]
    name = _e(service.consequence_name(t, pending, conflict))
    return [
        t("{target} takes {hit} harm: choose how to absorb it.", target=target, hit=hit),
        t("A consequence will be «{name}»: reply to this message to rename it.", name=name),
    ]


def _advantage_rows(
    t: Translator, tid: int, v: int, pending: dict[str, Any], conflict: ConflictState,
    actor: str, skills: list[InlineKeyboardButton],
) -> list[list[InlineKeyboardButton]]:  # fmt: skip
    """The actor's skills; the passive opposition's steps, or back to it from an active one;
    who may oppose with a roll (the GM names them, or a player their own character)."""
    rows = in_rows(skills, 2)
    if pending.get("opp"):
        back = FzAdvOpposerCD(tracker_id=tid, v=v, pid=0)
        rows.append([button("⚖️ " + t("Passive opposition"), back)])
        return rows
    diff = int(pending.get("diff", service.ADVANTAGE_DIFFICULTY))
    rows.append(
        [
            button(f"⚖️ {difficulty_label(d, t.locale)}", FzAdvDiffCD(tracker_id=tid, v=v, d=d))
            for d in (diff - 1, diff + 1)
            if service.MIN_DIFFICULTY <= d <= service.MAX_DIFFICULTY
        ]
    )
    rows += in_rows(
        [
            button(
                "🛡 " + t("{name} opposes", name=_short(conflict.participant(p).name)),
                FzAdvOpposerCD(tracker_id=tid, v=v, pid=int(p)),
            )
            for p in service.opposers(conflict, actor)
        ],
        2,
    )
    return rows


def _play_keyboard(
    t: Translator, tracker: TrackerDTO, state: dict[str, Any], conflict: ConflictState,
    sheets: dict[str, fate.Character],
) -> InlineKeyboardMarkup:  # fmt: skip
    tid, v = tracker.id, tracker.version
    rows: list[list[InlineKeyboardButton]] = []
    pending = state.get("pending")
    actor = conflict.current

    def choice(text: str, c: str) -> InlineKeyboardButton:
        return button(text, FzChoiceCD(tracker_id=tid, v=v, c=c))

    def level(pid: str, skill: Skill) -> str:
        sheet = sheets.get(pid)
        return fate.signed(sheet.skill(skill)) if sheet else "?"

    if fate.is_over(conflict) or actor is None:
        pass
    elif not pending:
        rows.append([choice("⚔️ " + t("Attack"), service.ATTACK),
                     choice("🛡 " + t("Full defence"), service.DEFEND)])  # fmt: skip
        rows.append([choice("✨ " + t("Advantage"), service.ADVANTAGE),
                     choice("⏭ " + t("Pass the turn"), service.PASS)])  # fmt: skip
        here = conflict.participant(actor).zone
        moved = state.get("moved") == f"{conflict.exchange}:{conflict.turn}"
        moves = [
            button("🚶 " + (_short(zone.name) or str(z + 1)), FzMoveCD(tracker_id=tid, v=v, z=z))
            for z, zone in enumerate(conflict.zones)
            if z != here and not moved
        ]
        rows += in_rows(moves, 3)
        rows.append([choice("🏳 " + t("Concede"), service.CONCEDE)])
    elif pending["kind"] == service.ADVANTAGE and pending.get("stage") == "oppose":
        opp = pending["opp"]
        sheet = sheets.get(opp)
        skills = service.opposition_skills(sheet) if sheet else []
        buttons = [
            button(
                f"🛡 {skill_name(s.value, t.locale)} {level(opp, s)}",
                FzAdvOpposeCD(tracker_id=tid, v=v, skill=s),
            )
            for s in skills
        ]
        rows += in_rows(buttons, 2)
    elif pending["kind"] == service.ADVANTAGE:
        sheet = sheets.get(actor)
        skills = [
            button(
                f"🎲 {skill_name(s.value, t.locale)} {level(actor, s)}",
                FzAdvantageCD(tracker_id=tid, v=v, skill=s),
            )
            for s in (service.advantage_skills(sheet) if sheet else [])
        ]
        rows += _advantage_rows(t, tid, v, pending, conflict, actor, skills)
        rows.append([choice("⬅️ " + t("Another action"), service.CANCEL)])
    elif pending["stage"] == "target":
        for target in service.targets(conflict, actor):
            who = _short(conflict.participant(target).name)
            rows.append(
                [
                    button(  # the attacker's skill, then whom it is aimed at
                        f"🎲 {skill_name(s.value, t.locale)} {level(actor, s)} → {who}",
                        FzAttackCD(tracker_id=tid, v=v, target=int(target), skill=s),
                    )
                    for s in service.attack_skills(conflict, actor, target)
                ]
            )
        rows.append([choice("⬅️ " + t("Another action"), service.CANCEL)])
    elif pending["stage"] == "defend":
        rows.append(
            [
                button(
                    f"🎲 {skill_name(s.value, t.locale)} {level(pending['target'], s)}",
                    FzDefendCD(tracker_id=tid, v=v, skill=s),
                )
                for s in service.DEFENCE_SKILLS
            ]
        )
    elif pending["stage"] == "invoke":
        for h, key in (("a", "actor"), ("d", "target")):
            pid = pending[key]
            who = _short(conflict.participant(pid).name)
            for z, a, aspect, _n in service.free_invokes_of(conflict, pid)[:INVOKES_SHOWN]:
                label = f"«{_short(aspect)}» ({who})"
                rows.append(
                    [
                        button(
                            "✨ +2 " + label,
                            FzInvokeCD(tracker_id=tid, v=v, h=h, z=z, a=a, r=False),
                        ),
                        button(
                            "🔄 " + label, FzInvokeCD(tracker_id=tid, v=v, h=h, z=z, a=a, r=True)
                        ),
                    ]
                )
            # their own aspects for a fate point, also after a free invoke (once per roll)
            sheet = sheets.get(pid)
            paid = service.paid_invokes_left(pending, h, sheet) if sheet else []
            rows += in_rows(
                [
                    button(
                        f"💰 +2 «{_short(text)}» ({who})",
                        FzPaidInvokeCD(tracker_id=tid, v=v, h=h, i=i),
                    )
                    for i, text in paid[:INVOKES_SHOWN]
                ],
                1,
            )
        rows.append([button("✅ " + t("Read the attack"), FzAcceptCD(tracker_id=tid, v=v))])
    elif pending["stage"] == "absorb":
        sheet = sheets.get(pending["target"])
        options = service.offered_options(sheet, int(pending["hit"])) if sheet else []
        codes = [service.absorb_code(o) for o in options if not o.taken_out][:ABSORB_SHOWN]
        codes += [service.TAKEN_OUT_CODE, service.CONCEDE_CODE]
        buttons = [
            button(absorb_label(t, code), FzAbsorbCD(tracker_id=tid, v=v, code=code))
            for code in codes
        ]
        rows += in_rows(buttons, 2)
    rows.append([undo_button(t, tracker), _end_button(t, tracker)])
    rows.append([button("⏸ " + t("End, keep stress"), FzEndCD(tracker_id=tid, v=v, keep=True))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _end_button(t: Translator, tracker: TrackerDTO) -> InlineKeyboardButton:
    return button("⏹ " + t("End conflict"), FzEndCD(tracker_id=tracker.id, v=tracker.version))


def end_confirmed(t: Translator, asked: FzEndCD) -> InlineKeyboardButton:
    """The question's «Yes» for the «End» pressed (``asked``): the same end, confirmed."""
    label = "⏸ " + t("Yes, end it, keep stress") if asked.keep else t("🏁 Yes, end it")
    return button(label, FzEndYesCD(tracker_id=asked.tracker_id, v=asked.v, keep=asked.keep))


# --- free invokes on a roll request card (issue 8) ---------------------------------------------


class FzRequestInvokeCD(CallbackData, prefix="fzf"):
    """Spend a free invoke on aspect ``a`` of zone ``z`` of the conflict (at version ``v``) on
    roll request ``request_id``: ``m`` is ``bonus`` (+2) or ``reroll``."""

    request_id: int
    v: int
    z: int
    a: int
    m: str


def request_invoke_rows(
    t: Translator, request_id: int, tracker: TrackerDTO, aspects: list[tuple[int, int, str, int]]
) -> list[list[InlineKeyboardButton]]:
    rows = []
    for z, a, name, n in aspects[:INVOKES_SHOWN]:
        label = f"«{_short(name)}» ×{n}"
        rows.append(
            [
                button(
                    "🆓 +2 " + label,
                    FzRequestInvokeCD(
                        request_id=request_id, v=tracker.version, z=z, a=a, m="bonus"
                    ),
                ),
                button(
                    "🆓 🔁 " + label,
                    FzRequestInvokeCD(
                        request_id=request_id, v=tracker.version, z=z, a=a, m="reroll"
                    ),
                ),
            ]
        )
    return rows
