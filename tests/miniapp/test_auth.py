"""initData as Telegram signs it: accepted; forged, altered, expired or malformed: refused."""

from __future__ import annotations

import time
from urllib.parse import parse_qsl, urlencode

import pytest

from webapp import auth

TOKEN = "123456:TEST-TOKEN"


def _altered(init_data: str, key: str, value: str) -> str:
    pairs = dict(parse_qsl(init_data))
    pairs[key] = value
    return urlencode(pairs)


def test_a_signed_string_names_its_user() -> None:
    user = auth.verify(auth.sign(TOKEN, 1001, first_name="Алиса", language_code="ru"), TOKEN)
    assert (user.id, user.first_name, user.language_code) == (1001, "Алиса", "ru")


@pytest.mark.parametrize(
    "init_data",
    [
        auth.sign("654321:OTHER", 1001),  # signed with another bot's token
        _altered(auth.sign(TOKEN, 1001), "user", '{"id":1000,"first_name":"GM"}'),
        _altered(auth.sign(TOKEN, 1001), "auth_date", str(int(time.time()) + 5)),
        _altered(auth.sign(TOKEN, 1001), "hash", "0" * 64),
        auth.sign(TOKEN, 1001).replace("&hash=", "&nohash="),
        auth.sign(TOKEN, 1001, auth_date=int(time.time()) - auth.MAX_AGE - 60),  # expired
        auth.sign(TOKEN, 1001, auth_date=int(time.time()) + 3600),  # from the future
        "",
        "not a query string",
    ],
    ids=["forged", "user", "auth-date", "hash", "no-hash", "expired", "future", "empty", "junk"],
)
def test_anything_else_is_refused(init_data: str) -> None:
    with pytest.raises(auth.AuthError):
        auth.verify(init_data, TOKEN)


def test_the_age_bound_is_the_servers() -> None:
    signed = auth.sign(TOKEN, 1001, auth_date=int(time.time()) - 120)
    assert auth.verify(signed, TOKEN, max_age=300).id == 1001
    with pytest.raises(auth.AuthError):
        auth.verify(signed, TOKEN, max_age=60)


def test_every_system_has_a_page_layout() -> None:
    from bot.systems import SYSTEMS
    from webapp.sheets import LAYOUTS

    assert set(LAYOUTS) == set(SYSTEMS)
