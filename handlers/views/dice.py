from __future__ import annotations

from fractions import Fraction
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.rolls import LoggedRoll, Revealed
from db.repositories.rolls import Epoch, StoredRoll
from engine.dice.render import render_html
from engine.dice.verify import VerifyReport
from handlers.callbacks import LogPageCD
from handlers.views.sheets import fit

LOG_PAGE_SIZE = 10
# render_html keeps a roll under Telegram's limit; leave room for our header and footer.
ROLL_BODY_LIMIT = 3500


def percent(p: Fraction) -> str:
    """A probability for an HTML message (so the bounds are escaped: «&lt;0.1%»)."""
    value = float(p) * 100
    if 0 < value < 0.1:
        return "&lt;0.1%"
    if 99.9 < value < 100:
        return "&gt;99.9%"
    return f"{value:.1f}%"


def number(value: Fraction) -> str:
    """An exact value such as an average: «10.5», «2», «3.33»."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def short_hash(value: str) -> str:
    return value[:8]


def epoch_opened(t: Translator, epoch: Epoch) -> str:
    return t(
        "🔒 Seed epoch {n} opened. Commitment (SHA-256 of the secret seed): {hash}",
        n=epoch.epoch,
        hash=f"<code>{epoch.commitment}</code>",
    )


def rolled(t: Translator, locale: str, logged: LoggedRoll, who: str) -> str:
    body = render_html(logged.result, locale, limit=ROLL_BODY_LIMIT)
    footer = t(
        "Log #{seq} · {hash}",
        seq=logged.entry.seq,
        hash=f"<code>{short_hash(logged.entry.hash)}</code>",
    )
    head = f"<b>{escape(who)}</b>"
    parts = [head, body, f"<i>{footer}</i>"]
    if logged.duplicate:
        parts.append(t("(already rolled: this is the first result)"))
    return "\n".join(parts)


def _cap(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def roll_usage(t: Translator) -> str:
    return t(
        "Write the dice after the command, e.g. <code>/r 2d6+1 attack</code>, "
        "<code>/r 4dF+2</code>, <code>/r 7d10&gt;=6f1</code>, <code>/r 5d10&gt;=7!</code>."
    )


def log_page(t: Translator, rolls: list[StoredRoll], total: int, page: int) -> str:
    if not rolls:
        return t("No rolls in this chat yet.")
    pages = (total + LOG_PAGE_SIZE - 1) // LOG_PAGE_SIZE
    lines = [t("<b>Roll log</b> (page {page} of {pages})", page=page + 1, pages=pages)]
    for stored in rolls:
        entry = stored.entry
        # Each line is capped before escaping, so ten lines always fit one message.
        label = f" {escape(_cap(stored.label, 40))}" if stored.label else ""
        lines.append(
            f"#{entry.seq} {escape(_cap(entry.actor, 32))}: "
            f"<code>{escape(_cap(entry.expression, 80))}</code>"
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
            epoch_opened(t, result.opened),
        ]
    )


def verify_report(t: Translator, locale: str, report: VerifyReport | None) -> str:
    if report is None:
        return t("No rolls in this chat yet.")
    if report.ok:
        return t(
            "✅ The log is intact: {entries} entries, hash chain unbroken, "
            "{recomputed} rolls recomputed from revealed seeds. Unrevealed epochs: {open}.",
            entries=report.entries,
            recomputed=report.recomputed,
            open=", ".join(str(e) for e in report.unrevealed_epochs) or "—",
        )
    problems = "\n".join("• " + escape(p.render(locale)) for p in report.problems[:10])
    return t("❌ The log does not verify:") + "\n" + problems


def odds_lines(
    t: Translator, title: str, rows: list[tuple[str, Fraction]], mean: Fraction | None = None
) -> str:
    lines = [f"🎯 <code>{escape(title)}</code>"]
    if mean is not None:
        lines.append(f"{escape(t('average'))}: <b>{number(mean)}</b>")
    lines += [f"{escape(name)}: <b>{percent(p)}</b>" for name, p in rows]
    return fit("\n".join(lines))
