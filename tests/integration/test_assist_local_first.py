"""Everyday requests without the model, in the speaker's own words, and speech that starts at once.

Through ``conversation.async_converse`` with the real harness: Home Assistant's own sentences
answer the time, devices and the weather before any model call (with the fake Ollama running
and stopped) under our safety rules; the answer follows the language the request was said in;
memories are read back to the person; feelings get a kind answer; and a model's chat answer
reaches the chat log piece by piece while the model is still writing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import chat_session
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_mock_service,
    setup_test_component_platform,
)

from custom_components.homebuddy_proactive.const import (
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALLOWED_DOMAINS,
    DOMAIN,
    EVENT_WELLBEING,
)
from custom_components.homebuddy_proactive.engine.assist import said_back, say
from tests.engine.corpus import corpus_cases
from tests.fake_ollama import FakeOllama, FakeReply
from tests.integration.test_conversation import (
    LOGBOOK_ENTRY,
    HomeWeather,
    agent_id,
    ask,
    audit_messages,
    called,
)

ASSIST_LANGUAGES = ("fr", "en", "el")
SAVE = {"fr": "Souviens-toi que {fact}", "en": "Remember that {fact}", "el": "Θυμήσου ότι {fact}"}
RECALL = {
    "fr": "Qu'est-ce que tu sais sur {subject} ?",
    "en": "What do you know about {subject}?",
    "el": "Τι ξέρεις για {subject};",
}
CLOCK = re.compile(r"\b\d{1,2}[:h]\d{2}\b|\b\d{1,2} ?(?:AM|PM)\b", re.IGNORECASE)


@pytest.fixture(params=["running", "stopped"])
async def model(request: pytest.FixtureRequest, fake_ollama: FakeOllama) -> AsyncIterator[str]:
    """The fake Ollama answering, or stopped once the entry is set up (see ``entry``)."""
    yield str(request.param)


@pytest.fixture
async def entry(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    model: str,
) -> MockConfigEntry:
    """The integration set up; its model stopped when ``model`` says so."""
    set_up = await setup_with_options()
    if model == "stopped":
        await fake_ollama.stop()
    return set_up


@pytest.fixture
def lamp(hass: HomeAssistant) -> list[ServiceCall]:
    """An exposed living-room light; the calls its turn_on receives."""
    hass.states.async_set("light.lumiere_du_salon", "off", {"friendly_name": "Lumière du salon"})
    return async_mock_service(hass, "light", "turn_on")


async def test_the_time_needs_no_model(
    hass: HomeAssistant, entry: MockConfigEntry, fake_ollama: FakeOllama, model: str
) -> None:
    """ "Quelle heure est-il ?" is answered by Home Assistant, model running or not."""
    reply = await ask(hass, entry, "quelle heure est-il ?")
    assert CLOCK.search(reply.speech), reply.speech
    assert fake_ollama.chat_count == 0


async def test_a_light_turns_on_without_the_model_and_is_audited(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    fake_ollama: FakeOllama,
    lamp: list[ServiceCall],
    model: str,
) -> None:
    """HA's French sentence turns the exposed light on; the logbook says so, without the words."""
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    reply = await ask(hass, entry, "allume la lumière du salon")
    assert called(lamp) == ["light.lumiere_du_salon"]
    assert reply.speech and not reply.speech.startswith(("Pardon", "Désolé"))
    assert audit_messages(audit) == [
        "request HassTurnOn → done by Home Assistant: light.lumiere_du_salon"
    ]
    assert fake_ollama.chat_count == 0


async def test_no_such_room_is_said_by_home_assistant(
    hass: HomeAssistant, entry: MockConfigEntry, fake_ollama: FakeOllama, model: str
) -> None:
    """A light in a room Home Assistant does not know: its own French answer names the room,
    at once, model running or not (the model is not asked)."""
    reply = await ask(hass, entry, "allume la lumière du salon")
    assert "salon" in reply.speech, reply.speech
    assert reply.speech not in (say("model_unavailable", "fr"), say("fallback_invalid", "fr"))
    assert fake_ollama.chat_count == 0


async def test_the_weather_needs_no_model(
    hass: HomeAssistant, entry: MockConfigEntry, fake_ollama: FakeOllama, model: str
) -> None:
    """ "Quelle est la météo ?" is HA's weather sentence on the exposed weather entity."""
    setup_test_component_platform(hass, "weather", [HomeWeather()])
    assert await async_setup_component(hass, "weather", {"weather": {"platform": "test"}})
    await hass.async_block_till_done()
    async_expose_entity(hass, conversation.DOMAIN, "weather.maison", True)
    reply = await ask(hass, entry, "quelle est la météo ?")
    assert "12,6" in reply.speech, reply.speech
    assert fake_ollama.chat_count == 0


