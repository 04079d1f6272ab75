"""Property-based fuzzing shared by both hosts: poison frames and requests from hypothesis.

The strategies mix well-formed protocol values with the values that once killed a socket or
answered 500: lone surrogates, timestamps whose UTC value leaves datetime's range, integers of
hundreds of digits, ids past SQLite's 64 bits. :func:`examples` draws a bounded, reproducible
set (hypothesis drives the generation; the host tests send them over a real socket, where a
coroutine cannot run inside ``@given``), so every failure names the frame that caused it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import aiohttp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\udce9\udce8", "x\ud83d"])
POISON_TEXT = st.one_of(
    SURROGATES,
    st.text(max_size=12),
    st.just(""),
    st.just("   "),
    st.sampled_from(["\x00", "\u202e", "null", "🙂" * 3]),
)
TIMESTAMPS = st.one_of(
    st.sampled_from(
        [
            "0001-01-01T00:00:00+01:00",
            "9999-12-31T23:59:59-01:00",
            "0001-01-01T00:00:00",
            "9999-12-31T23:59:59",
            "2026-08-31T09:00:00+02:00",
            "2026-13-45T99:00:00",
            "not a date",
        ]
    ),
    st.datetimes().map(lambda d: d.isoformat()),
    POISON_TEXT,
)
HUGE_INTS = st.one_of(
    st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**400, -(10**400)]),
    st.integers(),
)
SCALARS = st.one_of(
    st.none(), st.booleans(), HUGE_INTS, st.floats(allow_nan=False), POISON_TEXT, TIMESTAMPS
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(POISON_TEXT, inner, max_size=3),
    max_leaves=6,
)


# Ids with invisible characters an id must refuse (controls, format characters, separators).
QUERY_TEXT = st.sampled_from(["a\u0085b", "a\u200bb", "a\u2028b", "\ufeffa", "a\x00b", " a"])


def _field(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a valid value, sometimes any JSON value (poison included)."""
    return st.one_of(valid, valid, JSON_VALUES)


TRANSCRIPT = st.fixed_dictionaries(
    {"type": st.just("transcript")},
    optional={
        "event_id": _field(st.text(min_size=1, max_size=20) | SURROGATES | HUGE_INTS),
        "text": _field(st.sampled_from(["What time is it?", "hello", "remind me"]) | SURROGATES),
        "is_final": _field(st.booleans()),
        "speaker": _field(st.sampled_from(["me", "Anna"]) | SURROGATES),
        "language": _field(st.sampled_from(["en", "fr", "auto"]) | SURROGATES),
        "timestamp": TIMESTAMPS,
    },
)
FEEDBACK = st.fixed_dictionaries(
    {"type": st.just("feedback")},
    optional={
        "insight_id": _field(st.text(min_size=1, max_size=20) | SURROGATES),
        "useful": _field(st.booleans()),
    },
)
OTHER = st.fixed_dictionaries({"type": JSON_VALUES}) | JSON_VALUES
FRAMES = st.one_of(TRANSCRIPT, TRANSCRIPT, FEEDBACK, OTHER).map(json.dumps)
# Raw text that is not JSON, or JSON that Python cannot read (a 5,000-digit number).
RAW_FRAMES = st.one_of(
    FRAMES,
    st.text(max_size=30),
    st.just('{"type":"transcript","text":"a","event_id":' + "9" * 5000 + "}"),
)

