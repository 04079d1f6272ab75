"""Alarms are heard: said on the satellite they were set from (or the options' speaker), again
until the person says stop or snoozes; reported when nothing can say them.

The satellite is a test device on Home Assistant's own ``assist_satellite`` platform, so the
alarm goes through the real ``assist_satellite.announce`` action; the device records what it
was asked to announce (the text it would speak), or fails when told to. Time moves with the
harness's clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.assist_pipeline import PipelineEvent
from homeassistant.components.assist_satellite import (
    AssistSatelliteConfiguration,
    AssistSatelliteEntity,
    AssistSatelliteEntityFeature,
)
from homeassistant.components.media_player import DATA_COMPONENT as MEDIA_PLAYERS
from homeassistant.components.media_player import (
    MediaPlayerEntity,
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.components.tts import DATA_COMPONENT as VOICES
from homeassistant.components.tts import TextToSpeechEntity, TtsAudioType
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
    setup_test_component_platform,
)

from custom_components.homebuddy_proactive.const import EVENT_ALARM, EVENT_ALARM_FAILED
from tests.fake_ollama import FakeOllama

from .test_conversation import ask, list_alarms

KITCHEN = "assist_satellite.cuisine"
HALL = "assist_satellite.entree"


class RecordingSatellite(AssistSatelliteEntity):
    """A voice satellite that can announce; it keeps what it was asked to say."""

    _attr_supported_features = AssistSatelliteEntityFeature.ANNOUNCE

    def __init__(self, key: str, name: str) -> None:
        """A satellite named ``name`` on a device of its own."""
        self._attr_unique_id = key
        self._attr_name = name
        self.said: list[str] = []
        self.broken = False

    def async_get_configuration(self) -> AssistSatelliteConfiguration:
        """No wake words to configure."""
        return AssistSatelliteConfiguration(
            available_wake_words=[], active_wake_words=[], max_active_wake_words=1
        )

    async def async_set_configuration(self, config: AssistSatelliteConfiguration) -> None:
        """Nothing to set."""

    def on_pipeline_event(self, event: PipelineEvent) -> None:
        """No pipeline runs here."""

    async def async_internal_announce(
        self,
        message: str | None = None,
        media_id: str | None = None,
        preannounce: bool = True,
        preannounce_media_id: str | None = None,
    ) -> None:
        """Speak ``message`` (recorded), or fail as a device that lost its speaker would."""
        if self.broken:
            raise HomeAssistantError("the satellite's speaker does not answer")
        self.said.append(message or "")


@pytest.fixture
async def satellites(hass: HomeAssistant) -> AsyncIterator[dict[str, RecordingSatellite]]:
    """Two satellites that can announce, "Cuisine" and "Entrée", each on a device of its own."""
    devices = {
        KITCHEN: RecordingSatellite("cuisine", "Cuisine"),
        HALL: RecordingSatellite("entree", "Entrée"),
    }
    setup_test_component_platform(hass, "assist_satellite", list(devices.values()))
    assert await async_setup_component(
        hass, "assist_satellite", {"assist_satellite": {"platform": "test"}}
    )
    await hass.async_block_till_done()
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    for entity_id, satellite in devices.items():
        device = dr.async_get(hass).async_get_or_create(
            config_entry_id=owner.entry_id,
            identifiers={("test", satellite.unique_id or "")},
            name=satellite.name,
        )
        er.async_get(hass).async_update_entity(entity_id, device_id=device.id)
    yield devices


def device_of(hass: HomeAssistant, satellite: RecordingSatellite) -> str:
    """The device id of a satellite, as an Assist pipeline passes it."""
    entry = er.async_get(hass).async_get(satellite.entity_id)
    assert entry is not None
    assert entry.device_id is not None
    return entry.device_id


async def set_alarm_at_0730(
    hass: HomeAssistant, entry: MockConfigEntry, device_id: str | None
) -> tuple[str, Any]:
    """Say "réveille-moi à 7 h 30" (from ``device_id``); return the answer and the ring time."""
    reply = await ask(hass, entry, "réveille-moi à 7 heures 30", device_id=device_id)
    (alarm,) = await list_alarms(hass)
    fire_at = dt_util.parse_datetime(alarm["fire_at"])
    assert fire_at is not None
    return reply.speech, fire_at


@pytest.fixture
def clock(freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """The home's clock, frozen at 03:00 today: 7:30 is later today."""
    freezer.move_to(dt_util.start_of_local_day() + timedelta(hours=3))
    return freezer


