"""Property: hostile link and image destinations never reach Slack as tokens or bad URLs.

Random Markdown from ``strategies.hostile_markdown`` (links, images, reference
definitions, split links, autolinks and ``<url|label>`` forms with Slack tokens, relative
paths, unknown schemes and script schemes behind control characters as destinations,
wrapped in emphasis, lists, quotes, headings and tables) is converted in every mode.
With the default options:

* no text Slack parses for tokens (mrkdwn text objects anywhere, a markdown block's text
  outside code, the top-level fallback) holds a raw ``<!…``, ``<@…`` or ``<#…``;
* every emitted link or image URL (rich_text link and date elements, image blocks,
  mrkdwn ``<…>`` targets, Markdown links of markdown-block text read back with
  markdown-it-py) is an allowed absolute URL;
* no typed user, channel, usergroup, team or broadcast element appears.

With an opt-in (``allow_broadcasts``, ``preserve_mention_tokens``, ``mention_map``) only
what that opt-in allows may appear, and structured URLs are allowed URLs whatever the
options. rich_text ``text`` elements are shown literally by Slack, so tokens inside them
are not counted; typed elements there are.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from blockcheck import assert_valid_blocks
from mcp_slack_block_kit.converter import ConversionResult, Converter, Options
from mcp_slack_block_kit.exceptions import ConversionError
from safety import (
    allowed_image_url,
    allowed_link_url,
    emitted_urls,
    raw_slack_tokens,
    typed_mentions,
)
from strategies import hostile_markdown

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
_DEFAULT = {mode: Converter(Options(mode=mode)) for mode in MODES}
MAP = {"alice": "U0123ABCD", "ops": "C0123ABCD", "team": "S0123ABCD"}
# Token targets a trusted opt-in may leave in mrkdwn (`<@U…>`, `<#C…|x>`, `<!subteam^…>`,
# `<!date^…>`); broadcasts are never among them.
_TRUSTED_TARGET = re.compile(r"@[UW][A-Z0-9]{2,}\Z|#C[A-Z0-9]{2,}\Z|!subteam\^S[A-Z0-9]{2,}\Z"
                             r"|!date\^")
_BROADCAST = re.compile(r"<!(?:channel|here|everyone)", re.IGNORECASE)


def _run(converter: Converter, markdown: str) -> ConversionResult | None:
    try:
        result = converter.convert(markdown)
    except ConversionError:  # an over-long image URL is refused loudly; nothing emitted
        return None
    assert_valid_blocks(result.blocks)
    return result


def _bad_urls(result: ConversionResult, trusted_targets: bool, raw: bool) -> list[Any]:
    bad = []
    for kind, path, url in emitted_urls(result.blocks):
        if kind == "image":
            ok = allowed_image_url(url)
        elif kind == "token":  # the target of a `<…>` in mrkdwn text
            ok = raw or allowed_link_url(url) or (
                trusted_targets and _TRUSTED_TARGET.match(url) is not None)
        else:
            ok = allowed_link_url(url)
        if not ok:
            bad.append((path, url))
    return bad


@settings(max_examples=250)
@given(markdown=hostile_markdown)
@example("[x](!channel) [y](<!here>) [z](&#x0B;javascript:alert(1))")
@example("- > *[\u200b](@U0123ABCD)*\n\n[r]: !everyone\n\n[a][r]")
def test_hostile_destinations_in_every_mode(markdown: str) -> None:
    for mode, converter in _DEFAULT.items():
        result = _run(converter, markdown)
        if result is None:
            continue
        assert raw_slack_tokens(result.blocks, result.text_fallback) == [], (mode, result)
        assert _bad_urls(result, trusted_targets=False, raw=False) == [], (mode, result)
        assert typed_mentions(result.blocks) == [], (mode, result)


_OPT_INS = st.sampled_from([
    {"allow_broadcasts": True},
    {"preserve_mention_tokens": True},
    {"mention_map": MAP},
    {"preserve_mention_tokens": True, "mention_map": MAP},
])


@settings(max_examples=150)
@given(markdown=hostile_markdown, mode=st.sampled_from(MODES), opt_in=_OPT_INS)
def test_hostile_destinations_with_an_opt_in(
    markdown: str, mode: str, opt_in: dict[str, Any]
) -> None:
    """An opt-in unlocks what it names and nothing more; link URLs stay allowed URLs."""
    result = _run(Converter(Options(mode=mode, **opt_in)), markdown)
    if result is None:
        return
    raw = opt_in.get("allow_broadcasts", False)
    trusted = opt_in.get("preserve_mention_tokens", False) or "mention_map" in opt_in
    assert _bad_urls(result, trusted_targets=trusted, raw=raw) == [], result
    typed = typed_mentions(result.blocks)
    assert all(el["type"] != "broadcast" for el in typed), typed
    if not raw:
        tokens = raw_slack_tokens(result.blocks, result.text_fallback)
        assert [t for t in tokens if _BROADCAST.search(t[1])] == [], tokens
    if not opt_in.get("preserve_mention_tokens"):
        ids = set(MAP.values()) if "mention_map" in opt_in else set()
        found = {el.get("user_id") or el.get("channel_id") or el.get("usergroup_id")
                 for el in typed}
        assert found <= ids, (found, result.blocks)
