"""The one shutdown-signal path of every transport (stdio, streamable HTTP, HTTP+SSE).

SIGINT and SIGTERM end a server the same way: the transport's own stop callback runs, the
transport finishes what it has in flight, and the run returns normally (exit status 0).
"""

from __future__ import annotations

import logging
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio

__all__ = ["STOP_SIGNALS", "stop_on_signal"]

log = logging.getLogger("mcp_slack_block_kit.server")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@asynccontextmanager
async def stop_on_signal(stop: Callable[[], None]) -> AsyncIterator[None]:
    """Call ``stop()`` when the first SIGINT or SIGTERM arrives while the body runs.

    Signals can be caught only in the main thread: elsewhere (a server embedded in another
    application's thread, or a platform without signal support) the body runs unwatched and
    the embedding application stops the server by cancelling it.
    """
    try:
        receiver = anyio.open_signal_receiver(*STOP_SIGNALS)
        signals = receiver.__enter__()
    except (ValueError, RuntimeError, NotImplementedError):
        yield
        return
    try:
        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                async for signum in signals:
                    log.info("%s received: shutting down", signal.Signals(signum).name)
                    stop()
                    return

            tg.start_soon(watch)
            try:
                yield
            finally:
                tg.cancel_scope.cancel()
    finally:
        receiver.__exit__(None, None, None)
