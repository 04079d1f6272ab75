"""Waiting in tests for a condition instead of for a fixed time."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

# Between two checks: a short yield, so threads (the database's) and other processes the
# condition looks at get the CPU; the condition is checked at once first.
POLL_SECONDS = 0.005


async def until(
    condition: Callable[[], object | Awaitable[object]],
    *,
    within: float = 5.0,
    what: str = "condition",
) -> None:
    """Return as soon as ``condition()`` (sync or async) is true; fail after ``within`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        if loop.time() >= deadline:
            raise AssertionError(f"{what} not reached within {within} s")
        await asyncio.sleep(POLL_SECONDS)
