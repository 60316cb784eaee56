"""Post a model's streamed reply to Slack through a slack_sdk client (the ``slack`` extra).

``stream_to_slack`` drives Slack's streaming methods (``chat.startStream`` /
``appendStream`` / ``stopStream``); ``post_streaming_updates`` does the same job with
``chat.postMessage`` and throttled ``chat.update`` where a surface cannot stream. Both feed
the reply through ``MarkdownStream``, so only repaired, settled, safe text reaches Slack.
``astream_to_slack`` and ``apost_streaming_updates`` are the ``AsyncWebClient`` twins.
slack_sdk itself is imported only when a call fails; ``convert`` never needs it.
"""

from __future__ import annotations

from ._post import (
    apost_streaming_updates,
    astream_to_slack,
    post_streaming_updates,
    stream_to_slack,
)
from ._session import PostedMessage, StreamResult

__all__ = [
    "PostedMessage",
    "StreamResult",
    "apost_streaming_updates",
    "astream_to_slack",
    "post_streaming_updates",
    "stream_to_slack",
]
