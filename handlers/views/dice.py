from __future__ import annotations

from fractions import Fraction
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.odds import OddsView
from bot.services.rolls import LoggedRoll, Revealed
from db.repositories.rolls import Epoch, StoredRoll
from engine import formats
from engine.dice.odds_dice import SIMULATED_ROLLS
from engine.dice.render import display_notation, render_html, render_line, without_repeated
from engine.dice.verify import VerifyReport
from handlers.callbacks import LogPageCD
from handlers.views.sheets import fit

LOG_PAGE_SIZE = 10
# render_html keeps a roll under Telegram's limit; leave room for our header and footer.
ROLL_BODY_LIMIT = 3500


def percent(p: Fraction, locale: str = "en") -> str:
    """A probability for an HTML message: ``engine.formats.percent``, escaped («&lt;0,1 %»)."""
    return escape(formats.percent(p, locale))


def number(value: Fraction) -> str:
    """An exact value such as an average: «10.5», «2», «3.33»."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def short_hash(value: str) -> str:
    return value[:8]


def epoch_opened(t: Translator, epoch: Epoch) -> str:
    """The first roll's one plain line for the table; the seal itself is on /log."""
    return t("🔒 The dice here are sealed in advance, so every roll can be checked: see /log.")


def epoch_commitment(t: Translator, epoch: Epoch) -> str:
    """The open epoch's commitment, for whoever checks the dice (/log, /reveal)."""
    return t(
        "🔒 Seed epoch {n} opened. Commitment (SHA-256 of the secret seed): {hash}",
        n=epoch.epoch,
        hash=f"<code>{epoch.commitment}</code>",
    )


def rolled(t: Translator, locale: str, logged: LoggedRoll, who: str, words: str = "") -> str:
    """A logged roll: who, the dice, what they mean (a sheet roll's outcome words, plain
    text), then the log entry it can be checked by."""
    body = render_html(logged.result, locale, limit=ROLL_BODY_LIMIT)
    body = without_repeated(body, words)
    footer = t(
        "Log #{seq} · {hash}",
        seq=logged.entry.seq,
        hash=f"<code>{short_hash(logged.entry.hash)}</code>",
    )
    head = f"<b>{escape(who)}</b>"
    parts = [head, body, *([escape(words)] if words else []), f"<i>{footer}</i>"]
    if logged.duplicate:
        parts.append(t("(already rolled: this is the first result)"))
    return "\n".join(parts)


def no_character(t: Translator, text: str) -> str:
    return t(
        "A roll by a trait («{text}») needs your character in this game, and you have none "
        "yet (or it waits for the GM). Dice roll without one: /r 2d6+1.",
        text=escape(_cap(text, 40)),
    )


def game_archived(t: Translator, text: str) -> str:
    return t(
        "This chat's game is archived: a roll by a trait («{text}») is not made here any more. "
        "Dice roll as always: /r 2d6+1.",
        text=escape(_cap(text, 40)),
    )


def odds_no_character(t: Translator, text: str) -> str:
    return t(
        "The odds of a trait («{text}») need your character in this game, and you have none "
        "yet (or it waits for the GM). Odds of dice without one: /odds 2d6+1 vs 8.",
        text=escape(_cap(text, 40)),
    )


