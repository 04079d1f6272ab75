"""Every language Assist speaks has its whole folder, and the registry and the folders agree.

Adding a language to Assist is one folder (``engine/assist/languages/<code>/``) and one entry in
the registry: a part or an attribute left out fails here, before a French or Greek speaker
hears an English answer or a request goes unheard.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from custom_components.homebuddy_proactive.engine.assist import languages
from custom_components.homebuddy_proactive.engine.assist.affect import AFFECT_KINDS
from custom_components.homebuddy_proactive.engine.text.languages import ASSIST_LANGUAGES

FOLDER = Path(languages.__file__).parent
PIECES = [
    (code, part, attribute)
    for code in ASSIST_LANGUAGES
    for part, attributes in languages.REQUIRED.items()
    for attribute in attributes
]


def _empty(value: object) -> bool:
    if isinstance(value, str | tuple | list | dict | frozenset | set):
        return not value
    if hasattr(value, "__dataclass_fields__"):
        return all(_empty(getattr(value, name)) for name in value.__dataclass_fields__)
    return value is None


@pytest.mark.parametrize(("code", "part", "attribute"), PIECES)
def test_every_assist_language_has_every_piece(code: str, part: str, attribute: str) -> None:
    module = importlib.import_module(f"{languages.__name__}.{code}.{part}")
    assert hasattr(module, attribute), f"languages/{code}/{part}.py has no {attribute}"
    assert not _empty(getattr(module, attribute)), f"languages/{code}/{part}.py: {attribute} empty"


def test_registry_and_folders_agree() -> None:
    folders = {p.name for p in FOLDER.iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(ASSIST_LANGUAGES)
    for code in ASSIST_LANGUAGES:
        modules = {p.stem for p in (FOLDER / code).glob("*.py") if p.stem != "__init__"}
        assert modules == set(languages.REQUIRED), code


def test_every_language_says_every_sentence() -> None:
    """The phrasebook of every language has every sentence any other language has."""
    books = languages.each("phrases", "PHRASEBOOK")
    keys = {key for book in books.values() for key in book.sentences}
    for code, book in books.items():
        assert set(book.sentences) == keys, code


def test_every_language_hears_every_feeling() -> None:
    for code, feelings in languages.each("feelings", "FEELINGS").items():
        assert set(feelings) == set(AFFECT_KINDS), code
