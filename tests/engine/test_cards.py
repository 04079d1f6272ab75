"""Tests of glasses-card shaping (no Home Assistant needed)."""

from __future__ import annotations

import unicodedata

import pytest

from custom_components.homebuddy_proactive.engine.text.cards import ELLIPSIS, shape_card

LONG_EN = (
    "Canberra is the capital of Australia. It was chosen as a compromise between Sydney and "
    "Melbourne in 1908. The city was designed by Walter Burley Griffin and Marion Mahony "
    "Griffin after an international competition. Parliament moved there in 1927."
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("  Bring   your ID\n and the form. ", "Bring your ID and the form.", id="ws"),
        pytest.param("**Bring** your *ID*.", "Bring your ID.", id="emphasis"),
        pytest.param("__Bring__ your _ID_.", "Bring your ID.", id="underscores"),
        pytest.param("## Answer\nBring your ID.", "Answer Bring your ID.", id="header"),
        pytest.param("- milk\n- bread\n- eggs", "milk; bread; eggs", id="bullets"),
        pytest.param("1. Call Anna\n2. Book the hotel", "Call Anna; Book the hotel", id="numbered"),
        pytest.param('"Bring your ID."', "Bring your ID.", id="double-quotes"),
        pytest.param("“Bring your ID.”", "Bring your ID.", id="curly-quotes"),
        pytest.param("«Apportez votre carte.»", "Apportez votre carte.", id="guillemets"),
        pytest.param("Card: Bring your ID.", "Bring your ID.", id="label-card"),
        pytest.param("Answer: Bring your ID.", "Bring your ID.", id="label-answer"),
        pytest.param('**Card:** "Bring your ID."', "Bring your ID.", id="label-bold-quoted"),
        pytest.param("Réponse : Apportez votre carte.", "Apportez votre carte.", id="label-fr"),
        pytest.param("Απάντηση: Φέρε την ταυτότητα.", "Φέρε την ταυτότητα.", id="label-el"),
        pytest.param("See [the docs](https://x.y/z) now.", "See the docs now.", id="link"),
        pytest.param("Run `pip install x` first.", "Run pip install x first.", id="code"),
        pytest.param("~~old~~ new value", "old new value", id="strike"),
        pytest.param("> quoted answer", "quoted answer", id="blockquote"),
        pytest.param("snake_case_name stays", "snake_case_name stays", id="snake-case"),
        pytest.param("2 * 3 * 4 = 24", "2 * 3 * 4 = 24", id="arithmetic"),
        pytest.param('It\'s "fine" now', 'It\'s "fine" now', id="inner-quotes"),
        pytest.param(
            "Rappel enregistré : appeler le médecin.",
            "Rappel enregistré : appeler le médecin.",
            id="french-colon-space",
        ),
    ],
)
def test_cleaning(raw: str, expected: str) -> None:
    """Markdown, labels, wrapping quotes and extra whitespace are removed."""
    assert shape_card(raw) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Η επιστολή προσφοράς (offer letter) είναι έτοιμη.", id="greek-english"),
        pytest.param("RAGは検索拡張生成の略です。", id="japanese-acronym"),
        pytest.param("يستخدم التطبيق OAuth 2.0 لتسجيل الدخول.", id="arabic-oauth"),
        pytest.param("Το API του Home Assistant δέχεται JSON.", id="greek-acronyms"),
        pytest.param("Привет, это GitHub Actions.", id="cyrillic-latin"),
        pytest.param("Le café coûte 2,50 € à Zürich.", id="accents-currency"),
    ],
)
def test_mixed_scripts_are_kept_intact(text: str) -> None:
    """Words are never dropped because of their script."""
    assert shape_card(text) == text


def test_short_text_is_unchanged() -> None:
    """A short complete answer stays as it is."""
    assert shape_card("No direct flight; take the train.") == "No direct flight; take the train."


def test_text_between_target_and_maximum_is_kept() -> None:
    """A complete answer may exceed the target up to the maximum."""
    text = "a" * 100 + " " + "b" * 99 + "."
    assert len(text) == 201
    assert shape_card(text, target=150, maximum=220) == text


@pytest.mark.parametrize("length", [219, 220])
def test_exact_maximum_is_kept(length: int) -> None:
    """Text of exactly the maximum length is not cut."""
    text = ("word " * 60)[: length - 1].rstrip() + "."
    text = text + "x" * (length - len(text))
    assert len(text) == length
    assert shape_card(text) == text


def test_one_over_maximum_is_cut() -> None:
    """One character over the maximum forces a cut."""
    text = "word " * 44 + "end."
    assert len(text) == 224
    result = shape_card(text)
    assert len(result) <= 220
    assert result.endswith(ELLIPSIS)
    assert result == "word " * 43 + "word" + ELLIPSIS


