"""The conversion pipeline: entry points, options, errors, warnings order."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

import mcp_slack_block_kit as sbk
from blockcheck import assert_valid_blocks
from mcp_slack_block_kit.blocks.split import chunk_blocks
from mcp_slack_block_kit.converter import (
    ConversionResult,
    Converter,
    Mode,
    Options,
    convert,
    core,
    default_options,
    derive_text_fallback,
)
from mcp_slack_block_kit.converter.warnings import (
    MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING,
    normalization_warning,
)
from mcp_slack_block_kit.exceptions import (
    ConversionError,
    InputTooDeeplyNestedError,
    InputTooLargeError,
    InvalidOptionsError,
)

MODES = [m.value for m in Mode]


def test_root_package_exports_the_converter_api() -> None:
    """The public names resolve to the converter package's objects."""
    assert sbk.convert is convert and sbk.Converter is Converter
    assert sbk.ConversionResult is ConversionResult
    assert sbk.derive_text_fallback is derive_text_fallback
    assert sbk.Options is Options and sbk.Mode is Mode and sbk.default_options is default_options


def test_result_is_frozen_with_the_four_fields() -> None:
    """ConversionResult is a frozen dataclass: blocks, warnings, repairs, text_fallback."""
    result = convert("hi", mode="rich_text")
    assert [f.name for f in dataclasses.fields(result)] == [
        "blocks", "warnings", "repairs", "text_fallback"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.blocks = []  # type: ignore[misc]
    assert result.repairs == () and result.text_fallback == "hi"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["", " ", "   \n\t\n", "\u00a0\u2003"])
def test_empty_and_whitespace_input(mode: str, text: str) -> None:
    """Whitespace-only input gives no blocks, no warnings, no repairs, empty fallback."""
    result = convert(text, mode=mode)
    assert result == ConversionResult([], [], (), "")


def test_converter_default_options_and_property() -> None:
    """Converter() uses default options; .options returns the frozen Options."""
    conv = Converter()
    assert conv.options == default_options()
    opts = Options(mode="rich_text")
    assert Converter(opts).options is opts


def test_converter_rejects_non_options() -> None:
    """A bad options argument is an InvalidOptionsError, not an AttributeError later."""
    with pytest.raises(InvalidOptionsError):
        Converter({"mode": "auto"})  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionsError):
        convert("x", options="rich_text")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [1, None, b"bytes", ["list"]])
def test_non_str_markdown_is_a_conversion_error(bad: object) -> None:
    """Non-str input raises ConversionError (a SlackBlockKitError) naming the type."""
    with pytest.raises(ConversionError, match="markdown must be a str"):
        convert(bad)  # type: ignore[arg-type]


def test_overrides_apply_with_dataclasses_replace() -> None:
    """Keyword overrides are Options fields, layered on the given options."""
    base = Options(block_id_prefix="p")
    result = convert("# A\n\nB", base, mode="rich_text")
    assert [b.get("block_id") for b in result.blocks] == ["p-1", "p-2"]


def test_mode_enum_and_string_are_equivalent() -> None:
    """Mode values may be given as the enum or its string."""
    assert convert("x", mode=Mode.RICH_TEXT) == convert("x", mode="rich_text")


def test_unknown_override_is_invalid_options() -> None:
    """An override that is not an Options field raises InvalidOptionsError naming it."""
    with pytest.raises(InvalidOptionsError, match="unknown option"):
        convert("x", colour="red")


def test_bad_override_value_is_invalid_options() -> None:
    """Override values are validated like constructor arguments."""
    with pytest.raises(InvalidOptionsError, match="invalid mode"):
        convert("x", mode="bogus")
    with pytest.raises(InvalidOptionsError, match="max_input_bytes"):
        convert("x", max_input_bytes=-1)


def test_converters_are_cached_per_distinct_options() -> None:
    """convert() reuses one Converter per distinct options value."""
    a = core._cached(Options(mode="rich_text", mention_map={"a": "U123"}))
    b = core._cached(Options(mode="rich_text", mention_map={"a": "U123"}))
    c = core._cached(Options(mode="rich_text"))
    assert a is b and a is not c


