"""``stream``: replay Markdown as a model's deltas and print what MarkdownStream commits."""

from __future__ import annotations

import argparse
import sys
import time

from ._io import CliError, add_converter_flags, add_input_argument, options_from_args, write_json

EPILOG = """\
examples:
  mcp-slack-block-kit stream reply.md
  printf 'Hello **wor' | mcp-slack-block-kit stream --delta-chars 2
  mcp-slack-block-kit stream reply.md --json --delay-ms 30

The input is cut into deltas of --delta-chars characters and fed to MarkdownStream;
each committed event is printed as it happens: `[message N] +"text"` (the text to
append to Slack message N, 0 being the first), or with --json one object per line,
{"delta": i, "message": N, "text": "..."} (delta is the index of the delta that
released it; the events of finish() carry "delta": null). Once something went out, the
stream reads deltas together, when --step-chars characters are pending (32, as
MarkdownStream does; 1 shows what each delta alone releases). The repair and mention
flags work as in convert. Guarantees: docs/streaming.md.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the stream flags."""
    parser.epilog = EPILOG
    add_input_argument(parser)
    parser.add_argument("--delta-chars", type=int, default=4, metavar="N",
                        help="characters per delta (default 4)")
    parser.add_argument("--delay-ms", type=int, default=0, metavar="N",
                        help="pause N milliseconds after each delta (default 0)")
    parser.add_argument("--max-message-chars", type=int, default=12_000, metavar="N",
                        help="cap on one message's text (default 12000)")
    parser.add_argument("--step-chars", type=int, default=32, metavar="N",
                        help="once something went out, deltas wait until N characters "
                             "are pending, then are read as one (default 32; 1: read each "
                             "delta at once)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per event")
    add_converter_flags(parser, blocks=False)


def run(args: argparse.Namespace) -> int:
    """Replay the input and print the events; exit 0 on readable input."""
    from ..exceptions import InvalidOptionsError
    from ..streaming import MarkdownStream
    from ._io import read_text

    if args.delta_chars < 1:
        raise CliError(f"--delta-chars must be at least 1, not {args.delta_chars}")
    if args.delay_ms < 0:
        raise CliError(f"--delay-ms cannot be negative ({args.delay_ms})")
    text = read_text(args.file)
    options = options_from_args(args)
    try:
        stream = MarkdownStream(options, max_message_chars=args.max_message_chars,
                                step_chars=args.step_chars)
    except InvalidOptionsError as exc:
        raise CliError(str(exc)) from None
    step = args.delta_chars
    delay = args.delay_ms / 1000
    for i, start in enumerate(range(0, len(text), step)):
        _print(stream.push(text[start : start + step]), i, args.json)
        if delay:
            time.sleep(delay)
    _print(stream.finish(), None, args.json)
    return 0


def _print(events: list, delta: int | None, as_json: bool) -> None:  # type: ignore[type-arg]
    for event in events:
        if as_json:
            write_json({"delta": delta, "message": event.message, "text": event.text})
        else:
            sys.stdout.write(f"[message {event.message}] +{_quote(event.text)}\n")
    if events:
        sys.stdout.flush()


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
