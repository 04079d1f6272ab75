"""Who may use the standalone server: sign-in with the configured username and password.

A sign-in hands out a bearer access token that expires; only its SHA-256 hash is stored, and
sign-out revokes it. Every other route (and the WebSocket, on each message) checks the token.
Failed sign-ins are counted per client address and block it for a while.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any, Final

from aiohttp import hdrs, web

from ..proactive.protocol import is_valid_unicode
from ..proactive.transport import bearer_token, credential_in_url
from ..storage import ProactiveStore
from .errors import RequestError, json_object
from .settings import ServerSettings

LOGGER = logging.getLogger(__name__)

# Sign-in throttling per client address: this many failures inside the window block the
# address until the oldest failure leaves the window. Addresses tracked are bounded.
SIGNIN_MAX_FAILURES: Final = 5
SIGNIN_WINDOW_SECONDS: Final = 60.0
SIGNIN_MAX_ADDRESSES: Final = 4096
MAX_CREDENTIAL_CHARACTERS: Final = 1024


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
    """Issues, checks and revokes bearer tokens; only their SHA-256 hashes are stored.

    The hashes of the live tokens are also kept in memory (loaded by :meth:`load` at
    start-up, changed with every issue, revocation and purge, and this process is the file's
    only writer), so :meth:`is_valid`, run on every request and every WebSocket message,
    needs no database round trip: it never waits behind a write stalled on a slow disk.
    """

    def __init__(
        self, store: ProactiveStore, clock: Callable[[], datetime], ttl_seconds: int
    ) -> None:
        """Bind the store, the clock and the token lifetime."""
        self.store = store
        self.clock = clock
        self.ttl_seconds = ttl_seconds
        self._expiry: dict[str, datetime] = {}

    async def load(self) -> None:
        """Read the live tokens' hashes and expiries from the store (once, at start-up)."""
        self._expiry = dict(await self.store.active_auth_sessions(self.clock()))

    async def issue(self, username: str) -> IssuedToken:
        """Create a token and store its hash."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires_at = (now + timedelta(seconds=self.ttl_seconds)).replace(microsecond=0)
        hashed = token_hash(token)
        await self.store.add_auth_session(hashed, username, now, expires_at)
        self._expiry[hashed] = expires_at
        return IssuedToken(access_token=token, expires_in=self.ttl_seconds, expires_at=expires_at)

    def is_valid(self, token: str) -> bool:
        """Whether the token is known, not revoked and not expired (from memory)."""
        return self.is_valid_hash(token_hash(token))

    def is_valid_hash(self, hashed: str) -> bool:
        """:meth:`is_valid` for a token hashed once (a socket checks it on every message)."""
        expires_at = self._expiry.get(hashed)
        return expires_at is not None and self.clock() < expires_at

    async def revoke(self, token: str) -> bool:
        """Revoke the token (at once, in memory) and delete its hash; False when unknown."""
        hashed = token_hash(token)
        known = self._expiry.pop(hashed, None) is not None
        return await self.store.delete_auth_session(hashed) or known

    async def purge_expired(self) -> int:
        """Delete the hashes of expired tokens; return how many went."""
        now = self.clock()
        for hashed in [h for h, expires_at in self._expiry.items() if expires_at <= now]:
            del self._expiry[hashed]
        return await self.store.delete_expired_auth_sessions(now)


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


def not_configured() -> RequestError:
    """The 503 for a server whose AUTH_USERNAME or AUTH_PASSWORD is empty."""
    return RequestError(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "authentication is not configured (AUTH_USERNAME, AUTH_PASSWORD)",
    )


async def authenticate(request: web.Request, settings: ServerSettings, tokens: AccessTokens) -> str:
    """Return the request's valid bearer token or raise the right error."""
    if credential_in_url(request):
        raise RequestError(
            HTTPStatus.UNAUTHORIZED,
            "tokens are not accepted in the URL; send Authorization: Bearer <token>",
            headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
        )
    if not settings.auth_configured:
        raise not_configured()
    token = bearer_token(request)
    if token is None:
        raise RequestError(
            HTTPStatus.UNAUTHORIZED,
            "send Authorization: Bearer <token>",
            headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
        )
    # Header bytes that are not UTF-8 arrive as lone surrogates: no token of ours looks so.
    if not is_valid_unicode(token) or not tokens.is_valid(token):
        raise RequestError(
            HTTPStatus.UNAUTHORIZED,
            "the access token is invalid, expired or revoked; sign in again",
            headers={hdrs.WWW_AUTHENTICATE: 'Bearer error="invalid_token"'},
        )
    return token


async def sign_in(
    request: web.Request,
    settings: ServerSettings,
    limiter: SigninRateLimiter,
    tokens: AccessTokens,
) -> web.Response:
    """Exchange the configured credentials for a token (the ``/v1/auth/signin`` answer)."""
    if not settings.auth_configured:
        raise not_configured()
    address = request.remote or "unknown"
    wait = limiter.retry_after(address)
    if wait is not None:
        raise RequestError(
            HTTPStatus.TOO_MANY_REQUESTS,
            f"too many failed sign-ins; try again in {wait} seconds",
            headers={hdrs.RETRY_AFTER: str(wait)},
        )
    data = await json_object(request)
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, "username and password are required strings")
    if len(username) > MAX_CREDENTIAL_CHARACTERS or len(password) > MAX_CREDENTIAL_CHARACTERS:
        raise RequestError(HTTPStatus.BAD_REQUEST, "username or password is too long")
    # Both comparisons always run, in constant time, so timing reveals neither field.
    username_ok = hmac.compare_digest(username.encode(), settings.auth_username.encode())
    password_ok = hmac.compare_digest(password.encode(), settings.auth_password.encode())
    if not (username_ok & password_ok):
        limiter.failed(address)
        LOGGER.warning("Failed sign-in from %s", address)
        raise RequestError(
            HTTPStatus.UNAUTHORIZED,
            "invalid username or password",
            headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
        )
    limiter.succeeded(address)
    issued = await tokens.issue(username)
    return web.json_response(issued.as_dict(), headers={hdrs.CACHE_CONTROL: "no-store"})
