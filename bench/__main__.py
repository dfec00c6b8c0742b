"""``make bench``: every benchmark of the project, one JSON object on stdout.

Each section runs in this one process, one after another, so ratios inside a section come from
the same run. Figures move with the machine's load; quote them with the run they came from.
"""

from __future__ import annotations

import asyncio
import json
import platform
import sys
import time
from typing import Any

from bench import (
    dice_bench,
    e2e_bench,
    edit_bench,
    memory,
    milestone_bench,
    press_bench,
    resilience_bench,
    scale_bench,
    transfer_bench,
    verify_bench,
)


async def _milestones() -> dict[str, Any]:
    return await milestone_bench.run(await e2e_bench._admin_url())


async def _resilience() -> dict[str, Any]:
    return await resilience_bench.run(await e2e_bench._admin_url())


async def _transfer() -> dict[str, Any]:
    return await transfer_bench.run(await e2e_bench._admin_url())


async def _press_answers() -> dict[str, Any]:
    return await press_bench.run(await e2e_bench._admin_url())


async def _edit_bursts() -> dict[str, Any]:
    return await edit_bench.run(await e2e_bench._admin_url())


def main() -> None:
    alone = {
        "edit_bursts": _edit_bursts,
        "press_answer_in_a_spent_group": _press_answers,
        "end_to_end": e2e_bench.run,  # the /r fast path's fence, alone before and after
        "transfer_300_characters": _transfer,
    }
    if sys.argv[1:] and set(sys.argv[1:]) <= set(alone):
        # some sections alone, e.g. ``python -m bench edit_bursts``
        report = {name: asyncio.run(alone[name]()) for name in sys.argv[1:]}
        sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1) + "\n")
        return
    started = time.time()
    report: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "dice": dice_bench.run(),
    }
    report["end_to_end"] = asyncio.run(e2e_bench.run())
    report["scale_out_webhook"] = asyncio.run(scale_bench.run())
    report["milestones"] = asyncio.run(_milestones())
    report["resilience"] = asyncio.run(_resilience())
    report["verify_upload"] = asyncio.run(verify_bench.run())
    report["transfer_300_characters"] = asyncio.run(_transfer())
    report["press_answer_in_a_spent_group"] = asyncio.run(_press_answers())
    report["edit_bursts"] = asyncio.run(_edit_bursts())
    report["memory_1000_wizards"] = asyncio.run(memory.run())
    report["seconds"] = round(time.time() - started, 2)
    sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
