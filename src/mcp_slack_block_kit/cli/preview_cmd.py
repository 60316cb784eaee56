"""``preview``: Block Kit Builder link, or an offline HTML page / PNG screenshot of the blocks."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._io import (
    CliError,
    add_converter_flags,
    add_input_argument,
    flush_out,
    options_from_args,
    read_json,
    read_text,
    write_out,
)

EPILOG = """\
examples:
  mcp-slack-block-kit preview blocks.json              # Block Kit Builder URL on stdout
  mcp-slack-block-kit preview blocks.json --open       # ... and open it in a browser
  mcp-slack-block-kit preview --markdown reply.md --html reply.html
  mcp-slack-block-kit preview --markdown --split reply.md --html messages.html
  mcp-slack-block-kit split reply.md | mcp-slack-block-kit preview --html messages.html
  mcp-slack-block-kit preview blocks.json --png message.png   # needs Chromium or Chrome

Input: a blocks array, a {"blocks": [...]} payload, or (for --html/--png) the messages
array printed by `split`. --html/--png write files instead of printing the URL; the HTML
page is self-contained and works offline.
"""

# Executables tried for --png, in order (Debian/Ubuntu, Fedora, Google's packages, macOS).
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
             "/usr/bin/chromium",
             "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
             "/Applications/Chromium.app/Contents/MacOS/Chromium")
_SCREEN_WIDTH = 900
_MAX_SCREEN_HEIGHT = 16384  # Chromium's own limit for one screenshot
_SCREENSHOT_TIMEOUT_S = 60


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the preview flags."""
    parser.epilog = EPILOG
    add_input_argument(parser, "Block Kit JSON (Markdown with --markdown)")
    parser.add_argument("--open", action="store_true",
                        help="also open the Builder URL (or, with --html, the page) in a "
                             "browser, when one is available")
    parser.add_argument("--html", metavar="FILE", default=None,
                        help="write the offline HTML preview to FILE instead of printing the URL")
    parser.add_argument("--png", metavar="FILE", default=None,
                        help="write a PNG screenshot of the preview (needs Chromium or Chrome)")
    parser.add_argument("--markdown", action="store_true",
                        help="the input is Markdown: convert it first (conversion options below)")
    parser.add_argument("--split", action="store_true",
                        help="preview the messages `split` would post (to_messages), one after "
                             "another; with --markdown or blocks input")
    add_converter_flags(parser)


def find_browser() -> str | None:
    """Path of a Chromium or Chrome executable, or ``None`` (``$CHROME`` wins when set)."""
    override = os.environ.get("CHROME")
    candidates = (override, *_BROWSERS) if override else _BROWSERS
    for name in candidates:
        path = shutil.which(name) if name else None
        if path:
            return path
    return None


def _estimate_height(page: str) -> int:
    """A viewport tall enough for the page (the plain CLI screenshot has no full-page mode)."""
    rows = (page.count('class="sbk-block') + page.count("<li") + page.count("<tr")
            + page.count("\n") + 2 * page.count("sbk-img-frame"))
    return min(_MAX_SCREEN_HEIGHT, 260 + 30 * rows)


def _screenshot(page: str, out: str, browser: str) -> None:
    """Write a PNG of ``page``: Playwright full-page when installed, else Chromium's CLI."""
    with tempfile.TemporaryDirectory(prefix="sbk-preview-") as tmp:
        html_path = Path(tmp, "preview.html")
        html_path.write_text(page, encoding="utf-8")
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            _screenshot_cli(page, html_path, out, browser)
            return
        try:
            with sync_playwright() as pw:
                chromium = pw.chromium.launch(executable_path=browser, args=_chromium_args(),
                                              timeout=_SCREENSHOT_TIMEOUT_S * 1000)
                try:
                    tab = chromium.new_page(viewport={"width": _SCREEN_WIDTH, "height": 600})
                    tab.goto(html_path.as_uri(), wait_until="load",
                             timeout=_SCREENSHOT_TIMEOUT_S * 1000)
                    tab.screenshot(path=out, full_page=True)
                finally:
                    chromium.close()
        except Exception as exc:  # Playwright's errors share no base class we can import cheaply
            detail = str(exc).strip().splitlines()
            raise CliError(f"--png: {browser} failed: {detail[0] if detail else exc!r}") from None


