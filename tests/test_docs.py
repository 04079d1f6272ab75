"""The user documentation stays short, linked and free of internal references.

README.md is what HACS shows: at most 350 lines. Every relative link of README.md and docs/
must reach a file of the repository. The documents say what the product does, in its own
words: no paths outside the repository ("../shared") and no commit hashes in prose.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, *DOCS]
MAX_README_LINES = 350

# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis.
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
# A word of 7 to 40 hex digits with at least one digit and one letter a-f: what a (short)
# commit hash looks like. Plain numbers ("1234567") and words ("deadbeef", "facade") are not.
_HEX_WORD = re.compile(
    r"(?<![0-9A-Za-z_])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z_])"
)


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _prose(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with their numbers (code may hold ids and tokens)."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def _relative_links(path: Path) -> list[tuple[int, str]]:
    links = []
    for number, line in _prose(path.read_text(encoding="utf-8")):
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
                continue  # http:, https:, mailto: … and anchors within the page
            links.append((number, target))
    return links


def test_documents_exist() -> None:
    assert README.is_file()
    assert DOCS, "docs/*.md"


def test_readme_is_short() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines (at most {MAX_README_LINES})"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_relative_links_resolve(path: Path) -> None:
    missing = [
        f"{_name(path)}:{number}: {target}"
        for number, target in _relative_links(path)
        if not (path.parent / unquote(target.split("#", 1)[0])).exists()
    ]
    assert not missing, "links to missing files:\n" + "\n".join(missing)


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_no_path_outside_the_repository(path: Path) -> None:
    found = [
        f"{_name(path)}:{number}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "../shared" in line
    ]
    assert not found, "'../shared' in:\n" + "\n".join(found)


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_no_commit_hash_in_prose(path: Path) -> None:
    found = [
        f"{_name(path)}:{number}: {word}"
        for number, line in _prose(path.read_text(encoding="utf-8"))
        for word in _HEX_WORD.findall(line)
    ]
    assert not found, "commit-hash-like words in prose:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("measured against 3e66bca of the day before", ["3e66bca"]),
        (
            "see a68daa5c3aa72645ec760efb0e47caee4ebce35e",
            ["a68daa5c3aa72645ec760efb0e47caee4ebce35e"],
        ),
        ("`--against bb8a3f2`", ["bb8a3f2"]),
        ("1,234,567 finals and 12345678 bytes", []),
        ("deadbeef, facade, decade and added", []),
        ("port 18743, e5-small, 0.13.375, 2026.10.4", []),
        ("abc123", []),  # six characters
        ("x3e66bcaz and 3e66bca_", []),  # part of a longer word
    ],
)
def test_hash_rule(line: str, flagged: list[str]) -> None:
    assert _HEX_WORD.findall(line) == flagged


def test_link_rule() -> None:
    text = "[a](docs/x.md#y) ![b](images/c.png) [c](https://x.org) [d](#here) `[e](f.md)`"
    assert [t for t in _LINK.findall(text)] == [
        "docs/x.md#y",
        "images/c.png",
        "https://x.org",
        "#here",
        "f.md",
    ]
