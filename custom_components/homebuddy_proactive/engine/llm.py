"""The Ollama boundary: list models, ask for structured (JSON-schema) answers, embed texts.

Every library error is translated here, once, into the engine's own exceptions so callers never
see ``httpx``, ``aiohttp`` or ``ollama`` types. Nothing here logs prompt contents: they hold
transcripts.

Embeddings are on the path of every memory search, so ``/api/embed`` is called with the
client's own ``aiohttp`` session and ``orjson`` rather than the ``ollama`` library, whose httpx
round trip costs several times more CPU a query (an import attempt on every request, a
validation of every float).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import statistics
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import aiohttp
import httpx
import numpy as np
import numpy.typing as npt
import ollama
import orjson

from .config import without_userinfo

LOGGER = logging.getLogger(__name__)

_T = TypeVar("_T")

# How many recent answers the answer-time estimate reads (a median: one slow cold load or
# one queued call does not swing it).
ANSWER_TIME_SAMPLES: Final = 8
# Ollama's keep_alive when the host says nothing: the model stays loaded.
KEEP_ALIVE: Final = -1
# Ollama's num_ctx when the host says nothing, and the step a larger one is rounded up to.
CONTEXT_TOKENS: Final = 4096
CONTEXT_STEP: Final = 1024
# Template tokens a chat message costs beyond its content (role markers), estimated high.
MESSAGE_OVERHEAD_TOKENS: Final = 8
# Models asked about at a time for what they can do (``OllamaModel.capabilities``).
SHOW_AT_ONCE: Final = 4


def estimate_tokens(text: str) -> int:
    """A conservative token count without a tokenizer: one token per three UTF-8 bytes.

    Byte-level BPE tokenizers (Llama, Qwen, Gemma, SmolLM) average about four characters per
    token in English and two to three bytes per token in Greek or CJK text, so this counts high
    for every script; it costs one ``encode``, no model files.
    """
    return -(-len(text.encode("utf-8", "surrogatepass")) // 3)


def estimate_prompt_tokens(messages: Sequence[Mapping[str, str]]) -> int:
    """:func:`estimate_tokens` of a chat request, with each message's template overhead."""
    return sum(
        estimate_tokens(message.get("content", "")) + MESSAGE_OVERHEAD_TOKENS
        for message in messages
    )


def numbered_line(number: int, text: str) -> str:
    """A conversation line as prompts number them, so that a task can cite it."""
    return f"[{number}] {text}"


@dataclass(frozen=True)
class SharedPrefix:
    """The start every model call of a live session shares (:func:`after_prefix`), and the
    utterances its conversation numbers: ``lines[n]`` is line n's (speaker, words), so a task
    asked after it cites lines by number instead of quoting them again. ``speech`` writes a
    new utterance as the conversation would (without its number), so a task may append the
    utterances the conversation does not show yet (:meth:`continued`)."""

    messages: Sequence[Mapping[str, str]]
    lines: Mapping[int, tuple[str | None, str]] = field(default_factory=dict)
    speech: Callable[[str | None, str], str] | None = None

    def continued(self, lines: Sequence[str]) -> list[dict[str, str]]:
        """The messages with ``lines`` (written by :attr:`speech`, numbered) appended to the
        conversation that ends the user message."""
        messages = [dict(message) for message in self.messages]
        if lines and messages and messages[-1].get("content"):
            messages[-1]["content"] += "\n" + "\n".join(lines)
        return messages


def after_prefix(
    prefix: Sequence[Mapping[str, str]], messages: Sequence[Mapping[str, str]]
) -> list[dict[str, str]]:
    """A task asked after a shared prefix (a system message, then the start of a user one).

    The model server keeps one prompt in its KV cache: a task that starts with the prefix the
    other calls of a session start with (instructions, conversation) costs only its own end.
    The task's system message is left out when the prefix's already states it (the session's
    one system message holds every task's rules); its other messages become the end of the
    user message.
    """
    if len(prefix) != 2:
        return [dict(message) for message in messages]
    system, user = prefix
    rules = system.get("content", "")
    task = "\n\n".join(
        message.get("content", "")
        for message in messages
        if message.get("role") != "system" or message.get("content", "") not in rules
    )
    head = user.get("content", "")
    return [
        dict(system),
        {"role": "user", "content": f"{head}\n\n{task}" if head else task},
    ]


