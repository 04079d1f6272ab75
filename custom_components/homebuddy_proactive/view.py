"""The authenticated WebSocket view glasses connect to inside Home Assistant."""

from __future__ import annotations

from http import HTTPStatus

from aiohttp import hdrs, web
from homeassistant.components.http.auth import SIGN_QUERY_PARAM
from homeassistant.helpers.http import KEY_HASS, HomeAssistantView

from .const import DOMAIN, WS_VIEW_URL
from .engine.protocol import validate_identifier
from .engine.transport import new_socket, run_socket
from .models import HomeBuddyConfigEntry


class HomeBuddyWebSocketView(HomeAssistantView):
    """``GET /api/homebuddy_proactive/ws?client_id=…&session_id=…`` (WebSocket upgrade)."""

    url = WS_VIEW_URL
    name = f"api:{DOMAIN}:ws"
    requires_auth = True

    async def get(self, request: web.Request) -> web.StreamResponse:
        """Validate the upgrade, then serve the seed's transcript protocol."""
        hass = request.app[KEY_HASS]
        authorization = request.headers.get(hdrs.AUTHORIZATION, "")
        scheme, _, token = authorization.partition(" ")
        # HA also accepts signed URLs; a token in the URL is never accepted here.
        if SIGN_QUERY_PARAM in request.query or scheme.lower() != "bearer" or not token:
            return web.Response(
                status=HTTPStatus.UNAUTHORIZED,
                text="send the token in the Authorization: Bearer header",
            )
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

        async def still_authorized() -> bool:
            return hass.auth.async_validate_access_token(token) is not None

        ws = new_socket()
        await ws.prepare(request)
        await run_socket(ws, engine, client_id, session_id, still_authorized)
        return ws
