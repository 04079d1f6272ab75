"""What Assist says in English, and its router prompt in English."""

from __future__ import annotations

from typing import Final

from ..phrasebook import Phrasebook


def spoken_time(hour: int, minute: int) -> str:
    """Say a wall-clock time: "7:30 AM", "7 PM"."""
    suffix = "AM" if hour < 12 else "PM"
    twelve = hour % 12 or 12
    return f"{twelve} {suffix}" if minute == 0 else f"{twelve}:{minute:02d} {suffix}"


PHRASEBOOK: Final = Phrasebook(
    sentences={
        "fallback_invalid": ("Sorry, I didn't quite understand. Could you say it another way?"),
        "model_unavailable": ("Sorry, I can't think right now. Please try again in a moment."),
        "alarm_set": "All right, the alarm will ring at {time}.",
        "alarm_set_where": "All right, the alarm will ring at {time} on {speaker}.",
        "alarm_set_nowhere": (
            "Noted for {time}, but no speaker can ring it: choose one in the HomeBuddy "
            "Proactive options, under Assist."
        ),
        "ring_stopped": "All right, I'll stop.",
        "ring_snoozed": "All right, I'll ring again in {minutes} minutes.",
        "ring_nothing": "Nothing is ringing right now.",
        "ring_failed_title": "HomeBuddy: an alarm or reminder was not heard",
        "ring_failed_no_speaker": (
            "No speaker is chosen for alarms and reminders "
            "(HomeBuddy Proactive → Configure → Assist)."
        ),
        "ring_failed_speaker": "{speaker} could not say it ({error}).",
        "reminder_set_where": "I'll remind you {when}: {what}. I'll say it on {speaker}.",
        "reminder_set_nowhere": (
            "I'll remind you {when}: {what}. But no speaker can say it: choose one in the "
            "HomeBuddy Proactive options, under Assist."
        ),
        "reminder_ringing": "Reminder: {what}.",
        "reminder_late": "Late reminder, due at {time}: {what}.",
        "reminder_saved": "Noted, I'll remember: {what}.",
        "when_morning": "this morning at {time}",
        "when_afternoon": "this afternoon at {time}",
        "when_evening": "this evening at {time}",
        "when_tomorrow": "tomorrow at {time}",
        "when_day": "on {day} at {time}",
        "when_daily": "every day at {time}",
        "when_weekly": "every {day} at {time}",
        "when_date": "on {date} at {time}",
        "weekdays": "Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday",
        "reminder_scheduled": "I'll remind you {when}: {what}.",
        "alarm_exists": "You already have an alarm at {time}.",
        "alarm_ringing": "It's {time}. This is your alarm.",
        "alarm_ask_time": "What time should the alarm ring?",
        "alarm_failed": "I couldn't save that alarm.",
        "alarm_none": "You have no alarms.",
        "alarm_list_one": "You have one alarm, at {times}.",
        "alarm_list_many": "You have {count} alarms: {times}.",
        "alarm_cancelled": "Done, the alarm at {times} is cancelled.",
        "alarm_not_found": "I can't find an alarm at {time}.",
        "alarm_which": "You have {count} alarms: {times}. Which one should I cancel?",
        "memory_saved": "Got it, I'll remember that.",
        "memory_failed": "I couldn't remember that.",
        "memory_recall": "Here is what I know about {subject}: {facts}",
        "affect_fall": (
            "Oh no! Take your time and don't get up too quickly. "
            "If you're hurt, call your emergency number."
        ),
        "affect_pain": (
            "I'm sorry you're in pain. If it's strong or unusual, please call your doctor."
        ),
        "affect_loneliness": (
            "I'm here with you. Would you like to talk for a while, or call someone you love?"
        ),
        "affect_fear": "I'm here. Breathe slowly, and tell me what's worrying you.",
        "affect_sadness": "I'm sorry you feel this way. I'm here if you'd like to talk.",
        "memory_recall_any": "Here is what I remember: {facts}",
        "memory_nothing": "I don't know anything about {subject} yet.",
        "memory_nothing_any": "I haven't remembered anything yet.",
        "memory_api_name": "HomeBuddy memory",
        "memory_api_prompt": (
            "You can use the HomeBuddy memory of the person you are talking to. Before saying you "
            "do not know something about them, their family, their appointments or their "
            "preferences, recall it with {recall}. When they tell you a lasting fact about "
            "themselves and ask you to keep it, save it with {remember}. For their reminders, "
            "tasks and alarms, use {reminders}. Never invent a memory."
        ),
        "service_done": "Done: {names}.",
        "service_need_target": "Which device should I control?",
        "service_not_found": ("I can't find “{name}” among the devices I'm allowed to control."),
        "service_not_allowed": "I'm not allowed to control {names}.",
        "service_unsupported": "I don't know how to do that.",
        "service_rate_limited": (
            "I've already done many actions this minute. Please wait a little."
        ),
        "service_failed": "I couldn't control {names}.",
        "confirm_question": "Do you really want me to {action} {names}?",
        "confirm_declined": "All right, I won't do anything.",
        "weather_not_configured": "No weather service is chosen in HomeBuddy's options.",
        "weather_unavailable": "The weather isn't available right now.",
        "weather_now": "Right now: {condition}, {temperature} degrees.",
        "weather_now_no_temperature": "Right now: {condition}.",
        "weather_today": "Today, between {low} and {high} degrees.",
        "weather_tomorrow": "Tomorrow: {condition}, between {low} and {high} degrees.",
        "weather_tomorrow_short": "Tomorrow: {condition}.",
        "news_not_configured": "No news feed is chosen in HomeBuddy's options.",
        "news_unavailable": ("I can't reach the news feed right now. Please try again later."),
        "news_empty": "The news feed has no headlines right now.",
        "news_headlines": "Here are the headlines. {headlines}",
    },
    action_verbs={
        ("lock", True): "lock",
        ("lock", False): "unlock",
        ("cover", True): "open",
        ("cover", False): "close",
        ("valve", True): "open",
        ("valve", False): "close",
        ("alarm_control_panel", True): "arm",
        ("alarm_control_panel", False): "disarm",
        ("", True): "turn on",
        ("", False): "turn off",
        ("", None): "adjust",
    },
    conditions={
        "clear-night": "clear night",
        "cloudy": "cloudy",
        "exceptional": "exceptional weather",
        "fog": "fog",
        "hail": "hail",
        "lightning": "thunderstorms",
        "lightning-rainy": "thunderstorms and rain",
        "partlycloudy": "partly cloudy",
        "pouring": "heavy rain",
        "rainy": "rain",
        "snowy": "snow",
        "snowy-rainy": "sleet",
        "sunny": "sunny",
        "windy": "windy",
        "windy-variant": "windy and cloudy",
    },
    and_word="and",
    spoken_time=spoken_time,
    router_prompt={
        "intro": (
            "You are HomeBuddy, the kind voice assistant of an older person, at home. You get "
            "what they just said (transcribed, sometimes imperfectly) and answer ONLY with a "
            "JSON object following the schema, choosing one command:"
        ),
        "language": "Answer in English, with short, simple and warm sentences.",
        "now": "It is {now}.",
        "memories": "What you know about this person:",
        "episode": "Summary of the recent conversation:",
        "devices": "Devices you may control:",
    },
)
