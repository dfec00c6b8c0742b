"""What /verify and /odds answer besides the odds themselves: a file's verdict, saying what was
and was not proven, and the plain words for work that was too large or too long."""

from __future__ import annotations

from html import escape

from bot.cpu import CpuBusy, CpuError, CpuTimeout
from bot.i18n import Translator
from bot.services.verify import FileVerdict, Scope
from engine.dice.errors import VerifyTooLarge
from engine.dice.verify import Comparison
from engine.errors import EngineError

PROBLEMS_SHOWN = 10
ERROR_CHARS = 600  # an engine error quotes the user's input clipped; this bounds the rest
OFFLINE = "<code>python -m engine.verify roll-log.json</code>"


def engine_error(locale: str, error: EngineError) -> str:
    text = error.render(locale)
    return escape(text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…")


def too_large(t: Translator, locale: str, error: VerifyTooLarge) -> str:
    return t(
        "⏳ Too large to verify here ({reason}). Check it on a computer: get the file with "
        "/log export, then run {command}.",
        reason=escape(error.render(locale)),
        command=OFFLINE,
    )


def cpu_failed(t: Translator, error: CpuError) -> str:
    if isinstance(error, CpuBusy):
        return t("⏳ The bot is busy with other heavy requests. Please try again in a minute.")
    if isinstance(error, CpuTimeout):
        return t(
            "⏳ This took too long and was stopped. A roll log can be checked on a computer "
            "with {command}.",
            command=OFFLINE,
        )
    return t("Sorry, something went wrong. Please try again; if it keeps happening, tell the GM.")


def _span(first: int, last: int) -> str:
    return f"#{first}" if first == last else f"#{first}–#{last}"


def _numbers(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values))


def _title(t: Translator, verdict: FileVerdict) -> str:
    report, comparison = verdict.check.report, verdict.comparison
    if verdict.intact:
        return t("✅ The file is the roll log exactly as the bot keeps it.")
    if comparison is not None and (comparison.differs or comparison.epochs):
        return t("❌ The file is not the roll log as the bot keeps it.")
    if not report.ok:
        return t("❌ The log does not verify:")
    if comparison is not None:
        return t("⚠️ The file is only the beginning of the roll log the bot keeps.")
    return t("⚠️ The file is consistent in itself, but nothing here shows whose log it is.")


def _comparison(t: Translator, verdict: FileVerdict, comparison: Comparison) -> list[str]:
    lines = [
        t("Compared with this chat's roll log.")
        if verdict.here
        else t("Compared with the bot's roll log of the chat named in the file.")
    ]
    if comparison.matched:
        lines.append(t("Matches the chat's log up to entry {n}.", n=f"#{comparison.matched}"))
    if comparison.extra:
        lines.append(
            t(
                "Entries from {first} on are not in the chat's log (entries in it: {total}).",
                first=f"#{comparison.matched + 1}",
                total=comparison.total,
            )
        )
    elif comparison.differs:
        lines.append(
            t(
                "Entry {n} of the file differs from the chat's log: changed, made up or out "
                "of place.",
                n=f"#{comparison.matched + 1}",
            )
        )
    elif comparison.matched < comparison.total:
        lines.append(
            t(
                "The chat's log goes on past the end of the file: entries {span} (an older "
                "export, or cut off).",
                span=_span(comparison.matched + 1, comparison.total),
            )
        )
    if comparison.epochs:
        lines.append(
            t(
                "Seed epochs whose commitment differs from the chat's: {epochs}.",
                epochs=_numbers(comparison.epochs),
            )
        )
    return lines


def _proven(t: Translator, verdict: FileVerdict) -> list[str]:
    lines = []
    report = verdict.check.report
    if report.recomputed:
        lines.append(t("Rolls re-rolled from revealed seeds: {n}.", n=report.recomputed))
    if verdict.secret:
        lines.append(
            t(
                "Seed epochs still secret: {epochs}. Their rolls cannot be re-rolled: their "
                "results are unproven until /reveal.",
                epochs=_numbers(verdict.secret),
            )
        )
    if verdict.revealed_since:
        lines.append(
            t(
                "Seed epochs revealed after this export: {epochs}. Their rolls were not "
                "re-rolled: export the log again (/log export) to check them too.",
                epochs=_numbers(verdict.revealed_since),
            )
        )
    return lines


def _problems(t: Translator, locale: str, verdict: FileVerdict) -> list[str]:
    report, count = verdict.check.report, verdict.check.problems
    if report.ok:
        return []
    lines = [t("Problems in the file itself:")] if verdict.comparison is not None else []
    lines += ["• " + escape(p.render(locale)) for p in report.problems[:PROBLEMS_SHOWN]]
    if count > PROBLEMS_SHOWN:
        lines.append(t("…more problems: {n}.", n=count - PROBLEMS_SHOWN))
    return lines


def file_verdict(t: Translator, locale: str, verdict: FileVerdict) -> str:
    """The verdict on an uploaded file: ✅ only for the log exactly as the bot keeps it."""
    lines = [_title(t, verdict)]
    comparison = verdict.comparison
    if comparison is not None:
        lines += _comparison(t, verdict, comparison)
        lines += _problems(t, locale, verdict)
    else:
        lines += _problems(t, locale, verdict)
        if verdict.scope is Scope.NOT_SHOWN:
            lines.append(
                t("The file names a chat you are not in: it was not compared with its log.")
            )
        else:
            lines.append(t("The file names no chat of this bot: it was compared with no log."))
    lines += _proven(t, verdict)
    if comparison is None:
        lines.append(t("A file alone cannot show that entries were cut off the end."))
    return "\n".join(lines)
