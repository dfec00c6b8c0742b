"""/milestone: the kind picker, the preview, the notice of what changed, the undone notice."""

from __future__ import annotations

from html import escape
from typing import Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services import milestones as service
from engine import formats
from engine.common import Change, JsonScalar
from engine.formats import ValueKind

# Telegram allows 4,096 characters; the undo line is appended to the notice later.
BODY_LIMIT: Final = 3600


# The lead may move these to handlers/callbacks.py (shared file, not ours to edit).
class MilestoneKindCD(CallbackData, prefix="mlk"):
    """The GM picks a milestone kind: show its preview (GM only, checked on the server)."""

    kind: str


class MilestoneConfirmCD(CallbackData, prefix="mlc"):
    """The GM confirms the preview: recomputed and applied only if its ``fp`` (the plan's
    fingerprint, 8 hex digits) still matches. The fingerprint rides on the button, not in the
    text: players read no internal codes."""

    kind: str
    fp: str


class MilestoneCancelCD(CallbackData, prefix="mlx"):
    """The GM closes the picker or the preview."""


class MilestoneUndoCD(CallbackData, prefix="mlu"):
    """The GM undoes the milestone ``batch`` (the ledger batch id, 16 hex digits)."""

    batch: str


def _button(text: str, data: CallbackData) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def picker(t: Translator) -> str:
    return t("🏁 Which milestone?")


def picker_keyboard(t: Translator, system: str) -> InlineKeyboardMarkup:
    rows = [
        [_button(t(service.kind_title(system, kind)), MilestoneKindCD(kind=kind))]
        for kind in service.kinds(system)
    ]
    rows.append([_button(t("Cancel"), MilestoneCancelCD())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _value(value: JsonScalar, kind: ValueKind, locale: str) -> str:
    if value is None or value == "":
        return "—"
    if value is True:
        return "✓"
    if value is False:
        return "✗"
    return escape(formats.changed_value(kind, value, locale))


def _change(change: Change, locale: str) -> str:
    what = escape(change.what.render(locale))
    if change.after is None:  # something removed (a consequence): its name says it all
        return f"  • {what}"
    before = _value(change.before, change.kind, locale)
    after = _value(change.after, change.kind, locale)
    return f"  • {what}: {before} → {after}"


def _character_lines(
    t: Translator, locale: str, character: service.CharacterPlan, done: bool
) -> list[str]:
    lines = [f"<b>{escape(character.name)}</b>"]
    lines += [_change(c, locale) for c in character.changes]
    if not done:
        lines += ["  • " + escape(r.plan.render(locale)) for r in character.rolls]
    return lines


def _body(
    t: Translator,
    locale: str,
    plan: service.Plan,
    rolls: tuple[service.RolledAdvancement, ...],
    *,
    done: bool,
) -> list[str]:
    """Per character what changes, cut (with a count of the rest) to fit one message."""
    lines: list[str] = []
    size = 0
    for index, character in enumerate(plan.characters):
        block = _character_lines(t, locale, character, done)
        block += [_roll(locale, r) for r in rolls if r.character_id == character.character_id]
        text = "\n".join(block)
        if size + len(text) > BODY_LIMIT:
            rest = len(plan.characters) - index
            lines.append(t("… and {n} more", n=rest))  # no plural: the i18n test reads one form
            break
        lines.append(text)
        size += len(text) + 1
    if not plan.characters:
        lines.append(t("Nothing changes for anyone."))
    elif plan.unchanged:
        lines.append(t("Unchanged: {n}", n=plan.unchanged))
    return lines


def _roll(locale: str, rolled: service.RolledAdvancement) -> str:
    o = rolled.outcome
    faces = " ".join(str(f) for f in o.faces)
    return (
        f"  🎲 {escape(o.key)} <code>{escape(o.notation)}</code>: [{faces}] — "
        f"{escape(o.words.render(locale))} <i>#{rolled.seq}</i>"
    )


def preview(t: Translator, locale: str, plan: service.Plan) -> str:
    title = t(service.kind_title(plan.system, plan.kind))
    lines = [t("🏁 <b>{title}</b> — preview", title=escape(title)), ""]
    lines += _body(t, locale, plan, (), done=False)
    return "\n".join(lines)


def preview_keyboard(t: Translator, plan: service.Plan) -> InlineKeyboardMarkup:
    row = [_button(t("Cancel"), MilestoneCancelCD())]
    if not plan.empty:
        confirm = MilestoneConfirmCD(kind=plan.kind, fp=plan.fingerprint)
        row.insert(0, _button("✅ " + t("Confirm"), confirm))
    return InlineKeyboardMarkup(inline_keyboard=[row])


def stale(t: Translator) -> str:
    return t("The sheets changed since the preview; check the new one and confirm again.")


def notice(t: Translator, locale: str, applied: service.Applied, gm: str) -> str:
    plan = applied.plan
    title = t(service.kind_title(plan.system, plan.kind))
    lines = [
        t("🏁 <b>{title}</b> — applied by {gm}", title=escape(title), gm=escape(gm)),
        "",
    ]
    lines += _body(t, locale, plan, applied.rolls, done=True)
    return "\n".join(lines)


def notice_keyboard(t: Translator, applied: service.Applied) -> InlineKeyboardMarkup | None:
    if applied.batch is None:
        return None
    return InlineKeyboardMarkup(
        inline_keyboard=[[_button("↩️ " + t("Undo"), MilestoneUndoCD(batch=applied.batch))]]
    )


def undone(t: Translator, notice_html: str, gm: str) -> str:
    return notice_html + "\n\n" + t("↩️ Undone by {gm}.", gm=escape(gm))


def cancelled(t: Translator) -> str:
    return t("Milestone cancelled.")
