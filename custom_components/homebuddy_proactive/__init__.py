"""HomeBuddy Proactive: a proactive, memory-keeping assistant for smart glasses."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final

from homeassistant.const import EVENT_HOMEASSISTANT_STOP, Platform
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.exceptions import ConfigEntryError, ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.typing import ConfigType
from homeassistant.util import dt as dt_util
from homeassistant.util.ssl import get_default_context

from .alarm_services import async_setup_alarm_services
from .assist_agent import HomeBuddyAssistant
from .const import (
    CONF_DETECTOR_MODE,
    CONF_EMBEDDING_MODEL,
    CONF_MODEL,
    CONF_URL,
    DATABASE_FILENAME,
    DOMAIN,
    EVENT_INSIGHT,
    EVENT_SESSION_SUMMARY,
    ISSUE_NO_MODEL,
    ISSUE_OLLAMA_UNREACHABLE,
)
from .engine.config import ConfigError, EngineConfig, without_userinfo
from .engine.llm import ModelUnavailableError, OllamaModel
from .engine.memory import MAINTENANCE_INTERVAL
from .engine.proactive.cards import Insight
from .engine.proactive.engine import ProactiveEngine
from .engine.proactive.prompt import model_context_tokens
from .engine.storage import ProactiveStore, SessionSummaryRecord, StoreError
from .engine.text import warm_up
from .llm_api import async_offer_memory_tools
from .models import HomeBuddyConfigEntry, HomeBuddyRuntimeData
from .services import async_setup_memory_services
from .view import HomeBuddyWebSocketView
from .websocket_api import async_setup_memory_websocket_api

# How often Ollama is checked between conversations (one model list, /api/tags).
OLLAMA_CHECK_INTERVAL: Final = timedelta(minutes=1)

PLATFORMS: list[Platform] = [
    Platform.AI_TASK,
    Platform.BINARY_SENSOR,
    Platform.CONVERSATION,
    Platform.EVENT,
    Platform.SENSOR,
    Platform.TODO,
]
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register what exists once per Home Assistant instance (views cannot be removed)."""
    hass.http.register_view(HomeBuddyWebSocketView())
    async_setup_alarm_services(hass)
    async_setup_memory_services(hass)
    async_setup_memory_websocket_api(hass)
    return True


def engine_config(entry: HomeBuddyConfigEntry) -> EngineConfig:
    """Build the engine's configuration from the entry's data and options.

    An entry set up "without the model" stores an empty model name: the engine then runs on its
    local rules and every model call fails as unavailable until a model is chosen (Reconfigure).
    """
    model = entry.data.get(CONF_MODEL) or ""
    base = EngineConfig(
        ollama_base_url=entry.data[CONF_URL],
        ollama_model=model or EngineConfig().ollama_model,  # replaced below when empty
        detector_mode=entry.options.get(CONF_DETECTOR_MODE, entry.data[CONF_DETECTOR_MODE]),
        embedding_model=entry.options.get(CONF_EMBEDDING_MODEL) or "",
    )
    config = base.with_tuning(entry.options)
    # The engine's check wants a model name; no name is this host's deliberate choice.
    return config if model else replace(config, ollama_model="")


def display_url(url: str) -> str:
    """The Ollama URL as shown in a repair issue: without a user name or password."""
    return without_userinfo(url)


@callback
def async_update_ollama_issue(
    hass: HomeAssistant, entry: HomeBuddyConfigEntry, reachable: bool | None
) -> None:
    """Raise the "Ollama unreachable" repair while it fails; remove it once it answers."""
    if reachable is False:
        ir.async_create_issue(
            hass,
            DOMAIN,
            ISSUE_OLLAMA_UNREACHABLE,
            is_fixable=False,
            severity=ir.IssueSeverity.ERROR,
            translation_key=ISSUE_OLLAMA_UNREACHABLE,
            translation_placeholders={"url": display_url(entry.data[CONF_URL])},
        )
    elif reachable:
        ir.async_delete_issue(hass, DOMAIN, ISSUE_OLLAMA_UNREACHABLE)


@callback
def async_update_no_model_issue(hass: HomeAssistant, entry: HomeBuddyConfigEntry) -> None:
    """Say, as a repair, that no model is chosen yet (set up "without the model")."""
    if entry.data.get(CONF_MODEL):
        ir.async_delete_issue(hass, DOMAIN, ISSUE_NO_MODEL)
        return
    ir.async_create_issue(
        hass,
        DOMAIN,
        ISSUE_NO_MODEL,
        is_fixable=True,  # repairs.py: pick one of the server's chat models
        data={"entry_id": entry.entry_id},
        severity=ir.IssueSeverity.WARNING,
        translation_key=ISSUE_NO_MODEL,
        translation_placeholders={"url": display_url(entry.data[CONF_URL])},
    )


def _forward_engine_events(
    hass: HomeAssistant, entry: HomeBuddyConfigEntry, runtime: HomeBuddyRuntimeData
) -> None:
    """Fire a bus event for every card and every final session summary of the engine."""

    @callback
    def fire_insight_event(insight: Insight) -> None:
        runtime.tally.add(insight, dt_util.now().date().isoformat())
        hass.bus.async_fire(EVENT_INSIGHT, insight_event_data(insight))

    @callback
    def fire_session_summary_event(record: SessionSummaryRecord) -> None:
        hass.bus.async_fire(EVENT_SESSION_SUMMARY, record.as_dict())

    entry.async_on_unload(runtime.engine.add_insight_listener(fire_insight_event))
    entry.async_on_unload(runtime.engine.add_summary_listener(fire_session_summary_event))


