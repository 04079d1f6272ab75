"""The authenticated WebSocket view glasses connect to inside Home Assistant."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from http import HTTPStatus

import jwt
from aiohttp import web
from homeassistant.helpers.http import KEY_AUTHENTICATED, KEY_HASS, HomeAssistantView

from .const import DOMAIN, WS_VIEW_URL
from .engine.proactive.protocol import validate_identifier
from .engine.proactive.transport import (
    DEFAULT_SOCKET_LIMITS,
    SocketGate,
    bearer_token,
    credential_in_url,
    new_socket,
    run_socket,
)
from .models import HomeBuddyConfigEntry

LOGGER = logging.getLogger(__name__)

# Home Assistant's HTTP server bounds connections in total; this view bounds its own sockets
# per client address (and the transport bounds each socket's frame rate): docs/standalone.md.
_SOCKETS = SocketGate(replace(DEFAULT_SOCKET_LIMITS, total=None))


class HomeBuddyWebSocketView(HomeAssistantView):
    """``GET /api/homebuddy_proactive/ws?client_id=…&session_id=…`` (WebSocket upgrade).

    Authentication is Home Assistant's own (its middleware validates the ``Authorization:
    Bearer`` header), checked here rather than by ``requires_auth``: a request carrying a
    credential in its URL must be refused before Home Assistant's failed-login handling,
    which logs the full URL, could write that token to the log.
    """

    url = WS_VIEW_URL
    name = f"api:{DOMAIN}:ws"
    requires_auth = False

    async def get(self, request: web.Request) -> web.StreamResponse:
        """Validate the upgrade, then serve the transcript protocol (docs/protocol.md)."""
        hass = request.app[KEY_HASS]
        # HA also accepts signed URLs (authSig); a credential in the URL is never accepted
        # here, not even next to a valid header: the same rule as the standalone server's.
        if credential_in_url(request):
            LOGGER.warning(
                "Refused a connection from %s that put a credential in the URL; send it in "
                "the Authorization: Bearer header",
                request.remote,
            )
            return web.Response(
                status=HTTPStatus.UNAUTHORIZED,
                text="send the token in the Authorization: Bearer header",
            )
        token = bearer_token(request)
        if not request.get(KEY_AUTHENTICATED, False) or token is None:
            # Counted (and logged, the URL now free of credentials) as a failed login by
            # Home Assistant's ban handling, as for any protected view.
            raise web.HTTPUnauthorized(text="send the token in the Authorization: Bearer header")
        try:
            client_id = validate_identifier("client_id", request.query.get("client_id"))
            session_id = validate_identifier("session_id", request.query.get("session_id"))
        except ValueError as err:
            return web.Response(status=HTTPStatus.BAD_REQUEST, text=str(err))
        entries: list[HomeBuddyConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
        if not entries:
            return web.Response(
                status=HTTPStatus.SERVICE_UNAVAILABLE, text="HomeBuddy Proactive is not loaded"
            )
        engine = entries[0].runtime_data.engine

        # The token is verified once, here; each message then re-checks, in memory and
        # without a JWT decode, what can change while the socket is open: the refresh token
        # removed (revoked), its user deactivated, the access token expired (with the leeway
        # Home Assistant's own check allows).
        refresh_token = hass.auth.async_validate_access_token(token)
        if refresh_token is None:
            raise web.HTTPUnauthorized(text="send the token in the Authorization: Bearer header")
        expires = _access_token_expiry(token)

        def still_authorized() -> bool:
            return (
                time.time() < expires
                and refresh_token.user.is_active
                and hass.auth.async_get_refresh_token(refresh_token.id) is not None
            )

        if (refused := _SOCKETS.admit(request.remote)) is not None:
            return web.Response(
                status=HTTPStatus.TOO_MANY_REQUESTS,
                text=f"too many open sockets ({refused}); close one or try again later",
                headers={"Retry-After": "5"},
            )
        ws = new_socket()
        try:
            await ws.prepare(request)
            await run_socket(ws, engine, client_id, session_id, still_authorized)
        finally:
            _SOCKETS.release(request.remote)
        return ws


# Home Assistant's own access-token check accepts a token this long after its expiry.
_EXPIRY_LEEWAY_SECONDS = 10


def _access_token_expiry(token: str) -> float:
    """When a verified access token stops being accepted (epoch seconds)."""
    claims = jwt.decode(token, options={"verify_signature": False})
    return float(claims["exp"]) + _EXPIRY_LEEWAY_SECONDS