async def test_feelings_get_a_kind_answer_and_reach_caregivers(
    hass: HomeAssistant, entry: MockConfigEntry, fake_ollama: FakeOllama, model: str
) -> None:
    """Loneliness said to Assist: a kind spoken answer, model or not, and the wellbeing event."""
    events = async_capture_events(hass, EVENT_WELLBEING)
    reply = await ask(hass, entry, "je me sens très seule aujourd'hui")
    assert reply.speech == say("affect_loneliness", "fr")
    assert [e.data["kind"] for e in events] == ["loneliness"]
    english = await ask(hass, entry, "I fell and I can't get up", language="fr")
    assert english.speech == say("affect_fall", "en")
    assert fake_ollama.chat_count == 0


# ---------------------------------------------------------------------------------------------
# Our rules over Home Assistant's sentences
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def door(hass: HomeAssistant) -> dict[str, list[ServiceCall]]:
    """An exposed front door lock and a vacuum; their service calls."""
    hass.states.async_set("lock.porte_d_entree", "locked", {"friendly_name": "Porte d'entrée"})
    async_expose_entity(hass, conversation.DOMAIN, "lock.porte_d_entree", True)
    hass.states.async_set("vacuum.robot", "docked", {"friendly_name": "Robot"})
    async_expose_entity(hass, conversation.DOMAIN, "vacuum.robot", True)
    return {
        "unlock": async_mock_service(hass, "lock", "unlock"),
        "vacuum": async_mock_service(hass, "vacuum", "start"),
    }


async def test_home_assistant_sentences_keep_our_safety_rules(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    door: dict[str, list[ServiceCall]],
    lamp: list[ServiceCall],
) -> None:
    """A lock waits for "oui", a domain outside the options is refused, the rate limit holds,
    and the logbook has each step, all without a model call."""
    entry = await setup_with_options(
        **{CONF_ALLOWED_DOMAINS: ["light", "lock"], CONF_ACTIONS_PER_MINUTE: 1}
    )
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    question = await ask(hass, entry, "déverrouille la porte d'entrée")
    assert question.speech == "Voulez-vous vraiment déverrouiller Porte d'entrée ?"
    assert door["unlock"] == []
    yes = await ask(hass, entry, "oui", conversation_id=question.conversation_id)
    assert yes.speech == "C'est fait : Porte d'entrée."
    assert called(door["unlock"]) == ["lock.porte_d_entree"]

    refused = await ask(hass, entry, "démarre le robot")
    assert refused.speech == "Je n'ai pas le droit de commander Robot."
    assert door["vacuum"] == []

    # One action a minute: the unlock used it.
    limited = await ask(hass, entry, "allume la lumière du salon")
    assert limited.speech == say("service_rate_limited", "fr")
    assert lamp == []
    assert fake_ollama.chat_count == 0
    messages = audit_messages(audit)
    assert messages[:2] == [
        'request HassTurnOff name="Porte d\'entrée" → waiting for confirmation',
        'request HassTurnOff name="Porte d\'entrée" → done: lock.porte_d_entree',
    ]
    assert "refused: domain not allowed" in messages[2]
    assert messages[3].endswith("refused: too many actions this minute")
    assert all("déverrouille" not in m and "robot" not in m for m in messages)
    assert all(e.data.get("domain") == DOMAIN for e in audit if "request" in e.data["message"])


# ---------------------------------------------------------------------------------------------
# The speaker's language and person
# ---------------------------------------------------------------------------------------------


async def test_the_answer_follows_the_person_not_the_pipeline(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """English said to a French pipeline: alarms and the time are answered in English."""
    entry = await setup_with_options()
    alarm = await ask(hass, entry, "set an alarm for 6:45 am", language="fr")
    assert alarm.speech.startswith("Noted for 6:45"), alarm.speech
    listed = await ask(hass, entry, "what alarms do I have?", language="fr")
    assert listed.speech.startswith("You have"), listed.speech
    time = await ask(hass, entry, "what time is it?", language="fr")
    assert CLOCK.search(time.speech) and "heure" not in time.speech, time.speech
    assert fake_ollama.chat_count == 0


@pytest.mark.parametrize(
    ("language", "text", "hint"),
    corpus_cases(
        "assist/request_languages.tsv", "language", "text", "hint", languages=ASSIST_LANGUAGES
    ),
)
async def test_request_languages_from_the_corpus(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    *,
    language: str,
    text: str,
    hint: str,
) -> None:
    """Each request of the corpus is answered in its own language whatever the pipeline's."""
    entry = await setup_with_options()
    fake_ollama.queue(FakeReply(content="{{{ not json"))
    reply = await ask(hass, entry, text, language=hint)
    assert reply.speech == say("fallback_invalid", language)


@pytest.mark.parametrize(
    ("language", "fact", "subject", "said"),
    corpus_cases(
        "assist/read_back.tsv", "language", "fact", "subject", "said", languages=ASSIST_LANGUAGES
    ),
)
async def test_memories_are_read_back_to_the_person(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    *,
    language: str,
    fact: str,
    subject: str,
    said: str,
) -> None:
    """A fact said in the first person comes back addressed to its speaker."""
    entry = await setup_with_options()
    saved = await ask(hass, entry, SAVE[language].format(fact=fact), language=language)
    assert saved.speech == say("memory_saved", language)
    reply = await ask(hass, entry, RECALL[language].format(subject=subject), language=language)
    assert reply.speech == say(
        "memory_recall", language, subject=said_back(subject, language), facts=said
    )
    assert fake_ollama.chat_count == 0


# ---------------------------------------------------------------------------------------------
# Speech that starts at once
# ---------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _watching_deltas(
    hass: HomeAssistant, entry: MockConfigEntry, text: str, heard: asyncio.Event | None = None
) -> Iterator[tuple[asyncio.Task[conversation.ConversationResult], list[dict[str, Any]]]]:
    """A turn started in a chat log whose delta listener records what Assist would speak (as
    an Assist pipeline listens to a streaming agent); ``heard`` is set at each spoken piece."""
    deltas: list[dict[str, Any]] = []

    def listen(_log: conversation.ChatLog, delta: dict[str, Any]) -> None:
        deltas.append(delta)
        if heard is not None and delta.get("content"):
            heard.set()

    with (
        chat_session.async_get_chat_session(hass) as session,
        conversation.async_get_chat_log(hass, session, None, chat_log_delta_listener=listen),
    ):
        yield (
            hass.async_create_task(
                conversation.async_converse(
                    hass,
                    text,
                    session.conversation_id,
                    Context(),
                    language="fr",
                    agent_id=agent_id(hass, entry),
                )
            ),
            deltas,
        )


