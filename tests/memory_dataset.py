"""The memory-quality dataset (``scripts/bench/data/memory_quality/{en,fr}.json``): loading, checks.

Written for this project (not taken from any public benchmark). One JSON file per language::

    {"language": "fr",
     "clients": [{
        "client_id": "fr-jeanne", "about": "who this person is (for the reader only)",
        "sessions": [{"id": "jl01", "turns": [{
            "at": "2026-01-07T09:00:00Z",          # when the turn was said (UTC, ISO 8601)
            "via": "glasses" | "assist",           # a final transcript, or an Assist turn
            "text": "Mon médecin c'est le docteur Dupont.",
            "facts": [{                             # what a good extraction model extracts
                "id": "jl-medecin-dupont",          # unique in the file
                "kind": "fact|preference|person|reminder|task",
                "content": "Son médecin est le docteur Dupont",
                # optional, at most one of:
                "supersedes": "<earlier fact id>", "action": "SUPERSEDE" | "UPDATE",
                "repeats": "<earlier fact id>"      # the same fact said again: NONE
            }]}]}],
        "questions": [{
            "id": "jl-q11", "asked_at": "2026-03-20T09:00:00Z", "text": "Qui est mon médecin ?",
            "category": "single_fact|knowledge_update|cross_session|temporal|abstention",
            "expected": ["jl-medecin-martin"],      # supporting facts; [] for abstention
            "paraphrase": true                      # the question's words differ from the fact's
        }]}]}

A fact is *current* at a time once its turn was said and until a later fact that supersedes or
updates it was said; a superseded fact must never reach the model as current. A repeated fact
stores nothing new. Turns with ``"facts": []`` carry nothing durable about the person (small
talk, or a sensitive guess about someone else, which must not be extracted).

:func:`problems` lists what is wrong with a dataset (empty when it is well-formed); the
benchmark (``scripts/bench/bench_memory_quality.py``) refuses a dataset with problems, and
``tests/engine/test_memory_quality_dataset.py`` keeps the shipped files well-formed.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

# The benchmark's data, read here by the tests and by scripts/bench/bench_memory_quality.py.
DATA_DIR: Final = Path(__file__).resolve().parents[1] / "scripts/bench/data/memory_quality"
LANGUAGES: Final = ("en", "fr")
CATEGORIES: Final = ("single_fact", "knowledge_update", "cross_session", "temporal", "abstention")
KINDS: Final = ("fact", "preference", "person", "reminder", "task")
ACTIONS: Final = ("SUPERSEDE", "UPDATE")
CHANNELS: Final = ("glasses", "assist")
MIN_QUESTIONS_PER_LANGUAGE: Final = 60
MIN_CLIENTS_PER_LANGUAGE: Final = 2
MIN_SESSIONS_PER_CLIENT: Final = 8


@dataclass(frozen=True)
class Fact:
    """A fact a good extraction model draws from one turn."""

    id: str
    kind: str
    content: str
    said_at: datetime
    supersedes: str | None = None
    action: str | None = None
    repeats: str | None = None


@dataclass(frozen=True)
class Turn:
    """One dated final transcript (glasses) or Assist turn."""

    at: datetime
    via: str
    text: str
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class Session:
    """A conversation: the turns of one episode."""

    id: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """A question asked at a date, with the facts that answer it."""

    id: str
    category: str
    asked_at: datetime
    text: str
    expected: tuple[str, ...]
    paraphrase: bool


@dataclass(frozen=True)
class Client:
    """One person: sessions over weeks, and the questions about them."""

    client_id: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    @property
    def facts(self) -> dict[str, Fact]:
        """Every fact of the client by id."""
        return {f.id: f for s in self.sessions for t in s.turns for f in t.facts}

    def superseded_at(self, when: datetime) -> set[str]:
        """The facts that a later fact, said by ``when``, supersedes or updates."""
        return {
            fact.supersedes
            for fact in self.facts.values()
            if fact.supersedes is not None and fact.said_at <= when
        }


@dataclass(frozen=True)
class Dataset:
    """One language's file."""

    language: str
    clients: tuple[Client, ...]

    @property
    def questions(self) -> list[tuple[Client, Question]]:
        """Every question with its client."""
        return [(c, q) for c in self.clients for q in c.questions]


def parse_time(value: Any) -> datetime:
    """An ISO 8601 time with its zone (a naive time is refused)."""
    when = datetime.fromisoformat(str(value))
    if when.tzinfo is None:
        raise ValueError(f"time without a zone: {value!r}")
    return when


def parse(data: dict[str, Any]) -> Dataset:
    """The dataset from its JSON form (raises KeyError/ValueError/TypeError on a bad shape)."""
    clients = []
    for client in data["clients"]:
        sessions = []
        for session in client["sessions"]:
            turns = []
            for turn in session["turns"]:
                at = parse_time(turn["at"])
                facts = tuple(
                    Fact(
                        id=str(f["id"]),
                        kind=str(f["kind"]),
                        content=str(f["content"]),
                        said_at=at,
                        supersedes=f.get("supersedes"),
                        action=f.get("action"),
                        repeats=f.get("repeats"),
                    )
                    for f in turn["facts"]
                )
                turns.append(Turn(at=at, via=str(turn["via"]), text=str(turn["text"]), facts=facts))
            sessions.append(Session(id=str(session["id"]), turns=tuple(turns)))
        questions = tuple(
            Question(
                id=str(q["id"]),
                category=str(q["category"]),
                asked_at=parse_time(q["asked_at"]),
                text=str(q["text"]),
                expected=tuple(str(e) for e in q["expected"]),
                paraphrase=bool(q["paraphrase"]),
            )
            for q in client["questions"]
        )
        clients.append(
            Client(
                client_id=str(client["client_id"]), sessions=tuple(sessions), questions=questions
            )
        )
    return Dataset(language=str(data["language"]), clients=tuple(clients))


