from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from html import escape
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services.invokes import Invoked
from bot.services.request_options import Offer
from bot.services.requests import PressResult
from bot.systems import SYSTEMS
from db.repositories.requests import RequestDTO
from engine import formats
from engine.dice.parser import parse
from engine.dice.render import display_notation, render_html, without_repeated
from engine.errors import EngineError
from engine.systems.base import Chances, Reading, pool_threshold, success_pool
from handlers.callbacks import (
    InvokeBackCD,
    InvokeCD,
    InvokeMenuCD,
    RollForCD,
    RollRequestCD,
    WillpowerCD,
)
from handlers.views.dice import ROLL_BODY_LIMIT, percent, short_hash
from handlers.views.request_options import option_lines, option_rows
from handlers.views.safe import clip_html, clip_list


def _what(t: Translator, request: RequestDTO, system: str = "") -> str:
    """What is rolled: the trait by name with its dice, the target once (a pool's threshold
    that is the difficulty is not repeated in the notation) in the system's word for it
    (lifegear: «против защиты 10», as its ``/r`` says), the GM's note."""
    notation = display_notation(request.expression, t.locale)
    pool = success_pool(request.expression)
    if pool is not None and request.target_number is not None:
        if pool_threshold(pool) == request.target_number:
            notation = f"{pool.count}d{pool.sides}"
    what = f"<code>{escape(notation)}</code>"
    trait = _with_dice(request.trait, notation, request.options) if request.trait else None
    if trait and notation in trait:  # a title with its dice already
        what = f"<b>{escape(trait)}</b>"  # (lifegear: «Стрельба (1d8+1d6+3)»)
    elif trait:
        what = f"<b>{escape(_level_inline(trait))}</b> ({what})"
    if request.target_number is not None:
        versus = SYSTEMS[system].versus if system in SYSTEMS else N_("vs {target}")
        what += " " + t(versus, target=f"<b>{request.target_number}</b>")
    if request.note and request.note != request.trait:  # a trait request's note is its name
        what += f" — {escape(request.note)}"
    return what


# a title naming its level in brackets («Жестокость (3)», «Атлетика (+3) +1»)
_TITLE_LEVEL = re.compile(r"(?P<name>.*\S) \((?P<level>[+\-−]?\d+)\)(?P<rest>(?: [+\-−]\d+)?)")


def _level_inline(title: str) -> str:
    """A title with its level out of brackets, since the dice follow in brackets: «Жестокость
    3 (3d10>=7!)», not «Жестокость (3) (3d10>=7!)»."""
    found = _TITLE_LEVEL.fullmatch(title)
    return title if found is None else f"{found['name']} {found['level']}{found['rest']}"


# a title ending in its dice in brackets («Стрельба (1d8+3)»), not a level («Жестокость (3)»)
_TITLE_DICE = re.compile(r"(?P<name>.*\S) \((?P<dice>[^()]*\d[dDкК]\d[^()]*)\)")


def _with_dice(title: str, notation: str, options: dict[str, Any]) -> str:
    """A title that names its dice («Стрельба (1d8+3)») with the dice now rolled and the stat
    now chosen: a weapon on the card changed them (``options``, ``request_options.choose``),
    and «Стрельба (1d8+3) (1d8+1d6+3)» said both."""
    found = _TITLE_DICE.fullmatch(title)
    if found is None or found["dice"] == notation:
        return title
    try:
        parse(found["dice"])
    except EngineError:
        return title  # a name that only ends in brackets
    return f"{options.get('stat') or found['name']} ({notation})"


def local_time(when: datetime, zone: str) -> str:
    """A moment as the game's clock shows it (``dd.mm HH:MM``, ``engine.formats.moment``)."""
    return formats.moment(when, zone, year=False)


def nudge(t: Translator, request: RequestDTO, player: str, zone: str, system: str = "") -> str:
    assert request.deadline is not None
    return t(
        "⏳ {player}, your roll {what} is due by {when}.",
        player=f"<b>{escape(player)}</b>",
        what=_what(t, request, system),
        when=local_time(request.deadline, zone),
    )


