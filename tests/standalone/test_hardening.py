"""The real server: malformed requests carrying a token never put it in the log, and requests
that never finish are closed within the (configured) header and body timeouts.
"""

from __future__ import annotations

import asyncio
import time

from .conftest import ServerFactory

SECRET = "SECRET-token-8d1f2a"


async def raw_exchange(port: int, request: bytes, wait: float = 5.0) -> bytes:
    """Send raw bytes and read until the server closes (or ``wait`` passes)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), wait)
    finally:
        writer.close()


async def test_malformed_requests_never_log_the_token(start_server: ServerFactory) -> None:
    """Bad HTTP versions, methods and headers carrying a token: the log never shows it."""
    server = await start_server(LOG_LEVEL="DEBUG")
    requests = [
        f"GET /v1/ws?token={SECRET} HTTP/9.9\r\nHost: x\r\n\r\n",
        f"GET /v1/ws?access_token={SECRET}&client_id=a HTTP/1.1 extra\r\n\r\n",
        f"G\x01T /v1/memories?token={SECRET} HTTP/1.1\r\nHost: x\r\n\r\n",
        f"GET /health HTTP/1.1\r\nAuthorization: Bearer {SECRET}\r\nBad Header\r\n\r\n",
        f"GET /v1/ws?client_id=a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SECRET}\r\n"
        "Content-Length: nope\r\n\r\n",
        f"GET /v1/ws?token={SECRET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ]
    for request in requests:
        answer = await raw_exchange(server.port, request.encode("latin-1"))
        assert answer.startswith(b"HTTP/1.") and answer[9:10] == b"4", (request, answer[:80])
    await asyncio.sleep(0.3)  # the server writes its log of every request: then no secret in it
    log = server.log()
    assert "Error handling request" in log or "400" in log
    assert SECRET not in log


async def test_half_open_requests_are_closed(start_server: ServerFactory) -> None:
    """Headers that never end, and a body that never comes, are closed within the timeouts."""
    server = await start_server(
        HTTP_HEADER_TIMEOUT_SECONDS="2",
        HTTP_BODY_TIMEOUT_SECONDS="2",
        HTTP_KEEPALIVE_TIMEOUT_SECONDS="2",
    )
    started = time.monotonic()
    answer = await raw_exchange(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\n", wait=10)
    assert answer == b""
    assert time.monotonic() - started < 6
    started = time.monotonic()
    answer = await raw_exchange(
        server.port,
        b"POST /v1/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{",
        wait=10,
    )
    assert b" 408 " in answer.split(b"\r\n", 1)[0]
    assert time.monotonic() - started < 6
    # A kept-alive connection whose next request never completes its headers.
    started = time.monotonic()
    answer = await raw_exchange(
        server.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\n", wait=10
    )
    assert answer.startswith(b"HTTP/1.1 200")
    assert time.monotonic() - started < 6