async def at(hass: HomeAssistant, clock: FrozenDateTimeFactory, moment: Any) -> None:
    """Move Home Assistant's clock to ``moment`` and let everything due run."""
    clock.move_to(moment)
    async_fire_time_changed(hass, moment)
    await hass.async_block_till_done()


async def test_an_alarm_rings_on_its_satellite_until_stopped(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """Set from the kitchen: Assist says it rings there; at 7:30 the kitchen says it, again a
    minute later, and "arrête" ends it. The hall hears nothing; the model is never asked."""
    entry = await setup_with_options()
    kitchen, hall = satellites[KITCHEN], satellites[HALL]
    rings = async_capture_events(hass, EVENT_ALARM)
    speech, fire_at = await set_alarm_at_0730(hass, entry, device_of(hass, kitchen))
    assert speech == "C'est noté, l'alarme sonnera à 7 heures 30 sur Cuisine."

    await at(hass, clock, fire_at - timedelta(seconds=30))
    assert kitchen.said == []
    await at(hass, clock, fire_at + timedelta(seconds=1))
    assert len(rings) == 1
    assert kitchen.said == ["Il est 7 heures 30. C'est l'heure de votre alarme."]
    await at(hass, clock, fire_at + timedelta(seconds=62))
    assert len(kitchen.said) == 2

    reply = await ask(hass, entry, "Arrête !", device_id=device_of(hass, kitchen))
    assert reply.speech == "D'accord, j'arrête."
    await at(hass, clock, fire_at + timedelta(minutes=10))
    assert len(kitchen.said) == 2
    assert hall.said == []
    assert fake_ollama.chat_count == 0


async def test_an_unanswered_alarm_stops_after_its_rings(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """Nobody answers: it is said every 30 s (the options), three times, then it rests."""
    entry = await setup_with_options(ring_repeat_seconds=30, rings=3)
    kitchen = satellites[KITCHEN]
    _, fire_at = await set_alarm_at_0730(hass, entry, device_of(hass, kitchen))
    for seconds in (1, 32, 63, 94, 125, 600):
        await at(hass, clock, fire_at + timedelta(seconds=seconds))
    assert len(kitchen.said) == 3


async def test_snooze_rings_again_ten_minutes_later(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """ "encore dix minutes" stops the ring and sets it again ten minutes on, same satellite."""
    entry = await setup_with_options()
    kitchen = satellites[KITCHEN]
    device = device_of(hass, kitchen)
    _, fire_at = await set_alarm_at_0730(hass, entry, device)
    await at(hass, clock, fire_at + timedelta(seconds=1))
    assert len(kitchen.said) == 1

    moment = fire_at + timedelta(seconds=20)
    await at(hass, clock, moment)
    reply = await ask(hass, entry, "encore dix minutes", device_id=device)
    assert reply.speech == "D'accord, je sonne à nouveau dans 10 minutes."
    (again,) = await list_alarms(hass)
    assert again["device_id"] == device
    again_at = dt_util.parse_datetime(again["fire_at"])
    assert again_at is not None
    assert timedelta(minutes=9) < again_at - fire_at <= timedelta(minutes=11)
    await at(hass, clock, again_at - timedelta(seconds=5))
    assert len(kitchen.said) == 1  # the repeat was stopped with the snooze
    await at(hass, clock, again_at + timedelta(seconds=1))
    assert len(kitchen.said) == 2


async def test_the_options_speaker_rings_what_was_set_without_a_satellite(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """Set from the app (no device): it rings on the speaker chosen in the options."""
    entry = await setup_with_options(alarm_speaker=HALL)
    speech, fire_at = await set_alarm_at_0730(hass, entry, None)
    assert speech == "C'est noté, l'alarme sonnera à 7 heures 30 sur Entrée."
    await at(hass, clock, fire_at + timedelta(seconds=1))
    assert satellites[HALL].said == ["Il est 7 heures 30. C'est l'heure de votre alarme."]
    assert satellites[KITCHEN].said == []


async def test_an_alarm_nothing_can_say_is_reported(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """No satellite, no speaker: Assist says so when it is set; at its time the event
    ``homebuddy_proactive_alarm_failed`` and a notification say it was not heard."""
    entry = await setup_with_options()
    failed = async_capture_events(hass, EVENT_ALARM_FAILED)
    speech, fire_at = await set_alarm_at_0730(hass, entry, None)
    assert "aucun haut-parleur" in speech
    await at(hass, clock, fire_at + timedelta(seconds=1))
    (event,) = failed
    assert event.data["kind"] == "alarm"
    assert event.data["reason"] == "no_speaker"
    assert event.data["message"] == "Il est 7 heures 30. C'est l'heure de votre alarme."
    notifications = persistent_notification._async_get_or_create_notifications(hass)
    (notice,) = [n for n in notifications.values() if "HomeBuddy" in n["title"]]
    assert "Il est 7 heures 30" in notice["message"]
    assert "Aucun haut-parleur" in notice["message"]


async def test_a_satellite_that_cannot_play_it_is_reported(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """The kitchen satellite fails to announce: the failure is reported, not silent."""
    entry = await setup_with_options()
    kitchen = satellites[KITCHEN]
    failed = async_capture_events(hass, EVENT_ALARM_FAILED)
    _, fire_at = await set_alarm_at_0730(hass, entry, device_of(hass, kitchen))
    kitchen.broken = True
    await at(hass, clock, fire_at + timedelta(seconds=1))
    (event,) = failed
    assert event.data["reason"] == "speaker_failed"
    assert event.data["target"] == KITCHEN


async def test_an_alarm_set_before_a_restart_rings_after_it(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """The entry is reloaded (as at a Home Assistant restart) before 7:30: it still rings on
    the kitchen satellite."""
    entry = await setup_with_options()
    kitchen = satellites[KITCHEN]
    _, fire_at = await set_alarm_at_0730(hass, entry, device_of(hass, kitchen))
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    await at(hass, clock, fire_at + timedelta(seconds=1))
    assert kitchen.said == ["Il est 7 heures 30. C'est l'heure de votre alarme."]


class RecordingSpeaker(MediaPlayerEntity):
    """A speaker in the living room; it keeps what it was asked to play."""

    _attr_name = "Salon"
    _attr_unique_id = "salon"
    _attr_supported_features = MediaPlayerEntityFeature.PLAY_MEDIA
    _attr_state = MediaPlayerState.IDLE

    def __init__(self) -> None:
        """Nothing played yet."""
        self.played: list[dict[str, Any]] = []

    async def async_play_media(self, media_type: str, media_id: str, **kwargs: Any) -> None:
        """Record the media and whether it was an announcement."""
        self.played.append({"media_id": media_id, **kwargs})


class TestVoice(TextToSpeechEntity):
    """A text-to-speech engine that speaks French and English."""

    _attr_name = "Voix"
    _attr_unique_id = "voix"
    _attr_default_language = "fr"
    _attr_supported_languages: ClassVar[list[str]] = ["fr", "en", "el"]

    async def async_get_tts_audio(
        self, message: str, language: str, options: dict[str, Any]
    ) -> TtsAudioType:
        """Some bytes standing for the spoken message."""
        return "mp3", message.encode()


async def test_a_media_player_chosen_in_the_options_says_it_through_tts(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """No satellite: the alarm is announced on the living-room speaker of the options, spoken
    by the text-to-speech entity (tts.speak, as an announcement), in the alarm's language."""
    assert await async_setup_component(hass, "media_player", {})
    assert await async_setup_component(hass, "tts", {})
    speaker = RecordingSpeaker()
    await hass.data[MEDIA_PLAYERS].async_add_entities([speaker])
    await hass.data[VOICES].async_add_entities([TestVoice()])
    entry = await setup_with_options(alarm_speaker="media_player.salon")
    speech, fire_at = await set_alarm_at_0730(hass, entry, None)
    assert speech == "C'est noté, l'alarme sonnera à 7 heures 30 sur Salon."
    await at(hass, clock, fire_at + timedelta(seconds=1))
    (played,) = speaker.played
    assert played["announce"] is True
    assert played["media_id"].startswith("media-source://tts/tts.voix?")
    query = parse_qs(urlsplit(played["media_id"]).query)
    assert query["message"] == ["Il est 7 heures 30. C'est l'heure de votre alarme."]
    assert query["language"] == ["fr"]
