"""The search index's triggers and rebuild, as the migrations that create them write them.

``memory_search`` (FTS5) holds one row per long-term memory, keyed ``id * 4 + store code``
(``memory_sql.py``), over its text folded by ``hb_search_text`` (``search_index.py``, registered
on the connection before migrating). Triggers keep it in step with the tables whatever code
writes them.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import CODES

# The text each long-term store indexes, as SQL over a row written ``{row}``.
FACTUAL_TEXT: Final = "{row}.content"
EPISODIC_TEXT: Final = "{row}.summary || ' ' || {row}.topics"
EPISODIC_INDEXED: Final = "{row}.summary IS NOT NULL"
PROCEDURAL_TEXT: Final = "{row}.name || ' ' || {row}.steps || ' ' || {row}.prerequisites"
AFFECTIVE_TEXT: Final = "{row}.context || ' ' || {row}.emotions || ' ' || {row}.triggers"


def indexed(
    table: str, code: int, text: str, columns: tuple[str, ...], when: str = "1"
) -> tuple[str, ...]:
    """Triggers that keep ``memory_search`` in step with ``table``.

    ``text`` and ``when`` are SQL over the row, written with ``{row}`` for ``new``/``old``;
    ``columns`` are those ``text`` reads (an update of any of them re-indexes the row).
    """
    rowid = f"{{row}}.id * {CODES} + {code}"
    index = (
        "INSERT INTO memory_search (rowid, body, client_id) "
        f"SELECT {rowid}, hb_search_text({text}), {{row}}.client_id WHERE {when}"
    ).format(row="new")
    unindex = f"DELETE FROM memory_search WHERE rowid = {rowid}".format(row="old")
    watched = ", ".join((*columns, "client_id"))
    return (
        f"CREATE TRIGGER {table}_search_insert AFTER INSERT ON {table} BEGIN {index}; END",
        f"CREATE TRIGGER {table}_search_delete AFTER DELETE ON {table} BEGIN {unindex}; END",
        f"CREATE TRIGGER {table}_search_update AFTER UPDATE OF {watched} ON {table} "
        f"BEGIN {unindex}; {index}; END",
    )


def reindexed(table: str, code: int, text: str, when: str = "1") -> str:
    """The statement indexing every row of ``table`` as its triggers would."""
    return (
        "INSERT INTO memory_search (rowid, body, client_id) "
        f"SELECT {{row}}.id * {CODES} + {code}, hb_search_text({text}), {{row}}.client_id"
        f" FROM {table} WHERE {when}"
    ).format(row=table)
