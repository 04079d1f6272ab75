"""News headlines from an RSS or Atom feed, fetched with the host's aiohttp session.

``feedparser`` does the parsing (it copes with every RSS and Atom dialect and with broken
feeds); parsing is CPU work, so the host says how to run it off the event loop. Headlines are
cached for a while: an older person asking "what's the news?" three times in ten minutes does
not need three downloads.
"""

from __future__ import annotations

import asyncio
import html
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import aiohttp

DEFAULT_TTL_SECONDS: Final = 15 * 60
DEFAULT_TIMEOUT_SECONDS: Final = 10.0
MAX_FEED_BYTES: Final = 2 * 1024 * 1024
MAX_HEADLINE_CHARACTERS: Final = 160
USER_AGENT: Final = "HomeBuddyProactive/0.1 (+feed reader)"

type ExecutorRunner = Callable[[Callable[[bytes], Any], bytes], Awaitable[Any]]


class NewsUnavailableError(Exception):
    """The feed could not be fetched or read."""


@dataclass(frozen=True, slots=True)
class Headline:
    """One headline, cleaned for speech."""

    title: str


async def _run_here(func: Callable[[bytes], Any], data: bytes) -> Any:
    """Run ``func`` in the loop's default executor (the host usually passes its own runner)."""
    return await asyncio.get_running_loop().run_in_executor(None, func, data)


def parse_feed(data: bytes) -> list[Headline]:
    """Parse feed bytes into headlines (blocking: run it in an executor)."""
    # Imported here: only the Home Assistant side reads news, and the standalone image (which
    # ships this package) installs requirements/runtime.txt only.
    import feedparser

    parsed = feedparser.parse(data)
    headlines: list[Headline] = []
    for entry in parsed.entries:
        title = clean_title(str(entry.get("title", "")))
        if title:
            headlines.append(Headline(title))
    if not headlines and parsed.get("bozo"):
        raise NewsUnavailableError("the feed is not readable")
    return headlines


_TAG_RE: Final = re.compile(r"<[^>]+>")


def clean_title(title: str) -> str:
    """Remove markup and extra spaces; cut very long titles at a word boundary."""
    text = " ".join(html.unescape(_TAG_RE.sub(" ", title)).split())
    if len(text) > MAX_HEADLINE_CHARACTERS:
        text = text[:MAX_HEADLINE_CHARACTERS].rsplit(" ", 1)[0] + "…"
    return text


class NewsReader:
    """Headlines of one feed URL, cached for ``ttl`` seconds."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        url: str,
        *,
        run_in_executor: ExecutorRunner = _run_here,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        ttl: float = DEFAULT_TTL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """Bind the session (owned by the host), the URL and the cache settings."""
        self.url = url
        self._session = session
        self._run = run_in_executor
        self._timeout = timeout
        self._ttl = ttl
        self._monotonic = monotonic
        self._cached: list[Headline] | None = None
        self._fetched_at = 0.0
        self._lock = asyncio.Lock()
        self.fetches = 0

    async def headlines(self, limit: int = 3) -> list[Headline]:
        """Return the first ``limit`` headlines; NewsUnavailableError when the feed is down."""
        async with self._lock:
            if self._cached is None or self._monotonic() - self._fetched_at >= self._ttl:
                data = await self._download()
                self._cached = await self._run(parse_feed, data)
                self._fetched_at = self._monotonic()
            return self._cached[:limit]

    async def _download(self) -> bytes:
        """Fetch the feed, bounded in time and size."""
        self.fetches += 1
        try:
            async with self._session.get(
                self.url,
                timeout=aiohttp.ClientTimeout(total=self._timeout),
                headers={"User-Agent": USER_AGENT},
            ) as response:
                if response.status != 200:
                    raise NewsUnavailableError(f"HTTP {response.status}")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.content.iter_chunked(64 * 1024):
                    size += len(chunk)
                    if size > MAX_FEED_BYTES:
                        raise NewsUnavailableError("the feed is too large")
                    chunks.append(chunk)
                return b"".join(chunks)
        except (aiohttp.ClientError, TimeoutError) as err:
            raise NewsUnavailableError(type(err).__name__) from err
