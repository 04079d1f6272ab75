"""A scripted extraction model for the memory-quality benchmark: deterministic, from the dataset.

It answers ``/api/chat`` on a real fake Ollama (``tests/fake_ollama.py``'s :class:`FakeOllama`,
an aiohttp server on 127.0.0.1), as the engine's fact extraction and ADD / UPDATE / SUPERSEDE /
NONE decisions would call it:

- an **extraction** call gets the facts the dataset attaches to every dataset turn whose text
  the prompt contains: ``{"facts": [{"kind": ..., "content": ...}]}`` (turns without facts,
  small talk or a guess about someone else, give nothing);
- a **decision** call gets, for each new fact, the dataset's link read against the candidate
  memories the prompt lists: ``{"decisions": [{"fact": i, "action": "ADD|UPDATE|SUPERSEDE|NONE",
  "target": j | null}]}``: the fact's ``supersedes`` link when that earlier fact is a candidate
  (its ``action``), NONE when a candidate says the same thing (a repetition), else ADD;
- anything else (an episode summary, a card) gets ``{}``, which the engine treats as a bad answer
  and keeps its fallback.

How a prompt is read is in ONE function, :func:`read_request`: the extraction engineer's prompt
format was not known when this was written, so it is the only thing to adapt at merge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from scripts.memory_dataset import Dataset, Fact, Turn
from tests.fake_ollama import FakeReply, last_user_prompt

ACTION_NONE: Final = "NONE"
ACTION_ADD: Final = "ADD"
_NUMBERED_RE: Final = re.compile(r"^\s*\[(\d+)\]\s*(.+?)\s*$")


def text_key(text: str) -> str:
    """Text compared without case, spacing or a final full stop."""
    return " ".join(text.split()).casefold().rstrip(".")


@dataclass(frozen=True)
class ModelRequest:
    """What a chat request asks, as :func:`read_request` reads it."""

    kind: str  # "extract", "decide" or "other"
    prompt: str
    new_facts: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()


def read_request(body: dict[str, Any]) -> ModelRequest:
    """ADAPTER: read an engine chat request (the only code that knows the prompt format).

    Assumed until the extraction code is merged (change this function, nothing else):

    - the request's ``format`` (its JSON schema) has a ``facts`` property for an extraction
      call and a ``decisions`` property for a decision call;
    - an extraction prompt quotes the turns' text verbatim (any layout around them);
    - a decision prompt numbers the new facts and the candidate memories as ``[n] text`` lines,
      the new facts under a header line containing "new fact", the candidates under one
      containing "existing" or "candidate".
    """
    prompt = last_user_prompt(body)
    schema = body.get("format")
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    if "decisions" in properties:
        new_facts: list[str] = []
        candidates: list[str] = []
        section: list[str] | None = None
        for line in prompt.splitlines():
            lowered = line.casefold()
            numbered = _NUMBERED_RE.match(line)
            if numbered is None and "new fact" in lowered:
                section = new_facts
            elif numbered is None and ("existing" in lowered or "candidate" in lowered):
                section = candidates
            elif numbered is not None and section is not None:
                section.append(numbered.group(2))
        return ModelRequest("decide", prompt, tuple(new_facts), tuple(candidates))
    if "facts" in properties:
        return ModelRequest("extract", prompt)
    return ModelRequest("other", prompt)


@dataclass
class ScriptedModel:
    """Answers extraction and decision calls from a dataset; counts what it was asked."""

    dataset: Dataset
    calls: dict[str, int] = field(default_factory=lambda: {"extract": 0, "decide": 0, "other": 0})
    unknown_facts: int = 0

    def __post_init__(self) -> None:
        """Index the dataset's turns and facts by their text."""
        self.turns: list[Turn] = [
            turn for c in self.dataset.clients for s in c.sessions for turn in s.turns
        ]
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
            return FakeReply(content={"facts": self.extract(request.prompt)})
        if request.kind == "decide":
            return FakeReply(content={"decisions": self.decide(request)})
        return FakeReply(content={})

    def extract(self, prompt: str) -> list[dict[str, str]]:
        """The facts of every dataset turn the prompt quotes, in the dataset's order."""
        quoted = text_key(prompt)
        return [
            {"kind": fact.kind, "content": fact.content}
            for turn in self.turns
            if text_key(turn.text) in quoted
            for fact in turn.facts
        ]

    def decide(self, request: ModelRequest) -> list[dict[str, Any]]:
        """One decision per new fact, from the dataset's links and the listed candidates."""
        candidates = [text_key(text) for text in request.candidates]
        decisions: list[dict[str, Any]] = []
        for index, content in enumerate(request.new_facts):
            key = text_key(content)
            known = self.facts.get(key, [])
            if not known:
                self.unknown_facts += 1
            action, target = ACTION_ADD, None
            for fact in known:
                old = self.by_id.get(fact.supersedes) if fact.supersedes else None
                if old is not None and text_key(old.content) in candidates:
                    action, target = (
                        fact.action or ACTION_ADD,
                        candidates.index(text_key(old.content)),
                    )
                    break
            else:
                if key in candidates:  # the same thing said again
                    action, target = ACTION_NONE, candidates.index(key)
            decisions.append({"fact": index, "action": action, "target": target})
        return decisions
