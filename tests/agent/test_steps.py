"""AgentSteps and feedback_blocks: Slack's chunk and block shapes, limits, grouping, safety."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slack_sdk.models.blocks import Block
from slack_sdk.models.messages.chunk import Chunk

from mcp_slack_block_kit import (
    AgentSteps,
    InvalidOptionsError,
    Options,
    feedback_blocks,
    validate,
)
from mcp_slack_block_kit.blocks.limits import (
    MAX_TASK_TEXT_CHARS,
    MAX_TASK_TITLE_CHARS,
    MAX_TASKS_PER_MESSAGE,
    TASK_STATUSES,
)

LIVE_TOKEN = re.compile(r"<[!@#]")
TYPED_PINGS = {"user", "channel", "usergroup", "broadcast"}


def _walk(value: Any) -> list[dict[str, Any]]:
    """Every dict inside ``value`` (depth first)."""
    out: list[dict[str, Any]] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            out.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return out


def _sdk_chunk(chunk: dict[str, Any]) -> dict[str, Any]:
    parsed = Chunk.parse(chunk)
    assert parsed is not None, chunk
    return parsed.to_dict()


def _sdk_block(block: dict[str, Any]) -> dict[str, Any]:
    parsed = Block.parse(block)
    assert parsed is not None, block
    return parsed.to_dict()


def test_start_sends_the_plan_title_once_then_task_updates() -> None:
    """The first change of a titled plan carries its plan_update; later ones do not."""
    steps = AgentSteps(title="Answering your question")
    first = steps.start("search", "Searching the runbooks")
    assert first == [
        {"type": "plan_update", "title": "Answering your question"},
        {"type": "task_update", "id": "search", "title": "Searching the runbooks",
         "status": "in_progress"},
    ]
    second = steps.update("search", status="complete", output="Found 3 pages")
    assert second == [{"type": "task_update", "id": "search", "title": "Searching the runbooks",
                       "status": "complete", "output": "Found 3 pages"}]


def test_unknown_id_starts_a_step_titled_by_its_id() -> None:
    steps = AgentSteps()
    [chunk] = steps.update("deploy", status="error", details="Permission denied")
    assert chunk == {"type": "task_update", "id": "deploy", "title": "deploy", "status": "error",
                     "details": "Permission denied"}


def test_markdown_is_repaired_and_flattened_and_links_become_sources() -> None:
    """Details are converted like a reply: markup removed in the chunk, kept as rich text in
    the card, and the link's URL joins the sources rather than being lost."""
    steps = AgentSteps()
    [chunk] = steps.start("s", "Search", output="Found **3 pages** in [the runbook]\n(https://wiki.example.com/rb)")
    assert chunk["output"] == "Found 3 pages in the runbook"
    assert chunk["sources"] == [{"type": "url", "url": "https://wiki.example.com/rb",
                                 "text": "wiki.example.com"}]
    [plan] = steps.to_blocks()
    section = plan["tasks"][0]["output"]["elements"][0]["elements"]
    assert {"type": "text", "text": "3 pages", "style": {"bold": True}} in section
    assert {"type": "link", "url": "https://wiki.example.com/rb", "text": "the runbook"} in section


def test_text_keeps_characters_in_cards_and_escapes_them_in_chunks() -> None:
    """`&`, `<`, `>` reach the card as characters (rich_text is shown literally) and the chunk
    string as entities; nothing is decoded twice (Markdown's `&amp;lt;` is the text `&lt;`)."""
    steps = AgentSteps()
    [chunk] = steps.start("s", "S", details="R&D: a < b, literally &amp;lt;")
    assert chunk["details"] == "R&amp;D: a &lt; b, literally &amp;lt;"
    card = steps.to_blocks()[0]["tasks"][0]
    assert card["details"]["elements"][0]["elements"] == [
        {"type": "text", "text": "R&D: a < b, literally &lt;"}]


@pytest.mark.parametrize("hostile", ["<!here> now", "<!channel>", "<@U0123ABCD> look",
                                     "<!subteam^S0123ABCD>", "<#C0123ABCD>", "@here and @channel"])
def test_tool_output_cannot_ping(hostile: str) -> None:
    """A tool's output can't broadcast or mention: no live token in the chunk, no typed
    element in the card, unless the caller opted in."""
    steps = AgentSteps()
    chunks = steps.start("t", "Tool", details=hostile, output=hostile,
                         sources=[{"url": "https://x.example.com", "text": hostile}])
    for chunk in chunks:
        for name in ("details", "output"):
            assert not LIVE_TOKEN.search(chunk.get(name, "")), chunk
        for source in chunk.get("sources", []):
            assert not LIVE_TOKEN.search(source["text"])
    kinds = {d.get("type") for d in _walk(steps.to_blocks())}
    assert not kinds & TYPED_PINGS


