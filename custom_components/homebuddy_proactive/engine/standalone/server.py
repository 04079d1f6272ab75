"""The standalone host: the engine behind an aiohttp server, without Home Assistant.

Configuration comes from the environment variables of the seed's table (:class:`ServerSettings`);
:func:`create_app` builds the HTTP API (health, readiness, sign-in and sign-out with hashed,
expiring tokens, memories) and the WebSocket, which is served by the same receive loop as the
Home Assistant view (:func:`.transport.run_socket`). ``scripts/serve.py`` runs :func:`main`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import os
import secrets
import sys
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import aiosqlite
from aiohttp import hdrs, web
from aiohttp.abc import AbstractAccessLogger

from ..config import TUNING_SETTINGS, ConfigError, EngineConfig, validate_tuning
from ..const import DETECTOR_CONVERSATE, DETECTOR_MODES
from ..llm import ModelUnavailableError, OllamaModel
from ..memory import STORE_FACTUAL, MemoryNotFoundError, memory_dict
from ..memory import MemoryError as MemoryRequestError
from ..proactive.engine import ProactiveEngine
from ..proactive.protocol import validate_identifier
from ..proactive.transport import bearer_token, credential_in_url, new_socket, run_socket
from ..storage import ProactiveStore, StoreError
from .api_docs import docs_page, openapi_document, package_version

LOGGER = logging.getLogger(__name__)
ACCESS_LOGGER = logging.getLogger(f"{__name__}.access")

DEFAULT_HOST: Final = "0.0.0.0"
DEFAULT_PORT: Final = 18743
DEFAULT_DATABASE_PATH: Final = "/data/homebuddy.db"
DEFAULT_OLLAMA_BASE_URL: Final = "http://192.168.68.112:11434"
DEFAULT_OLLAMA_MODEL: Final = "qwen3.5:cloud"
DEFAULT_AUTH_USERNAME: Final = "homebuddy"
DEFAULT_AUTH_PASSWORD: Final = "123456"
DEFAULT_TOKEN_TTL_SECONDS: Final = 86400
MIN_TOKEN_TTL_SECONDS: Final = 60
MAX_TOKEN_TTL_SECONDS: Final = 365 * 86400
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# Sign-in throttling per client address: this many failures inside the window block the
# address until the oldest failure leaves the window. Addresses tracked are bounded.
SIGNIN_MAX_FAILURES: Final = 5
SIGNIN_WINDOW_SECONDS: Final = 60.0
SIGNIN_MAX_ADDRESSES: Final = 4096

PURGE_INTERVAL_SECONDS: Final = 3600.0
READY_TIMEOUT_SECONDS: Final = 10.0
SHUTDOWN_TIMEOUT_SECONDS: Final = 10.0
MAX_REQUEST_BYTES: Final = 64 * 1024
MAX_CREDENTIAL_CHARACTERS: Final = 1024

# Query parameter names that would carry a credential: refused, since URLs end up in logs.
# -- settings --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    """Everything the standalone server reads from its environment."""

    engine: EngineConfig
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    auth_username: str = DEFAULT_AUTH_USERNAME
    auth_password: str = DEFAULT_AUTH_PASSWORD
    auth_token_ttl_seconds: int = DEFAULT_TOKEN_TTL_SECONDS
    log_level: str = "INFO"

    @property
    def auth_configured(self) -> bool:
        """Whether sign-in is possible (both credentials set and non-empty)."""
        return bool(self.auth_username) and bool(self.auth_password)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> ServerSettings:
        """Read and validate the settings; raise :class:`ConfigError` naming the variable.

        An empty value means "use the default", except for AUTH_USERNAME and AUTH_PASSWORD,
        where an explicitly empty value leaves authentication unconfigured.
        """

        def get(name: str, default: str) -> str:
            value = environ.get(name, "").strip()
            return value or default

        base_url = get("OLLAMA_BASE_URL", DEFAULT_OLLAMA_BASE_URL).rstrip("/")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(
                f"OLLAMA_BASE_URL must be an http:// or https:// URL, got {base_url!r}"
            )
        mode = get("DETECTOR_MODE", DETECTOR_CONVERSATE).lower()
        if mode not in DETECTOR_MODES:
            raise ConfigError(
                f"DETECTOR_MODE must be one of {', '.join(DETECTOR_MODES)}, got {mode!r}"
            )
        tuning: dict[str, float | int] = {}
        for setting in TUNING_SETTINGS:
            raw = environ.get(setting.env, "").strip()
            if raw:
                tuning[setting.key] = validate_tuning(setting.key, raw)
        target = tuning.get("insight_target_characters", 150)
        maximum = tuning.get("insight_max_characters", 220)
        if maximum < target:
            raise ConfigError(
                f"INSIGHT_MAX_CHARACTERS ({maximum}) must not be below "
                f"INSIGHT_TARGET_CHARACTERS ({target})"
            )
        engine = EngineConfig(
            ollama_base_url=base_url,
            ollama_model=get("OLLAMA_MODEL", DEFAULT_OLLAMA_MODEL),
            detector_mode=mode,
        ).with_tuning(tuning)

        log_level = get("LOG_LEVEL", "INFO").upper()
        if log_level == "WARN":
            log_level = "WARNING"
        if log_level not in LOG_LEVELS:
            raise ConfigError(
                f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}"
            )

        return cls(
            engine=engine,
            host=get("HOST", DEFAULT_HOST),
            port=_whole_number(environ, "PORT", DEFAULT_PORT, 1, 65535),
            database_path=Path(get("DATABASE_PATH", DEFAULT_DATABASE_PATH)),
            auth_username=environ.get("AUTH_USERNAME", DEFAULT_AUTH_USERNAME),
            auth_password=environ.get("AUTH_PASSWORD", DEFAULT_AUTH_PASSWORD),
            auth_token_ttl_seconds=_whole_number(
                environ,
                "AUTH_TOKEN_TTL_SECONDS",
                DEFAULT_TOKEN_TTL_SECONDS,
                MIN_TOKEN_TTL_SECONDS,
                MAX_TOKEN_TTL_SECONDS,
            ),
            log_level=log_level,
        )


def _whole_number(
    environ: Mapping[str, str], name: str, default: int, minimum: int, maximum: int
) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as err:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from err
    if not minimum <= value <= maximum:
        raise ConfigError(f"{name} must be between {minimum} and {maximum}, got {raw!r}")
    return value


def _without_userinfo(url: str) -> str:
    """The URL without ``user:password@`` (safe to log)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


