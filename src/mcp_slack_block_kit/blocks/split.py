"""Split block lists into postable chunks, and text into pieces cut at a paragraph, else a
sentence, else a word boundary."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .limits import DEFAULT_MAX_BLOCKS_PER_CHUNK, MAX_MARKDOWN_BLOCK_SUM
from .shape import Block, decode_blocks

__all__ = ["chunk_blocks", "concat", "split_text"]

# ASCII whitespace as the spec defines it: space, TAB, LF, CR, FF, VT.
_PARAGRAPH_CUT = re.compile(rb"\n\n(?=[^\n])")
_SENTENCE_CUT = re.compile(rb"[.!?][ \t\n\r\f\v]+(?=[^ \t\n\r\f\v])")
_WORD_CUT = re.compile(rb"[ \t\n\r\f\v](?=[^ \t\n\r\f\v])")
_CUT_KINDS = (_PARAGRAPH_CUT, _SENTENCE_CUT, _WORD_CUT)  # in order of preference


def chunk_blocks(blocks: Any,
                 max_per_chunk: int = DEFAULT_MAX_BLOCKS_PER_CHUNK) -> list[list[Block]]:
    """Group ``blocks`` (a list or ``{"blocks": [...]}`` payload) into postable chunks.

    Greedy and order-preserving: at most ``max_per_chunk`` blocks (≤0 means 50), at most
    one ``table`` and at most 12,000 bytes of ``markdown`` block text per chunk (a single
    longer ``markdown`` block gets a chunk of its own). Blocks are not modified.
    Malformed input raises ``BlockDecodeError``.
    """
    return _chunk(decode_blocks(blocks), max_per_chunk)


def _chunk(blocks: Iterable[Block], max_per_chunk: int) -> list[list[Block]]:
    if max_per_chunk <= 0:
        max_per_chunk = DEFAULT_MAX_BLOCKS_PER_CHUNK
    chunks: list[list[Block]] = []
    current: list[Block] = []
    has_table = False
    markdown_total = 0
    for block in blocks:
        type_ = block["type"]
        md_len = 0
        if type_ == "markdown":
            text = block.get("text")
            md_len = len(text.encode("utf-8")) if isinstance(text, str) else 0
        if current and (
            (type_ == "table" and has_table)
            or (md_len and markdown_total + md_len > MAX_MARKDOWN_BLOCK_SUM)
            or len(current) >= max_per_chunk
        ):
            chunks.append(current)
            current, has_table, markdown_total = [], False, 0
        current.append(block)
        has_table = has_table or type_ == "table"
        markdown_total += md_len
    if current:
        chunks.append(current)
    return chunks


def concat(chunks: Iterable[str]) -> str:
    """Join the pieces of ``split_text`` back together."""
    return "".join(chunks)


def _best_cuts(pattern: re.Pattern[bytes], b: bytes, base: int, start: int,
               lo: int, hi: int) -> tuple[int, int]:
    """Largest cut ``c`` of one kind in ``[lo, hi]`` and in ``[1, lo)`` (0 when none).

    ``base`` is where the searched slice begins in ``b``; a cut's position is the end of
    its match, so ``c = match_end - start``.
    """
    best_hi = best_lo = 0
    for m in pattern.finditer(b, base, start + hi + 1):
        c = m.end() - start
        if c > hi:
            break
        if c >= lo:
            best_hi = c
        elif c >= 1:
            best_lo = c
    return best_hi, best_lo


def split_text(text: str, max_chars: int, safety_margin: int = 0) -> list[str]:
    """Break ``text`` into pieces of at most ``max_chars`` UTF-8 bytes.

    Prefers paragraph, then sentence, then word boundaries, searching first in the last
    ``safety_margin`` bytes of the window; never splits a code point, and
    ``"".join(result) == text`` always. ``max_chars`` ≤ 0 or a short text gives
    ``[text]``; a single code point wider than ``max_chars`` ends up over-long in the last
    piece. A lone surrogate (which UTF-8 cannot hold) counts as three bytes and is kept.
    """
    b = text.encode("utf-8", "surrogatepass")
    if max_chars <= 0 or len(b) <= max_chars:
        return [text]
    lo = max_chars - safety_margin if 0 < safety_margin < max_chars else 1
    pieces: list[str] = []
    start = 0
    n = len(b)
    # Terminates: each pass moves ``start`` on by ``cut`` ≥ 1, or stops (a code point
    # wider than ``max_chars`` is left whole in the last piece).
    while n - start > max_chars:
        cut = 0
        fallbacks: list[int] = []
        for pattern in _CUT_KINDS:
            base = max(0, start - 1) if pattern is _PARAGRAPH_CUT else start
            best_hi, best_lo = _best_cuts(pattern, b, base, start, lo, max_chars)
            if best_hi:
                cut = best_hi
                break
            fallbacks.append(best_lo)
        else:
            cut = next((c for c in fallbacks if c), 0)
        if not cut:
            cut = max_chars
            # Step back to the first byte of a code point (continuation bytes start 0b10).
            while cut > 0 and (b[start + cut] & 0xC0) == 0x80:
                cut -= 1
            if cut == 0:
                break
        pieces.append(b[start:start + cut].decode("utf-8", "surrogatepass"))
        start += cut
    pieces.append(b[start:].decode("utf-8", "surrogatepass"))
    return pieces
