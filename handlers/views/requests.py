from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from html import escape
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.invokes import Invoked
from bot.services.request_options import Offer
from bot.services.requests import PressResult
from bot.services.sheet_rolls import SheetRoll, outcome_words
from bot.services.willpower import with_willpower as willpower_reading
from db.repositories.requests import RequestDTO
from engine.dice.render import render_html
from engine.systems.storyteller import PoolRoll
from handlers.callbacks import InvokeCD, InvokeMenuCD, RollRequestCD, WillpowerCD
from handlers.views.dice import ROLL_BODY_LIMIT, percent, short_hash
from handlers.views.request_options import option_lines, option_rows


def _what(request: RequestDTO) -> str:
    what = f"<code>{escape(request.expression)}</code>"
    if request.target_number is not None:
        what += f" vs <b>{request.target_number}</b>"
    if request.note:
        what += f" — {escape(request.note)}"
    return what


def _local(moment: datetime, zone: str) -> str:
    try:
        return moment.astimezone(ZoneInfo(zone)).strftime("%d.%m %H:%M")
    except (ZoneInfoNotFoundError, ValueError):
        return moment.strftime("%d.%m %H:%M UTC")


def nudge(t: Translator, request: RequestDTO, player: str, zone: str) -> str:
    assert request.deadline is not None
    return t(
        "⏳ {player}, your roll {what} is due by {when}.",
        player=f"<b>{escape(player)}</b>",
        what=_what(request),
        when=_local(request.deadline, zone),
    )


def overdue(t: Translator, request: RequestDTO, player: str) -> str:
    return t(
        "⌛ GM: {player} has not rolled {what} by the deadline. The button still works.",
        player=f"<b>{escape(player)}</b>",
        what=_what(request),
    )


def card(
    t: Translator,
    request: RequestDTO,
    gm: str,
    player: str,
    p: Fraction | None,
    zone: str = "UTC",
    offer: Offer | None = None,
) -> str:
    lines = [
        t(
            "🎲 {gm} asks {player} to roll {what}",
            gm=escape(gm),
            player=f"<b>{escape(player)}</b>",
            what=_what(request),
        )
    ]
    if p is not None:
        lines.append(t("Chance of success: {p}", p=f"<b>{percent(p)}</b>"))
    if request.deadline is not None:
        lines.append(t("⏳ Roll by {when}", when=_local(request.deadline, zone)))
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


def willpower_line(t: Translator, locale: str, pool: PoolRoll | None) -> str | None:
    if pool is None:
        return None
    degree = pool.degree.name_msg.render(locale) if pool.degree else ""
    return t("💪 Willpower: +1 automatic success → {net} ({degree})", net=pool.net, degree=degree)


def rolled_card(t: Translator, locale: str, result: PressResult, player: str) -> str:
    request, logged = result.request, result.logged
    lines = [
        t("🎲 {player} rolled {what}", player=f"<b>{escape(player)}</b>", what=_what(request)),
        render_html(logged.result, locale, limit=ROLL_BODY_LIMIT),
        *option_lines(t, request, rolled=True),
    ]
    if request.bonus and request.invokes and request.invokes[0].get("mode") == "willpower":
        line = willpower_line(t, locale, willpower_reading(request, logged.result))
        if line:
            lines.append(line)
    if request.trait and result.system:
        plan = SheetRoll(request.expression, request.trait, request.target_number, result.system)
        lines.append(escape(outcome_words(plan, logged.result, locale)))
    elif request.target_number is not None and not logged.result.counts_successes:
        success = logged.result.total >= request.target_number
        lines.append(
            t(
                "✅ Success ({total} vs {target})",
                total=logged.result.total,
                target=request.target_number,
            )
            if success
            else t(
                "❌ Failure ({total} vs {target})",
                total=logged.result.total,
                target=request.target_number,
            )
        )
    footer = t(
        "Log #{seq} · {hash}",
        seq=logged.entry.seq,
        hash=f"<code>{short_hash(logged.entry.hash)}</code>",
    )
    lines.append(f"<i>{footer}</i>")
    return "\n".join(lines)


def usage(t: Translator) -> str:
    one = t(
        "Reply to a player's message with <code>/request 3d6+2 vs 12 in 2h: pick the lock</code> "
        "(the expression, an optional target after vs, an optional deadline after in, an "
        "optional note after a colon)."
    )
    several = t(
        "Several players at once: <code>/request @alice @bob Athletics vs 2</code>; everyone "
        "with a character: <code>/request all Notice vs 2</code>."
    )
    return f"{one}\n{several}"


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


def invoked_card(t: Translator, locale: str, invoked: Invoked, player: str) -> str:
    request, result = invoked.request, invoked.result
    lines = [
        t("🎲 {player} rolled {what}", player=f"<b>{escape(player)}</b>", what=_what(request)),
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
    if request.target_number is not None:
        numbers = {"total": total, "target": request.target_number}
        lines.append(
            t("✅ Success ({total} vs {target})", **numbers)
            if total >= request.target_number
            else t("❌ Failure ({total} vs {target})", **numbers)
        )
    lines.append(t("Fate points left: {n}", n=invoked.fate_points))
    footer = t(
        "Log #{seq} · {hash}", seq=invoked.seq, hash=f"<code>{short_hash(invoked.hash)}</code>"
    )
    lines.append(f"<i>{footer}</i>")
    return "\n".join(lines)
