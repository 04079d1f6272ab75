"""What the Assist agent says, in French, English and Greek.

Every spoken sentence of the deterministic handlers comes from :data:`PHRASES`, so a missing
translation is a test failure rather than an English sentence read to a French speaker. The
sentences are short and plain: they are read aloud by a TTS engine to an older person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..text.languages import ASSIST_FALLBACK, ASSIST_LANGUAGES

SPOKEN_LANGUAGES: Final = ASSIST_LANGUAGES
FALLBACK_LANGUAGE: Final = ASSIST_FALLBACK

PHRASES: Final[Mapping[str, Mapping[str, str]]] = {
    "fallback_invalid": {
        "fr": "Pardon, je n'ai pas bien compris. Pouvez-vous le redire autrement ?",
        "en": "Sorry, I didn't quite understand. Could you say it another way?",
        "el": "Συγγνώμη, δεν κατάλαβα καλά. Μπορείτε να το πείτε αλλιώς;",
    },
    "model_unavailable": {
        "fr": "Désolé, je n'arrive pas à réfléchir pour le moment. Réessayez dans un instant.",
        "en": "Sorry, I can't think right now. Please try again in a moment.",
        "el": "Συγγνώμη, δεν μπορώ να σκεφτώ αυτή τη στιγμή. Δοκιμάστε ξανά σε λίγο.",
    },
    "alarm_set": {
        "fr": "C'est noté, l'alarme sonnera à {time}.",
        "en": "All right, the alarm will ring at {time}.",
        "el": "Εντάξει, το ξυπνητήρι θα χτυπήσει στις {time}.",
    },
    "alarm_ringing": {
        "fr": "Il est {time}. C'est l'heure de votre alarme.",
        "en": "It's {time}. This is your alarm.",
        "el": "Είναι {time}. Ώρα για το ξυπνητήρι σας.",
    },
    "alarm_ask_time": {
        "fr": "À quelle heure voulez-vous l'alarme ?",
        "en": "What time should the alarm ring?",
        "el": "Τι ώρα να χτυπήσει το ξυπνητήρι;",
    },
    "alarm_failed": {
        "fr": "Je n'ai pas pu enregistrer cette alarme.",
        "en": "I couldn't save that alarm.",
        "el": "Δεν μπόρεσα να αποθηκεύσω αυτό το ξυπνητήρι.",
    },
    "alarm_none": {
        "fr": "Vous n'avez aucune alarme.",
        "en": "You have no alarms.",
        "el": "Δεν έχετε κανένα ξυπνητήρι.",
    },
    "alarm_list_one": {
        "fr": "Vous avez une alarme, à {times}.",
        "en": "You have one alarm, at {times}.",
        "el": "Έχετε ένα ξυπνητήρι, στις {times}.",
    },
    "alarm_list_many": {
        "fr": "Vous avez {count} alarmes : {times}.",
        "en": "You have {count} alarms: {times}.",
        "el": "Έχετε {count} ξυπνητήρια: {times}.",
    },
    "alarm_cancelled": {
        "fr": "C'est annulé : plus d'alarme à {times}.",
        "en": "Done, the alarm at {times} is cancelled.",
        "el": "Έγινε, το ξυπνητήρι στις {times} ακυρώθηκε.",
    },
    "alarm_not_found": {
        "fr": "Je ne trouve pas d'alarme à {time}.",
        "en": "I can't find an alarm at {time}.",
        "el": "Δεν βρίσκω ξυπνητήρι στις {time}.",
    },
    "alarm_which": {
        "fr": "Vous avez {count} alarmes : {times}. Laquelle faut-il annuler ?",
        "en": "You have {count} alarms: {times}. Which one should I cancel?",
        "el": "Έχετε {count} ξυπνητήρια: {times}. Ποιο να ακυρώσω;",
    },
    "memory_saved": {
        "fr": "C'est noté, je m'en souviendrai.",
        "en": "Got it, I'll remember that.",
        "el": "Εντάξει, θα το θυμάμαι.",
    },
    "memory_failed": {
        "fr": "Je n'ai pas pu retenir cela.",
        "en": "I couldn't remember that.",
        "el": "Δεν μπόρεσα να το θυμηθώ.",
    },
    "memory_recall": {
        "fr": "Voici ce que je sais sur {subject} : {facts}",
        "en": "Here is what I know about {subject}: {facts}",
        "el": "Να τι ξέρω για {subject}: {facts}",
    },
    "memory_recall_any": {
        "fr": "Voici ce dont je me souviens : {facts}",
        "en": "Here is what I remember: {facts}",
        "el": "Να τι θυμάμαι: {facts}",
    },
    "memory_nothing": {
        "fr": "Je ne sais encore rien sur {subject}.",
        "en": "I don't know anything about {subject} yet.",
        "el": "Δεν ξέρω ακόμα τίποτα για {subject}.",
    },
    "memory_nothing_any": {
        "fr": "Je n'ai encore rien retenu.",
        "en": "I haven't remembered anything yet.",
        "el": "Δεν έχω κρατήσει τίποτα ακόμα.",
    },
    "service_done": {
        "fr": "C'est fait : {names}.",
        "en": "Done: {names}.",
        "el": "Έγινε: {names}.",
    },
    "service_need_target": {
        "fr": "Quel appareil voulez-vous que je commande ?",
        "en": "Which device should I control?",
        "el": "Ποια συσκευή να χειριστώ;",
    },
    "service_not_found": {
        "fr": "Je ne trouve pas « {name} » parmi les appareils que je peux commander.",
        "en": "I can't find “{name}” among the devices I'm allowed to control.",
        "el": "Δεν βρίσκω «{name}» στις συσκευές που μπορώ να χειριστώ.",
    },
    "service_not_allowed": {
        "fr": "Je n'ai pas le droit de commander {names}.",
        "en": "I'm not allowed to control {names}.",
        "el": "Δεν επιτρέπεται να χειριστώ {names}.",
    },
    "service_unsupported": {
        "fr": "Je ne sais pas faire cette commande.",
        "en": "I don't know how to do that.",
        "el": "Δεν ξέρω να το κάνω αυτό.",
    },
    "service_rate_limited": {
        "fr": (
            "J'ai déjà fait beaucoup de commandes cette minute. Attendez un peu, s'il vous plaît."
        ),
        "en": "I've already done many actions this minute. Please wait a little.",
        "el": "Έχω ήδη κάνει πολλές ενέργειες αυτό το λεπτό. Περιμένετε λίγο, παρακαλώ.",
    },
    "service_failed": {
        "fr": "Je n'ai pas réussi à commander {names}.",
        "en": "I couldn't control {names}.",
        "el": "Δεν κατάφερα να χειριστώ {names}.",
    },
    "confirm_question": {
        "fr": "Voulez-vous vraiment {action} {names} ?",
        "en": "Do you really want me to {action} {names}?",
        "el": "Θέλετε σίγουρα να {action} {names};",
    },
    "confirm_declined": {
        "fr": "D'accord, je ne fais rien.",
        "en": "All right, I won't do anything.",
        "el": "Εντάξει, δεν κάνω τίποτα.",
    },
    "weather_not_configured": {
        "fr": "Aucune météo n'est choisie dans les options de HomeBuddy.",
        "en": "No weather service is chosen in HomeBuddy's options.",
        "el": "Δεν έχει επιλεγεί υπηρεσία καιρού στις ρυθμίσεις του HomeBuddy.",
    },
    "weather_unavailable": {
        "fr": "La météo n'est pas disponible pour le moment.",
        "en": "The weather isn't available right now.",
        "el": "Ο καιρός δεν είναι διαθέσιμος αυτή τη στιγμή.",
    },
    "weather_now": {
        "fr": "En ce moment : {condition}, {temperature} degrés.",
        "en": "Right now: {condition}, {temperature} degrees.",
        "el": "Αυτή τη στιγμή: {condition}, {temperature} βαθμοί.",
    },
    "weather_now_no_temperature": {
        "fr": "En ce moment : {condition}.",
        "en": "Right now: {condition}.",
        "el": "Αυτή τη στιγμή: {condition}.",
    },
    "weather_today": {
        "fr": "Aujourd'hui, entre {low} et {high} degrés.",
        "en": "Today, between {low} and {high} degrees.",
        "el": "Σήμερα, από {low} έως {high} βαθμούς.",
    },
    "weather_tomorrow": {
        "fr": "Demain : {condition}, entre {low} et {high} degrés.",
        "en": "Tomorrow: {condition}, between {low} and {high} degrees.",
        "el": "Αύριο: {condition}, από {low} έως {high} βαθμούς.",
    },
    "weather_tomorrow_short": {
        "fr": "Demain : {condition}.",
        "en": "Tomorrow: {condition}.",
        "el": "Αύριο: {condition}.",
    },
    "news_not_configured": {
        "fr": "Aucune source d'actualités n'est choisie dans les options de HomeBuddy.",
        "en": "No news feed is chosen in HomeBuddy's options.",
        "el": "Δεν έχει επιλεγεί πηγή ειδήσεων στις ρυθμίσεις του HomeBuddy.",
    },
    "news_unavailable": {
        "fr": "Je n'arrive pas à joindre la source d'actualités. Réessayez plus tard.",
        "en": "I can't reach the news feed right now. Please try again later.",
        "el": "Δεν μπορώ να συνδεθώ με την πηγή ειδήσεων. Δοκιμάστε αργότερα.",
    },
    "news_empty": {
        "fr": "La source d'actualités n'a aucun titre pour le moment.",
        "en": "The news feed has no headlines right now.",
        "el": "Η πηγή ειδήσεων δεν έχει τίτλους αυτή τη στιγμή.",
    },
    "news_headlines": {
        "fr": "Voici les titres. {headlines}",
        "en": "Here are the headlines. {headlines}",
        "el": "Οι τίτλοι των ειδήσεων. {headlines}",
    },
}

# Verbs of the confirmation question, by (domain, turning on). None: any other action.
ACTION_VERBS: Final[Mapping[tuple[str, bool | None], Mapping[str, str]]] = {
    ("lock", True): {"fr": "verrouiller", "en": "lock", "el": "κλειδώσω"},
    ("lock", False): {"fr": "déverrouiller", "en": "unlock", "el": "ξεκλειδώσω"},
    ("cover", True): {"fr": "ouvrir", "en": "open", "el": "ανοίξω"},
    ("cover", False): {"fr": "fermer", "en": "close", "el": "κλείσω"},
    ("valve", True): {"fr": "ouvrir", "en": "open", "el": "ανοίξω"},
    ("valve", False): {"fr": "fermer", "en": "close", "el": "κλείσω"},
    ("alarm_control_panel", True): {"fr": "armer", "en": "arm", "el": "οπλίσω"},
    ("alarm_control_panel", False): {"fr": "désarmer", "en": "disarm", "el": "αφοπλίσω"},
    ("", True): {"fr": "allumer", "en": "turn on", "el": "ανάψω"},
    ("", False): {"fr": "éteindre", "en": "turn off", "el": "σβήσω"},
    ("", None): {"fr": "régler", "en": "adjust", "el": "ρυθμίσω"},
}

CONDITIONS: Final[Mapping[str, Mapping[str, str]]] = {
    "clear-night": {"fr": "nuit claire", "en": "clear night", "el": "καθαρός ουρανός"},
    "cloudy": {"fr": "nuageux", "en": "cloudy", "el": "συννεφιά"},
    "exceptional": {
        "fr": "temps exceptionnel",
        "en": "exceptional weather",
        "el": "ακραίος καιρός",
    },
    "fog": {"fr": "brouillard", "en": "fog", "el": "ομίχλη"},
    "hail": {"fr": "grêle", "en": "hail", "el": "χαλάζι"},
    "lightning": {"fr": "orages", "en": "thunderstorms", "el": "καταιγίδες"},
    "lightning-rainy": {
        "fr": "orages et pluie",
        "en": "thunderstorms and rain",
        "el": "καταιγίδες με βροχή",
    },
    "partlycloudy": {"fr": "partiellement nuageux", "en": "partly cloudy", "el": "λίγα σύννεφα"},
    "pouring": {"fr": "fortes pluies", "en": "heavy rain", "el": "δυνατή βροχή"},
    "rainy": {"fr": "pluie", "en": "rain", "el": "βροχή"},
    "snowy": {"fr": "neige", "en": "snow", "el": "χιόνι"},
    "snowy-rainy": {"fr": "pluie et neige", "en": "sleet", "el": "χιονόνερο"},
    "sunny": {"fr": "ensoleillé", "en": "sunny", "el": "λιακάδα"},
    "windy": {"fr": "venteux", "en": "windy", "el": "αέρας"},
    "windy-variant": {
        "fr": "venteux et nuageux",
        "en": "windy and cloudy",
        "el": "αέρας και σύννεφα",
    },
}

_AND: Final = {"fr": "et", "en": "and", "el": "και"}


def spoken_language(language: str | None) -> str:
    """Return the phrasebook language for a language code ("fr-FR" → "fr"; others → English)."""
    base = (language or "").split("-")[0].split("_")[0].strip().lower()
    return base if base in SPOKEN_LANGUAGES else FALLBACK_LANGUAGE


def say(key: str, language: str, **values: object) -> str:
    """Return the sentence ``key`` in ``language`` with ``values`` filled in."""
    return PHRASES[key][spoken_language(language)].format(**values)


def join_names(names: Sequence[str], language: str) -> str:
    """Join names the way they are said: "A, B et C"."""
    items = [n for n in names if n]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {_AND[spoken_language(language)]} {items[-1]}"


def spoken_time(hour: int, minute: int, language: str) -> str:
    """Say a wall-clock time the way a TTS engine reads it well in ``language``."""
    lang = spoken_language(language)
    if lang == "fr":
        if (hour, minute) == (12, 0):
            return "midi"
        if (hour, minute) == (0, 0):
            return "minuit"
        unit = "heure" if hour in (0, 1) else "heures"
        return f"{hour} {unit}" if minute == 0 else f"{hour} {unit} {minute:02d}"
    if lang == "en":
        suffix = "AM" if hour < 12 else "PM"
        twelve = hour % 12 or 12
        return f"{twelve} {suffix}" if minute == 0 else f"{twelve}:{minute:02d} {suffix}"
    return f"{hour}:{minute:02d}"


def action_verb(domain: str, turning_on: bool | None, language: str) -> str:
    """Return the verb of a confirmation question for an action on ``domain``."""
    verbs = ACTION_VERBS.get((domain, turning_on)) or ACTION_VERBS[("", turning_on)]
    return verbs[spoken_language(language)]


def condition_name(condition: str, language: str) -> str:
    """Return a weather condition (HA's condition vocabulary) in words."""
    names = CONDITIONS.get(condition)
    if names is None:
        return condition.replace("-", " ")
    return names[spoken_language(language)]


def spoken_number(value: float) -> str:
    """Round a measurement to a whole number for speech ("21.6" → "22")."""
    return str(round(value))


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
