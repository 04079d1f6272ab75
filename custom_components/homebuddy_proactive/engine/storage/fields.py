"""Record fields declared once: the column each is read from, how, and how it is shown.

A memory record (``memories.py``, ``memory/records.py``) lists its :class:`Field` s in column
order; its SELECT column list (:func:`column_list`), its reading from a row (:func:`row_reader`)
its JSON-friendly dict (:func:`shown`) and its INSERT (:func:`insert_sql`) all follow from that
one list. Adding a field to a memory is then: a migration and ``schema.sql``, the dataclass
attribute, and its ``Field``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute of a record and the column it is stored in."""

    name: str
    # Column value -> attribute (None: as stored).
    read: Callable[[Any], Any] | None = None
    # Attribute -> JSON value (None: as is).
    show: Callable[[Any], Any] | None = None
    # SQL of the column when it is not ``name`` (over the record's table, unaliased).
    column: str | None = None
    # The dict key when it is not ``name``; None in ``shown`` leaves the field out.
    key: str | None = None
    shown: bool = True
    # Entries the dict shows right after this field, computed from the record.
    then: tuple[tuple[str, Callable[[Any], Any]], ...] = ()
    # Attribute -> column value when a record is inserted (None: as is).
    write: Callable[[Any], Any] | None = None


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _strings(value: str | None) -> tuple[str, ...]:
    return tuple(str(item) for item in json.loads(value or "[]"))


def _optional_int(value: Any) -> int | None:
    return int(value) if value is not None else None


def _optional_json(value: str | None) -> Any:
    return json.loads(value) if value else None


def _json_list(value: Any) -> str:
    # Non-ASCII kept as is: the search index reads these columns.
    return json.dumps(list(value), ensure_ascii=False)


def _write_time(value: datetime | str) -> str:
    return value.isoformat() if isinstance(value, datetime) else value


def text(name: str, **options: Any) -> Field:
    """A text column (or NULL), as stored."""
    return Field(name, **options)


def integer(name: str, **options: Any) -> Field:
    """An INTEGER NOT NULL column."""
    return Field(name, read=int, **options)


def optional_integer(name: str, **options: Any) -> Field:
    """An INTEGER column that may be NULL."""
    return Field(name, read=_optional_int, **options)


def number(name: str, **options: Any) -> Field:
    """A REAL NOT NULL column."""
    return Field(name, read=float, **options)


def time(name: str, **options: Any) -> Field:
    """An ISO time column, NOT NULL."""
    return Field(name, read=datetime.fromisoformat, show=_iso, write=_write_time, **options)


def optional_time(name: str, **options: Any) -> Field:
    """An ISO time column that may be NULL (or empty)."""
    return Field(name, read=_time, show=_iso, write=_write_time, **options)


def strings(name: str, **options: Any) -> Field:
    """A JSON list of texts, read as a tuple and shown as a list."""
    return Field(name, read=_strings, show=list, write=_json_list, **options)


def json_object(name: str, **options: Any) -> Field:
    """A JSON object column that may be NULL."""
    return Field(name, read=_optional_json, **options)


def column_list(fields: Sequence[Field]) -> str:
    """The SELECT column list of a record, in field order."""
    return ", ".join(field.column or field.name for field in fields)


def insert_sql(
    table: str,
    fields: Sequence[Field],
    values: Mapping[str, Any],
    *,
    extra: Sequence[str] = (),
    upsert: tuple[Sequence[str], Sequence[str]] | None = None,
) -> tuple[str, dict[str, Any]]:
    """An INSERT of ``values`` (by field name) into ``table``, and its named parameters.

    Columns follow field order (then ``extra``, columns the record does not read back); a value
    is written as its field says (a list as JSON, a time as ISO). A name that is neither a
    stored field nor in ``extra`` raises ``KeyError``. ``upsert`` is (conflict columns, columns
    the conflict keeps): every other inserted column is replaced by the new row's.
    """
    writers = {field.name: field.write for field in fields if field.column is None}
    unknown = sorted(set(values) - set(writers) - set(extra))
    if unknown:
        raise KeyError(f"{table} has no columns {', '.join(unknown)}")
    names = [name for name in (*writers, *extra) if name in values]
    params = {}
    for name in names:
        value, write = values[name], writers.get(name)
        params[name] = value if write is None or value is None else write(value)
    sql = (
        f"INSERT INTO {table} ({', '.join(names)})"
        f" VALUES ({', '.join(':' + name for name in names)})"
    )
    if upsert is not None:
        conflict, kept = upsert
        replaced = [name for name in names if name not in conflict and name not in kept]
        sql += f" ON CONFLICT ({', '.join(conflict)}) DO UPDATE SET " + ", ".join(
            f"{name} = excluded.{name}" for name in replaced
        )
    return sql, params


def row_reader[R](
    record: Callable[..., R], fields: Sequence[Field]
) -> Callable[[Sequence[Any]], R]:
    """A function reading a row of :func:`column_list` (extra trailing columns ignored)."""
    readers = tuple((field.name, field.read) for field in fields)

    def read(row: Sequence[Any]) -> R:
        return record(
            **{
                name: value if reader is None else reader(value)
                for (name, reader), value in zip(readers, row, strict=False)
            }
        )

    return read


def shown(record: Any, fields: Sequence[Field]) -> dict[str, Any]:
    """The record as a JSON-friendly dict, in field order."""
    data: dict[str, Any] = {}
    for field in fields:
        if field.shown:
            value = getattr(record, field.name)
            data[field.key or field.name] = value if field.show is None else field.show(value)
        for key, compute in field.then:
            data[key] = compute(record)
    return data