def load(language: str, folder: Path = DATA_DIR) -> Dataset:
    """One language's dataset file."""
    return parse(json.loads((folder / f"{language}.json").read_text(encoding="utf-8")))


def problems(dataset: Dataset, language: str | None = None) -> list[str]:
    """Everything that makes the dataset unusable for the benchmark; empty when well-formed."""
    found: list[str] = []
    if language is not None and dataset.language != language:
        found.append(f"language is {dataset.language!r}, the file is for {language!r}")
    if len(dataset.clients) < MIN_CLIENTS_PER_LANGUAGE:
        found.append(f"{len(dataset.clients)} clients, at least {MIN_CLIENTS_PER_LANGUAGE}")
    if len(dataset.questions) < MIN_QUESTIONS_PER_LANGUAGE:
        found.append(f"{len(dataset.questions)} questions, at least {MIN_QUESTIONS_PER_LANGUAGE}")
    covered = {q.category for _, q in dataset.questions}
    found += [f"no {category} question" for category in CATEGORIES if category not in covered]
    if not any(q.paraphrase for _, q in dataset.questions):
        found.append("no paraphrase question")
    ids: set[str] = set()
    for client in dataset.clients:
        found += _client_problems(client, ids)
    # The scripted model finds a prompt's turns by their text: each must be told apart.
    texts = [t.text for c in dataset.clients for s in c.sessions for t in s.turns]
    found += [
        f"turn text said twice: {text!r}" for text in sorted(set(texts)) if texts.count(text) > 1
    ]
    return found


def _client_problems(client: Client, ids: set[str]) -> list[str]:
    found: list[str] = []
    name = client.client_id
    if len(client.sessions) < MIN_SESSIONS_PER_CLIENT:
        found.append(f"{name}: {len(client.sessions)} sessions, at least {MIN_SESSIONS_PER_CLIENT}")
    turns = [t for s in client.sessions for t in s.turns]
    if any(b.at < a.at for a, b in itertools.pairwise(turns)):
        found.append(f"{name}: turns are not in time order")
    facts: dict[str, Fact] = {}
    for turn in turns:
        if turn.via not in CHANNELS or not turn.text.strip():
            found.append(f"{name}: turn at {turn.at.isoformat()} has a bad channel or no text")
        for fact in turn.facts:
            found += _fact_problems(name, fact, facts, ids)
            facts[fact.id] = fact
            ids.add(fact.id)
    for question in client.questions:
        found += _question_problems(client, question, facts, ids)
    return found


def _fact_problems(name: str, fact: Fact, earlier: dict[str, Fact], ids: set[str]) -> list[str]:
    found: list[str] = []
    where = f"{name}: fact {fact.id}"
    if fact.id in ids:
        found.append(f"{where}: id used twice")
    if fact.kind not in KINDS:
        found.append(f"{where}: kind {fact.kind!r}")
    if not fact.content.strip():
        found.append(f"{where}: no content")
    if fact.supersedes is not None and fact.repeats is not None:
        found.append(f"{where}: both supersedes and repeats")
    for link in (fact.supersedes, fact.repeats):
        if link is None:
            continue
        target = earlier.get(link)
        if target is None:
            found.append(f"{where}: links to {link}, not an earlier fact of this client")
        elif not target.said_at < fact.said_at:
            found.append(f"{where}: links to {link}, said at the same time or later")
        elif target.repeats is not None:
            found.append(f"{where}: links to {link}, a repetition (link to {target.repeats})")
    if (fact.supersedes is None) != (fact.action is None):
        found.append(f"{where}: supersedes and action go together")
    if fact.action is not None and fact.action not in ACTIONS:
        found.append(f"{where}: action {fact.action!r}")
    return found


def _question_problems(
    client: Client, question: Question, facts: dict[str, Fact], ids: set[str]
) -> list[str]:
    found: list[str] = []
    where = f"{client.client_id}: question {question.id}"
    if question.id in ids:
        found.append(f"{where}: id used twice")
    ids.add(question.id)
    if question.category not in CATEGORIES:
        found.append(f"{where}: category {question.category!r}")
    if not question.text.strip():
        found.append(f"{where}: no text")
    if (question.category == "abstention") != (not question.expected):
        found.append(f"{where}: abstention questions, and only they, expect no fact")
    stale = client.superseded_at(question.asked_at)
    for fact_id in question.expected:
        fact = facts.get(fact_id)
        if fact is None:
            found.append(f"{where}: expects {fact_id}, not a fact of this client")
        elif fact.said_at > question.asked_at:
            found.append(f"{where}: expects {fact_id}, said after the question")
        elif fact_id in stale:
            found.append(f"{where}: expects {fact_id}, already superseded when asked")
        elif fact.repeats is not None:
            found.append(f"{where}: expects {fact_id}, a repetition (expect {fact.repeats})")
    if question.category == "knowledge_update" and not any(
        facts.get(fact_id) is not None and facts[fact_id].supersedes in stale
        for fact_id in question.expected
    ):
        found.append(f"{where}: a knowledge update must expect a fact that replaced another")
    if (
        question.category == "cross_session"
        and len({_session_of(client, fact_id) for fact_id in question.expected}) < 2
    ):
        found.append(f"{where}: a cross-session question needs facts from two sessions")
    return found


def _session_of(client: Client, fact_id: str) -> str | None:
    for session in client.sessions:
        if any(f.id == fact_id for t in session.turns for f in t.facts):
            return session.id
    return None
