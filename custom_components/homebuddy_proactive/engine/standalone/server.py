"""The standalone host: the engine behind an aiohttp server, without Home Assistant.

:func:`create_app` builds the HTTP API (health, readiness, the API description, sign-in and
sign-out, memories) and the WebSocket, which is served by the same receive loop as the Home
Assistant view (:func:`.transport.run_socket`); :class:`StandaloneApi` opens the store, the
model and the engine at start-up and closes them on the way out. ``scripts/serve.py`` runs
:func:`main`. Settings are in :mod:`.settings`, sign-in in :mod:`.auth`, the memory routes in
:mod:`.memories`, the JSON errors in :mod:`.errors`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from http import HTTPStatus
from typing import Final, cast

import aiosqlite
from aiohttp import web

from ..config import ConfigError, without_userinfo
from ..llm import ModelUnavailableError, OllamaModel
from ..proactive.engine import ProactiveEngine
from ..proactive.prompt import model_context_tokens
from ..proactive.transport import SocketGate, SocketLimits, new_socket, run_socket
from ..storage import ProactiveStore, StoreError
from ..text import warm_up
from . import memories
from .api_docs import docs_page, openapi_document, package_version
from .auth import (
    AccessTokens,
    SigninRateLimiter,
    authenticate,
    sign_in,
    token_hash,
    utcnow,
)
from .errors import BODY_TIMEOUT_KEY, RequestError, identifier, json_errors
from .logs import PathOnlyAccessLogger, configure_logging
from .reminders import ReminderClock
from .settings import DEFAULT_AUTH_PASSWORD, ServerSettings

__all__ = ["API_KEY", "StandaloneApi", "StandaloneRuntime", "create_app", "main"]

LOGGER = logging.getLogger(__name__)
ACCESS_LOGGER = logging.getLogger(f"{__name__}.access")

PURGE_INTERVAL_SECONDS: Final = 3600.0
READY_TIMEOUT_SECONDS: Final = 10.0
SHUTDOWN_TIMEOUT_SECONDS: Final = 10.0
MAX_REQUEST_BYTES: Final = 64 * 1024
# How long the rest of an unread request body is drained after the answer (aiohttp: 10 s).
LINGERING_SECONDS: Final = 2.0
# How long the event loop may keep Python's lock while other threads wait for it (the default is
# 0.005): see :func:`_lengthen_switch_interval`.
SWITCH_INTERVAL_SECONDS: Final = 0.05


@dataclass(kw_only=True)
class StandaloneRuntime:
    """What the running server owns; everything here is closed on cleanup."""

    store: ProactiveStore
    model: OllamaModel
    engine: ProactiveEngine
    tokens: AccessTokens
    reminders: ReminderClock


class StandaloneApi:
    """The standalone server's routes and lifecycle around one :class:`ProactiveEngine`."""

    def __init__(
        self,
        settings: ServerSettings,
        *,
        clock: Callable[[], datetime] = utcnow,
        limiter: SigninRateLimiter | None = None,
        purge_interval: float = PURGE_INTERVAL_SECONDS,
    ) -> None:
        """Keep the settings; the store, model and engine open at application start-up."""
        self.settings = settings
        self.clock = clock
        self.limiter = limiter or SigninRateLimiter()
        self.purge_interval = purge_interval
        self._runtime: StandaloneRuntime | None = None
        self._openapi = openapi_document(package_version())
        self.sockets = SocketGate(
            SocketLimits.for_rate(
                settings.max_frames_per_second,
                per_address=settings.max_sockets_per_address,
                total=settings.max_sockets,
            )
        )

    @property
    def runtime(self) -> StandaloneRuntime:
        """The open store, model, engine and tokens."""
        if self._runtime is None:
            raise RuntimeError("the server is not running")
        return self._runtime

    # -- lifecycle ---------------------------------------------------------------------------

    async def lifespan(self, app: web.Application) -> AsyncIterator[None]:
        """Open store, model and engine; on cleanup stop the purge task and close them."""
        config = self.settings.engine
        store = await ProactiveStore.open(self.settings.database_path)
        model = OllamaModel(
            config.ollama_base_url,
            config.ollama_model,
            timeout=config.ollama_timeout_seconds,
            context_tokens=model_context_tokens(config),
            keep_alive=config.ollama_keep_alive,
        )
        await asyncio.to_thread(warm_up)  # the language model loads off the loop
        engine = ProactiveEngine(config, store, model, clock=self.clock)
        tokens = AccessTokens(store, self.clock, self.settings.auth_token_ttl_seconds)
        await tokens.load()
        reminders = ReminderClock(store, engine, self.settings.time_zone, self.clock)
        self._runtime = StandaloneRuntime(
            store=store, model=model, engine=engine, tokens=tokens, reminders=reminders
        )
        reminders.start()
        purge = asyncio.create_task(self._purge_expired_tokens(), name="homebuddy token purge")
        maintenance = asyncio.create_task(
            engine.memory.maintenance_loop(), name="homebuddy memory maintenance"
        )
        LOGGER.info(
            "HomeBuddy Proactive standalone server on %s:%s: model %s at %s, detector %s, "
            "database %s, authentication %s",
            self.settings.host,
            self.settings.port,
            config.ollama_model,
            without_userinfo(config.ollama_base_url),
            config.detector_mode,
            self.settings.database_path,
            "configured" if self.settings.auth_configured else "NOT configured",
        )
        try:
            yield
        finally:
            await reminders.close()
            for task in (purge, maintenance):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await engine.close()
            await store.close()
            await model.close()
            self._runtime = None

    async def on_shutdown(self, app: web.Application) -> None:
        """Close open sockets (going away) before aiohttp waits for their handlers."""
        if self._runtime is not None:
            await self._runtime.engine.close()

    async def _purge_expired_tokens(self) -> None:
        while True:
            try:
                removed = await self.runtime.tokens.purge_expired()
            except aiosqlite.Error as err:
                LOGGER.warning("Could not purge expired access tokens: %s", err)
            else:
                if removed:
                    LOGGER.debug("Purged %s expired access tokens", removed)
            await asyncio.sleep(self.purge_interval)

    # -- helpers -----------------------------------------------------------------------------

    async def _authenticate(self, request: web.Request) -> str:
        """Return the request's valid bearer token or raise the right error."""
        return await authenticate(request, self.settings, self.runtime.tokens)

    # -- routes ------------------------------------------------------------------------------

    async def openapi(self, request: web.Request) -> web.Response:
        """``GET /openapi.json``: the machine-readable description of this API."""
        return web.json_response(self._openapi)

    async def docs(self, request: web.Request) -> web.Response:
        """``GET /docs``: the same description as a readable page."""
        return web.Response(text=docs_page(self._openapi), content_type="text/html")

    async def health(self, request: web.Request) -> web.Response:
        """``GET /health``: the process is up."""
        return web.json_response({"status": "ok"})

    async def ready(self, request: web.Request) -> web.Response:
        """``GET /ready``: authentication is configured, the database takes writes and Ollama
        has the model.
        """
        model_name = self.settings.engine.ollama_model
        reason: str | None = None
        if not self.settings.auth_configured:
            reason = "authentication is not configured (AUTH_USERNAME, AUTH_PASSWORD)"
        elif (storage := await self._storage_problem()) is not None:
            reason = f"the database cannot be written: {storage}"
        else:
            try:
                async with asyncio.timeout(READY_TIMEOUT_SECONDS):
                    models = await self.runtime.model.list_models()
            except ModelUnavailableError as err:
                reason = f"Ollama is unreachable: {err}"
            except TimeoutError:
                reason = "Ollama is unreachable: timed out"
            else:
                if model_name not in models and f"{model_name}:latest" not in models:
                    reason = f"model {model_name!r} is not available on the Ollama server"
        if reason is not None:
            return web.json_response(
                {"status": "not_ready", "model": model_name, "reason": reason},
                status=HTTPStatus.SERVICE_UNAVAILABLE,
            )
        return web.json_response({"status": "ready", "model": model_name})

    async def _storage_problem(self) -> str | None:
        """Why the database takes no write (a read-only file or folder, a stalled disk)."""
        try:
            async with asyncio.timeout(READY_TIMEOUT_SECONDS):
                return await self.runtime.store.writable()
        except TimeoutError:
            return "a write probe timed out"

    async def signin(self, request: web.Request) -> web.Response:
        """``POST /v1/auth/signin``: exchange the configured credentials for a token."""
        return await sign_in(request, self.settings, self.limiter, self.runtime.tokens)

    async def signout(self, request: web.Request) -> web.Response:
        """``POST /v1/auth/signout``: revoke the bearer token."""
        token = await self._authenticate(request)
        await self.runtime.tokens.revoke(token)
        return web.json_response({"signed_out": True})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """``GET /v1/ws?client_id=…&session_id=…``: the transcript protocol."""
        token = await self._authenticate(request)
        client_id = identifier("client_id", request.query.get("client_id"))
        session_id = identifier("session_id", request.query.get("session_id"))
        ws = new_socket()
        if not ws.can_prepare(request).ok:
            raise RequestError(HTTPStatus.BAD_REQUEST, "expected a WebSocket upgrade request")
        runtime = self.runtime
        refused = self.sockets.admit(request.remote)
        if refused is not None:
            per_address = self.sockets.open_for(request.remote) >= self.sockets.limits.per_address
            raise RequestError(
                HTTPStatus.TOO_MANY_REQUESTS if per_address else HTTPStatus.SERVICE_UNAVAILABLE,
                f"too many open sockets ({refused}); close one or try again later",
                headers={"Retry-After": "5"},
            )

        hashed = token_hash(token)

        def still_authorized() -> bool:
            # In memory: a message never waits for the database to be checked.
            return runtime.tokens.is_valid_hash(hashed)

        try:
            await ws.prepare(request)
            await run_socket(
                ws,
                runtime.engine,
                client_id,
                session_id,
                still_authorized,
                limits=self.sockets.limits,
            )
        finally:
            self.sockets.release(request.remote)
        return ws

    async def add_memory(self, request: web.Request) -> web.Response:
        """``POST /v1/memories``: see :func:`.memories.add_memory`."""
        await self._authenticate(request)
        return await memories.add_memory(request, self.runtime.engine.memory)

    async def list_memories(self, request: web.Request) -> web.Response:
        """``GET /v1/memories``: see :func:`.memories.list_memories`."""
        await self._authenticate(request)
        return await memories.list_memories(request, self.runtime.engine.memory)

    async def update_memory(self, request: web.Request) -> web.Response:
        """``PATCH /v1/memories/{memory_id}``: see :func:`.memories.update_memory`."""
        await self._authenticate(request)
        return await memories.update_memory(request, self.runtime.engine.memory)

    async def delete_memory(self, request: web.Request) -> web.Response:
        """``DELETE /v1/memories/{memory_id}``: see :func:`.memories.delete_memory`."""
        await self._authenticate(request)
        return await memories.delete_memory(request, self.runtime.engine.memory)

    async def memory_history(self, request: web.Request) -> web.Response:
        """``GET /v1/memories/{memory_id}/history``: see :func:`.memories.memory_history`."""
        await self._authenticate(request)
        return await memories.memory_history(request, self.runtime.engine.memory)

    async def session_summary(self, request: web.Request) -> web.Response:
        """``GET /v1/sessions/{session_id}/summary``: the session's summary, or 404."""
        await self._authenticate(request)
        session_id = identifier("session_id", request.match_info["session_id"])
        summary = await self.runtime.engine.session_summary(session_id)
        if summary is None:
            raise RequestError(HTTPStatus.NOT_FOUND, "no summary for this session yet")
        return web.json_response(summary)


