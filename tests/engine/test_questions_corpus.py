"""Question detection on spoken transcripts in seven languages (``corpora/<lang>/*questions.tsv``).

Speech-to-text as it comes: often lowercase, without punctuation, with fillers, dropped accents,
Greek with or without tonos, words of another language. Questions trigger (without punctuation,
after a lead-in, indirect, polite requests, feasibility and permission forms, Greek particles);
statements that merely open with a question word, reported speech, titles, exclamations and
conditional statements do not. Each row's ``checks`` cell names the checks it runs.
"""

from __future__ import annotations

import time

from tests.engine import corpus
from tests.engine.corpus import corpus_cases, corpus_test


def _questions(check: str) -> list[object]:
    return corpus_cases("questions.tsv", "text", "language", check=check)


def _statements(check: str) -> list[object]:
    return corpus_cases("not_questions.tsv", "text", "language", check=check)


test_question = corpus_test(corpus.check_question, _questions("question"))
test_question_detected_language = corpus_test(
    corpus.check_question_detected_language, _questions("question_detected_language")
)
test_question_any_language = corpus_test(
    corpus.check_question_any_language, _questions("question_any_language")
)
test_question_and_detected_language = corpus_test(
    corpus.check_question_and_detected_language, _questions("question_and_detected_language")
)
test_statement = corpus_test(corpus.check_statement, _statements("statement"))
test_not_a_question = corpus_test(corpus.check_not_a_question, _statements("not_a_question"))


def test_speed() -> None:
    """Every utterance of the corpus is classified in well under a millisecond on average.

    CPU time of this process: other work on a busy machine does not count."""
    texts = [
        row["text"]
        for name in ("questions.tsv", "not_questions.tsv")
        for path in corpus.corpus_files(name)
        for _, row in corpus.read_corpus(path)
    ]
    corpus.is_question(texts[0], None)
    start = time.process_time()
    for text in texts:
        corpus.is_question(text, None)
    elapsed = (time.process_time() - start) / len(texts)
    assert elapsed < 0.002