def test_cut_at_last_sentence_boundary() -> None:
    """Long text is cut after the last sentence that fits."""
    result = shape_card(LONG_EN)
    assert len(result) <= 220
    assert result == LONG_EN[: LONG_EN.index("competition.") + len("competition.")]
    shorter = shape_card(LONG_EN, target=100, maximum=150)
    assert shorter == (
        "Canberra is the capital of Australia. It was chosen as a compromise between Sydney "
        "and Melbourne in 1908."
    )


def test_sentence_boundary_must_not_be_too_short() -> None:
    """A first sentence shorter than ~40 % of the target is not a good card: cut at words."""
    text = "Yes. " + "the next bus leaves from the main square every ten minutes " * 5
    result = shape_card(text)
    assert len(result) <= 220
    assert result.endswith(ELLIPSIS)
    assert len(result) > 150


def test_decimal_and_abbreviation_are_not_sentence_ends() -> None:
    """Decimals such as 2.0 and abbreviations such as Dr. do not end sentences."""
    text = "Use OAuth 2.0 with Dr. Smith's client " + "and keep the refresh token safe " * 8
    result = shape_card(text, target=150, maximum=120)
    assert len(result) <= 120
    assert result.endswith(ELLIPSIS)
    assert result.startswith("Use OAuth 2.0 with Dr. Smith's client")


@pytest.mark.parametrize(
    "mark",
    ["!", "?", ";", "\u037e", "\u0387", "。", "！", "？"],
)
def test_other_sentence_marks(mark: str) -> None:
    """Exclamation, question, semicolon, Greek and full-width marks are sentence boundaries."""
    first = "x" * 80 + mark
    separator = "" if mark in "。！？" else " "
    text = first + separator + "y " * 100
    assert shape_card(text) == unicodedata.normalize("NFC", first)


def test_greek_cut_keeps_latin_terms() -> None:
    """A long Greek text keeps its English terms and is cut at a sentence."""
    sentence = "Η επιστολή προσφοράς (offer letter) περιγράφει τον μισθό και τις παροχές. "
    result = shape_card(sentence * 5)
    assert len(result) <= 220
    assert result.endswith(".")
    assert "offer letter" in result


def test_cjk_without_spaces_is_cut_by_characters() -> None:
    """Text without spaces is cut at maximum - 1 characters plus an ellipsis."""
    text = "これは検索拡張生成という技術の説明です" * 20
    result = shape_card(text)
    assert len(result) == 220
    assert result.endswith(ELLIPSIS)
    assert result[:-1] == text[:219]


def test_cjk_sentence_marks_without_spaces() -> None:
    """Full-width sentence ends are used in CJK text."""
    sentence = "これはRAGという技術の説明です。" * 10
    text = sentence + "続き" * 200
    result = shape_card(text)
    assert len(result) <= 220
    assert result.endswith("。")
    assert "RAG" in result


def test_cjk_cut_does_not_split_latin_word() -> None:
    """A character cut inside a Latin word in CJK text moves back to the word's start."""
    text = "説" * 210 + "Kubernetes" + "説" * 50
    result = shape_card(text)
    assert len(result) <= 220
    assert result.endswith(ELLIPSIS)
    assert "Kub" not in result


def test_long_word_without_spaces_is_cut() -> None:
    """A single very long token is still cut to the maximum."""
    result = shape_card("x" * 500)
    assert len(result) == 220
    assert result.endswith(ELLIPSIS)


def test_never_empty_when_letters() -> None:
    """A bare label still yields a card; pure markup yields nothing."""
    assert shape_card("Answer:") == "Answer:"
    assert shape_card("**") == ""
    assert shape_card("   ") == ""
    assert shape_card("") == ""


@pytest.mark.parametrize("maximum", [1, 2, 5, 20, 60])
def test_small_maximum(maximum: int) -> None:
    """The result never exceeds a small maximum."""
    result = shape_card(LONG_EN, target=maximum, maximum=maximum)
    assert 0 < len(result) <= maximum


def test_trailing_punctuation_before_ellipsis_is_removed() -> None:
    """A cut does not leave a dangling comma before the ellipsis."""
    text = ("alpha, " * 40).strip()
    result = shape_card(text)
    assert result.endswith("alpha" + ELLIPSIS)


def test_existing_ellipsis_is_not_doubled() -> None:
    """A word cut after an existing ellipsis does not produce two."""
    text = "wait... " * 40
    result = shape_card(text, target=150, maximum=100)
    assert len(result) <= 100
    assert ELLIPSIS * 2 not in result
    assert not result.endswith("..." + ELLIPSIS)
