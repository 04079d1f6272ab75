"""The spoken answer read out of the router's JSON while the model is still writing it.

The router answers one JSON object whose first key is ``command`` (the schema puts it first and
Ollama's grammar writes keys in schema order) and whose ``text`` is the spoken answer of a
``chat``. Reading the object as it streams, the command is known after a few tokens; when it is
``chat``, each piece of ``text`` is passed on as soon as it is decoded, so Assist can start
speaking after the first sentence instead of after the whole answer. Any other command passes
nothing on: its answer is made by code once the object is complete and validated.

Only top-level keys count (a ``"text"`` inside another string is not the answer), escapes are
decoded across chunk boundaries, and trailing spaces are held back until more words follow, so
the pieces put together are exactly the stripped ``text`` the validated command carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

_ESCAPES: Final = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
SPOKEN_COMMAND: Final = "chat"


class SpokenText:
    """Feed it the model's raw chunks; it calls ``speak`` with each new piece of the answer."""

    def __init__(self, speak: Callable[[str], None]) -> None:
        """Nothing read yet."""
        self._speak = speak
        self._raw = ""
        self._at = 0  # next character of ``_raw`` to read
        self._depth = 0
        self._key: str | None = None  # the top-level key whose value comes next
        self._expect_key = False
        self._in_string = False
        self._string = ""  # the string being read (decoded)
        self._string_is_key = False
        self._string_key: str | None = None  # for a value string: its key
        self._command: str | None = None
        self._text = ""  # the answer decoded so far
        self._spoken = 0  # characters of the stripped answer already passed on
        self.spoken = ""

    def feed(self, chunk: str) -> None:
        """Read one more chunk of the model's output."""
        self._raw += chunk
        while self._at < len(self._raw):
            if self._in_string:
                if not self._read_string():
                    break  # an escape cut by the chunk's end: wait for more
                continue
            char = self._raw[self._at]
            self._at += 1
            self._structure(char)
        self._pass_on()

    def _structure(self, char: str) -> None:
        if char in "{[":
            self._depth += 1
            self._expect_key = self._depth == 1 and char == "{"
        elif char in "}]":
            self._depth -= 1
        elif char == "," and self._depth == 1:
            self._expect_key = True
            self._key = None
        elif char == ":" and self._depth == 1:
            self._expect_key = False
        elif char == '"':
            self._in_string = True
            self._string = ""
            self._string_is_key = self._depth == 1 and self._expect_key
            self._string_key = self._key if self._depth == 1 and not self._expect_key else None

    def _read_string(self) -> bool:
        """Decode string characters; False when an escape is cut by the end of the input."""
        raw = self._raw
        while self._at < len(raw):
            char = raw[self._at]
            if char == "\\":
                decoded, length = _escape(raw, self._at)
                if length == 0:
                    return False
                self._string += decoded
                self._at += length
            elif char == '"':
                self._at += 1
                self._in_string = False
                self._string_ended()
                return True
            else:
                self._string += char
                self._at += 1
            if self._string_key == "text":
                self._text = self._string
        return True

    def _string_ended(self) -> None:
        if self._string_is_key:
            self._key = self._string
        elif self._string_key == "command":
            self._command = self._string
        elif self._string_key == "text":
            self._text = self._string

    def _pass_on(self) -> None:
        """Pass on the answer's new words once the command is known to be a chat."""
        if self._command != SPOKEN_COMMAND:
            return
        answer = self._text.strip()
        if len(answer) > self._spoken:
            piece = answer[self._spoken :]
            self._spoken = len(answer)
            self.spoken += piece
            self._speak(piece)


def _escape(raw: str, at: int) -> tuple[str, int]:
    """The character a JSON escape at ``raw[at]`` stands for and its length; length 0 when the
    escape is not complete yet. A lone surrogate half is decoded as JSON would (kept as is)."""
    if at + 1 >= len(raw):
        return "", 0
    kind = raw[at + 1]
    if kind != "u":
        return _ESCAPES.get(kind, kind), 2
    if at + 6 > len(raw):
        return "", 0
    code = raw[at : at + 6]
    try:
        if 0xD800 <= int(code[2:], 16) <= 0xDBFF:  # a surrogate pair: wait for its second half
            if at + 12 > len(raw):
                return "", 0
            pair = raw[at : at + 12]
            if pair[6:8] == "\\u":
                return json.loads(f'"{pair}"'), 12
        return json.loads(f'"{code}"'), 6
    except ValueError:  # not an escape JSON has: the whole answer will not validate either
        return "", 2
