"""Agent progress for Slack: task and plan chunks, plan blocks of task cards, feedback buttons."""

from __future__ import annotations

from .feedback import feedback_blocks
from .steps import AgentSteps, Step

__all__ = ["AgentSteps", "Step", "feedback_blocks"]
