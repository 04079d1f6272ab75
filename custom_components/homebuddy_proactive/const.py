"""Constants of the Home Assistant glue."""

from __future__ import annotations

import logging
from typing import Final

from .engine.const import HOUSEHOLD_CLIENT_ID

DOMAIN: Final = "homebuddy_proactive"
LOGGER = logging.getLogger(__package__)

CONF_URL: Final = "url"
CONF_MODEL: Final = "model"
CONF_DETECTOR_MODE: Final = "detector_mode"
# The Ollama model whose vectors memory search adds to BM25 (options; none by default).
CONF_EMBEDDING_MODEL: Final = "embedding_model"

DEFAULT_URL: Final = "http://127.0.0.1:11434"
DATABASE_FILENAME: Final = "homebuddy_proactive.db"

# Repair issues (issue registry ids, also their translation keys).
ISSUE_OLLAMA_UNREACHABLE: Final = "ollama_unreachable"
ISSUE_NO_MODEL: Final = "no_model"
ISSUE_MEMORY_API_MOVED: Final = "memory_api_moved"

EVENT_INSIGHT: Final = "homebuddy_proactive_insight"
# Fired with a session's episode summary (moments, missed cards) once it is final.
EVENT_SESSION_SUMMARY: Final = "homebuddy_proactive_session_summary"
WS_VIEW_URL: Final = "/api/homebuddy_proactive/ws"

# Assist conversation agent (options, events, the client id of its memories).
CONF_ALLOWED_DOMAINS: Final = "allowed_domains"
CONF_ACTIONS_PER_MINUTE: Final = "actions_per_minute"
CONF_WEATHER_ENTITY: Final = "weather_entity"
CONF_NEWS_URL: Final = "news_url"
# Lines "speaker = client id": whose memories a person, user or voice device reaches.
CONF_MEMORY_LINKS: Final = "memory_links"
ASSIST_DOMAINS: Final = (
    "light",
    "switch",
    "fan",
    "cover",
    "climate",
    "media_player",
    "lock",
    "scene",
    "script",
    "alarm_control_panel",
    "valve",
    "vacuum",
    "humidifier",
    "water_heater",
    "input_boolean",
    "button",
)
DEFAULT_ALLOWED_DOMAINS: Final = (
    "light",
    "switch",
    "fan",
    "cover",
    "climate",
    "media_player",
    "lock",
    "scene",
    "script",
)
DEFAULT_ACTIONS_PER_MINUTE: Final = 10
# Actions on these domains need a spoken "yes" first (doors, locks, alarm panels, valves).
CONFIRM_DOMAINS: Final = frozenset({"lock", "alarm_control_panel", "cover", "valve"})
CONFIRM_DEVICE_CLASSES: Final = frozenset({"garage_door", "garage", "door", "gate"})
# Whose memories a speaker reaches: engine/memory/speakers.py (this is its household scope).
ASSIST_CLIENT_ID: Final = HOUSEHOLD_CLIENT_ID
EVENT_ALARM: Final = "homebuddy_proactive_alarm"
EVENT_WELLBEING: Final = "homebuddy_proactive_wellbeing"
# Alarms and reminders are said on a speaker (ringing.py): the options' speaker, how often a
# ring is said again and how many times; an event when nothing could say it.
CONF_ALARM_SPEAKER: Final = "alarm_speaker"
CONF_RING_REPEAT_SECONDS: Final = "ring_repeat_seconds"
CONF_RINGS: Final = "rings"
# Lines "glasses client id = speaker": where each person's alarms and reminders are said.
CONF_SPEAKERS: Final = "speakers"
EVENT_ALARM_FAILED: Final = "homebuddy_proactive_alarm_failed"
EVENT_REMINDER_DUE: Final = "homebuddy_proactive_reminder_due"