def test_converter_is_reusable_and_thread_safe() -> None:
    """One Converter gives identical results from many threads at once."""
    conv = Converter(Options(mode="rich_text", block_id_prefix="t"))
    inputs = [f"# Title {i}\n\n- a {i}\n- b\n\n| h |\n|---|\n| {i} |\n" for i in range(8)]
    expected = [conv.convert(md) for md in inputs]
    failures: list[int] = []

    def work(k: int) -> None:
        for _ in range(20):
            for i, md in enumerate(inputs):
                if conv.convert(md) != expected[i]:
                    failures.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_input_too_large_message() -> None:
    """max_input_bytes=64 and 65 bytes of input."""
    with pytest.raises(InputTooLargeError) as info:
        convert("x" * 65, max_input_bytes=64)
    assert str(info.value) == "input exceeds configured maximum size: 65 bytes (limit 64)"


def test_default_limit_is_256_kib() -> None:
    """262,145 bytes exceed the default; 262,144 are accepted."""
    with pytest.raises(InputTooLargeError):
        convert("a" * 262145)
    assert convert("a" * 262144, mode="rich_text").blocks


def test_size_is_counted_in_utf8_bytes() -> None:
    """Multi-byte characters count by their UTF-8 length."""
    with pytest.raises(InputTooLargeError, match="66 bytes"):
        convert("é" * 33, max_input_bytes=64)


def test_size_check_runs_before_whitespace_shortcut() -> None:
    """Even whitespace-only input is bounded."""
    with pytest.raises(InputTooLargeError):
        convert(" " * 100, max_input_bytes=10)


@pytest.mark.parametrize("mode", MODES)
def test_lone_surrogates_do_not_crash(mode: str) -> None:
    """Unpaired surrogates become U+FFFD instead of an encoding traceback."""
    result = convert("a\ud800b", mode=mode)
    assert_valid_blocks(result.blocks)
    assert "\ufffd" in json.dumps(result.blocks, ensure_ascii=False)


