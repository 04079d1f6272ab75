#!/usr/bin/env python3
"""Benchmark language identification: the hand-written word-table detector vs py3langid.

Sentences with a known language are read from the engine's language tests (tables by
language, ``(text, language, ...)`` rows and parameters) and from the simulator scripts that
name one language (``SIMULATOR_LANGUAGE=xx``), and, as a second set, from the rule corpora
(``tests/engine/corpora/<lang>/*.tsv``). The hand-written detector is the one of
commit ``HAND_DETECTOR_COMMIT`` (its detection section loaded from git); the other is
``engine.text.identify`` with the rules' tie-break between plausible languages
(``engine.text.analysis.detect_language``). Prints accuracy per language and overall, and time
per utterance.

    .venv/bin/python scripts/bench/bench_language_id.py [--errors]
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import time
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "custom_components" / "homebuddy_proactive"))

from engine.text import analysis, identify  # noqa: E402
from engine.text.languages import SUPPORTED_LANGUAGES  # noqa: E402

HAND_DETECTOR_COMMIT = "585ee33"
HAND_DETECTOR_PATH = "custom_components/homebuddy_proactive/engine/text/language.py"
TEST_FILES = ("tests/engine/test_language*.py",)
_SIMULATOR_LANGUAGE_RE = re.compile(r"SIMULATOR_LANGUAGE=([a-z]{2})")
_GREEK_RE = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_LATIN_LETTER_RE = re.compile(r"[A-Za-z\u00c0-\u024f]")
_ENGLISH_SCRIPTS = ("default.txt", "technical-terms.txt")


def hand_detector() -> Callable[[str], str]:
    """The detection section of the hand-written detector, loaded from git as a module."""
    source = subprocess.run(
        ["git", "show", f"{HAND_DETECTOR_COMMIT}:{HAND_DETECTOR_PATH}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    start = source.index("def _base_code(")
    end = source.index("# Segmentation")
    prelude = (
        "from __future__ import annotations\n"
        "import functools, re\n"
        "from collections.abc import Mapping\n"
        "from types import MappingProxyType\n"
        "from typing import Final\n"
        "from engine.text.normalize import fold as _fold, folded_words as _fw\n"
        "from engine.text.normalize import unify_typography as _unify\n"
        "SUPPORTED_LANGUAGES: Final = ('en', 'el', 'fr', 'es', 'de', 'it', 'pt')\n"
        "DEFAULT_LANGUAGE: Final = 'en'\n"
    )
    module = types.ModuleType("hand_language_detector")
    exec(compile(prelude + source[start:end], "hand_language_detector", "exec"), module.__dict__)
    detect: Callable[[str], str] = module.detect_language
    return detect


def _constant_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _row_text(node: ast.AST) -> str | None:
    """The text of a table entry: a string, or the first string of a row."""
    text = _constant_str(node)
    if text is None and isinstance(node, ast.Tuple) and node.elts:
        text = _constant_str(node.elts[0])
    return text


def test_sentences() -> list[tuple[str, str]]:
    """``(text, language)`` pairs of the language tests: tables, rows and parameters."""
    pairs: list[tuple[str, str]] = []
    codes = set(SUPPORTED_LANGUAGES)
    for pattern in TEST_FILES:
        for path in sorted(ROOT.glob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        code = _constant_str(key) if key is not None else None
                        if code in codes and isinstance(value, ast.List):
                            for element in value.elts:
                                text = _row_text(element)
                                if text:
                                    pairs.append((text, code))
                    continue
                elements: list[ast.expr] = []
                if isinstance(node, ast.Tuple):
                    elements = node.elts
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "param":
                    elements = node.args
                if len(elements) >= 2:
                    text, code = _constant_str(elements[0]), _constant_str(elements[1])
                    if text and code in codes:
                        pairs.append((text, code))
    return pairs


def simulator_sentences() -> list[tuple[str, str]]:
    """Finals of the simulator scripts written in one language (Greek ones: Greek lines)."""
    pairs: list[tuple[str, str]] = []
    for path in sorted((ROOT / "simulator-input").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        found = _SIMULATOR_LANGUAGE_RE.search(text)
        language = found.group(1) if found else ("en" if path.name in _ENGLISH_SCRIPTS else None)
        if language is None:
            continue
        for line in text.splitlines():
            if not line.startswith("FINAL:"):
                continue
            final = line.partition(":")[2].strip()
            if language == "el" and not _GREEK_RE.search(final):
                continue  # an English line in a Greek conversation
            pairs.append((final, language))
    return pairs


def corpus_sentences() -> list[tuple[str, str]]:
    """Texts of the language-rule corpora (``tests/engine/corpora/<lang>/*.tsv``, not Assist)."""
    pairs: list[tuple[str, str]] = []
    for code in SUPPORTED_LANGUAGES:
        for path in sorted((ROOT / "tests" / "engine" / "corpora" / code).glob("*.tsv")):
            lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line]
            rows = [line.split("\t")[0] for line in lines if not line.startswith("#")][1:]
            for text in rows:
                if not _LATIN_LETTER_RE.search(text) and not _GREEK_RE.search(text):
                    continue
                if code == "el" and not _GREEK_RE.search(text):
                    continue
                pairs.append((text, code))
    return pairs


def evaluate(
    name: str, detect: Callable[[str], str], cases: list[tuple[str, str]], errors: bool
) -> None:
    """Print accuracy per language and overall, and the mean time per utterance."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong: list[tuple[str, str, str]] = []
    started = time.perf_counter()
    for text, language in cases:
        got = detect(text)
        total[language] += 1
        if got == language:
            right[language] += 1
        else:
            wrong.append((language, got, text))
    elapsed = time.perf_counter() - started
    per_language = "  ".join(
        f"{code} {100 * right[code] / total[code]:5.1f}%"
        for code in SUPPORTED_LANGUAGES
        if total[code]
    )
    overall = 100 * sum(right.values()) / max(1, sum(total.values()))
    print(f"{name:<10} overall {overall:5.1f}%  {per_language}")
    print(f"{'':<10} {1e6 * elapsed / max(1, len(cases)):.1f} µs per utterance")
    if errors:
        for language, got, text in wrong:
            print(f"    {language} -> {got}: {text}")


def main() -> None:
    """Run both detectors on the same sentences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list the misidentified lines")
    args = parser.parse_args()
    started = time.perf_counter()
    identify.load_identifier()
    print(f"py3langid model load: {1e3 * (time.perf_counter() - started):.0f} ms")
    hand = hand_detector()
    sets = {
        "tests and simulator scripts": test_sentences() + simulator_sentences(),
        "rule corpora (tests/engine/corpora)": corpus_sentences(),
    }
    for title, pairs in sets.items():
        cases = list(dict.fromkeys(pairs))
        per_language = Counter(language for _text, language in cases)
        print(
            f"{title}: {len(cases)} sentences: "
            + ", ".join(f"{c} {per_language[c]}" for c in SUPPORTED_LANGUAGES)
        )
        evaluate("hand", lambda text: hand(text, None), cases, args.errors)
        evaluate("py3langid", analysis.detect_language, cases, args.errors)


if __name__ == "__main__":
    main()
