"""The emulator checks every call against the pinned Bot API specification (tgemu/spec.py):
a deviation is refused as Telegram refuses it and recorded, so the suite fails on it."""

from __future__ import annotations

import json

import pytest

from tests.emulator.conftest import ALICE, GROUP
from tests.emulator.test_raw_http import post
from tgemu import BotAPIEmulator
from tgemu.spec import FILE, SPEC_VERSION, SpecError, load_spec


def problems(emu: BotAPIEmulator) -> list[str]:
    return [d.problem for d in emu.take_deviations()]


def refused(body: dict[str, object], description: str) -> bool:
    return body == {"ok": False, "error_code": 400, "description": f"Bad Request: {description}"}


def test_the_pinned_file_is_the_version_named() -> None:
    assert load_spec().version == SPEC_VERSION == "Bot API 10.1"


async def test_unknown_method_is_not_found_and_recorded(emu: BotAPIEmulator) -> None:
    body = await post(emu, "sendMessagee", json={"chat_id": GROUP, "text": "x"})
    assert body == {"ok": False, "error_code": 404, "description": "Not Found"}
    assert problems(emu) == ['unknown method "sendMessagee"']


async def test_unknown_and_deprecated_parameters(emu: BotAPIEmulator) -> None:
    body = await post(emu, "sendMessage", json={"chat_id": GROUP, "text": "x", "txet": "y"})
    assert refused(body, 'unknown parameter "txet"')
    # gone from the Bot API since 7.0: link_preview_options replaced it
    body = await post(
        emu,
        "sendMessage",
        json={"chat_id": GROUP, "text": "x", "disable_web_page_preview": True},
    )
    assert refused(body, 'unknown parameter "disable_web_page_preview"')
    assert problems(emu) == [
        'unknown parameter "txet"',
        'unknown parameter "disable_web_page_preview"',
    ]
    assert emu.bot_messages(GROUP) == []


async def test_missing_required_parameter(emu: BotAPIEmulator) -> None:
    body = await post(emu, "answerCallbackQuery", json={"text": "hi"})
    assert refused(body, 'parameter "callback_query_id" is required')
    body = await post(emu, "sendMessage", json={"text": "hi"})
    assert refused(body, "chat_id is empty")  # Telegram's words for these two
    assert problems(emu) == [
        'required parameter "callback_query_id" is missing',
        'required parameter "chat_id" is missing',
    ]


async def test_wrong_types_through_nested_objects_and_unions(emu: BotAPIEmulator) -> None:
    markup = {"inline_keyboard": [[{"text": 5, "callback_data": "a"}]]}
    body = await post(
        emu, "sendMessage", json={"chat_id": GROUP, "text": "x", "reply_markup": markup}
    )
    assert refused(body, 'field "reply_markup.inline_keyboard[0][0].text" must be of type String')
    # chat_id is "Integer or String": a list is neither
    body = await post(emu, "sendMessage", json={"chat_id": [GROUP], "text": "x"})
    assert refused(body, 'field "chat_id" must be of type Integer or String')
    # nested numbers are not read from text (only top-level parameters are)
    body = await post(
        emu,
        "sendMessage",
        json={"chat_id": GROUP, "text": "x", "reply_parameters": {"message_id": "1"}},
    )
    assert refused(body, 'field "reply_parameters.message_id" must be of type Integer')
    # an abstract type is one of its subtypes: a scope of no known kind is refused
    body = await post(
        emu,
        "setMyCommands",
        json={"commands": [{"command": "r", "description": "roll"}], "scope": {"type": "moon"}},
    )
    assert refused(body, 'field "scope.type" has unsupported value "moon"')
    assert len(problems(emu)) == 4


async def test_limits_the_descriptions_state(emu: BotAPIEmulator) -> None:
    # "0-200 characters": refused in Telegram's words
    body = await post(
        emu, "answerCallbackQuery", json={"callback_query_id": "1", "text": "я" * 201}
    )
    assert refused(body, "MESSAGE_TOO_LONG")
    # "1-4096 characters after entities parsing": the parsed text is what counts
    body = await post(
        emu,
        "sendMessage",
        json={"chat_id": GROUP, "text": "<b>" + "я" * 4096 + "</b>", "parse_mode": "HTML"},
    )
    assert body["ok"] is True
    body = await post(emu, "sendMessage", json={"chat_id": GROUP, "text": "я" * 4097})
    assert refused(body, "message is too long")
    # "Values between 1-100 are accepted"
    body = await post(emu, "getUpdates", json={"limit": 101, "timeout": 0})
    assert refused(body, 'field "limit" must be between 1 and 100, not 101')
    assert problems(emu) == [
        'field "text" must be 0-200 characters long, not 201',
        "Bad Request: message is too long",
        'field "limit" must be between 1 and 100, not 101',
    ]


async def test_value_lists(emu: BotAPIEmulator) -> None:
    body = await post(emu, "sendChatAction", json={"chat_id": GROUP, "action": "dancing"})
    assert refused(body, 'field "action" has unsupported value "dancing"')
    body = await post(
        emu, "sendMessage", json={"chat_id": GROUP, "text": "x", "parse_mode": "HTM"}
    )
    assert refused(body, 'field "parse_mode" has unsupported value "HTM"')
    # a dialog library's internal event is not an update type Telegram knows
    body = await post(
        emu, "getUpdates", json={"timeout": 0, "allowed_updates": ["message", "aiogd_update"]}
    )
    assert refused(body, 'field "allowed_updates[1]" has unknown update type "aiogd_update"')
    assert len(problems(emu)) == 3
    # Telegram reads parse modes case-insensitively
    body = await post(
        emu, "sendMessage", json={"chat_id": GROUP, "text": "x", "parse_mode": "html"}
    )
    assert body["ok"] is True


async def test_form_bodies_carry_numbers_and_flags_as_text(emu: BotAPIEmulator) -> None:
    markup = json.dumps({"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]})
    form = {
        "chat_id": str(GROUP),
        "text": "form",
        "disable_notification": "true",
        "reply_markup": markup,
    }
    assert (await post(emu, "sendMessage", data=form))["ok"] is True
    body = await post(emu, "getUpdates", params={"limit": "5", "timeout": "0"})
    assert body["ok"] is True
    # … but text that is no number stays refused
    body = await post(emu, "getUpdates", params={"limit": "five", "timeout": "0"})
    assert refused(body, 'field "limit" must be of type Integer')
    body = await post(emu, "sendMessage", data={**form, "disable_notification": "maybe"})
    assert refused(body, 'field "disable_notification" must be of type Boolean')
    assert len(problems(emu)) == 2


def test_the_spec_knows_forum_topics_and_uploads() -> None:
    spec = load_spec()
    spec.check_call(
        "createForumTopic", {"chat_id": GROUP, "name": "Session 1", "icon_color": 7322096}
    )
    spec.check_call("sendMessage", {"chat_id": GROUP, "text": "x", "message_thread_id": 5})
    spec.check_call(
        "editForumTopic", {"chat_id": str(GROUP), "message_thread_id": "5", "name": "S"}
    )
    spec.check_call("sendDocument", {"chat_id": ALICE, "document": FILE, "caption": "log"})
    with pytest.raises(SpecError, match='"name" must be 1-128 characters'):
        spec.check_call("createForumTopic", {"chat_id": GROUP, "name": "x" * 129})
    with pytest.raises(SpecError, match='"document" must be of type InputFile or String'):
        spec.check_call("sendDocument", {"chat_id": ALICE, "document": {"file": 1}})
