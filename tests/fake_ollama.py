"""A fake Ollama: a real aiohttp HTTP server on 127.0.0.1 speaking Ollama's REST API.

Tests script it per call: answer with JSON content, delay, fail with an HTTP status, or return
garbage. Every request is recorded so tests can assert what the model was asked. With
``slots`` set it serves that many chats at a time, as Ollama on a Pi serves one: the others
wait their turn; a client that hangs up (a cancelled request) gives its slot back at once.

``/api/embed`` answers with deterministic vectors a test shapes through ``embedding_words``
(word → dimension): a text's vector counts its words of each dimension, plus a small constant
in dimension 0, at unit length, so "docteur" and "médecin" mapped to one dimension land close
and texts sharing no mapped word are nearly orthogonal.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web


@dataclass
class FakeReply:
    """One scripted answer to ``/api/chat``."""

    content: Any = None  # dict/list → JSON-encoded message content; str → sent as is
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None  # replaces the whole HTTP body (garbage responses)
    reset: bool = False  # drop the connection without an answer (connection reset)
    # Tool calls of the answer, as Ollama sends them: {"function": {"name", "arguments"}}.
    tool_calls: list[dict[str, Any]] | None = None
    # A streamed answer: its first ``split`` characters are sent, then the rest once ``pause``
    # is set (a model still writing its answer).
    split: int | None = None
    pause: asyncio.Event | None = None


def call_tool(name: str, **arguments: Any) -> FakeReply:
    """The model's answer calling one tool (no text), as Home Assistant's agents read it."""
    return FakeReply(content="", tool_calls=[{"function": {"name": name, "arguments": arguments}}])


def decline() -> FakeReply:
    """The model's "nothing to add" answer: no intervention, no card."""
    return FakeReply(
        content={
            "intervene": False,
            "intent": "context",
            "confidence": 0.0,
            "card": "",
            "people": [],
        }
    )


ChatHandler = Callable[[dict[str, Any]], "FakeReply | Awaitable[FakeReply]"]


