"""The Ollama boundary: list models and ask for structured (JSON-schema) answers.

Every library error is translated here, once, into the engine's own exceptions so callers never
see ``httpx`` or ``ollama`` types. Nothing here logs prompt contents: they hold transcripts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx
import ollama

LOGGER = logging.getLogger(__name__)

# Ollama's keep_alive when the host says nothing: the model stays loaded.
KEEP_ALIVE: Final = -1
# Ollama's num_ctx when the host says nothing, and the step a larger one is rounded up to.
CONTEXT_TOKENS: Final = 4096
CONTEXT_STEP: Final = 1024
# Template tokens a chat message costs beyond its content (role markers), estimated high.
MESSAGE_OVERHEAD_TOKENS: Final = 8


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


def after_prefix(
    prefix: Sequence[Mapping[str, str]], messages: Sequence[Mapping[str, str]]
) -> list[dict[str, str]]:
    """A task asked after a shared prefix (a system message, then the start of a user one).

    The model server keeps one prompt in its KV cache: a task that starts with the prefix the
    other calls of a session start with (instructions, conversation) costs only its own end.
    The task's messages, its own instructions included, become the end of the user message.
    """
    if len(prefix) != 2:
        return [dict(message) for message in messages]
    system, user = prefix
    task = "\n\n".join(message.get("content", "") for message in messages)
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


@dataclass
class ModelStats:
    """Counters of model calls, for diagnostics and the LLM status sensor."""

    calls: int = 0
    failures: int = 0
    invalid_outputs: int = 0
    last_error: str | None = None
    available: bool | None = None


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
        # Called when Ollama becomes reachable or unreachable (the HA status sensor).
        self.on_status_change: Callable[[], None] | None = None
        self._client = ollama.AsyncClient(host=base_url, timeout=timeout, verify=verify)
        self._think_supported = True
        self._reported: set[str] = set()

    async def close(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.close()  # type: ignore[no-untyped-call]

    async def list_models(self) -> list[str]:
        """Return the names of the models the server has."""
        try:
            response = await self._client.list()
        except (httpx.HTTPError, ollama.ResponseError, ConnectionError, OSError) as err:
            self._failed("list", err)
            raise ModelUnavailableError(_describe(err)) from err
        self._set_available(True)
        return sorted(m.model for m in response.models if m.model)

    async def chat_json(
        self,
        messages: Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        *,
        max_tokens: int = 400,
        temperature: float = 0.2,
    ) -> dict[str, Any]:
        """Ask for one JSON object that follows ``schema``; return it parsed.

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
        try:
            response = await self._chat(messages, schema, options)
        except ollama.ResponseError as err:
            if self._think_supported and err.status_code == 400 and "think" in str(err).lower():
                # Models without a thinking mode reject think=False: ask again without it.
                self._think_supported = False
                try:
                    response = await self._chat(messages, schema, options)
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
        content = response.message.content or ""
        try:
            data = json.loads(content)
        except json.JSONDecodeError as err:
            self._invalid("content is not JSON")
            raise ModelOutputError("content is not JSON") from err
        if not isinstance(data, dict):
            self._invalid("content is not a JSON object")
            raise ModelOutputError("content is not a JSON object")
        return data

    def report_timeout(self) -> None:
        """Count a call its caller cut short at the caller's deadline (a timeout)."""
        self._failed("chat", TimeoutError())

    def report_invalid(self, reason: str) -> None:
        """Count an answer that was JSON but broke the schema (logged once per reason)."""
        self._invalid(reason)

    async def _chat(
        self,
        messages: Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> ollama.ChatResponse:
        return await asyncio.wait_for(
            self._client.chat(
                model=self.model,
                messages=list(messages),
                format=dict(schema),
                options=dict(options),
                keep_alive=self.keep_alive,
                think=False if self._think_supported else None,
                stream=False,
            ),
            timeout=self.timeout,
        )

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
        self._log_once(f"Ollama {what} failed: {description}")

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
    if isinstance(err, httpx.ConnectError | ConnectionError):
        return "cannot connect"
    return type(err).__name__
