"""The line model and the shared line classifier, in one import.

The code lives in four modules: ``line_model`` (``Line``, ``Kind``), ``syntax`` (what one
line is to a CommonMark reader), ``classifier`` (``classify``) and ``regions``
(paragraphs, the lines a new list item would take in). This module re-exports their
public names for the code outside the normalizer.
"""

from __future__ import annotations

from .classifier import classify, columns
from .line_model import (
    BLANK,
    CODE_KINDS,
    FENCE_CLOSE,
    FENCE_CONTENT,
    FENCE_OPEN,
    HTML,
    INDENTED_CODE,
    PROSE,
    TABLE,
    Kind,
    Line,
    is_blank,
    prose_lines,
    reassemble,
)
from .regions import FenceWalkMemo, new_item_reaches_fence, paragraphs, paragraphs_holding
from .syntax import (
    LANGUAGES,
    closes_fence,
    delimiter_row,
    holds_back_html,
    html_block_start,
    is_lazy_continuation,
    is_link_reference_definition,
    some_line_starts,
    split_one_liner,
    tilde_closers,
)

__all__ = [
    "BLANK",
    "CODE_KINDS",
    "FENCE_CLOSE",
    "FENCE_CONTENT",
    "FENCE_OPEN",
    "HTML",
    "INDENTED_CODE",
    "LANGUAGES",
    "PROSE",
    "TABLE",
    "FenceWalkMemo",
    "Kind",
    "Line",
    "classify",
    "closes_fence",
    "columns",
    "delimiter_row",
    "holds_back_html",
    "html_block_start",
    "is_blank",
    "is_lazy_continuation",
    "is_link_reference_definition",
    "new_item_reaches_fence",
    "paragraphs",
    "paragraphs_holding",
    "prose_lines",
    "reassemble",
    "some_line_starts",
    "split_one_liner",
    "tilde_closers",
]
