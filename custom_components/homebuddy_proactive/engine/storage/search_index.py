"""How text is folded for the memory search index, and the SQL functions its triggers call.

The index (``memory_search``, see ``memory_sql.py``) is kept in step with the memory tables
by triggers that call ``hb_search_text``, so stored text and query terms are folded by the same
code, the engine's one fold (``text/normalize.py``): case-insensitive, without diacritics in every
script (SQLite's ``unicode61`` tokenizer leaves the Greek tonos), with apostrophes, dashes and
no-break spaces unified. ``hb_search_key`` gives the key a procedure's name is looked up by.
"""

from __future__ import annotations

import math
from typing import Final

import aiosqlite

from ..text.normalize import fold

SEARCH_TEXT_FUNCTION: Final = "hb_search_text"
SEARCH_KEY_FUNCTION: Final = "hb_search_key"


def search_text(*parts: str | None) -> str:
    """The folded form under which text is indexed and searched."""
    return fold(" ".join(part for part in parts if part))


def search_key(text: str) -> str:
    """The folded form of a name, its words separated by single spaces (a lookup key)."""
    return " ".join(search_text(text).split())


def _sql_search_text(value: object) -> str:
    return search_text(value) if isinstance(value, str) else ""


def _sql_search_key(value: object) -> str:
    return search_key(value) if isinstance(value, str) else ""


async def register_search_functions(db: aiosqlite.Connection) -> None:
    """Register the SQL functions the memory triggers, migrations and scoring SQL need."""
    await db.create_function(SEARCH_TEXT_FUNCTION, 1, _sql_search_text, deterministic=True)
    await db.create_function(SEARCH_KEY_FUNCTION, 1, _sql_search_key, deterministic=True)
    try:
        await db.execute_fetchall("SELECT exp(0.0), ln(1.0)")
    except aiosqlite.OperationalError:
        # SQLite built without its math functions: provide the two the score uses.
        await db.create_function("exp", 1, math.exp, deterministic=True)
        await db.create_function("ln", 1, math.log, deterministic=True)