@pytest.mark.parametrize("mode", MODES)
def test_deep_nesting_is_refused(mode: str) -> None:
    """400 nested quotes exceed the default depth limit in every mode."""
    with pytest.raises(InputTooDeeplyNestedError):
        convert("> " * 400 + "boom", mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_reasonable_nesting_is_accepted(mode: str) -> None:
    """A quote holding a three-level list is fine."""
    result = convert("> quote\n>\n> - a\n>   - b\n>     - c\n", mode=mode)
    assert result.blocks


@pytest.mark.parametrize("mode", MODES)
def test_limit_far_above_default_never_leaks_recursion_error(mode: str) -> None:
    """A huge max_nesting_depth still gives a typed error, never RecursionError."""
    with pytest.raises(InputTooDeeplyNestedError):
        convert("> " * 3000 + "x", mode=mode, max_nesting_depth=1_000_000)


def test_normalization_warning_and_repairs() -> None:
    """Fired codes are reported as repairs and as the first warning."""
    result = convert("- [Project Folder]\n(https://drive.example.com/folders/abc)",
                     prefer_rich_text=True)
    assert result.repairs == ("V8",)
    assert result.warnings == [normalization_warning(["V8"])]
    assert result.warnings[0] == ("normalized input (LLM-mistake repairs fired: V8). "
                                  "See docs/llm-input-recovery.md for codes.")


def test_warning_order_normalization_then_advisory() -> None:
    """Auto mode appends the advisory after the normalization warning."""
    result = convert("- [Project Folder]\n(https://drive.example.com/folders/abc)")
    assert result.warnings == [normalization_warning(["V8"]),
                               MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING]


def test_normalizer_options_are_passed_through() -> None:
    """decode_html_entities turns on V11 (and its code is reported)."""
    off = convert("AT&amp;T", mode="rich_text")
    on = convert("AT&amp;T", mode="rich_text", decode_html_entities=True)
    assert "V11" not in off.repairs and "V11" in on.repairs


def test_slack_url_form_is_rewritten_before_parsing() -> None:
    """The Slack URL-form rewrite runs first: <URL|label> becomes a real link in every mode."""
    rich = convert("see <https://x.com|the docs>", mode="rich_text").blocks
    assert {"type": "link", "url": "https://x.com", "text": "the docs"} in (
        rich[0]["elements"][0]["elements"])
    md = convert("see <https://x.com|the docs>", mode="markdown_block").blocks
    assert md[0]["text"] == "see [the docs](https://x.com)"
    mrkdwn = convert("see <https://x.com|the docs>", mode="section_mrkdwn").blocks
    assert mrkdwn[0]["text"]["text"] == "see <https://x.com|the docs>"


def test_spec_14_rich_text_vectors() -> None:
    """A few end-to-end rich_text vectors."""
    assert "hello world" in json.dumps(convert("hello world", mode="rich_text").blocks)
    types = [b["type"] for b in convert("# Title\n\nbody text here.", mode="rich_text").blocks]
    assert types == ["header", "rich_text"]
    many = convert("paragraph.\n\n" * 60, mode="rich_text").blocks
    assert len(many) == 60 and all(b["type"] == "rich_text" for b in many)
    assert len(chunk_blocks(many, 50)) >= 1
    assert "Hello" in json.dumps(convert("# Hello\n\nworld.").blocks)


@pytest.mark.parametrize("mode", MODES)
def test_fallback_is_derived_from_the_document(mode: str) -> None:
    """text_fallback comes from the parsed document, so every mode gives the same one."""
    result = convert("# Release notes\n\nbody text", mode=mode)
    assert result.text_fallback == "Release notes"


@pytest.mark.parametrize("mode", MODES)
def test_fallback_never_broadcasts_by_default(mode: str) -> None:
    """A header carrying <!channel> gives an escaped fallback (the notification text is
    parsed by Slack); opt-in keeps it raw."""
    assert "<!channel>" not in convert("# <!channel> deploy", mode=mode).text_fallback
    raw = convert("# <!channel> deploy", mode=mode, allow_broadcasts=True).text_fallback
    assert "<!channel>" in raw


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_output_is_valid(mode: str) -> None:
    """A message with every construct converts to blocks the independent checker accepts."""
    md = ("# Weekly report\n\nSome **bold**, _it_, ~~s~~, `code` and [a link](https://x.com).\n\n"
          "## Numbers\n\n1. one\n2. two\n   - nested\n\n> a quote\n\n```py\nprint(1)\n```\n\n"
          "| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n![logo](https://x.com/l.png)\n\n- [x] done\n")
    result = convert(md, mode=mode)
    assert_valid_blocks(result.blocks)
    assert result.text_fallback


_CYCLE_INPUTS = [
    "# Title\n\nSome **bold** and `code`, a [link](https://example.com) :smile:\n\n"
    "> quote\n> - item\n\n- a\n  - b\n- [x] done\n\n```py\nx = 1\n```\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n![alt](https://example.com/i.png)\n",
    "<div>\n*html* block\n</div>\n\n• one\n• two\n\n@alice <!here> www.example.com\n",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("for_messages", [False, True])
def test_a_conversion_leaves_no_reference_cycles(mode: str, for_messages: bool) -> None:
    """What a conversion allocates is freed by reference counting alone (the converter
    pauses the cyclic collector while it runs, so a cycle would outlive the call)."""
    import gc

    conv = Converter(Options(mode=mode, block_id_prefix="b", mention_map={"alice": "U0A1"},
                             preserve_mention_tokens=True))
    gc.collect()
    gc.disable()
    try:
        for text in _CYCLE_INPUTS:
            conv._run(text, for_messages)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_collector_is_resumed_after_a_conversion_and_on_error() -> None:
    """The collector pause is scoped to one call: resumed after success and after an
    error, and never switched on when the caller had it off."""
    import gc

    assert gc.isenabled()
    convert("# hi")
    assert gc.isenabled()
    with pytest.raises(InputTooLargeError):
        convert("x" * 100, max_input_bytes=10)
    assert gc.isenabled()
    gc.disable()
    try:
        convert("# hi")
        assert not gc.isenabled()
    finally:
        gc.enable()
