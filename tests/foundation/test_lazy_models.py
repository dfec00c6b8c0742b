"""aiogram's models are built on first use (``bot.lazy_models``), and every one of them can be.

In a fresh interpreter, so that nothing imported aiogram before ``bot`` did.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, re
import bot
import aiogram.types as types
from pydantic import BaseModel
models = [getattr(types, n) for n in types.__all__]
models = [m for m in models if isinstance(m, type) and issubclass(m, BaseModel)]
deferred = sum(not m.__pydantic_complete__ for m in models)
rss_before = int(re.search(r"VmRSS:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
update = types.Update.model_validate({"update_id": 1, "message": {
    "message_id": 5, "date": 0, "chat": {"id": -1, "type": "group", "title": "T"},
    "from": {"id": 7, "is_bot": False, "first_name": "A"}, "text": "/r 1d6",
    "reply_to_message": {"message_id": 4, "date": 0, "chat": {"id": -1, "type": "group"}}}})
failed = []
for m in models:
    try:
        m.model_rebuild(raise_errors=True)
    except Exception as error:
        failed.append(f"{m.__name__}: {error}")
print(json.dumps({"models": len(models), "deferred": deferred, "failed": failed,
                  "reply_to": update.message.reply_to_message.message_id,
                  "rss_kb_before_use": rss_before}))
"""


def test_every_type_is_deferred_at_import_and_builds_when_used() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    report = json.loads(out.stdout)
    assert report["models"] > 250
    assert report["deferred"] == report["models"]
    assert report["failed"] == []
    assert report["reply_to"] == 4
    # The eager build took some 165 MB for aiogram alone.
    assert report["rss_kb_before_use"] < 100_000
