"""What the standalone server writes to its log, and what it keeps out of it.

Access lines carry the path only (never a query string or headers), and the libraries that
could log transcripts, token hashes or every Ollama call are kept quieter. Every record that
reaches a handler also passes :class:`RedactSecrets`, which removes query strings, bearer
tokens and ``Authorization`` values from its message, arguments and traceback text: aiohttp's
own error log quotes the raw request line of a malformed request (``GET /v1/ws?token=…
HTTP/9.9``) and could otherwise write a token to the log.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Final

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError


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


REDACTED: Final = "[redacted]"
# A query string: "?" then at least one "name=value" (prose questions have no "=" after "?").
_QUERY_RE: Final = re.compile(r"\?[^\s'\"<>?]*=[^\s'\"<>]*")
# An Authorization header value or a bearer/basic credential, however it is quoted or escaped.
_AUTHORIZATION_RE: Final = re.compile(
    r"(?i)((?:proxy-)?authorization\b['\"]?\s*[:=,]\s*['\"]?(?:(?:bearer|basic|digest)\s+)?"
    r"|\b(?:bearer|basic)\s+)[^\s'\"]+"
)
# name=value pairs that name a credential, outside a query string too.
_CREDENTIAL_RE: Final = re.compile(
    r"(?i)\b((?:access_|refresh_|auth)?token|password|passwd|secret|api_?key|authsig)"
    r"(['\"]?\s*[=:]\s*['\"]?)[^\s&'\",;]+"
)
# Aiohttp and the engine's own loggers whose records are filtered even without our handler
# (e.g. under a test's log capture).
FILTERED_LOGGERS: Final = ("aiohttp", "aiohttp.server", "aiohttp.access", "aiohttp.web")


def redact(text: str) -> str:
    """The text without query strings, Authorization values or credential pairs."""
    text = _QUERY_RE.sub("?" + REDACTED, text)
    text = _AUTHORIZATION_RE.sub(lambda m: m.group(1) + REDACTED, text)
    return _CREDENTIAL_RE.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """Rewrites a record so that no query string or credential reaches the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the rendered message and the traceback text; never drops a record."""
        if getattr(record, "_homebuddy_redacted", False):
            return True
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a broken format: log what it was, redacted
            message = f"{record.msg!r} {record.args!r}"
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            # A malformed request is the client's fault: one line, no traceback, no secret.
            message = f"{message}: {type(error).__name__}: {' '.join(str(error).split())}"
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        setattr(record, "_homebuddy_redacted", True)  # noqa: B010 - once per record
        return True


def install_redaction(root: logging.Logger | None = None) -> RedactSecrets:
    """Attach the filter to every handler of ``root`` and to aiohttp's loggers."""
    redactor = RedactSecrets()
    root = root or logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, RedactSecrets) for f in handler.filters):
            handler.addFilter(redactor)
    for name in FILTERED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(redactor)
    return redactor


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``, keeping libraries that could log secrets quieter."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    install_redaction()
    # aiosqlite logs SQL parameters (transcripts, token hashes) at DEBUG.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))
    # httpx logs every Ollama call at INFO; httpcore traces connections at DEBUG.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.INFO)
