"""Telegram Mini App ``initData``: checked on every request, signed for tests and the sandbox.

Telegram signs the query string it hands the page: ``hash`` is HMAC-SHA256 over the
data-check-string (every other ``key=value`` pair, sorted by key, joined by newlines) with the
key HMAC-SHA256(key="WebAppData", msg=bot_token). Only the bot's token can make it, so a valid
hash proves Telegram vouched for ``user``; ``auth_date`` bounds how long a copied string works.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl, urlencode

MAX_AGE: Final = 24 * 3600  # seconds an initData string is accepted after Telegram signed it
CLOCK_SKEW: Final = 300  # an auth_date this far in the future is still the same moment


class AuthError(Exception):
    """The initData is missing, forged, altered or expired (the reason is for the log only)."""


@dataclass(frozen=True)
class WebAppUser:
    id: int
    first_name: str
    language_code: str | None
    auth_date: int


def _secret(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _check_string(pairs: dict[str, str]) -> str:
    return "\n".join(f"{key}={pairs[key]}" for key in sorted(pairs))


def verify(init_data: str, token: str, *, now: float | None = None, max_age: int = MAX_AGE
) -> WebAppUser:  # fmt: skip
    """The user Telegram signed ``init_data`` for, or ``AuthError``."""
    try:
        pairs = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError as error:
        raise AuthError("not a query string") from error
    given = pairs.pop("hash", "")
    expected = hmac.new(_secret(token), _check_string(pairs).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise AuthError("bad hash")
    try:
        auth_date = int(pairs["auth_date"])
        user = json.loads(pairs["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as error:
        raise AuthError("no user or auth_date") from error
    moment = time.time() if now is None else now
    if auth_date > moment + CLOCK_SKEW or moment - auth_date > max_age:
        raise AuthError("expired")
    language = user.get("language_code")
    return WebAppUser(
        user_id,
        str(user.get("first_name") or ""),
        language if isinstance(language, str) else None,
        auth_date,
    )


def sign(
    token: str, user_id: int, *, first_name: str = "", language_code: str = "ru",
    auth_date: int | None = None,
) -> str:  # fmt: skip
    """initData as Telegram would make it for ``user_id`` (the sandbox's link, the tests)."""
    user = {"id": user_id, "first_name": first_name, "language_code": language_code}
    pairs = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "query_id": f"sandbox-{user_id}",
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    pairs["hash"] = hmac.new(
        _secret(token), _check_string(pairs).encode(), hashlib.sha256
    ).hexdigest()
    return urlencode(pairs)
