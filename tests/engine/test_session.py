"""Session state: rolling buffer, speech stream reconstruction, dedupe and partial timing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.homebuddy_proactive.engine.proactive.pacing import PartialTiming
from custom_components.homebuddy_proactive.engine.proactive.session import (
    RecentCard,
    SessionState,
    SpeechStream,
    TranscriptBuffer,
    Utterance,
)

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def utterance(text: str, seconds: float) -> Utterance:
    """An utterance received ``seconds`` after NOW."""
    at = NOW + timedelta(seconds=seconds)
    return Utterance(
        event_id=text, text=text, speaker=None, language="en", timestamp=at, received_at=at
    )


def test_buffer_is_bounded_by_age_and_count() -> None:
    """Older than the window or beyond the count: gone."""
    buffer = TranscriptBuffer(window_seconds=90, max_items=3)
    for n in range(5):
        buffer.append(utterance(f"u{n}", n))
    assert [u.text for u in buffer.items(NOW + timedelta(seconds=5))] == ["u2", "u3", "u4"]
    assert [u.text for u in buffer.items(NOW + timedelta(seconds=93.5))] == ["u4"]
    assert buffer.items(NOW + timedelta(seconds=200)) == []


def test_buffer_recognises_a_replay_only_while_it_holds_the_utterance() -> None:
    """A replay is the same event_id with the same text, still in the buffer (age and count)."""
    buffer = TranscriptBuffer(window_seconds=90, max_items=3)
    first = Utterance(
        event_id="e1", text="Hello.", speaker=None, language="en", timestamp=NOW, received_at=NOW
    )
    buffer.append(first)
    buffer.append(first)  # the same pair twice: held until both have gone
    assert buffer.holds("e1", "Hello.", NOW)
    assert not buffer.holds("e1", "Hello again.", NOW)  # the same id, other words: new
    assert not buffer.holds("e2", "Hello.", NOW)
    buffer.append(utterance("u1", 1))
    buffer.append(utterance("u2", 2))  # the count drops one "e1"; the other is still held
    assert buffer.holds("e1", "Hello.", NOW)
    buffer.append(utterance("u3", 3))
    assert not buffer.holds("e1", "Hello.", NOW + timedelta(seconds=3))
    assert buffer.holds("u3", "u3", NOW + timedelta(seconds=92))
    assert not buffer.holds("u1", "u1", NOW + timedelta(seconds=92))  # out of the window
    assert [u.text for u in buffer.items(NOW + timedelta(seconds=92))] == ["u2", "u3"]


def test_stream_merges_revisions_with_same_or_changing_ids() -> None:
    """Cumulative revisions replace the stream whatever their event ids."""
    stream = SpeechStream()
    stream.update("We should", "a")
    stream.update("We should probably", "a")
    stream.update("We should probably leave for the airport", "b")
    assert stream.text == "We should probably leave for the airport"
    assert stream.event_id == "b"


def test_stream_rebuilds_a_sliding_tail() -> None:
    """A capped cumulative partial (only its tail) extends the stream."""
    stream = SpeechStream()
    stream.update("The interview with Vincent went well and he said", "1")
    stream.update("Vincent went well and he said the offer letter comes Friday", "2")
    assert stream.text == (
        "The interview with Vincent went well and he said the offer letter comes Friday"
    )


def test_stream_focuses_on_speech_after_a_card() -> None:
    """After a card, evaluation looks only at what was appended since."""
    stream = SpeechStream()
    stream.update("What is the capital of Australia", "1")
    stream.mark_card()
    assert stream.focus() == ""
    stream.update("What is the capital of Australia and how far is it from Sydney", "1")
    assert stream.focus() == "and how far is it from Sydney"
    stream.reset()
    assert stream.text == "" and stream.focus() == ""


def test_unrelated_partial_starts_a_new_stream() -> None:
    """Speech that neither revises nor continues the stream starts over."""
    stream = SpeechStream()
    stream.update("Good morning everybody", "1")
    stream.mark_card()
    stream.update("Completely different words now", "2")
    assert stream.text == "Completely different words now"
    assert stream.focus() == "Completely different words now"


def test_cooldown_and_duplicates() -> None:
    """Cooldown measures from the last card; near-identical cards are duplicates."""
    state = SessionState("s", "c", 90, 40)
    assert not state.in_cooldown(NOW, 20)
    state.recent_cards.append(
        RecentCard(
            text="Canberra is the capital of Australia.",
            intent="fact_check",
            source="final",
            created_at=NOW,
            trigger_text="What is the capital of Australia?",
        )
    )
    assert state.in_cooldown(NOW + timedelta(seconds=19), 20)
    assert not state.in_cooldown(NOW + timedelta(seconds=21), 20)
    horizon = timedelta(minutes=10)
    assert state.duplicate_card("Canberra is the capital of Australia!", NOW, horizon)
    assert not state.duplicate_card("Sydney is the largest city in Australia.", NOW, horizon)
    assert state.answered_recently("what's the capital of Australia again", NOW, horizon)
    assert not state.answered_recently("What is the population of Australia?", NOW, horizon)


def test_people_are_grouped_and_bounded() -> None:
    """At most three recent observations per person."""
    state = SessionState("s", "c", 90, 40)
    for n in range(5):
        state.note_person("vincent", "Vincent", f"clue {n}", stated=False)
    assert list(state.people["vincent"].observations) == ["clue 2", "clue 3", "clue 4"]


def test_partial_timing_debounce_and_interval() -> None:
    """Fast revisions coalesce; unbroken speech is sampled once per interval."""
    timing = PartialTiming()
    debounce, interval = 0.25, 1.5
    timing.revision_at(10.0)
    assert timing.next_evaluation_at(debounce, interval) == 10.25
    timing.revision_at(10.1)
    assert timing.next_evaluation_at(debounce, interval) == 10.35
    # Revisions every 100 ms for a long time: the sample comes at first + interval.
    for n in range(2, 30):
        timing.revision_at(10.0 + n / 10)
    assert timing.next_evaluation_at(debounce, interval) == 11.5
    timing.started(11.5)
    assert not timing.pending
    timing.revision_at(11.6)
    # Start-to-start spacing holds even when speech settles quickly.
    assert timing.next_evaluation_at(debounce, interval) == 13.0


def test_reasked_question_with_did_you_say_in_other_languages() -> None:
    """The airport example beyond English: "did you say" and "again" add nothing new."""
    state = SessionState("s", "c", 90, 40)
    horizon = timedelta(minutes=10)
    for asked, again, other in (
        (
            "A qué hora sale el vuelo de la tía Carmen el domingo",
            "Perdona, a qué hora dijiste que sale el vuelo de la tía Carmen",
            "Y dónde va a dormir la tía Carmen esos días",
        ),
        (
            "Wann fährt der Zug nach Hamburg ab?",
            "Wann sagtest du fährt der Zug nach Hamburg nochmal ab?",
            "Wie teuer ist die Fahrkarte nach Hamburg?",
        ),
        (
            "Τι σημαίνει το error code 809 στο VPN client;",
            "Τι είπες ότι σημαίνει πάλι το error code 809;",
            "Πώς αλλάζω τις ρυθμίσεις DNS στο VPN client;",
        ),
    ):
        state.recent_cards.append(
            RecentCard(
                text="An answer.",
                intent="question",
                source="final",
                created_at=NOW,
                trigger_text=asked,
            )
        )
        assert state.answered_recently(again, NOW, horizon), again
        assert not state.answered_recently(other, NOW, horizon), other


def test_same_words_asking_for_something_else_is_a_new_question() -> None:
    """ "When does it leave?" after "Where does it leave?" deserves its own card; "what time"
    and "when" ask the same."""
    horizon = timedelta(minutes=10)
    for asked, other, same in (
        (
            "Where does the train to Leeds leave from?",
            "When does the train to Leeds leave?",
            "Sorry, where does the train to Leeds leave from again?",
        ),
        ("Quand part le train pour Lyon ?", "D'où part le train pour Lyon ?", None),
        (
            "Πού είναι το φαρμακείο;",
            "Πότε ανοίγει το φαρμακείο;",
            "Πού είπες ότι είναι πάλι το φαρμακείο;",
        ),
        ("¿A qué hora abre el museo?", "¿Cuánto cuesta el museo?", "¿Cuándo abre el museo?"),
        ("Wer kommt morgen zum Essen?", "Wann kommt er morgen zum Essen?", None),
    ):
        state = SessionState("s", "c", 90, 40)
        state.recent_cards.append(
            RecentCard(
                text="An answer.",
                intent="question",
                source="final",
                created_at=NOW,
                trigger_text=asked,
            )
        )
        assert not state.answered_recently(other, NOW, horizon), other
        if same is not None:
            assert state.answered_recently(same, NOW, horizon), same
