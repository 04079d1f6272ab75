"""Seed 000's wire protocol as a third-party client sees it, shared by both hosts' tests.

Written from the seed's text only (its README: the WebSocket frames and their field table, the
error codes). ``tests/standalone/test_seed_client.py`` speaks it to the standalone server and
``tests/integration/test_view_seed_client.py`` to the Home Assistant view (SPEC §2: a client
written for the seed works against both hosts by changing only the URL and the token). Both use
this module's client, fake model, the seed's example frames and the exchanges that check them;
each suite keeps only its host's setup and the checks that only its host can make.

The helpers report what they saw in their assertion messages: pytest rewrites assertions in test
modules only, not in this one.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp

from tests.fake_ollama import FakeReply, answer_questions, newest_utterance

FRAME_TIMEOUT = 10.0
SEED_PARTIAL_CARD = "Canberra is the capital of Australia."
FAIL_MARKER = "zorblax"  # a newest utterance containing it makes the fake model fail (HTTP 500)
INSIGHT_MAX_CHARACTERS = 220  # the default


def seed_model(body: dict[str, Any]) -> FakeReply:
    """The fake model: fails on the marker, fact-checks Australia, answers questions."""
    newest = newest_utterance(body)
    if FAIL_MARKER in newest:
        return FakeReply(status=500)
    if "capital of Australia" in newest:
        return FakeReply(
            content={
                "intervene": True,
                "intent": "fact_check",
                "confidence": 0.94,
                "card": SEED_PARTIAL_CARD,
                "people": [],
            }
        )
    return answer_questions(body)


def seed_query(client_id: str, session_id: str) -> str:
    """The upgrade's query string as the seed shows it (URL-encoded values)."""
    return f"client_id={quote(client_id, safe='')}&session_id={quote(session_id, safe='')}"


