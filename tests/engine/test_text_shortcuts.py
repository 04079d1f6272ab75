"""The quick paths of the text rules answer exactly as the full rules they skip.

Each final is read by the local rules, so the rules take shortcuts: language identification
reads py3langid's model per word, searches first look for the literals their patterns need, one
alternation tells whether any capture rule of a language matches, ASCII is folded without the
table. Each shortcut is checked here against the slow path it replaces, on every sentence of the
rule corpora (with case and punctuation variants) and on texts built to trip it.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

import numpy
import pytest

from custom_components.homebuddy_proactive.engine.text import (
    analyse,
    identify,
    is_question,
    segment,
    signals,
)
from custom_components.homebuddy_proactive.engine.text import capture as capture_module
from custom_components.homebuddy_proactive.engine.text.literals import Search, required_literals
from custom_components.homebuddy_proactive.engine.text.normalize import (
    _ALIGNED_TABLE,
    _FOLD_TABLE,
    fold,
    fold_aligned,
    unify_typography,
)
from custom_components.homebuddy_proactive.engine.text.rules import RULES
from tests.engine.corpus import CORPORA

# Texts built to reach the edges: mixed scripts, capitals, symbols, digits, long pieces.
_EDGES = (
    "",
    " ",
    "  double  spaces  ",
    "ΟΔΟΣ ΣΟΦΟΚΛΕΟΥΣ και ΙΣΤΟΣ",
    "İstanbul İİ ß ǅ ﬁne",
    "RAG, OAuth and the ΕΦΚΑ form by ISO 9001",
    "new topic: 95 % of 1,200 km",
    "x" * 120,
    "tab\tand\nnewline",
    "¿Dónde está? ça va… d’accord — «oui»",
    "emoji 🙂 and \u00a0no-break\u202fspaces",
    "careful, the pan is hot",
    "attention, ça brûle, fais gaffe",
    "Vorsicht, der Hund beißt",
    "we decided to go with the blue one",
    "on a décidé de partir tôt, c'est décidé",
    "αποφασίσαμε να μείνουμε",
    "ΟΔΟΣ, ΟΔΟΣ.ΚΑΙ ΟΔΟΣ'ΚΑΙ donʼt ǅemal ß²½ ΣΑΣ",
    "We walked along the river with Maria this morning, note 123.",
    "The meeting was moved to Monday. Let's move on, shall we",
)


def _corpus_texts() -> list[str]:
    texts: set[str] = set(_EDGES)
    for path in sorted(CORPORA.rglob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                text = line.split("\t", 1)[0]
                stripped = text.rstrip(" .!?;…")
                texts.update((text, text.upper(), text.lower(), stripped + "?", stripped))
    return sorted(texts)


TEXTS = _corpus_texts()


def test_the_corpora_are_read() -> None:
    assert len(TEXTS) > 5000


def _py3langid_likelihoods(identifier: object, text: str) -> object:
    """py3langid's own reading: its dense feature vector times its model, in float64."""
    vector = identifier.instance2fv(f" {text.lower()} ")  # type: ignore[attr-defined]
    ptc = numpy.asarray(identifier.nb_ptc, dtype=numpy.float64)  # type: ignore[attr-defined]
    return numpy.asarray(vector, dtype=numpy.float64) @ ptc


def test_identification_reads_the_same_likelihoods_as_py3langid() -> None:
    model = identify.load_model()
    for text in TEXTS[::3] + list(_EDGES):
        values, words = model.read(text)
        expected = _py3langid_likelihoods(model.identifier, text)
        assert words == len(re.findall(r"[^\W\d_]+", text)), text
        if values is None:
            assert not numpy.any(expected), text
        else:
            assert list(values) == expected.tolist(), text  # exact, not close


def test_identification_is_the_same_from_a_cold_cache() -> None:
    model = identify.load_model()
    texts = TEXTS[1::50]
    warm = [model.read(text) for text in texts]
    model.walk.cache_clear()
    assert [model.read(text) for text in reversed(texts)][::-1] == warm


