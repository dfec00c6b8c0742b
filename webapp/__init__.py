"""The character sheet as a Telegram Mini App: an aiohttp sub-application (``server.py``) that
serves a static page (``static/``) and a small JSON API authenticated by Telegram's initData
(``auth.py``). It reads and changes sheets through the bot's own use cases
(``bot/services``): the same refusals, the same ledger, the same group notice as ``/res``."""
