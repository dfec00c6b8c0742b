"""The multi-roll card: the title, each participant with their rolls, the tally and the result;
a 🎲 button per participant who has a roll to make, and the GM's «↩️ Undo» and «Cancel»."""

from __future__ import annotations

from html import escape
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.trackers import cards as service
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from handlers.trackers.common import button, clip, undo_button

ICONS = {"opposed": "⚔️", "extended": "⏳", "team": "🤝"}
BUTTON_NAME = 24


class CardRollCD(CallbackData, prefix="crd"):
    """Roll for participant ``slot`` of card ``tracker_id``, drawn when it had ``n`` rolls."""

    tracker_id: int
    slot: int
    n: int


class CardCancelCD(CallbackData, prefix="crx"):
    """The GM's «Close the card» on card ``tracker_id`` (shown at version ``v``): asks first,
    in place."""

    tracker_id: int
    v: int


class CardCloseYesCD(CallbackData, prefix="cry"):
    """The question's «Yes»: the GM closes card ``tracker_id`` (at version ``v``) unfinished."""

    tracker_id: int
    v: int


def close_confirmed(t: Translator, asked: CardCancelCD) -> InlineKeyboardButton:
    """The question's «Yes» for the «Close the card» pressed (``asked``): the close, confirmed."""
    return button(
        "✖️ " + t("Yes, close it"), CardCloseYesCD(tracker_id=asked.tracker_id, v=asked.v)
    )


def _roll_line(t: Translator, roll: dict[str, Any]) -> str:
    parts = [f"[{escape(roll['shown'])}] = <b>{roll['total']}</b>"]
    if roll.get("words"):
        parts.append(escape(roll["words"]))
    if roll.get("note"):
        parts.append(escape(roll["note"]))
    if roll.get("by"):  # a GM rolled it for the player
        parts.append(t("🧙 rolled for the player by the GM: {name}", name=escape(roll["by"])))
    return "   " + " · ".join(parts) + f" <i>#{roll['seq']}</i>"


def _slot_line(t: Translator, state: dict[str, Any], index: int) -> str:
    slot = state["slots"][index]
    team = state["mode"] == "team"
    line = f"🎲 <b>{escape(slot['name'])}</b> · {escape(slot['trait'] or '')}"
    # a team of pools rolls each at the team's difficulty: the pool, not the trait
    if not slot["trait"] or (team and service.rules_of(state).team_shows_dice):
        line = f"🎲 <b>{escape(slot['name'])}</b> · <code>{escape(slot['notation'])}</code>"
    if slot.get("lead"):
        line += " " + t("(leader)")
    elif team and "helps" in slot:  # the system's helpers add to the leader's roll
        line += " " + (t("(helps: +1)") if slot.get("helps") else t("(helps: +0)"))
    return line


def _result_line(t: Translator, state: dict[str, Any]) -> str | None:
    if state.get("cancelled"):
        return "✖️ " + t("Cancelled by the GM.")
    if not state["done"]:
        return None
    if state["mode"] == "opposed":
        return "🏆 " + escape(state["result"]["words"])
    return "🏁 " + escape(state["summary"])


def text(t: Translator, tracker: TrackerDTO) -> str:
    state = tracker.state
    head = [f"{ICONS.get(state['mode'], '🎲')} <b>{escape(state['title'])}</b>"]
    log: list[str] = []
    for index, slot in enumerate(state["slots"]):
        log.append(_slot_line(t, state, index))
        log.extend(_roll_line(t, roll) for roll in slot["rolls"])
        if service.can_roll(state, index) and tracker.is_open:
            log.append("   " + t("⏳ waiting for the roll"))
    result = _result_line(t, state)
    if result is None:
        log.append("<i>" + escape(state["summary"]) + "</i>")
    else:
        log.append(result)
    return clip(head, log)


def keyboard(t: Translator, tracker: TrackerDTO) -> InlineKeyboardMarkup | None:
    if not tracker.is_open:
        return None
    state = tracker.state
    rows: list[list[InlineKeyboardButton]] = []
    for index, slot in enumerate(state["slots"]):
        if not service.can_roll(state, index):
            continue
        name = slot["name"] if len(slot["name"]) <= BUTTON_NAME else slot["name"][:23] + "…"
        data = CardRollCD(tracker_id=tracker.id, slot=index, n=len(slot["rolls"]))
        rows.append([button(f"🎲 {name}", data)])
    gm_row = [
        button("✖️ " + t("Close the card"), CardCancelCD(tracker_id=tracker.id, v=tracker.version))
    ]
    if tracker.version > 1:
        gm_row.insert(0, undo_button(t, tracker))
    rows.append(gm_row)
    return InlineKeyboardMarkup(inline_keyboard=rows)


async def render(
    uow: UnitOfWork, t: Translator, tracker: TrackerDTO
) -> tuple[str, InlineKeyboardMarkup | None]:
    return text(t, tracker), keyboard(t, tracker)


def usage(t: Translator, command: str) -> str:
    if command == "opposed":
        return t(
            "Opposed roll: <code>/opposed Alice: Athletics | Bob: Fight</code>\n"
            "Participants are characters (or NPCs) by name, each with a trait from their sheet "
            "or plain dice (<code>Guard: 3d6</code>), separated by «|». Each presses "
            "their own 🎲; the card shows the winner when all have rolled. Storyteller and Fate: "
            "«to 3» at the end races to 3 (successes over the other side, or victory points), "
            "«in 5» limits the rounds."
        )
    if command == "extended":
        return t(
            "Extended roll: <code>/extended Alice: Dexterity+Athletics 7 to 10 in 5</code>\n"
            "One participant rolls again and again until the successes reach the target "
            "(«to 10»); «in 5» limits the rolls; a «!» at the end: a botch ends the task."
        )
    return t(
        "Team roll: <code>/team Alice: Strength+Athletics | Bob: Strength+Athletics 6</code>\n"
        "The leader first. Storyteller: the successes add up (one difficulty for all, "
        "«to 10» for an extended task). Cliché: the leader adds all dice, the others only "
        "sixes. Fate: the highest skill rolls, +1 per helper at +1 or more."
    )
