"""The glasses WebSocket protocol (see docs/protocol.md, *Frames*): parse and validate incoming
frames, build outgoing ones.

Incoming frames become typed events or a :class:`ProtocolError` carrying the error code the
client receives; nothing here touches a socket.
"""

from __future__ import annotations

import json
import re
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, NamedTuple

import orjson

from ..const import (
    ERROR_INVALID_MESSAGE,
    ERROR_UNSUPPORTED_TYPE,
    MAX_FRAME_BYTES,
    MAX_ID_CHARACTERS,
    MAX_SPEAKER_CHARACTERS,
    MAX_TEXT_CHARACTERS,
)

_LANGUAGE_RE: Final = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$")
# Invisible characters an id must not hold: Unicode's controls (Cc: C0, DEL, C1 such as U+0085)
# and format characters (Cf: zero-width spaces and joiners, bidirectional marks, U+FEFF), and
# the line and paragraph separators (Zl, Zp). Two ids that look the same must be the same.
_ID_FORBIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp"})
# Frames of at most this many characters are within MAX_FRAME_BYTES whatever they hold.
_SURELY_SMALL_CHARACTERS: Final = MAX_FRAME_BYTES // 4
# Timestamps outside these bounds are a broken clock (and near datetime's own limits any
# conversion or arithmetic overflows): refused rather than stored.
EARLIEST_TIMESTAMP: Final = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_TIMESTAMP: Final = datetime(3000, 1, 1, tzinfo=UTC)


def is_valid_unicode(value: str) -> bool:
    """Whether the text can be encoded as UTF-8 (no lone surrogates such as ``\\ud800``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class ProtocolError(Exception):
    """A frame the client sent is not acceptable; the socket stays open."""

    def __init__(self, code: str, message: str, event_id: str | None = None) -> None:
        """Carry the wire error code, a human message and the event id when known."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.event_id = event_id


class TranscriptEvent(NamedTuple):
    """A validated ``transcript`` frame (a tuple: one per frame, built in a third of a frozen
    dataclass's time)."""

    event_id: str
    text: str
    is_final: bool
    speaker: str | None
    language: str | None
    timestamp: datetime


@dataclass(frozen=True, kw_only=True)
class PingEvent:
    """A ``ping`` frame."""


@dataclass(frozen=True, kw_only=True)
class FeedbackEvent:
    """A validated ``feedback`` frame."""

    insight_id: str
    useful: bool


IncomingEvent = TranscriptEvent | PingEvent | FeedbackEvent


def validate_identifier(name: str, value: str | None) -> str:
    """Validate a client_id or session_id query value; raise ValueError with a reason."""
    if value is None or not value.strip():
        raise ValueError(f"{name} is required")
    if not is_valid_unicode(value):
        raise ValueError(f"{name} must be valid Unicode text (no lone surrogates)")
    if len(value) > MAX_ID_CHARACTERS:
        raise ValueError(f"{name} must be at most {MAX_ID_CHARACTERS} characters")
    if value != value.strip() or any(
        unicodedata.category(character) in _ID_FORBIDDEN_CATEGORIES for character in value
    ):
        raise ValueError(
            f"{name} must not contain control or invisible formatting characters, line "
            "separators or surrounding spaces"
        )
    return value