class SeedClient:
    """A glasses client: one socket, frames read in order, types checked on the way."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Wrap an open socket."""
        self.ws = ws

    async def frame(self) -> dict[str, Any]:
        """The next frame (must be a JSON text frame)."""
        async with asyncio.timeout(FRAME_TIMEOUT):
            message = await self.ws.receive()
        assert message.type == aiohttp.WSMsgType.TEXT, message
        frame = json.loads(message.data)
        assert isinstance(frame, dict), frame
        assert isinstance(frame.get("type"), str), frame
        return frame

    async def expect(self, kind: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
        """The next frame, which must be of ``kind`` (frames of the ``skip`` types are passed)."""
        while True:
            frame = await self.frame()
            if frame["type"] in skip:
                continue
            assert frame["type"] == kind, frame
            return frame

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a JSON frame."""
        await self.ws.send_str(json.dumps(frame))

    async def roundtrip(self, frame: dict[str, Any], kind: str) -> dict[str, Any]:
        """Send a frame and return the answer of ``kind``."""
        await self.send(frame)
        return await self.expect(kind)

    async def still_usable(self) -> None:
        """A ping after anything still gets exactly its pong."""
        pong = await self.roundtrip({"type": "ping"}, "pong")
        assert pong == {"type": "pong"}, pong


async def open_seed_socket(
    http: aiohttp.ClientSession, url: str, token: str
) -> tuple[SeedClient, dict[str, Any]]:
    """Open the socket at ``url`` as the seed shows (bearer header on the upgrade); return the
    client and the ready frame the server sends first."""
    ws = await http.ws_connect(url, headers={"Authorization": f"Bearer {token}"})
    client = SeedClient(ws)
    return client, await client.expect("ready")


# -- field checks ----------------------------------------------------------------------------


def assert_iso_datetime(value: Any) -> datetime:
    """An ISO-8601 date-time string with an offset."""
    assert isinstance(value, str), value
    parsed = datetime.fromisoformat(value)
    assert parsed.tzinfo is not None, value
    return parsed


def assert_insight(frame: dict[str, Any], source: str, event_id: str) -> None:
    """The seed's insight frame: every field, its type and range."""
    assert frame["type"] == "insight", frame
    assert {"insight_id", "text", "intent", "confidence", "created_at", "source"} <= set(frame)
    assert isinstance(frame["insight_id"], str), frame
    uuid.UUID(frame["insight_id"])
    assert isinstance(frame["text"], str) and frame["text"].strip(), frame
    assert len(frame["text"]) <= INSIGHT_MAX_CHARACTERS, frame
    assert isinstance(frame["intent"], str), frame
    assert isinstance(frame["confidence"], float), frame
    assert 0.0 <= frame["confidence"] <= 1.0, frame
    created = assert_iso_datetime(frame["created_at"])
    assert abs(datetime.now(UTC) - created) < timedelta(minutes=1), frame
    assert frame["source"] == source, frame
    assert frame["event_id"] == event_id, frame


def assert_ready(
    ready: dict[str, Any], client_id: str, session_id: str, model: str, detector_mode: str
) -> None:
    """The ready frame with exactly the seed's fields (integer timings).

    Conversate hosts here are configured as the seed's ``ready`` example (debounce 400 ms,
    interval 2000 ms); heuristic ones keep the defaults (250 ms, 1500 ms) and their partials
    are ACK-only.
    """
    conversate = detector_mode == "conversate"
    assert ready == {
        "type": "ready",
        "client_id": client_id,
        "session_id": session_id,
        "model": model,
        "detector_mode": detector_mode,
        "partial_insights": conversate,
        "partial_insight_debounce_ms": 400 if conversate else 250,
        "partial_insight_interval_ms": 2000 if conversate else 1500,
    }, ready
    assert {type(v) for k, v in ready.items() if k.endswith("_ms")} == {int}, ready


# -- the seed's examples, exchanged as the seed shows them -----------------------------------


_SEED_FINAL = {
    "type": "transcript",
    "is_final": True,
    "speaker": "owner",
    "language": "en",
    "timestamp": "2026-08-31T09:31:22Z",
}
SEED_EXAMPLES: tuple[tuple[dict[str, Any], dict[str, Any]], ...] = (
    # (the seed's transcript, its exact ack)
    (
        {
            **_SEED_FINAL,
            "event_id": "soniox-result-40",
            "text": "We walked along the river this morning.",
        },
        {
            "type": "ack",
            "event_id": "soniox-result-40",
            "processed": True,
            "triggered": False,
            "reason": "no_actionable_signal",
        },
    ),
    (  # heuristic partials are ACK-only: nothing queued, no card may follow
        {
            "type": "transcript",
            "event_id": "soniox-result-41",
            "text": "What should I",
            "is_final": False,
        },
        {
            "type": "ack",
            "event_id": "soniox-result-41",
            "processed": False,
            "reason": "partial",
            "evaluation_queued": False,
            "insight_may_follow": False,
        },
    ),
    (  # an insight follows
        {
            **_SEED_FINAL,
            "event_id": "soniox-result-42",
            "text": "What should I bring to the appointment tomorrow?",
        },
        {
            "type": "ack",
            "event_id": "soniox-result-42",
            "processed": True,
            "triggered": True,
            "reason": "strong_local_signal",
        },
    ),
)


async def exchange_seed_examples(client: SeedClient) -> dict[str, Any]:
    """Seed: the final acks (nothing / insight follows), the insight card, partial ACK-only in
    heuristic mode, a Greek question, ping/pong, feedback → feedback_saved (useful true and
    false). Return the first insight."""
    for frame, expected in SEED_EXAMPLES:
        ack = await client.roundtrip(frame, "ack")
        assert ack == expected, ack
    insight = await client.expect("insight")
    assert_insight(insight, "final", "soniox-result-42")
    assert insight["intent"] == "question", insight
    # Greek ';' is a question mark too (with the seed's language hint).
    ack = await client.roundtrip(
        {
            "type": "transcript",
            "event_id": "soniox-result-43",
            "text": "Τι ώρα φεύγει το τρένο για τη Θεσσαλονίκη;",
            "language": "el",
        },
        "ack",
    )
    assert ack["triggered"] is True, ack
    assert_insight(await client.expect("insight"), "final", "soniox-result-43")
    await client.still_usable()
    for useful in (True, False):
        saved = await client.roundtrip(
            {"type": "feedback", "insight_id": insight["insight_id"], "useful": useful},
            "feedback_saved",
        )
        assert saved == {"type": "feedback_saved", "insight_id": insight["insight_id"]}, saved
    return insight


LENIENT_PLACES = (
    "bakery",
    "museum",
    "harbour",
    "station",
    "library",
    "market",
    "bridge",
    "stadium",
    "cathedral",
    "gallery",
    "theatre",
    "school",
    "cinema",
    "garden",
    "hospital",
)
LENIENT_VARIANTS: tuple[dict[str, Any], ...] = (
    {},  # is_final, event_id, speaker, language, timestamp all omitted
    {"timestamp": "2026-08-31T09:31:22Z"},
    {"timestamp": "2026-08-31T09:31:22.120000+00:00"},
    {"timestamp": "2026-08-31T12:31:22+03:00"},
    {"timestamp": "2026-08-31T09:31:22.1Z"},
    {"timestamp": "2026-08-31T09:31:22"},
    {"language": "el"},
    {"language": "en-US"},
    {"language": "pt_BR"},
    {"is_final": None, "speaker": None, "language": None, "timestamp": None},
    {"event_id": None},
    {"language": ""},
    {"language": "auto"},
    {"speaker": "s" * 100},
    {  # a Soniox forwarder may pass its own fields
        "confidence": 0.93,
        "tokens": [{"text": "We", "start_ms": 0, "end_ms": 120, "is_final": True}],
        "speaker_id": 2,
        "audio_final_proc_ms": 1200,
        "meta": {"device": "glasses"},
    },
)


async def send_lenient_transcripts(client: SeedClient) -> list[dict[str, Any]]:
    """Seed field table: only type and text are required; optional fields may be omitted or
    null; timestamps with Z, offsets, fractions or none; language hints; unknown extra fields
    are ignored; 8,000 characters is still acceptable. Each gets a final ack that triggers
    nothing, never an error. Return the frames with variants, as sent."""
    sent: list[dict[str, Any]] = []
    for index, (place, extra) in enumerate(zip(LENIENT_PLACES, LENIENT_VARIANTS, strict=True)):
        frame: dict[str, Any] = {
            "type": "transcript",
            "text": f"We walked past the {place} this morning.",
        }
        if index:
            frame["event_id"] = f"lenient-{index}"
        frame.update(extra)
        sent.append(frame)
        await client.send(frame)
        ack = await client.frame()
        assert ack["type"] == "ack", (extra, ack)
        assert ack["processed"] is True, (extra, ack)  # is_final defaults to true
        assert ack["triggered"] is False, (extra, ack)
        if frame.get("event_id") is None:
            uuid.UUID(ack["event_id"])  # defaults to a UUID
        else:
            assert ack["event_id"] == frame["event_id"], (extra, ack)
    # Exactly 8,000 characters is still acceptable, whatever the script and however the
    # client's JSON encoder escapes it (json.dumps: 12 bytes per emoji).
    for text in ("a " * 3999 + "b", "Ω" * 8000, "🙂" * 8000):
        ack = await client.roundtrip({"type": "transcript", "text": text}, "ack")
        assert ack["processed"] is True, ack
    return sent


_BAD = {"type": "transcript", "event_id": "bad-1"}
MALFORMED_FRAMES: tuple[tuple[str, str, str | None], ...] = (
    # (raw text frame, error code, the error's event_id)
    ("{not json", "invalid_message", None),
    ("[1, 2]", "invalid_message", None),
    ('"transcript"', "invalid_message", None),
    (json.dumps({"text": "no type"}), "invalid_message", None),
    (json.dumps({"type": "dance"}), "unsupported_type", None),
    (json.dumps({"type": "TRANSCRIPT", "text": "hi"}), "unsupported_type", None),
    (json.dumps({"type": "Ping"}), "unsupported_type", None),
    (json.dumps(_BAD), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": ""}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "   "}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": 42}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "x" * 8001}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "Ω" * 8001}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "hi", "speaker": "s" * 101}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "hi", "is_final": "yes"}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "hi", "timestamp": "yesterday"}), "invalid_message", "bad-1"),
    (json.dumps({**_BAD, "text": "hi", "timestamp": 1756632682}), "invalid_message", "bad-1"),
    (json.dumps({"type": "transcript", "text": "hi", "event_id": ""}), "invalid_message", None),
    (json.dumps({**_BAD, "text": "hi", "event_id": "e" * 129}), "invalid_message", None),
    (json.dumps({**_BAD, "text": "hi", "event_id": 10**200}), "invalid_message", None),
    ('{"type": "transcript", "text": "hi", "n": ' + "9" * 5000 + "}", "invalid_message", None),
    (json.dumps({"type": "feedback", "insight_id": "x"}), "invalid_message", None),
    (json.dumps({"type": "feedback", "useful": True}), "invalid_message", None),
    (
        json.dumps({"type": "feedback", "insight_id": str(uuid.uuid4()), "useful": True}),
        "invalid_message",
        None,
    ),
)
BINARY_FRAMES = (b'{"type": "ping"}', b"\x00\x01binary")


