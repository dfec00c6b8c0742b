"""Command-line verifier of an exported roll log.

    python -m engine.verify FILE [--seed EPOCH=HEX ...] [--head HASH] [--lang ru|en]

Checks seeds against commitments, recomputes every roll of a revealed epoch, checks the
sequence and the hash chain, and prints a short summary. Exit code 0 when everything checks
out, 1 when any problem was found or the file cannot be read, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.dice.log import RollLogExport, export_from_json, loads
from engine.dice.verify import VerifyReport, verify_export
from engine.errors import EngineError

TRANSFER_FORMAT = "tabletop-export"  # engine.transfer.FORMAT (not imported: it loads pydantic)


def _seed_arg(text: str) -> tuple[int, bytes]:
    epoch, sep, hex_seed = text.partition("=")
    try:
        if not sep:
            raise ValueError
        return int(epoch), bytes.fromhex(hex_seed)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected EPOCH=HEX, got {text!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.verify", description="Verify an exported roll log (rollog/1)."
    )
    parser.add_argument("file", help="the exported JSON file")
    parser.add_argument(
        "--seed", action="append", type=_seed_arg, default=[], metavar="EPOCH=HEX",
        help="a revealed seed for an epoch (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--head", metavar="HASH", help="the latest hash posted in the chat (catches removed tail)"
    )
    parser.add_argument("--lang", choices=("ru", "en"), default="en")
    return parser


def summary(report: VerifyReport, locale: str) -> list[str]:
    """The human summary lines of a report: what was checked, and plainly what was not."""
    secret = report.unrevealed_epochs
    if not report.ok:
        status = f"FAILED: {len(report.problems)} problem(s)"
    else:
        status = "OK as far as a file alone can show (see below)" if secret else "OK"
    lines = [
        f"game {report.game}: {report.entries} entries, {report.recomputed} rolls recomputed"
        f" — {status}",
        "checked: the order of the entries, the hash chain, the seed commitments"
        + (
            ", and every roll of a revealed epoch re-rolled from its seed"
            if report.revealed_epochs
            else ""
        ),
    ]
    if report.revealed_epochs:
        lines.append("revealed epochs: " + ", ".join(map(str, report.revealed_epochs)))
    if secret:
        epochs = ", ".join(map(str, secret))
        lines.append(
            f"NOT checked: the dice of epochs {epochs} — their seed is still secret, so those "
            "rolls were not re-rolled (chain checked only). A die changed in the file with the "
            "chain made again passes here. To check them: /reveal in the chat, then "
            "--seed EPOCH=HEX; or send the file to /verify in the chat, which holds it against "
            "the bot's own log."
        )
    lines.extend(f"  - {p.render(locale)}" for p in report.problems)
    return lines


def _log_of(content: bytes) -> RollLogExport:
    """The roll log of a ``rollog/1`` file, or the ``roll_log`` section of a game's export
    (``/export game``), which is exactly such a log."""
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):
        return loads(content)  # its error names the problem
    if isinstance(data, dict) and data.get("format") == TRANSFER_FORMAT:
        return export_from_json(data.get("roll_log"))
    return export_from_json(data)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the verifier; returns the exit code."""
    stream = out if out is not None else sys.stdout
    args = _parser().parse_args(argv)
    try:
        with open(args.file, "rb") as handle:
            export = _log_of(handle.read())
    except OSError as exc:
        stream.write(f"cannot read {args.file}: {exc.strerror}\n")
        return 1
    except EngineError as exc:
        stream.write(exc.render(args.lang) + "\n")
        return 1
    report = verify_export(export, dict(args.seed), head_hash=args.head)
    stream.write("\n".join(summary(report, args.lang)) + "\n")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