@dataclass
class FakeOllama:
    """The fake server. ``async with FakeOllama() as fake:`` gives ``fake.url``."""

    models: list[str] = field(default_factory=lambda: ["llama3.2:3b", "qwen3:4b"])
    # Listed in /api/tags after the chat models; /api/embed answers for these only (404 else).
    embedding_models: list[str] = field(default_factory=list)
    embedding_words: dict[str, int] = field(default_factory=dict)
    embedding_dimensions: int = 16
    embed_status: int = 200
    embed_delay: float = 0.0
    embed_raw_body: str | None = None  # replaces the whole /api/embed body (garbage answers)
    embed_requests: list[dict[str, Any]] = field(default_factory=list)
    # When set, /api/embed answers with its vectors (model, texts → one vector per text)
    # instead of the word → dimension ones: a real embedding model behind the fake.
    embedder: Callable[[str, list[str]], Awaitable[list[list[float]]]] | None = None
    tags_status: int = 200
    # /api/show names each model's capabilities ("completion" or "embedding"), as Ollama 0.6.4
    # and later do; False answers without them, as older servers do.
    capabilities: bool = True
    tags_delay: float = 0.0
    default_reply: FakeReply = field(default_factory=decline)
    handler: ChatHandler | None = None
    replies: deque[FakeReply] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    tag_requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    slots: int = 0  # chats served at a time; 0: no limit
    cancelled: int = 0  # chats whose client hung up before the answer
    open_chats: int = 0  # chats received and not finished (waiting for a slot or answering)
    _slot: asyncio.Semaphore | None = None
    url: str = ""
    port: int = 0  # 0: a free port; kept after the first start, so a restart reuses it
    _runner: web.AppRunner | None = None

    def queue(self, *replies: FakeReply | dict[str, Any] | str) -> None:
        """Queue replies for the next chat calls, in order."""
        for reply in replies:
            self.replies.append(reply if isinstance(reply, FakeReply) else FakeReply(content=reply))

    async def start(self) -> str:
        """Start listening on 127.0.0.1 (a free port, then the same one) and return the URL."""
        app = web.Application()
        app.router.add_get("/api/tags", self._tags)
        app.router.add_get("/api/version", self._version)
        app.router.add_post("/api/show", self._show)
        app.router.add_post("/api/chat", self._chat)
        app.router.add_post("/api/embed", self._embed)
        # Like Ollama, stop working on a request whose client went away.
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{self.port}"
        return self.url

    async def stop(self) -> None:
        """Stop the server."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeOllama:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def chat_count(self) -> int:
        """How many chat requests were received."""
        return len(self.requests)

    async def _show(self, request: web.Request) -> web.Response:
        name = (await request.json()).get("model")
        if name not in [*self.models, *self.embedding_models]:
            return web.json_response({"error": f"model '{name}' not found"}, status=404)
        shown: dict[str, Any] = {
            "modelfile": "",
            "parameters": "",
            "template": "",
            "details": {"format": "gguf", "family": "llama"},
            "model_info": {},
        }
        if self.capabilities:
            shown["capabilities"] = (
                ["embedding"] if name in self.embedding_models else ["completion"]
            )
        return web.json_response(shown)

    async def _tags(self, request: web.Request) -> web.Response:
        self.tag_requests += 1
        if self.tags_delay:
            await asyncio.sleep(self.tags_delay)  # a slow Ollama, as scripted
        if self.tags_status != 200:
            return web.json_response({"error": "boom"}, status=self.tags_status)
        now = datetime.now(UTC).isoformat()
        return web.json_response(
            {
                "models": [
                    {
                        "name": name,
                        "model": name,
                        "modified_at": now,
                        "size": 1000,
                        "digest": "0" * 64,
                        "details": {"format": "gguf", "family": "llama"},
                    }
                    for name in [*self.models, *self.embedding_models]
                ]
            }
        )

    def vector(self, text: str) -> list[float]:
        """The fake embedding of a text (see the module)."""
        values = [0.0] * self.embedding_dimensions
        values[0] = 0.1
        dimensions = {_plain(word): dimension for word, dimension in self.embedding_words.items()}
        for word in re.findall(r"\w+", _plain(text)):
            if word in dimensions:
                values[dimensions[word]] += 1.0
        norm = math.sqrt(sum(v * v for v in values))
        return [v / norm for v in values]

    async def _embed(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.embed_requests.append(body)
        if self.embed_delay:
            await asyncio.sleep(self.embed_delay)  # a slow embedder, as scripted
        if self.embed_status != 200:
            return web.json_response({"error": "embedding failed"}, status=self.embed_status)
        if self.embed_raw_body is not None:
            return web.Response(text=self.embed_raw_body, content_type="application/json")
        if body.get("model") not in self.embedding_models:
            return web.json_response({"error": "model not found"}, status=404)
        texts = body.get("input", "")
        texts = [str(t) for t in ([texts] if isinstance(texts, str) else texts)]
        if self.embedder is not None:
            vectors = await self.embedder(body["model"], texts)
        else:
            vectors = [self.vector(text) for text in texts]
        return web.json_response({"model": body["model"], "embeddings": vectors})

    @property
    def embedded_texts(self) -> list[str]:
        """Every text sent to /api/embed, in order."""
        return [
            text
            for body in self.embed_requests
            for text in ([body["input"]] if isinstance(body["input"], str) else body["input"])
        ]

    async def _version(self, request: web.Request) -> web.Response:
        return web.json_response({"version": "0.12.0"})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        if self.slots and self._slot is None:
            self._slot = asyncio.Semaphore(self.slots)
        self.open_chats += 1
        try:
            if self._slot is None:
                return await self._answer(request, body)
            async with self._slot:
                return await self._answer(request, body)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.open_chats -= 1

    async def _answer(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.replies:
                reply = self.replies.popleft()
            elif self.handler is not None:
                result = self.handler(body)
                reply = await result if asyncio.iscoroutine(result) else result  # type: ignore[assignment]
            else:
                reply = self.default_reply
            if reply.delay:
                await asyncio.sleep(reply.delay)  # the model's scripted answer time
            if reply.reset and request.transport is not None:
                request.transport.abort()
                return web.Response(status=204)
            if reply.raw_body is not None:
                return web.Response(
                    text=reply.raw_body, status=reply.status, content_type="application/json"
                )
            if reply.status != 200:
                return web.json_response({"error": "model failed"}, status=reply.status)
            content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
            message: dict[str, Any] = {"role": "assistant", "content": content}
            if reply.tool_calls is not None:
                message["tool_calls"] = reply.tool_calls
            if body.get("stream"):
                return await self._stream(request, body, message, reply)
            return web.json_response(
                {
                    "model": body.get("model", ""),
                    "created_at": datetime.now(UTC).isoformat(),
                    "message": message,
                    "done": True,
                    "done_reason": "stop",
                }
            )
        finally:
            self.in_flight -= 1

    async def _stream(
        self,
        request: web.Request,
        body: dict[str, Any],
        message: dict[str, Any],
        reply: FakeReply,
    ) -> web.StreamResponse:
        """Answer as Ollama streams (``"stream": true``): NDJSON chunks, then a "done" one.

        The text comes in two chunks (split in the middle or at ``reply.split``, the second
        held until ``reply.pause`` is set), the tool calls in the first (as Ollama sends them).
        """
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        base = {"model": body.get("model", ""), "created_at": datetime.now(UTC).isoformat()}
        content = str(message["content"])
        half = len(content) // 2 if reply.split is None else reply.split
        first = {"role": "assistant", "content": content[:half]}
        if "tool_calls" in message:
            first["tool_calls"] = message["tool_calls"]
        await _stream_chunk(response, {**base, "message": first, "done": False})
        if reply.pause is not None:
            await reply.pause.wait()
        rest = {"role": "assistant", "content": content[half:]}
        await _stream_chunk(response, {**base, "message": rest, "done": False})
        last = {"role": "assistant", "content": ""}
        await _stream_chunk(
            response, {**base, "message": last, "done": True, "done_reason": "stop"}
        )
        await response.write_eof()
        return response


async def _stream_chunk(response: web.StreamResponse, chunk: dict[str, Any]) -> None:
    await response.write(json.dumps(chunk).encode() + b"\n")


def _plain(text: str) -> str:
    """Lower case without diacritics."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c))