# -- authentication --------------------------------------------------------------------------


def utcnow() -> datetime:
    """The default wall clock (timezone-aware UTC)."""
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest stored in place of an access token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, kw_only=True)
class IssuedToken:
    """An access token handed out at sign-in (the only time it exists in clear)."""

    access_token: str
    expires_in: int
    expires_at: datetime

    def as_dict(self) -> dict[str, Any]:
        """The sign-in response body."""
        return {
            "access_token": self.access_token,
            "token_type": "bearer",
            "expires_in": self.expires_in,
            "expires_at": self.expires_at.isoformat(),
        }


class AccessTokens:
    """Issues, checks and revokes bearer tokens; only their SHA-256 hashes are stored."""

    def __init__(
        self, store: ProactiveStore, clock: Callable[[], datetime], ttl_seconds: int
    ) -> None:
        """Bind the store, the clock and the token lifetime."""
        self.store = store
        self.clock = clock
        self.ttl_seconds = ttl_seconds

    async def issue(self, username: str) -> IssuedToken:
        """Create a token and store its hash."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires_at = (now + timedelta(seconds=self.ttl_seconds)).replace(microsecond=0)
        await self.store.add_auth_session(token_hash(token), username, now, expires_at)
        return IssuedToken(access_token=token, expires_in=self.ttl_seconds, expires_at=expires_at)

    async def is_valid(self, token: str) -> bool:
        """Whether the token is known, not revoked and not expired."""
        expires_at = await self.store.auth_session_expiry(token_hash(token))
        return expires_at is not None and self.clock() < expires_at

    async def revoke(self, token: str) -> bool:
        """Delete the token's hash; False when it was unknown."""
        return await self.store.delete_auth_session(token_hash(token))

    async def purge_expired(self) -> int:
        """Delete the hashes of expired tokens; return how many went."""
        return await self.store.delete_expired_auth_sessions(self.clock())