def parse_frame(raw: str, now: datetime) -> IncomingEvent:
    """Parse one text frame into an event, or raise :class:`ProtocolError`."""
    # A character is at most 4 bytes in UTF-8: only a long frame needs encoding to be measured.
    if len(raw) > _SURELY_SMALL_CHARACTERS and (
        len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES
    ):
        raise ProtocolError(ERROR_INVALID_MESSAGE, f"frame larger than {MAX_FRAME_BYTES} bytes")
    data = _decode(raw)
    # orjson decodes no lone surrogate (it refuses them): its strings need no Unicode check.
    unicode_checked = data is not None
    if data is None:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):  # JSONDecodeError, or a number beyond int limits
            raise ProtocolError(ERROR_INVALID_MESSAGE, "frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(ERROR_INVALID_MESSAGE, "frame must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise ProtocolError(ERROR_INVALID_MESSAGE, "field 'type' must be a non-empty string")
    if not unicode_checked:
        _check_unicode("type", kind)
    if kind == "transcript":
        return _parse_transcript(data, now, unicode_checked)
    if kind == "ping":
        return PingEvent()
    if kind == "feedback":
        return _parse_feedback(data)
    raise ProtocolError(ERROR_UNSUPPORTED_TYPE, f"unsupported message type {kind[:40]!r}")


def _decode(raw: str) -> Any:
    """The frame decoded by orjson, or None where :func:`json.loads` must decide.

    orjson refuses what the standard decoder accepts (lone surrogates, NaN, numbers beyond
    its range, very deep nesting) and reads a huge integer as a float: such a frame is decoded
    again by the standard decoder, so the answer to any frame stays the same.
    """
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if isinstance(data, dict) and isinstance(data.get("event_id"), float):
        return None  # perhaps an integer id beyond 64 bits, which the standard decoder keeps
    return data


def _parse_transcript(
    data: dict[str, Any], now: datetime, unicode_checked: bool = False
) -> TranscriptEvent:
    event_id = data.get("event_id")
    if event_id is None:
        event_id = str(uuid.uuid4())
    else:
        if isinstance(event_id, int) and not isinstance(event_id, bool):
            event_id = str(event_id)  # numeric result ids are ids too
        if not isinstance(event_id, str) or not event_id.strip():
            raise ProtocolError(ERROR_INVALID_MESSAGE, "event_id must be a non-empty string")
        if len(event_id) > MAX_ID_CHARACTERS:
            raise ProtocolError(
                ERROR_INVALID_MESSAGE, f"event_id must be at most {MAX_ID_CHARACTERS} characters"
            )
        if not unicode_checked:
            _check_unicode("event_id", event_id)

    def fail(message: str) -> ProtocolError:
        return ProtocolError(ERROR_INVALID_MESSAGE, message, event_id)

    text = data.get("text")
    if not isinstance(text, str):
        raise fail("text is required and must be a string")
    stripped = text.strip()
    if not stripped:
        raise fail("text must not be empty")
    if len(text) > MAX_TEXT_CHARACTERS:
        raise fail(f"text must be at most {MAX_TEXT_CHARACTERS:,} characters")
    if not unicode_checked:
        _check_unicode("text", text, event_id)

    is_final = data.get("is_final")
    if is_final is None:
        is_final = True  # optional: omitted or null means final (docs/protocol.md, *Frames*)
    if not isinstance(is_final, bool):
        raise fail("is_final must be true or false")

    speaker = data.get("speaker")
    if speaker is not None:
        if not isinstance(speaker, str):
            raise fail("speaker must be a string")
        if len(speaker) > MAX_SPEAKER_CHARACTERS:
            raise fail(f"speaker must be at most {MAX_SPEAKER_CHARACTERS} characters")
        if not unicode_checked:
            _check_unicode("speaker", speaker, event_id)
        speaker = speaker.strip() or None

    language = data.get("language")
    if language is not None:
        if not isinstance(language, str):
            raise fail("language must be a language code such as 'en' or 'el'")
        if not unicode_checked:
            _check_unicode("language", language, event_id)
        # Only a hint: one that is no language code ("", "auto") is ignored, not an error
        # that would cost the transcript; the language is then detected from the text.
        language = language.strip()
        if not _LANGUAGE_RE.match(language):
            language = None

    stamp = data.get("timestamp")
    timestamp = now if stamp is None else _timestamp(stamp, event_id, unicode_checked)

    return TranscriptEvent(
        event_id=event_id,
        text=stripped,
        is_final=is_final,
        speaker=speaker,
        language=language,
        timestamp=timestamp,
    )


def _timestamp(value: object, event_id: str, unicode_checked: bool) -> datetime:
    """A frame's own timestamp, in UTC (one without is stamped with its arrival)."""

    def fail(message: str) -> ProtocolError:
        return ProtocolError(ERROR_INVALID_MESSAGE, message, event_id)

    if not isinstance(value, str):
        raise fail("timestamp must be an ISO-8601 string")
    if not unicode_checked:
        _check_unicode("timestamp", value, event_id)
    try:
        timestamp = datetime.fromisoformat(value.strip())
    except ValueError:
        raise fail("timestamp must be an ISO-8601 date and time") from None
    if timestamp.tzinfo is None:
        timestamp = timestamp.replace(tzinfo=UTC)
    try:
        timestamp = timestamp.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00 is before year 1 in UTC
        timestamp = EARLIEST_TIMESTAMP - timedelta(days=1)
    if not EARLIEST_TIMESTAMP <= timestamp < LATEST_TIMESTAMP:
        raise fail(
            f"timestamp must be between {EARLIEST_TIMESTAMP.year} and {LATEST_TIMESTAMP.year} (UTC)"
        )
    return timestamp


def _parse_feedback(data: dict[str, Any]) -> FeedbackEvent:
    insight_id = data.get("insight_id")
    if not isinstance(insight_id, str) or not insight_id.strip():
        raise ProtocolError(ERROR_INVALID_MESSAGE, "insight_id must be a non-empty string")
    if len(insight_id) > MAX_ID_CHARACTERS:
        raise ProtocolError(ERROR_INVALID_MESSAGE, "insight_id is too long")
    _check_unicode("insight_id", insight_id)
    useful = data.get("useful")
    if not isinstance(useful, bool):
        raise ProtocolError(ERROR_INVALID_MESSAGE, "useful must be true or false")
    return FeedbackEvent(insight_id=insight_id, useful=useful)


def _check_unicode(name: str, value: str, event_id: str | None = None) -> None:
    if not is_valid_unicode(value):
        raise ProtocolError(
            ERROR_INVALID_MESSAGE,
            f"{name} must be valid Unicode text (no lone surrogates)",
            event_id,
        )


def error_frame(
    code: str, message: str, *, event_id: str | None = None, retryable: bool = False
) -> dict[str, Any]:
    """Build an ``error`` frame."""
    frame: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": message,
        "retryable": retryable,
    }
    if event_id is not None:
        frame["event_id"] = event_id
    return frame
