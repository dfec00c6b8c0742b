"""Webhook mode: the Mini App is served by the webhook's own server, next to the hook."""

from __future__ import annotations

import aiohttp
from aiohttp import web

from bot.webhook import create_webhook_app
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.helpers.table import insert_character
from tests.miniapp.cases import CASES
from webapp import auth, wiring


async def test_the_webhook_server_serves_the_page_and_its_api(harness: Harness) -> None:
    await harness.start()  # a polling bot only to set the table up
    seat_table(harness)
    await create_game(harness, "fate", "Кампания")
    cid = await insert_character(harness, "fate", CASES["fate"].make(), owner=ALICE)
    await harness.stop()
    runtime = harness.build()
    app = create_webhook_app(runtime.dispatcher, runtime.bot, path="/tg/hook", secret="s3cret")
    wiring.attach(app, runtime.dispatcher, runtime.bot)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    base = f"http://{host}:{port}"
    try:
        signed = auth.sign(runtime.bot.token, ALICE, first_name="Alice")
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/app", allow_redirects=False) as res:
                assert res.status == 308 and res.headers["Location"] == "/app/"
            async with http.get(f"{base}/app/") as res:
                assert res.status == 200 and "app.js" in await res.text()
            headers = {"Authorization": f"tma {signed}"}
            async with http.get(f"{base}/app/api/sheet/{cid}", headers=headers) as res:
                assert res.status == 200 and "Ира" in (await res.json())["html"]
            async with http.post(f"{base}/tg/hook", json={}) as res:
                assert res.status == 401  # the hook still wants Telegram's secret
    finally:
        await runner.cleanup()