class SigninRateLimiter:
    """Failed sign-ins per client address in a sliding window, in bounded memory."""

    def __init__(
        self,
        *,
        max_failures: int = SIGNIN_MAX_FAILURES,
        window_seconds: float = SIGNIN_WINDOW_SECONDS,
        max_addresses: int = SIGNIN_MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Set the limits; ``clock`` is monotonic seconds."""
        self.max_failures = max_failures
        self.window = window_seconds
        self.max_addresses = max_addresses
        self.clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def __len__(self) -> int:
        """How many addresses are tracked."""
        return len(self._failures)

    def retry_after(self, address: str) -> int | None:
        """Seconds the address must wait before trying again, or None when it may try."""
        failures = self._failures.get(address)
        if failures is None:
            return None
        now = self.clock()
        while failures and now - failures[0] >= self.window:
            failures.popleft()
        if not failures:
            del self._failures[address]
            return None
        if len(failures) < self.max_failures:
            return None
        return max(1, math.ceil(self.window - (now - failures[0])))

    def failed(self, address: str) -> None:
        """Count a failed attempt."""
        failures = self._failures.get(address)
        if failures is None:
            failures = self._failures[address] = deque(maxlen=self.max_failures)
        self._failures.move_to_end(address)
        failures.append(self.clock())
        while len(self._failures) > self.max_addresses:
            self._failures.popitem(last=False)

    def succeeded(self, address: str) -> None:
        """Forget the address's failures."""
        self._failures.pop(address, None)


# -- logging ---------------------------------------------------------------------------------


class PathOnlyAccessLogger(AbstractAccessLogger):
    """Access log lines with the path only: no query string, no headers."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Log one finished request."""
        self.logger.info(
            "%s %s %s %s %.0fms",
            request.remote or "-",
            request.method,
            request.path,
            response.status,
            time * 1000,
        )


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``, keeping libraries that could log secrets quieter."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # aiosqlite logs SQL parameters (transcripts, token hashes) at DEBUG.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))
    # httpx logs every Ollama call at INFO; httpcore traces connections at DEBUG.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.INFO)


# -- the application -------------------------------------------------------------------------


class RequestError(Exception):
    """An HTTP request that is answered with a JSON error."""

    def __init__(
        self,
        status: HTTPStatus,
        message: str,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Carry the status, a human message and extra headers."""
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


def error_response(
    status: HTTPStatus, message: str, headers: Mapping[str, str] | None = None
) -> web.Response:
    """A JSON error body: a machine code and a human ``detail``."""
    code = status.phrase.lower().replace(" ", "_").replace("-", "_")
    return web.json_response({"error": code, "detail": message}, status=status, headers=headers)


@web.middleware
async def json_errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Answer every error as JSON, including aiohttp's own 404/405/413."""
    try:
        return await handler(request)
    except RequestError as err:
        return error_response(err.status, err.message, err.headers)
    except web.HTTPException as err:
        if err.status < 400:
            raise
        headers = {
            k: v
            for k, v in err.headers.items()
            if k not in (hdrs.CONTENT_TYPE, hdrs.CONTENT_LENGTH)
        }
        return error_response(HTTPStatus(err.status), err.reason, headers)


@dataclass(kw_only=True)
class StandaloneRuntime:
    """What the running server owns; everything here is closed on cleanup."""

    store: ProactiveStore
    model: OllamaModel
    engine: ProactiveEngine
    tokens: AccessTokens


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
            config.ollama_base_url, config.ollama_model, timeout=config.ollama_timeout_seconds
        )
        engine = ProactiveEngine(config, store, model, clock=self.clock)
        tokens = AccessTokens(store, self.clock, self.settings.auth_token_ttl_seconds)
        self._runtime = StandaloneRuntime(store=store, model=model, engine=engine, tokens=tokens)
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
            _without_userinfo(config.ollama_base_url),
            config.detector_mode,
            self.settings.database_path,
            "configured" if self.settings.auth_configured else "NOT configured",
        )
        try:
            yield
        finally:
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
        if credential_in_url(request):
            raise RequestError(
                HTTPStatus.UNAUTHORIZED,
                "tokens are not accepted in the URL; send Authorization: Bearer <token>",
                headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
            )
        if not self.settings.auth_configured:
            raise RequestError(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "authentication is not configured (AUTH_USERNAME, AUTH_PASSWORD)",
            )
        token = bearer_token(request)
        if token is None:
            raise RequestError(
                HTTPStatus.UNAUTHORIZED,
                "send Authorization: Bearer <token>",
                headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
            )
        if not await self.runtime.tokens.is_valid(token):
            raise RequestError(
                HTTPStatus.UNAUTHORIZED,
                "the access token is invalid, expired or revoked; sign in again",
                headers={hdrs.WWW_AUTHENTICATE: 'Bearer error="invalid_token"'},
            )
        return token

    @staticmethod
    async def _json_object(request: web.Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be JSON") from err
        if not isinstance(data, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return data

    @staticmethod
    def _identifier(name: str, value: Any) -> str:
        if value is not None and not isinstance(value, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, f"{name} must be a string")
        try:
            return validate_identifier(name, value)
        except ValueError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err

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
        """``GET /ready``: authentication is configured and Ollama has the model."""
        model_name = self.settings.engine.ollama_model
        reason: str | None = None
        if not self.settings.auth_configured:
            reason = "authentication is not configured (AUTH_USERNAME, AUTH_PASSWORD)"
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

    async def signin(self, request: web.Request) -> web.Response:
        """``POST /v1/auth/signin``: exchange the configured credentials for a token."""
        if not self.settings.auth_configured:
            raise RequestError(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "authentication is not configured (AUTH_USERNAME, AUTH_PASSWORD)",
            )
        address = request.remote or "unknown"
        wait = self.limiter.retry_after(address)
        if wait is not None:
            raise RequestError(
                HTTPStatus.TOO_MANY_REQUESTS,
                f"too many failed sign-ins; try again in {wait} seconds",
                headers={hdrs.RETRY_AFTER: str(wait)},
            )
        data = await self._json_object(request)
        username, password = data.get("username"), data.get("password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, "username and password are required strings")
        if len(username) > MAX_CREDENTIAL_CHARACTERS or len(password) > MAX_CREDENTIAL_CHARACTERS:
            raise RequestError(HTTPStatus.BAD_REQUEST, "username or password is too long")
        # Both comparisons always run, in constant time, so timing reveals neither field.
        username_ok = hmac.compare_digest(username.encode(), self.settings.auth_username.encode())
        password_ok = hmac.compare_digest(password.encode(), self.settings.auth_password.encode())
        if not (username_ok & password_ok):
            self.limiter.failed(address)
            LOGGER.warning("Failed sign-in from %s", address)
            raise RequestError(
                HTTPStatus.UNAUTHORIZED,
                "invalid username or password",
                headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
            )
        self.limiter.succeeded(address)
        issued = await self.runtime.tokens.issue(username)
        return web.json_response(issued.as_dict(), headers={hdrs.CACHE_CONTROL: "no-store"})

    async def signout(self, request: web.Request) -> web.Response:
        """``POST /v1/auth/signout``: revoke the bearer token."""
        token = await self._authenticate(request)
        await self.runtime.tokens.revoke(token)
        return web.json_response({"signed_out": True})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """``GET /v1/ws?client_id=…&session_id=…``: the transcript protocol."""
        token = await self._authenticate(request)
        client_id = self._identifier("client_id", request.query.get("client_id"))
        session_id = self._identifier("session_id", request.query.get("session_id"))
        ws = new_socket()
        if not ws.can_prepare(request).ok:
            raise RequestError(HTTPStatus.BAD_REQUEST, "expected a WebSocket upgrade request")
        runtime = self.runtime

        async def still_authorized() -> bool:
            return await runtime.tokens.is_valid(token)

        await ws.prepare(request)
        await run_socket(ws, runtime.engine, client_id, session_id, still_authorized)
        return ws

    async def add_memory(self, request: web.Request) -> web.Response:
        """``POST /v1/memories``: remember something for a client (or ``global``)."""
        await self._authenticate(request)
        data = await self._json_object(request)
        client_id = self._identifier("client_id", data.get("client_id"))
        kind, content = data.get("kind"), data.get("content")
        if not isinstance(kind, str) or not isinstance(content, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, "kind and content are required strings")
        importance = data.get("importance", 0.5)
        if isinstance(importance, bool) or not isinstance(importance, int | float):
            raise RequestError(HTTPStatus.BAD_REQUEST, "importance must be a number from 0 to 1")
        try:
            memory = await self.runtime.engine.memory.remember(
                client_id, kind, content, importance=float(importance), source="api"
            )
        except MemoryRequestError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
        return web.json_response(memory.as_dict(), status=HTTPStatus.CREATED)

    async def list_memories(self, request: web.Request) -> web.Response:
        """``GET /v1/memories?client_id=…[&store=…]``: a client's memories of every store."""
        await self._authenticate(request)
        client_id = self._identifier("client_id", request.query.get("client_id"))
        try:
            memories = await self.runtime.engine.memory.overview(
                client_id, request.query.get("store")
            )
        except MemoryRequestError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
        return web.json_response({"client_id": client_id, "memories": memories})

    async def update_memory(self, request: web.Request) -> web.Response:
        """``PATCH /v1/memories/{memory_id}[?store=…&client_id=…]``: correct a memory.

        The body holds the fields to change (those of the store's ``EDITABLE_FIELDS``).
        """
        await self._authenticate(request)
        memory_id, client_id = self._memory_target(request)
        changes = await self._json_object(request)
        store = request.query.get("store", STORE_FACTUAL)
        try:
            revised = await self.runtime.engine.memory.revise(
                memory_id, changes, client_id, store=store
            )
        except MemoryNotFoundError as err:
            raise RequestError(HTTPStatus.NOT_FOUND, f"memory {memory_id} does not exist") from err
        except MemoryRequestError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
        return web.json_response(memory_dict(revised))

    def _memory_target(self, request: web.Request) -> tuple[int, str | None]:
        """The memory id of the path and the optional ``client_id`` query parameter."""
        raw = request.match_info["memory_id"]
        if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            raise RequestError(HTTPStatus.BAD_REQUEST, "memory id must be a positive integer")
        client_id: str | None = None
        if "client_id" in request.query:
            client_id = self._identifier("client_id", request.query["client_id"])
        return int(raw), client_id

    async def delete_memory(self, request: web.Request) -> web.Response:
        """``DELETE /v1/memories/{memory_id}[?store=…]`` (optionally only a given client's)."""
        await self._authenticate(request)
        memory_id, client_id = self._memory_target(request)
        try:
            store = request.query.get("store", STORE_FACTUAL)
            found = await self.runtime.engine.memory.forget(memory_id, client_id, store=store)
        except MemoryRequestError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
        if not found:
            raise RequestError(HTTPStatus.NOT_FOUND, f"memory {memory_id} does not exist")
        return web.json_response({"deleted": True, "id": memory_id})


API_KEY: Final = web.AppKey("homebuddy_api", StandaloneApi)


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
    return app


def main(environ: Mapping[str, str] | None = None) -> int:
    """Run the server until SIGINT/SIGTERM; return the process exit code."""
    try:
        settings = ServerSettings.from_env(os.environ if environ is None else environ)
    except ConfigError as err:
        print(f"homebuddy-proactive: configuration error: {err}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if not settings.auth_configured:
        LOGGER.warning(
            "AUTH_USERNAME or AUTH_PASSWORD is empty: sign-in is disabled and /ready reports 503"
        )
    elif settings.auth_password == DEFAULT_AUTH_PASSWORD:
        LOGGER.warning("AUTH_PASSWORD is the default; set a strong one before deployment")
    try:
        web.run_app(
            create_app(settings),
            host=settings.host,
            port=settings.port,
            access_log=ACCESS_LOGGER,
            access_log_class=PathOnlyAccessLogger,
            shutdown_timeout=SHUTDOWN_TIMEOUT_SECONDS,
            print=None,
        )
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