def overdue(t: Translator, request: RequestDTO, player: str, system: str = "") -> str:
    return t(
        "⌛ GM: {player} has not rolled {what} by the deadline. The button still works.",
        player=f"<b>{escape(player)}</b>",
        what=_what(t, request, system),
    )


def card(
    t: Translator,
    request: RequestDTO,
    gm: str,
    player: str,
    chances: Chances | None,
    zone: str = "UTC",
    offer: Offer | None = None,
    system: str = "",
) -> str:
    lines = [
        t(
            "🎲 {gm} asks {player} to roll {what}",
            gm=escape(gm),
            player=f"<b>{escape(player)}</b>",
            what=_what(t, request, system),
        )
    ]
    if chances is not None:
        lines.append(t("Chances: {outcomes}", outcomes=chances_text(t.locale, chances)))
    if request.deadline is not None:
        lines.append(t("⏳ Roll by {when}", when=local_time(request.deadline, zone)))
    if request.bonus:
        lines.append(t("💪 Willpower spent: +1 automatic success."))
    lines += option_lines(t, request, offer)
    return "\n".join(lines)


def card_keyboard(
    t: Translator, request: RequestDTO, *, willpower: bool = False, offer: Offer | None = None
) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                text="🎲 " + t("Roll"), callback_data=RollRequestCD(request_id=request.id).pack()
            )
        ]
    ]
    if willpower and not request.bonus:
        rows.append(
            [
                InlineKeyboardButton(
                    text="💪 " + t("Spend Willpower first (+1 success)"),
                    callback_data=WillpowerCD(request_id=request.id).pack(),
                )
            ]
        )
    if offer is not None:
        rows += option_rows(t, request, offer)
    return InlineKeyboardMarkup(inline_keyboard=rows)


CHANCES_ROOM = 600  # a ladder has a handful of steps; the card around it keeps the rest


def chances_text(locale: str, chances: Chances) -> str:
    """«успех 18.5% (со стилем 1.2%) · ничья 19.8% · провал 61.7%»: the ladder's steps, each
    with the parts of it (``within``); steps that cannot happen are left out, the success
    never."""
    steps: list[tuple[str, list[str]]] = []
    parent_shown = False
    for row in chances.rows:
        shown = f"{escape(row.name.render(locale))} <b>{percent(row.p, locale)}</b>"
        if row.within:
            if row.p and parent_shown:
                steps[-1][1].append(shown)
            continue
        parent_shown = bool(row.p) or row.success
        if parent_shown:
            steps.append((shown, []))
    joined = " · ".join(f"{main} ({', '.join(parts)})" if parts else main for main, parts in steps)
    return clip_html(joined, CHANCES_ROOM)


def reading_line(locale: str, reading: Reading | None) -> list[str]:
    return [escape(reading.words.render(locale))] if reading is not None else []


def rolled_card(t: Translator, locale: str, result: PressResult, player: str) -> str:
    request, logged = result.request, result.logged
    name, what = f"<b>{escape(player)}</b>", _what(t, request, result.system)
    head = t("🎲 {player} rolled {what}", player=name, what=what)
    if result.by is not None:  # a GM rolled it for the player: the card says so
        head = "\n".join([
            t("🎲 Roll for: {player} — {what}", player=name, what=what),
            t("🧙 Rolled for the player by the GM: {name}", name=escape(result.by)),
        ])  # fmt: skip
    said = reading_line(locale, result.reading)
    lines = [
        head,
        without_repeated(render_html(logged.result, locale, limit=ROLL_BODY_LIMIT), "".join(said)),
        *option_lines(t, request, rolled=True),
    ]
    lines += said
    footer = t(
        "Log #{seq} · {hash}",
        seq=logged.entry.seq,
        hash=f"<code>{short_hash(logged.entry.hash)}</code>",
    )
    lines.append(f"<i>{footer}</i>")
    return "\n".join(lines)


def usage(t: Translator, example: str) -> str:
    """How to ask for a roll; ``example`` is a shorthand of the game's system (its trait and
    level: ``Атлетика vs 2``), plain text."""
    example = escape(example)
    one = t(
        "Reply to a player's message with <code>/request {example} in 2h: pick the lock</code> "
        "(a trait of their sheet or dice, an optional target after vs, an optional deadline "
        "after in, an optional note after a colon); a reply with nothing more offers the "
        "traits of their character.",
        example=example,
    )
    several = t(
        "Several players at once: <code>/request @alice @bob {example}</code>; everyone "
        "with a character: <code>/request all {example}</code>.",
        example=example,
    )
    return f"{one}\n{several}"


