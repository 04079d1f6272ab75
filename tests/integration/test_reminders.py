"""Timed reminders said to Assist come back at their time: said on a speaker, shown on the
glasses, fired as an event; repeated ones come back at the same wall-clock time every day.

Everything runs without a model call (the fake Ollama counts none). The satellite is the
recording test satellite of ``test_ringing``; the glasses are a real WebSocket to the
integration's view; time moves with the harness's clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockUser,
    async_capture_events,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import EVENT_REMINDER_DUE, WS_VIEW_URL
from custom_components.homebuddy_proactive.engine.config import default_tuning
from tests.fake_ollama import FakeOllama

from .conftest import long_lived_token
from .options_form import filled
from .test_conversation import ask, list_alarms
from .test_ringing import HALL, KITCHEN, RecordingSatellite, at, clock, device_of, satellites

__all__ = ["clock", "satellites"]  # fixtures shared with test_ringing

Glasses = Callable[[str], Awaitable[aiohttp.ClientWebSocketResponse]]
MEDICINE_FR = "rappelle-moi de prendre mes médicaments à 20 heures"
TODO = "todo.homebuddy_proactive_reminders_and_tasks"
NEXT_ALARM = "sensor.homebuddy_proactive_next_alarm"


@pytest.fixture
async def glasses(
    hass: HomeAssistant, hass_client_no_auth: ClientSessionGenerator, hass_admin_user: MockUser
) -> AsyncIterator[Glasses]:
    """Open a glasses socket for a client id (after the integration is set up), with a
    long-lived token: the clock moves hours ahead in these tests."""
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    token = await long_lived_token(hass, hass_admin_user)

    async def _open(client_id: str) -> aiohttp.ClientWebSocketResponse:
        client = await hass_client_no_auth()
        ws = await client.ws_connect(
            f"{WS_VIEW_URL}?client_id={client_id}&session_id=s-{len(sockets)}",
            headers={"Authorization": f"Bearer {token}"},
        )
        sockets.append(ws)
        ready = await ws.receive_json(timeout=5)
        assert ready["type"] == "ready"
        return ws

    yield _open
    for ws in sockets:
        await ws.close()


async def next_insight(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The next insight frame on a socket."""
    while True:
        frame = await ws.receive_json(timeout=5)
        if frame["type"] == "insight":
            return dict(frame)


async def setup_kitchen_for_marie(
    hass: HomeAssistant,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    kitchen: RecordingSatellite,
) -> tuple[MockConfigEntry, str]:
    """The kitchen satellite speaks for Marie, whose glasses are "glasses-marie"."""
    device = device_of(hass, kitchen)
    entry = await setup_with_options(memory_links=f"{device} = glasses-marie")
    return entry, device


