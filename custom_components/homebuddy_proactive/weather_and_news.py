"""Spoken answers about the weather and the news: the entity and the feed chosen in the options.

The weather comes from a Home Assistant weather entity (current conditions, and today's and
tomorrow's daily forecast when the entity gives one); the news are the first headlines of an
RSS or Atom feed. Neither raises to the user: a missing entity, a failed forecast or an
unreachable feed becomes a short sentence in their language.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any, Final

import voluptuous as vol
from homeassistant.const import STATE_UNAVAILABLE, STATE_UNKNOWN
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.util import dt as dt_util

from .const import LOGGER
from .engine.assist import (
    DayForecast,
    NewsReader,
    NewsUnavailableError,
    describe_weather,
    say,
)

HEADLINES: Final = 3


async def async_weather_answer(
    hass: HomeAssistant, weather_entity: str | None, language: str, context: Context
) -> str:
    """Say the current weather of ``weather_entity``, with today's and tomorrow's forecast."""
    if not weather_entity:
        return say("weather_not_configured", language)
    state = hass.states.get(weather_entity)
    if state is None or state.state in (STATE_UNAVAILABLE, STATE_UNKNOWN):
        return say("weather_unavailable", language)
    forecast: list[dict[str, Any]] = []
    try:
        response = await hass.services.async_call(
            "weather",
            "get_forecasts",
            {"entity_id": weather_entity, "type": "daily"},
            blocking=True,
            return_response=True,
            context=context,
        )
    except (HomeAssistantError, vol.Invalid) as err:
        # The current conditions are still worth saying without a forecast.
        LOGGER.debug("No daily forecast from %s: %s", weather_entity, err)
    else:
        entity_forecast = (response or {}).get(weather_entity)
        days = entity_forecast.get("forecast") if isinstance(entity_forecast, dict) else None
        if isinstance(days, list):
            forecast = [day for day in days if isinstance(day, dict)]
    today, tomorrow = _today_and_tomorrow(forecast, dt_util.now().date())
    temperature = state.attributes.get("temperature")
    return describe_weather(
        language=language,
        condition=state.state,
        temperature=float(temperature) if isinstance(temperature, int | float) else None,
        today=today,
        tomorrow=tomorrow,
    )


async def async_news_answer(news: NewsReader | None, language: str) -> str:
    """Read the first headlines of the news feed, or say why there are none."""
    if news is None:
        return say("news_not_configured", language)
    try:
        headlines = await news.headlines(HEADLINES)
    except NewsUnavailableError as err:
        LOGGER.info("News feed unavailable: %s", err)
        return say("news_unavailable", language)
    if not headlines:
        return say("news_empty", language)
    spoken = " ".join(f"{h.title.rstrip(' .')}." for h in headlines)
    return say("news_headlines", language, headlines=spoken)


def _forecast_day(entry: dict[str, Any]) -> DayForecast:
    def number(key: str) -> float | None:
        value = entry.get(key)
        return float(value) if isinstance(value, int | float) else None

    condition = entry.get("condition")
    return DayForecast(
        condition=condition if isinstance(condition, str) else None,
        high=number("temperature"),
        low=number("templow"),
    )


def _today_and_tomorrow(
    forecast: Sequence[dict[str, Any]], today: date
) -> tuple[DayForecast | None, DayForecast | None]:
    """Pick today's and tomorrow's entries of a daily forecast by their dates."""
    days: dict[date, DayForecast] = {}
    for entry in forecast:
        when = entry.get("datetime")
        parsed = dt_util.parse_datetime(when) if isinstance(when, str) else None
        if isinstance(when, datetime):
            parsed = when
        if parsed is None:
            continue
        days.setdefault(dt_util.as_local(parsed).date(), _forecast_day(entry))
    return days.get(today), days.get(today + timedelta(days=1))
