"""The Assist conversation agent, end to end through ``conversation.async_converse``.

A real Home Assistant (the test harness), the real integration against a fake Ollama that is a
real HTTP server scripted per test, a real SQLite file, Home Assistant's own intent handlers and
exposure settings, and a real local feed server for the news.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import voluptuous as vol
from aiohttp import web
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.weather import Forecast, WeatherEntity, WeatherEntityFeature
from homeassistant.const import UnitOfTemperature
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
    async_mock_service,
    setup_test_component_platform,
)
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.homebuddy_proactive.const import (
    ASSIST_CLIENT_ID,
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALLOWED_DOMAINS,
    CONF_NEWS_URL,
    CONF_WEATHER_ENTITY,
    DOMAIN,
    EVENT_ALARM,
    EVENT_WELLBEING,
)
from tests.fake_ollama import FakeOllama, FakeReply

# No satellite and no speaker in these homes: Assist says the alarm is noted and that nothing
# can ring it yet.
NOWHERE_FR = (
    "C'est noté pour {time}, mais aucun haut-parleur ne pourra la faire entendre : "
    "choisissez-en un dans les options de HomeBuddy Proactive, rubrique Assist."
)
NOWHERE_EN = (
    "Noted for {time}, but no speaker can ring it: choose one in the HomeBuddy Proactive "
    "options, under Assist."
)

LOGBOOK_ENTRY = "logbook_entry"


@dataclass
class Reply:
    """What the agent answered."""

    speech: str
    conversation_id: str | None
    continue_conversation: bool
    language: str


@pytest.fixture
def setup_assist(
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
) -> Callable[..., Awaitable[MockConfigEntry]]:
    """Set the integration up with the given options."""
    return setup_with_options


def agent_id(hass: HomeAssistant, entry: MockConfigEntry) -> str:
    """The entity id of the entry's conversation agent."""
    entity_id = er.async_get(hass).async_get_entity_id(
        "conversation", DOMAIN, f"{entry.entry_id}_assistant"
    )
    assert entity_id is not None
    return entity_id


@pytest.fixture
def before_dawn(freezer: FrozenDateTimeFactory) -> None:
    """The home's clock at 03:00: alarms set for the morning all ring today, so they are listed
    (by when they next ring) in the order of their times whenever the suite runs."""
    freezer.move_to(dt_util.start_of_local_day() + timedelta(hours=3))


async def ask(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    text: str,
    *,
    language: str = "fr",
    conversation_id: str | None = None,
    device_id: str | None = None,
) -> Reply:
    """Say something to the agent, as an Assist pipeline would."""
    result = await conversation.async_converse(
        hass,
        text,
        conversation_id,
        Context(),
        language=language,
        agent_id=agent_id(hass, entry),
        device_id=device_id,
    )
    await hass.async_block_till_done()
    return Reply(
        speech=result.response.speech["plain"]["speech"],
        conversation_id=result.conversation_id,
        continue_conversation=result.continue_conversation,
        language=result.response.language,
    )