async def send_malformed_frames(client: SeedClient) -> None:
    """Seed: error codes invalid_message and unsupported_type; SPEC §6: every malformed frame
    (binary ones too) gets an error frame that is not retryable, and the socket stays usable."""
    for raw, code, event_id in MALFORMED_FRAMES:
        await client.ws.send_str(raw)
        error = await client.frame()
        assert error["type"] == "error", (raw[:60], error)
        assert error["code"] == code, (raw[:60], error)
        assert isinstance(error["message"], str) and error["message"], (raw[:60], error)
        assert error["retryable"] is False, (raw[:60], error)
        assert error.get("event_id") == event_id, (raw[:60], error)
        await client.still_usable()
    for binary in BINARY_FRAMES:
        await client.ws.send_bytes(binary)
        error = await client.expect("error")
        assert error["code"] == "invalid_message", (binary, error)
        assert error["retryable"] is False, (binary, error)
        await client.still_usable()


# -- conversate: partial insights and llm_unavailable ----------------------------------------


async def exchange_partial_insight(client: SeedClient) -> dict[str, Any]:
    """Seed: a conversate partial gets the exact ACK; a meaningful partial may later get an
    unsolicited insight with source "partial" and the partial's event_id; feedback on it is
    saved; the final of the utterance is acknowledged as processed. Return the insight."""
    ack = await client.roundtrip(
        {
            "type": "transcript",
            "event_id": "soniox-result-41",
            "text": "I read that the capital of Australia is Sydney",
            "is_final": False,
            "language": "en",
        },
        "ack",
    )
    assert ack == {
        "type": "ack",
        "event_id": "soniox-result-41",
        "processed": False,
        "reason": "partial",
        "evaluation_queued": True,
        "insight_may_follow": True,
    }, ack
    insight = await client.expect("insight")
    assert_insight(insight, "partial", "soniox-result-41")
    assert insight["intent"] == "fact_check", insight
    assert insight["text"] == SEED_PARTIAL_CARD, insight
    assert insight["confidence"] == 0.94, insight
    saved = await client.roundtrip(
        {"type": "feedback", "insight_id": insight["insight_id"], "useful": True},
        "feedback_saved",
    )
    assert saved == {"type": "feedback_saved", "insight_id": insight["insight_id"]}, saved
    ack = await client.roundtrip(
        {
            "type": "transcript",
            "event_id": "soniox-result-41",
            "text": "I read that the capital of Australia is Sydney.",
        },
        "ack",
    )
    assert ack["processed"] is True, ack
    assert ack["event_id"] == "soniox-result-41", ack
    return insight


async def exchange_llm_unavailable(client: SeedClient) -> dict[str, Any]:
    """Seed: for ack.triggered true wait for the next insight or error; llm_unavailable has
    retryable: true. The socket keeps working afterwards: the next question gets the model's
    answer, which is returned."""
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "q1", "text": f"What is a {FAIL_MARKER}?"}, "ack"
    )
    assert ack["triggered"] is True, ack
    error = await client.expect("error")
    assert error["code"] == "llm_unavailable", error
    assert error["retryable"] is True, error
    assert error["event_id"] == "q1", error
    assert isinstance(error["message"], str) and error["message"], error
    await client.still_usable()
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "q2", "text": "Where is the nearest bakery?"}, "ack"
    )
    assert ack["triggered"] is True, ack
    insight = await client.expect("insight")
    assert_insight(insight, "final", "q2")
    assert "nearest bakery" in insight["text"], insight
    return insight
