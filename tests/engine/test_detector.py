"""Card checks that keep a weak model's degenerate output off the glasses."""

from __future__ import annotations

import pytest

from custom_components.homebuddy_proactive.engine.proactive.detector import (
    VerdictError,
    answer_token_budget,
    insight_schema,
    parse_answer,
    readable_card,
)


@pytest.mark.parametrize(
    "card",
    [
        "Canberra is the capital of Australia.",
        "Yes.",
        "Platform 4.",
        "Call 06 12 34 56 78 for Dr Papadopoulos.",
        "Η Μαρία έρχεται το Σάββατο στις 10:00.",
        "RAG は検索拡張生成です。",
        "Flight 847 leaves at 10:45 from gate 12.",
    ],
)
def test_real_answers_are_readable(card: str) -> None:
    """Short, numeric-heavy or non-Latin answers are fine."""
    assert readable_card(card)


@pytest.mark.parametrize(
    "card",
    [
        ",",
        "1",
        "j",
        "1234567890",
        "1" * 110,
        "2018-01-20-20:12:11:00:00",
        "NEWEST utterance",
        "Conversation, oldest first:",
        "TASK: card, NEWEST utterance (final).",
        "NEWEST partial, English.",
        "NEWEST final question",
        "150 characters",
        "fact_check",
        "Fact check.",
        "aaaaaaaaaaaaaaaa hmm",
    ],
)
def test_degenerate_output_is_not_readable(card: str) -> None:
    """What a 135M model produced under the schema never becomes a card."""
    assert not readable_card(card)


def test_token_budget_covers_the_largest_answer_the_schema_allows() -> None:
    """The answer is never cut mid-object by num_predict (one token per character worst case)."""
    schema = insight_schema(220)
    people = schema["properties"]["people"]
    largest = 220 + people["maxItems"] * (
        people["items"]["properties"]["name"]["maxLength"]
        + people["items"]["properties"]["observation"]["maxLength"]
    )
    assert answer_token_budget(220) > largest


def test_a_question_is_answered_by_its_card_alone() -> None:
    """Nothing the engine decides itself is generated before a question's card."""
    schema = insight_schema(220, answer=True)
    assert schema["required"] == ["card"] and list(schema["properties"]) == ["card"]
    assert schema["properties"]["card"] == {"type": "string", "maxLength": 220, "minLength": 1}
    assert 220 < answer_token_budget(220, answer=True) < answer_token_budget(220) / 2
    verdict = parse_answer({"card": "The train leaves from platform 4."})
    assert (verdict.intent, verdict.card, verdict.people) == (
        "question",
        "The train leaves from platform 4.",
        (),
    )
    with pytest.raises(VerdictError):
        parse_answer({"card": 4})
    with pytest.raises(VerdictError):
        parse_answer({})
