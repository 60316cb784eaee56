"""Offline, self-contained HTML preview of Block Kit that looks like a Slack message."""

from __future__ import annotations

from ._render import render_html

__all__ = ["render_html"]
