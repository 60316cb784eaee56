"""Just enough PNG decoding (8-bit RGB/RGBA, non-interlaced) to tell a blank image from a page."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass


@dataclass(frozen=True)
class PngStats:
    """Size and pixel statistics of a screenshot."""

    width: int
    height: int
    luma_variance: float
    distinct_colors: int
    dark_fraction: float  # share of pixels darker than mid-grey (text, pills, buttons)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_stats(data: bytes) -> PngStats:
    """Decode ``data`` (a PNG file) and summarise its pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unsupported PNG"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    total = total_sq = dark = 0
    colors: set[bytes] = set()
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            if ftype == 1:
                line[i] = (line[i] + left) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + up) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif ftype == 4:
                upleft = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, up, upleft)) & 0xFF
        for x in range(0, stride, bpp * 2):  # every other pixel is plenty for statistics
            r, g, b = line[x], line[x + 1], line[x + 2]
            luma = (299 * r + 587 * g + 114 * b) // 1000
            total += luma
            total_sq += luma * luma
            dark += luma < 128
            if len(colors) < 4096:
                colors.add(bytes(line[x:x + 3]))
        prev = line
    n = height * ((width + 1) // 2)
    mean = total / n
    return PngStats(width, height, total_sq / n - mean * mean, len(colors), dark / n)
