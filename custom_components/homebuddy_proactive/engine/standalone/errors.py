"""How the standalone server answers a bad request: a JSON error with a code and a detail.

Route handlers raise :class:`RequestError`; the :func:`json_errors` middleware turns it (and
aiohttp's own 404/405/413) into ``{"error": ..., "detail": ...}``. The body and identifier
checks every route shares live here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any

from aiohttp import hdrs, web

from ..proactive.protocol import validate_identifier


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


async def json_object(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object, or a 400."""
    try:
        data = await request.json()
    except ValueError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be JSON") from err
    if not isinstance(data, dict):
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
    return data


def identifier(name: str, value: Any) -> str:
    """A valid client or session identifier from the request, or a 400."""
    if value is not None and not isinstance(value, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, f"{name} must be a string")
    try:
        return validate_identifier(name, value)
    except ValueError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