USERNAME_MAX = 32
NAMES_ROOM = 600


def unknown_players(t: Translator, usernames: list[str]) -> str:
    """@names the bot cannot match to anyone: it knows a user once they write in the chat."""
    shown = [f"@{escape(name[:USERNAME_MAX])}" for name in usernames]  # Telegram's: 32
    names = clip_list(shown, room=NAMES_ROOM, more=lambda n: t("… and {n} more", n=n))
    return t(
        "I don't know {names} yet: I learn a player's @name when they write in this chat. "
        "Or reply to their message with /request.",
        names=names,
    )


def invoke_menu_keyboard(t: Translator, request_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="✨ " + t("Invoke an aspect (1 fate point)"),
                    callback_data=InvokeMenuCD(request_id=request_id).pack(),
                )
            ]
        ]
    )


MAX_ASPECT_ROWS = 45  # two buttons each


def aspect_keyboard(
    request: RequestDTO, aspects: tuple[str, ...], used: set[int]
) -> InlineKeyboardMarkup:
    rows = []
    for i, text in enumerate(aspects):
        if i in used:
            continue
        if len(rows) == MAX_ASPECT_ROWS:
            break  # Telegram refuses more than 100 buttons: the first aspects are offered
        short = text if len(text) <= 24 else text[:23] + "…"
        rows.append(
            [
                InlineKeyboardButton(
                    text=f"+2 · {short}",
                    callback_data=InvokeCD(request_id=request.id, aspect=i, mode="bonus").pack(),
                ),
                InlineKeyboardButton(
                    text=f"🔁 · {short}",
                    callback_data=InvokeCD(request_id=request.id, aspect=i, mode="reroll").pack(),
                ),
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def invoke_back_row(t: Translator, request_id: int) -> list[InlineKeyboardButton]:
    """The aspect menu's way out: a tap on «Invoke» by mistake costs nothing."""
    return [
        InlineKeyboardButton(
            text="⬅️ " + t("Back, no invoke"),
            callback_data=InvokeBackCD(request_id=request_id).pack(),
        )
    ]


def invoked_card(t: Translator, locale: str, invoked: Invoked, player: str) -> str:
    request, result = invoked.request, invoked.result
    lines = [
        t("🎲 {player} rolled {what}", player=f"<b>{escape(player)}</b>", what=_what(t, request)),
        render_html(result, locale, limit=ROLL_BODY_LIMIT),
    ]
    for item in request.invokes:
        aspect = escape(str(item.get("text", "")))
        lines.append(
            t("✨ +2 for «{aspect}»", aspect=aspect)
            if item.get("mode") == "bonus"
            else t("🔁 rerolled for «{aspect}»", aspect=aspect)
        )
    total = result.total + request.bonus
    lines.append(t("Total with invokes: {total}", total=f"<b>{total}</b>"))
    lines += reading_line(locale, invoked.reading)
    lines.append(t("Fate points left: {n}", n=invoked.fate_points))
    footer = t(
        "Log #{seq} · {hash}", seq=invoked.seq, hash=f"<code>{short_hash(invoked.hash)}</code>"
    )
    lines.append(f"<i>{footer}</i>")
    return "\n".join(lines)


def roll_for_question(t: Translator, player: str) -> str:
    """A GM pressed a player's 🎲: rolling uses up the player's roll, so ask first."""
    return t("Roll for the player? ({name})", name=f"<b>{escape(player)}</b>")


def roll_for_keyboard(
    t: Translator, data: Callable[..., CallbackData] = RollForCD, **ids: int
) -> InlineKeyboardMarkup:
    """«Roll» / «Don't roll» of the GM's confirmation (``data`` with ``ids`` and ``go``)."""
    yes, no = data(**ids, go=True).pack(), data(**ids, go=False).pack()
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=t("🎲 Yes, roll"), callback_data=yes),
                InlineKeyboardButton(text=t("✖️ Don't roll"), callback_data=no),
            ]
        ]
    )
