"""``feedback_blocks``: the thumbs-up / thumbs-down row Slack shows under an AI reply."""

from __future__ import annotations

from typing import Any

from ..blocks.limits import MAX_ACTION_ID_CHARS, MAX_BUTTON_TEXT_CHARS, MAX_BUTTON_VALUE_CHARS
from ..exceptions import InvalidOptionsError

__all__ = ["feedback_blocks"]


def _field(name: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidOptionsError(f"{name}: expected a non-empty string, not {value!r:.60}")
    if len(value) > limit:
        raise InvalidOptionsError(f"{name}: at most {limit} characters, not {len(value)}")
    return value


def _button(name: str, text: object, value: object, label: object) -> dict[str, Any]:
    button: dict[str, Any] = {
        "text": {"type": "plain_text", "text": _field(f"{name}", text, MAX_BUTTON_TEXT_CHARS)},
        "value": _field(f"{name}_value", value, MAX_BUTTON_VALUE_CHARS),
    }
    if label is not None:
        button["accessibility_label"] = _field(f"{name}_label", label, MAX_BUTTON_VALUE_CHARS)
    return button


def feedback_blocks(action_id: str, *, positive: str = "Good response",
                    negative: str = "Bad response", positive_value: str = "positive",
                    negative_value: str = "negative", positive_label: str | None = None,
                    negative_label: str | None = None) -> list[dict[str, Any]]:
    """Return ``[context_actions block]`` holding one ``feedback_buttons`` element.

    Put it on the last message of a reply (``chat.stopStream(blocks=…)`` or
    ``chat.postMessage``); the click arrives as a ``block_actions`` payload with
    ``action_id`` and the button's value. Raises ``InvalidOptionsError`` for an empty
    field or one over Slack's limits (button text 75, value 2,000, action id 255).
    """
    element = {
        "type": "feedback_buttons",
        "action_id": _field("action_id", action_id, MAX_ACTION_ID_CHARS),
        "positive_button": _button("positive", positive, positive_value, positive_label),
        "negative_button": _button("negative", negative, negative_value, negative_label),
    }
    return [{"type": "context_actions", "elements": [element]}]
