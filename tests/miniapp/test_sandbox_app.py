"""The sandbox's /app: a URL signed for the current user that the Mini App accepts."""

from __future__ import annotations

import io
import re
from urllib.parse import parse_qs, urlsplit

from sandbox import run_sandbox
from tgemu import BotAPIEmulator
from webapp import auth, wiring


async def test_app_prints_a_url_signed_for_the_current_user(emulator: BotAPIEmulator) -> None:
    out = io.StringIO()
    await run_sandbox(
        emulator,
        stdin=io.StringIO("/app\n/as bob en\n/app\n/quit\n"),
        stdout=out,
        app_url=lambda user, name, lang: wiring.signed_url(
            "http://127.0.0.1:1/app/", emulator.token, user, first_name=name, language_code=lang
        ),
    )
    urls = re.findall(r"http://127\.0\.0\.1:1/app/#\S+", out.getvalue())
    assert len(urls) == 2
    signed = [parse_qs(urlsplit(url).fragment)["tgWebAppData"][0] for url in urls]
    users = [auth.verify(data, emulator.token) for data in signed]
    assert [(u.id, u.first_name, u.language_code) for u in users] == [
        (1001, "Alice", "ru"),
        (1002, "Bob", "en"),
    ]
