"""``engine.transfer`` alone: bounds refused before the work they guard, one content hash
however the file is laid out, and any input either read or refused with an ``EngineError``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.systems import SYSTEMS
from engine.dice.verify import VerifyLimits
from engine.errors import EngineError
from engine.systems import fate
from engine.transfer import (
    SheetType,
    TransferError,
    TransferLimits,
    check_depth,
    content_hash,
    read_file,
    seal,
)

TYPES = {k: SheetType(s.character_type, s.schema_version) for k, s in SYSTEMS.items()}
LIMITS = TransferLimits()


def _character_file(**character: Any) -> dict[str, Any]:
    sheet = fate.new_character("Кира").model_dump(mode="json")
    body = {"ref": 1, "name": "Кира", "owner_user_id": 7, "status": "active",
            "schema_version": 1, "sheet": sheet, "history": [], **character}  # fmt: skip
    return {"kind": "character", "system": "fate", "exported_at": "x", "character": body}


def _read(content: bytes, limits: TransferLimits = LIMITS) -> Any:
    return read_file(content, TYPES, {}, limits, VerifyLimits())


def test_a_sealed_file_reads_back_and_its_hash_ignores_layout() -> None:
    data = seal(_character_file())
    parsed = _read(data)
    assert parsed.kind == "character" and parsed.problems == ()
    assert parsed.characters[0].sheet == fate.new_character("Кира")
    compact = json.dumps(json.loads(data), separators=(",", ":")).encode()
    assert _read(compact).content_hash == parsed.content_hash == content_hash(json.loads(data))


@pytest.mark.parametrize(
    ("content", "key"),
    [
        (b"[" * 25 + b"]" * 25, "transfer.too_deep"),
        (b"[" * 90, "transfer.too_deep"),  # a bomb that never closes
        (b"[1, [2, [3]]" + b"}" * 3, "transfer.not_json"),  # brackets that never pair up
        (b'{"a": "' + b"[" * 80 + b'"}', "transfer.not_export"),  # brackets inside a string
        (b"x" * 101, "transfer.too_large"),
    ],
)
def test_bounds_come_before_parsing(content: bytes, key: str) -> None:
    with pytest.raises(TransferError) as error:
        _read(content, TransferLimits(max_bytes=100))
    assert error.value.msg.key == key


def test_depth_is_counted_outside_strings() -> None:
    check_depth(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"["}', 2)
    check_depth(b'{"a": [[{"b": 1}]]}', 4)
    with pytest.raises(TransferError):
        check_depth(b'{"a": [[{"b": 1}]]}', 3)
    with pytest.raises(TransferError):  # interleaved pairs: no run of openers until a pass
        check_depth(b"[" + b"[][" * 5 + b"]" * 5 + b"]", 4)


def test_counts_are_bounded() -> None:
    game = {"kind": "game", "system": "fate", "game": {}, "characters": [{}] * 4, "npcs": []}
    with pytest.raises(TransferError) as error:
        _read(seal(game), TransferLimits(max_characters=3))
    assert error.value.msg.key == "transfer.too_many"


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=20,
    ),
    st.sampled_from(["character", "game", "other"]),
)
def test_any_json_is_read_or_refused_with_an_engine_error(noise: Any, kind: str) -> None:
    document = _character_file() if kind == "character" else {"kind": kind, "system": "fate"}
    document["character" if kind == "character" else "game"] = noise
    try:
        _read(seal(document))
    except EngineError:
        pass