def last_user_prompt(body: dict[str, Any]) -> str:
    """Return the concatenated message contents of a recorded chat request."""
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def conversation_of(body: dict[str, Any]) -> list[str]:
    """The lines of a prompt's conversation, oldest first (the newest utterance last)."""
    content = str(body.get("messages", [{}])[-1].get("content", ""))
    _, found, rest = content.partition("Conversation, oldest first:\n")
    return rest.split("\n\n", 1)[0].split("\n") if found else []


_NUMBERED_RE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)
_CITED_RE = re.compile(r"^TASK: learn\b[^\n]*?, from lines ([\d, -]+)", re.MULTILINE)


def learning_turns(body: dict[str, Any]) -> list[tuple[int, str]]:
    """The (number, line) of the turns a learning extraction asks about, as a model reads
    them: the conversation lines its TASK line cites (``from lines 3-5, 8``) and the turns
    listed after it, oldest first; a line is the words, after ``speaker: `` when one is known."""
    content = str(body.get("messages", [{}])[-1].get("content", ""))
    head, found, task = content.rpartition("TASK: learn")
    if not found:
        return []
    task = found + task
    numbered = {int(n): words for n, words in _NUMBERED_RE.findall(head)}
    cited: list[int] = []
    if match := _CITED_RE.match(task):
        for run in match.group(1).split(","):
            first, _, last = run.strip().partition("-")
            cited += range(int(first), int(last or first) + 1)
    listed = [(int(n), words) for n, words in _NUMBERED_RE.findall(task)]
    return [(n, numbered[n]) for n in cited if n in numbered] + listed


def newest_utterance(body: dict[str, Any]) -> str:
    """A detector prompt's newest utterance (the conversation's last line, without its number;
    after ``speaker: `` when one is known)."""
    lines = conversation_of(body)
    return re.sub(r"^\[\d+\] ", "", lines[-1]) if lines else ""


def answer_questions(body: dict[str, Any]) -> FakeReply:
    """A predictable model: answers questions, declines everything else."""
    prompt = last_user_prompt(body)
    if "NEWEST final question," in prompt:
        newest = newest_utterance(body).strip() or "?"
        # What the answer's schema asks: the card alone.
        return FakeReply(content={"card": f"Fake model answer for «{newest[:80]}»."})
    return decline()