async def list_reminders(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The timed reminders still to come, through the action."""
    response = await hass.services.async_call(
        "homebuddy_proactive", "list_reminders", {}, blocking=True, return_response=True
    )
    assert response is not None
    reminders = response["reminders"]
    assert isinstance(reminders, list)
    return reminders


async def todo_items(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The items of the reminders list, as Home Assistant's to-do dashboard reads them."""
    response = await hass.services.async_call(
        "todo", "get_items", {"entity_id": TODO}, blocking=True, return_response=True
    )
    assert response is not None
    items = response[TODO]["items"]  # type: ignore[index]
    assert isinstance(items, list)
    return items


async def the_reminder(hass: HomeAssistant) -> tuple[dict[str, Any], datetime]:
    (reminder,) = await list_reminders(hass)
    due = dt_util.parse_datetime(reminder["fire_at"])
    assert due is not None
    return reminder, due


async def test_a_french_reminder_comes_back_at_20_00_everywhere(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """Said in the kitchen at 3:00: Assist says when and what; at 20:00 the kitchen says it,
    Marie's glasses show it (intent reminder, source scheduled) and the event fires."""
    kitchen = satellites[KITCHEN]
    entry, device = await setup_kitchen_for_marie(hass, setup_with_options, kitchen)
    due_events = async_capture_events(hass, EVENT_REMINDER_DUE)
    reply = await ask(hass, entry, MEDICINE_FR, device_id=device)
    assert reply.speech == (
        "Je vous le rappellerai ce soir à 20 heures : prendre vos médicaments. "
        "Je le dirai sur Cuisine."
    )
    reminder, due = await the_reminder(hass)
    assert reminder["kind"] == "reminder"
    assert reminder["label"] == "prendre mes médicaments"
    assert dt_util.as_local(due).hour == 20

    await at(hass, clock, due - timedelta(seconds=5))
    assert kitchen.said == []
    socket = await glasses("glasses-marie")
    await at(hass, clock, due + timedelta(seconds=1))
    assert kitchen.said == ["Rappel : prendre vos médicaments."]
    card = await next_insight(socket)
    assert (card["intent"], card["source"]) == ("reminder", "scheduled")
    assert card["text"] == "Rappel : prendre vos médicaments."
    (event,) = due_events
    assert event.data["client_id"] == "glasses-marie"
    assert event.data["text"] == "prendre vos médicaments"
    assert event.data["language"] == "fr"
    assert event.data["due"] == due.isoformat()
    assert await list_reminders(hass) == []
    assert fake_ollama.chat_count == 0


async def test_glasses_that_connect_later_get_it_once_and_late(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """No glasses open at 20:00: the first socket of Marie's glasses that opens gets the card
    once, saying it is late and when it was due; the next one does not get it again."""
    entry, device = await setup_kitchen_for_marie(hass, setup_with_options, satellites[KITCHEN])
    await ask(hass, entry, MEDICINE_FR, device_id=device)
    _, due = await the_reminder(hass)
    await at(hass, clock, due + timedelta(seconds=1))
    await at(hass, clock, due + timedelta(minutes=25))

    other = await glasses("glasses-paul")
    first = await glasses("glasses-marie")
    card = await next_insight(first)
    assert card["text"] == "Rappel en retard, prévu à 20 heures : prendre vos médicaments."
    assert card["source"] == "scheduled"
    second = await glasses("glasses-marie")
    await second.send_json({"type": "ping"})
    assert (await second.receive_json(timeout=5))["type"] == "pong"
    await other.send_json({"type": "ping"})
    assert (await other.receive_json(timeout=5))["type"] == "pong"


@pytest.mark.parametrize(
    ("said", "language", "answer", "hour", "repeat"),
    [
        (
            "remind me to take my pills at 8 pm",
            "en",
            "I'll remind you this evening at 8 PM: take your pills.",
            20,
            "",
        ),
        (
            "θύμισέ μου να πάρω τα φάρμακά μου αύριο στις 9",
            "el",
            "Θα σας το θυμίσω αύριο στις 9:00: πάρω τα φάρμακά σας.",
            9,
            "",
        ),
        (
            "rappelle-moi d'arroser les plantes tous les jours à 8 h",
            "fr",
            "Je vous le rappellerai tous les jours à 8 heures : arroser les plantes.",
            8,
            "daily",
        ),
        (
            "rappelle-moi de sortir les poubelles chaque lundi",
            "fr",
            "Je vous le rappellerai chaque lundi à 9 heures : sortir les poubelles.",
            9,
            "weekly",
        ),
    ],
)
async def test_reminders_in_assist_languages(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
    said: str,
    language: str,
    answer: str,
    hour: int,
    repeat: str,
) -> None:
    """Hours, days, parts of the day and repetitions, in French, English and Greek: stored
    with their time and repetition, confirmed with when and what (no speaker here: Assist
    says so too)."""
    entry = await setup_with_options()
    reply = await ask(hass, entry, said, language=language)
    assert reply.speech.startswith(answer), reply.speech
    reminder, due = await the_reminder(hass)
    assert dt_util.as_local(due).hour == hour
    assert reminder["repeat"] == repeat
    assert fake_ollama.chat_count == 0


async def test_a_daily_reminder_keeps_its_hour_across_the_change_to_summer_time(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """Paris, the night summer time starts (28 March 2027): "tous les jours à 8 h" rings at
    8:00 on the 27th (07:00 UTC) and again at 8:00 on the 28th (06:00 UTC)."""
    await hass.config.async_set_time_zone("Europe/Paris")
    clock.move_to(datetime(2027, 3, 27, 5, 0, tzinfo=dt_util.UTC))
    kitchen = satellites[KITCHEN]
    entry = await setup_with_options()
    await ask(
        hass,
        entry,
        "rappelle-moi de prendre mes médicaments tous les jours à 8 h",
        device_id=device_of(hass, kitchen),
    )
    _, first = await the_reminder(hass)
    assert first == datetime(2027, 3, 27, 7, 0, tzinfo=dt_util.UTC)
    await at(hass, clock, first + timedelta(seconds=1))
    assert kitchen.said == ["Rappel : prendre vos médicaments."]
    reminder, second = await the_reminder(hass)
    assert reminder["repeat"] == "daily"
    assert second == datetime(2027, 3, 28, 6, 0, tzinfo=dt_util.UTC)
    assert dt_util.as_local(second).hour == 8
    await ask(hass, entry, "arrête", device_id=device_of(hass, kitchen))
    await at(hass, clock, second + timedelta(seconds=1))
    assert kitchen.said[-1] == "Rappel : prendre vos médicaments."
    assert len(kitchen.said) == 2


async def test_a_reminder_without_a_time_stays_a_memory(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """ "rappelle-moi d'acheter du pain" is remembered, never answered by the recall path."""
    entry = await setup_with_options()
    reply = await ask(hass, entry, "rappelle-moi d'acheter du pain")
    assert reply.speech == "C'est noté, je m'en souviendrai : acheter du pain."
    assert await list_reminders(hass) == []
    response = await hass.services.async_call(
        "homebuddy_proactive",
        "list_memories",
        {"client_id": "assist", "kind": "reminder"},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    memories = response["memories"]
    assert isinstance(memories, dict | list)
    assert "acheter du pain" in repr(memories)


async def test_what_is_pending_is_a_to_do_list_that_edits_it(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """The timed reminder (with its due time) and a remembered one are items; completing the
    first cancels it, renaming the second corrects the memory, deleting it forgets it; an item
    added with a due time becomes a timed reminder. Alarms stay off the list."""
    entry = await setup_with_options()
    await ask(hass, entry, MEDICINE_FR)
    await ask(hass, entry, "rappelle-moi d'acheter du pain")
    await ask(hass, entry, "réveille-moi à 7 heures")
    _, due = await the_reminder(hass)
    items = {item["summary"]: item for item in await todo_items(hass)}
    assert set(items) == {"prendre mes médicaments", "acheter du pain"}
    assert dt_util.parse_datetime(items["prendre mes médicaments"]["due"]) == due
    assert "due" not in items["acheter du pain"]
    assert hass.states.get(TODO).state == "2"  # type: ignore[union-attr]

    await hass.services.async_call(
        "todo",
        "update_item",
        {"entity_id": TODO, "item": "prendre mes médicaments", "status": "completed"},
        blocking=True,
    )
    assert await list_reminders(hass) == []
    await hass.services.async_call(
        "todo",
        "update_item",
        {"entity_id": TODO, "item": "acheter du pain", "rename": "acheter du pain complet"},
        blocking=True,
    )
    assert [item["summary"] for item in await todo_items(hass)] == ["acheter du pain complet"]
    await hass.services.async_call(
        "todo", "remove_item", {"entity_id": TODO, "item": "acheter du pain complet"}, blocking=True
    )
    assert await todo_items(hass) == []

    tomorrow_nine = (dt_util.now() + timedelta(days=1)).replace(hour=9, minute=0, second=0)
    await hass.services.async_call(
        "todo",
        "add_item",
        {"entity_id": TODO, "item": "appeler le docteur", "due_datetime": tomorrow_nine},
        blocking=True,
    )
    reminder, due = await the_reminder(hass)
    assert reminder["label"] == "appeler le docteur"
    assert due == tomorrow_nine.astimezone(dt_util.UTC).replace(microsecond=0)


async def test_the_next_alarm_sensor_follows_the_alarms(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """Unknown without alarms; the soonest alarm's time when set (reminders aside); unknown
    again once it is cancelled."""
    entry = await setup_with_options()
    assert hass.states.get(NEXT_ALARM).state == "unknown"  # type: ignore[union-attr]
    await ask(hass, entry, MEDICINE_FR)
    await ask(hass, entry, "réveille-moi à 9 heures")
    await ask(hass, entry, "réveille-moi à 7 heures")
    (seven, _nine) = await list_alarms(hass)
    state = hass.states.get(NEXT_ALARM)
    assert state is not None
    assert dt_util.parse_datetime(state.state) == dt_util.parse_datetime(seven["fire_at"])
    assert state.attributes["time"] == "07:00"
    await ask(hass, entry, "annule toutes les alarmes")
    assert hass.states.get(NEXT_ALARM).state == "unknown"  # type: ignore[union-attr]


async def test_a_reminder_told_to_the_glasses_comes_back_with_ollama_down(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """Ollama stopped. Said to the glasses: the card says when; at 20:00 the glasses show it
    and the options' speaker (the hall satellite) says it."""
    entry = await setup_with_options(alarm_speaker=HALL)
    await fake_ollama.stop()
    socket = await glasses("glasses-marie")
    await socket.send_json(
        {"type": "transcript", "event_id": "e1", "text": MEDICINE_FR, "language": "fr"}
    )
    card = await next_insight(socket)
    assert card["text"] == "Je vous le rappellerai ce soir à 20 heures : prendre vos médicaments."
    assert card["intent"] == "reminder"
    reminder, due = await the_reminder(hass)
    assert reminder["client_id"] == "glasses-marie"

    await at(hass, clock, due - timedelta(seconds=5))
    await socket.send_json({"type": "ping"})  # still open after the hours went by
    await at(hass, clock, due + timedelta(seconds=1))
    card = await next_insight(socket)
    assert (card["text"], card["source"]) == ("Rappel : prendre vos médicaments.", "scheduled")
    assert satellites[HALL].said == ["Rappel : prendre vos médicaments."]
    assert entry.state.value == "loaded"


async def test_glasses_users_get_their_alarm_as_a_card(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """Marie's alarm, set in the kitchen, rings there and shows on her open glasses."""
    entry, device = await setup_kitchen_for_marie(hass, setup_with_options, satellites[KITCHEN])
    await ask(hass, entry, "réveille-moi à 7 heures 30", device_id=device)
    (alarm,) = await list_alarms(hass)
    fire_at = dt_util.parse_datetime(alarm["fire_at"])
    assert fire_at is not None
    await at(hass, clock, fire_at - timedelta(seconds=5))
    socket = await glasses("glasses-marie")
    await at(hass, clock, fire_at + timedelta(seconds=1))
    card = await next_insight(socket)
    assert card["text"] == "Il est 7 heures 30. C'est l'heure de votre alarme."
    assert card["source"] == "scheduled"


async def test_each_person_rings_on_their_own_speaker(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """Marie's speaker is the hall, the home's the kitchen: her glasses reminder is said in the
    hall; a reminder set in the app for the household is said in the kitchen."""
    entry = await setup_with_options(alarm_speaker=KITCHEN, speakers=f"glasses-marie = {HALL}\n")
    socket = await glasses("glasses-marie")
    await socket.send_json(
        {"type": "transcript", "event_id": "e1", "text": MEDICINE_FR, "language": "fr"}
    )
    await next_insight(socket)
    reply = await ask(hass, entry, "rappelle-moi d'arroser les plantes à 20 heures")
    assert reply.speech.endswith("Je le dirai sur Cuisine.")
    first, _second = await list_reminders(hass)
    due = dt_util.parse_datetime(first["fire_at"])
    assert due is not None
    await at(hass, clock, due - timedelta(seconds=5))
    await socket.send_json({"type": "ping"})
    await at(hass, clock, due + timedelta(seconds=1))
    assert satellites[HALL].said == ["Rappel : prendre vos médicaments."]
    assert satellites[KITCHEN].said == ["Rappel : arroser les plantes."]


async def test_a_speaker_line_that_does_not_read_is_refused(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """ "marie = light.salon" is not a speaker: the options ask for it again, naming its line."""
    entry = await setup_with_options()
    result = await hass.config_entries.options.async_init(entry.entry_id)
    typed = {**default_tuning(), "detector_mode": "heuristic", "speakers": "marie = light.salon"}
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(typed))
    assert result["step_id"] == "fix"
    assert result["errors"] == {"speakers": "invalid_speakers"}
    assert result["description_placeholders"]["line"] == "1"


async def test_a_reminder_set_before_a_restart_comes_back_after_it(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    fake_ollama: FakeOllama,
) -> None:
    """The entry reloads (as at a restart) before 20:00; at 20:00 the kitchen still says it.
    Reloaded again after it was due and missed by less than 12 hours, it comes back late."""
    kitchen = satellites[KITCHEN]
    entry, device = await setup_kitchen_for_marie(hass, setup_with_options, kitchen)
    await ask(hass, entry, MEDICINE_FR, device_id=device)
    _, due = await the_reminder(hass)
    assert await hass.config_entries.async_reload(entry.entry_id)
    await at(hass, clock, due + timedelta(seconds=1))
    assert kitchen.said == ["Rappel : prendre vos médicaments."]

    await ask(hass, entry, "arrête", device_id=device)
    await ask(hass, entry, "rappelle-moi de fermer les volets dans 10 minutes", device_id=device)
    _, due = await the_reminder(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    clock.move_to(due + timedelta(hours=2))  # Home Assistant was down when it was due
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert kitchen.said[-1] == "Rappel : fermer les volets."
    assert await list_reminders(hass) == []


async def test_the_list_shows_a_new_reminder_at_once_and_says_how_it_repeats(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    fake_ollama: FakeOllama,
) -> None:
    """A reminder remembered without a time is on the list right after Assist answers; a
    daily one says so in the home's language, not as a code."""
    entry = await setup_with_options()
    await ask(hass, entry, "rappelle-moi d'acheter du lait")
    assert [item["summary"] for item in await todo_items(hass)] == ["acheter du lait"]
    hass.config.language = "fr"
    await ask(hass, entry, "rappelle-moi d'arroser les plantes tous les jours à 8 h")
    items = {item["summary"]: item for item in await todo_items(hass)}
    assert items["arroser les plantes"]["description"] == "tous les jours à 8 heures"


async def test_a_waiting_card_survives_a_restart(
    hass: HomeAssistant,
    clock: FrozenDateTimeFactory,
    *,
    setup_with_options: Callable[..., Awaitable[MockConfigEntry]],
    satellites: dict[str, RecordingSatellite],
    glasses: Glasses,
    fake_ollama: FakeOllama,
) -> None:
    """Due at 20:00 with Marie's glasses away; Home Assistant restarts at 20:10; her glasses
    open at 20:30 and still get it, once, late."""
    entry, device = await setup_kitchen_for_marie(hass, setup_with_options, satellites[KITCHEN])
    await ask(hass, entry, MEDICINE_FR, device_id=device)
    _, due = await the_reminder(hass)
    await at(hass, clock, due + timedelta(seconds=1))
    await at(hass, clock, due + timedelta(minutes=10))
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    await at(hass, clock, due + timedelta(minutes=30))
    socket = await glasses("glasses-marie")
    card = await next_insight(socket)
    assert card["text"] == "Rappel en retard, prévu à 20 heures : prendre vos médicaments."
    again = await glasses("glasses-marie")
    await again.send_json({"type": "ping"})
    assert (await again.receive_json(timeout=5))["type"] == "pong"
