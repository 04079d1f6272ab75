"""Record fields declared once: the column each is read from, how, and how it is shown.

A memory record (``memories.py``, ``memory/records.py``) lists its :class:`Field` s in column
order; its SELECT column list (:func:`column_list`), its reading from a row (:func:`row_reader`)
and its JSON-friendly dict (:func:`shown`) all follow from that one list. Adding a field to a
memory is then: a migration and ``schema.sql``, the dataclass attribute, and its ``Field``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
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
    return Field(name, read=datetime.fromisoformat, show=_iso, **options)


def optional_time(name: str, **options: Any) -> Field:
    """An ISO time column that may be NULL (or empty)."""
    return Field(name, read=_time, show=_iso, **options)


def strings(name: str, **options: Any) -> Field:
    """A JSON list of texts, read as a tuple and shown as a list."""
    return Field(name, read=_strings, show=list, **options)


def json_object(name: str, **options: Any) -> Field:
    """A JSON object column that may be NULL."""
    return Field(name, read=_optional_json, **options)


def column_list(fields: Sequence[Field]) -> str:
    """The SELECT column list of a record, in field order."""
    return ", ".join(field.column or field.name for field in fields)


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