SEARCHES = {
    "episode": signals._EPISODE_SEARCH,
    "warning": signals._WARNING_SEARCH,
    "correction": signals._CORRECTION_SEARCH,
    "decision": signals._DECISION_SEARCH,
    "standard": signals._STANDARD_SEARCH,
    "jargon": signals._JARGON_SEARCH,
    "fact": signals._FACT_SEARCH,
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_search_finds_what_its_pattern_finds(name: str) -> None:
    search = SEARCHES[name]
    assert search.gate is not None, f"{name}: its quick test was lost"
    found = 0
    for text in TEXTS:
        for form in (text, fold_aligned(unicodedata.normalize("NFC", text))):
            expected = search.pattern.search(form) is not None
            assert search(form) == expected, (name, form)
            found += expected
    assert found, f"{name}: the corpora never reach it"


def test_required_literals_of_patterns() -> None:
    assert required_literals(re.compile(r"\bnew\s+(?:topic|subject)\b|^\W*moving\s+on\b")) == {
        "topic",
        "subject",
        "moving",
    }
    # A branch without literal text, an optional part, a class, a lookahead: nothing required.
    assert required_literals(re.compile(r"\bnew\b|\d+")) is None
    assert required_literals(re.compile(r"(?:abc)?\w+")) is None
    assert required_literals(re.compile(r"(?=abc)\w+")) is None
    assert required_literals(re.compile("abc", re.IGNORECASE)) is None
    assert required_literals(re.compile(r"(?:ab){2,}c")) == {"ab"}


def test_a_search_with_overlapping_literals() -> None:
    pattern = re.compile(r"\b(?:per\s?cent|cent\w*|ab|bc)\b")
    search = Search(pattern)
    for size in range(1, 5):
        for letters in itertools.product("abcenprt ", repeat=size):
            text = "".join(letters)
            assert search(text) == (pattern.search(text) is not None), text


def test_the_capture_alternation_matches_where_a_rule_does() -> None:
    matched = 0
    for text in TEXTS:
        folded = fold_aligned(unicodedata.normalize("NFC", text))
        for code, rules in RULES.items():
            for offset in {0, min(3, len(folded))}:
                any_rule = any(rule.pattern.match(folded, offset) for rule in rules.capture)
                gate = capture_module._ANY_RULE[code].match(folded, offset) is not None
                assert gate == any_rule, (code, text)
                matched += any_rule
    assert matched > 100


def test_ascii_is_folded_as_the_table_folds_it() -> None:
    for code in range(128):
        char = chr(code)
        assert fold(char * 3) == char.translate(_FOLD_TABLE) * 3
        assert fold_aligned(f"a{char}B") == f"a{char}B".translate(_ALIGNED_TABLE)
    for text in TEXTS[::7]:
        assert fold(text) == text.translate(_FOLD_TABLE), text
        assert fold_aligned(text) == text.translate(_ALIGNED_TABLE), text


def test_words_are_found_as_the_expression_finds_them() -> None:
    # The chunk test is the expression's own character test, on every code point.
    every = "".join(map(chr, range(0x110000)))
    assert [c for c in every if c.isalnum()] == re.findall(r"[^\W_]", every)
    for text in [*TEXTS, "--a-b'c-- 'x' a''b 12-3 \u00b2\u2167 _a_b_ a-_-b"]:
        for form in (text, fold(text), unify_typography(text)):
            assert segment._find_words(form) == segment._WORD_RE.findall(form), form


def test_clauses_are_split_as_the_expression_splits_them() -> None:
    hyphens = ["rendez-vous, demain", "a -b, c", "a- b", "a\t-b", "-a", "a--b, c", "a -- b"]
    for text in [*TEXTS, *hyphens, "a,,b , ,c,", "a - b", "a:b", "a—b", "x、y，z", ",", ""]:
        pieces = list(map(segment._tokenize, segment._clause_texts(text)))
        expected = [segment._tokenize(piece) for piece in segment._CLAUSE_RE.split(text)]
        assert [p for p in pieces if p[0]] == [p for p in expected if p[0]], text


def _sentences_by_expression(text: str) -> tuple[str, ...]:
    """The sentences as the separator expression alone splits them (the slow path)."""
    if segment._GREEK_O_RE.search(text) is not None:
        text = segment._GREEK_OTI_RE.sub(r"\1τι", text)
    pieces = segment._SENTENCE_RE.split(text)
    return tuple(p.strip() for p in pieces if p and segment._has_letters(p))


def test_sentences_are_split_as_the_expression_splits_them() -> None:
    # One sentence ended by marks is found without the expression: each way its end can look.
    ends = ["", ".", "...", "?!", "…", '."', ".) ", ". \n", "\n", ";", ".;", "';", '"', ")."]
    middles = ["", " 3.5 ", ". Then", "; and", "\nnext", "...and", "» «", ".\u00a0x"]
    built = [f"a{middle}b{end}" for middle in middles for end in ends]
    for text in [*TEXTS, *built, "", " ", ".", "ό,τι θέλεις.", "?"]:
        assert segment._sentences(text) == _sentences_by_expression(text), repr(text)


def test_latin1_text_is_folded_as_the_table_folds_it() -> None:
    # Through bytes where every character is below U+0100 and folds to one of them; through
    # the table otherwise (ß folds to two letters, µ to a Greek one, beyond U+00FF).
    latin1 = "".join(map(chr, range(256)))
    for text in (latin1, latin1[::-1], "é" + latin1[128:], "café ß µ", "élan ΟΔΟΣ", "ñ\u0100"):
        assert fold(text) == text.translate(_FOLD_TABLE), text
        assert fold_aligned(text) == text.translate(_ALIGNED_TABLE), text


def test_plain_clauses_are_tokenized_as_word_by_word() -> None:
    # A clause of letters and digits is lowered and folded whole: the same tokens as each
    # word alone (a final sigma, a dotted capital I, a sharp s, a modifier apostrophe).
    plain = 0
    edges = ["ΟΔΟΣ ΚΑΙ ΣΟΦΟΣ", "İİ İstanbul", "Straße ß", "donʼt ǅ", "a\tb", "x\u00a0y"]
    edges += ["rendez-vous", "ΟΔΟΣ-ΟΔΟΣ", "a--b", "-a", "b-", "a -b", "a- b", "x-\u2010y"]
    for text in [*TEXTS, *edges]:
        for piece in segment._clause_texts(unicodedata.normalize("NFC", text)):
            tokens = segment._tokenize(piece)
            assert tokens == segment._tokenize_words(piece), piece
            plain += piece.replace(" ", "").isalnum()
    assert plain > 1000


def _meaningful_word_by_word(text: str) -> bool:
    """is_meaningful as it was written before it read words only until it was certain."""
    if not text or not segment._has_letters(text):
        return False
    words = [
        w
        for w in segment._words(unicodedata.normalize("NFC", text))
        if w.isalpha() or segment._LETTER_RE.search(w)
    ]
    if not words:
        return False
    split = [part for word in words for part in word.split("-") if part]
    if sum(map(len, split)) < 3:
        return False
    if all(w in signals._BACKCHANNEL_WORDS or signals._HESITATION_RE.match(w) for w in split):
        return False
    return tuple(words) not in signals._BACKCHANNEL_PHRASE_SET


def test_meaningful_reads_as_many_words_as_it_needs() -> None:
    extra = ["ok ok ok ok ok ok", "ok ok ok ok ok fine", "i see", "i see now", "ok-ok", "a-b", "-"]
    extra += ["uh-huh right", "hm hm hm hm hm hm hm hm hm", "ne", "123 456", "é", "ab"]
    verdicts = set()
    for text in [*TEXTS, *extra]:
        verdict = signals.is_meaningful(text)
        assert verdict == _meaningful_word_by_word(text), text
        verdicts.add(verdict)
    assert verdicts == {True, False}


def test_scripts_are_counted_by_runs() -> None:
    for text in [*TEXTS, "Η Maria θα έρθει", "Ηello wοrld", "ΑΒ cd", "АБ cd ef", "日本 is"]:
        letters = identify._LETTER_RE.findall(text)
        expected = None
        if identify._NON_LATIN_RE.search(text) and letters:
            for pattern, code in identify._SCRIPT_LANGUAGES:
                count = len(re.findall(pattern, text))
                if count and count * 2 >= len(letters):
                    expected = code
                    break
        assert identify._script_language(text) == expected, text


def test_capture_sentences_are_split_only_at_a_break() -> None:
    for text in [*TEXTS, "Dr. Smith called. Remind me", "a\x00b", "one!two ! three\nfour", " x "]:
        protected = capture_module._ABBREVIATION_DOT_RE.sub(
            lambda m: m.group().replace(". ", "\x00 "), text
        )
        parts = re.split(r"(?<=[.!?;;。！？])\s+|\n+", protected)
        expected = tuple(
            p.replace("\x00", ".").strip() for p in parts if p and segment._has_letters(p)
        )
        assert capture_module._capture_sentences(text) == expected, text


def test_a_search_by_parts_finds_what_its_alternation_finds() -> None:
    parts = (r"\bper\s?cent\b", r"\bcent\w*", r"(?:ab|bc)\b", r"^\W*ne\b", r"\d+")
    pattern = re.compile("|".join(f"(?:{part})" for part in parts))
    search = Search(pattern, map(re.compile, parts))
    found = 0
    for size in range(1, 5):
        for letters in itertools.product("abcenprt 1", repeat=size):
            text = "".join(letters)
            expected = pattern.search(text) is not None
            assert search(text) == expected, text
            found += expected
    assert found


def test_typography_is_unified_only_where_needed() -> None:
    assert unify_typography("d’accord ‘x’ a\u00a0b") == "d'accord 'x' a b"
    assert unify_typography("plain text") == "plain text"


def test_acronym_hint_needs_two_capitals() -> None:
    assert signals.local_signal("we should use RAG here") == "definition"
    assert signals.local_signal("το ΕΦΚΑ άργησε πάλι") == "definition"
    assert signals.local_signal("we should use rag here") is None


@pytest.mark.parametrize("text", ["cómo me", "cuánto me", "quanto mi", "πόσο μου", "Cómo me"])
def test_a_degree_word_and_a_pronoun_alone_are_read(text: str) -> None:
    """A partial such as "cómo me" once raised IndexError in the feeling-exclamative rule."""
    for hint in (None, "es", "it", "el", "pt"):
        analysis = analyse(text, hint)
        assert isinstance(analysis.is_question, bool)
        assert analysis.captured is None
        assert is_question(text, hint) == analysis.is_question
    assert is_question("cómo me alegro de verte", "es") is False