def test_mention_map_makes_a_real_mention() -> None:
    """A mapped handle is a deliberate mention: a token in the chunk, a user element in the card."""
    steps = AgentSteps(options=Options(mention_map={"alice": "U012AB3CD"}))
    [chunk] = steps.start("t", "Notify", output="paged @alice")
    assert chunk["output"] == "paged <@U012AB3CD>"
    assert {"type": "user", "user_id": "U012AB3CD"} in _walk(steps.to_blocks())


def test_allow_broadcasts_keeps_the_broadcast() -> None:
    steps = AgentSteps(options=Options(allow_broadcasts=True))
    [chunk] = steps.start("t", "Announce", output="<!here> deploy done")
    assert chunk["output"].startswith("<!here>")


def test_long_text_is_cut_at_a_word_with_an_ellipsis() -> None:
    steps = AgentSteps()
    words = " ".join(f"word{i}" for i in range(200))
    [chunk] = steps.start("t", "T " + "x" * 400, details=words)
    details = chunk["details"]
    assert len(details) <= MAX_TASK_TEXT_CHARS and details.endswith("…")
    assert words.startswith(details[:-1]) and words[len(details) - 1] == " "
    assert len(chunk["title"]) <= MAX_TASK_TITLE_CHARS and chunk["title"].endswith("…")


def test_cut_counts_entities_and_never_splits_one() -> None:
    """The budget holds for the escaped string, and an entity is never cut in half."""
    steps = AgentSteps()
    [chunk] = steps.start("t", "T", details="&" * 400)
    assert len(chunk["details"]) <= MAX_TASK_TEXT_CHARS
    assert re.fullmatch(r"(?:&amp;)+…", chunk["details"])


def test_refused_and_malformed_source_urls_are_dropped() -> None:
    steps = AgentSteps()
    urls = ["javascript:alert(1)", "\x0bjavascript:alert(1)", "java\tscript:x", "file:///etc/passwd",
            "data:text/html,x", "/relative", "https://", "https://ok.example.com/a b",
            "HTTPS://fine.example.com/p"]
    [chunk] = steps.start("t", "T", sources=urls)
    assert [s["url"] for s in chunk["sources"]] == ["HTTPS://fine.example.com/p"]


def test_two_hundred_tool_calls_stay_within_the_task_budget() -> None:
    """200 steps fit in Slack's task budget: the steps past the budget fold into the last card,
    which counts them, and every chunk still names a card the message shows."""
    steps = AgentSteps(title="Research")
    card_ids: set[str] = set()
    for i in range(200):
        for chunk in steps.start(f"call-{i}", f"Searching page {i}", kind="search"):
            if chunk["type"] == "task_update":
                card_ids.add(chunk["id"])
        steps.update(f"call-{i}", status="complete")
    assert len(card_ids) == MAX_TASKS_PER_MESSAGE
    [plan] = steps.to_blocks()
    assert len(plan["tasks"]) == MAX_TASKS_PER_MESSAGE
    last = plan["tasks"][-1]
    assert last["title"] == f"search (×{200 - MAX_TASKS_PER_MESSAGE + 1})"
    assert last["status"] == "complete"
    assert len(steps) == 200


def test_grouped_card_status_reports_any_error() -> None:
    steps = AgentSteps(max_tasks=2)
    steps.start("a", "A")
    steps.start("b", "B", kind="fetch")
    steps.start("c", "C", kind="fetch")
    [chunk] = steps.update("c", status="error", details="timeout")
    assert chunk["id"] == "b" and chunk["status"] == "error" and chunk["title"] == "fetch (×2)"
    steps.update("b", status="complete")
    mixed = steps.start("d", "D", kind="other")[-1]
    assert mixed["title"] == "B and 2 more steps"


def test_chunks_replay_the_whole_state() -> None:
    steps = AgentSteps(title="Plan")
    steps.start("a", "A")
    steps.update("a", status="complete")
    steps.start("b", "B")
    assert steps.chunks() == [
        {"type": "plan_update", "title": "Plan"},
        {"type": "task_update", "id": "a", "title": "A", "status": "complete"},
        {"type": "task_update", "id": "b", "title": "B", "status": "in_progress"},
    ]


def test_no_steps_no_blocks() -> None:
    assert AgentSteps(title="x").to_blocks() == []


