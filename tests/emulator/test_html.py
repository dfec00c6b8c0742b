"""Telegram's HTML parse mode as the emulator implements it (no server needed)."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tgemu.html import HtmlParseError, parse_html, strip_text


def entities(html: str) -> list[tuple[str, int, int]]:
    return [(e["type"], e["offset"], e["length"]) for e in parse_html(html)[1]]


def test_all_supported_tags() -> None:
    html = (
        "<b>b</b><strong>b</strong><i>i</i><em>i</em><u>u</u><ins>u</ins><s>s</s>"
        "<strike>s</strike><del>s</del><tg-spoiler>p</tg-spoiler>"
        '<span class="tg-spoiler">p</span><code>c</code><pre>p</pre>'
        "<blockquote>q</blockquote><blockquote expandable>e</blockquote>"
    )
    text, found = parse_html(html)
    assert text == "bbiiuusssppcpqe"
    assert [e["type"] for e in found] == [
        "bold",
        "bold",
        "italic",
        "italic",
        "underline",
        "underline",
        "strikethrough",
        "strikethrough",
        "strikethrough",
        "spoiler",
        "spoiler",
        "code",
        "pre",
        "blockquote",
        "expandable_blockquote",
    ]


def test_offsets_are_utf16_and_nested_sorted() -> None:
    assert entities("🎲 <b>x <i>y</i></b>") == [("bold", 3, 3), ("italic", 5, 1)]


def test_links_and_mentions() -> None:
    text, found = parse_html(
        "<A HREF='https://x.org/?a=1&amp;b=2'>x</A> <a href=\"tg://user?id=7\">u</a>"
    )
    assert text == "x u"
    assert found[0] == {
        "type": "text_link",
        "offset": 0,
        "length": 1,
        "url": "https://x.org/?a=1&b=2",
    }
    assert found[1]["type"] == "text_mention" and found[1]["user"]["id"] == 7


def test_pre_with_language() -> None:
    text, found = parse_html('<pre><code class="language-python">print(1)</code></pre>')
    assert text == "print(1)"
    assert found == [{"type": "pre", "offset": 0, "length": 8, "language": "python"}]


def test_character_entities() -> None:
    assert parse_html("&lt;&gt;&amp;&quot;&#38;&#x3C;")[0] == '<>&"&<'


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("<x>", 'Unsupported start tag "x" at byte offset 0'),
        ("é<br/>", 'Unsupported start tag "br/" at byte offset 2'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b", "Unclosed start tag at byte offset 0"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("<i><b>x</b>", 'Can\'t find end tag corresponding to start tag "i"'),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("a &nbsp; b", 'Unescaped "&" at byte offset 2'),
    ],
)
def test_errors(html: str, error: str) -> None:
    with pytest.raises(HtmlParseError) as info:
        parse_html(html)
    assert str(info.value).startswith(error)


def test_strip_clips_entities() -> None:
    text, found = parse_html("<b>  hi </b>\n")
    assert strip_text(text, found) == ("hi", [{"type": "bold", "offset": 0, "length": 2}])


TAGS = ["b", "i", "u", "s", "code", "tg-spoiler", "blockquote"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TAGS), st.text(min_size=0, max_size=12)), max_size=6))
def test_escaped_text_round_trips(parts: list[tuple[str, str]]) -> None:
    html = "".join(f"<{tag}>{escape(chunk, quote=False)}</{tag}>" for tag, chunk in parts)
    text, found = parse_html(html)
    assert text == "".join(chunk for _, chunk in parts)
    for entity in found:
        assert entity["length"] > 0
        assert entity["offset"] + entity["length"] <= len(text.encode("utf-16-le")) // 2
