"""The spoken answer read out of the router's JSON as the model writes it (``SpokenText``)."""

from __future__ import annotations

import json

import pytest

from custom_components.homebuddy_proactive.engine.assist.spoken_stream import SpokenText

ANSWER = '  Bonjour ! Il fait "beau", vraiment \\ à 20 °C 😀\nFin.  '


def heard(raw: str, size: int) -> list[str]:
    """The pieces passed on when ``raw`` arrives ``size`` characters at a time."""
    pieces: list[str] = []
    spoken = SpokenText(pieces.append)
    for start in range(0, len(raw), size):
        spoken.feed(raw[start : start + size])
    assert "".join(pieces) == spoken.spoken
    return pieces


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 1000])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_a_chat_answer_is_passed_on_whole_whatever_the_chunks(size: int, ascii_only: bool) -> None:
    """Escapes (\\u with surrogate pairs included) cut anywhere still decode; the pieces make the
    stripped answer the validated command carries."""
    raw = json.dumps({"command": "chat", "intent": "", "text": ANSWER}, ensure_ascii=ascii_only)
    assert "".join(heard(raw, size)) == ANSWER.strip()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"command": "service", "intent": "HassTurnOn", "text": "ok"}, ""),
        ({"command": "memory_save", "fact": "x", "text": "C'est noté"}, ""),
        ({"command": "chat", "fact": 'a "text": "no"', "text": "yes"}, "yes"),
        ({"text": "written before the command", "command": "chat"}, "written before the command"),
        ({"command": "chat", "text": "   "}, ""),
        ({"command": "chat"}, ""),
        ({"command": "chat", "nested": {"text": "inner"}, "text": "outer"}, "outer"),
    ],
    ids=["service", "memory", "key-in-a-string", "text-first", "blank", "no-text", "nested"],
)
def test_only_a_chat_answer_is_spoken(answer: dict[str, object], expected: str) -> None:
    """Other commands pass nothing on; only the top-level ``text`` of a chat is the answer."""
    assert "".join(heard(json.dumps(answer), 4)) == expected


def test_trailing_spaces_wait_for_the_next_word() -> None:
    """A piece never ends with spaces that may turn out to end the answer."""
    pieces = heard('{"command": "chat", "text": "Oui.  Et puis  "}', 1)
    assert all(piece == piece.rstrip() or piece.strip() == "" for piece in pieces[:-1])
    assert "".join(pieces) == "Oui.  Et puis"


def test_garbage_does_not_raise() -> None:
    """A broken escape or an unfinished object passes on what it can and never raises."""
    assert "".join(heard('{"command": "chat", "text": "a\\uZZZZb', 3)) == "aZZZZb"
    assert "".join(heard('{"command": "chat", "text": "tronqu', 2)) == "tronqu"
