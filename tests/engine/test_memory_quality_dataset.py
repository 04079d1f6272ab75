"""The memory-quality benchmark's dataset stays well-formed (tests/memory_dataset.py).

The shipped English and French files pass every check; each check is shown to catch the broken
dataset it is there for, so a regression in the checker cannot pass silently.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests import memory_dataset
from tests.memory_dataset import CATEGORIES, DATA_DIR, LANGUAGES, parse, problems


def raw(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / f"{language}.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("language", LANGUAGES)
def test_shipped_dataset_is_well_formed(language: str) -> None:
    dataset = memory_dataset.load(language)
    assert problems(dataset, language) == []
    assert {q.category for _, q in dataset.questions} == set(CATEGORIES)
    assert len(dataset.questions) >= 60
    # Paraphrases (words differ from the stored fact) and knowledge updates in each language.
    assert sum(q.paraphrase for _, q in dataset.questions) >= 15
    updates = [f for c in dataset.clients for f in c.facts.values() if f.supersedes]
    assert len(updates) >= 8
    # Both channels appear: final transcripts from the glasses and Assist turns.
    vias = {t.via for c in dataset.clients for s in c.sessions for t in s.turns}
    assert vias == {"glasses", "assist"}


def test_both_languages_are_shipped() -> None:
    assert {path.stem for path in DATA_DIR.glob("*.json")} >= {"en", "fr"}
    assert memory_dataset.load("fr").language == "fr"
    assert memory_dataset.load("en").language == "en"


def first_client(data: dict[str, Any]) -> dict[str, Any]:
    client: dict[str, Any] = data["clients"][0]
    return client


def facts_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for s in first_client(data)["sessions"] for t in s["turns"] for f in t["facts"]]


def question(data: dict[str, Any], category: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        q for q in first_client(data)["questions"] if q["category"] == category
    )
    return found


def test_a_supersede_link_to_a_later_fact_is_caught() -> None:
    data = copy.deepcopy(raw("fr"))
    facts = facts_of(data)
    first, last = facts[0], facts[-1]
    first["supersedes"], first["action"] = last["id"], "SUPERSEDE"
    assert any(f"links to {last['id']}" in p for p in problems(parse(data)))


def test_a_question_citing_an_unknown_or_future_fact_is_caught() -> None:
    data = copy.deepcopy(raw("en"))
    asked = question(data, "single_fact")
    asked["expected"] = ["no-such-fact"]
    assert any("expects no-such-fact" in p for p in problems(parse(data)))
    data = copy.deepcopy(raw("en"))
    asked = question(data, "single_fact")
    asked["asked_at"] = "2026-01-01T00:00:00Z"  # before anything was said
    assert any("said after the question" in p for p in problems(parse(data)))


def test_a_knowledge_update_expecting_the_old_fact_is_caught() -> None:
    data = copy.deepcopy(raw("fr"))
    update = question(data, "knowledge_update")
    new = next(f for f in facts_of(data) if f["id"] == update["expected"][0])
    update["expected"] = [new["supersedes"]]
    found = problems(parse(data))
    assert any("already superseded when asked" in p for p in found)
    assert any("must expect a fact that replaced another" in p for p in found)


def test_missing_categories_languages_and_abstention_rules_are_caught() -> None:
    data = copy.deepcopy(raw("en"))
    for client in data["clients"]:
        client["questions"] = [q for q in client["questions"] if q["category"] != "temporal"]
    assert "no temporal question" in problems(parse(data))
    assert any("for 'fr'" in p for p in problems(parse(raw("en")), "fr"))
    data = copy.deepcopy(raw("en"))
    question(data, "abstention")["expected"] = [facts_of(data)[0]["id"]]
    assert any("abstention questions" in p for p in problems(parse(data)))


def test_cross_session_questions_need_two_sessions() -> None:
    data = copy.deepcopy(raw("fr"))
    cross = question(data, "cross_session")
    cross["expected"] = cross["expected"][:1]
    assert any("needs facts from two sessions" in p for p in problems(parse(data)))


def test_a_turn_said_twice_is_caught() -> None:
    data = copy.deepcopy(raw("en"))
    turns = first_client(data)["sessions"][0]["turns"]
    turns[1]["text"] = turns[0]["text"]
    assert any("turn text said twice" in p for p in problems(parse(data)))