async def async_setup_entry(hass: HomeAssistant, entry: HomeBuddyConfigEntry) -> bool:
    """Open the store, probe Ollama, start the engine and re-arm the alarms set by voice.

    Ollama being down does not stop the setup: everything but model answers works without it
    (cards of reminders and tasks, memories, alarms, Assist's fast paths), a repair issue names
    the unreachable URL, and the once-a-minute check below notices when it answers again.
    """
    try:
        config = engine_config(entry)
    except ConfigError as err:
        raise ConfigEntryError(
            translation_domain=DOMAIN,
            translation_key="invalid_config",
            translation_placeholders={"error": str(err)},
        ) from err
    model = OllamaModel(
        config.ollama_base_url,
        config.ollama_model,
        timeout=config.ollama_timeout_seconds,
        verify=get_default_context(),
        context_tokens=model_context_tokens(config),
        keep_alive=config.ollama_keep_alive,
    )
    with contextlib.suppress(ModelUnavailableError):
        await model.list_models()  # records reachable or unreachable; either way setup goes on
    try:
        store = await ProactiveStore.open(hass.config.path(DATABASE_FILENAME))
    except StoreError as err:
        await model.close()
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="store_unavailable",
            translation_placeholders={"error": str(err)},
        ) from err

    await hass.async_add_executor_job(warm_up)  # the language model loads off the loop
    engine = ProactiveEngine(config, store, model, clock=dt_util.utcnow)
    assistant = HomeBuddyAssistant(hass, engine, entry.options)
    # A reminder said to the glasses with a time rings like one said to Assist.
    engine.schedule_reminder = assistant.async_schedule_from_glasses
    runtime = HomeBuddyRuntimeData(engine=engine, store=store, model=model, assist=assistant)
    entry.runtime_data = runtime

    _forward_engine_events(hass, entry, runtime)

    @callback
    def follow_ollama_status() -> None:
        # The engine reports every change of the model's status (a call or the minute check).
        async_update_ollama_issue(hass, entry, runtime.model_reachable)

    entry.async_on_unload(engine.add_state_listener(follow_ollama_status))
    follow_ollama_status()
    async_update_no_model_issue(hass, entry)

    @callback
    def maintain_memories(now: datetime, *, only_if_due: bool = False) -> None:
        runtime.own(
            entry.async_create_background_task(
                hass,
                engine.memory.scheduled_maintenance(now, only_if_due=only_if_due),
                "homebuddy_proactive memory maintenance",
            )
        )

    # Daily, and once now when the last run (kept in the database) is a day old.
    entry.async_on_unload(async_track_time_interval(hass, maintain_memories, MAINTENANCE_INTERVAL))
    maintain_memories(dt_util.utcnow(), only_if_due=True)

    probing: set[asyncio.Task[None]] = set()

    async def probe_ollama() -> None:
        with contextlib.suppress(ModelUnavailableError):
            await model.list_models()  # records reachable/unreachable for the health entities

    @callback
    def check_ollama(_now: datetime) -> None:
        # Between conversations nothing else would notice Ollama going away or coming back.
        if probing:
            return  # the previous check has not finished (a slow server)
        task = runtime.own(
            entry.async_create_background_task(
                hass, probe_ollama(), "homebuddy_proactive Ollama health check"
            )
        )
        probing.add(task)
        task.add_done_callback(probing.discard)

    entry.async_on_unload(async_track_time_interval(hass, check_ollama, OLLAMA_CHECK_INTERVAL))

    async def close_on_stop(_event: Event) -> None:
        # HA does not unload entries when it stops; an open aiosqlite thread would keep the
        # process from exiting. The alarm timers are silenced first.
        await runtime.async_close()

    entry.async_on_unload(hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, close_on_stop))
    try:
        await assistant.async_start()
    except Exception:
        await runtime.async_close()
        raise
    async_offer_memory_tools(hass, entry)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


def insight_event_data(insight: Insight) -> dict[str, Any]:
    """Data of the ``homebuddy_proactive_insight`` bus event."""
    return {
        "insight_id": insight.insight_id,
        "text": insight.text,
        "intent": insight.intent,
        "confidence": insight.confidence,
        "source": insight.source,
        "client_id": insight.client_id,
        "session_id": insight.session_id,
        "language": insight.language,
        "event_id": insight.event_id,
        "created_at": insight.created_at.isoformat(),
    }


async def async_unload_entry(hass: HomeAssistant, entry: HomeBuddyConfigEntry) -> bool:
    """Stop the alarm timers; close the glasses' connections, the store and the Ollama client."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        await entry.runtime_data.async_close()
        # Raised again at the next setup if they still hold.
        ir.async_delete_issue(hass, DOMAIN, ISSUE_OLLAMA_UNREACHABLE)
        ir.async_delete_issue(hass, DOMAIN, ISSUE_NO_MODEL)
    return unloaded
