"""Constants of the Home Assistant glue."""

from __future__ import annotations

import logging
from typing import Final

DOMAIN: Final = "homebuddy_proactive"
LOGGER = logging.getLogger(__package__)

CONF_URL: Final = "url"
CONF_MODEL: Final = "model"
CONF_DETECTOR_MODE: Final = "detector_mode"

DEFAULT_URL: Final = "http://127.0.0.1:11434"
DATABASE_FILENAME: Final = "homebuddy_proactive.db"

EVENT_INSIGHT: Final = "homebuddy_proactive_insight"
WS_VIEW_URL: Final = "/api/homebuddy_proactive/ws"
