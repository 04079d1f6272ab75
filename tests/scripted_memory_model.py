"""A scripted extraction model for the memory-quality benchmark: deterministic, from the dataset.

It answers ``/api/chat`` on a real fake Ollama (``tests/fake_ollama.py``'s :class:`FakeOllama`,
an aiohttp server on 127.0.0.1) as a perfect model would answer the engine's two learning calls
(``engine/memory/learning.py``):

- an **extraction** call (schema with ``facts``) gets, for every numbered turn of the prompt
  that is a dataset turn, the facts the dataset attaches to it, under the engine's schema:
  ``{"kind", "content", "about": "self", "turns": [n], "quote": <the turn's words>}``. Turns
  without facts (small talk, a guess about someone else) give nothing. The engine learns the
  kinds fact, person and preference only; the prompt files appointments and plans under
  ``fact``, so a dataset ``reminder`` or ``task`` is answered as a ``fact``;
- a **decision** call (schema with ``decisions``) gets, for each numbered new fact, the
  dataset's link read against the memories the prompt shows under it:
  ``{"fact": n, "action": ..., "memory": <memory id> | null}``: the fact's ``supersedes`` link
  (its ``action``, SUPERSEDE or UPDATE) when that earlier fact is shown, NONE naming the memory
  that says the same thing (a repetition), else ADD;
- anything else (an episode summary) gets ``{}``, which the engine treats as a bad answer: it
  keeps its extractive summary.

How a prompt is read is in ONE function, :func:`read_request` (the prompt layout of
``extraction_messages`` / ``decision_messages``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from tests.fake_ollama import FakeReply, last_user_prompt, learning_turns
from tests.memory_dataset import Dataset, Fact, Turn

ACTION_NONE: Final = "NONE"
ACTION_ADD: Final = "ADD"
ABOUT_SELF: Final = "self"
LEARNED_KINDS: Final = ("fact", "person", "preference")
# The engine quotes at most this much of a turn (learning.PROMPT_TURN_CHARACTERS) and keeps
# quotes this long (learning.MAX_QUOTE_CHARACTERS).
PROMPT_TURN_CHARACTERS: Final = 400
QUOTE_CHARACTERS: Final = 200
_FACT_RE: Final = re.compile(r"^New fact (\d+) \([^)]*\): (.*)$")
_MEMORY_RE: Final = re.compile(r"^\s+memory (\d+) \([^)]*\): (.*)$")


def text_key(text: str) -> str:
    """Text compared without case, spacing or a final full stop."""
    return " ".join(text.split()).casefold().rstrip(".")


@dataclass(frozen=True)
class NewFact:
    """One new fact of a decision prompt and the memories shown under it (id, content)."""

    number: int
    content: str
    shown: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class ModelRequest:
    """What a chat request asks, as :func:`read_request` reads it."""

    kind: str  # "extract", "decide" or "other"
    prompt: str
    turns: tuple[tuple[int, str], ...] = ()  # extraction: (number, text)
    new_facts: tuple[NewFact, ...] = ()  # decision


def read_request(body: dict[str, Any]) -> ModelRequest:
    """ADAPTER: read an engine chat request (the only code that knows the prompt format).

    The layout of ``engine/memory/learning.py``: the request's ``format`` (JSON schema) has a
    ``facts`` property for an extraction call, ``decisions`` for a decision call; the user
    message of an extraction names its turns as ``tests.fake_ollama.learning_turns`` reads
    them (lines ``[n] speaker: text`` of the conversation its TASK line cites, or listed after
    it); the one of a
    decision has, per new fact, ``New fact n (kind): content`` followed by the similar
    memories as indented ``memory <id> (kind): content`` lines.
    """
    prompt = last_user_prompt(body)
    schema = body.get("format")
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    lines = prompt.splitlines()
    if "decisions" in properties:
        facts: list[NewFact] = []
        for line in lines:
            if fact := _FACT_RE.match(line):
                facts.append(NewFact(int(fact.group(1)), fact.group(2), ()))
            elif (memory := _MEMORY_RE.match(line)) and facts:
                shown = (*facts[-1].shown, (int(memory.group(1)), memory.group(2)))
                facts[-1] = NewFact(facts[-1].number, facts[-1].content, shown)
        return ModelRequest("decide", prompt, new_facts=tuple(facts))
    if "facts" in properties:
        # Every turn of the benchmark has a speaker ("user"): the words follow its name.
        turns = tuple((n, line.partition(": ")[2] or line) for n, line in learning_turns(body))
        return ModelRequest("extract", prompt, turns=turns)
    return ModelRequest("other", prompt)


def quoted(text: str) -> str:
    """The turn's words as the model quotes them: whole words, within the engine's limit."""
    words = " ".join(text.split())
    if len(words) <= QUOTE_CHARACTERS:
        return words
    return words[:QUOTE_CHARACTERS].rsplit(" ", 1)[0]


@dataclass
class ScriptedModel:
    """Answers extraction and decision calls from a dataset; counts what it was asked."""

    dataset: Dataset
    calls: dict[str, int] = field(default_factory=lambda: {"extract": 0, "decide": 0, "other": 0})
    unknown_facts: int = 0
    unknown_turns: int = 0

    def __post_init__(self) -> None:
        """Index the dataset's turns and facts by their text."""
        self.turns: dict[str, Turn] = {
            text_key(turn.text[:PROMPT_TURN_CHARACTERS]): turn
            for c in self.dataset.clients
            for s in c.sessions
            for turn in s.turns
        }
        self.facts: dict[str, list[Fact]] = {}
        self.by_id: dict[str, Fact] = {}
        for client in self.dataset.clients:
            for fact in client.facts.values():
                self.facts.setdefault(text_key(fact.content), []).append(fact)
                self.by_id[fact.id] = fact

    def answer(self, body: dict[str, Any]) -> FakeReply:
        """The reply to one ``/api/chat`` request (a :class:`FakeOllama` handler)."""
        request = read_request(body)
        self.calls[request.kind] += 1
        if request.kind == "extract":
            return FakeReply(content={"facts": self.extract(request)})
        if request.kind == "decide":
            return FakeReply(content={"decisions": self.decide(request)})
        return FakeReply(content={})

    def extract(self, request: ModelRequest) -> list[dict[str, Any]]:
        """The facts of every dataset turn the prompt numbers, in the prompt's order."""
        facts: list[dict[str, Any]] = []
        for number, line in request.turns:
            # The line is the words after the speaker's name (the benchmark's turns have one).
            turn = self.turns.get(text_key(line)) or self.turns.get(
                text_key(line.partition(": ")[2])
            )
            if turn is None:
                self.unknown_turns += 1
                continue
            facts += [
                {
                    "kind": fact.kind if fact.kind in LEARNED_KINDS else "fact",
                    "content": fact.content,
                    "about": ABOUT_SELF,
                    "turns": [number],
                    "quote": quoted(turn.text),
                }
                for fact in turn.facts
            ]
        return facts

    def decide(self, request: ModelRequest) -> list[dict[str, Any]]:
        """One decision per new fact, from the dataset's links and the memories shown."""
        decisions: list[dict[str, Any]] = []
        for new in request.new_facts:
            shown = {text_key(content): memory_id for memory_id, content in new.shown}
            known = self.facts.get(text_key(new.content), [])
            if not known:
                self.unknown_facts += 1
            action: str = ACTION_ADD
            target: int | None = None
            for fact in known:
                old = self.by_id.get(fact.supersedes) if fact.supersedes else None
                if old is not None and text_key(old.content) in shown:
                    action, target = fact.action or ACTION_ADD, shown[text_key(old.content)]
                    break
            else:
                if text_key(new.content) in shown:  # the same thing said again
                    action, target = ACTION_NONE, shown[text_key(new.content)]
            decisions.append({"fact": new.number, "action": action, "memory": target})
        return decisions