def _screenshot_cli(page: str, html_path: Path, out: str, browser: str) -> None:
    """Chromium's own ``--screenshot`` (no full-page mode: the height is estimated)."""
    cmd = [browser, "--headless", *_chromium_args(), "--hide-scrollbars",
           f"--window-size={_SCREEN_WIDTH},{_estimate_height(page)}",
           f"--screenshot={Path(out).resolve()}", html_path.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, timeout=_SCREENSHOT_TIMEOUT_S, check=False)
    if proc.returncode != 0 or not Path(out).is_file():
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise CliError(f"--png: {browser} failed: {detail[-1] if detail else proc.returncode}")


def _chromium_args() -> list[str]:
    args = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--force-device-scale-factor=1"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox
    return args


def _load(args: argparse.Namespace) -> Any:
    """The preview input: converted Markdown as a payload with its text, or the JSON given;
    with ``--split``, the messages ``to_messages`` makes of either."""
    from ..exceptions import BlockDecodeError, SlackBlockKitError

    if args.markdown:
        options = options_from_args(args)
        source: Any = read_text(args.file, options.max_input_bytes, label="convert")
    else:
        options = None
        source = read_json(args.file, hint="; for Markdown input add --markdown")
    try:
        if args.split:
            from ..messages import to_messages

            return to_messages(source, options=options)
        if not args.markdown:
            return source
        from ..converter import Converter

        result = Converter(options).convert(source)
    except BlockDecodeError as exc:
        raise CliError(f"invalid input: {exc}") from None
    except SlackBlockKitError as exc:
        raise CliError(f"convert: {exc}") from None
    return {"blocks": result.blocks, "text": result.text_fallback}


def _urls(data: Any) -> list[str]:
    from ..blocks.preview import preview_url
    from .validate_cmd import is_messages

    messages = data if is_messages(data) else [data]
    urls = []
    for message in messages:
        result = preview_url(message)
        if result.warning:
            sys.stderr.write(f"note: {result.warning}\n")
        urls.append(result.url)
    return urls


def run(args: argparse.Namespace) -> int:
    """Print the Builder URL, or write the HTML / PNG preview; errors exit 2."""
    from ..exceptions import BlockDecodeError

    for out in (args.html, args.png):
        # Checked before any work, the same way for both: Chromium would only fail late
        # and with a message of its own.
        if out is not None and not Path(out).resolve().parent.is_dir():
            raise CliError(f"write {out}: folder {Path(out).parent} does not exist")
    browser = None
    if args.png:
        browser = find_browser()
        if browser is None:
            raise CliError("--png needs Chromium or Google Chrome and none was found "
                           "(install chromium, set $CHROME, or use --html)")
    data = _load(args)
    try:
        if not (args.html or args.png):
            urls = _urls(data)
            write_out("".join(u + "\n" for u in urls))
            if args.open:
                import webbrowser

                flush_out()
                if not all(webbrowser.open(u) for u in urls):
                    sys.stderr.write("note: no browser available to open the URL\n")
            return 0
        from ..html_preview import render_html

        page = render_html(data)
    except BlockDecodeError as exc:
        raise CliError(f"invalid input: {exc}") from None
    if args.html:
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"write {args.html}: {exc.strerror or exc}") from None
    if args.png and browser is not None:
        try:
            _screenshot(page, args.png, browser)
        except (OSError, subprocess.SubprocessError) as exc:
            raise CliError(f"--png: {exc}") from None
    if args.open and args.html:
        import webbrowser

        if not webbrowser.open(Path(args.html).resolve().as_uri()):
            sys.stderr.write("note: no browser available to open the page\n")
    return 0
