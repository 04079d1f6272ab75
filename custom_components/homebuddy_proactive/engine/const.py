"""Constants of the proactive engine: protocol limits, intents and configuration defaults."""

from __future__ import annotations

from typing import Final

MAX_TEXT_CHARACTERS: Final = 8000
MAX_SPEAKER_CHARACTERS: Final = 100
# The protocol limits the text to 8,000 characters (docs/protocol.md, *Limits*). A frame
# carrying that much text \u-escaped (up to 12 bytes per character) plus a forwarder's extra
# fields must still reach validation; the transport refuses anything above 1 MiB outright.
MAX_FRAME_BYTES: Final = 256 * 1024
MAX_ID_CHARACTERS: Final = 128
GLOBAL_CLIENT_ID: Final = "global"
# The household's Assist memories: a speaker linked to no glasses client reaches these.
HOUSEHOLD_CLIENT_ID: Final = "assist"

DETECTOR_CONVERSATE: Final = "conversate"
DETECTOR_HYBRID: Final = "hybrid"
DETECTOR_HEURISTIC: Final = "heuristic"
DETECTOR_MODES: Final = (DETECTOR_CONVERSATE, DETECTOR_HYBRID, DETECTOR_HEURISTIC)

INTENT_QUESTION: Final = "question"
INTENT_FACT_CHECK: Final = "fact_check"
INTENT_CONTEXT: Final = "context"
INTENT_CORRECTION: Final = "correction"
INTENT_DEFINITION: Final = "definition"
INTENT_SUGGESTION: Final = "suggestion"
INTENT_WARNING: Final = "warning"
INTENT_REMINDER: Final = "reminder"
INTENT_TASK: Final = "task"
INTENT_DECISION: Final = "decision"
INTENT_ENTITY_CONTEXT: Final = "entity_context"
INTENTS: Final = (
    INTENT_QUESTION,
    INTENT_FACT_CHECK,
    INTENT_CONTEXT,
    INTENT_CORRECTION,
    INTENT_DEFINITION,
    INTENT_SUGGESTION,
    INTENT_WARNING,
    INTENT_REMINDER,
    INTENT_TASK,
    INTENT_DECISION,
    INTENT_ENTITY_CONTEXT,
)
# Intents that may bypass the low-priority cooldown.
HIGH_PRIORITY_INTENTS: Final = frozenset(
    {INTENT_QUESTION, INTENT_WARNING, INTENT_REMINDER, INTENT_TASK, INTENT_CORRECTION}
)

MEMORY_KINDS: Final = ("fact", "preference", "person", "reminder", "task")

SOURCE_FINAL: Final = "final"
SOURCE_PARTIAL: Final = "partial"

ERROR_INVALID_MESSAGE: Final = "invalid_message"
ERROR_UNSUPPORTED_TYPE: Final = "unsupported_type"
ERROR_LLM_UNAVAILABLE: Final = "llm_unavailable"
ERROR_STORAGE_UNAVAILABLE: Final = "storage_unavailable"

CLOSE_POLICY_VIOLATION: Final = 1008
CLOSE_GOING_AWAY: Final = 1001