def _spoken(deltas: list[dict[str, Any]]) -> str:
    return "".join(str(d.get("content") or "") for d in deltas)


async def test_the_chat_answer_is_spoken_while_the_model_writes_it(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """The first sentence reaches the chat log before the model has finished its answer."""
    entry = await setup_with_options()
    pause = asyncio.Event()
    answer = (
        '{"command": "chat", "text": "Victor Hugo a écrit Les Misérables. '
        'Il a été publié en 1862."}'
    )
    first_sentence = "Victor Hugo a écrit Les Misérables."
    split = answer.index(first_sentence) + len(first_sentence)
    fake_ollama.queue(FakeReply(content=answer, split=split, pause=pause))
    heard = asyncio.Event()
    with _watching_deltas(hass, entry, "Qui a écrit Les Misérables ?", heard) as (turn, deltas):
        async with asyncio.timeout(10):
            await heard.wait()
        assert _spoken(deltas) == first_sentence
        assert not turn.done()  # the model is still writing
        pause.set()
        result = await turn
    whole = "Victor Hugo a écrit Les Misérables. Il a été publié en 1862."
    assert _spoken(deltas) == whole
    assert result.response.speech["plain"]["speech"] == whole


async def test_a_command_is_decided_before_anything_is_spoken(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """A memory command streams nothing of the model's JSON: its answer is made by code."""
    entry = await setup_with_options()
    fake_ollama.queue(
        FakeReply(
            content={"command": "memory_save", "fact": "Le kiné vient le mardi.", "text": "ok"},
            split=60,
        )
    )
    with _watching_deltas(hass, entry, "note que le kiné c'est mardi") as (turn, deltas):
        result = await turn
    # Everything said is the code's answer: not a character of the model's JSON.
    assert _spoken(deltas) == say("memory_saved", "fr")
    assert result.response.speech["plain"]["speech"] == say("memory_saved", "fr")


async def test_a_room_without_lights_is_said_at_once(
    hass: HomeAssistant, entry: MockConfigEntry, fake_ollama: FakeOllama, model: str
) -> None:
    """A room that exists with nothing exposed to control in it: said at once, not "je n'ai
    pas compris" after a model call."""
    ar.async_get(hass).async_create("Cuisine")
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    reply = await ask(hass, entry, "allume la lumière de la cuisine")
    assert reply.speech == say("service_not_found", "fr", name="cuisine")
    assert audit_messages(audit) == [
        "request HassTurnOn area='cuisine' → refused: no exposed entity matches"
    ]
    assert fake_ollama.chat_count == 0


async def test_each_turn_reports_its_own_result(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """After Home Assistant answered the time, a later turn of the same conversation carries
    its own response, not the time's (its speech slots, its language)."""
    entry = await setup_with_options()
    first = await conversation.async_converse(
        hass,
        "quelle heure est-il ?",
        None,
        Context(),
        language="fr",
        agent_id=agent_id(hass, entry),
    )
    assert "time" in first.response.speech_slots
    later = await conversation.async_converse(
        hass,
        "I feel so lonely today",
        first.conversation_id,
        Context(),
        language="fr",
        agent_id=agent_id(hass, entry),
    )
    assert later.response.speech["plain"]["speech"] == say("affect_loneliness", "en")
    assert later.response.speech_slots == {}
    assert later.response.language == "en"
