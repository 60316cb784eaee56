"""Every Slack Block Kit limit the package uses, in one place.

Lengths are UTF-8 byte lengths unless a name says otherwise (stricter than
Slack, which counts characters, so output can only be more conservative).
The converter, validator, linter and splitter read their numbers from here.
"""

from __future__ import annotations

from typing import Final

# Blocks per payload, by surface.
MAX_BLOCKS_PER_MESSAGE: Final = 50
MAX_BLOCKS_PER_MODAL: Final = 100  # modal and App Home tab
DEFAULT_MAX_BLOCKS_PER_CHUNK: Final = 50

# Text fields.
MAX_SECTION_TEXT_CHARS: Final = 3000
MAX_SECTION_FIELD_CHARS: Final = 2000
MAX_SECTION_FIELD_COUNT: Final = 10
MAX_HEADER_TEXT_CHARS: Final = 150
MAX_MARKDOWN_BLOCK_SUM: Final = 12000  # sum over all `markdown` blocks of one payload
MAX_MARKDOWN_TOTAL: Final = MAX_MARKDOWN_BLOCK_SUM
MAX_MESSAGE_TEXT_CHARS: Final = 12000  # text budget of one to_messages message (chosen)
# `markdown_text` of chat.postMessage / chat.update and of each streaming call (Slack docs).
MAX_MARKDOWN_TEXT_CHARS: Final = 12000

# Identifiers.
MAX_BLOCK_ID_CHARS: Final = 255
BLOCK_ID_SUFFIX_RESERVE: Final = 8  # room kept for the converter's "-<seq>" suffix
MAX_ACTION_ID_CHARS: Final = 255

# Interactive elements.
MAX_BUTTON_TEXT_CHARS: Final = 75
MAX_BUTTON_VALUE_CHARS: Final = 2000
MAX_BUTTON_URL_CHARS: Final = 3000
MAX_ACTIONS_ELEMENTS: Final = 25
MAX_CONTEXT_ELEMENTS: Final = 10

# Images.
MAX_IMAGE_ALT_TEXT_CHARS: Final = 2000
MAX_IMAGE_URL_CHARS: Final = 3000
MAX_IMAGE_TITLE_CHARS: Final = 2000

# rich_text lists: Slack accepts indent 0-8.
MAX_LIST_INDENT: Final = 8

# Tables (one per message).
MAX_TABLE_ROWS: Final = 100
MAX_TABLE_COLUMNS: Final = 20
MAX_TABLES_PER_MESSAGE: Final = 1  # a second table gives invalid_attachments

# chat.postMessage's `text` (Slack docs: longer text is refused).
MAX_POST_TEXT_CHARS: Final = 40000
# chat.update's `text` (Slack docs); its `markdown_text` is MAX_MARKDOWN_TEXT_CHARS.
MAX_UPDATE_TEXT_CHARS: Final = 4000

# Reported, not documented: measured by users who hit them (see docs/limits.md). Advisory:
# validate reports them as warnings; to_messages keeps every message inside them.
# About 13,200 characters of markdown-block text in one message fail with
# msg_blocks_too_long although the docs say 12,000 (we keep the documented 12,000).
REPORTED_MARKDOWN_BLOCK_SUM_FAILS: Final = 13200
# Slack expands a `markdown` block into one rendered block per top-level Markdown block
# (paragraph, heading, list, quote, code block, table, rule), and those count toward the
# 50-block cap (invalid_blocks with fewer than 50 blocks sent): count them that way.
# A table holds roughly 10,000 characters across its cells.
REPORTED_MAX_TABLE_CELL_CHARS: Final = 10000

# Converter input bounds.
DEFAULT_MAX_INPUT_BYTES: Final = 262144  # 256 KiB
DEFAULT_MAX_NESTING_DEPTH: Final = 100
DEFAULT_PARAGRAPH_CHAR_LIMIT: Final = 3000

# Text fallback for chat.postMessage(text=...), counted in code points.
TEXT_FALLBACK_MAX_CHARS: Final = 150

# Block Kit Builder preview links.
PRACTICAL_URL_BUDGET: Final = 8192
BUILDER_HOST: Final = "https://app.slack.com/block-kit-builder/"

# Agent steps: streaming task/plan chunks and the plan / task_card / context_actions blocks.
# Statuses and display modes as slack_sdk's TaskUpdateChunk / TaskCardBlock and chat.startStream
# define them; the text limits are reported, not documented (see docs/agent-steps.md).
TASK_STATUSES: Final = ("pending", "in_progress", "complete", "error")
TASK_DISPLAY_MODES: Final = ("timeline", "plan")
MAX_TASK_TEXT_CHARS: Final = 256  # details / output of a task (reported), in code points
MAX_TASK_TITLE_CHARS: Final = 256  # no documented limit: chosen like details, in code points
MAX_TASKS_PER_MESSAGE: Final = 50  # tasks one streamed message or plan block holds (reported)
MAX_CONTEXT_ACTIONS_ELEMENTS: Final = 5  # context_actions elements (Slack docs, slack_sdk)

# lint's near-limit findings fire at this percentage of each limit unless the caller sets
# their own (LintThresholds, the CLI's --*-pct flags, the MCP tool's thresholds).
DEFAULT_THRESHOLD_PCT: Final = 90
