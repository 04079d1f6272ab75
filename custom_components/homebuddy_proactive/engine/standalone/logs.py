"""What the standalone server writes to its log, and what it keeps out of it.

Access lines carry the path only (never a query string or headers), and the libraries that
could log transcripts, token hashes or every Ollama call are kept quieter.
"""

from __future__ import annotations

import logging
import sys

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger


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