async def list_alarms(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The pending alarms, through the action."""
    response = await hass.services.async_call(
        DOMAIN, "list_alarms", {}, blocking=True, return_response=True
    )
    assert response is not None
    alarms = response["alarms"]
    assert isinstance(alarms, list)
    return alarms


def called(calls: list[ServiceCall]) -> list[str]:
    """Entity ids the service calls targeted."""
    ids: list[str] = []
    for call in calls:
        target = call.data["entity_id"]
        ids.extend([target] if isinstance(target, str) else target)
    return ids


def audit_messages(entries: list[Any]) -> list[str]:
    """Messages of our logbook entries."""
    return [e.data["message"] for e in entries if e.data.get("domain") == DOMAIN]


# ---------------------------------------------------------------------------------------------
# The agent
# ---------------------------------------------------------------------------------------------


async def test_agent_is_a_conversation_entity_for_any_language(
    hass: HomeAssistant, setup_assist: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """The entity is an Assist agent (entity id or entry id) that accepts fr, en and el."""
    entry = await setup_assist()
    entity_id = agent_id(hass, entry)
    assert entity_id == "conversation.homebuddy_proactive_assistant"
    agent = conversation.async_get_agent(hass, entity_id)
    assert agent is not None
    assert agent.supported_languages == "*"
    assert conversation.async_get_agent(hass, entry.entry_id) is agent
    info = conversation.async_get_agent_info(hass, entity_id)
    assert info is not None and info.name

    assert await hass.config_entries.async_unload(entry.entry_id)
    assert conversation.async_get_agent(hass, entry.entry_id) is None


async def test_agent_declares_that_it_controls_the_home(
    hass: HomeAssistant, setup_assist: Callable[..., Awaitable[MockConfigEntry]]
) -> None:
    """The Assist dialog reads CONTROL: without it, it says "cannot control your home"."""
    entry = await setup_assist()
    state = hass.states.get(agent_id(hass, entry))
    assert state is not None
    features = state.attributes["supported_features"]
    assert features & conversation.ConversationEntityFeature.CONTROL


async def test_selectable_in_an_assist_pipeline(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    hass_ws_client: WebSocketGenerator,
) -> None:
    """A French Assist pipeline with this agent runs its intent stage through it."""
    entry = await setup_assist()
    assert await async_setup_component(hass, "assist_pipeline", {})
    client = await hass_ws_client(hass)
    await client.send_json_auto_id(
        {
            "type": "assist_pipeline/pipeline/create",
            "conversation_engine": agent_id(hass, entry),
            "conversation_language": "fr",
            "language": "fr",
            "name": "HomeBuddy",
            "stt_engine": None,
            "stt_language": None,
            "tts_engine": None,
            "tts_language": None,
            "tts_voice": None,
            "wake_word_entity": None,
            "wake_word_id": None,
        }
    )
    created = await client.receive_json()
    assert created["success"], created
    await client.send_json_auto_id(
        {
            "type": "assist_pipeline/run",
            "start_stage": "intent",
            "end_stage": "intent",
            "input": {"text": "Alarm : 07:30"},
            "pipeline": created["result"]["id"],
        }
    )
    events: dict[str, Any] = {}
    while "run-end" not in events:
        message = await client.receive_json()
        if message["type"] == "event":
            events[message["event"]["type"]] = message["event"]["data"]
    assert events["intent-start"]["engine"] == agent_id(hass, entry)
    speech = events["intent-end"]["intent_output"]["response"]["speech"]["plain"]["speech"]
    assert speech == NOWHERE_FR.format(time="7 heures 30")


async def test_french_end_to_end_chat(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """A French chat turn: French prompt with memories and context, the model's words spoken."""
    entry = await setup_assist()
    await ask(hass, entry, "Souviens-toi que ma fille Claire vient dimanche")
    fake_ollama.queue(
        {"command": "chat", "text": "Bonjour ! Claire vient dimanche, vous devez être contente."},
        {"command": "chat", "text": "Avec plaisir. Voulez-vous autre chose ?"},
    )
    first = await ask(hass, entry, "Bonjour, tu sais qui vient dimanche ?")
    assert first.speech == "Bonjour ! Claire vient dimanche, vous devez être contente."
    assert first.language == "fr"
    request = fake_ollama.requests[0]
    system = request["messages"][0]["content"]
    assert "Réponds en français" in system
    assert "ma fille Claire vient dimanche" in system
    assert request["format"]["properties"]["command"]["enum"][0] == "service"

    # Short-term memory already held the "souviens-toi" turn of this device.
    assert [m["content"] for m in request["messages"][1:3]] == [
        "Souviens-toi que ma fille Claire vient dimanche",
        "C'est noté, je m'en souviendrai.",
    ]

    second = await ask(hass, entry, "merci beaucoup", conversation_id=first.conversation_id)
    assert second.continue_conversation  # the model asked a question
    roles = [m["role"] for m in fake_ollama.requests[1]["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    turns = await entry.runtime_data.engine.memory.recent_turns("assist:home")
    assert [(t.speaker, t.language) for t in turns][-2:] == [("user", "fr"), ("assistant", "fr")]


async def test_recent_episode_summary_feeds_the_router(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    freezer: FrozenDateTimeFactory,
) -> None:
    """After a half-hour pause the previous episode is summarised and given to the router."""
    entry = await setup_assist()
    fake_ollama.queue(
        {"command": "chat", "text": "Bon rendez-vous chez le docteur Martin demain."},
        {"command": "chat", "text": "Vous revoilà !"},
        {"command": "chat", "text": "Oui, demain à dix heures."},
    )
    await ask(hass, entry, "Demain j'ai rendez-vous chez le docteur Martin", device_id="salon")
    freezer.tick(timedelta(minutes=31))
    await ask(hass, entry, "me revoilà", device_id="salon")
    await ask(hass, entry, "c'est bien demain mon rendez-vous ?", device_id="salon")
    system = fake_ollama.requests[2]["messages"][0]["content"]
    assert "Résumé de la conversation récente :" in system
    assert "docteur Martin" in system.split("Résumé de la conversation récente :")[1]
    # The half-hour-old turns are no longer given as the conversation so far.
    assert [m["role"] for m in fake_ollama.requests[2]["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
    ]


@pytest.mark.parametrize(
    ("language", "expected", "texts"),
    [
        ("fr", "Pardon, je n'ai pas bien compris.", ("blabla", "encore", "et alors", "tu es là")),
        ("en", "Sorry, I didn't quite understand.", ("blah", "again", "so what", "are you there")),
        ("el", "Συγγνώμη, δεν κατάλαβα καλά.", ("μπλα", "πάλι", "και λοιπόν", "είσαι εκεί")),
    ],
)
async def test_invalid_model_output_gets_a_polite_fallback(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    *,
    language: str,
    expected: str,
    texts: tuple[str, ...],
) -> None:
    """Whatever the model answers, the user hears a sentence in their language."""
    entry = await setup_assist()
    fake_ollama.queue(
        {"command": "service", "intent": "HassExplode", "name": "maison"},
        FakeReply(content="{{{ not json"),
        {"command": "chat", "text": ""},
    )
    for text in texts[:3]:
        reply = await ask(hass, entry, text, language=language)
        assert reply.speech.startswith(expected)
    fake_ollama.queue(FakeReply(status=500))
    down = await ask(hass, entry, texts[3], language=language)
    assert down.speech and not down.speech.startswith(expected)


# ---------------------------------------------------------------------------------------------
# Alarms
# ---------------------------------------------------------------------------------------------


async def test_alarm_fast_path_rings_at_its_time_without_the_model(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """ "Alarm : 07:30" is stored without a model call and fires the alarm event at 7:30."""
    entry = await setup_assist()
    rings = async_capture_events(hass, EVENT_ALARM)
    reply = await ask(hass, entry, "Alarm : 07:30", device_id="satellite-kitchen")
    assert reply.speech == NOWHERE_FR.format(time="7 heures 30")
    assert fake_ollama.chat_count == 0

    (alarm,) = await list_alarms(hass)
    assert alarm["time"] == "07:30"
    assert alarm["device_id"] == "satellite-kitchen"
    fire_at = dt_util.parse_datetime(alarm["fire_at"])
    assert fire_at is not None
    local = dt_util.as_local(fire_at)
    assert (local.hour, local.minute) == (7, 30)
    assert timedelta(0) < fire_at - dt_util.utcnow() <= timedelta(days=1)

    async_fire_time_changed(hass, fire_at - timedelta(minutes=1))
    await hass.async_block_till_done()
    assert rings == []
    async_fire_time_changed(hass, fire_at + timedelta(seconds=1))
    await hass.async_block_till_done()
    assert len(rings) == 1
    assert rings[0].data["time"] == "07:30"
    assert rings[0].data["language"] == "fr"
    assert rings[0].data["device_id"] == "satellite-kitchen"
    assert rings[0].data["message"] == "Il est 7 heures 30. C'est l'heure de votre alarme."
    assert await list_alarms(hass) == []
    async_fire_time_changed(hass, fire_at + timedelta(days=1, seconds=1))
    await hass.async_block_till_done()
    assert len(rings) == 1


async def test_the_same_alarm_is_not_set_twice(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    before_dawn: None,
    fake_ollama: FakeOllama,
) -> None:
    """ "Alarm : 07:30" said three times is one alarm; the user hears it already exists."""
    entry = await setup_assist()
    answers = [(await ask(hass, entry, "Alarm : 07:30")).speech for _ in range(3)]
    assert answers == [
        NOWHERE_FR.format(time="7 heures 30"),
        "Vous avez déjà une alarme à 7 heures 30.",
        "Vous avez déjà une alarme à 7 heures 30.",
    ]
    assert [a["time"] for a in await list_alarms(hass)] == ["07:30"]
    assert (await ask(hass, entry, "quelles alarmes ?")).speech == (
        "Vous avez une alarme, à 7 heures 30."
    )
    # In other words, other languages, or through the model: still the same alarm.
    assert (await ask(hass, entry, "set an alarm for 7:30 am", language="en")).speech == (
        "You already have an alarm at 7:30 AM."
    )
    assert (await ask(hass, entry, "ξύπνα με στις 7:30", language="el")).speech == (
        "Έχετε ήδη ξυπνητήρι στις 7:30."
    )
    fake_ollama.queue({"command": "alarm", "time": "07:30"})
    assert (await ask(hass, entry, "j'aimerais être debout à sept heures et demie")).speech == (
        "Vous avez déjà une alarme à 7 heures 30."
    )
    assert len(await list_alarms(hass)) == 1
    # A purpose makes it another alarm; said again, that one is not doubled either.
    await ask(hass, entry, "réveille-moi à 7 h 30 pour mes médicaments")
    again = await ask(hass, entry, "réveille-moi à 7 h 30 pour mes médicaments")
    assert again.speech == "Vous avez déjà une alarme à 7 heures 30."
    assert [a["label"] for a in await list_alarms(hass)] == ["", "mes médicaments"]


async def test_spoken_alarms_are_set_listed_and_cancelled(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    before_dawn: None,
    fake_ollama: FakeOllama,
) -> None:
    """French and English phrasings set, list and cancel alarms, all without the model."""
    entry = await setup_assist()
    assert (await ask(hass, entry, "réveille-moi à 7 heures")).speech == (
        NOWHERE_FR.format(time="7 heures")
    )
    assert (await ask(hass, entry, "set an alarm for 8:15 pm", language="en")).speech == (
        NOWHERE_EN.format(time="8:15 PM")
    )
    assert (await ask(hass, entry, "quelles alarmes ?")).speech == (
        "Vous avez 2 alarmes : 7 heures et 20 heures 15."
    )
    assert (await ask(hass, entry, "annule l'alarme de 7 heures")).speech == (
        "C'est annulé : plus d'alarme à 7 heures."
    )
    assert (await ask(hass, entry, "annule l'alarme de 9 heures")).speech == (
        "Je ne trouve pas d'alarme à 9 heures."
    )
    assert (await ask(hass, entry, "what alarms do I have?", language="en")).speech == (
        "You have one alarm, at 8:15 PM."
    )
    assert (await ask(hass, entry, "cancel my alarm", language="en")).speech == (
        "Done, the alarm at 8:15 PM is cancelled."
    )
    assert (await ask(hass, entry, "quelles sont mes alarmes ?")).speech == (
        "Vous n'avez aucune alarme."
    )
    assert (await ask(hass, entry, "annule mon alarme")).speech == "Vous n'avez aucune alarme."
    assert fake_ollama.chat_count == 0


async def test_spoken_alarm_keeps_its_day_and_purpose(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """ "Tomorrow" is honoured and what the alarm is for is kept with it, without the model."""
    entry = await setup_assist()
    await ask(hass, entry, "euh réveille-moi demain à sept heures et quart pour mes médicaments")
    (alarm,) = await list_alarms(hass)
    assert alarm["time"] == "07:15"
    assert alarm["label"] == "mes médicaments"
    fire_at = dt_util.parse_datetime(alarm["fire_at"])
    assert fire_at is not None
    tomorrow = dt_util.now().date() + timedelta(days=1)
    assert dt_util.as_local(fire_at).date() == tomorrow
    assert fake_ollama.chat_count == 0


async def test_alarm_questions_wait_for_the_answer(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    before_dawn: None,
    fake_ollama: FakeOllama,
) -> None:
    """A time-less alarm asks for the time; an ambiguous cancel asks which one."""
    entry = await setup_assist()
    question = await ask(hass, entry, "mets une alarme")
    assert question.speech == "À quelle heure voulez-vous l'alarme ?"
    assert question.continue_conversation
    answer = await ask(hass, entry, "à 6h30", conversation_id=question.conversation_id)
    assert answer.speech == NOWHERE_FR.format(time="6 heures 30")
    await ask(hass, entry, "Alarm : 9:00")

    which = await ask(hass, entry, "annule mon alarme")
    assert which.speech == (
        "Vous avez 2 alarmes : 6 heures 30 et 9 heures. Laquelle faut-il annuler ?"
    )
    done = await ask(hass, entry, "celle de 9 heures", conversation_id=which.conversation_id)
    assert done.speech == "C'est annulé : plus d'alarme à 9 heures."
    assert [a["time"] for a in await list_alarms(hass)] == ["06:30"]
    assert fake_ollama.chat_count == 0


async def test_model_can_set_an_alarm_too(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    before_dawn: None,
    fake_ollama: FakeOllama,
) -> None:
    """A phrasing the parser does not know reaches the router, whose alarm command is used."""
    entry = await setup_assist()
    fake_ollama.queue({"command": "alarm", "time": "06:15"})
    reply = await ask(hass, entry, "demain j'aimerais être debout tôt, vers six heures et quart")
    assert reply.speech == NOWHERE_FR.format(time="6 heures 15")
    assert fake_ollama.chat_count == 1
    assert [a["time"] for a in await list_alarms(hass)] == ["06:15"]


async def test_alarms_survive_a_restart_and_still_ring(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
) -> None:
    """Alarms are in the SQLite file: after unload and setup they are listed and armed again."""
    entry = await setup_assist()
    rings = async_capture_events(hass, EVENT_ALARM)
    await ask(hass, entry, "réveille-moi à 7 heures")
    (before,) = await list_alarms(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    (after,) = await list_alarms(hass)
    assert after == before
    fire_at = dt_util.parse_datetime(after["fire_at"])
    assert fire_at is not None
    async_fire_time_changed(hass, fire_at + timedelta(seconds=1))
    await hass.async_block_till_done()
    assert [e.data["alarm_id"] for e in rings] == [after["id"]]


async def test_alarm_missed_while_stopped(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    freezer: FrozenDateTimeFactory,
) -> None:
    """A few minutes late still rings at setup; hours late does not (waking late helps nobody)."""
    entry = await setup_assist()
    rings = async_capture_events(hass, EVENT_ALARM)
    await ask(hass, entry, "réveille-moi dans 10 minutes")
    await ask(hass, entry, "réveille-moi dans 20 minutes")
    assert await hass.config_entries.async_unload(entry.entry_id)
    freezer.tick(timedelta(minutes=25))
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert len(rings) == 2  # 15 and 5 minutes late: within the grace period
    await ask(hass, entry, "réveille-moi dans 10 minutes")
    assert await hass.config_entries.async_unload(entry.entry_id)
    freezer.tick(timedelta(hours=3))
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert len(rings) == 2
    assert await list_alarms(hass) == []


async def test_alarm_actions(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    before_dawn: None,
) -> None:
    """list_alarms returns data; cancel_alarm works by id, by time and for all."""
    entry = await setup_assist()
    for text in ("Alarm : 6:00", "Alarm : 7:00", "Alarm : 8:00", "Alarm : 9:00"):
        await ask(hass, entry, text)
    alarms = await list_alarms(hass)
    assert [a["time"] for a in alarms] == ["06:00", "07:00", "08:00", "09:00"]

    response = await hass.services.async_call(
        DOMAIN, "cancel_alarm", {"alarm_id": alarms[0]["id"]}, blocking=True, return_response=True
    )
    assert response is not None
    assert [a["time"] for a in response["cancelled"]] == ["06:00"]  # type: ignore[index,union-attr]
    await hass.services.async_call(DOMAIN, "cancel_alarm", {"time": "07:00"}, blocking=True)
    assert [a["time"] for a in await list_alarms(hass)] == ["08:00", "09:00"]
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(DOMAIN, "cancel_alarm", {"time": "10:00"}, blocking=True)
    assert err.value.translation_key == "alarm_not_found"
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(DOMAIN, "cancel_alarm", {"all": False}, blocking=True)
    with pytest.raises(vol.Invalid):
        await hass.services.async_call(DOMAIN, "cancel_alarm", {}, blocking=True)
    await hass.services.async_call(DOMAIN, "cancel_alarm", {"all": True}, blocking=True)
    assert await list_alarms(hass) == []
    assert (await ask(hass, entry, "quelles alarmes ?")).speech == "Vous n'avez aucune alarme."

    assert await hass.config_entries.async_unload(entry.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await list_alarms(hass)
    assert err.value.translation_key == "not_loaded"


# ---------------------------------------------------------------------------------------------
# Devices through Home Assistant's intents
# ---------------------------------------------------------------------------------------------


@dataclass
class House:
    """Entities of the test house and the calls their services received."""

    light_off: list[ServiceCall]
    light_on: list[ServiceCall]
    unlock: list[ServiceCall]
    lock: list[ServiceCall]
    close_cover: list[ServiceCall]
    vacuum: list[ServiceCall]


@pytest.fixture
async def house(hass: HomeAssistant) -> House:
    """A living-room lamp, a front door lock, a hidden garage lock, a shutter and a vacuum."""
    hass.states.async_set("light.lampe_du_salon", "on", {"friendly_name": "Lampe du salon"})
    hass.states.async_set("lock.porte_d_entree", "locked", {"friendly_name": "Porte d'entrée"})
    hass.states.async_set(
        "lock.serrure_du_garage", "locked", {"friendly_name": "Serrure du garage"}
    )
    hass.states.async_set("switch.chauffe_eau", "on", {"friendly_name": "Chauffe-eau"})
    hass.states.async_set(
        "cover.volet_cuisine", "open", {"friendly_name": "Volet cuisine", "supported_features": 3}
    )
    hass.states.async_set("vacuum.robot", "docked", {"friendly_name": "Robot"})
    # Locks are not exposed by default: the front door is exposed, the garage stays hidden;
    # the water heater switch is hidden explicitly.
    async_expose_entity(hass, conversation.DOMAIN, "lock.porte_d_entree", True)
    async_expose_entity(hass, conversation.DOMAIN, "switch.chauffe_eau", False)
    garage = ar.async_get(hass).async_create("Garage")
    assert garage.id
    return House(
        light_off=async_mock_service(hass, "light", "turn_off"),
        light_on=async_mock_service(hass, "light", "turn_on"),
        unlock=async_mock_service(hass, "lock", "unlock"),
        lock=async_mock_service(hass, "lock", "lock"),
        close_cover=async_mock_service(hass, "cover", "close_cover"),
        vacuum=async_mock_service(hass, "vacuum", "start"),
    )


async def test_service_turns_off_an_exposed_light_and_audits_it(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
) -> None:
    """The router's service command runs HassTurnOff for the exposed lamp; the logbook says so."""
    entry = await setup_assist()
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    fake_ollama.queue({"command": "service", "intent": "HassTurnOff", "name": "Lampe du salon"})
    reply = await ask(hass, entry, "il fait bien trop clair dans le salon")
    assert reply.speech == "C'est fait : Lampe du salon."
    assert called(house.light_off) == ["light.lampe_du_salon"]
    (entry_data,) = [e.data for e in audit if e.data.get("domain") == DOMAIN]
    assert entry_data["entity_id"] == "light.lampe_du_salon"
    assert entry_data["message"] == (
        "request HassTurnOff name='Lampe du salon' → done: light.lampe_du_salon"
    )
    assert "éteins" not in entry_data["message"]  # the words stay out of the logbook
    # The prompt lists exposed devices of allowed domains only.
    system = fake_ollama.requests[0]["messages"][0]["content"]
    assert "Lampe du salon" in system and "Porte d'entrée" in system
    assert "Serrure du garage" not in system and "Chauffe-eau" not in system
    assert "Robot" not in system


@pytest.mark.parametrize(
    "answer",
    [
        {"command": "service", "intent": "HassTurnOff", "name": "Serrure du garage"},
        {"command": "service", "intent": "HassTurnOff", "name": "lock.serrure_du_garage"},
        {"command": "service", "intent": "HassTurnOff", "name": "serrure du garage"},
        {"command": "service", "intent": "HassTurnOff", "area": "Garage"},
        {"command": "service", "intent": "HassTurnOn", "name": "Chauffe-eau"},
        {"command": "service", "intent": "HassTurnOff", "name": "Chauffe-eau", "area": "Garage"},
    ],
    ids=["name", "entity_id", "lowercase", "area", "hidden_switch", "name_and_area"],
)
async def test_unexposed_entities_cannot_be_controlled(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
    answer: dict[str, Any],
) -> None:
    """However the model names an entity hidden from Assist, nothing happens to it."""
    entry = await setup_assist()
    turn_on = async_mock_service(hass, "switch", "turn_on")
    turn_off = async_mock_service(hass, "switch", "turn_off")
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    fake_ollama.queue(answer)
    reply = await ask(hass, entry, "il y a quelque chose à faire au garage ?")
    assert reply.speech.startswith("Je ne trouve pas")
    assert house.unlock == house.lock == turn_on == turn_off == []
    assert audit_messages(audit) == [
        f"request {answer['intent']}"
        + (f" name={answer['name']!r}" if "name" in answer else "")
        + (f" area={answer['area']!r}" if "area" in answer else "")
        + " → refused: no exposed entity matches"
    ]


async def test_domains_outside_the_allowlist_are_refused(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
) -> None:
    """An exposed vacuum is still off-limits when its domain is not allowed in the options."""
    entry = await setup_assist(**{CONF_ALLOWED_DOMAINS: ["switch"]})
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    fake_ollama.queue(
        {"command": "service", "intent": "HassTurnOn", "name": "Robot"},
        {"command": "service", "intent": "HassTurnOff", "name": "Lampe du salon"},
    )
    assert (await ask(hass, entry, "le robot pourrait bien passer")).speech == (
        "Je n'ai pas le droit de commander Robot."
    )
    assert (await ask(hass, entry, "il y a trop de lumière")).speech == (
        "Je n'ai pas le droit de commander Lampe du salon."
    )
    assert house.vacuum == house.light_off == []
    assert all("refused: domain not allowed" in m for m in audit_messages(audit))


async def test_locks_need_a_spoken_yes(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Unlocking asks "Voulez-vous vraiment … ?"; "oui" unlocks, "non" does not, and it expires."""
    entry = await setup_assist()
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    unlock = {"command": "service", "intent": "HassTurnOff", "name": "Porte d'entrée"}

    fake_ollama.queue(unlock)
    question = await ask(hass, entry, "l'infirmière arrive, tu peux lui ouvrir ?")
    assert question.speech == "Voulez-vous vraiment déverrouiller Porte d'entrée ?"
    assert question.continue_conversation
    assert house.unlock == []
    yes = await ask(hass, entry, "oui", conversation_id=question.conversation_id)
    assert yes.speech == "C'est fait : Porte d'entrée."
    assert called(house.unlock) == ["lock.porte_d_entree"]
    assert fake_ollama.chat_count == 1  # "oui" needed no model call

    fake_ollama.queue(unlock)
    question = await ask(hass, entry, "l'infirmière arrive")
    no = await ask(hass, entry, "non", conversation_id=question.conversation_id)
    assert no.speech == "D'accord, je ne fais rien."
    assert len(house.unlock) == 1

    # A "yes" in another conversation, or after the question expired, unlocks nothing.
    fake_ollama.queue(unlock)
    question = await ask(hass, entry, "l'infirmière arrive")
    other = await ask(hass, entry, "oui")
    assert other.speech.startswith("Pardon")
    freezer.tick(timedelta(seconds=61))
    late = await ask(hass, entry, "oui", conversation_id=question.conversation_id)
    assert late.speech.startswith("Pardon")
    assert len(house.unlock) == 1

    assert audit_messages(audit) == [
        'request HassTurnOff name="Porte d\'entrée" → waiting for confirmation',
        'request HassTurnOff name="Porte d\'entrée" → done: lock.porte_d_entree',
        'request HassTurnOff name="Porte d\'entrée" → waiting for confirmation',
        'request HassTurnOff name="Porte d\'entrée" → declined',
        'request HassTurnOff name="Porte d\'entrée" → waiting for confirmation',
    ]


async def test_covers_need_confirmation_in_english_too(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
) -> None:
    """Closing a shutter asks first, in the user's language; "yes" closes it."""
    entry = await setup_assist()
    fake_ollama.queue({"command": "service", "intent": "HassTurnOff", "name": "Volet cuisine"})
    question = await ask(hass, entry, "close the kitchen shutter", language="en")
    assert question.speech == "Do you really want me to close Volet cuisine?"
    yes = await ask(hass, entry, "yes", language="en", conversation_id=question.conversation_id)
    assert yes.speech == "Done: Volet cuisine."
    assert called(house.close_cover) == ["cover.volet_cuisine"]


async def test_actions_are_rate_limited(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Beyond N actions a minute the agent refuses politely, audits it, and recovers later."""
    entry = await setup_assist(**{CONF_ACTIONS_PER_MINUTE: 2})
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    on = {"command": "service", "intent": "HassTurnOn", "name": "Lampe du salon"}
    fake_ollama.queue(on, on, on, on)
    speeches = [(await ask(hass, entry, f"un peu de lumière, essai {i}")).speech for i in range(3)]
    assert speeches[:2] == ["C'est fait : Lampe du salon."] * 2
    assert speeches[2].startswith("J'ai déjà fait beaucoup de commandes cette minute.")
    assert len(house.light_on) == 2
    assert audit_messages(audit)[-1].endswith("refused: too many actions this minute")
    freezer.tick(timedelta(seconds=61))
    assert (await ask(hass, entry, "un peu de lumière, encore")).speech == (
        "C'est fait : Lampe du salon."
    )
    assert len(house.light_on) == 3


async def test_a_failing_device_is_reported(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    house: House,
) -> None:
    """A service that fails becomes a sentence and a "failed" audit entry."""
    entry = await setup_assist()
    hass.services.async_remove("light", "turn_on")
    audit = async_capture_events(hass, LOGBOOK_ENTRY)
    fake_ollama.queue({"command": "service", "intent": "HassTurnOn", "name": "Lampe du salon"})
    reply = await ask(hass, entry, "il fait sombre, un peu de lumière")
    assert reply.speech == "Je n'ai pas réussi à commander Lampe du salon."
    assert audit_messages(audit)[0].startswith("request HassTurnOn name='Lampe du salon' → failed")


# ---------------------------------------------------------------------------------------------
# Weather and news
# ---------------------------------------------------------------------------------------------


class HomeWeather(WeatherEntity):
    """A weather entity with a daily forecast."""

    _attr_name = "Maison"
    _attr_condition = "partlycloudy"
    _attr_native_temperature = 12.6
    _attr_native_temperature_unit = UnitOfTemperature.CELSIUS
    _attr_supported_features = WeatherEntityFeature.FORECAST_DAILY

    async def async_forecast_daily(self) -> list[Forecast]:
        """Today and tomorrow."""
        today = dt_util.start_of_local_day()
        return [
            Forecast(
                datetime=(today + timedelta(hours=12)).isoformat(),
                condition="rainy",
                native_temperature=14.2,
                native_templow=6.0,
            ),
            Forecast(
                datetime=(today + timedelta(days=1, hours=12)).isoformat(),
                condition="sunny",
                native_temperature=17.0,
                native_templow=8.0,
            ),
        ]


async def test_weather_from_the_chosen_entity(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """The weather entity of the options is read out, with its forecast, in French."""
    setup_test_component_platform(hass, "weather", [HomeWeather()])
    assert await async_setup_component(hass, "weather", {"weather": {"platform": "test"}})
    await hass.async_block_till_done()
    entry = await setup_assist(**{CONF_WEATHER_ENTITY: "weather.maison"})
    fake_ollama.queue({"command": "weather"}, {"command": "weather"})
    reply = await ask(hass, entry, "quel temps fait-il ?")
    assert reply.speech == (
        "En ce moment : partiellement nuageux, 13 degrés. Aujourd'hui, entre 6 et 14 degrés. "
        "Demain : ensoleillé, entre 8 et 17 degrés."
    )
    english = await ask(hass, entry, "what's the weather like?", language="en")
    assert english.speech.startswith("Right now: partly cloudy, 13 degrees.")

    hass.states.async_set("weather.maison", "unavailable")
    fake_ollama.queue({"command": "weather"})
    assert (await ask(hass, entry, "il fait beau dehors ?")).speech == (
        "La météo n'est pas disponible pour le moment."
    )


async def test_weather_without_entity_or_forecast(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """No entity chosen is said plainly; an entity without forecast still gives conditions."""
    entry = await setup_assist()
    fake_ollama.queue({"command": "weather"})
    assert (await ask(hass, entry, "quel temps fait-il ?")).speech == (
        "Aucune météo n'est choisie dans les options de HomeBuddy."
    )
    assert await hass.config_entries.async_unload(entry.entry_id)
    hass.states.async_set("weather.legacy", "sunny", {"temperature": 20})
    hass.config_entries.async_update_entry(entry, options={CONF_WEATHER_ENTITY: "weather.legacy"})
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    fake_ollama.queue({"command": "weather"})
    assert (await ask(hass, entry, "et la météo ?")).speech == (
        "En ce moment : ensoleillé, 20 degrés."
    )


RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Infos locales</title>
<item><title>La fête du village aura lieu samedi</title></item>
<item><title>Nouvelle ligne de bus vers l'hôpital</title></item>
<item><title>Le marché déménage place de l'église</title></item>
<item><title>Quatrième titre non lu</title></item>
</channel></rss>""".encode()


@dataclass
class Feed:
    """The local feed server's state."""

    url: str = ""
    hits: int = 0
    status: int = 200


@pytest.fixture
async def feed(socket_enabled: None) -> AsyncIterator[Feed]:
    """An RSS feed served on 127.0.0.1."""
    state = Feed()

    async def handler(request: web.Request) -> web.Response:
        state.hits += 1
        return web.Response(body=RSS, status=state.status, content_type="application/rss+xml")

    app = web.Application()
    app.router.add_get("/rss", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    state.url = f"http://127.0.0.1:{port}/rss"
    yield state
    await runner.cleanup()


async def test_news_headlines_are_read_and_cached(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    feed: Feed,
) -> None:
    """Three headlines are read out; a second request within the cache period reuses them."""
    entry = await setup_assist(**{CONF_NEWS_URL: feed.url})
    fake_ollama.queue({"command": "news"}, {"command": "news"})
    reply = await ask(hass, entry, "quelles sont les nouvelles ?")
    assert reply.speech == (
        "Voici les titres. La fête du village aura lieu samedi. Nouvelle ligne de bus vers "
        "l'hôpital. Le marché déménage place de l'église."
    )
    again = await ask(hass, entry, "donne-moi les informations du jour")
    assert again.speech == reply.speech
    assert feed.hits == 1
    assert fake_ollama.chat_count == 2


async def test_news_feed_down_is_said_clearly(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    feed: Feed,
) -> None:
    """A failing feed gives a clear spoken error; no feed configured is said too."""
    feed.status = 500
    entry = await setup_assist(**{CONF_NEWS_URL: feed.url})
    fake_ollama.queue({"command": "news"})
    assert (await ask(hass, entry, "les nouvelles ?")).speech == (
        "Je n'arrive pas à joindre la source d'actualités. Réessayez plus tard."
    )
    assert await hass.config_entries.async_unload(entry.entry_id)
    hass.config_entries.async_update_entry(entry, options={})
    assert await hass.config_entries.async_setup(entry.entry_id)
    fake_ollama.queue({"command": "news"})
    assert (await ask(hass, entry, "what's the news?", language="en")).speech == (
        "No news feed is chosen in HomeBuddy's options."
    )


# ---------------------------------------------------------------------------------------------
# Memory and wellbeing
# ---------------------------------------------------------------------------------------------


async def test_remember_and_recall(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """ "Souviens-toi que …" stores a fact; "qu'est-ce que tu sais sur Claire ?" says it."""
    entry = await setup_assist()
    saved = await ask(hass, entry, "Souviens-toi que ma fille s'appelle Claire.")
    assert saved.speech == "C'est noté, je m'en souviendrai."
    memories = await entry.runtime_data.engine.memory.list(ASSIST_CLIENT_ID)
    assert [(m.kind, m.content) for m in memories] == [("fact", "ma fille s'appelle Claire")]
    recall = await ask(hass, entry, "Qu'est-ce que tu sais sur Claire ?")
    assert recall.speech == "Voici ce que je sais sur Claire : Votre fille s'appelle Claire."
    nothing = await ask(hass, entry, "What do you know about Bernard?", language="en")
    assert nothing.speech == "I don't know anything about Bernard yet."
    # The speaker's "my" is said back as "your" ("vous" in French, "σας" in Greek).
    mine = await ask(hass, entry, "What do you know about my sister Lea?", language="en")
    assert mine.speech == "I don't know anything about your sister Lea yet."
    daughter = await ask(hass, entry, "Qu'est-ce que tu sais sur ma fille ?")
    assert daughter.speech == (
        "Voici ce que je sais sur votre fille : Votre fille s'appelle Claire."
    )
    assert fake_ollama.chat_count == 0


async def test_router_memory_commands(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """The router's memory_save and memory_recall commands use the same stores."""
    entry = await setup_assist()
    fake_ollama.queue(
        {"command": "memory_save", "fact": "Le kinésithérapeute vient le mardi."},
        {"command": "memory_recall", "subject": "kinésithérapeute"},
    )
    assert (await ask(hass, entry, "note bien, le kiné c'est le mardi")).speech == (
        "C'est noté, je m'en souviendrai."
    )
    reply = await ask(hass, entry, "il vient quand déjà, le kinésithérapeute ?")
    assert reply.speech == (
        "Voici ce que je sais sur kinésithérapeute : Le kinésithérapeute vient le mardi."
    )


async def test_feelings_reach_caregivers_without_the_transcript(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """Loneliness and pain fire the wellbeing event with kind, language and count; no text."""
    entry = await setup_assist()
    events = async_capture_events(hass, EVENT_WELLBEING)
    fake_ollama.queue({"command": "chat", "text": "Allongez-vous et mettez du chaud."})
    lonely = await ask(hass, entry, "je me sens seule aujourd'hui", device_id="salon")
    pain = await ask(hass, entry, "j'ai mal au dos, qu'est-ce que je peux faire ?")
    again = await ask(hass, entry, "je me sens si seule, personne ne vient")
    # Said as a feeling, the answer is kind and made by code; asked with a question, the model
    # answers the question.
    assert (
        lonely.speech
        == again.speech
        == (
            "Je suis là avec vous. Voulez-vous que nous parlions un peu, ou appeler quelqu'un qui "
            "vous est cher ?"
        )
    )
    assert pain.speech == "Allongez-vous et mettez du chaud."
    assert [(e.data["kind"], e.data["count"]) for e in events] == [
        ("loneliness", 1),
        ("pain", 1),
        ("loneliness", 2),
    ]
    first = events[0].data
    assert first["language"] == "fr"
    assert first["device_id"] == "salon"
    assert first["window_hours"] == 24
    assert first["sentiment"] < 0
    for event in events:
        assert not any(
            "seule" in str(value) or "dos" in str(value) for value in event.data.values()
        )
    assert fake_ollama.chat_count == 1
    # The feelings are in the user's affective memory, where they can be seen and deleted.
    feelings = await entry.runtime_data.engine.memory.overview(ASSIST_CLIENT_ID, "affective")
    assert sorted(f["triggers"][0] for f in feelings) == ["loneliness", "loneliness", "pain"]
    assert all(f["sentiment"] < 0 for f in feelings)


async def test_same_question_gets_the_same_answer_and_is_counted(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """Asked three times on one device, a timeless question gets one model call and a count."""
    entry = await setup_assist()
    events = async_capture_events(hass, EVENT_WELLBEING)
    fake_ollama.queue({"command": "chat", "text": "C'est Victor Hugo."})
    answers = [
        (await ask(hass, entry, text, device_id="salon")).speech
        for text in (
            "Qui a écrit Les Misérables ?",
            "qui a écrit les misérables",
            "Qui a écrit Les Misérables ?",
        )
    ]
    assert answers == ["C'est Victor Hugo."] * 3
    assert fake_ollama.chat_count == 1
    assert [(e.data["kind"], e.data["count"]) for e in events] == [
        ("repeated_question", 2),
        ("repeated_question", 3),
    ]
    assert events[0].data["window_minutes"] == 30

    # A short follow-up depends on what came before: it is asked to the model each time.
    fake_ollama.queue(
        {"command": "chat", "text": "Demain, mardi 3 mars."},
        {"command": "chat", "text": "Demain il pleut."},
    )
    await ask(hass, entry, "et demain ?", device_id="salon")
    assert (await ask(hass, entry, "et demain ?", device_id="salon")).speech == "Demain il pleut."
    assert fake_ollama.chat_count == 3
    assert len(events) == 2


async def test_the_time_is_asked_again_each_time(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    freezer: FrozenDateTimeFactory,
) -> None:
    """ "Il est quelle heure ?" 65 s later is a new question to the model, in the same chat."""
    entry = await setup_assist()
    events = async_capture_events(hass, EVENT_WELLBEING)
    fake_ollama.queue(
        {"command": "chat", "text": "Il est 8 heures 36."},
        {"command": "chat", "text": "Il est 8 heures 37."},
        {"command": "chat", "text": "Nous sommes lundi 2 mars."},
        {"command": "chat", "text": "Nous sommes toujours lundi 2 mars."},
    )
    first = await ask(hass, entry, "il est quelle heure à Paris ?", device_id="salon")
    freezer.tick(timedelta(seconds=65))
    second = await ask(
        hass,
        entry,
        "il est quelle heure à Paris ?",
        conversation_id=first.conversation_id,
        device_id="salon",
    )
    assert (first.speech, second.speech) == ("Il est 8 heures 36.", "Il est 8 heures 37.")
    assert fake_ollama.chat_count == 2
    # The date too, even seconds apart; asking again is still counted for caregivers.
    day = [(await ask(hass, entry, "Quel jour sommes-nous à Paris ?")).speech for _ in range(2)]
    assert day == ["Nous sommes lundi 2 mars.", "Nous sommes toujours lundi 2 mars."]
    assert fake_ollama.chat_count == 4
    assert [e.data["count"] for e in events if e.data["kind"] == "repeated_question"] == [2, 2]


async def test_replays_stay_in_their_conversation_language_and_window(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Same conversation or device, same language, within two minutes; else the model again."""
    entry = await setup_assist()
    fake_ollama.queue(
        {"command": "chat", "text": "Canberra."},
        {"command": "chat", "text": "C'est Canberra."},
        {"command": "chat", "text": "It is Canberra."},
        {"command": "chat", "text": "Canberra, not Sydney."},
        {"command": "chat", "text": "Canberra, la capitale."},
    )
    question = "C'est quoi la capitale de l'Australie ?"
    first = await ask(hass, entry, question)
    again = await ask(hass, entry, question, conversation_id=first.conversation_id)
    assert (first.speech, again.speech) == ("Canberra.", "Canberra.")
    assert fake_ollama.chat_count == 1
    # Another conversation (no device): its own answer.
    other = await ask(hass, entry, question)
    assert other.conversation_id != first.conversation_id
    assert other.speech == "C'est Canberra."
    # The same conversation in English: not the French answer.
    asked = "What is the capital of Australia?"
    english = await ask(hass, entry, asked, language="fr", conversation_id=other.conversation_id)
    assert english.speech == "It is Canberra."
    assert fake_ollama.chat_count == 3
    # Past the replay window, the model is asked again.
    freezer.tick(timedelta(minutes=2, seconds=1))
    late = await ask(hass, entry, asked, language="fr", conversation_id=other.conversation_id)
    assert late.speech == "Canberra, not Sydney."
    # One voice device: a new conversation at each wake word, the same place.
    kitchen = await ask(hass, entry, question, device_id="kitchen")
    assert kitchen.speech == "Canberra, la capitale."
    assert (await ask(hass, entry, question, device_id="kitchen")).speech == kitchen.speech
    assert fake_ollama.chat_count == 5


async def test_assist_turns_teach_a_fact_and_a_change_of_doctor(
    hass: HomeAssistant,
    setup_assist: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """Said to Assist over two batches: Dupont, then Martin. The next answer's prompt holds
    Martin only; Dupont is kept, superseded, in the history."""
    dupont = "Le médecin de l'utilisateur est le docteur Dupont."
    martin = "Le médecin de l'utilisateur est le docteur Martin."

    def model(body: dict[str, Any]) -> FakeReply:
        properties = body["format"]["properties"]
        prompt = body["messages"][-1]["content"]
        if "facts" in properties:
            facts = [
                {
                    "kind": "person",
                    "content": content,
                    "about": "self",
                    "turns": [1],
                    "quote": quote,
                }
                for content, quote in (
                    (dupont, "c'est le docteur Dupont"),
                    (martin, "c'est le docteur Martin"),
                )
                if quote in prompt
            ]
            return FakeReply(content={"facts": facts})
        if "decisions" in properties:
            shown = int(prompt.split("memory ", 1)[1].split(" ", 1)[0])
            return FakeReply(
                content={"decisions": [{"fact": 1, "action": "SUPERSEDE", "memory": shown}]}
            )
        return FakeReply(content={"command": "chat", "text": "D'accord."})

    fake_ollama.handler = model
    # Learning runs where the engine may call the model in the back (not in heuristic mode).
    entry = await setup_assist(detector_mode="conversate", memory_learning_turns=2)
    memory = entry.runtime_data.engine.memory
    await ask(hass, entry, "Mon médecin, c'est le docteur Dupont.")
    await ask(hass, entry, "Il est très gentil.")
    await memory.settle()
    [learned] = await memory.overview(ASSIST_CLIENT_ID, "factual")
    assert (learned["content"], learned["source"]) == (dupont, "learned")
    await ask(hass, entry, "J'ai changé de médecin, c'est le docteur Martin maintenant.")
    await ask(hass, entry, "Voilà.")
    await memory.settle()
    extractions = [r for r in fake_ollama.requests if "facts" in r["format"]["properties"]]
    assert len(extractions) == 2  # one call per batch of two turns, none per utterance

    recalled = await ask(hass, entry, "Qu'est-ce que tu sais sur mon médecin ?")
    assert "Martin" in recalled.speech
    assert "Dupont" not in recalled.speech
    asked = len(fake_ollama.requests)
    await ask(hass, entry, "Bonjour, aide-moi à préparer le rendez-vous chez mon médecin.")
    [router] = [r for r in fake_ollama.requests[asked:] if "command" in r["format"]["properties"]]
    system = router["messages"][0]["content"]
    assert "docteur Martin" in system
    assert "Dupont" not in system
    history = await hass.services.async_call(
        DOMAIN,
        "memory_history",
        {"memory_id": learned["id"]},
        blocking=True,
        return_response=True,
    )
    assert [(e["action"], e["source"]) for e in history["history"]] == [
        ("added", "learned"),
        ("superseded", "learned"),
    ]
    assert history["memory"]["current"] is False
