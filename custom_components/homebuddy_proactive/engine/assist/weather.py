"""What Assist says about the weather: the current conditions, today's range, tomorrow."""

from __future__ import annotations

from dataclasses import dataclass

from .phrases import condition_name, say, spoken_number


@dataclass(frozen=True, kw_only=True, slots=True)
class DayForecast:
    """One day of a forecast, as much as the weather entity gave."""

    condition: str | None = None
    high: float | None = None
    low: float | None = None


def describe_weather(
    *,
    language: str,
    condition: str | None,
    temperature: float | None,
    today: DayForecast | None,
    tomorrow: DayForecast | None,
) -> str:
    """Say the current weather and, when known, today's range and tomorrow's forecast."""
    sentences: list[str] = []
    if condition:
        words = condition_name(condition, language)
        if temperature is not None:
            sentences.append(
                say(
                    "weather_now", language, condition=words, temperature=spoken_number(temperature)
                )
            )
        else:
            sentences.append(say("weather_now_no_temperature", language, condition=words))
    if today and today.high is not None and today.low is not None:
        sentences.append(
            say(
                "weather_today",
                language,
                low=spoken_number(today.low),
                high=spoken_number(today.high),
            )
        )
    if tomorrow and tomorrow.condition:
        words = condition_name(tomorrow.condition, language)
        if tomorrow.high is not None and tomorrow.low is not None:
            sentences.append(
                say(
                    "weather_tomorrow",
                    language,
                    condition=words,
                    low=spoken_number(tomorrow.low),
                    high=spoken_number(tomorrow.high),
                )
            )
        else:
            sentences.append(say("weather_tomorrow_short", language, condition=words))
    if not sentences:
        return say("weather_unavailable", language)
    return " ".join(sentences)