def context_size(tokens: int) -> int:
    """The num_ctx that holds ``tokens``: rounded up to a whole :data:`CONTEXT_STEP`."""
    return max(CONTEXT_STEP, -(-tokens // CONTEXT_STEP) * CONTEXT_STEP)


class ModelError(Exception):
    """Base class of model failures."""


class ModelUnavailableError(ModelError):
    """Ollama could not be reached, timed out, or answered with an HTTP error."""


class ModelOutputError(ModelError):
    """Ollama answered, but not with valid JSON of the requested shape."""


class ModelPreemptedError(ModelError):
    """A background call was cancelled so that a question gets the model first."""


class ModelTurns:
    """Who gets the model first: a question, before any background evaluation.

    One per model, shared by every caller: the lanes of every socket, memory learning and
    summaries. Ollama on a Pi serves one request at a time, so a background call (live speech,
    a statement, learning) already running would delay a question by a whole model call. A
    question's call therefore cancels the background calls in flight (their HTTP requests are
    closed; Ollama drops a request whose client went away: docs/protocol.md, *Pacing with a
    slow model*) and background calls wait while any question's call runs.
    """

    def __init__(self) -> None:
        """Nothing runs yet."""
        self._questions = 0
        self._no_question = asyncio.Event()
        self._no_question.set()
        self._background: set[asyncio.Task[Any]] = set()
        self.preempted = 0

    async def question(self, call: Callable[[], Awaitable[_T]]) -> _T:
        """Run a question's model call now, cancelling background calls in flight."""
        self._questions += 1
        self._no_question.clear()
        for task in self._background:
            if not task.done():
                task.cancel()
                self.preempted += 1
        try:
            return await call()
        finally:
            self._questions -= 1
            if self._questions == 0:
                self._no_question.set()

    async def background(self, call: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
        """Run a background model call once no question's call runs.

        Raises :class:`ModelPreemptedError` when a question takes the model meanwhile.
        """
        while self._questions:
            await self._no_question.wait()
        task = asyncio.create_task(call(), name="homebuddy background model call")
        self._background.add(task)
        try:
            await asyncio.wait({task})
        finally:
            if not task.done():
                # Our caller was cancelled (a final made the speech stale, the socket
                # closed): the model call goes with it, and is waited for.
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self._background.discard(task)
        if task.cancelled():
            raise ModelPreemptedError("a question took the model")
        return task.result()


@dataclass
class ModelStats:
    """Counters of model calls, for diagnostics and the LLM status sensor."""

    calls: int = 0
    failures: int = 0
    invalid_outputs: int = 0
    last_error: str | None = None
    available: bool | None = None
    # Embeddings (``/api/embed``) are counted apart: a missing or slow embedding model says
    # nothing about the chat model, so it never changes ``available``.
    embed_calls: int = 0
    embed_failures: int = 0
    embed_last_error: str | None = None


class AnswerTime:
    """How long the model recently took to answer: the median of the last few answers.

    Timed from the request to the parsed reply, as the engine waits for it (time queued in
    Ollama behind other calls included), so pacing that reads it slows down when the model is
    congested. Calls that failed or were cancelled are not answers and are not counted.
    """

    def __init__(self, samples: int = ANSWER_TIME_SAMPLES) -> None:
        """Keep the last ``samples`` durations."""
        self._recent: deque[float] = deque(maxlen=samples)

    def observe(self, seconds: float) -> None:
        """One answer took ``seconds``."""
        self._recent.append(seconds)

    @property
    def seconds(self) -> float:
        """The recent median answer time; 0.0 before the first answer."""
        return statistics.median(self._recent) if self._recent else 0.0


class OllamaModel:
    """One Ollama server and model, reached through the ``ollama`` AsyncClient."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        timeout: float,
        verify: ssl.SSLContext | bool = True,
        context_tokens: int = CONTEXT_TOKENS,
        keep_alive: str | int = KEEP_ALIVE,
    ) -> None:
        """Create the client; nothing is sent until the first call.

        ``context_tokens`` is the num_ctx every call sends (one value for all prompts: Ollama
        reloads the model when it changes); a call whose prompt and answer would not fit gets
        a larger one rather than being truncated silently.
        """
        self.base_url = base_url
        self.model = model
        self.timeout = timeout
        self.context_tokens = context_tokens
        self.keep_alive = keep_alive
        self.stats = ModelStats()
        self.answer_time = AnswerTime()
        self.turns = ModelTurns()
        # Called when Ollama becomes reachable or unreachable (the HA status sensor).
        self.on_status_change: Callable[[], None] | None = None
        self._client = ollama.AsyncClient(host=base_url, timeout=timeout, verify=verify)
        self._verify = verify
        self._session: aiohttp.ClientSession | None = None  # for /api/embed, opened on use
        self._think_supported = True
        self._reported: set[str] = set()

    async def close(self) -> None:
        """Close the HTTP connection pools."""
        await self._client.close()  # type: ignore[no-untyped-call]
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def list_models(self) -> list[str]:
        """Return the names of the models the server has."""
        try:
            response = await self._client.list()
        except (httpx.HTTPError, ollama.ResponseError, ConnectionError, OSError) as err:
            self._failed("list", err)
            raise ModelUnavailableError(_describe(err)) from err
        self._set_available(True)
        return sorted(m.model for m in response.models if m.model)

    async def capabilities(self, names: Sequence[str]) -> dict[str, frozenset[str]]:
        """What each model can do, as the server says (``/api/show``: "completion",
        "embedding", "tools", …), a few models at a time. A model the server says nothing
        about (an Ollama before 0.6.4) or whose answer fails is left out: unknown, not unable.
        """
        asking = asyncio.Semaphore(SHOW_AT_ONCE)

        async def ask(name: str) -> tuple[str, frozenset[str] | None]:
            async with asking:
                try:
                    shown = await self._client.show(name)
                # ValueError: an answer not in Ollama's shape (the library's own check).
                except (
                    httpx.HTTPError,
                    ollama.ResponseError,
                    ConnectionError,
                    OSError,
                    ValueError,
                ):
                    return name, None
            return name, frozenset(shown.capabilities) if shown.capabilities else None

        answers = await asyncio.gather(*(ask(name) for name in names))
        return {name: able for name, able in answers if able is not None}

    async def chat_json(
        self,
        messages: Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        *,
        max_tokens: int = 400,
        temperature: float = 0.2,
        on_content: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """Ask for one JSON object that follows ``schema``; return it parsed.

        With ``on_content``, the answer is streamed and each piece of its raw text is passed to
        it as the model writes it (Assist starts speaking before the answer is complete).
        Raises ModelUnavailableError on transport faults and ModelOutputError on garbage.
        Schema conformance beyond being a JSON object is the caller's to check.
        """
        self.stats.calls += 1
        if not self.model:
            # No model chosen (a host set up with local rules only): the server may well be
            # reachable, so its status is left as it is.
            self.stats.last_error = "no model chosen"
            raise ModelUnavailableError("no model chosen")
        needed = estimate_prompt_tokens(messages) + max_tokens
        options = {
            "temperature": temperature,
            "num_predict": max_tokens,
            "num_ctx": max(self.context_tokens, context_size(needed)),
        }
        asked_at = time.monotonic()
        try:
            content = await self._chat(messages, schema, options, on_content)
        except ollama.ResponseError as err:
            if self._think_supported and err.status_code == 400 and "think" in str(err).lower():
                # Models without a thinking mode reject think=False: ask again without it.
                self._think_supported = False
                try:
                    content = await self._chat(messages, schema, options, on_content)
                except (httpx.HTTPError, ollama.ResponseError, ConnectionError, OSError) as err2:
                    self._failed("chat", err2)
                    raise ModelUnavailableError(_describe(err2)) from err2
            else:
                self._failed("chat", err)
                raise ModelUnavailableError(_describe(err)) from err
        except (httpx.HTTPError, ConnectionError, OSError, TimeoutError) as err:
            self._failed("chat", err)
            raise ModelUnavailableError(_describe(err)) from err
        except ValueError as err:  # pydantic validation of a garbage body
            self._invalid(f"unreadable response: {type(err).__name__}")
            raise ModelOutputError("unreadable response") from err
        self._set_available(True)
        try:
            # strict=False: a raw line break inside a string (small models write them, and
            # not every server's grammar forbids them) is read as the break it means.
            data = json.loads(content, strict=False)
        except json.JSONDecodeError as err:
            self._invalid("content is not JSON")
            raise ModelOutputError("content is not JSON") from err
        if not isinstance(data, dict):
            self._invalid("content is not a JSON object")
            raise ModelOutputError("content is not a JSON object")
        self.answer_time.observe(time.monotonic() - asked_at)
        return data

    async def embed(
        self, model: str, texts: Sequence[str], *, seconds: float | None = None
    ) -> npt.NDArray[np.float32]:
        """One vector per text from the embedding ``model`` (Ollama's ``/api/embed``), as the
        rows of a float32 matrix.

        One request for every text. Raises ModelUnavailableError on transport faults, an HTTP
        error or a timeout (``timeout``, else the client's) and ModelOutputError when the answer
        does not hold one vector of the same length per text. Never changes the chat model's
        status.
        """
        self.stats.embed_calls += 1
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        body = orjson.dumps({"model": model, "input": list(texts), "keep_alive": self.keep_alive})
        try:
            async with asyncio.timeout(self.timeout if seconds is None else seconds):
                async with self._http().post(
                    self.base_url.rstrip("/") + "/api/embed",
                    data=body,
                    headers={"Content-Type": "application/json"},
                ) as response:
                    status, raw = response.status, await response.read()
        except (aiohttp.ClientError, OSError, TimeoutError) as err:
            self._embed_failed(_describe(err))
            raise ModelUnavailableError(_describe(err)) from err
        if status >= 400:
            self._embed_failed(f"HTTP {status}")
            raise ModelUnavailableError(f"HTTP {status}")
        try:
            embeddings = orjson.loads(raw).get("embeddings")
            vectors = np.asarray(embeddings or (), dtype=np.float32)
        except (ValueError, TypeError, AttributeError) as err:  # not JSON, not numbers
            self._embed_failed(f"unreadable response: {type(err).__name__}")
            raise ModelOutputError("unreadable response") from err
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not vectors.shape[1]:
            self._embed_failed("embeddings do not match the texts")
            raise ModelOutputError("embeddings do not match the texts")
        return vectors

    def _http(self) -> aiohttp.ClientSession:
        """The session ``/api/embed`` is called with (kept alive between searches)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=self._verify))
        return self._session

    def report_timeout(self) -> None:
        """Count a call its caller cut short at the caller's deadline (a timeout).

        The deadline counts time queued behind other calls too, so a busy model that answers
        is not reported unreachable for it (the status follows the server, not our queue)."""
        self.stats.failures += 1
        self.stats.last_error = _describe(TimeoutError())

    def report_invalid(self, reason: str) -> None:
        """Count an answer that was JSON but broke the schema (logged once per reason)."""
        self._invalid(reason)

    async def _chat(
        self,
        messages: Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        options: Mapping[str, Any],
        on_content: Callable[[str], None] | None,
    ) -> str:
        """The answer's text, streamed to ``on_content`` piece by piece when it is given."""
        request: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "format": dict(schema),
            "options": dict(options),
            "keep_alive": self.keep_alive,
            "think": False if self._think_supported else None,
        }
        async with asyncio.timeout(self.timeout):
            if on_content is None:
                response = await self._client.chat(**request, stream=False)
                return response.message.content or ""
            parts: list[str] = []
            async for part in await self._client.chat(**request, stream=True):
                if piece := part.message.content:
                    parts.append(piece)
                    on_content(piece)
            return "".join(parts)

    def _set_available(self, available: bool) -> None:
        changed = self.stats.available != available
        self.stats.available = available
        if changed and self.on_status_change is not None:
            self.on_status_change()

    def _failed(self, what: str, err: BaseException) -> None:
        self.stats.failures += 1
        self._set_available(False)
        description = _describe(err)
        self.stats.last_error = description
        self._log_once(f"Ollama {what} failed ({without_userinfo(self.base_url)}): {description}")

    def _embed_failed(self, description: str) -> None:
        self.stats.embed_failures += 1
        self.stats.embed_last_error = description
        self._log_once(f"Ollama embedding failed: {description}; memory search uses words alone")

    def _invalid(self, reason: str) -> None:
        self.stats.invalid_outputs += 1
        self.stats.last_error = f"invalid model output: {reason}"
        self._log_once(f"Ollama returned invalid output ({reason}); no card was made")

    def _log_once(self, message: str) -> None:
        if message not in self._reported:
            self._reported.add(message)
            LOGGER.warning(message)
        else:
            LOGGER.debug(message)


def _describe(err: BaseException) -> str:
    """Describe an error without echoing request bodies (they hold transcripts)."""
    if isinstance(err, ollama.ResponseError):
        return f"HTTP {err.status_code}"
    if isinstance(err, TimeoutError | httpx.TimeoutException):
        return "timed out"
    if isinstance(err, httpx.ConnectError | ConnectionError | aiohttp.ClientConnectorError):
        return "cannot connect"
    return type(err).__name__
