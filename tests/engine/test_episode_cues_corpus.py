"""Episode cues in French, English and Greek (``corpora/<lang>/*episode_cues.tsv``).

"Changeons de sujet", "new topic", "αλλάζουμε θέμα" open a new episode; words about subjects
and changes do not.
"""

from __future__ import annotations

from tests.engine import corpus
from tests.engine.corpus import corpus_cases, corpus_test

test_episode_cue = corpus_test(corpus.check_episode_cue, corpus_cases("episode_cues.tsv", "text"))
test_not_an_episode_cue = corpus_test(
    corpus.check_not_an_episode_cue, corpus_cases("not_episode_cues.tsv", "text")
)
