"""Post a model's streamed reply to Slack through a slack_sdk client (the ``slack`` extra).

``stream_to_slack`` drives Slack's streaming methods (``chat.startStream`` /
``appendStream`` / ``stopStream``); ``post_streaming_updates`` does the same job with
``chat.postMessage`` and throttled ``chat.update`` where a surface cannot stream. Both feed
the reply through ``MarkdownStream``, so only repaired, settled, safe text reaches Slack.
``astream_to_slack`` and ``apost_streaming_updates`` are the ``AsyncWebClient`` twins.
``post_reply`` (and ``apost_reply``) posts a finished reply and walks a fallback ladder when
Slack refuses a message; ``payload_ladder`` lists the same alternatives without posting.
slack_sdk itself is imported only when a call fails; ``convert`` never needs it.
"""

from __future__ import annotations

from ._ladder import PayloadRung, ReplyResult, payload_ladder
from ._post import (
    apost_streaming_updates,
    astream_to_slack,
    post_streaming_updates,
    stream_to_slack,
)
from ._reply import apost_reply, post_reply
from ._session import PostedMessage, StreamResult

__all__ = [
    "PayloadRung",
    "PostedMessage",
    "ReplyResult",
    "StreamResult",
    "apost_reply",
    "apost_streaming_updates",
    "astream_to_slack",
    "payload_ladder",
    "post_reply",
    "post_streaming_updates",
    "stream_to_slack",
]