def _cap(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def roll_usage(t: Translator) -> str:
    return t(
        "Write the dice after the command, e.g. <code>/r 2d6+1 attack</code>, "
        "<code>/r 4dF+2</code>, <code>/r 7d10&gt;=6f1</code>, <code>/r 5d10&gt;=7!</code>."
    )


def log_page(
    t: Translator, rolls: list[StoredRoll], total: int, page: int, sealed: Epoch | None = None
) -> str:
    """A page of the log; the first one ends with the open epoch's commitment (``sealed``)."""
    if not rolls:
        return t("No rolls in this chat yet.")
    pages = (total + LOG_PAGE_SIZE - 1) // LOG_PAGE_SIZE
    lines = [t("<b>Roll log</b> (page {page} of {pages})", page=page + 1, pages=pages)]
    if sealed is not None:
        lines.append(epoch_commitment(t, sealed))
    for stored in rolls:
        entry = stored.entry
        # Each line is capped before escaping, so ten lines always fit one message.
        label = f" {escape(_cap(stored.label, 40))}" if stored.label else ""
        lines.append(
            f"#{entry.seq} {escape(_cap(entry.actor, 32))}: "
            f"<code>{escape(_cap(display_notation(entry.expression, t.locale), 80))}</code>"
            f"{label} → <b>{entry.result}</b> · <code>{short_hash(entry.hash)}</code>"
        )
    return fit("\n".join(lines))


def log_keyboard(t: Translator, total: int, page: int) -> InlineKeyboardMarkup | None:
    pages = (total + LOG_PAGE_SIZE - 1) // LOG_PAGE_SIZE
    row = []
    if page + 1 < pages:
        row.append(
            InlineKeyboardButton(
                text="◀ " + t("Older"), callback_data=LogPageCD(page=page + 1).pack()
            )
        )
    if page > 0:
        row.append(
            InlineKeyboardButton(
                text=t("Newer") + " ▶", callback_data=LogPageCD(page=page - 1).pack()
            )
        )
    return InlineKeyboardMarkup(inline_keyboard=[row]) if row else None


def revealed(t: Translator, result: Revealed) -> str:
    return "\n".join(
        [
            t(
                "🔓 Seed epoch {n} closed. Seed: {seed}",
                n=result.closed.epoch,
                seed=f"<code>{result.closed.seed.hex()}</code>",
            ),
            t(
                "Anyone can now check every roll of epoch {n}: /log export, then "
                "<code>python -m engine.verify FILE</code>, or /verify here.",
                n=result.closed.epoch,
            ),
            epoch_commitment(t, result.opened),
        ]
    )


def log_caption(t: Translator, entries: int) -> str:
    """Under ``/log export``'s file («1 entry», not «1 entries»)."""
    return t.plural(
        "Roll log: {n} entry. Check it with /verify.",
        "Roll log: {n} entries. Check it with /verify.",
        entries,
    )


def verify_report(t: Translator, locale: str, report: VerifyReport | None) -> str:
    if report is None:
        return t("No rolls in this chat yet.")
    if report.ok:
        return t.plural(
            "✅ The log is intact: {n} entry, hash chain unbroken, "
            "rolls recomputed from revealed seeds: {recomputed}. Unrevealed epochs: {open}.",
            "✅ The log is intact: {n} entries, hash chain unbroken, "
            "rolls recomputed from revealed seeds: {recomputed}. Unrevealed epochs: {open}.",
            report.entries,
            recomputed=report.recomputed,
            open=", ".join(str(e) for e in report.unrevealed_epochs) or "—",
        )
    problems = "\n".join("• " + escape(p.render(locale)) for p in report.problems[:10])
    return t("❌ The log does not verify:") + "\n" + problems


def odds_lines(t: Translator, view: OddsView) -> str:
    """The title, the average (a number) and one line per outcome; the parts of an outcome
    (a success with style among the successes) are indented under it."""
    lines = [f"🎯 <code>{escape(display_notation(view.expression, t.locale))}</code>"]
    if view.mean is not None:
        lines.append(f"{escape(t('average'))}: <b>{number(view.mean)}</b>")
    for row in view.rows:
        name = (
            row.name.render(t.locale) if row.name is not None else t(row.key, **(row.params or {}))
        )
        mark = "  ↳ " if row.within else ""
        lines.append(f"{mark}{escape(name)}: <b>{percent(row.p, t.locale)}</b>")
    if view.simulated:
        lines.append(t("<i>By simulation of {n} rolls, not exact.</i>", n=str(SIMULATED_ROLLS)))
    return fit("\n".join(lines))


def rolled_many(
    t: Translator, locale: str, logged: list[LoggedRoll], who: str, *, is_set: bool, short: bool
) -> str:
    """One reply for several rolls: a line each, the sum when every roll is a plain total."""
    results = [item.result for item in logged]
    lines = [f"<b>{escape(who)}</b>"]
    if is_set:
        first = results[0]
        head = f"🎲 <code>{escape(display_notation(first.expression, locale)[:80])}</code>"
        if first.label:
            head = f"<b>{escape(first.label[:60])}</b>\n{head}"
        lines.append(head)
    shown = 40 if len(results) <= 4 else 10
    for i, result in enumerate(results, 1):
        line = render_line(result, locale, short=short, with_expression=not is_set, shown=shown)
        lines.append(f"{i}. {line}")
    if all(not r.counts_successes and r.comparison is None for r in results):
        lines.append(t("Sum: {total}", total=f"<b>{sum(r.total for r in results)}</b>"))
    entries = [item.entry for item in logged]
    footer = t(
        "Log #{first}–#{last} · {hash}",
        first=entries[0].seq,
        last=entries[-1].seq,
        hash=f"<code>{short_hash(entries[-1].hash)}</code>",
    )
    lines.append(f"<i>{footer}</i>")
    if any(item.duplicate for item in logged):
        lines.append(t("(already rolled: this is the first result)"))
    return fit("\n".join(lines))
