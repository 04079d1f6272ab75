"""One reading per utterance: ``analyse`` agrees with every public rule it replaces."""

from __future__ import annotations

import pytest

from custom_components.homebuddy_proactive.engine.text import (
    UtteranceAnalysis,
    analyse,
    capture_memory,
    detect_language,
    episode_cue,
    is_meaningful,
    is_question,
    local_signal,
)
from tests.engine.test_language import CAPTURES, QUESTIONS, STATEMENTS

SAMPLES = [
    *(text for texts in QUESTIONS.values() for text in texts),
    *(text for texts in STATEMENTS.values() for text in texts),
    *(text for text, *_rest in CAPTURES),
    "",
    "   ",
    "...",
    "ok",
    "anyway, let's move on to the budget",
    "careful, the pan is hot",
    "Ποιος έρχεται απόψε;",
]


@pytest.mark.parametrize("hint", [None, "fr-FR", "el"])
def test_analyse_agrees_with_each_rule(hint: str | None) -> None:
    for text in SAMPLES:
        analysis = analyse(text, hint)
        language = detect_language(text, hint)
        assert analysis.language == language, text
        assert analysis.is_question == is_question(text, language), text
        assert analysis.captured == capture_memory(text, language), text
        assert analysis.meaningful == is_meaningful(text), text
        assert analysis.local_signal == local_signal(text, language), text
        assert analysis.episode_cue == episode_cue(text.strip()), text
        assert analysis.candidates[0] == language, text


def test_analysis_is_frozen() -> None:
    analysis = analyse("remind me to call Anna tomorrow")
    assert isinstance(analysis, UtteranceAnalysis)
    assert analysis.captured is not None and analysis.captured.kind == "reminder"
    with pytest.raises(AttributeError):
        analysis.language = "fr"  # type: ignore[misc]
