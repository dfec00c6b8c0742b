"""Text the database cannot hold, cleaned where updates enter the bot.

PostgreSQL refuses U+0000 in ``text`` and ``jsonb`` and lone UTF-16 surrogates in ``jsonb``
(a client may send either: a NUL in callback data, a multi-byte character cut in half). One
such update in a polled batch made the whole batch unstorable, so polling stopped for every
chat. Both are replaced here by U+FFFD (one UTF-16 unit, like each of them, so entity offsets
stay right) before anything parses or stores the update; the updates that changed are named,
so their senders can be told.
"""

from __future__ import annotations

import json
import re
from typing import Any

REPLACEMENT = "\ufffd"
# In JSON text: an escaped NUL or an escaped surrogate (a valid pair is two of them; the slow
# path below tells pairs from lone ones). Raw NULs and surrogates cannot occur in JSON text
# that decoded as UTF-8.
_SUSPECT = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")
_UNHOLDABLE = re.compile("[\x00\ud800-\udfff]")


def clean_text(value: str) -> str:
    """``value`` with NULs and lone surrogates replaced (a decoded string holds a surrogate
    only where it is lone: json joins pairs)."""
    return _UNHOLDABLE.sub(REPLACEMENT, value)


def _clean(node: Any) -> tuple[Any, bool]:
    if isinstance(node, str):
        cleaned = clean_text(node)
        return cleaned, cleaned != node
    if isinstance(node, list):
        changed = False
        for i, item in enumerate(node):
            node[i], c = _clean(item)
            changed |= c
        return node, changed
    if isinstance(node, dict):
        changed = False
        for key in list(node):
            value, c = _clean(node[key])
            new_key = clean_text(key)
            if new_key != key:
                del node[key]
                c = True
            node[new_key] = value
            changed |= c
        return node, changed
    return node, False


def clean_updates(updates: list[Any]) -> set[int]:
    """Clean a list of decoded updates in place; the ids of those that changed."""
    changed: set[int] = set()
    for update in updates:
        _, c = _clean(update)
        if c and isinstance(update, dict) and isinstance(update.get("update_id"), int):
            changed.add(update["update_id"])
    return changed


def clean_response(raw: str) -> tuple[str, set[int]]:
    """A getUpdates response's text made storable, and the ids of the updates that changed.
    The text is returned as it is when nothing in it can need cleaning (a regex scan: the
    usual case costs no decoding)."""
    if _SUSPECT.search(raw) is None:
        return raw, set()
    data = json.loads(raw)
    result = data.get("result") if isinstance(data, dict) else None
    if not isinstance(result, list):
        return raw, set()
    changed = clean_updates(result)
    if not changed:
        return raw, set()
    return json.dumps(data, ensure_ascii=False), changed


def clean_update(update: dict[str, Any]) -> bool:
    """Clean one decoded update in place (webhook mode); whether it changed."""
    return bool(_clean(update)[1])


def lossless(update: Any) -> str:
    """An update as ASCII-escaped JSON text: what ``text`` can hold whatever it contains."""
    return json.dumps(update, ensure_ascii=True)
