"""Reminder and task capture in seven languages (``corpora/<lang>/*reminders*.tsv``).

Reminder and task utterances, short or inside longer dialogue, are captured with their kind,
content and a card; memories, past, habitual or reported obligations, figures of speech, advice
and questions are not.
"""

from __future__ import annotations

from tests.engine import corpus
from tests.engine.corpus import corpus_cases, corpus_test

test_capture = corpus_test(
    corpus.check_capture,
    corpus_cases("reminders_and_tasks.tsv", "language", "text", "kind", "content"),
)
test_not_captured = corpus_test(
    corpus.check_not_captured, corpus_cases("not_reminders_or_tasks.tsv", "text", "language")
)
