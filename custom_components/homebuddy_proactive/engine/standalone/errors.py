"""How the standalone server answers a bad request: a JSON error with a code and a detail.

Route handlers raise :class:`RequestError`; the :func:`json_errors` middleware turns it (and
aiohttp's own 404/405/413) into ``{"error": ..., "detail": ...}``. A storage fault (disk full,
read-only or locked database) is a 503 ``storage_unavailable``, never a 500; any other fault is
a JSON 500. The body and identifier checks every route shares live here too: a body must arrive
within the body timeout and hold valid Unicode text only (every string, keys included).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any, Final

from aiohttp import hdrs, web

from ..const import ERROR_STORAGE_UNAVAILABLE
from ..proactive.protocol import is_valid_unicode, validate_identifier
from ..storage import StoreError

LOGGER = logging.getLogger(__name__)

DEFAULT_BODY_TIMEOUT_SECONDS: Final = 20.0
BODY_TIMEOUT_KEY: Final = web.AppKey("homebuddy_body_timeout", float)
MAX_BODY_DEPTH: Final = 32


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
    except (sqlite3.OperationalError, sqlite3.DatabaseError, StoreError) as err:
        if isinstance(err, sqlite3.IntegrityError | sqlite3.ProgrammingError):
            return _internal_error(request, err)
        # Disk full, read-only file, locked or broken database: the request was not carried
        # out (each write is one transaction), and may be tried again later.
        LOGGER.error(
            "Storage unavailable for %s %s: %s: %s",
            request.method,
            request.path,
            type(err).__name__,
            err,
        )
        return web.json_response(
            {
                "error": ERROR_STORAGE_UNAVAILABLE,
                "detail": "the data could not be read or stored; try again later",
                "retryable": True,
            },
            status=HTTPStatus.SERVICE_UNAVAILABLE,
            headers={hdrs.RETRY_AFTER: "5"},
        )
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception as err:  # a bug still answers JSON
        return _internal_error(request, err)


def _internal_error(request: web.Request, err: BaseException) -> web.Response:
    LOGGER.error("Request %s %s failed: %r", request.method, request.path, err, exc_info=err)
    return error_response(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error")


async def json_object(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object of valid Unicode text, or a 400 (408: too slow)."""
    timeout = request.config_dict.get(BODY_TIMEOUT_KEY, DEFAULT_BODY_TIMEOUT_SECONDS)
    try:
        async with asyncio.timeout(timeout):
            body = await request.read()
    except TimeoutError as err:
        raise RequestError(
            HTTPStatus.REQUEST_TIMEOUT,
            f"the body did not arrive within {timeout:g} seconds",
            headers={hdrs.CONNECTION: "close"},
        ) from err
    try:
        data = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as err:  # also undecodable bytes, over-long ints
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be JSON") from err
    if not isinstance(data, dict):
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
    problem = _invalid_text(data, "", 0)
    if problem is not None:
        raise RequestError(HTTPStatus.BAD_REQUEST, problem)
    return data


def _invalid_text(value: Any, path: str, depth: int) -> str | None:
    """Why a decoded JSON value cannot be used (a lone surrogate, naming the field), or None."""
    if depth > MAX_BODY_DEPTH:
        return "the body is nested too deeply"
    if isinstance(value, str):
        if not is_valid_unicode(value):
            return f"{path or 'the body'} must be valid Unicode text (no lone surrogates)"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not is_valid_unicode(key):
                return f"a field name in {path or 'the body'} is not valid Unicode text"
            problem = _invalid_text(item, f"{path}.{key}" if path else key, depth + 1)
            if problem is not None:
                return problem
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problem = _invalid_text(item, f"{path}[{index}]", depth + 1)
            if problem is not None:
                return problem
    return None


def identifier(name: str, value: Any) -> str:
    """A valid client or session identifier from the request, or a 400."""
    if value is not None and not isinstance(value, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, f"{name} must be a string")
    try:
        return validate_identifier(name, value)
    except ValueError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