@pytest.mark.parametrize(("call", "message"), [
    (lambda s: s.start("", "x"), "id"),
    (lambda s: s.start("a", ""), "title"),
    (lambda s: s.update("a", status="done"), "status"),
    (lambda s: s.update("a", details=5), "details"),
    (lambda s: s.update("a", sources="https://x.example.com"), "sources"),
    (lambda s: s.update("a", sources=[5]), "sources"),
    (lambda s: s.update("a" * 300), "id"),
])
def test_bad_arguments_raise_invalid_options(call: Any, message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        call(AgentSteps())


@pytest.mark.parametrize("max_tasks", [0, 51, True, "5"])
def test_bad_max_tasks(max_tasks: Any) -> None:
    with pytest.raises(InvalidOptionsError, match="max_tasks"):
        AgentSteps(max_tasks=max_tasks)


# ------------------------------------------------------------------------- properties

_hostile = st.sampled_from([
    "<!here>", "<!channel>", "<!everyone>", "<@U0123ABCD>", "<#C0123ABCD>", "<!subteam^S1>",
    "[x](!channel)", "[y](javascript:alert(1))", "**bold", "`code <!here>`", "&amp;", "&", "<",
    "\n\n# heading\n\n", "- item\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", "```\n<!here>\n```",
    ":tada:", "@alice", "https://ok.example.com/x", " ", "word", "\u00e9\u0301", "\U0001f600",
])
_markdown = st.lists(st.one_of(_hostile, st.text(max_size=40)), max_size=40).map("".join)
_update = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "b", "c", "d", "e", "f"])},
    optional={"status": st.sampled_from(TASK_STATUSES), "details": _markdown,
              "output": _markdown, "title": st.text(min_size=1, max_size=300).filter(str.strip),
              "kind": st.sampled_from(["search", "fetch"]),
              "sources": st.lists(st.sampled_from(["https://a.example.com", "javascript:x",
                                                   "\x01https://b.example.com", "ftp://c"]),
                                  max_size=3)})


@settings(max_examples=150)
@given(updates=st.lists(_update, min_size=1, max_size=25), max_tasks=st.integers(1, 6))
def test_every_payload_is_slack_shaped_small_and_safe(updates: list[dict[str, Any]],
                                                      max_tasks: int) -> None:
    """Whatever the steps hold, every chunk and block round-trips through slack_sdk's own
    models, stays inside the field and task limits, links only http(s) URLs and never pings."""
    steps = AgentSteps(title="Working", max_tasks=max_tasks)
    cards: set[str] = set()
    for update in updates:
        for chunk in steps.update(**update):
            assert _sdk_chunk(chunk) == chunk
            if chunk["type"] != "task_update":
                continue
            cards.add(chunk["id"])
            assert chunk["status"] in TASK_STATUSES
            assert len(chunk["title"]) <= MAX_TASK_TITLE_CHARS
            for name in ("details", "output"):
                assert len(chunk.get(name, "")) <= MAX_TASK_TEXT_CHARS
                assert not LIVE_TOKEN.search(chunk.get(name, ""))
            for source in chunk.get("sources", []):
                assert re.match(r"https?://", source["url"], re.IGNORECASE)
    assert len(cards) <= max_tasks
    blocks = steps.to_blocks()
    result = validate(blocks)
    assert result.valid and result.warnings == [], result
    for block in blocks:
        assert _sdk_block(block) == block
        for card in block["tasks"]:
            assert _sdk_block(card) == card
    assert not {d.get("type") for d in _walk(blocks)} & TYPED_PINGS
    links = [d["url"] for d in _walk(blocks) if d.get("type") in ("link", "url")]
    assert all(re.match(r"https?://", u, re.IGNORECASE) for u in links)


# ------------------------------------------------------------------------- feedback


def test_feedback_blocks_round_trip_through_slack_sdk() -> None:
    blocks = feedback_blocks("reply_feedback", positive_label="Helpful", negative_label="Not helpful")
    assert [_sdk_block(b) for b in blocks] == blocks
    element = blocks[0]["elements"][0]
    assert element["type"] == "feedback_buttons" and element["action_id"] == "reply_feedback"
    assert element["positive_button"]["value"] == "positive"
    assert element["negative_button"]["accessibility_label"] == "Not helpful"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"action_id": ""}, "action_id"),
    ({"action_id": "a" * 256}, "action_id"),
    ({"action_id": "a", "positive": "x" * 76}, "positive"),
    ({"action_id": "a", "negative_value": "v" * 2001}, "negative_value"),
    ({"action_id": "a", "positive": 3}, "positive"),
])
def test_feedback_blocks_refuse_what_slack_would(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        feedback_blocks(**kwargs)