API_KEY: Final = web.AppKey("homebuddy_api", StandaloneApi)


class RepeatedErrorFilter(logging.Filter):
    """Let one kind of resource error through at most once per interval.

    When file descriptors run out, asyncio reports every failed ``accept()`` through the
    loop's exception handler (the ``asyncio`` logger), each with a traceback; unfiltered that
    wrote hundreds of thousands of identical tracebacks a minute (each failed accept round
    also schedules one retry per backlog slot). Records about ``accept()`` or its retry
    (``_start_serving``) or carrying an out-of-resources ``OSError`` are collapsed per first
    line and error: the first passes, the rest are counted, and the next one that passes says
    how many were held back; an out-of-resources error is written as one line, without its
    traceback.
    Everything else passes untouched.
    """

    RESOURCE_ERRNOS: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        """Collapse repeats within ``interval`` seconds."""
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._last: dict[tuple[str, str], float] = {}
        self._held: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is logged (repeats within the interval are not)."""
        error = record.exc_info[1] if record.exc_info else None
        first_line = str(record.msg).partition("\n")[0]
        resource = isinstance(error, OSError) and error.errno in self.RESOURCE_ERRNOS
        if not resource and "accept" not in first_line and "_start_serving" not in first_line:
            return True
        key = (first_line[:200], type(error).__name__ if error else "")
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            self._held[key] = self._held.get(key, 0) + 1
            return False
        self._last[key] = now
        if resource:
            # The error says it all; its traceback (asyncio's accept loop) says nothing more.
            detail = f"{type(error).__name__}: {error}"
            record.msg = f"{record.msg}\n{detail.replace('%', '%%') if record.args else detail}"
            record.exc_info = None
            record.exc_text = None
        held = self._held.pop(key, 0)
        if held and last is not None:
            record.msg = f"{record.msg}\n({held} more like this in the last {now - last:.0f} s)"
        return True


def install_accept_error_filter(interval: float) -> RepeatedErrorFilter:
    """Collapse repeated accept() errors of asyncio's (and aiohttp's server) loggers."""
    collapse = RepeatedErrorFilter(interval)
    for name in ("asyncio", "aiohttp.server"):
        logging.getLogger(name).addFilter(collapse)
    return collapse


def create_app(
    settings: ServerSettings,
    *,
    clock: Callable[[], datetime] = utcnow,
    limiter: SigninRateLimiter | None = None,
    purge_interval: float = PURGE_INTERVAL_SECONDS,
) -> web.Application:
    """Build the standalone aiohttp application (store, model and engine open on start-up)."""
    api = StandaloneApi(settings, clock=clock, limiter=limiter, purge_interval=purge_interval)
    app = web.Application(middlewares=[json_errors], client_max_size=MAX_REQUEST_BYTES)
    app[API_KEY] = api
    app[BODY_TIMEOUT_KEY] = float(settings.body_timeout_seconds)
    app.cleanup_ctx.append(api.lifespan)
    app.on_shutdown.append(api.on_shutdown)
    app.router.add_get("/health", api.health)
    app.router.add_get("/ready", api.ready)
    app.router.add_get("/openapi.json", api.openapi)
    app.router.add_get("/docs", api.docs)
    app.router.add_post("/v1/auth/signin", api.signin)
    app.router.add_post("/v1/auth/signout", api.signout)
    app.router.add_get("/v1/ws", api.websocket)
    app.router.add_post("/v1/memories", api.add_memory)
    app.router.add_get("/v1/memories", api.list_memories)
    app.router.add_patch("/v1/memories/{memory_id}", api.update_memory)
    app.router.add_delete("/v1/memories/{memory_id}", api.delete_memory)
    app.router.add_get("/v1/memories/{memory_id}/history", api.memory_history)
    app.router.add_get("/v1/sessions/{session_id}/summary", api.session_summary)
    return app


class _HeaderDeadline:
    """The server's protocol factory, with a deadline for each connection's first request.

    Aiohttp waits for a first request's headers forever (its keep-alive timeout only starts
    after a response): a connection that has not completed its request headers within the
    header timeout is closed. Everything else is the wrapped :class:`web.Server`'s.
    """

    def __init__(self, server: web.Server, timeout: float) -> None:
        self._server = server
        self._timeout = timeout

    def __getattr__(self, name: str) -> object:
        return getattr(self._server, name)

    def __call__(self) -> web.RequestHandler:
        handler = self._server()
        asyncio.get_running_loop().call_later(self._timeout, _expire_idle, handler)
        return handler


def _expire_idle(handler: web.RequestHandler) -> None:
    # No request parsed yet (none started, or its headers are still incomplete): close.
    if getattr(handler, "_request_count", 1) == 0 and handler.transport is not None:
        LOGGER.debug("Closing a connection that sent no complete request headers in time")
        handler.force_close()


class _Runner(web.AppRunner):
    """An :class:`web.AppRunner` whose server closes connections that send no request."""

    def __init__(self, app: web.Application, *, header_timeout: float, **kwargs: object) -> None:
        super().__init__(app, **kwargs)  # type: ignore[arg-type]
        self._header_timeout = header_timeout

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        return cast(web.Server, _HeaderDeadline(server, self._header_timeout))


def _freeze_heap() -> None:
    """Keep what start-up loaded out of the garbage collector's full passes.

    The language rules, the modules and the loaded model are a quarter of a million objects that
    live as long as the process; each full collection walked them all (hundreds of
    milliseconds on a busy 2-core machine, an ack stalled as long). Frozen once loaded, a full
    pass walks only what the server allocated since. Only this process's own entry point does
    it: a host (Home Assistant, a test run) manages its own heap.
    """
    gc.collect()
    gc.freeze()


def _lengthen_switch_interval() -> None:
    """Let the event loop keep Python's lock until it waits, not hand it over every 5 ms.

    The threads beside the loop (SQLite's, the checkpoints') need the lock only briefly, between
    calls into SQLite; with the default interval a busy loop was made to hand it over (and wait
    to get it back) up to a few dozen times per group commit. With
    :data:`SWITCH_INTERVAL_SECONDS` they take it when the loop waits for its sockets, which a
    serving loop does many times a second. Two servers side by side under the 50-socket load of
    ``scripts/bench/bench_ingest.py``, phases alternating: 0.92-0.97x the CPU per final and 3-7 %
    more finals/s in four runs (medians of 6-16 pairs), the acks' latency under that load no worse.
    Only this process's own entry point sets it: a host (Home Assistant, a test run) keeps its
    own.
    """
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


def _new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (the container's requirements have it), else
    asyncio's own: the same server, each socket's reads, writes and wake-ups in C.

    Side by side with asyncio's loop under the 50-socket load of ``scripts/bench/bench_ingest.py``,
    the server's CPU per final was 0.88-0.96x (medians of 6-12 alternating phases). Only this
    process's own entry point chooses: a host (Home Assistant, a test run) runs its own loop.
    """
    try:
        import uvloop  # optional: asyncio's loop serves the same without it
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def _run(app: web.Application, settings: ServerSettings) -> None:
    """Serve ``app`` until SIGINT/SIGTERM, as :func:`web.run_app` does, with the timeouts."""

    async def serve() -> None:
        runner = _Runner(
            app,
            header_timeout=float(settings.header_timeout_seconds),
            handle_signals=True,
            access_log=ACCESS_LOGGER,
            access_log_class=PathOnlyAccessLogger,
            keepalive_timeout=float(settings.keepalive_timeout_seconds),
            shutdown_timeout=SHUTDOWN_TIMEOUT_SECONDS,
            handler_cancellation=True,
            lingering_time=LINGERING_SECONDS,
        )
        await runner.setup()  # the store, the model client, the language rules: all loaded
        _freeze_heap()
        _lengthen_switch_interval()
        try:
            await web.TCPSite(runner, settings.host, settings.port).start()
            await asyncio.Event().wait()  # until a signal ends the loop
        finally:
            await runner.cleanup()

    loop = _new_event_loop()
    asyncio.set_event_loop(loop)
    task = loop.create_task(serve())
    try:
        loop.run_until_complete(task)
    except (web.GracefulExit, KeyboardInterrupt):
        pass
    finally:
        try:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(task)
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


def main(environ: Mapping[str, str] | None = None) -> int:
    """Run the server until SIGINT/SIGTERM; return the process exit code."""
    try:
        settings = ServerSettings.from_env(os.environ if environ is None else environ)
    except ConfigError as err:
        print(f"homebuddy-proactive: configuration error: {err}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    install_accept_error_filter(settings.accept_error_log_interval_seconds)
    if not settings.auth_configured:
        LOGGER.warning(
            "AUTH_USERNAME or AUTH_PASSWORD is empty: sign-in is disabled and /ready reports 503"
        )
    elif settings.auth_password == DEFAULT_AUTH_PASSWORD:
        LOGGER.warning("AUTH_PASSWORD is the default; set a strong one before deployment")
    try:
        _run(create_app(settings), settings)
    except StoreError as err:
        print(f"homebuddy-proactive: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(
            f"homebuddy-proactive: cannot serve on {settings.host}:{settings.port}: {err}",
            file=sys.stderr,
        )
        return 1
    return 0