MEMORY_BODY = st.fixed_dictionaries(
    {},
    optional={
        "client_id": _field(st.sampled_from(["fuzz-client", "global"]) | SURROGATES),
        "kind": _field(st.sampled_from(["fact", "preference"]) | SURROGATES),
        "content": _field(st.sampled_from(["likes tea", "x"]) | SURROGATES),
        "importance": _field(st.floats(0, 1) | HUGE_INTS),
        "steps": _field(st.lists(POISON_TEXT, max_size=3)),
        "summary": _field(POISON_TEXT),
    },
)
# Our Home Assistant actions, with mostly plausible fields and poison mixed in.
ACTION_IDS = _field(st.integers(min_value=-3, max_value=10) | HUGE_INTS | st.just(999_999_999))
ACTION_CALLS = st.one_of(
    st.tuples(st.just("add_memory"), MEMORY_BODY),
    st.tuples(
        st.just("add_memory"),
        st.fixed_dictionaries(
            {"client_id": st.just("fuzz-client")},
            optional={
                "store": _field(st.sampled_from(["factual", "procedural", "affective"])),
                "name": _field(POISON_TEXT),
                "sentiment": _field(st.floats(-1, 1) | HUGE_INTS),
                "emotions": _field(st.lists(POISON_TEXT, max_size=3)),
                "difficulty": _field(st.sampled_from(["easy", "hard"])),
            },
        ),
    ),
    st.tuples(
        st.sampled_from(["update_memory", "forget_memory", "memory_history"]),
        st.fixed_dictionaries(
            {"memory_id": ACTION_IDS},
            optional={
                "store": _field(st.sampled_from(["factual", "episodic", "affective"])),
                "content": _field(st.sampled_from(["likes coffee", ""]) | SURROGATES),
                "name": _field(POISON_TEXT),
                "importance": _field(st.floats(0, 1) | HUGE_INTS),
                "client_id": _field(st.sampled_from(["fuzz-client"]) | QUERY_TEXT),
            },
        ),
    ),
    st.tuples(
        st.sampled_from(["list_memories", "export_memories"]),
        st.fixed_dictionaries({"client_id": _field(st.sampled_from(["fuzz-client"]) | QUERY_TEXT)}),
    ),
    st.tuples(
        st.sampled_from(["cancel_alarm", "cancel_reminder"]),
        st.fixed_dictionaries(
            {},
            optional={
                "alarm_id": ACTION_IDS,
                "reminder_id": ACTION_IDS,
                "all": _field(st.booleans()),
                "time": _field(st.sampled_from(["07:30", "25:99"])),
            },
        ),
    ),
)
SIGNIN_BODY = st.fixed_dictionaries(
    {}, optional={"username": _field(POISON_TEXT), "password": _field(POISON_TEXT)}
)
MEMORY_IDS = st.one_of(
    st.integers(min_value=-5, max_value=2**70).map(str),
    st.sampled_from(["9" * 4400, str(2**63), str(2**63 - 1), "0", "%ED%A0%80", "1e3", "１"]),
)
QUERY_VALUES = st.one_of(
    st.sampled_from(["fuzz-client", "", "%ED%A0%80", "%E9", "%00", "a" * 300, "global"]),
    st.text(alphabet=st.characters(codec="ascii", exclude_categories=["Cc"]), max_size=10),
)


def examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """``count`` (or fewer, when hypothesis finds no more) reproducible draws of a strategy."""
    drawn: list[Any] = []

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        drawn.append(value)

    collect()
    return drawn


def tracebacks(records: list[logging.LogRecord]) -> list[str]:
    """The log records that carry a traceback (none may appear while fuzzing)."""
    return [
        f"{record.name}: {record.getMessage()}"
        for record in records
        if record.exc_info or record.exc_text or "Traceback" in record.getMessage()
    ]


async def exchange(ws: aiohttp.ClientWebSocketResponse, raw: str) -> list[dict[str, Any]]:
    """Send a frame then a ping; every frame received up to the pong."""
    await ws.send_str(raw)
    await ws.send_str('{"type":"ping"}')
    received: list[dict[str, Any]] = []
    while True:
        message = await ws.receive(timeout=5)
        assert message.type == aiohttp.WSMsgType.TEXT, (raw[:200], message)
        frame = json.loads(message.data)
        if frame == {"type": "pong"}:
            return received
        received.append(frame)
